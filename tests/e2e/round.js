// Four players in real headless Chromium play a whole round of goita through the browser
// client, one of them on a phone-sized screen; one page is reloaded mid-round and must come back
// to its seat with its view. Usage: node round.js URL [SCREENSHOT_PREFIX]
// With a prefix, it saves PREFIX-desktop.png and PREFIX-phone.png mid-round (for the README).
'use strict';
const path = require('path');
const { chromium } = require(path.join(__dirname, '../../tools/e2e/node_modules/playwright-core'));
const { text, act } = require('./ui');

const url = process.argv[2];
const screenshot = process.argv[3];
const fail = (why) => { console.error('e2e: ' + why); process.exit(1); };

// Cho reloads mid-round: she must come back to the same seat, hand and table.
async function reloadMidRound(page) {
  const before = await page.locator('#hand .tile').count();
  const rowsBefore = await text(page, '#board');
  await page.reload();
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
