// Offline play in real headless Chromium: from the lobby, a whole game to 150 against three
// computer players run by the WebAssembly build in a worker, with no WebSocket opened, at
// desktop and phone size; every round's analysis (solver values, the computer's choice, each
// player's points lost) must appear, and the page must never be wider than the screen. Then the
// replay of an online game: a round of its record analysed in the worker.
// Given a second server's URL, whose web folder lacks wasm/, the page must say so.
// Usage: node offline.js URL [URL_WITHOUT_WASM]
'use strict';
const path = require('path');
const { chromium } = require(path.join(__dirname, '../../tools/e2e/node_modules/playwright-core'));
const { act } = require('./ui');
const { checkScreen } = require('./screen-checks');

const [url, urlWithoutWasm] = process.argv.slice(2);
const fail = (why) => { console.error('e2e offline: ' + why); process.exit(1); };

// Fails when the page scrolls sideways.
async function noOverflow(page, where) {
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  if (scroll > width) fail(`${where}: the page is ${scroll} px wide on a ${width} px screen`);
}

// Plays one offline game to its end on a page of the given size, opened at #offline or from
// the lobby's button.
async function playGame(browser, size, label, fromLobby) {
  const context = await browser.newContext({ viewport: size, locale: 'en-US' });
  const page = await context.newPage();
  page.on('pageerror', (e) => fail(`${label}: ${e.message}`));
  // Opened at #offline the page needs no server; from the lobby it is online first.
  if (!fromLobby) page.on('websocket', () => fail(`${label}: offline play opened a WebSocket`));
  await page.addInitScript(() => localStorage.setItem('goita.offline.pace', '0'));
  // each round dealt by its button, once its analysis is checked (table-finished.js checks the pause)
  await page.addInitScript(() => localStorage.setItem('goita.offline.roundPause', '600000'));
  // a Japanese name at desktop size, so that the Japanese check sees only the page's own words
  if (!fromLobby) await page.addInitScript(() => localStorage.setItem('goita.name', 'はなこ'));
  const started = Date.now();
  if (fromLobby) {
    await page.goto(url);
    await page.waitForSelector('#offline-start');
    // the strongest level, master, plays in the browser too
    await page.selectOption('#offline-level', 'master');
    await page.click('#offline-start');
  } else {
    await page.goto(url + '#offline');
  }
  await page.waitForSelector('#table:not([hidden]) #hand .tile');
  const loaded = Date.now() - started;
  let seed = 11, steps = 0, rounds = 0;
  const rng = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (;;) {
    if (++steps > 3000) fail(`${label}: the game did not end`);
    if (await page.locator('#offline-next').count()) {
      rounds++;
      await page.waitForSelector('#offline-round[data-done="1"]', { timeout: 60000 })
        .catch(async () => fail(`${label}: the analysis of round ${rounds} did not end: ${await page.textContent('#offline-round')}`));
      const status = await page.textContent('#offline-round .an-status');
      if (/Cannot analyse/.test(status)) fail(`${label}: ${status}`);
      const plays = await page.locator('#offline-round .an-move').count();
      if (plays > 0 && (await page.locator('#offline-round .an-summary tr').count()) !== 5) fail(`${label}: no summary of the 4 players`);
      if (plays > 0 && (await page.locator('#offline-round .an-computer').count()) !== plays) fail(`${label}: a move without the computer's choice`);
      // the computer says in how many of its deals its choice was best (master's explanation)
      if (plays > 0 && !/best in \d+ of \d+ deals/.test(await page.textContent('#offline-round'))) fail(`${label}: no choice says how many deals agreed`);
      const analysis = await page.textContent('#offline-round');
      if (/undefined|NaN/.test(analysis)) fail(`${label}: round ${rounds}'s analysis reads ${analysis}`);
      await noOverflow(page, `${label} round ${rounds} analysis`);
      // the first round's result and analysis pass every screen's checks (screen-checks.js):
      // widths, text over text, Japanese, axe-core
      if (rounds === 1 && !fromLobby) {
        await checkScreen(page, 'offline round analysis', null, fail);
        await page.setViewportSize(size);
      }
      if (/New game/.test(await page.textContent('#offline-next'))) break;
      const shown = await page.getAttribute('#offline-round', 'data-round');
      await page.click('#offline-next');
      // the next round's table (the analysis stays, its button gone), or at once its own end
      // (a redeal, a teyaku)
      await page.waitForFunction((r) => { const box = document.getElementById('offline-round');
        return !box || box.dataset.round !== r || !document.getElementById('offline-next'); }, shown);
      continue;
    }
    const tableText = () => document.getElementById('log').textContent + document.getElementById('hand').textContent;
    const before = await page.evaluate(tableText);
    if (!(await act(page, rng, fail))) { await page.waitForTimeout(20); continue; }
    // the worker answers a moment later: wait for the move on the table (or the round's end)
    await page.waitForFunction((b) => document.getElementById('log').textContent + document.getElementById('hand').textContent !== b ||
      document.getElementById('offline-next'), before);
    if (steps % 25 === 0) await noOverflow(page, `${label} in play`);
  }
  const scores = await page.textContent('#scores');
  const numbers = (scores.match(/\d+/g) || []).map(Number);
  if (!(Math.max(numbers[0], numbers[1]) >= 150)) fail(`${label}: the game ended at ${scores}`);
  if (!/Offline game · Game over|over/i.test(await page.textContent('#table-title'))) fail(`${label}: the table is not over`);
  // the game-over box's rematch starts a new game: round 1, both teams short of the target (its
  // first round may end at the deal, a teyaku scoring at once), the table no longer over
  await page.click('#center button:has-text("Rematch")');
  await page.waitForFunction(() => /Round 1(?!\d)/.test(document.getElementById('center').textContent) &&
    !/· *(over|終局) *$/i.test(document.getElementById('table-title').textContent) &&
    (document.getElementById('scores').textContent.replace(/\/ 150$/, '').match(/\d+/g) || []).every((n) => Number(n) < 150),
  null, { timeout: 15000 })
    .catch(async () => fail(`${label}: Rematch started no new game: ${await page.textContent('#center')} ${await page.textContent('#scores')}`));
  console.log(`e2e offline ${label}: a game in ${rounds} rounds (${scores}) and its rematch; first table drawn ${loaded} ms after navigation`);
  await context.close();
}

// Plays an online game to 50 at a new table and opens its replay at the first round with a move
// to analyse; returns false when no round has one.
async function playAndOpenReplay(page) {
  await page.goto(url);
  await page.waitForSelector('#me:not(:empty)');
  // a Japanese name, so that the Japanese check below sees only the page's own words
  await page.fill('#name', 'たろう');
  await page.click('#name-form button');
  await page.waitForFunction(() => document.getElementById('me').textContent.startsWith('たろう'));
  await page.fill('#opt-target', '50');
  await page.click('#create-form button'); // which seats its creator
  for (let filled = 0; filled < 3; filled++) {
    await page.waitForFunction((n) => document.querySelectorAll('#seating button').length > 0 &&
      document.querySelectorAll('#seating .seat-chip').length === 3 - n, filled);
    await page.locator('#seating button:has-text("Computer")').first().click();
  }
  await page.waitForSelector('#seating button:has-text("Start"):not([disabled])');
  await page.click('#seating button:has-text("Start")');
  let seed = 5, steps = 0;
  const rng = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  while (!(await page.locator('#center a[href^="?game="]').count())) {
    if (++steps > 3000) fail('replay: the online game did not end');
    if (!(await act(page, rng, fail))) await page.waitForTimeout(50);
    else await page.waitForTimeout(100);
  }
  await page.click('#center a[href^="?game="]');
  await page.waitForSelector('#replay:not([hidden]) #r-board .territory');
  for (let round = 0; round <= 20; round++) {
    await page.click('#r-analyse');
    await page.waitForSelector('#r-analysis[data-done="1"]', { timeout: 60000 });
    const status = await page.textContent('#r-analysis .an-status');
    if (/Cannot analyse/.test(status)) fail(`replay: ${status}`);
    if (await page.locator('#r-analysis .an-move').count()) return true;
    await page.click('#r-next-round');
  }
  return false;
}

// An online game to 50 against three computer players, then its replay: the analysis of a
// round of the stored record runs in the worker, and fits a phone's screen too. A game to 50
// can end before the player has moved (a teyaku at the deal, a big first round): then another
// game is played, up to five.
async function replayAnalysis(browser) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  page.on('pageerror', (e) => fail(`replay: ${e.message}`));
  let found = false;
  for (let game = 0; game < 5 && !found; game++) found = await playAndOpenReplay(page);
  if (!found) fail('replay: no round with a move to analyse in five games');
  if ((await page.locator('#r-analysis .an-summary tr').count()) !== 5) fail('replay: no summary of the 4 players');
  if (/undefined|NaN/.test(await page.textContent('#r-analysis'))) fail(`replay: the analysis reads ${await page.textContent('#r-analysis')}`);
  await noOverflow(page, 'replay analysis desktop');
  // On a phone the analysis fits the screen (the replay's board is the client's own layout).
  await page.setViewportSize({ width: 390, height: 844 });
  const [right, scroll, client] = await page.evaluate(() => {
    const box = document.getElementById('r-analysis');
    return [box.getBoundingClientRect().right, box.scrollWidth, box.clientWidth];
  });
  if (right > 390 || scroll > client) fail(`replay analysis phone: the panel reaches ${right} px (${scroll} px of content in ${client})`);
  // In Japanese the analysis and the lobby's offline panel have no English left.
  await page.click('#lang');
  await page.click('#r-analyse');
  await page.waitForSelector('#r-analysis[data-done="1"]', { timeout: 60000 });
  const english = /[A-Za-z]{3,}/;
  const analysisText = await page.textContent('#r-analysis');
  if (english.test(analysisText)) fail(`replay analysis in Japanese: "${analysisText.match(english)[0]}" in ${analysisText.slice(0, 200)}`);
  await page.click('#replay-back');
  const panelText = await page.textContent('#offline-panel');
  if (english.test(panelText)) fail(`offline panel in Japanese: ${panelText}`);
  console.log('e2e offline replay: a stored game\'s round analysed in the worker, in English and Japanese');
  await context.close();
}

// A round after a 5-pawn deal whose string leaves the decision to play out (docs/RECORDS.md
// 1.5): its first play is analysed as a play, not as the decision.
async function omittedDecision(browser) {
  const page = await (await browser.newContext()).newPage();
  await page.goto(url + '#offline');
  const first = await page.evaluate(() => new Promise((resolve) => {
    const w = new Worker('worker.js');
    w.onmessage = (e) => { if (e.data.result || e.data.error) resolve(e.data.error || e.data.result[0]); };
    w.postMessage({ id: 1, op: 'analyse', args: ['', '12344556,11111248,11123355,12346779,s2,211,313,437,1p,2p,3p,416,1p,2p,3p,447,1p,2p,3p,429', 'rules', 4] });
  }));
  if (typeof first === 'string') fail(`a round after an omitted decision: ${first}`);
  if (!/^2[1-9][1-9]$/.test(first.computer.move) || first.best_moves.some((m) => /[rg]$/.test(m)))
    fail(`a round after an omitted decision: its first play analysed as ${JSON.stringify(first)}`);
  await page.context().close();
}

// Without the engine (web/wasm/ not built) offline play says so instead of waiting forever.
async function withoutEngine(browser) {
  const page = await (await browser.newContext({ locale: 'en-US' })).newPage();
  page.on('pageerror', (e) => fail(`without the engine: ${e.message}`));
  await page.goto(urlWithoutWasm + '#offline');
  await page.waitForSelector('#notice:not([hidden])');
  const notice = await page.textContent('#notice');
  if (!/Error: .*goita\.js/.test(notice)) fail(`without the engine the notice says "${notice}"`);
  await page.context().close();
}

(async () => {
  // goita serve gives the module its type, without which browsers compile it the slow way
  const wasm = await fetch(url + 'wasm/goita.wasm');
  if (wasm.headers.get('content-type') !== 'application/wasm') fail(`wasm/goita.wasm served as ${wasm.headers.get('content-type')}`);
  if (!/script-src[^;]*'wasm-unsafe-eval'/.test(wasm.headers.get('content-security-policy') || '')) fail('the CSP does not let the worker compile WebAssembly');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  await playGame(browser, { width: 1100, height: 900 }, 'desktop', false);
  await playGame(browser, { width: 390, height: 844 }, 'phone', true);
  await replayAnalysis(browser);
  await omittedDecision(browser);
  if (urlWithoutWasm) await withoutEngine(browser);
  await browser.close();
})().catch((e) => fail(e.stack || String(e)));
