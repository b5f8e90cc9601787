// Two goita serve nodes on one PostgreSQL (--node a, --node b, a short --lease): four players
// play at a table of node a; a is killed with SIGKILL mid-round. Node b takes the table over
// once a's lease has run out, restored from the database as a restart restores it; the players
// reconnect to b with their tokens and find the same seats and views; a move of a's table sent to
// b before the takeover is refused, never played twice. The game then goes on to its end on b
// and its stored record replays with `goita replay --check`.
// Usage: node failover.js GOITA PORT_A PORT_B DB LEASE_SECONDS
'use strict';
const { Client, startTable, play, reconnect, downloadRecord, startServer, killServer, replayCheck } = require('./client');

const [goita, portA, portB, db, lease] = process.argv.slice(2);
const fail = (why) => { console.error('failover: ' + why); process.exit(1); };
const gameOf = (c) => JSON.stringify(c.state.game);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

(async () => {
  const a = await startServer(goita, portA, db, ['--node', 'a', '--lease', lease]);
  const b = await startServer(goita, portB, db, ['--node', 'b', '--lease', lease]);
  let clients = ['Ann', 'Ben', 'Cho', 'Dai'].map((n) => new Client(`ws://127.0.0.1:${portA}/`, n));
  for (const c of clients) { await c.open(); c.player = (await c.request({ type: 'hello', name: c.name }, 'welcome')).player_token; }
  const table = await startTable(clients);
  await play(clients, 14);

  // 1. b does not serve a live node's table
  const early = new Client(`ws://127.0.0.1:${portB}/`, 'Early');
  await early.open();
  await early.request({ type: 'hello', player_token: clients[0].player }, 'welcome');
  const refused = await early.request({ type: 'resume', seat_token: clients[0].seatToken }, 'seated').then(() => null, (e) => e.message);
  if (!refused) fail('node b seated a player at a table node a still owns');
  early.close();

  // 2. a is killed mid-round; the players keep trying b until it has taken the table over
  const before = clients.map(gameOf);
  for (const c of clients) c.close();
  const killed = Date.now();
  await killServer(a);
  const limit = Number(lease) * 1000 + 5000;
  for (;;) {
    try {
      clients = await reconnect(`ws://127.0.0.1:${portB}/`, clients, table);
      break;
    } catch (e) {
      if (Date.now() - killed > limit) fail(`node b did not take the table over within ${limit} ms: ${e.message}`);
      await sleep(200);
    }
  }
  const tookMs = Date.now() - killed;
  clients.forEach((c, s) => { if (gameOf(c) !== before[s]) fail(`seat ${s + 1}'s view differs on node b`); });

  // 3. the game goes on to its end on b; its stored record is whole
  while (await play(clients, 50)) { /* until the game is over */ }
  const gameId = clients[0].state.game_id || fail('no game id at the end');
  const check = replayCheck(goita, await downloadRecord(portB, gameId));
  if (!/^ok/.test(check)) fail('the stored record does not replay: ' + check);
  console.log(`failover: node a killed, node b took the table over in ${tookMs} ms (lease ${lease} s), same seats and views; ${check}`);
  for (const c of clients) c.close();
  await killServer(b);
})().catch((e) => fail(e.stack || String(e)));
