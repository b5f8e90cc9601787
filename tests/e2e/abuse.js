// goita serve attacked on loopback, one attack at a time (docs/SERVER.md, "Limits"): each must
// be refused, while four honest players at another table keep getting the state after each move
// within 1 s and a lobby listener keeps getting the lobby's changes within 1 s.
// Attacks: a message flood, oversized messages, wrong protocol names, cross-origin upgrades,
// a quick-match flood against another table's computers (their order of service, from /metrics),
// password guesses at one account and from one address at many, lookalike names, twice the
// connection cap, a reader that stops reading, and running out of file descriptors
// under ulimit -n 64 (with the server's CPU time measured meanwhile).
// Usage: node abuse.js GOITA SCRATCH_DIR
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const http = require('http');
const net = require('net');
const path = require('path');
const WebSocket = require(path.join(__dirname, '../../tools/e2e/node_modules/ws'));
const { Client, startTable } = require('./client');

const [goita, dir] = process.argv.slice(2);
const began = Date.now();
let failures = 0;
const fail = (why) => { console.error('abuse: FAIL ' + why); failures++; };
const running = [];
process.on('exit', () => running.forEach((s) => s.kill('SIGKILL')));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

// Starts goita serve with args (under ulimit -n when given); resolves with {child, port, log()}.
async function startServer(name, args, ulimit) {
  const port = await freePort();
  const argv = ['serve', '--port', String(port), '--db', path.join(dir, name + '.db'), '--round-pause', '0', ...args];
  const child = ulimit
    ? spawn('bash', ['-c', `ulimit -n ${ulimit}; exec "$0" "$@"`, goita, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(goita, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => { if (/goita serve: http/.test(d.toString())) resolve(); });
    child.on('exit', (code) => reject(new Error(`${name}: the server exited (${code}): ${stderr}`)));
  });
  return { child, port, url: `ws://127.0.0.1:${port}/`, log: () => stderr };
}

// The honest side: four players at a started table, a lobby listener, and a helper whose
// sitting down and leaving at a table of its own are the lobby changes the listener must see.
async function honest(server) {
  const hello = async (name) => {
    const c = new Client(server.url, name);
    await c.open();
    await c.request({ type: 'hello', name }, 'welcome');
    return c;
  };
  const players = [];
  for (const name of ['Ann', 'Ben', 'Cho', 'Dai']) players.push(await hello(name));
  await startTable(players);
  const lou = await hello('Lou');
  await lou.request({ type: 'list' }, 'tables');
  const hal = await hello('Hal');
  hal.spare = (await hal.request({ type: 'create', rules: '' }, 'created')).table;
  hal.seated = false;
  await sleep(100); // the lobby update of that table reaches Lou before any check
  return { server, players, lou, hal, slowest: 0 };
}

// One move by whoever is to move; every player must see the new state within 1 s. A game that
// has ended is followed by a new one at a new table.
async function move(env, label) {
  const { players } = env;
  for (let tries = 0; !players.some((c) => c.legal().length); tries++) {
    if (players[0].state.status === 'over') {
      await startTable(players);
      continue;
    }
    if (tries > 100) throw new Error(`${label}: nobody can move`);
    await sleep(10);
  }
  const mover = players.find((c) => c.legal().length);
  const legal = mover.legal();
  const t0 = Date.now();
  const seen = players.map((c) => {
    const old = c.state.game.history;
    return c.wait((m) => m.type === 'state' && (m.status === 'over' || m.game.history !== old), `the state after a move (${label})`, 1000);
  });
  mover.send({ type: 'move', table: mover.table, move: legal[Math.floor(Math.random() * legal.length)] });
  await Promise.all(seen);
  env.slowest = Math.max(env.slowest, Date.now() - t0);
}

// Two moves at the honest table and one lobby change, each seen within 1 s.
async function healthy(env, label) {
  try {
    for (let i = 0; i < 2; i++) await move(env, label);
    const { lou, hal } = env;
    const t0 = Date.now();
    const update = lou.wait((m) => m.type !== 'pong' && m.type !== 'error', `a lobby update (${label})`, 1000);
    hal.send(hal.seated ? { type: 'leave' } : { type: 'sit', table: hal.spare, seat: 0 });
    hal.seated = !hal.seated;
    await update;
    env.slowest = Math.max(env.slowest, Date.now() - t0);
  } catch (e) {
    fail(`${label}: the honest clients were disturbed: ${e.message}`);
  }
}

// Opens a WebSocket with the given protocols and options; resolves with how it ended up:
// {open, ws} | {status, body} (an HTTP answer instead of the upgrade) | {error}.
function attempt(url, protocols, options = {}, ms = 3000) {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, protocols, options);
    const timer = setTimeout(() => { ws.terminate(); resolve({ hung: true }); }, ms);
    const done = (r) => { clearTimeout(timer); resolve(r); };
    ws.on('open', () => done({ open: true, ws, toJSON: () => 'opened' }));
    ws.on('unexpected-response', (req, res) => {
      let body = '';
      res.on('data', (d) => { body += d; });
      res.on('end', () => { done({ status: res.statusCode, body }); ws.terminate(); });
      res.on('error', () => done({ status: res.statusCode, body }));
    });
    ws.on('error', (e) => done({ error: e.code || e.message }));
  });
}

// Resolves with {code, reason} when ws closes (or {code: 'none'} after ms).
function closed(ws, ms = 5000) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ code: 'none' }), ms);
    ws.on('close', (code, reason) => { clearTimeout(timer); resolve({ code, reason: reason.toString() }); });
  });
}

// Counts a flooding client's answers: pongs (pings the hub answered) and rate errors.
function counting(ws) {
  const n = { pongs: 0, limited: 0 };
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString());
    if (m.type === 'pong') n.pongs++;
    if (m.type === 'error' && /^too many messages: at most 20 a second/.test(m.error)) n.limited++;
  });
  return n;
}

// 5 times the rate (100 pings a second): errors, then closed with 1008 after a few seconds,
// and the hub answers no more than the burst and the rate allow. Then 2000 pings at once: closed
// at once (1008, or a reset when the close comes while the pings still arrive).
async function flood(env) {
  const a = await attempt(env.server.url, 'goita');
  if (!a.open) return fail(`flood: could not connect: ${JSON.stringify(a)}`);
  const n = counting(a.ws);
  const t0 = Date.now();
  const end = closed(a.ws, 10000);
  const sending = setInterval(() => { for (let i = 0; i < 5 && a.ws.readyState === WebSocket.OPEN; i++) a.ws.send('{"type":"ping"}'); }, 50);
  const { code, reason } = await end;
  clearInterval(sending);
  const took = (Date.now() - t0) / 1000;
  if (code !== 1008 || reason !== 'too many messages') fail(`flood: closed with ${code} "${reason}", not 1008 "too many messages"`);
  if (took > 6) fail(`flood: closed only after ${took} s at 5 times the rate`);
  if (n.pongs > 40 + 20 * took + 5) fail(`flood: ${n.pongs} pings reached the hub in ${took} s, more than the burst and the rate allow`);
  if (!n.limited) fail('flood: no "too many messages" error before the close');
  const b = await attempt(env.server.url, 'goita');
  const burst = counting(b.ws);
  const endB = closed(b.ws, 3000);
  for (let i = 0; i < 2000; i++) b.ws.send('{"type":"ping"}');
  const all = await endB;
  if (all.code !== 1008 && all.code !== 1006) fail(`flood: 2000 pings at once: ${all.code}`);
  if (burst.pongs > 45) fail(`flood: ${burst.pongs} of 2000 pings at once reached the hub`);
  await healthy(env, 'message flood');
  return `at 5x the rate ${n.pongs} answered and ${n.limited} refused, closed 1008 after ${took.toFixed(1)} s; 2000 at once closed (${all.code})`;
}

async function oversized(env) {
  const a = await attempt(env.server.url, 'goita');
  if (!a.open) return fail(`oversized: could not connect: ${JSON.stringify(a)}`);
  // over the protocol's 4096 bytes but under --max-message-bytes: an error, the connection stays
  const err = new Promise((resolve) => a.ws.once('message', (d) => resolve(JSON.parse(d.toString()))));
  a.ws.send(JSON.stringify({ type: 'ping', pad: 'x'.repeat(5000) }));
  const reply = await err;
  if (reply.type !== 'error' || !/too long/.test(reply.error)) fail(`oversized: 5 KB got ${JSON.stringify(reply)}`);
  const end = closed(a.ws);
  a.ws.send('x'.repeat(9000));
  const { code, reason } = await end;
  if (code !== 1009 || !/^message too big: at most 8192 bytes$/.test(reason)) fail(`oversized: 9000 bytes closed with ${code} "${reason}", not 1009`);
  // one frame announcing a megabyte is refused on its header, without waiting for the bytes
  const b = await attempt(env.server.url, 'goita');
  const endB = closed(b.ws);
  b.ws._socket.write(Buffer.from([0x81, 0xff, 0, 0, 0, 0, 0, 0x10, 0, 0, 1, 2, 3, 4, 0x61]));
  const big = await endB;
  if (big.code !== 1009) fail(`oversized: a 1 MB frame header closed with ${big.code}, not 1009`);
  await healthy(env, 'oversized frames');
  return 'a 5 KB message gets an error, 9 KB and 1 MB close with 1009';
}

async function wrongProtocol(env) {
  const results = [await attempt(env.server.url, 'chat'), await attempt(env.server.url, []), await attempt(env.server.url, ['x', 'goita-2'])];
  results.forEach((r, i) => {
    if (r.status !== 400 || !/only the WebSocket protocol "goita"/.test(r.body)) fail(`wrong protocol ${i}: ${JSON.stringify(r)}`);
  });
  const ok = await attempt(env.server.url, ['x', 'goita']);
  if (!ok.open || ok.ws.protocol !== 'goita') fail(`a list naming goita was refused: ${JSON.stringify(ok)}`);
  if (ok.ws) ok.ws.close();
  await healthy(env, 'wrong protocol names');
  return 'chat, none and x,goita-2 get HTTP 400';
}

async function crossOrigin(env) {
  const port = env.server.port;
  const evil = await attempt(env.server.url, 'goita', { origin: 'http://evil.example' });
  if (evil.status !== 403) fail(`cross-origin: http://evil.example got ${JSON.stringify(evil)}`);
  const otherPort = await attempt(env.server.url, 'goita', { origin: `http://127.0.0.1:${port + 1}` });
  if (otherPort.status !== 403) fail(`cross-origin: another port got ${JSON.stringify(otherPort)}`);
  const same = await attempt(env.server.url, 'goita', { origin: `http://127.0.0.1:${port}` });
  if (!same.open) fail(`cross-origin: the server's own origin was refused: ${JSON.stringify(same)}`);
  else same.ws.close();
  await healthy(env, 'cross-origin upgrades');
  return 'other hosts and ports get HTTP 403, the own origin opens';
}

function httpGet(url) {
  return new Promise((resolve) => {
    http.get(url, (res) => {
      let body = '';
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode, body }));
    }).on('error', (e) => resolve({ error: e.code }));
  });
}

// A quick-match flood: 30 players each start a game with three expert computers at once and
// play their own moves at once, so that the computers' thinking piles up. The scheduler must
// keep every computer move's wait bounded: /metrics says how much work was begun while one
// move waited, in full thinking budgets a thread (order of service, not wall time, so that a
// loaded machine does not change it): at most 1. A table started before the flood must keep
// getting its computers' moves.
async function quickMatchFlood(env) {
  const metric = async (name) => {
    const body = (await httpGet(`http://127.0.0.1:${env.server.port}/metrics`)).body;
    const m = new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(body);
    if (!m) throw new Error(`/metrics has no ${name}`);
    return Number(m[1]);
  };
  const players = [];
  const play = (c) => {
    c.onState = (msg) => {
      const legal = msg.game ? msg.game.legal : [];
      if (legal.length && !c.done) c.send({ type: 'move', table: msg.table ?? c.table, move: legal[Math.floor(Math.random() * legal.length)] });
    };
  };
  const join = async (name) => {
    const c = new Client(env.server.url, name);
    await c.open();
    await c.request({ type: 'hello', name }, 'welcome');
    const receive = c.receive.bind(c);
    c.receive = (m) => { if (m.type === 'seated') c.table = m.table; receive(m); };
    play(c);
    players.push(c);
    return c;
  };
  const jobs0 = await metric('goita_think_jobs_total');
  const watcher = await join('Wes');
  let watcherMoves = 0;
  const watch = watcher.onState;
  watcher.onState = (msg) => { watcherMoves++; watch(msg); };
  await watcher.request({ type: 'quick', wait_seconds: 0, level: 'expert' }, 'seated');
  const flood = [];
  for (let i = 0; i < 30; i++) flood.push(await join(`Flood${i}`));
  flood.forEach((c) => c.send({ type: 'quick', wait_seconds: 0, level: 'expert' }));
  await sleep(4000);
  const seenBefore = watcherMoves;
  await sleep(2000);
  players.forEach((c) => { c.done = true; });
  const jobs = (await metric('goita_think_jobs_total')) - jobs0;
  const ahead = await metric('goita_think_ahead_budgets_max');
  const waited = await metric('goita_think_wait_seconds_max');
  const shrunk = await metric('goita_think_shrunk_total');
  const cheapest = await metric('goita_think_cheapest_total');
  const workers = await metric('goita_think_workers');
  for (const c of players) c.close();
  if (jobs < 100) fail(`quick-match flood: only ${jobs} computer moves were thought, too few to load the pool`);
  if (ahead > 1.0001) fail(`quick-match flood: a computer move waited behind ${ahead} full thinking budgets a thread, more than 1`);
  const watcherOver = watcher.state && watcher.state.status === 'over';
  if (watcherMoves <= seenBefore && !watcherOver) fail(`quick-match flood: the table started before the flood got no state in the flood's last 2 s (${watcherMoves} in all)`);
  await healthy(env, 'quick-match flood');
  return `${jobs} computer moves on ${workers} threads, ${shrunk} on shrunk budgets (${cheapest} by the rules level); the most work begun while one waited: ${ahead} budgets a thread; longest wait ${waited} s; the earlier table saw ${watcherMoves} states`;
}

// A private table's finished game: a stranger neither finds it in `games` nor downloads its
// record or histories; its player, with the table's invite code as key, does.
async function privateRecord(env) {
  const pia = new Client(env.server.url, 'Pia');
  await pia.open();
  await pia.request({ type: 'hello', name: 'Pia' }, 'welcome');
  const created = await pia.request({ type: 'create', rules: 'players=2,target=1', private: true }, 'created');
  await pia.request({ type: 'sit', table: created.table, seat: 0 }, 'seated');
  await pia.request({ type: 'bot', table: created.table, seat: 1, level: 'random' }, 'state');
  pia.send({ type: 'start', table: created.table });
  for (let i = 0; i < 500 && !(pia.state && pia.state.status === 'over'); i++) {
    if (pia.legal().length) pia.send({ type: 'move', table: created.table, move: pia.legal()[0] });
    await pia.wait((m) => m.type === 'state', 'a state of the private game', 5000);
  }
  const id = pia.state.game_id, key = pia.state.invite;
  if (!id || key !== created.invite) throw new Error(`private record: no game_id or invite at the game's end: ${JSON.stringify(pia.state).slice(0, 300)}`);
  const games = await env.lou.request({ type: 'games' }, 'games');
  if (games.games.some((g) => g.id === id)) fail(`private record: game ${id} is listed in games for a stranger`);
  const http0 = `http://127.0.0.1:${env.server.port}/records/${id}`;
  for (const ext of ['json', 'txt']) {
    for (const q of ['', '?key=0123456789abcdef0123456789abcdef']) {
      const r = await httpGet(`${http0}.${ext}${q}`);
      if (r.status !== 404) fail(`private record: /records/${id}.${ext}${q} answered ${r.status} to a stranger`);
    }
    const own = await httpGet(`${http0}.${ext}?key=${key}`);
    if (own.status !== 200) fail(`private record: its player's /records/${id}.${ext}?key=CODE answered ${own.status}`);
  }
  pia.close();
  return `game ${id} unlisted, its record 404 without the code and 200 with it`;
}

// Password guessing: 30 wrong guesses at one account sent at once from 30 connections are not
// all checked (each counts before its hash: 3 are, 27 wait out the lockout); a login for a name
// nobody has takes as long as a wrong password (the same argon2id work), not a few ms.
async function passwordGuesses(env) {
  const open = async (name) => {
    const c = new Client(env.server.url, name);
    await c.open();
    await c.request({ type: 'hello', name }, 'welcome');
    return c;
  };
  const owners = [await open('Vic'), await open('Wes')];
  for (const o of owners) { // the guest's row comes first, then the claimed name once hashed
    const claimed = o.wait((m) => m.type === 'error' || (m.type === 'player' && m.player.registered), 'the name claimed');
    o.send({ type: 'register', name: o.name, password: 'a long and rare one' });
    const m = await claimed;
    if (m.type === 'error') throw new Error(`password guesses: register ${o.name}: ${m.error}`);
  }
  const timed = async (c, name) => {
    const t0 = process.hrtime.bigint();
    const reply = c.wait((m) => m.type === 'error', 'a login\'s answer', 10000).then((m) => m, (e) => ({ error: String(e) }));
    c.send({ type: 'login', name, password: 'not the password' });
    return { error: (await reply).error, ms: Number(process.hrtime.bigint() - t0) / 1e6 };
  };
  // the timing first, on Wes (within his free tries) and on unknown names
  const probe = await open('Probe');
  const known = [], unknown = [];
  for (let i = 0; i < 2; i++) {
    known.push((await timed(probe, 'Wes')).ms);
    unknown.push((await timed(probe, `Nobody ${i}`)).ms);
  }
  const slowKnown = Math.min(...known), fastUnknown = Math.min(...unknown);
  if (fastUnknown < slowKnown / 3) fail(`password guesses: an unknown name answers in ${fastUnknown.toFixed(1)} ms, a known one in ${slowKnown.toFixed(1)} ms (names told by timing)`);
  probe.close();
  // 30 at once
  const guessers = [];
  for (let i = 0; i < 30; i++) guessers.push(await open(`Guess ${i}`));
  const replies = await Promise.all(guessers.map((g) => timed(g, 'Vic')));
  const checked = replies.filter((r) => r.error === 'wrong name or password').length;
  const refused = replies.filter((r) => /^too many wrong passwords/.test(r.error || '')).length;
  if (checked > 3) fail(`password guesses: ${checked} of 30 concurrent guesses were checked`);
  if (checked + refused !== 30) fail(`password guesses: unexpected answers: ${JSON.stringify(replies.slice(0, 3))}`);
  for (const c of [...guessers, ...owners]) c.close();
  await healthy(env, 'after the password guesses');
  return `${checked} of 30 concurrent guesses checked, ${refused} refused; unknown name ${fastUnknown.toFixed(0)} ms, known ${slowKnown.toFixed(0)} ms`;
}

// Guessing from one address behind a proxy (a server with --forwarded-for, whose clients' last
// X-Forwarded-For entry is their address, and room for 16 addresses): 30 logins at 30 names
// sent at once from one address are not all checked (20 free tries, the rest refused before
// their hash), another address logs in meanwhile, and a crowd of 16 fresh addresses with a
// wrong password each, enough to fill the table, does not make the server forget the guesser.
// Before (issue 39) nothing was counted per address: all 30 were checked.
async function addressGuesses() {
  const server = await startServer('addresses', ['--forwarded-for', '--login-addresses', '16', '--player-rate-per-second', '0']);
  const open = async (name, address) => {
    const c = new Client(server.url, name, { 'X-Forwarded-For': `192.0.2.99, ${address}` }); // the first entry is the client's word only
    await c.open();
    await c.request({ type: 'hello', name }, 'welcome');
    return c;
  };
  const login = async (c, name, password) => {
    const reply = c.wait((m) => m.type === 'error' || m.type === 'welcome', 'a login\'s answer', 60000);
    c.send({ type: 'login', name, password });
    const m = await reply;
    return m.type === 'welcome' ? 'welcome' : m.error;
  };
  const owner = await open('Uma', '198.51.100.20');
  const claimed = owner.wait((m) => m.type === 'error' || (m.type === 'player' && m.player.registered), 'the name claimed', 60000);
  owner.send({ type: 'register', name: 'Uma', password: 'a long and rare one' });
  const m = await claimed;
  if (m.type === 'error') throw new Error(`address guesses: register: ${m.error}`);
  const guessers = [];
  for (let i = 0; i < 30; i++) guessers.push(await open(`Stuffer ${i}`, '203.0.113.7'));
  const replies = await Promise.all(guessers.map((g, i) => login(g, `Account ${i}`, 'password guess')));
  const checked = replies.filter((r) => r === 'wrong name or password').length;
  const refused = replies.filter((r) => /^too many wrong passwords from your address/.test(r)).length;
  if (checked > 20) fail(`address guesses: ${checked} of 30 guesses from one address were checked`);
  if (checked + refused !== 30) fail(`address guesses: unexpected answers: ${JSON.stringify(replies.slice(-3))}`);
  const other = await open('Uma again', '198.51.100.21');
  const own = await login(other, 'Uma', 'a long and rare one');
  if (own !== 'welcome') fail(`address guesses: another address could not log in: ${own}`);
  const crowd = [];
  for (let i = 0; i < 16; i++) crowd.push(await open(`Crowd ${i}`, `198.18.0.${i + 1}`));
  const crowdReplies = await Promise.all(crowd.map((c, i) => login(c, `Account ${i}`, 'password guess')));
  const crowdChecked = crowdReplies.filter((r) => r === 'wrong name or password').length;
  // its wait of 1 s may be over by now, but not its count: of two more guesses at once, one is
  // refused (a forgotten address would have 20 free tries again)
  const more = await Promise.all([login(guessers[0], 'Account 0', 'password guess'), login(guessers[1], 'Account 1', 'password guess')]);
  const again = more.find((r) => /^too many wrong passwords from your address/.test(r));
  if (!again) fail(`address guesses: after a crowd of 16 addresses the guesser was forgotten: ${JSON.stringify(more)}`);
  for (const c of [...guessers, ...crowd, owner, other]) c.close();
  server.child.kill('SIGTERM');
  return `${checked} of 30 checked, ${refused} refused; another address logged in; after ${crowdChecked} crowd guesses the guesser still waits ("${again}")`;
}

// Names that look like others: once "Kim" is claimed, "KIM", "Κim" (a Greek capital kappa)
// and "Ｋim" (fullwidth) are the same account and cannot be claimed again; names that look
// like a computer's, a guest's or an operator's are refused in hello. Before (issue 39) the
// Greek and fullwidth spellings made accounts of their own, and "Player 0427" or "ADMIN" could
// be taken.
async function lookalikeNames(env) {
  const open = async (name) => {
    const c = new Client(env.server.url, name);
    await c.open();
    await c.request({ type: 'hello', name }, 'welcome');
    return c;
  };
  const answer = (c, msg) => {
    const reply = c.wait((m) => m.type === 'error' || (m.type === 'player' && m.player.registered) || m.type === 'welcome', `the answer to ${msg.type}`, 60000);
    c.send(msg);
    return reply;
  };
  const kim = await open('Kim');
  const claimed = await answer(kim, { type: 'register', name: 'Kim', password: 'a long and rare one' });
  if (claimed.type === 'error') throw new Error(`lookalike names: register Kim: ${claimed.error}`);
  const other = await open('Someone else');
  const refused = [];
  for (const name of ['KIM', '\u039aim', '\uff2bim', ' kim ']) {
    const m = await answer(other, { type: 'register', name, password: 'another rare one' });
    if (m.type === 'error' && /is registered/.test(m.error)) refused.push(name);
    else fail(`lookalike names: "${name}" was not refused as Kim's: ${JSON.stringify(m).slice(0, 200)}`);
  }
  const kept = [['C\u03bfmputer 2 \u00b7 expert', 'kept for computer players'], ['Player 0427', 'kept for guests'],
    ['ADMIN', "kept for the server's operators"]];
  for (const [name, why] of kept) {
    const c = new Client(env.server.url, name);
    await c.open();
    const m = await answer(c, { type: 'hello', name });
    if (m.type !== 'error' || !m.error.includes(why)) fail(`lookalike names: hello as "${name}" got ${JSON.stringify(m).slice(0, 200)}`);
    c.close();
  }
  kim.close();
  other.close();
  await healthy(env, 'after the lookalike names');
  return `${refused.length} spellings of Kim refused, ${kept.length} reserved names refused in hello`;
}

// Twice the cap of 50: those within it open, the others get 503 at once; the cap frees again.
async function connectionCap(env, cap) {
  const t0 = Date.now();
  const results = await Promise.all(Array.from({ length: 2 * cap }, () => attempt(env.server.url, 'goita')));
  const opened = results.filter((r) => r.open), refused = results.filter((r) => r.status === 503);
  const other = results.filter((r) => !r.open && r.status !== 503);
  if (opened.length + 6 > cap) fail(`connection cap: ${opened.length} opened beside the 6 honest ones, over the cap of ${cap}`);
  if (refused.length < cap) fail(`connection cap: only ${refused.length} of ${2 * cap} refused with 503`);
  if (other.length) fail(`connection cap: ${other.length} neither opened nor refused with 503: ${JSON.stringify(other[0])}`);
  if (!refused.every((r) => /^server full: at most 50 connections/.test(r.body))) fail(`connection cap: 503 text ${JSON.stringify(refused[0])}`);
  const page = await httpGet(`http://127.0.0.1:${env.server.port}/`);
  if (page.status !== 503) fail(`connection cap: a page request at the cap got ${JSON.stringify(page)}`);
  const took = Date.now() - t0;
  await healthy(env, 'connection cap');
  for (const r of opened) r.ws.terminate();
  await sleep(200);
  const again = await attempt(env.server.url, 'goita');
  if (!again.open) fail(`connection cap: no connection after the others closed: ${JSON.stringify(again)}`);
  else again.ws.terminate();
  return `${opened.length} opened, ${refused.length} refused with 503 in ${took} ms`;
}

// A spectator of the honest table and the lobby that stops reading: closed as too slow once
// 32 KB (--max-queued-bytes) wait for it, while the others play on.
async function slowReader(env) {
  const r = new Client(env.server.url, 'Sid');
  await r.open();
  const local = r.ws._socket.localPort;
  await r.request({ type: 'hello', name: 'Sid' }, 'welcome');
  await r.request({ type: 'list' }, 'tables');
  await r.request({ type: 'watch', table: env.players[0].table }, 'state');
  let end = null;
  r.ws.on('close', (code, reason) => { end = { code, reason: reason.toString() }; });
  r.ws._socket.pause();
  // it asks for the table's state at its allowed rate, and the table plays on, while it reads nothing
  const ask = () => r.send({ type: 'watch', table: env.players[0].table });
  for (let i = 0; i < 40; i++) ask();
  const asking = setInterval(ask, 50);
  for (const t0 = Date.now(); Date.now() - t0 < 4000;) { // at a pace within the players' rate
    await move(env, 'slow reader');
    await sleep(40);
  }
  clearInterval(asking);
  await healthy(env, 'slow reader');
  // the server must cut it off without its help: the connection leaves ESTABLISHED while unread
  const established = () => fs.readFileSync('/proc/net/tcp', 'utf8').split('\n').some((line) => {
    const f = line.trim().split(/\s+/); // local address, remote address, state (01: established)
    return f[1] && f[1].endsWith(':' + local.toString(16).toUpperCase().padStart(4, '0')) && f[3] === '01';
  });
  let cut = false;
  for (let i = 0; i < 40 && !cut; i++) { cut = !established(); if (!cut) await sleep(100); }
  if (!cut) fail('slow reader: still connected 4 s after it stopped reading');
  r.ws._socket.resume(); // what the kernel kept is read, then the close
  for (let i = 0; i < 50 && !end; i++) await sleep(100);
  if (!end) fail('slow reader: still open after 4 s of states it did not read');
  else if (end.code !== 1006 && !(end.code === 1008 && end.reason === 'too slow')) fail(`slow reader: closed with ${end.code} "${end.reason}"`);
  if (env.lou.ws.readyState !== WebSocket.OPEN) fail('slow reader: the lobby listener was closed too');
  return end ? `cut off while not reading, then seen closed (${end.code}${end.reason ? ' ' + end.reason : ''})` : 'not closed';
}

// One player floods `create` from one connection at the connection's allowed rate: the
// per-player open-table limit (3 here) keeps all but its first tables out, each refusal says
// why, and the lobby listener sees only those 3 tables come.
async function createFlood(env) {
  const f = new Client(env.server.url, 'Flo');
  await f.open();
  await f.request({ type: 'hello', name: 'Flo' }, 'welcome');
  let created = 0, refused = 0, why = '';
  const seen = new Set();
  const lobby = (m) => { if (m.type === 'lobby' && m.event === 'created') seen.add(m.table.id); };
  env.lou.ws.on('message', (d) => lobby(JSON.parse(d.toString())));
  f.ws.on('message', (d) => {
    const m = JSON.parse(d.toString());
    if (m.type === 'created') created++;
    if (m.type === 'error' && m.request === 'create') { refused++; why = m.error; }
  });
  for (let i = 0; i < 120; i++) { // 20 a second: within the connection's rate, so the hub decides
    f.send({ type: 'create', rules: '' });
    if (i % 20 === 19) await move(env, 'create flood');
    await sleep(50);
  }
  await sleep(300);
  await healthy(env, 'create flood');
  if (created !== 3) fail(`create flood: ${created} tables made, not 3`);
  if (refused < 100 || !/open tables/.test(why)) fail(`create flood: ${refused} refused ("${why}")`);
  if (seen.size > 4) fail(`create flood: the lobby listener saw ${seen.size} new tables`);
  f.ws.close();
  return `${created} tables made, ${refused} refused ("${why.slice(0, 60)}…")`;
}

// Seconds of CPU the process has used (user + system).
function cpuSeconds(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 a second)
}

// Under ulimit -n 64, 120 idle sockets: those past the descriptors are refused, the server
// does not spin (CPU measured over 2 s) and says so once; a new client is refused, not left hanging.
async function outOfDescriptors(env) {
  const sockets = [];
  const refusedEarly = { n: 0 };
  for (let i = 0; i < 120; i++) {
    const s = net.connect(env.server.port, '127.0.0.1');
    s.on('error', () => {});
    s.on('data', () => {}); // read the 503, so that the close is seen
    s.on('close', () => { refusedEarly.n++; });
    sockets.push(s);
  }
  await sleep(300);
  const pid = env.server.child.pid;
  const cpu0 = cpuSeconds(pid), t0 = Date.now();
  await sleep(2000);
  const cpu = (cpuSeconds(pid) - cpu0) / ((Date.now() - t0) / 1000);
  if (cpu > 0.15) fail(`out of descriptors: the server used ${(cpu * 100).toFixed(0)}% of a core while out of descriptors`);
  const late = await attempt(env.server.url, 'goita', {}, 3000);
  if (late.hung || late.open) fail(`out of descriptors: a new client was not refused: ${JSON.stringify(late.hung ? 'hung' : 'opened')}`);
  const refused = refusedEarly.n;
  if (refused < 40) fail(`out of descriptors: only ${refused} of 120 idle sockets were refused`);
  await healthy(env, 'out of descriptors');
  const lines = env.server.log().split('\n').filter((l) => /out of file descriptors/.test(l)).length;
  if (lines !== 1) fail(`out of descriptors: logged ${lines} times, not once:\n${env.server.log().slice(0, 2000)}`);
  for (const s of sockets) s.destroy();
  await sleep(300);
  const again = await attempt(env.server.url, 'goita');
  if (!again.open) fail(`out of descriptors: no connection once descriptors were free: ${JSON.stringify(again)}`);
  else again.ws.terminate();
  await healthy(env, 'after running out of descriptors');
  return `${refused} of 120 idle sockets refused, CPU ${(cpu * 100).toFixed(1)}% of a core, new client: ${late.status || late.error}`;
}

(async () => {
  // The per-player request rate is off here (its own test is the hub's): the slow reader asks
  // for states faster than a player may; the open-tables limit stays, for the create flood.
  const main = await startServer('main', ['--max-connections', '50', '--max-queued-bytes', '32768',
    '--player-rate-per-second', '0', '--max-tables-per-player', '3']);
  const env = await honest(main);
  await healthy(env, 'before any attack');
  const report = [];
  const run = async (name, f) => {
    const t0 = Date.now();
    const what = await f();
    report.push(`  ${name}: ${what} (${Date.now() - t0} ms)`);
  };
  await run('message flood', () => flood(env));
  await run('oversized frames', () => oversized(env));
  await run('wrong protocol names', () => wrongProtocol(env));
  await run('cross-origin upgrades', () => crossOrigin(env));
  await run('twice the connection cap', () => connectionCap(env, 50));
  await run('slow reader', () => slowReader(env));
  await run('create flood', () => createFlood(env));
  await run('quick-match flood', () => quickMatchFlood(env));
  await run('a private game\'s record', () => privateRecord(env));
  await run('password guesses', () => passwordGuesses(env));
  await run('lookalike names', () => lookalikeNames(env));
  await run('password guesses from one address', () => addressGuesses());
  await healthy(env, 'after the guesses from one address');
  const low = await startServer('emfile', [], 64);
  const envLow = await honest(low);
  await run('out of file descriptors (ulimit -n 64)', () => outOfDescriptors(envLow));
  console.log(report.join('\n'));
  console.log(`abuse: ${failures ? failures + ' failures' : 'every attack refused'}; the slowest honest answer took ${Math.max(env.slowest, envLow.slowest)} ms; ${((Date.now() - began) / 1000).toFixed(1)} s in all`);
  process.exit(failures ? 1 : 0);
})().catch((e) => { fail(e.stack || String(e)); process.exit(1); });
