// Three goita serve nodes (a, b, c) on one PostgreSQL and one NATS server (--bus), a short
// --lease, and HAProxy in front of them (scripts/cluster.sh proxy: deploy/haproxy.cfg's
// configuration); every client connects through it, sent to its node by ?node=NAME. Players on
// a and b play one table of a; a spectator and a lobby listener are on c.
// - The lobby of c shows a's table as soon as it is made, and its seats as they fill.
// - The bus goes away mid-game (nats-server stopped): a move forwarded from b is refused with
//   the bus's reason, a move on a (the owner) is played, /healthz and /metrics say so; once it
//   is back the nodes reconnect by themselves, b's players get the table's state again, and the
//   game goes on.
// - a is killed with SIGKILL mid-round: its table is taken over by b or c; a's players come back
//   through the proxy (no node named: it sends them to a live one) with their seat tokens, b's players and c's spectator are sent to the new
//   owner by their nodes, all within the lease and a few seconds, with the same seats.
// - The game goes on to its end; its stored record replays with `goita replay --check`.
// - Every message every client received on every node passes the hidden-information scan.
// Usage: node cluster.js GOITA DB NATS_SERVER LEASE_SECONDS
'use strict';
const { spawn, execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { Client, downloadRecord, startServer, killServer, replayCheck, httpGet, scanHidden } = require('./client');

const [goita, db, natsServer, lease] = process.argv.slice(2);
const clusterSh = path.join(__dirname, '..', '..', 'scripts', 'cluster.sh');
let phase = 'starting';
const fail = (why) => { console.error(`cluster (${phase}): ${why}`); process.exit(1); };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const freePort = () => execFileSync('node', [path.join(__dirname, 'free-port.js')]).toString().trim();
const history = (c) => (c.state && c.state.game ? c.state.game.history : null);
// How far a table is, the same for every viewer (history strings differ between viewers).
const progress = (c) => (c.state && c.state.game ? `${c.state.game.round}:${c.state.game.log.length}:${c.state.status}` : null);

// The NATS server, as the current user in a folder of its own, on loopback.
const natsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'goita-nats-'));
const natsPort = freePort();
let nats = null;
function startNats() {
  return new Promise((resolve, reject) => {
    nats = spawn(natsServer, ['-a', '127.0.0.1', '-p', natsPort], { cwd: natsDir, stdio: ['ignore', 'ignore', 'pipe'] });
    nats.stderr.on('data', (d) => { if (/Server is ready/.test(d.toString())) resolve(); });
    nats.on('exit', (code) => reject(new Error(`nats-server exited (${code})`)));
  });
}
function stopNats() {
  return new Promise((resolve) => { nats.removeAllListeners('exit'); nats.on('exit', resolve); nats.kill('SIGTERM'); });
}
// HAProxy, in a folder of its own, started and stopped by scripts/cluster.sh.
const proxyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'goita-proxy-'));
let proxyPort = null;
process.on('exit', () => {
  if (nats) nats.kill('SIGKILL');
  fs.rmSync(natsDir, { recursive: true, force: true });
  if (proxyPort) execFileSync(clusterSh, ['down', proxyDir], { stdio: 'ignore' });
  fs.rmSync(proxyDir, { recursive: true, force: true });
});

// Waits until test() holds, checking every 50 ms; fails after ms with what.
async function until(test, ms, what) {
  const start = Date.now();
  while (!(await test())) {
    if (Date.now() - start > ms) fail(`${what} within ${ms} ms`);
    await sleep(50);
  }
  return Date.now() - start;
}

// Sends a move and resolves with the mover's answer: an error, or the state after it.
function tryMove(mover, move) {
  const old = history(mover);
  const answer = mover.wait((m) => m.type === 'error' || (m.type === 'state' && m.game.history !== old), 'the answer to a move');
  mover.send({ type: 'move', table: mover.table, move });
  return answer;
}

// Plays n moves, each by the seat to move, waiting until every player has seen it.
async function play(players, n) {
  for (let i = 0; i < n; i++) {
    let mover;
    await until(() => players[0].state.status === 'over' || (mover = players.find((c) => c.legal().length)), 5000, 'nobody to move');
    if (players[0].state.status === 'over') return false;
    const legal = mover.legal(), answer = await tryMove(mover, legal[Math.floor(Math.random() * legal.length)]);
    if (answer.type === 'error') fail(`${mover.name}'s move was refused: ${answer.error}`);
    const now = progress(mover);
    await until(() => players.every((c) => progress(c) === now || c.state.status === 'over'), 5000, 'a move seen by every player');
  }
  return true;
}

// A client through the proxy, of node `node` (any live one when null), hello said (with a
// player token when given).
async function connect(node, name, token) {
  const c = new Client(`ws://127.0.0.1:${proxyPort}/${node ? `?node=${node}` : ''}`, name);
  await c.open();
  c.player = (await c.request(token ? { type: 'hello', player_token: token } : { type: 'hello', name }, 'welcome')).player_token;
  return c;
}

(async () => {
  const t0 = Date.now();
  await startNats();
  const bus = ['--bus', `nats://127.0.0.1:${natsPort}`, '--lease', lease];
  const ports = { a: freePort(), b: freePort(), c: freePort() };
  const nodes = {};
  for (const n of ['a', 'b', 'c']) nodes[n] = await startServer(goita, ports[n], db, ['--node', n, ...bus]);
  await until(async () => {
    const all = await Promise.all(Object.values(ports).map((p) => httpGet(p, '/healthz')));
    return all.every((h) => /bus: connected/.test(h.body));
  }, 5000, 'every node on the bus');
  await sleep(Number(lease) * 400); // the nodes hear each other once
  proxyPort = execFileSync(clusterSh, ['proxy', proxyDir, ...Object.entries(ports).map(([n, p]) => `${n}:${p}`)]).toString().trim();

  phase = 'the lobby and the first moves';
  // 1. a lobby listener on c; players on a (seats 1, 3) and b (seats 2, 4); a table of a's
  const listener = await connect('c', 'Lou');
  await listener.request({ type: 'list' }, 'tables');
  const seen = {};
  const players = [await connect('a', 'Ann'), await connect('b', 'Ben'), await connect('a', 'Cho'), await connect('b', 'Dai')];
  const created = (await players[0].request({ type: 'create' }, 'created')).table;
  await until(() => listener.received.some((m) => m.type === 'lobby' && m.event === 'created' && m.table.id === created), 3000, 'the table of a in c\'s lobby');
  for (let s = 0; s < 4; s++) {
    const seated = await players[s].request({ type: 'sit', table: created, seat: s }, 'seated');
    players[s].seatToken = seated.seat_token;
    players[s].table = created;
  }
  await until(() => listener.received.some((m) => m.type === 'lobby' && m.table.id === created && m.table.seats.every((x) => x)), 3000, 'the seats filled in c\'s lobby');
  const page = await listener.request({ type: 'list' }, 'tables');
  if (!page.tables.some((t) => t.id === created) || page.total < 1) fail(`c's page does not list a's table: ${JSON.stringify(page)}`);
  players[0].send({ type: 'start', table: created });
  await until(() => players.every((c) => c.state && c.state.status === 'playing'), 5000, 'the game started for every player');
  const spectator = await connect('c', 'Sam');
  spectator.table = created;
  await spectator.request({ type: 'watch', table: created }, 'state');
  await play(players, 8);
  const owner = (await httpGet(ports.a, '/metrics')).body;
  if (!/goita_remote_clients 3\b/.test(owner) || !/goita_connections 2\b/.test(owner)) fail(`a's /metrics does not count b's players and c's spectator as remote clients: ${owner}`);

  phase = 'the bus away';
  // 2. the bus goes away on a's turn: a's player moves at its own node's table and the game goes
  // on there; then a move of b's player, forwarded, is refused with the bus's reason
  const onA = (seat) => seat === 0 || seat === 2;
  const turn = () => players[0].state.game.turn;
  while (!onA(turn()) || players[0].state.game.phase !== 'play') await play(players, 1);
  await stopNats();
  await until(async () => /bus: unreachable/.test((await httpGet(ports.b, '/healthz')).body), 5000, 'b noticing the bus gone');
  // (a's players see the table as it is; b's do not, while the bus is away)
  const settled = () => (onA(turn()) ? players[turn()].legal().length > 0 : players[0].state.game.phase === 'play');
  for (let tries = 0; tries < 4; tries++) {
    await until(settled, 3000, 'the next turn at a while the bus is away');
    if (!onA(turn())) break;
    const mover = players[turn()], answer = await tryMove(mover, mover.legal()[0]);
    if (answer.type === 'error') fail(`a move at the owner was refused while the bus was away: ${answer.error}`);
    seen.ownerMoved = true;
  }
  if (!seen.ownerMoved || onA(turn())) fail('the game did not come to b\'s turn');
  const asked = players[turn()], answer = await tryMove(asked, `${turn() + 1}p`);
  if (answer.type !== 'error' || !/message bus is unreachable/.test(answer.error)) fail(`a move forwarded while the bus was away: ${JSON.stringify(answer)}`);
  const metrics = (await httpGet(ports.b, '/metrics')).body;
  if (!/goita_bus_connected 0/.test(metrics) || !/goita_bus_errors_total [1-9]/.test(metrics)) fail(`b's /metrics while away: ${metrics}`);
  const health = await httpGet(ports.b, '/healthz');
  if (health.status !== 200) fail(`b's /healthz is ${health.status} while only the bus is away`);
  phase = 'the bus back';
  await startNats();
  const back = await until(async () => {
    const all = await Promise.all(Object.values(ports).map((p) => httpGet(p, '/healthz')));
    return all.every((h) => /bus: connected/.test(h.body));
  }, 5000, 'every node back on the bus');
  await until(() => players.every((c) => progress(c) === progress(players[0])) && progress(spectator) === progress(players[0]), 5000,
    'b\'s players and c\'s spectator given the table again');
  await play(players, 6);

  phase = 'a killed';
  // 3. a is killed mid-round; everyone ends up at the new owner, same seats and views
  const before = players.map((c) => JSON.stringify(c.state.game));
  const heard = players.map((c) => c.received.length), listened = listener.received.length;
  const killed = Date.now();
  await killServer(nodes.a);
  const rehomed = [];
  for (const s of [0, 2]) { // a's players come back through the proxy, to whichever node lives
    const old = players[s];
    for (;;) {
      const c = await connect(null, old.name, old.player);
      const reply = c.wait((m) => m.type === 'seated' || m.type === 'error', 'seated', 1500);
      c.send({ type: 'resume', seat_token: old.seatToken });
      const answer = await reply.then((m) => (m.type === 'seated' ? null : m.error), (e) => e.message);
      if (!answer) {
        Object.assign(c, { seatToken: old.seatToken, table: created });
        c.received.unshift(...old.received);
        rehomed[s] = c;
        break;
      }
      c.close();
      if (Date.now() - killed > Number(lease) * 1000 + 8000) fail(`${old.name} found no node serving its seat: ${answer}`);
      await sleep(250);
    }
  }
  players[0] = rehomed[0];
  players[2] = rehomed[2];
  // b's players stayed connected: their node sends them to the new owner, which seats them again
  await until(() => [1, 3].every((s) => players[s].received.slice(heard[s]).some((m) => m.type === 'seated' && m.seat === s)),
    Number(lease) * 1000 + 8000, 'b\'s players seated again at the new owner');
  await until(() => players.every((c, s) => c.state && JSON.stringify(c.state.game) === before[s]), 3000, 'every seat back with the same view');
  const tookMs = Date.now() - killed;
  await until(() => progress(spectator) === progress(players[1]), 3000, 'the spectator following the table at its new owner');
  await until(() => listener.received.slice(listened).some((m) => m.type === 'lobby' && m.event === 'changed' && m.table.id === created),
    3000, 'c\'s lobby told of the table at its new owner');

  phase = 'the game to its end';
  // 4. the game goes on to its end at the new owner; its record replays
  while (await play(players, 40)) { /* until the game is over */ }
  await until(() => players.every((c) => c.state.game_id), 5000, 'the game saved');
  const record = await downloadRecord(proxyPort, players[0].state.game_id);
  const check = replayCheck(goita, record);
  if (!/^ok/.test(check)) fail('the stored record does not replay: ' + check);

  phase = 'the hidden-information scan';
  // 5. the hidden-information scan of every message of every client on every node
  const deals = record.rounds.map((r) => r.history.split(',').slice(0, 4));
  const tokens = players.map((c) => c.seatToken);
  let messages = 0;
  for (const c of [...players, spectator, listener]) {
    scanHidden(c, tokens.filter((t) => t !== c.seatToken), deals);
    messages += c.received.length;
  }
  console.log(`cluster: 3 nodes, table of a seen in c's lobby; bus away: forwarded move refused, owner's played, back in ${back} ms; ` +
    `a killed, every seat back at the new owner in ${tookMs} ms (lease ${lease} s); ${check}; ` +
    `${messages} messages scanned; ${Date.now() - t0} ms in all`);
  for (const c of [...players, spectator, listener]) c.close();
  for (const n of ['b', 'c']) await killServer(nodes[n]);
  await stopNats();
  process.exit(0);
})().catch((e) => fail(e.stack || String(e)));
