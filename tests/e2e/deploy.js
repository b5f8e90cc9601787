// The cluster of scripts/cluster.sh, used through its HAProxy (tests/cli/deploy.sh starts it):
// the page comes through the proxy; new WebSockets are spread over the three nodes (leastconn),
// ?node=NAME reaches that node, and the page's node cookie sends WebSockets to the page's node.
// A player (sending a browser's Origin) plays a game against three computer players on node n2
// through the proxy, watched by a spectator on n1 (through the bus) to its end; node n3 is killed with SIGKILL mid-game with a connection in its accept
// queue, and that one and every new connection through the proxy still work at once (retried
// on another node) while HAProxy's checks take n3 out of the pool; the game goes on to its end
// and its stored record replays with `goita replay --check`. Then PostgreSQL is stopped: every
// node's /healthz fails, HAProxy takes them out of the pool, and puts them back once it runs
// again.
// Usage: node deploy.js GOITA CLUSTER_SH DIR
'use strict';
const path = require('path');
const http = require('http');
const fs = require('fs');
const { execFileSync } = require('child_process');
const WebSocket = require(path.join(__dirname, '../../tools/e2e/node_modules/ws'));
const { Client, play, httpGet, downloadRecord, replayCheck } = require('./client');

const [goita, clusterSh, dir] = process.argv.slice(2);
const proxy = fs.readFileSync(path.join(dir, 'haproxy.port'), 'utf8').trim();
const fail = (why) => { console.error('deploy: ' + why); process.exit(1); };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Opens a WebSocket through the proxy and says hello; resolves with the socket and the node
// that HAProxy chose (its X-Goita-Node header on the 101 answer).
function connect(query = '', headers = {}) {
  return new Promise((resolve, reject) => {
    let node = null;
    const ws = new WebSocket(`ws://127.0.0.1:${proxy}/${query}`, 'goita', { headers });
    ws.on('upgrade', (res) => { node = res.headers['x-goita-node']; });
    ws.on('error', reject);
    ws.on('unexpected-response', (req, res) => reject(new Error(`HTTP ${res.statusCode} through the proxy`)));
    ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', name: 'Probe' })));
    ws.on('message', (data) => {
      if (JSON.parse(data.toString()).type === 'welcome') resolve({ ws, node });
    });
  });
}

// The status lines of `cluster.sh status DIR` and whether it said every piece is healthy.
function clusterStatus(env = {}) {
  try {
    return { ok: true, text: execFileSync('bash', [clusterSh, 'status', dir], { env: { ...process.env, ...env } }).toString() };
  } catch (e) {
    return { ok: false, text: (e.stdout || '').toString() + (e.stderr || '').toString() };
  }
}

// Waits up to ms for `cluster.sh status` to satisfy test; fails with its last output otherwise.
async function waitStatus(test, what, ms) {
  const until = Date.now() + ms;
  let st;
  while (!test(st = clusterStatus())) {
    if (Date.now() > until) fail(`${what} within ${ms} ms; status said:\n${st.text}`);
    await sleep(250);
  }
  return st;
}

// Plays the game of the player's table until it is over, whoever's turn it is being a computer
// or the player (who moves at random).
async function playToEnd(player) {
  while (player.state.status !== 'over') {
    if (!player.legal().length) {
      await player.wait((m) => m.type === 'state', 'a state after the computers moved', 20000);
      continue;
    }
    await play([player], 1);
  }
}

(async () => {
  // 1. the page, through the proxy
  const page = await httpGet(proxy, '/');
  if (page.status !== 200 || !/<html/i.test(page.body)) fail(`GET / through the proxy: HTTP ${page.status}`);

  // 2. new WebSockets go to every node (leastconn), and ?node=n2 to n2
  const probes = [];
  for (let i = 0; i < 6; i++) probes.push(await connect());
  const spread = probes.map((p) => p.node).sort().join(' ');
  if (spread !== 'n1 n1 n2 n2 n3 n3') fail(`six connections were not spread over the three nodes: ${spread}`);
  const pinned = await connect('?node=n2');
  if (pinned.node !== 'n2') fail(`?node=n2 went to ${pinned.node}`);
  // the page's answer names its node in a cookie, which sends the page's WebSockets there
  const pageNode = await new Promise((resolve, reject) => {
    http.get(`http://127.0.0.1:${proxy}/`, (res) => {
      res.resume();
      resolve({ node: res.headers['x-goita-node'], cookie: (res.headers['set-cookie'] || []).join(';') });
    }).on('error', reject);
  });
  const jar = /goita_node=(n[0-9])/.exec(pageNode.cookie);
  if (!jar || jar[1] !== pageNode.node) fail(`the page from ${pageNode.node} set no cookie naming it: ${pageNode.cookie}`);
  for (let i = 0; i < 3; i++) {
    const sticky = await connect('', { Cookie: `goita_node=${jar[1]}` });
    if (sticky.node !== jar[1]) fail(`a WebSocket with the cookie of ${jar[1]} went to ${sticky.node}`);
    probes.push(sticky);
  }
  for (const p of [...probes, pinned]) p.ws.terminate();

  // 3. a player with a browser's Origin, on n2 through the proxy, against three computers
  const player = new Client(`ws://127.0.0.1:${proxy}/?node=n2`, 'Ann');
  player.open = function open() {
    return new Promise((resolve, reject) => {
      this.ws = new WebSocket(this.url, 'goita', { origin: `http://127.0.0.1:${proxy}` });
      this.ws.on('open', resolve);
      this.ws.on('error', reject);
      this.ws.on('message', (data) => this.receive(JSON.parse(data.toString())));
    });
  };
  await player.open();
  await player.request({ type: 'hello', name: 'Ann' }, 'welcome');
  // A deal can end a game to 30 before anyone moves (a teyaku of 30 or more, or both partners
  // with 5 pawns): that game is over at its start, and the player opens another table.
  let table;
  for (let attempt = 0; !table; attempt++) {
    if (attempt === 5) fail('five games in a row were over at the deal');
    const created = (await player.request({ type: 'create', rules: 'target=30' }, 'created')).table;
    player.table = created;
    await player.request({ type: 'sit', table: created, seat: 0 }, 'seated');
    for (const seat of [1, 2, 3]) await player.request({ type: 'bot', table: created, seat, level: 'random' }, 'state');
    const started = player.wait((m) => m.type === 'state' && (m.status === 'playing' || m.status === 'over'), 'the start');
    player.send({ type: 'start', table: created });
    if ((await started).status === 'playing') table = created;
  }
  // a spectator on n1 through the proxy watches n2's table (the bus forwards)
  const spectator = new Client(`ws://127.0.0.1:${proxy}/?node=n1`, 'Spectator');
  await spectator.open();
  await spectator.request({ type: 'hello', name: 'Spectator' }, 'welcome');
  await spectator.request({ type: 'watch', table }, 'state');

  // 4. n3 (not the table's owner) killed, with a connection waiting in its accept queue (n3
  // stopped first, so that it never answers): that connection is sent on to another node, new
  // connections through the proxy work at once, and HAProxy takes n3 out of the pool (status:
  // n3 failing, HAProxy sees it DOWN)
  const n3 = Number(fs.readFileSync(path.join(dir, 'n3.pid'), 'utf8'));
  process.kill(n3, 'SIGSTOP');
  const queued = connect('?node=n3');
  queued.catch(() => {});
  await sleep(300);
  process.kill(n3, 'SIGKILL');
  const killed = Date.now();
  const after = [await queued.catch((e) => fail(`a connection queued at n3 as it died: ${e.message}`))];
  for (let i = 0; i < 6; i++) after.push(await connect().catch((e) => fail(`a new connection after n3 died: ${e.message}`)));
  after.push(await connect('?node=n3').catch((e) => fail(`?node=n3 after n3 died: ${e.message}`)));
  if (after.some((p) => p.node === 'n3')) fail('a connection went to the killed node');
  for (const p of after) p.ws.terminate();
  const down = await waitStatus((st) => /n3 DOWN/.test(st.text), 'HAProxy did not take n3 out of the pool', 8000);
  if (down.ok || !/^n3 +FAILING/m.test(down.text)) fail(`status did not report n3 failing:\n${down.text}`);
  const outMs = Date.now() - killed;

  // 5. the game goes on through the proxy to its end; its record replays
  await playToEnd(player);
  const gameId = player.state.game_id || fail('no game id at the end');
  const check = replayCheck(goita, await downloadRecord(proxy, `${gameId}`));
  if (!/^ok/.test(check)) fail('the stored record does not replay: ' + check);
  if (spectator.state.status !== 'over') {
    await spectator.wait((m) => m.type === 'state' && m.status === 'over', "the game's end on n1", 5000)
      .catch((e) => fail(`the spectator on n1 did not follow the game to its end: ${e.message}`));
  }
  player.close();
  spectator.close();

  // 6. PostgreSQL stopped: the nodes' /healthz fail and HAProxy takes them out; started again,
  // they are back in the pool
  const pg = path.join(path.dirname(clusterSh), 'postgres.sh');
  execFileSync('bash', [pg, 'stop', path.join(dir, 'pg')]);
  await waitStatus((st) => /n1 DOWN.*n2 DOWN/.test(st.text), 'HAProxy did not take the nodes out while the database was away', 10000);
  const refused = await httpGet(proxy, '/');
  if (refused.status !== 503) fail(`the proxy answered HTTP ${refused.status} with no node in the pool`);
  execFileSync('bash', [pg, 'start', path.join(dir, 'pg')]);
  await waitStatus((st) => /n1 UP.*n2 UP/.test(st.text), 'the nodes did not come back once the database did', 15000);
  console.log(`deploy: page and game through HAProxy (${check}); n3 killed, out of the pool in ${outMs} ms with ` +
    'every new connection served; nodes out of the pool while PostgreSQL was away, back after');
  process.exit(0);
})().catch((e) => fail(e.stack || String(e)));
