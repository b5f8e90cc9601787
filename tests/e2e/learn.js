// Learning in real headless Chromium: the puzzle of the day solved by clicks (a wrong move
// first, then the answer of web/puzzles.json, then its winning line), and a hint taken during an
// offline game, its reasons and the count of unseen pieces read; at 1280 and 390 px, in English
// and in Japanese, each screen passing every screen check (screen-checks.js).
// Usage: node learn.js URL [SCREENSHOT_DIR]
'use strict';
const path = require('path');
const { chromium } = require(path.join(__dirname, '../../tools/e2e/node_modules/playwright-core'));
const { act, text } = require('./ui');
const { checkScreen } = require('./screen-checks');

const [url, shots] = process.argv.slice(2);
const fail = (why) => { console.error('e2e learn: ' + why); process.exit(1); };
const SIZES = [{ width: 1280, height: 800 }, { width: 390, height: 844 }];

async function newPage(browser, size, lang) {
  const context = await browser.newContext({ viewport: size, locale: lang === 'ja' ? 'ja-JP' : 'en-US' });
  const page = await context.newPage();
  page.on('pageerror', (e) => fail(`${lang} ${size.width}: ${e.message}`));
  await page.addInitScript((l) => { localStorage.setItem('goita.lang', l); localStorage.setItem('goita.offline.pace', '0'); localStorage.setItem('goita.name', 'はなこ'); }, lang);
  return page;
}

async function noOverflow(page, where) {
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  if (scroll > width) fail(`${where}: the page is ${scroll} px wide on a ${width} px screen`);
}

// The puzzle of the day from the lobby's button: today's by the date, a wrong move said wrong,
// the answer said right, the winning line shown in full, the puzzle remembered as solved.
async function solveToday(browser, size, lang, first) {
  const where = `puzzle ${lang} ${size.width}`;
  const page = await newPage(browser, size, lang);
  await page.goto(url);
  await page.click('#puzzles-open');
  await page.waitForSelector('#puzzle-today');
  const set = await page.evaluate(() => fetch('puzzles.json').then((r) => r.json()));
  if (set.puzzles.length < 20) fail(`${where}: only ${set.puzzles.length} puzzles`);
  for (let d = 1; d <= 5; d++)
    if (set.puzzles.some((p) => p.difficulty === d) !== ((await page.locator(`#puzzle-levels h3:text-is("${lang === 'ja' ? `難易度 ${d}` : `Difficulty ${d}`}")`).count()) === 1))
      fail(`${where}: the list of difficulty ${d} does not match the set`);
  await page.click('#puzzle-today');
  await page.waitForSelector('#puzzle-moves button');
  const today = set.puzzles[Math.floor(Date.now() / 86400000) % set.puzzles.length];
  const id = await page.getAttribute('#puzzle', 'data-id');
  if (Number(id) !== today.id) fail(`${where}: the puzzle of the day is ${id}, not ${today.id}`);
  // every legal move is offered, and the hands are all shown
  if ((await page.locator('#puzzle-moves button').count()) !== today.moves.length) fail(`${where}: not every legal move is offered`);
  const shown = await page.locator('.puzzle-hand .tile').count();
  if (shown !== today.hands.join('').length) fail(`${where}: ${shown} pieces in the hands, not ${today.hands.join('').length}`);
  const wrong = today.moves.find((m) => m.move !== today.answer);
  await page.click(`#puzzle-moves button[data-move="${wrong.move}"]`);
  await page.waitForSelector('#puzzle-verdict .wrong');
  if ((await page.locator('#puzzle-line').count()) !== 0) fail(`${where}: a wrong move showed the solution`);
  await page.click(`#puzzle-moves button[data-move="${today.answer}"]`);
  await page.waitForSelector('#puzzle-verdict .right');
  const verdict = await page.textContent('#puzzle-verdict');
  if (!verdict.includes(String(today.best))) fail(`${where}: the verdict does not give the value ${today.best}: ${verdict}`);
  if ((await page.locator('#puzzle-line li').count()) !== today.line.length) fail(`${where}: the winning line is not shown in full`);
  await noOverflow(page, where);
  if (first) await checkScreen(page, 'puzzle solved', null, fail);
  if (shots) await page.screenshot({ path: path.join(shots, `puzzle-${lang}-${size.width}.png`), fullPage: true });
  // back to the list: today's puzzle is marked solved
  await page.click('#puzzles-back');
  await page.waitForSelector(`.puzzle-pick.solved[data-id="${today.id}"]`);
  await page.context().close();
}

// An offline game up to a turn of the player with a choice, then a hint: moves with values and
// reasons, the count of unseen pieces (8 kinds, in total the pieces not in view).
async function takeHint(browser, size, lang, first) {
  const where = `hint ${lang} ${size.width}`;
  const page = await newPage(browser, size, 'en');
  page.on('websocket', () => fail(`${where}: offline play opened a WebSocket`));
  await page.goto(url + '#offline');
  await page.waitForSelector('#table:not([hidden]) #hand .tile');
  let seed = 5;
  const rng = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  // A turn with a choice: the button enabled at a move prompt, and still so a moment later (the
  // page may not have drawn the state that follows the step's own move yet).
  const choiceNow = async () => (await page.locator('#hint-button:not([disabled])').count()) > 0 &&
    /Choose|Answer/.test(await text(page, '#prompt'));
  for (let steps = 0; ; steps++) {
    if (steps > 400) fail(`${where}: no turn with a choice`);
    if (await choiceNow()) {
      await page.waitForTimeout(500);
      if (await choiceNow()) break;
      continue;
    }
    if (await page.locator('#offline-next').count()) { await page.click('#offline-next'); continue; }
    if (!(await act(page, rng, fail))) await page.waitForTimeout(50);
  }
  if (lang === 'ja') await page.click('#lang');
  // the unseen count: 8 kinds, and in all the 32 pieces less the hand and those face-up (or the
  // player's own face-down ones) in the territories
  await page.waitForFunction(() => document.querySelectorAll('#hint-unseen[aria-busy="false"] li').length === 8);
  const counts = await page.$$eval('#hint-unseen .hint-count', (n) => n.map((e) => Number(e.textContent)));
  const inHand = await page.locator('#hand .tile').count();
  const onTable = await page.locator('.territory .tile:not(.back), .territory .tile.known').count();
  const total = counts.reduce((a, b) => a + b, 0);
  if (total !== 32 - inHand - onTable) fail(`${where}: ${total} unseen pieces with ${inHand} in hand and ${onTable} in sight on the table`);
  await page.click('#hint-button', { timeout: 10000 })
    .catch(async () => fail(`${where}: the hint button was not there to click (prompt: ${await text(page, '#prompt')})`));
  await page.waitForSelector('#hint-moves .hint-move', { timeout: 60000 });
  const moves = await page.locator('#hint-moves .hint-move').count();
  const reasons = await page.locator('#hint-moves .hint-reasons li').count();
  if (moves < 2 || reasons < moves) fail(`${where}: ${moves} moves and ${reasons} reasons`);
  const shown = await page.textContent('#hint-moves');
  if (!(lang === 'ja' ? /見込み .* 点 · \d+ 通り中 \d+ 通りで最善/ : /expected .* points · best in \d+ of \d+ deals/).test(shown)) fail(`${where}: no values: ${shown}`);
  if (/undefined|NaN|\{/.test(shown)) fail(`${where}: ${shown}`);
  await noOverflow(page, where);
  if (shots) await page.locator('#hint-panel').screenshot({ path: path.join(shots, `hint-${lang}-${size.width}.png`) });
  if (first) {
    if (lang === 'ja') await page.click('#lang');
    await checkScreen(page, 'offline hint', null, fail);
  }
  // the hint goes with the position: the player's move forgets it
  const best = await page.getAttribute('#hint-moves .hint-move', 'data-move');
  if (!best) fail(`${where}: the hint names no move`);
  if (lang === 'ja' && !first) await page.click('#lang'); // act() reads the English prompts
  for (let steps = 0; await page.locator('#hint-moves .hint-move').count(); steps++) {
    if (steps > 50) fail(`${where}: the hint stayed after the player's move`);
    if (!(await act(page, rng, fail))) await page.waitForTimeout(50);
  }
  await page.context().close();
}

(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  for (const [i, size] of SIZES.entries())
    for (const lang of ['en', 'ja']) {
      await solveToday(browser, size, lang, i === 0 && lang === 'en');
      await takeHint(browser, size, lang, i === 0 && lang === 'en');
    }
  await browser.close();
})().catch((e) => fail(e.stack || String(e)));
