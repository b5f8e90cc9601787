// A bot account playing a person, in real headless Chromium against goita serve
// (docs/SERVER.md "Bots"):
// - a registered person makes a bot account over the WebSocket and gets its token once;
// - `goita bot --token T` says hello with it and sits at the table a person made in the
//   browser, where the seat reads as a bot's ("[bot]");
// - the person fills the other seats with computers, starts, and plays the game to its end
//   against the bot, which answers every decision it is asked; the bot's client ends after
//   its one game (--games 1), and the game went to the bots' leaderboard, not the people's;
// - a duplicate match of two bots, each run by goita bot (one with a level, one with an engine
//   speaking docs/PROTOCOL.md), on 2 seeded deals each played twice with the seats swapped, is
//   played to its end and published at /matches/ID.json with each game's points and the mean
//   difference per round with its standard error, which the browser shows at ?match=ID;
// - before it, the person challenges one of the bots, which accepts, and they play a game.
// Usage: node bot.js URL PATH_TO_GOITA
'use strict';
const path = require('path');
const { spawn } = require('child_process');
const { chromium } = require(path.join(__dirname, '../../tools/e2e/node_modules/playwright-core'));
const { Client } = require('./client');
const { act } = require('./ui');

const [url, goita] = process.argv.slice(2);
const wsUrl = url.replace(/^http/, 'ws');
const fail = (why) => {
  console.error('e2e bot: ' + why);
  for (const child of running) child.kill();
  process.exit(1);
};

// A registered person's new bot account: its id and token.
async function makeOwner() {
  const owner = new Client(wsUrl, 'owner');
  await owner.open(5000);
  await owner.request({ type: 'hello', name: 'Owner' }, 'welcome');
  // (a first `player` says the guest's row was saved; the name is claimed with the next)
  const claimed = owner.wait((m) => (m.type === 'player' && m.player.registered) || m.type === 'error', 'the claimed name');
  owner.send({ type: 'register', name: 'Owner', password: 'an owner of bots 7' });
  if ((await claimed).type === 'error') fail(`register: ${owner.errors.join('; ')}`);
  return owner;
}

async function makeBot(owner, name) {
  const created = await owner.request({ type: 'bot_create', name }, 'bot_created');
  if (!created.bot.bot_account || !/^[0-9a-f]{32}$/.test(created.token)) fail(`bot_created: ${JSON.stringify(created)}`);
  return { owner, id: created.bot.id, token: created.token };
}

// Starts goita bot for games games, with a level or (engine) `goita engine` playing it behind
// the line protocol; resolves with its exit code and output when it ends.
const running = new Set();
const botOutput = new Map(); // token -> what its goita bot printed so far, for a failure's message
function runBot(token, games, level = 'rules', engine = false) {
  let out = '';
  const player = engine ? ['--engine', `${goita} engine --player ${level}`] : ['--player', level];
  const child = spawn(goita, ['bot', '--server', wsUrl, '--token', token, ...player, '--games', String(games)]);
  running.add(child);
  const keep = (d) => { out += d; botOutput.set(token, out); };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return new Promise((resolve) => child.on('exit', (code) => { running.delete(child); resolve({ code, out }); }));
}

async function getJson(address) {
  const res = await fetch(address);
  return res.status === 200 ? res.json() : null;
}

// The owner challenges a bot run by goita bot, which accepts: a two-player game played to its end.
async function challenge(owner, bot) {
  await new Promise((r) => setTimeout(r, 300)); // goita bot has said hello
  const sent = await owner.request({ type: 'challenge', bot: bot.id, rules: 'players=2,target=1' }, 'challenge_sent');
  owner.table = sent.table;
  await owner.waitState((m) => m.table === sent.table && m.seats[1] && m.seats[1].bot_account, 'the bot accepting', 5000)
    .catch((e) => fail(`${e.message}; goita bot printed: ${botOutput.get(bot.token) || 'nothing'}`));
  owner.send({ type: 'start', table: sent.table });
  for (const start = Date.now(); !(owner.state.table === sent.table && owner.state.status === 'over');) {
    if (Date.now() - start > 20000) fail('the challenge game did not end');
    const legal = owner.legal();
    const moved = owner.wait((m) => m.type === 'state', 'the next state');
    if (legal.length && owner.state.status === 'playing') owner.send({ type: 'move', table: sent.table, move: legal[0] });
    await moved;
  }
  owner.send({ type: 'leave' });
}

// Two bots' duplicate match, 2 deals x 2 games, to its end; returns its summary.
async function duplicateMatch(owner, first) {
  const second = await makeBot(owner, 'Robo Two');
  const ended = [runBot(first.token, 5, 'random'), runBot(second.token, 4, 'rules', true)];
  await challenge(owner, first);
  const created = await owner.request({ type: 'match_create', name: 'Robo v Robo Two', bot: first.id, opponent: second.id, deals: 2 }, 'match_created');
  let summary = null;
  for (const start = Date.now(); ; await new Promise((r) => setTimeout(r, 200))) {
    summary = await getJson(`${url}matches/${created.match}.json`);
    if (summary && summary.status !== 'playing') break;
    if (Date.now() - start > 30000) fail(`the match did not end: ${JSON.stringify(summary)}`);
  }
  if (summary.status !== 'over') fail(`the match ended ${summary.status}: ${summary.why}`);
  const [firstRun, secondRun] = await Promise.all(ended);
  if (firstRun.code !== 0 || !/challenged by Owner/.test(firstRun.out) || !/played 5 games/.test(firstRun.out)) fail(`the challenged bot ended with ${firstRun.code}: ${firstRun.out}`);
  if (secondRun.code !== 0 || !/played 4 games/.test(secondRun.out)) fail(`a match bot ended with ${secondRun.code}: ${secondRun.out}`);
  const games = summary.games;
  if (games.length !== 4 || games.map((g) => `${g.deal}${g.swapped}`).join() !== '1false,1true,2false,2true') fail(`the games: ${JSON.stringify(games)}`);
  if (summary.a.player !== first.id || summary.b.player !== second.id || !summary.a.bot_account) fail(`the sides: ${JSON.stringify(summary)}`);
  // every game is one scored round: exactly one side scored
  for (const g of games) if ((g.a > 0) === (g.b > 0)) fail(`a game's points: ${JSON.stringify(g)}`);
  const diffs = [0, 1].map((d) => ((games[2 * d].a - games[2 * d].b) + (games[2 * d + 1].a - games[2 * d + 1].b)) / 2);
  const mean = (diffs[0] + diffs[1]) / 2;
  const stderr = Math.abs(diffs[0] - diffs[1]) / 2; // sd of two values over sqrt 2
  if (summary.result.deals !== 2 || Math.abs(summary.result.mean - mean) > 1e-9 || Math.abs(summary.result.stderr - stderr) > 1e-9) {
    fail(`the result ${JSON.stringify(summary.result)} is not mean ${mean} ± ${stderr}`);
  }
  // each deal dealt at both its tables, with the seats swapped: the records say so; the deals
  // differ, and the summary shows each deal's seed once both its games are played
  const records = await Promise.all(games.map((g) => getJson(`${url}records/${g.game}.json`)));
  if (records.some((r) => !r)) fail('a match game has no public record');
  const seeds = records.map((r) => r.seed);
  if (seeds[0] !== seeds[1] || seeds[2] !== seeds[3] || seeds[0] === seeds[2]) fail(`the deals' seeds: ${seeds.join(', ')}`);
  if (games.some((g, i) => g.seed !== seeds[i])) fail(`the summary's seeds: ${JSON.stringify(games)} against ${seeds}`);
  const order = records.map((r) => r.players.map((p) => p.name).join(' v '));
  if (order.join() !== 'Robo v Robo Two,Robo Two v Robo,Robo v Robo Two,Robo Two v Robo') fail(`the seats: ${order.join(', ')}`);
  return summary;
}

async function main() {
  const bot = await makeBot(await makeOwner(), 'Robo');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' })).newPage();
  page.on('pageerror', (e) => fail(e.message));
  await page.addInitScript(() => localStorage.setItem('goita.lang', 'en'));
  await page.goto(url);
  await page.waitForSelector('#me:not(:empty)');
  await page.fill('#name', 'Mika');
  await page.click('#name-form button');
  await page.waitForFunction(() => document.getElementById('me').textContent.startsWith('Mika'));
  await page.fill('#opt-target', '10'); // one round is a game
  await page.click('#create-form button[type=submit]');
  await page.waitForFunction(() => document.getElementById('t-bottom').textContent.includes('Mika'), null, { timeout: 5000 })
    .catch(() => fail('creating a table did not seat its creator'));

  const ended = runBot(bot.token, 1);
  await page.waitForFunction(() => ['t-top', 't-left', 't-right'].some((id) => document.getElementById(id).textContent.includes('Robo [bot]')),
    null, { timeout: 10000 }).catch(async () => fail(`the bot did not sit, marked as a bot: ${await page.textContent('#table')}`));
  await page.click('#fill-computers');
  await page.waitForSelector('#seating button:has-text("Start"):not([disabled])', { timeout: 5000 })
    .catch(() => fail('"fill with computers" did not fill the table'));
  await page.click('#seating button:has-text("Start")');

  let seed = 5, steps = 0, result = null;
  const rng = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  ended.then((r) => { result = r; });
  while (!result) {
    if (++steps > 3000) fail('the game did not end');
    if (!(await act(page, rng, fail))) await page.waitForTimeout(50);
  }
  if (result.code !== 0 || !/played 1 games/.test(result.out)) fail(`goita bot ended with ${result.code}: ${result.out}`);
  if (!/seated at table \d+/.test(result.out)) fail(`goita bot did not say where it sat: ${result.out}`);

  // rated on the bots' own list, not on the people's
  const people = await bot.owner.request({ type: 'leaderboard' }, 'leaderboard');
  const bots = await bot.owner.request({ type: 'bot_leaderboard' }, 'bot_leaderboard');
  if (people.players.some((p) => p.id === bot.id)) fail('the bot is on the people\'s leaderboard');
  if (!bots.players.some((p) => p.id === bot.id && p.games === 1 && p.bot_account)) fail(`the bots' leaderboard: ${JSON.stringify(bots.players)}`);

  const summary = await duplicateMatch(bot.owner, bot);
  // its page in the browser
  await page.goto(`${url}?match=${summary.id}`);
  await page.waitForFunction(() => document.getElementById('match-result').dataset.status, null, { timeout: 5000 })
    .catch(async () => fail(`the match page shows nothing: ${await page.textContent('#match')}`));
  const shown = await page.textContent('#match-result');
  const expected = `Robo [bot] against Robo Two [bot]: ${summary.result.mean.toFixed(1)} ± ${summary.result.stderr.toFixed(1)} points per round`;
  if (!shown.startsWith(expected)) fail(`the match page says "${shown}", not "${expected}..."`);
  if ((await page.locator('#match-games tr').count()) !== 5) fail('the match page does not list its 4 games');
  bot.owner.close();
  await browser.close();
  console.log(`match ${summary.id}: ${summary.result.mean} ± ${summary.result.stderr} points per round`);
}

main().catch((e) => fail(e.stack || String(e)));
