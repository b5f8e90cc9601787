// Ko shogi in the browser (web/koshogi.html), in headless Chromium at desktop and phone size,
// opened from the Goita lobby's link:
// a move against the computer, which answers from its worker while the page still serves the
// help; then a game between two people at one screen from a set-up position, played to its end
// by clicks: a multi-leg move chosen step by step, a shot, a promotion asked and taken, the king's
// capture; the record downloaded, loaded back and stepped through; the help of a piece; the
// Latin IDs. No page may scroll sideways. Served without its WebAssembly build, the page says so.
// Usage: node koshogi.js URL URL_WITHOUT_WASM [SCREENSHOT_PREFIX]
// With a prefix, it saves PREFIX-koshogi-desktop.png and PREFIX-koshogi-phone.png while the
// wrestler's second leg is chosen.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require(path.join(__dirname, '../../tools/e2e/node_modules/playwright-core'));

const root = process.argv[2].replace(/\/?$/, '/');
const bare = process.argv[3].replace(/\/?$/, '/') + 'koshogi.html';
const screenshot = process.argv[4];
const fail = (why) => { console.error('e2e koshogi: ' + why); process.exit(1); };
setTimeout(() => fail('took more than 100 s'), 100000).unref();

// Black: general 10s, chariot 10f, sumo wrestler 15k, longbow 5m, aide de camp 3g; White: general
// 10a, chariot 1a, pawns 14j and 6i. Black to move.
const POSITION = '9g8ch/19/19/19/19/9CH9/16AC2/19/13p5/5p13/4WR14/19/14LB4/19/19/19/19/19/9G9 b 1';

// The selector of a point named as the notation names it ("10j").
function at(name) {
  const file = Number(name.slice(0, -1));
  const row = name.charCodeAt(name.length - 1) - 97;
  return `#board .pt[data-p="${row * 19 + 19 - file}"]`;
}

const text = (page, sel) => page.$eval(sel, (e) => e.textContent);
const moves = (page) => page.$$eval('#moves button', (bs) => bs.map((b) => b.textContent));

// Fails when the page is wider than its window.
async function noOverflow(page, when) {
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  if (scroll > width) fail(`${when}: the page is ${scroll} px wide in a ${width} px window`);
}

// Clicks the points of one move in order and waits for it in the move list.
async function play(page, points, expected, before) {
  for (const p of points) await page.click(at(p));
  await page.waitForFunction((n) => document.querySelectorAll('#moves button').length === n, before + 1);
  const list = await moves(page);
  if (!list[before].endsWith(expected)) fail(`played ${points.join(' ')}, the list says ${list[before]}, not ${expected}`);
}

// Fails unless the point is marked as the next step of the kind given (to-move, to-capture, to-shoot).
async function marked(page, point, kind) {
  const cls = await page.$eval(at(point), (e) => e.className);
  if (!cls.includes(kind)) fail(`${point} is not marked ${kind}: "${cls}"`);
}

// A move against the computer: it answers, and the help answers while it thinks.
async function againstComputer(page) {
  await page.selectOption('#mode', 'black');
  await page.selectOption('#think', '1000');
  await page.click('#new-form button[type=submit]');
  await page.waitForFunction(() => /Black to move/.test(document.getElementById('status').textContent));
  await page.click(at('10m'));
  await marked(page, '10l', 'to-move');
  await page.click(at('10l'));
  await page.waitForFunction(() => /thinking/.test(document.getElementById('status').textContent));
  await page.selectOption('#help-piece', 'CM');
  await page.waitForFunction(() => /Cavalryman/.test(document.getElementById('help-body').textContent), null, { timeout: 900 })
    .catch(() => fail('the help did not answer while the computer was thinking'));
  await page.waitForFunction(() => document.querySelectorAll('#moves button').length === 2, null, { timeout: 10000 });
  if (!/Black to move \(move 2\)/.test(await text(page, '#status'))) fail('after the computer: ' + (await text(page, '#status')));
}

// The set-up game, two people at one screen, to the capture of White's general.
async function hotSeat(page, size) {
  await page.selectOption('#mode', 'hotseat');
  await page.fill('#position', POSITION);
  await page.click('#set-position');
  await page.waitForFunction(() => document.querySelectorAll('#moves button').length === 0);
  // the sumo wrestler: capture 14j, then on to 13i; after the capture the move may end there
  await page.click(at('15k'));
  await marked(page, '14j', 'to-capture');
  await page.click(at('14j'));
  if (await page.isHidden('#finish')) fail('no "end the move here" after a capture a wrestler may stop on');
  await marked(page, '13i', 'to-move');
  await noOverflow(page, `${size}, a move being chosen`);
  if (screenshot) await page.screenshot({ path: `${screenshot}-koshogi-${size}.png` });
  await play(page, ['13i'], 'WRx14j-13i', 0);
  await play(page, ['1a', '1b'], 'CH-1b', 1);
  // the longbow: a step, then a shot at the pawn on 6i
  await page.click(at('5m'));
  await page.click(at('6l'));
  await marked(page, '6i', 'to-shoot');
  await play(page, ['6i'], 'LB-6l*6i', 2);
  await play(page, ['1b', '1a'], 'CH-1a', 3);
  // the aide de camp enters the zone: promotion is asked
  await page.click(at('3g'));
  await page.click(at('3f'));
  await page.waitForSelector('#promote:not([hidden])');
  await page.click('#promote');
  await page.waitForFunction(() => document.querySelectorAll('#moves button').length === 5);
  if (!(await moves(page))[4].endsWith('AC-3f+')) fail('the promotion was not played: ' + (await moves(page))[4]);
  await play(page, ['1a', '1b'], 'CH-1b', 5);
  await play(page, ['10f', '10a'], 'CHx10a+', 6);
  await page.waitForFunction(() => /Game over\. Black wins/.test(document.getElementById('status').textContent));
  for (const p of ['10f', '10a'])
    if (!(await page.$eval(at(p), (e) => e.classList.contains('last')))) fail(`the last move is not marked on ${p}`);
}

// The record: downloaded, read back into the page, stepped through.
async function record(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'koshogi-')), 'game.txt');
  await download.saveAs(file);
  const saved = fs.readFileSync(file, 'utf8');
  if (!saved.includes(`[Position "${POSITION}"]`) || !/1\. WRx14j-13i/.test(saved) || !/CHx10a\+/.test(saved)) fail('the record: ' + saved);
  await page.selectOption('#mode', 'hotseat');
  await page.click('#new-form button[type=submit]');
  await page.waitForFunction(() => document.querySelectorAll('#moves button').length === 0);
  await page.setInputFiles('#load', file);
  await page.waitForFunction(() => document.getElementById('replay-at').textContent === '0 / 7');
  if ((await page.inputValue('#position')) !== POSITION) fail('the replay does not start at the record\'s position');
  for (let n = 1; n <= 3; n++) {
    await page.click('#next');
    await page.waitForFunction((k) => document.getElementById('replay-at').textContent === `${k} / 7`, n);
  }
  if ((await text(page, at('13i'))) !== '力士') fail('after three moves of the replay, no wrestler on 13i');
  if ((await text(page, at('6i'))) !== '') fail('after three moves of the replay, the pawn shot on 6i is still there');
  if ((await text(page, at('6l'))) !== '弓') fail('after three moves of the replay, no longbow on 6l');
  await page.click('#last');
  await page.waitForFunction(() => /Black wins/.test(document.getElementById('status').textContent));
}

// The help of a piece and the Latin IDs.
async function help(page) {
  await page.selectOption('#help-piece', 'WR');
  await page.waitForFunction(() => /moves in legs.*\(the rule on multi-leg moves, 4\.5\)/.test(document.getElementById('help-body').textContent));
  if ((await page.$$('#help-body .mini .reach')).length !== 24) fail('the wrestler alone on 10j should reach 24 points besides its own');
  await page.check('#latin');
  if ((await text(page, at('13i'))) !== 'WR') fail('Latin IDs: 13i shows ' + (await text(page, at('13i'))));
  await page.uncheck('#latin');
  if ((await text(page, at('13i'))) !== '力士') fail('kanji: 13i shows ' + (await text(page, at('13i'))));
}

(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  for (const [size, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]]) {
    const context = await browser.newContext({ viewport, acceptDownloads: true });
    const page = await context.newPage();
    page.on('pageerror', (e) => fail(`${size}: ${e.message}`));
    await page.goto(root);
    await page.click('#koshogi-link');
    await page.waitForURL(/\/koshogi\.html$/).catch(() => fail(`${size}: the Goita lobby does not lead to Ko shogi`));
    await page.waitForFunction(() => /Black to move/.test(document.getElementById('status').textContent), null, { timeout: 15000 })
      .catch(async () => fail(`${size}: the engine did not start: ${await text(page, '#notice')}`));
    await noOverflow(page, size);
    await againstComputer(page);
    await hotSeat(page, size);
    await noOverflow(page, `${size}, the game over`);
    await record(page);
    await help(page);
    await noOverflow(page, `${size}, the help`);
    await context.close();
  }
  const page = await browser.newPage();
  await page.goto(bare);
  await page.waitForSelector('#notice:not([hidden])', { timeout: 10000 }).catch(() => fail('no engine, and the page does not say so'));
  if (!/engine could not load/.test(await text(page, '#notice'))) fail('no engine: ' + (await text(page, '#notice')));
  await browser.close();
  console.log('e2e koshogi: ok');
})().catch((e) => fail(e.message));
