// The Ko shogi page (web/koshogi.html) for every screen and language, in headless Chromium at
// 1280 and 390 px, in English and in Japanese as chosen on the Goita page before its link to Ko
// shogi is followed. Each screen: the page speaks the language chosen (no English word left in
// Japanese besides the notation, in every piece's help too), has no serious or critical axe-core violation, no sideways
// scroll, the Mode select whole on screen and its choice not cut; the board is one tab stop reached in a few Tabs, with
// "New game" soon after; a move is played with the arrows and Enter alone; at 390 px every piece's
// kanji is at least MIN_PHONE_FONT px. Every failure is reported, not only the first.
// Usage: node koshogi-screens.js URL [SCREENSHOT_PREFIX]
// With a prefix, it saves PREFIX-koshogi-LANG-WIDTH.png for each screen.
'use strict';
const fs = require('fs');
const path = require('path');
const { chromium } = require(path.join(__dirname, '../../tools/e2e/node_modules/playwright-core'));

const root = process.argv[2].replace(/\/?$/, '/');
const screenshot = process.argv[3];
const axeSource = fs.readFileSync(path.join(__dirname, '../../tools/e2e/node_modules/axe-core/axe.min.js'), 'utf8');
const MIN_PHONE_FONT = 12; // px: two or three kanji on one point stay legible on a phone
const MAX_TABS_TO_NEW_GAME = 10;
const failures = [];
const fail = (why) => failures.push(why);
setTimeout(() => { console.error('e2e koshogi-screens: took more than 150 s'); process.exit(1); }, 150000).unref();

// Every visible text on the page, with whether it is notation (inside translate="no"): text
// nodes, and the labels a screen reader says (aria-label, title, the options of selects).
function visibleTexts(root) {
  const out = [];
  const notation = (e) => !!e.closest('[translate="no"]');
  const top = root ? document.querySelector(root) : document.body;
  const walker = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = n.parentElement;
    if (!n.textContent.trim() || parent.closest('[hidden], script, style, textarea')) continue;
    if (parent.closest('#lang')) continue; // each language named in itself
    if (parent.closest('select')) { out.push({ text: n.textContent, notation: false }); continue; }
    const style = getComputedStyle(parent);
    if (style.display === 'none' || style.visibility === 'hidden' || !parent.getClientRects().length) continue;
    out.push({ text: n.textContent, notation: notation(parent) });
  }
  if (root) return out;
  for (const e of document.querySelectorAll('[aria-label], [title]'))
    if (!e.closest('[hidden]')) for (const a of ['aria-label', 'title']) if (e.getAttribute(a)) out.push({ text: e.getAttribute(a), notation: false });
  out.push({ text: document.title, notation: false });
  return out;
}

// English words on the page in Japanese. Piece IDs (CH, +CH) and point names (10j) are the
// notation's (docs/KOSHOGI-RULES.md, 7) and stay; inside notation (move lists, Betza), letters
// are notation but a lowercase word of three letters or more is English left over.
async function checkJapanese(page, name, root) {
  const ids = new Set(await page.$$eval('#help-piece option', (os) => os.map((o) => o.value.replace('+', ''))));
  const english = [];
  for (const { text, notation } of await page.evaluate(`(${visibleTexts.toString()})(${JSON.stringify(root || '')})`)) {
    const words = notation ? text.match(/\b[A-Za-z]?[a-z]{2,}\b/g) : text.match(/[A-Za-z]{2,}/g);
    for (const w of words || []) if (notation || !ids.has(w)) english.push(`${w} (in "${text.slice(0, 50)}")`);
  }
  if (english.length) fail(`${name}: English in Japanese: ${english.slice(0, 6).join(', ')}`);
}

async function checkAxe(page, name) {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(', ')}`);
  });
  if (found.length) fail(`${name}: axe-core: ${found.join('; ')}`);
}

// No sideways scroll, and the Mode select whole on the screen.
async function checkLayout(page, name) {
  const { scroll, inner, mode, text, room } = await page.evaluate(() => {
    const select = document.getElementById('mode');
    const r = select.getBoundingClientRect();
    const context = document.createElement('canvas').getContext('2d');
    context.font = getComputedStyle(select).font;
    // the option shown and the select's room for it, less its arrow
    return { scroll: document.documentElement.scrollWidth, inner: window.innerWidth, mode: [r.left, r.right],
      text: context.measureText(select.selectedOptions[0].textContent).width, room: select.clientWidth - 28 };
  });
  if (scroll > inner) fail(`${name}: the page is ${scroll} px wide in a ${inner} px window`);
  if (mode[0] < 0 || mode[1] > inner) fail(`${name}: the Mode select spans ${mode[0]}..${mode[1]} px of ${inner}`);
  if (text > room) fail(`${name}: the Mode select cuts its choice: ${text.toFixed(0)} px of text in ${room} px`);
}

// Tabs from the top of the page to "New game": few, and the board one stop among them, a gridcell.
async function checkTabs(page, name) {
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  const stops = [];
  for (let i = 0; i < 400; i++) {
    await page.keyboard.press('Tab');
    const at = await page.evaluate(() => {
      const e = document.activeElement;
      return { role: e.getAttribute('role'), newGame: e.matches('#new-form button[type=submit]') };
    });
    stops.push(at.role || '');
    if (at.newGame) break;
  }
  const cells = stops.filter((r) => r === 'gridcell').length;
  if (stops.length > MAX_TABS_TO_NEW_GAME) fail(`${name}: ${stops.length} Tabs to reach New game (at most ${MAX_TABS_TO_NEW_GAME})`);
  if (cells !== 1) fail(`${name}: the board is ${cells} tab stops on the way to New game, not 1`);
}

// The board as a grid: rows of gridcells. Then the vanguard from 10m to 10l by the arrows from the
// cursor's start (10j) and Enter, with the focus kept on the board.
async function checkKeyboardMove(page, name) {
  const shape = await page.evaluate(() => {
    const b = document.getElementById('board');
    const rows = [...b.children].filter((r) => r.getAttribute('role') === 'row');
    return { rows: rows.length, cells: rows.reduce((n, r) => n + r.querySelectorAll(':scope > [role=gridcell]').length, 0), children: b.children.length };
  });
  if (shape.rows !== 19 || shape.cells !== 361 || shape.children !== 19) return fail(`${name}: the grid is ${JSON.stringify(shape)}, not 19 rows of 19 gridcells`);
  const cursor = '#board [role=gridcell][tabindex="0"]';
  if ((await page.$$(cursor)).length !== 1) return fail(`${name}: the board has ${(await page.$$(cursor)).length} tab stops`);
  await page.focus(cursor);
  const here = () => page.evaluate(() => document.activeElement.dataset.p);
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
  if ((await here()) !== String(12 * 19 + 9)) return fail(`${name}: three Down arrows from 10j reach point ${await here()}, not 10m`);
  await page.keyboard.press('Enter');
  if (name.startsWith('ja')) await checkJapanese(page, `${name}, a move being chosen`);
  const selected = await page.$eval(`#board [data-p="${12 * 19 + 9}"]`, (e) => e.getAttribute('aria-selected'));
  if (selected !== 'true') fail(`${name}: Enter on 10m did not select the vanguard (aria-selected=${selected})`);
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press(' ');
  await page.waitForFunction(() => document.querySelectorAll('#moves button').length >= 1, null, { timeout: 3000 })
    .catch(() => fail(`${name}: Up and Space did not play the vanguard to 10l`));
  const first = await page.$eval('#moves', (e) => e.textContent);
  if (!/10l/.test(first)) fail(`${name}: the move played is "${first}", not to 10l`);
  if ((await page.evaluate(() => document.activeElement.getAttribute('role'))) !== 'gridcell') fail(`${name}: the focus left the board after the move`);
}

// The smallest piece text on the board.
async function checkPieceSize(page, name) {
  const smallest = await page.$$eval('#board .pc', (ps) => Math.min(...ps.map((p) => parseFloat(getComputedStyle(p).fontSize))));
  if (!(smallest >= MIN_PHONE_FONT)) fail(`${name}: the smallest piece is ${smallest.toFixed(1)} px, under ${MIN_PHONE_FONT} px`);
}

(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  for (const lang of ['en', 'ja']) {
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      const name = `${lang} at ${viewport.width} px`;
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      page.on('pageerror', (e) => fail(`${name}: ${e.message}`));
      // the language chosen on the Goita page, then its link to Ko shogi
      await page.goto(root);
      await page.evaluate((l) => localStorage.setItem('goita.lang', l), lang);
      await page.click('#koshogi-link');
      await page.waitForURL(/\/koshogi\.html$/);
      await page.waitForFunction(() => document.querySelectorAll('#board .pc').length > 100 && document.querySelector('#help-body h3'), null, { timeout: 15000 })
        .catch(() => fail(`${name}: the engine did not start`));
      const pageLang = await page.evaluate(() => document.documentElement.lang);
      if (pageLang !== lang) fail(`${name}: the page's language is ${pageLang}`);
      await checkLayout(page, name);
      await checkAxe(page, name);
      if (lang === 'ja') await checkJapanese(page, name);
      if (viewport.width < 700) await checkPieceSize(page, name);
      await checkTabs(page, name);
      await checkKeyboardMove(page, name);
      // the help of a shooter (powers, rules in words) and a move being chosen
      await page.selectOption('#help-piece', '+TP');
      await page.waitForFunction(() => /五里霧/.test(document.querySelector('#help-body h3').textContent));
      if (/KOSHOGI-RULES/.test(await page.textContent('body'))) fail(`${name}: a rule is cited by its file`);
      if (lang === 'ja') await checkJapanese(page, `${name}, the help and a game`);
      await checkAxe(page, `${name}, the help and a game`);
      await checkLayout(page, `${name}, the help and a game`);
      // every face's help, in Japanese
      if (lang === 'ja' && viewport.width > 700) {
        for (const id of await page.$$eval('#help-piece option', (os) => os.map((o) => o.value))) {
          await page.selectOption('#help-piece', id);
          await page.waitForFunction((want) => document.querySelector('#help-body h3').textContent.includes(`（${want}）`), id);
          await checkJapanese(page, `${name}, the help of ${id}`, '#help-body');
        }
      }
      if (screenshot) await page.screenshot({ path: `${screenshot}-koshogi-${lang}-${viewport.width}.png` });
      await context.close();
    }
  }
  await browser.close();
  if (failures.length) {
    for (const f of failures) console.error('e2e koshogi-screens: ' + f);
    process.exit(1);
  }
  console.log('e2e koshogi-screens: ok');
})().catch((e) => { console.error('e2e koshogi-screens: ' + e.message); process.exit(1); });
