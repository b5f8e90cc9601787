// The ways to play, through the browser client in headless Chromium: a quick match (one page,
// a 1 s wait, computers fill the table) played to its end, a rematch from its game-over box
// with the same seats, then a private table: created with its invite link, opened by a second
// page (phone-sized) that sits there, and a chat between the two that shows markup as text.
// Usage: node modes.js URL [SCREENSHOT_PREFIX]
// With a prefix, it saves PREFIX-modes-desktop.png and PREFIX-modes-phone.png at the private table.
'use strict';
const path = require('path');
const { chromium } = require(path.join(__dirname, '../../tools/e2e/node_modules/playwright-core'));
const { text, act } = require('./ui');

const url = process.argv[2];
const screenshot = process.argv[3];
const fail = (why) => { console.error('e2e modes: ' + why); process.exit(1); };
const started = Date.now();
setTimeout(() => fail('took more than 80 s'), 80000).unref();

async function openPage(browser, viewport, name) {
  const context = await browser.newContext({ viewport, locale: 'en-US' });
  const page = await context.newPage();
  page.on('pageerror', (e) => fail(`page ${name}: ${e.message}`));
  await page.goto(url);
  await page.waitForSelector('#me:not(:empty)');
  await page.fill('#name', name);
  await page.click('#name-form button');
  await page.waitForFunction((n) => document.getElementById('me').textContent.startsWith(n), name);
  return page;
}

// The table number in the title bar.
async function tableOf(page) { return Number(((await text(page, '#table-title')).match(/#(\d+)/) || [0, 0])[1]); }

// Who sits where, as the page shows it: each territory's "N. name".
async function seats(page) {
  const out = [];
  for (const spot of ['bottom', 'right', 'top', 'left']) out.push(await text(page, `#t-${spot} .who strong`));
  return out.join(' | ');
}

(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  const ann = await openPage(browser, { width: 1280, height: 800 }, 'Ann');

  // The create form's lists come from the server's welcome, made from the library's tables
  // (docs/SERVER.md): the rule sets, the levels strongest first; a rule set sets its target on
  // its own scale and its options, and the form writes only what was changed from it.
  const values = (sel) => ann.$$eval(`${sel} option`, (os) => os.map((o) => o.value).join());
  if (await values('#opt-preset') !== 'standard,japanese,french') fail('rule sets: ' + (await values('#opt-preset')));
  if (await values('#opt-players') !== '4,3,2') fail('players: ' + (await values('#opt-players')));
  if (await values('#quick-level') !== 'master,master_2026_11,expert,sampler,fast,rules,random') fail('levels: ' + (await values('#quick-level')));
  if (await ann.inputValue('#quick-level') !== 'expert') fail('the level offered first: ' + (await ann.inputValue('#quick-level')));
  await ann.selectOption('#opt-preset', 'french');
  if (await ann.inputValue('#opt-target') !== '15' || !(await ann.isChecked('#opt-kingdown')) || await ann.isChecked('#opt-teyaku')) fail('the French rule set in the form');
  const frenchText = await ann.evaluate(() => rulesText());
  if (frenchText !== 'preset=french,players=4,target=15') fail('the French rules written: ' + frenchText);
  await ann.selectOption('#opt-preset', 'standard');
  if (await ann.inputValue('#opt-target') !== '150' || await ann.isChecked('#opt-kingdown')) fail('back to the standard rules');

  // A quick match: a game to 10 points, a 1 s wait, computer players fill the table.
  await ann.fill('#opt-target', '10');
  await ann.fill('#quick-wait', '1');
  await ann.selectOption('#quick-level', 'random');
  await ann.click('#quick');
  await ann.waitForSelector('#quick-status:not([hidden])');
  if (!/Waiting for players \(1 of 4 here\)/.test(await text(ann, '#quick-status'))) fail('no queue status: ' + (await text(ann, '#quick-status')));
  await ann.waitForFunction(() => /Round/.test(document.getElementById('center').textContent), null, { timeout: 5000 });
  const quickTable = await tableOf(ann);
  const quickSeats = await seats(ann);
  if (!/^1\. Ann/.test(quickSeats) || (quickSeats.match(/computer/gi) || []).length !== 3) fail('not seated with three computers: ' + quickSeats);

  let seed = 11;
  const rng = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const gameOver = async () => /Game over/.test(await text(ann, '#center'));
  for (let steps = 0; !(await gameOver()); steps++) {
    if (steps > 600) fail('the quick-match game did not end');
    if (!(await act(ann, rng, fail))) await ann.waitForTimeout(100);
  }

  // A rematch from the game-over box: a new table, the same seats, the game started.
  await ann.click('#center button:has-text("Rematch")');
  await ann.waitForFunction((old) => !document.getElementById('table-title').textContent.startsWith(`#${old} `), quickTable);
  await ann.waitForFunction(() => /Round/.test(document.getElementById('center').textContent));
  const rematchSeats = await seats(ann);
  if (rematchSeats !== quickSeats) fail(`the rematch changed the seats: ${quickSeats} -> ${rematchSeats}`);

  // A private table: not in the lobby; its invite link brings Ben to it, and he sits.
  await ann.click('#back');
  await ann.fill('#opt-target', '150'); // the create form checks its fields
  await ann.check('#opt-private');
  await ann.click('#create-form button[type=submit]');
  await ann.waitForSelector('#invite-box:not([hidden])');
  const privateTable = await tableOf(ann);
  const link = await ann.inputValue('#invite-link');
  if (!/\/#invite\/[0-9a-f]{32}$/.test(link)) fail('no invite link: ' + link);
  await ann.click('#invite-copy');
  await ann.waitForFunction(() => /copied/.test(document.getElementById('notice').textContent));
  // its creator is seated
  await ann.waitForFunction(() => document.getElementById('t-bottom').textContent.includes('Ann'));

  const ben = await openPage(browser, { width: 390, height: 844 }, 'Ben');
  await ben.waitForSelector('#tables .table-row');
  if ((await text(ben, '#tables')).includes(`#${privateTable}`)) fail('the lobby lists the private table');
  await ben.goto(link);
  await ben.waitForFunction((n) => document.getElementById('table-title').textContent.includes(`#${n}`), privateTable);
  await ben.locator('#seating button:has-text("Sit")').first().click();
  await ben.waitForFunction(() => document.getElementById('t-bottom').textContent.includes('Ben'));
  await ann.waitForFunction(() => document.getElementById('board').textContent.includes('Ben'));

  // The chat: markup typed is shown as typed, on both screens.
  const line = '<b>bold</b> & <img src=x onerror=alert(1)>';
  await ben.fill('#chat-text', line);
  await ben.click('#chat-form button');
  for (const page of [ann, ben]) {
    await page.waitForSelector('#chat-log li');
    if (await page.locator('#chat-log b, #chat-log img').count()) fail('a chat line was read as markup');
    if (!(await text(page, '#chat-log')).includes('Ben (2)' + line)) fail('a chat line changed: ' + (await text(page, '#chat-log')));
  }
  await ann.fill('#chat-text', 'こんにちは');
  await ann.press('#chat-text', 'Enter');
  await ben.waitForFunction(() => document.getElementById('chat-log').textContent.includes('Ann (1)こんにちは'));
  if (screenshot) {
    await ann.screenshot({ path: `${screenshot}-modes-desktop.png` });
    await ben.screenshot({ path: `${screenshot}-modes-phone.png`, fullPage: true });
  }
  console.log(`e2e: a quick match played to its end, its rematch, an invite-link table and its chat (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  await browser.close();
})().catch((e) => fail(e.stack || String(e)));
