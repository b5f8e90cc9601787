// Ko shogi between two people online (web/koshogi.html, koshogi-online.js, docs/SERVER.md "Ko
// shogi tables"), in headless Chromium against goita serve: Ann at 1280 px in English makes a
// table with a short clock (no main time, BYOYOMI_S a move), Ben at 390 px in Japanese finds it
// in the list and sits at White, a spectator opens it by its address. Each player moves by
// clicks, the spectator sees every move live, both clocks count down, a draw is offered and
// declined, and Black's flag falls: the server says so and all three pages show the loss on
// time in their language. The finished game's record opens from its link at the last move, and
// the leaderboard lists the winner above the loser, each with one rated game, and the loser's
// rating history (asked from the leaderboard) shows the game with her rating down.
// axe-core on every page while the game runs, no sideways scroll.
// Usage: node koshogi-online.js URL [SCREENSHOT_PREFIX]
// With a prefix, it saves PREFIX-koshogi-online-1280.png, PREFIX-koshogi-online-390.png and
// PREFIX-koshogi-history-390.png (Ben's page with Ann's rating history).
'use strict';
const fs = require('fs');
const path = require('path');
const { chromium } = require(path.join(__dirname, '../../tools/e2e/node_modules/playwright-core'));

const root = process.argv[2].replace(/\/?$/, '/');
const screenshot = process.argv[3];
const axeSource = fs.readFileSync(path.join(__dirname, '../../tools/e2e/node_modules/axe-core/axe.min.js'), 'utf8');
const BYOYOMI_S = 8;
const fail = (why) => { console.error('e2e koshogi-online: ' + why); process.exit(1); };
setTimeout(() => fail('took more than 60 s'), 60000).unref();

async function open(browser, viewport, lang, name, address) {
  const context = await browser.newContext({ viewport });
  await context.addInitScript(([l, n]) => {
    if (!localStorage.getItem('goita.lang')) localStorage.setItem('goita.lang', l);
    if (n && !localStorage.getItem('goita.name')) localStorage.setItem('goita.name', n);
  }, [lang, name]);
  const page = await context.newPage();
  page.on('pageerror', (e) => fail(`${name || 'spectator'}: ${e.message}`));
  await page.goto(root + address);
  await page.waitForFunction(() => document.querySelectorAll('#board .pc').length > 100 && !document.getElementById('online').hidden,
    null, { timeout: 15000 }).catch(() => fail(`${name || 'spectator'}: no engine or no connection to the server`));
  return page;
}

async function checkAxe(page, name) {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(', ')}`);
  });
  if (found.length) fail(`${name}: axe-core: ${found.join('; ')}`);
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  if (scroll > width) fail(`${name}: the page is ${scroll} px wide in a ${width} px window`);
}

const movesShown = (page) => page.$$eval('#moves button', (bs) => bs.length);

// Plays a one-step move of the side to move by clicking its two points (the page's own legal
// moves, as the engine gives them), and waits for the server to send it back.
async function playOne(page, who, before) {
  const move = await page.evaluate(() => {
    const legal = ui.state.legal;
    return legal.find((m) => m.steps.length === 1 && legal.filter((o) => o.from === m.from && o.steps.length >= 1 && o.steps[0][0] === m.steps[0][0]).length === 1);
  });
  if (!move) fail(`${who}: no simple move to play`);
  await page.click(`#board .pt[data-p="${move.from}"]`);
  await page.click(`#board .pt[data-p="${move.steps[0][0]}"]`);
  await page.waitForFunction((n) => document.querySelectorAll('#moves button').length === n, before + 1, { timeout: 5000 })
    .catch(() => fail(`${who}: the move was not played`));
}

(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  const ann = await open(browser, { width: 1280, height: 800 }, 'en', 'Ann', 'koshogi.html');
  await ann.fill('#ks-main', '0');
  await ann.fill('#ks-byoyomi', String(BYOYOMI_S));
  await ann.selectOption('#ks-side', 'black');
  await ann.click('#ks-create-form button[type="submit"]');
  await ann.waitForFunction(() => /Waiting for an opponent/.test(document.getElementById('status').textContent))
    .catch(() => fail('Ann: her table is not waiting for an opponent'));
  const table = await ann.evaluate(() => ks.table.table);

  const ben = await open(browser, { width: 390, height: 844 }, 'ja', 'Ben', 'koshogi.html');
  await ben.waitForSelector('#ks-tables li button', { timeout: 5000 }).catch(() => fail('Ben: the table is not in the list'));
  const sit = await ben.$$eval('#ks-tables li button', (bs) => bs.map((b) => b.textContent));
  if (!sit.includes('後手で座る')) fail(`Ben: the list offers ${sit.join(', ')}, not White's seat in Japanese`);
  await ben.click('#ks-tables li button:text("後手で座る")');
  await ann.waitForFunction(() => /Black to move/.test(document.getElementById('status').textContent), null, { timeout: 5000 })
    .catch(() => fail('Ann: the game did not start'));
  const spectator = await open(browser, { width: 1280, height: 800 }, 'en', '', `koshogi.html?table=${table}`);
  await spectator.waitForFunction(() => ks.table && ks.table.status === 'playing', null, { timeout: 5000 })
    .catch(() => fail('the spectator does not see the game'));
  if (await spectator.isVisible('#offer-draw')) fail('the spectator is offered to propose a draw');

  await playOne(ann, 'Ann', 0);
  await spectator.waitForFunction(() => document.querySelectorAll('#moves button').length === 1, null, { timeout: 5000 })
    .catch(() => fail('the spectator did not see Black\'s move'));
  await ben.waitForFunction(() => /後手の番/.test(document.getElementById('status').textContent), null, { timeout: 5000 })
    .catch(() => fail('Ben is not told in Japanese that it is his turn'));
  // White's clock counts down on every page from the server's figures
  const first = await spectator.textContent('#clock-white .time');
  await spectator.waitForTimeout(1200);
  const later = await spectator.textContent('#clock-white .time');
  if (first === later) fail(`White's clock did not count down: ${first}`);
  if (!(await ben.evaluate(() => document.getElementById('board').classList.contains('flipped') &&
      document.querySelector('#files span').textContent === '1'))) fail('Ben, at White, does not see the board from his side');
  if (await ann.evaluate(() => document.getElementById('board').classList.contains('flipped'))) fail('Ann sees the board from White\'s side');
  await checkAxe(ben, 'Ben at 390 px in Japanese');
  if (screenshot) {
    await ben.evaluate(() => document.getElementById('status').scrollIntoView());
    await ben.screenshot({ path: `${screenshot}-koshogi-online-390.png` });
  }
  await playOne(ben, 'Ben', 1);
  await spectator.waitForFunction(() => document.querySelectorAll('#moves button').length === 2, null, { timeout: 5000 })
    .catch(() => fail('the spectator did not see White\'s move'));

  // a draw offered and declined
  await ann.click('#offer-draw');
  await ben.waitForSelector('#decline-draw:visible', { timeout: 5000 }).catch(() => fail('Ben is not asked about the draw'));
  if ((await ben.textContent('#decline-draw')) !== '引き分けを断る') fail('Ben\'s draw buttons are not in Japanese');
  await ben.click('#decline-draw');
  await ann.waitForSelector('#offer-draw:visible', { timeout: 5000 }).catch(() => fail('Ann does not see the draw declined'));
  await checkAxe(ann, 'Ann at 1280 px');
  await checkAxe(spectator, 'the spectator');
  if (screenshot) {
    await ann.evaluate(() => window.scrollTo(0, 0));
    await ann.screenshot({ path: `${screenshot}-koshogi-online-1280.png` });
  }

  // Black does not move: the server's clock ends the game, and every page says so
  const wait = { timeout: (BYOYOMI_S + 5) * 1000 };
  await ann.waitForFunction(() => /White wins: loss on time/.test(document.getElementById('status').textContent), null, wait)
    .catch(() => fail('Ann is not told she lost on time'));
  await ben.waitForFunction(() => /後手の勝ち：時間切れ/.test(document.getElementById('status').textContent), null, wait)
    .catch(() => fail('Ben is not told in Japanese that he won on time'));
  await spectator.waitForFunction(() => /White wins: loss on time/.test(document.getElementById('status').textContent), null, wait)
    .catch(() => fail('the spectator is not told the flag fell'));
  if ((await movesShown(ann)) !== 2) fail('a move was played after the flag fell');

  // the saved game's record, replayed from its link
  await ann.waitForSelector('#record-link:visible', { timeout: 5000 }).catch(() => fail('no link to the saved record'));
  const link = await ann.getAttribute('#record-link', 'href');
  await ann.waitForFunction(() => /^Ben \d+ ±\d+ · rated games: 1\|Ann \d+ ±\d+ · rated games: 1$/
    .test([...document.querySelectorAll('#ks-leaders li')].map((li) => li.textContent).join('|')), null, { timeout: 5000 })
    .catch(() => fail('the leaderboard does not list Ben above Ann after their game'));
  await ben.waitForFunction(() => /レーティング対局 1 局/.test(document.getElementById('ks-leaders').textContent), null, { timeout: 5000 })
    .catch(() => fail('Ben\'s leaderboard is not in Japanese'));
  // Ann's Ko shogi rating history, opened from Ben's leaderboard: this game, her rating down
  await ben.click('#ks-leaders li:nth-child(2) a');
  const gameId = new URLSearchParams(link.split('?')[1]).get('record');
  await ben.waitForFunction((id) => {
    const box = document.getElementById('ks-history');
    const rows = [...box.querySelectorAll('li')];
    return !box.hidden && /Ann の広将棋レーティング履歴/.test(box.textContent) && rows.length === 1
      && rows[0].querySelector('a').getAttribute('href') === `koshogi.html?record=${id}` && /\(-\d+\)$/.test(rows[0].textContent);
  }, gameId, { timeout: 5000 }).catch(() => fail('Ann\'s rating history does not show the game she lost'));
  if (screenshot) {
    await ben.locator('#ks-history').scrollIntoViewIfNeeded();
    await ben.screenshot({ path: `${screenshot}-koshogi-history-390.png` });
  }
  await spectator.goto(root + link + '&move=1');
  await spectator.waitForFunction(() => ui.state && ui.state.plies === 2 && ui.state.ply === 1, null, { timeout: 10000 })
    .catch(() => fail(`the record at ${link} did not open at move 1`));
  await spectator.click('#last');
  await spectator.waitForFunction(() => /White wins: loss on time/.test(document.getElementById('status').textContent), null, { timeout: 5000 })
    .catch(() => fail('the record does not say the game was lost on time'));
  await browser.close();
  console.log('e2e koshogi-online: ok');
})().catch((e) => fail(e.stack || e.message));
