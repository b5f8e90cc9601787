// Four players in real headless Chromium play a whole round of goita through the browser
// client, one of them on a phone-sized screen; one page is reloaded mid-round, its resume refused
// for a while as too many requests, and must come back to its seat with its view.
// Usage: node round.js URL [SCREENSHOT_PREFIX]
// With a prefix, it saves PREFIX-desktop.png and PREFIX-phone.png mid-round (for the README).
'use strict';
const path = require('path');
const { chromium } = require(path.join(__dirname, '../../tools/e2e/node_modules/playwright-core'));
const { text, act } = require('./ui');
const { Client } = require('./client');

const url = process.argv[2];
const screenshot = process.argv[3];
const fail = (why) => { console.error('e2e: ' + why); process.exit(1); };

// Cho reloads mid-round while another connection of hers keeps her player's request bucket
// empty: the page's resume is refused as rate_limited with a retry_ms (docs/SERVER.md
// "Errors"), and the page keeps the seat token and asks again then. Once the flood stops she
// must be back in the same seat, with the same hand and table.
async function reloadMidRound(page) {
  const before = await page.locator('#hand .tile').count();
  const rowsBefore = await text(page, '#board');
  const flood = new Client(url.replace(/^http/, 'ws'), 'Cho elsewhere');
  await flood.open();
  flood.send({ type: 'hello', player_token: await page.evaluate(() => localStorage.getItem('goita.player')) });
  // 14 a second: under the connection's limit (20), over the player's (5)
  const timer = setInterval(() => flood.send({ type: 'list', limit: 1 }), 70);
  await page.waitForTimeout(3000); // the bucket's burst (20) gone
  const refused = new Promise((resolve) => page.on('websocket', (ws) => ws.on('framereceived', (frame) => {
    const msg = JSON.parse(frame.payload);
    if (msg.type === 'error' && msg.request === 'resume') resolve(msg);
  })));
  await page.reload();
  const refusal = await Promise.race([refused, page.waitForTimeout(10000).then(() => null)]);
  clearInterval(timer);
  flood.close();
  if (!refusal) fail('the resume after a reload was not refused while the player flooded');
  if (refusal.code !== 'rate_limited' || !(refusal.retry_ms > 0)) fail('the refused resume: ' + JSON.stringify(refusal));
  const token = await page.evaluate(() => Object.keys(JSON.parse(localStorage.getItem('goita.seats') || '{}')).length);
  if (!token) fail('a resume refused as rate_limited dropped the seat token');
  await page.waitForFunction(() => document.querySelectorAll('#hand .tile').length > 0);
  const after = await page.locator('#hand .tile').count();
  if (after !== before) fail(`after a reload the hand has ${after} pieces, not ${before}`);
  if (!(await text(page, '#t-bottom')).includes('Cho')) fail('after a reload Cho is not in her seat');
  const rowsAfter = await text(page, '#board');
  if (rowsAfter.replace(/●/g, '') !== rowsBefore.replace(/●/g, '')) fail('after a reload the table looks different');
}

(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  const sizes = [{ width: 1100, height: 900 }, { width: 390, height: 844 }, { width: 1000, height: 800 }, { width: 1000, height: 800 }];
  const names = ['Ann', 'Ben', 'Cho', 'Dai'];
  const contexts = [], pages = [];
  for (let i = 0; i < 4; i++) {
    const context = await browser.newContext({ viewport: sizes[i], locale: 'en-US' });
    const page = await context.newPage();
    page.on('pageerror', (e) => fail(`page ${names[i]}: ${e.message}`));
    await page.goto(url);
    await page.waitForSelector('#me:not(:empty)');
    await page.fill('#name', names[i]);
    await page.click('#name-form button');
    await page.waitForFunction((n) => document.getElementById('me').textContent.startsWith(n), names[i]);
    contexts.push(context);
    pages.push(page);
  }
  // Ann creates a table, which seats her; everyone else takes a seat in it from the table view
  await pages[0].click('#create-form button');
  await pages[0].waitForSelector('#seating button');
  const table = (await text(pages[0], '#table-title')).match(/#(\d+)/)[1];
  for (let i = 0; i < 4; i++) {
    const page = pages[i];
    if (i > 0) {
      await page.waitForSelector(`.table-row:has-text("#${table}") button:has-text("Watch")`);
      await page.click(`.table-row:has-text("#${table}") button:has-text("Watch")`);
    }
    if (i > 0) {
      await page.waitForSelector('#seating button:has-text("Sit")');
      await page.locator('#seating button:has-text("Sit")').first().click();
    }
    await page.waitForFunction((n) => document.getElementById('t-bottom').textContent.includes(n), names[i]);
  }
  await pages[0].waitForSelector('#seating button:has-text("Start"):not([disabled])');
  await pages[0].click('#seating button:has-text("Start")');
  for (const page of pages) await page.waitForFunction(() => /Round/.test(document.getElementById('center').textContent));

  // Every page shows its own hand of 8 and no other hand.
  for (const page of pages) {
    const n = await page.locator('#hand .tile').count();
    if (n !== 8) fail(`a hand of ${n} pieces at the deal`);
  }

  let seed = 7;
  const rng = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  let reloaded = false, shot = false, steps = 0;
  const roundOver = async () => (await pages[0].locator('#center .result').count()) > 0;
  // A deal can end before the sixth move (six pawns in a hand, or five on both teams); the test
  // then plays on into the next deal, so the reload always happens mid-round.
  for (let round = 1; !reloaded; round++) {
    if (round > 1) {
      if (round > 4) fail(`${round - 1} rounds ended before the reload`);
      for (const page of pages) {
        await page.waitForFunction(() => !document.querySelector('#center .result') &&
          document.querySelectorAll('#hand .tile').length === 8, null, { timeout: 15000 });
      }
      steps = 0;
    }
    while (!(await roundOver())) {
      if (++steps > 400) fail('the round did not end');
      let acted = false;
      for (let i = 0; i < 4 && !acted; i++) acted = await act(pages[i], rng, fail);
      if (!acted) { await pages[0].waitForTimeout(100); continue; }
      await pages[0].waitForTimeout(60);
      if (screenshot && !shot && steps >= 9) {
        shot = true;
        await pages[0].screenshot({ path: `${screenshot}-desktop.png` });
        await pages[1].screenshot({ path: `${screenshot}-phone.png`, fullPage: true });
      }
      // at the first move from the sixth step on (a step where nobody could act skips the check)
      if (!reloaded && steps >= 6) {
        await reloadMidRound(pages[2]);
        reloaded = true;
      }
    }
    if (!reloaded) console.log(`e2e: round ${round} ended after ${steps} steps, before the reload: ${await text(pages[0], '#center .result')}`);
  }
  // The round's result is on every screen, with the scores.
  for (const page of pages) {
    await page.waitForSelector('#center .result');
    const result = await text(page, '#center .result');
    if (!/went out|teyaku|Redeal/.test(result)) fail('no result on a screen: ' + result);
    if (!/\d+ — .* \d+ \/ 150/.test(await text(page, '#scores'))) fail('no scores: ' + (await text(page, '#scores')));
  }
  console.log(`e2e: a round played through four browsers (${steps} steps), one reloaded mid-round`);
  await browser.close();
})().catch((e) => fail(e.stack || String(e)));
