// Offline play in real headless Chromium: from the lobby, a whole game to 150 against three
// computer players run by the WebAssembly build in a worker, with no WebSocket opened, at
// desktop and phone size; every round's analysis (solver values, the computer's choice, each
// player's points lost) must appear, and the page must never be wider than the screen.
// Usage: node offline.js URL
'use strict';
const path = require('path');
const { chromium } = require(path.join(__dirname, '../../tools/e2e/node_modules/playwright-core'));
const { act } = require('./ui');

const url = process.argv[2];
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
  const started = Date.now();
  if (fromLobby) {
    await page.goto(url);
    await page.waitForSelector('#offline-start');
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
      await noOverflow(page, `${label} round ${rounds} analysis`);
      if (/New game/.test(await page.textContent('#offline-next'))) break;
      await page.click('#offline-next');
      await page.waitForFunction(() => !document.getElementById('offline-round'));
      continue;
    }
    const logged = await page.locator('#log li').count();
    if (!(await act(page, rng, fail))) { await page.waitForTimeout(20); continue; }
    // the worker answers a moment later: wait for the move in the log (or the round's end)
    await page.waitForFunction((n) => document.querySelectorAll('#log li').length !== n ||
      document.getElementById('offline-next'), logged);
    if (steps % 25 === 0) await noOverflow(page, `${label} in play`);
  }
  const scores = await page.textContent('#scores');
  const numbers = (scores.match(/\d+/g) || []).map(Number);
  if (!(Math.max(numbers[0], numbers[1]) >= 150)) fail(`${label}: the game ended at ${scores}`);
  if (!/Offline game · Game over|over/i.test(await page.textContent('#table-title'))) fail(`${label}: the table is not over`);
  console.log(`e2e offline ${label}: a game in ${rounds} rounds (${scores}); first table drawn ${loaded} ms after navigation`);
  await context.close();
}

(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  if (!process.env.PHONE_ONLY) await playGame(browser, { width: 1100, height: 900 }, 'desktop', false);
  await playGame(browser, { width: 390, height: 844 }, 'phone', true);
  await browser.close();
})().catch((e) => fail(e.stack || String(e)));
