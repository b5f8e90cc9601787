// Every screen of the browser client in real headless Chromium, at desktop and phone widths and
// in both languages: the lobby, a 5-pawn decision and its redeal, the viewer's turn, a round
// result that stays into the next round, a teyaku round, the game's end and its rematch, and
// the replay driven by keys and opened from a link. Each screen is checked for horizontal
// overflow (360 to 430 px and desktop), overlapping text, English words left in Japanese mode
// and serious axe-core violations. The deals are known: the test finds the seeds of a 5-pawn
// deal and of a teyaku deal with goita watch and gives them to its tables (in the database,
// between two runs of the server).
// Usage: node screens.js PATH_TO_GOITA WORK_DIR [SCREENSHOT_DIR]
'use strict';
const fs = require('fs');
const path = require('path');
const { spawn, execFileSync } = require('child_process');
const modules = path.join(__dirname, '../../tools/e2e/node_modules');
const { chromium } = require(path.join(modules, 'playwright-core'));
const { Client } = require('./client');
const { text, act } = require('./ui');
const { checkScreen } = require('./screen-checks');

const [goita, work, shots] = process.argv.slice(2);
const fail = (why) => { console.error('e2e screens: ' + why); process.exit(1); };
// The servers this test started, stopped however it ends (a failure exits at once).
const servers = new Set();
process.on('exit', () => { for (const server of servers) server.kill('SIGKILL'); });
// Seeds whose first deal (standard rules, the first dealer drawn from the seed as goita serve
// does) is a teyaku (RULES.md 3.1), and five pawns for one player alone (RULES.md 3.3), found
// with goita watch; with the seat of the 5-pawn holder.
function findSeeds(work) {
  const found = {};
  const file = path.join(work, 'watch.json');
  for (let seed = 1; seed < 2000 && !(found.teyaku && found.goshi); seed++) {
    execFileSync(goita, ['watch', '--seed', String(seed), '--player', 'random', '--record', file], { stdio: 'ignore' });
    const round = JSON.parse(fs.readFileSync(file, 'utf8')).rounds[0];
    const pawns = round.history.split(',').slice(0, 4).map((h) => h.split('1').length - 1);
    if (round.result.end === 'teyaku') found.teyaku = found.teyaku || seed;
    else if (pawns.filter((n) => n === 5).length === 1 && !found.goshi) found.goshi = { seed, holder: pawns.indexOf(5) };
  }
  if (!found.teyaku || !found.goshi) fail('no seed gives a teyaku and a 5-pawn deal');
  return found;
}

// Starts goita serve on the port and database, resolving once it listens.
function serve(port, db) {
  const server = spawn(goita, ['serve', '--port', String(port), '--db', db, '--round-pause', '1200'], { stdio: ['ignore', 'pipe', 'pipe'] });
  servers.add(server);
  server.on('exit', () => servers.delete(server));
  return new Promise((resolve, reject) => {
    server.stdout.on('data', (d) => { if (/goita serve: http/.test(d.toString())) resolve(server); });
    server.on('exit', (code) => reject(new Error(`goita serve exited (${code})`)));
  });
}

// Stops a server as an operator would (SIGTERM) and resolves once it has exited.
function stop(server) {
  return new Promise((resolve) => {
    server.removeAllListeners('exit');
    server.on('exit', () => { servers.delete(server); resolve(); });
    server.kill('SIGTERM');
  });
}

// A table of computer players but for one seat, made over the protocol; returns its number.
async function tableWithBots(client, rules, humanSeat) {
  const created = await client.request({ type: 'create', rules }, 'created');
  await client.request({ type: 'watch', table: created.table }, 'state');
  for (let s = 0; s < 4; s++) {
    if (s === humanSeat) continue;
    client.send({ type: 'bot', table: created.table, seat: s, level: 'random' });
    await client.wait((m) => m.type === 'state' && m.table === created.table && m.seats[s], 'a computer seated');
  }
  return created.table;
}

// Sits the page at the table's free seat and starts the game.
async function sitAndStart(page, table) {
  await page.click(`.table-row:has-text("#${table} ") button:has-text("Watch")`);
  await page.waitForSelector('#seating button:has-text("Sit")');
  await page.click('#seating button:has-text("Sit")');
  await page.waitForSelector('#seating button:has-text("Start"):not([disabled])');
  await page.click('#seating button:has-text("Start")');
  await page.waitForFunction(() => /Round/.test(document.getElementById('center').textContent));
}

// Whether the keyboard's focus is on a piece of the hand that may be played next.
function focusOnPlayable() {
  const a = document.activeElement;
  return !!a && a.parentNode && a.parentNode.id === 'hand' && !a.disabled && !a.classList.contains('chosen');
}

// Plays a lead by keyboard alone: Enter on the first piece that may go face-down, then Tab
// (or Shift+Tab) to a piece that may attack and Enter. The hand is redrawn between the two,
// and the focus must stay in it.
async function playByKeys(page) {
  const before = await page.locator('#log li').count();
  await page.focus('#hand button:not([disabled])');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#hand button.tile.chosen');
  if (!(await page.evaluate(() => document.activeElement.classList.contains('chosen')))) fail('the hand lost the keyboard focus when redrawn');
  let found = false;
  for (const key of ['Tab', 'Shift+Tab']) {
    if (key !== 'Tab') await page.focus('#hand button.tile.chosen');
    for (let i = 0; i < 9 && !found; i++) {
      await page.keyboard.press(key);
      found = await page.evaluate(focusOnPlayable);
    }
    if (found) break;
  }
  if (!found) fail('no piece to attack with could be reached by keyboard');
  await page.keyboard.press('Enter');
  await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n, before);
}

(async () => {
  const port = Number(execFileSync('node', [path.join(__dirname, 'free-port.js')]).toString());
  const db = path.join(work, 'screens.db');
  const url = `http://127.0.0.1:${port}/`;
  // 1. Two tables of computers with a seat left, then their seeds set while the server is down.
  const seeds = findSeeds(work);
  const partner = (seeds.goshi.holder + 2) % 4; // this page's seat at the 5-pawn table
  let server = await serve(port, db);
  const host = new Client(url.replace('http', 'ws'), 'host');
  await host.open();
  await host.request({ type: 'hello', name: 'Host' }, 'welcome');
  const goshiTable = await tableWithBots(host, 'target=50', partner);
  const teyakuTable = await tableWithBots(host, '', 0);
  const frenchTable = (await host.request({ type: 'create', rules: 'preset=french' }, 'created')).table;
  host.close();
  await stop(server);
  execFileSync('/usr/bin/python3', ['-c', `import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE tables SET seed = ? WHERE id = ?", (${seeds.goshi.seed}, ${goshiTable}))
db.execute("UPDATE tables SET seed = ? WHERE id = ?", (${seeds.teyaku}, ${teyakuTable}))
db.commit()`, db]);
  server = await serve(port, db);

  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  page.on('pageerror', (e) => fail(`page error: ${e.message}`));
  const notFound = [];
  page.on('response', (r) => { if (r.status() >= 400) notFound.push(`${r.status()} ${r.url()}`); });
  const check = (name) => checkScreen(page, name, shots, fail);

  await page.goto(url);
  await page.waitForSelector('#me:not(:empty)');
  await page.fill('#name', 'Ann');
  await page.click('#name-form button');
  await page.waitForFunction(() => document.getElementById('me').textContent.startsWith('Ann'));
  await page.waitForSelector(`.table-row:has-text("#${teyakuTable} ")`);
  await check('lobby');
  // rules in words, the target on the rule set's own scale
  const french = await text(page, `.table-row:has-text("#${frenchTable} ")`);
  if (!/French edition, Goita Shogi \(points 1-5\) · 4 players · to 15(?! · teyaku)/.test(french)) fail('the French table\'s rules in words: ' + french);
  const font = await page.evaluate(async () => { await document.fonts.ready; return document.fonts.check('16px "Goita Gothic"', '王'); });
  if (!font) fail('the kanji font the server ships was not loaded');
  // a page without an icon link is asked /favicon.ico by browsers, a 404 on every load
  const icon = await page.evaluate(async () => {
    const link = document.querySelector('link[rel~="icon"]');
    return link ? (await fetch(link.href)).status : 0;
  });
  if (icon !== 200) fail(`the page's icon: ${icon || 'no icon link'}`);
  // a newly placed piece drops into place, but not for a visitor who asks for less motion
  const animation = async (reducedMotion) => {
    await page.emulateMedia({ reducedMotion });
    return page.evaluate(() => {
      const piece = tile(1);
      piece.classList.add('fresh');
      document.body.append(piece);
      const name = getComputedStyle(piece).animationName;
      piece.remove();
      return name;
    });
  };
  if ((await animation('no-preference')) === 'none' || (await animation('reduce')) !== 'none') fail('the move animation ignores prefers-reduced-motion');
  await page.emulateMedia({ reducedMotion: null });

  // 2. A teyaku at the deal: the round ends at once and its panel shows the six pawns. A
  // spectator watching from before the start also sees every hand as dealt; a seat does not.
  const watcher = await (await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' })).newPage();
  watcher.on('pageerror', (e) => fail(`spectator's page error: ${e.message}`));
  await watcher.goto(url);
  await watcher.click(`.table-row:has-text("#${teyakuTable} ") button:has-text("Watch")`);
  await watcher.waitForSelector('#seating');
  // an error names the seat from 1, in the page's language: the spectator asks for seat 2,
  // which a computer holds
  await watcher.click('#lang');
  await watcher.evaluate((table) => send({ type: 'sit', table, seat: 1 }), teyakuTable);
  await watcher.waitForSelector('#notice:not([hidden])');
  if ((await text(watcher, '#notice')) !== 'エラー: 席 2 にはもう人が座っています') fail('the error of a taken seat: ' + (await text(watcher, '#notice')));
  await watcher.click('#lang');
  await sitAndStart(page, teyakuTable);
  await watcher.waitForSelector('#round-result:not([hidden]) .dealt');
  if ((await watcher.locator('#round-result .dealt .tile').count()) !== 32) fail('the spectator does not see the four hands as dealt');
  if (await page.locator('#round-result .dealt').count()) fail('a seated player sees the hands as dealt');
  await watcher.context().close();
  await page.waitForSelector('#round-result:not([hidden])');
  const teyaku = await text(page, '#round-result');
  if (!/wins by teyaku/.test(teyaku) || !/Teyaku hand/.test(teyaku)) fail('no teyaku in the round result: ' + teyaku);
  if ((await page.locator('#round-result .reveal .tile[aria-label^="pawn"]').count()) < 6) fail('the teyaku hand does not show six pawns');
  await check('teyaku');
  await page.click('#back');

  // 3. Five pawns: this page sits opposite the holder, as the partner who decides; it redeals.
  await sitAndStart(page, goshiTable);
  await page.waitForFunction(() => /has five pawns/.test(document.getElementById('center').textContent));
  if (!/Your partner has five pawns/.test(await text(page, '#prompt'))) fail('no 5-pawn decision asked: ' + (await text(page, '#prompt')));
  if ((await page.locator('#center .goshi .tile').count()) !== 5) fail('the five pawns are not shown');
  await check('goshi');
  await page.click('#actions button:has-text("Redeal")');
  await page.waitForFunction(() => /redealt/.test(document.getElementById('round-result').textContent));
  if (!/: redeal/.test(await text(page, '#round-result'))) fail('the partner\'s decision is not in the result');

  // 4. The next rounds: this page's turn, then a round result that stays into the next round.
  let seed = 11, steps = 0, shotTurn = false, stayed = false;
  const rng = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  await page.click('#round-result-close');
  // A game whose rounds all went by without this page leading or a round result staying (the
  // computers' and this page's moves differ when a step loses a race under load) is followed
  // by the rematch's game, played to its end too.
  const playToGameEnd = async () => { for (let gameSteps = 0; !/Game over/.test(await text(page, '#center')); steps++) {
    if (++gameSteps > 2000) fail('the game did not end');
    const prompt = await text(page, '#prompt');
    if (!shotTurn && /Choose the piece to place face-down/.test(prompt)) {
      await check('turn');
      await playByKeys(page);
      shotTurn = true;
      continue;
    }
    if (!stayed && (await page.locator('#round-result:not([hidden])').count())) {
      const round = Number((await text(page, '#round-result h2')).match(/\d+/)[0]);
      await page.waitForFunction((r) => /Round (\d+)/.test(document.getElementById('center').textContent) &&
        Number(document.getElementById('center').textContent.match(/Round (\d+)/)[1]) > r || /Game over/.test(document.getElementById('center').textContent), round);
      if (!(await page.locator('#round-result:not([hidden])').count())) fail('the round result did not stay');
      await check('round-result');
      stayed = true;
      if (!/Game over/.test(await text(page, '#center'))) await page.click('#round-result-close');
    }
    if (!(await act(page, rng, fail))) await page.waitForTimeout(50);
  } };
  // The page leads a round only when the three others all pass its attack or it won the
  // last round, which random play can miss for a whole game: rematches go on, up to six games.
  const maxGames = 6;
  const rematch = async () => {
    await page.waitForSelector('#center button:has-text("Rematch")');
    const oldTitle = await text(page, '#table-title');
    await page.click('#center button:has-text("Rematch")');
    await page.waitForFunction((old) => document.getElementById('table-title').textContent !== old, oldTitle);
    await page.waitForFunction(() => /Round 1/.test(document.getElementById('center').textContent));
  };
  await playToGameEnd();
  await page.waitForSelector('#center button:has-text("Rematch")');
  await check('game-end');
  const gameId = await page.evaluate(() => Number(new URLSearchParams(document.querySelector('#center a[href^="?game="]').search).get('game')));
  await rematch();
  await check('rematch');
  for (let games = 1; (!shotTurn || !stayed) && games < maxGames; games++) {
    if (games > 1) await rematch();
    await playToGameEnd();
  }
  if (!shotTurn) fail(`this page never led a round (${maxGames} games)`);
  if (!stayed) fail(`no round result was seen staying into the next round (${maxGames} games)`);

  // 5. The replay of the game, from a link to its first round, then by keys.
  await page.goto(`${url}?game=${gameId}&round=1&move=0`);
  await page.waitForFunction(() => /Round 1/.test(document.getElementById('r-pos').textContent));
  if (!/has five pawns/.test(await text(page, '#r-board')) || !/: redeal/.test(await text(page, '#r-board'))) fail('the replay shows no 5-pawn decision');
  await page.keyboard.press('PageDown');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  if (!/[?&]round=2&move=2$/.test(page.url())) fail('the address does not follow the replay: ' + page.url());
  await page.keyboard.press('End');
  await page.waitForSelector('#r-board .result');
  // the round's winner is the one who made its last play (a record's seats count from 1)
  const lastPlay = (await page.locator('#r-log li').last().textContent()).split(':')[0];
  const sentence = await text(page, '#r-board .result');
  if (/went out/.test(sentence) && !sentence.startsWith(`${lastPlay} went out`)) fail(`the replay names another winner: ${sentence} (last play by ${lastPlay})`);
  await check('replay');
  await page.keyboard.press('Home');
  if (!/move 0\//.test(await text(page, '#r-pos'))) fail('Home did not go to the round\'s start');

  if (notFound.length) fail('requests failed: ' + notFound.join(', '));
  await browser.close();
  await stop(server);
  console.log(`e2e screens: 8 screens checked at 4 widths in 2 languages (${steps} steps)`);
})().catch((e) => fail(e.stack || String(e)));
