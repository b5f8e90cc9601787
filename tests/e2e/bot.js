// A bot account playing a person, in real headless Chromium against goita serve
// (docs/SERVER.md "Bots"):
// - a registered person makes a bot account over the WebSocket and gets its token once;
// - `goita bot --token T` says hello with it and sits at the table a person made in the
//   browser, where the seat reads as a bot's ("[bot]");
// - the person fills the other seats with computers, starts, and plays the game to its end
//   against the bot, which answers every decision it is asked; the bot's client ends after
//   its one game (--games 1), and the game went to the bots' leaderboard, not the people's.
// Usage: node bot.js URL PATH_TO_GOITA
'use strict';
const path = require('path');
const { spawn } = require('child_process');
const { chromium } = require(path.join(__dirname, '../../tools/e2e/node_modules/playwright-core'));
const { Client } = require('./client');
const { act } = require('./ui');

const [url, goita] = process.argv.slice(2);
const wsUrl = url.replace(/^http/, 'ws');
let botProcess = null;
const fail = (why) => {
  console.error('e2e bot: ' + why);
  if (botProcess) botProcess.kill();
  process.exit(1);
};

// A registered person's new bot account: its id and token.
async function makeBot() {
  const owner = new Client(wsUrl, 'owner');
  await owner.open(5000);
  await owner.request({ type: 'hello', name: 'Owner' }, 'welcome');
  // (a first `player` says the guest's row was saved; the name is claimed with the next)
  const claimed = owner.wait((m) => (m.type === 'player' && m.player.registered) || m.type === 'error', 'the claimed name');
  owner.send({ type: 'register', name: 'Owner', password: 'an owner of bots 7' });
  if ((await claimed).type === 'error') fail(`register: ${owner.errors.join('; ')}`);
  const created = await owner.request({ type: 'bot_create', name: 'Robo' }, 'bot_created');
  if (!created.bot.bot_account || !/^[0-9a-f]{32}$/.test(created.token)) fail(`bot_created: ${JSON.stringify(created)}`);
  return { owner, id: created.bot.id, token: created.token };
}

// Starts goita bot; resolves with its exit code and output when it ends.
function runBot(token) {
  let out = '';
  botProcess = spawn(goita, ['bot', '--server', wsUrl, '--token', token, '--player', 'rules', '--games', '1']);
  botProcess.stdout.on('data', (d) => { out += d; });
  botProcess.stderr.on('data', (d) => { out += d; });
  return new Promise((resolve) => botProcess.on('exit', (code) => { botProcess = null; resolve({ code, out }); }));
}

async function main() {
  const bot = await makeBot();
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

  const ended = runBot(bot.token);
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
  bot.owner.close();
  await browser.close();
}

main().catch((e) => fail(e.stack || String(e)));
