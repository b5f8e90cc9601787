// The tutorial in real headless Chromium: opened from the header's link, every lesson passed by
// clicks on the table (the WebAssembly engine checks each exercise), at desktop and phone size,
// in English and Japanese, one rule set per run so that all three are played. Each screen must
// fit the width, have no serious axe-core violation, and the progress must be kept over a
// reload. A wrong move must fail its exercise. Usage: node tutorial.js URL [SHOTS_DIR]
'use strict';
const fs = require('fs');
const path = require('path');
const { chromium } = require(path.join(__dirname, '../../tools/e2e/node_modules/playwright-core'));
const { checkScreen } = require('./screen-checks');

const [url, shots] = process.argv.slice(2);
const axeSource = fs.readFileSync(path.join(__dirname, '../../tools/e2e/node_modules/axe-core/axe.min.js'), 'utf8');
const fail = (why) => { console.error('e2e tutorial: ' + why); process.exit(1); };

// What the reader plays in each lesson, by rule set: pieces [face-down or answer, attack] by
// kanji, 'pass', 'go' (play on after 5 pawns), or a quiz answer by its index.
const KING_LAST = { standard: [['し', '王']], japanese: [['王', 'し']], french: [['し', '王']] };
const SOLUTIONS = {
  pieces: () => [['香', '飛']],
  lead: () => [['し', '飛']],
  answer: () => [['馬', '金']],
  king: (rs) => KING_LAST[rs],
  scoring: () => [['し', '香'], ['金', '金']],
  goshi: () => ['go'],
  teyaku: (rs) => [{ quiz: rs === 'french' ? 3 : 1 }],
  team: () => ['pass'],
};
const WORDS = { en: { pass: 'Pass', go: 'Play on', learn: 'Learn' }, ja: { pass: 'なし', go: 'このまま打つ', learn: '遊び方' } };

// Fails when the page scrolls sideways.
async function fits(page, where) {
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  if (scroll > width) fail(`${where}: the page is ${scroll} px wide on a ${width} px screen`);
}

// axe-core's serious and critical violations.
async function axe(page, where) {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(', ')}`);
  });
  if (found.length) fail(`${where}: axe-core: ${found.join('; ')}`);
}

// Clicks the reader's piece of the kanji once the table offers it.
async function clickPiece(page, kanji, where) {
  const piece = page.locator('#hand button.tile:not([disabled]):not(.chosen)').filter({ hasText: kanji }).first();
  await piece.waitFor({ timeout: 10000 }).catch(async () => fail(`${where}: no ${kanji} to play (prompt: ${await page.textContent('#prompt')})`));
  await piece.click();
}

// Plays one step of a solution.
async function step(page, lang, s, where) {
  if (Array.isArray(s)) {
    // counted once the table offers the first piece: the table of the position the step plays
    // in, not the one of the last lesson or of the move before, still on screen
    await page.locator('#hand button.tile:not([disabled]):not(.chosen)').filter({ hasText: s[0] }).first()
      .waitFor({ timeout: 10000 }).catch(async () => fail(`${where}: no ${s[0]} to play (prompt: ${await page.textContent('#prompt')})`));
    const before = await page.locator('#hand .tile').count();
    await clickPiece(page, s[0], where);
    await clickPiece(page, s[1], where);
    // played: the next step waits for the table drawn after it, not the hand still on screen
    await page.waitForFunction((n) => document.querySelectorAll('#hand .tile').length === n - 2, before, { timeout: 10000 })
      .catch(async () => fail(`${where}: the move ${s.join(' ')} was not played (prompt: ${await page.textContent('#prompt')}; ` +
        `${await page.locator('#hand .tile').count()} pieces in hand, ${before} before; ` +
        `${await page.locator('#hand button.tile.chosen').count()} chosen; status: ${await page.textContent('#tut-status')})`));
  } else if (s === 'pass' || s === 'go') {
    const b = page.locator('#actions button').filter({ hasText: WORDS[lang][s] });
    await b.waitFor({ timeout: 10000 }).catch(() => fail(`${where}: no ${s} button`));
    await b.click();
  } else {
    const b = page.locator('#tut-choices button.tut-choice').nth(s.quiz);
    await b.waitFor({ timeout: 10000 }).catch(() => fail(`${where}: no quiz choice ${s.quiz}`));
    await b.click();
  }
}

// Passes every lesson of one rule set at one size and language.
async function run(browser, size, lang, rs, shoot, screens) {
  const where = `${size.width} px, ${lang}, ${rs}`;
  const context = await browser.newContext({ viewport: size, locale: lang === 'ja' ? 'ja-JP' : 'en-US' });
  const page = await context.newPage();
  page.on('pageerror', (e) => fail(`${where}: ${e.message}`));
  let online = false; // the lobby, once back there, connects
  page.on('websocket', () => { if (!online) fail(`${where}: the tutorial opened a WebSocket`); });
  await page.addInitScript(([l, r]) => {
    if (!sessionStorage.getItem('set')) {
      sessionStorage.setItem('set', '1');
      localStorage.setItem('goita.lang', l);
      localStorage.setItem('goita.offline.pace', '0');
      localStorage.setItem('goita.tutorial', JSON.stringify({ rules: r, passed: {} }));
    }
  }, [lang, rs]);
  // from the lobby's header link (the lobby itself needs the server; the link works without)
  await page.goto(url + '#tutorial');
  await page.waitForSelector('#tutorial-link');
  if ((await page.textContent('#tutorial-link')) !== WORDS[lang].learn) fail(`${where}: the header's link reads ${await page.textContent('#tutorial-link')}`);
  await page.waitForSelector('#tutorial:not([hidden]) #tut-lesson h3');
  const lessons = await page.locator('.tut-pick').count();
  if (lessons !== Object.keys(SOLUTIONS).length) fail(`${where}: ${lessons} lessons, not ${Object.keys(SOLUTIONS).length}`);
  const ids = Object.keys(SOLUTIONS);
  for (let i = 0; i < ids.length; i++) {
    const at = `${where}, lesson ${i + 1} (${ids[i]})`;
    if (i > 0) await page.click('#tut-next');
    await page.waitForFunction((n) => (document.querySelector('#tut-title') || {}).textContent.includes(String(n)), i + 1);
    // the lesson's table, not the last lesson's still on screen while the engine loads this one
    // (a quiz shows its table only once answered)
    const steps = SOLUTIONS[ids[i]](rs);
    if (steps.length && (Array.isArray(steps[0]) || typeof steps[0] === 'string')) {
      const title = (await page.textContent('#tut-title')).replace(/^[^:]*:\s*/, '');
      await page.waitForFunction((t) => document.getElementById('table-title').textContent.endsWith(t), title, { timeout: 10000 })
        .catch(() => fail(`${at}: the lesson's table was never drawn`));
    }
    if (!(await page.textContent('#tut-task')).trim()) fail(`${at}: no exercise`);
    for (const s of steps) await step(page, lang, s, at);
    await page.waitForSelector('#tut-status.tut-pass, #tut-status.tut-fail', { timeout: 15000 })
      .catch(() => fail(`${at}: the exercise never ended`));
    if (await page.locator('#tut-status.tut-fail').count()) fail(`${at}: failed: ${await page.textContent('#tut-status')}`);
    await fits(page, at);
    if (i === 0 || i === 4 || i === 6) await axe(page, at);
    if (shoot && ids[i] === shoot.lesson) await page.screenshot({ path: shoot.file, fullPage: shoot.full });
  }
  const passed = await page.locator('.tut-pick.passed').count();
  if (passed !== ids.length) fail(`${where}: ${passed} lessons marked passed, not ${ids.length}`);
  // kept over a reload
  await page.reload();
  await page.waitForSelector('#tutorial:not([hidden]) .tut-pick');
  if ((await page.locator('.tut-pick.passed').count()) !== ids.length) fail(`${where}: the progress was lost on a reload`);
  // every width from 360 px, both languages, no overlapping text, no English left in Japanese
  if (screens) {
    await page.locator('.tut-pick').first().click();
    await page.waitForSelector('#hand .tile:not([disabled])');
    await checkScreen(page, `tutorial (${where})`, null, fail);
  }
  // a wrong move fails: answering the partner in the last lesson
  await page.locator('.tut-pick').nth(ids.length - 1).click();
  await step(page, lang, ['銀', '飛'], `${where}, a wrong answer`);
  await page.waitForSelector('#tut-status.tut-fail', { timeout: 15000 }).catch(() => fail(`${where}: a wrong move passed the exercise`));
  // and the tutorial's way back leads to the lobby
  online = true;
  await page.click('#tut-back');
  await page.waitForSelector('#lobby:not([hidden])');
  if (await page.isVisible('#tutorial')) fail(`${where}: the tutorial stays after going back`);
  await context.close();
  console.log(`e2e tutorial: ${where}: 8 lessons passed`);
}

(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  const started = Date.now();
  try {
    await run(browser, { width: 1280, height: 800 }, 'en', 'standard', shots && { lesson: 'scoring', file: path.join(shots, 'tutorial-desktop-en.png') }, true);
    await run(browser, { width: 390, height: 844 }, 'ja', 'japanese', shots && { lesson: 'team', file: path.join(shots, 'tutorial-phone-ja.png'), full: true });
    await run(browser, { width: 1280, height: 800 }, 'ja', 'french', shots && { lesson: 'king', file: path.join(shots, 'tutorial-desktop-ja.png') });
    await run(browser, { width: 390, height: 844 }, 'en', 'french', shots && { lesson: 'pieces', file: path.join(shots, 'tutorial-phone-en.png'), full: true });
  } finally {
    await browser.close();
  }
  console.log(`e2e tutorial: 4 runs of 8 lessons passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
})().catch((e) => fail(e.stack || String(e)));
