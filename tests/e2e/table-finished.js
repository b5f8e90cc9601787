// The table finished, in real headless Chromium against goita serve:
// - a new table seats its creator, one button fills the empty seats with computer players, and
//   the start message says the game can start once it can (not that seats must be filled);
// - a table created with a time bank and a byoyomi shows the creator's clock, counting down at
//   its turn;
// - an online round ends with each player's biggest mistake in points lost, and its analysis a
//   click away, analysed in the page's WebAssembly worker (desktop, English);
// - the analysis speaks in points with labels, and shows no negative margin and no estimate of
//   a move valued over fewer deals than the computer's pick;
// - the lobby's row of a table shows its time bank and byoyomi;
// - a game played to its end counts in the player's career statistics, which the lobby shows
//   with a chart of the points lost per move (from the server's analysis; the chart's drawing
//   also from a longer career, through every screen's checks: overflow, overlaps, axe-core,
//   Japanese);
// - at a table that allows it, a spectator takes over the seat of a person gone for good (a
//   computer standing in after the server's grace of 2 s) and plays it, at 390 px;
// - an offline round is followed by the next deal after the pause, with no click;
// - ?game=999 is a page saying the game was not found (phone, Japanese and desktop, English).
// GOITA_SCREENSHOTS=DIR saves the screens there.
// Usage: node table-finished.js URL
'use strict';
const path = require('path');
const { chromium } = require(path.join(__dirname, '../../tools/e2e/node_modules/playwright-core'));
const { act } = require('./ui');
const { checkScreen } = require('./screen-checks');

const [url] = process.argv.slice(2);
const shots = process.env.GOITA_SCREENSHOTS || '';
const fail = (why) => { console.error('e2e table-finished: ' + why); process.exit(1); };
const shot = async (page, name) => { if (shots) await page.screenshot({ path: path.join(shots, `finished-${name}.png`), fullPage: true }); };

async function newPage(browser, viewport, lang) {
  const context = await browser.newContext({ viewport, locale: lang === 'ja' ? 'ja-JP' : 'en-US' });
  const page = await context.newPage();
  page.on('pageerror', (e) => fail(`${e.message}`));
  await page.addInitScript((l) => localStorage.setItem('goita.lang', l), lang);
  return page;
}

// A new table from the form: seated at once, filled by one click, then startable.
async function seatedAndFilled(page) {
  await page.goto(url);
  await page.waitForSelector('#me:not(:empty)');
  await page.fill('#name', 'Mika');
  await page.click('#name-form button');
  await page.waitForFunction(() => document.getElementById('me').textContent.startsWith('Mika'));
  await page.fill('#opt-target', '150');
  await page.selectOption('#opt-timer', '30');
  await page.selectOption('#opt-bank', '60');
  await page.click('#create-form button[type=submit]');
  await page.waitForFunction(() => document.getElementById('t-bottom').textContent.includes('Mika'), null, { timeout: 5000 })
    .catch(() => fail('creating a table did not seat its creator'));
  if (await page.locator('#seating button:has-text("Sit")').count()) fail('a Sit button is offered to the seated creator');
  if (!/every seat is filled/.test(await page.textContent('#center'))) fail(`the waiting table does not say what it needs: ${await page.textContent('#center')}`);
  await shot(page, 'created-desktop');
  await page.click('#fill-computers');
  await page.waitForSelector('#seating button:has-text("Start"):not([disabled])', { timeout: 5000 })
    .catch(() => fail('"fill with computers" did not fill the table'));
  const seats = await page.evaluate(() => ['t-top', 't-left', 't-right'].map((id) => document.getElementById(id).textContent));
  if (!seats.every((s) => /Computer/.test(s))) fail(`the seats after filling: ${seats.join(' | ')}`);
  const center = await page.textContent('#center');
  if (/The game can start when every seat is filled/.test(center)) fail(`the full table still says "${center}"`);
  if (!/the game can start/.test(center)) fail(`the full table does not say it can start: ${center}`);
  if (await page.locator('#fill-computers').count()) fail('"fill with computers" is offered at a full table');
  await page.click('#seating button:has-text("Start")');
  await page.waitForFunction(() => /Round/.test(document.getElementById('center').textContent));
  await clockCounts(page);
}

// The creator's clock at its turn: its bank (1:00 at most) and the byoyomi, counting down; the
// computers have none.
async function clockCounts(page) {
  await page.waitForSelector('#t-bottom.turn', { timeout: 20000 }).catch(() => fail('the creator\'s turn did not come'));
  const read = () => page.textContent('#t-bottom .clock.running').catch(() => '');
  const first = await read();
  const m = /^(\d+):(\d\d) \+ 30 s$/.exec(first);
  if (!m || Number(m[1]) * 60 + Number(m[2]) > 60) fail(`the clock at the creator's turn reads "${first}"`);
  await page.waitForFunction((before) => {
    const node = document.querySelector('#t-bottom .clock.running');
    return node && node.textContent !== before;
  }, first, { timeout: 3000 }).catch(async () => fail(`the clock did not count down from "${first}": "${await read()}"`));
  const later = /^(\d+):(\d\d)/.exec(await read());
  if (!later || Number(later[1]) * 60 + Number(later[2]) >= Number(m[1]) * 60 + Number(m[2])) fail(`the clock went from "${first}" to "${await read()}"`);
  if (await page.locator('#t-top .clock, #t-left .clock, #t-right .clock').count()) fail('a computer seat shows a clock');
}

// Plays rounds online until one with moves ends (a round can end at its deal: a teyaku, a
// redeal), and reads its biggest mistakes and analysis.
async function roundMistakes(page) {
  let seed = 3, steps = 0;
  const rng = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let rounds = 1; ; rounds++) {
    if (rounds > 6) fail('six rounds and none with a move to analyse');
    while (!(await page.locator('#round-result:not([hidden])').count())) {
      if (++steps > 2000) fail('the round did not end');
      if (!(await act(page, rng, fail))) await page.waitForTimeout(50);
    }
    const ended = Date.now();
    await page.waitForSelector('#round-mistakes ul.mistakes', { timeout: 60000 })
      .catch(async () => fail(`no biggest mistakes after the round: ${await page.textContent('#round-result')}`));
    const lines = await page.locator('#round-mistakes li').allTextContents();
    const took = Date.now() - ended;
    if (lines.length !== 4) fail(`${lines.length} lines of mistakes for 4 players: ${lines.join(' | ')}`);
    for (const line of lines) {
      if (!/: (\S+→\S+|pass) lost \d+ points \(.+ was best\)$|: No move lost points$/.test(line)) fail(`a mistake reads "${line}"`);
    }
    await page.click('#show-analysis');
    await page.waitForSelector('#round-analysis[data-done="1"]', { timeout: 60000 });
    if (!(await page.locator('#round-analysis .an-move').count())) { // no move in this round: the next
      await page.click('#round-result-close');
      continue;
    }
    await shot(page, 'round-mistakes-desktop');
    checkAnalysisText(await page.textContent('#round-analysis'), 'online round');
    // the panel stays open while the next round is played (dealt after the 1 s pause); only a
    // round that ends at its deal (a teyaku) puts its own result, with its own panel, in its place
    const resultTitle = await page.textContent('#round-result-title');
    await page.waitForTimeout(1500);
    if (await page.textContent('#round-result-title') !== resultTitle) { // checked again on a later round
      console.log(`e2e table-finished: the next round ended at its deal (${await page.textContent('#round-result-title')}): the panel was replaced`);
      continue;
    }
    if (!(await page.locator('#round-analysis:not([hidden]) .an-move').count())) fail('the analysis closed by itself');
    // on a phone, in Japanese: the result and its analysis fit the screen
    await page.setViewportSize({ width: 390, height: 844 });
    await page.click('#lang');
    await page.waitForFunction(() => /解析/.test(document.getElementById('round-mistakes').textContent));
    await page.waitForSelector('#round-analysis[data-done="1"]');
    const english = (await page.textContent('#round-result')).replace(/Mika/g, '').match(/[A-Za-z]{3,}/);
    if (english) fail(`the round's result in Japanese reads "${english[0]}": ${await page.textContent('#round-result')}`);
    const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    if (scroll > width) fail(`the round's mistakes at 390 px: the page is ${scroll} px wide`);
    await shot(page, 'round-mistakes-phone-ja');
    await page.click('#lang');
    await page.setViewportSize({ width: 1280, height: 800 });
    console.log(`e2e table-finished: an online round's biggest mistakes ${took} ms after its end: ${lines.join(' | ')}`);
    return;
  }
}

// A game to 1 point (its first scoring round ends it) played to its end from the lobby; then
// "My statistics" shows it counted, once the server has analysed it.
async function careerStats(page) {
  // the lobby's row of the table played (kept up to date meanwhile) shows its time control; read
  // before leaving, as a table with no person left is soon abandoned
  const rowText = await page.evaluate(() => [...document.querySelectorAll('#tables .table-row')]
    .map((r) => r.textContent).find((r) => r.startsWith(`#${currentTable}playing`)) || '');
  if (!rowText.includes('time bank 1:00 + 30 s a move')) fail(`the lobby's row of a table with a bank and a byoyomi reads "${rowText}"`);
  await page.click('#back');
  await page.waitForSelector('#lobby:not([hidden])');
  await page.fill('#opt-target', '1');
  await page.selectOption('#opt-timer', '0');
  await page.selectOption('#opt-bank', '0');
  await page.click('#create-form button[type=submit]');
  await page.waitForSelector('#fill-computers', { timeout: 5000 });
  await page.click('#fill-computers');
  await page.click('#seating button:has-text("Start"):not([disabled])', { timeout: 5000 });
  let seed = 5, steps = 0;
  const rng = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  while (!/Final score/.test(await page.textContent('#table').catch(() => ''))) {
    if (++steps > 3000) fail('the game to 1 point did not end');
    if (!(await act(page, rng, fail))) await page.waitForTimeout(50);
  }
  await page.click('#back');
  await page.waitForSelector('#my-stats:visible');
  const asked = Date.now();
  for (;;) { // the server analyses the game on its own thread: ask until it is counted
    await page.click('#my-stats');
    const counted = await page.waitForSelector('#stats-summary', { timeout: 2000 }).then(() => true, () => false);
    if (counted) break;
    if (Date.now() - asked > 30000) fail(`the finished game is not in the statistics: ${await page.textContent('#stats')}`);
  }
  const summary = await page.textContent('#stats-summary');
  const m = /^Games 1 · rounds (\d+) · (\d+\.\d) points per round · (\d+\.\d|–) points lost per move \(over (\d+) moves\)$/.exec(summary);
  if (!m) fail(`the statistics read "${summary}"`);
  if (!/^Career of Mika/.test(await page.textContent('#stats h3'))) fail(`the statistics are headed "${await page.textContent('#stats h3')}"`);
  if (Number(m[4]) > 0 && (await page.locator('#stats-chart circle').count()) !== 1) fail('the chart does not show the one game');
  console.log(`e2e table-finished: the finished game counted in the statistics ${Date.now() - asked} ms after it ended: ${summary}`);
}

// The chart of a longer career, drawn from a stats message on Ann's fresh page (no other name
// on it yet): one point per game with moves, oldest first, the average line; then the screen
// checks of every screen (overflow from 360 px, overlapping text, axe-core, Japanese).
async function statsChart(browser) {
  const page = await person(browser, 'Ann', { width: 1280, height: 800 });
  const career = await page.evaluate(() => {
    const recent = [];
    for (let i = 0; i < 24; i++) { // newest first, as the server sends them: play improving over time
      const moves = 20 + (i % 5), lost = Math.round(moves * (1.5 + i * 0.25 + (i % 3) * 0.8));
      recent.push({ game: 100 - i, time: '2026-11-27T10:00:00Z', rounds: 6, points: 120 - i, moves, lost });
    }
    recent.push({ game: 70, time: '2026-11-20T10:00:00Z', rounds: 1, points: 0, moves: 0, lost: 0 });
    const sum = (k) => recent.reduce((a, g) => a + g[k], 0);
    renderStats({ type: 'stats', player: { id: 1, name: 'Ann', rating: 1500, deviation: 350, games: 40 }, games: 40,
      rounds: sum('rounds') + 90, points: sum('points') + 600, moves: sum('moves') + 300, lost: sum('lost') + 900, recent });
    const chart = document.getElementById('stats-chart');
    return { dots: chart.querySelectorAll('circle.game').length, average: !!chart.querySelector('path.average'),
      label: chart.getAttribute('aria-label') };
  });
  if (career.dots !== 24) fail(`the chart of 24 games with moves (and one without) has ${career.dots} points`);
  if (!career.average || !/last 24 games/.test(career.label)) fail(`the chart lacks its average or its label: ${career.label}`);
  await checkScreen(page, 'career statistics', null, fail);
  await page.locator('#stats').scrollIntoViewIfNeeded();
  await shot(page, 'stats-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.click('#lang');
  await page.waitForFunction(() => /通算成績/.test(document.getElementById('stats').textContent));
  await page.locator('#stats').scrollIntoViewIfNeeded();
  await shot(page, 'stats-phone-ja');
  await page.context().close();
}

// A person's page in the lobby, named.
async function person(browser, name, viewport) {
  const page = await newPage(browser, viewport, 'en');
  await page.goto(url);
  await page.waitForSelector('#me:not(:empty)');
  await page.fill('#name', name);
  await page.click('#name-form button');
  await page.waitForFunction((n) => document.getElementById('me').textContent.startsWith(n), name);
  return page;
}

// Kai and Mio start a table that lets spectators take over, with two computers; Kai closes the
// page. Once the grace is over a computer stands in for Kai, and Lia, watching, takes the seat
// over and plays it (Mio stays: a table with no person left would be abandoned instead).
async function takeOver(browser) {
  const desktop = { width: 1280, height: 800 };
  const kai = await person(browser, 'Kai', desktop);
  await kai.check('#opt-takeover');
  await kai.click('#create-form button[type=submit]');
  await kai.waitForSelector('#fill-computers', { timeout: 5000 });
  const table = await kai.evaluate(() => currentTable);
  const mio = await person(browser, 'Mio', desktop);
  const watch = async (page) => page.locator('.table-row', { hasText: 'Kai' }).locator('button:has-text("Watch")').click({ timeout: 5000 })
    .catch(() => fail('Kai\'s table is not in the lobby to watch'));
  await watch(mio);
  await mio.click('#seating button:has-text("Sit")', { timeout: 5000 });
  await mio.waitForFunction(() => /Mio/.test(document.getElementById('t-bottom').textContent));
  await kai.click('#fill-computers');
  await kai.click('#seating button:has-text("Start"):not([disabled])', { timeout: 5000 });
  await kai.waitForFunction(() => /Round/.test(document.getElementById('center').textContent));
  await kai.context().close(); // gone: the seat's connection closes
  const lia = await person(browser, 'Lia', { width: 390, height: 844 });
  await watch(lia);
  await lia.waitForSelector('#seating button:has-text("Take over seat 1")', { timeout: 15000 })
    .catch(async () => fail(`no take-over offered for Kai's seat: ${await lia.textContent('#table-title')}`));
  if (await lia.locator('#seating button:has-text("Take over seat 2")').count()) fail('Mio\'s seat is offered, she is here');
  await lia.click('#seating button:has-text("Take over seat 1")');
  await lia.waitForFunction(() => /Lia/.test(document.getElementById('t-bottom').textContent), null, { timeout: 5000 })
    .catch(async () => fail(`Lia does not sit in the seat she took over: ${await lia.textContent('#t-bottom')}`));
  if (await lia.locator('#seating button:has-text("Take over")').count()) fail('the take-over is still offered to the one seated');
  if (await lia.evaluate(() => currentTable) !== table) fail('Lia sits at another table');
  let seed = 7, acted = false;
  const rng = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let steps = 0; !acted; steps++) { // her turn comes (Mio playing hers), and her move is played
    if (steps > 600) fail('Lia never got a move to make in the seat she took over');
    acted = await act(lia, rng, fail);
    if (!acted && !(await act(mio, rng, fail))) await lia.waitForTimeout(50);
  }
  await shot(lia, 'take-over-phone');
  const [scroll, width] = await lia.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  if (scroll > width) fail(`the table taken over at 390 px: the page is ${scroll} px wide`);
  await lia.context().close();
  await mio.context().close();
  console.log(`e2e table-finished: Lia took over Kai's seat at table ${table} and played it`);
}

// The analysis's words: points with units, labels, and no margin below zero.
function checkAnalysisText(text, where) {
  if (/\bvalue\b/.test(text)) fail(`${where}: the analysis still says "value": ${text.slice(0, 300)}`);
  if (/undefined|NaN/.test(text)) fail(`${where}: ${text.slice(0, 300)}`);
  if (!/: [+−]?\d+ points/.test(text)) fail(`${where}: no move's points: ${text.slice(0, 300)}`);
  if (!/estimated [+−]?\d+\.\d points/.test(text)) fail(`${where}: no estimate in points: ${text.slice(0, 300)}`);
  for (const m of text.matchAll(/([+−-]?[\d.]+) more than its next choice/g)) {
    if (/^[−-]/.test(m[1])) fail(`${where}: a negative margin "${m[0]}"`);
  }
}

// The analysis drawn from a move whose pick was valued over 280 deals, beside a rival dropped
// after 40 deals with a higher average and the move played, dropped after 40 with a lower one:
// no margin over the first, no estimate of the second.
async function uncomparableEstimates(page) {
  const text = await page.evaluate(() => new Promise((resolve) => {
    const box = document.createElement('section');
    document.body.append(box);
    const move = { index: 0, seat: 0, played: '123', value: -20, best: 10, loss: 30, best_moves: ['176'],
      computer: { move: '176', moves: ['123', '176', '1p', '145'], values: [-8.0, -6.9, -10.6, 12.5], deals: [40, 280, 280, 40], agree: [3, 155, 90, 1] } };
    window.goitaAnalysis.show(box, { names: ['A', 'B', 'C', 'D'], scale: 'tens', run: () => Promise.resolve([move]) });
    const wait = () => (box.dataset.done ? resolve(box.textContent) : setTimeout(wait, 20));
    wait();
  }));
  checkAnalysisText(text, 'a pruned rival');
  if (!/−20 points · if .+ had been played: \+30/.test(text)) fail(`the move's line does not read "−20 points · if X had been played: +30": ${text}`);
  if (!/estimated −6\.9 points, 3\.7 more than its next choice, best in 155 of 280 deals/.test(text)) {
    fail(`the computer's line is not "estimated −6.9 points, 3.7 more than its next choice, best in 155 of 280 deals": ${text}`);
  }
  if (/estimate of the move played/.test(text)) fail(`an estimate over 40 deals is set against one over 280: ${text}`);
}

// An offline round: the next one is dealt after the pause without a click.
async function offlineNextRound(browser) {
  const page = await newPage(browser, { width: 1280, height: 800 }, 'en');
  await page.addInitScript(() => localStorage.setItem('goita.offline.pace', '0'));
  await page.goto(url + '#offline');
  await page.waitForSelector('#table:not([hidden]) #hand .tile');
  let seed = 9, steps = 0;
  const rng = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  while (!(await page.locator('#offline-next').count())) {
    if (++steps > 400) fail('offline: the first round did not end');
    const tableText = () => document.getElementById('log').textContent + document.getElementById('hand').textContent;
    const before = await page.evaluate(tableText);
    if (!(await act(page, rng, fail))) { await page.waitForTimeout(50); continue; }
    // the worker answers a moment later: wait for the move on the table (or the round's end)
    await page.waitForFunction((b) => document.getElementById('log').textContent + document.getElementById('hand').textContent !== b ||
      document.getElementById('offline-next'), before);
  }
  const round = Number((await page.textContent('#center')).match(/Round (\d+)/)[1]);
  await page.waitForFunction((r) => {
    const m = document.getElementById('center').textContent.match(/Round (\d+)/);
    return m && Number(m[1]) > r && !document.getElementById('offline-next');
  }, round, { timeout: 15000 }).catch(async () => fail(`offline: round ${round} ended and nothing was dealt: ${await page.textContent('#center')}`));
  await shot(page, 'offline-next-desktop');
  await page.context().close();
}

// ?game=999: a page that says so, in the page's language, with the way back.
async function missingGame(browser, viewport, lang, expected) {
  const page = await newPage(browser, viewport, lang);
  await page.goto(url + '?game=999');
  await page.waitForSelector('#r-missing', { timeout: 10000 })
    .catch(async () => fail(`?game=999 (${lang}) is no page: ${await page.textContent('body')}`));
  const box = await page.textContent('#r-missing');
  if (!box.includes(expected)) fail(`?game=999 (${lang}) says "${box}"`);
  if (await page.locator('#notice:not([hidden])').count()) fail(`?game=999 (${lang}) also shows ${await page.textContent('#notice')}`);
  if (await page.locator('#r-prev:visible, #dl-json:visible').count()) fail(`?game=999 (${lang}) offers to step or download a game that is not there`);
  await shot(page, `missing-${lang}-${viewport.width}`);
  await page.click('#r-missing a');
  await page.waitForSelector('#lobby:not([hidden])');
  await page.context().close();
}

(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  const started = Date.now();
  await missingGame(browser, { width: 390, height: 844 }, 'ja', '対局 #999 は見つかりません');
  await missingGame(browser, { width: 1280, height: 800 }, 'en', 'Game #999 was not found');
  await statsChart(browser);
  const page = await newPage(browser, { width: 1280, height: 800 }, 'en');
  await uncomparableEstimatesOn(page);
  await seatedAndFilled(page);
  await roundMistakes(page);
  await careerStats(page);
  await page.context().close();
  await takeOver(browser);
  await offlineNextRound(browser);
  await browser.close();
  console.log(`e2e table-finished: seated on create, filled, started, the round's mistakes, the analysis's words, the career statistics, a seat taken over, the offline deal and a missing game (${((Date.now() - started) / 1000).toFixed(1)} s)`);
})().catch((e) => fail(e.stack || String(e)));

// The analysis's drawing needs the page and its scripts, not a table.
async function uncomparableEstimatesOn(page) {
  await page.goto(url);
  await page.waitForFunction(() => window.goitaAnalysis);
  await uncomparableEstimates(page);
}
