// goita serve on PostgreSQL with the database stopped mid-game and started again, the server
// left running: while the database is away a move is refused with the reason and changes no
// table; once it is back the server reconnects by itself, the same move is played, the game
// goes on to its end, and its stored record replays with `goita replay --check`. The server's
// /healthz says 503 with the reason while the database is away and 200 once it is back, and its
// /metrics counts the moves, their times and the failed database calls.
// Usage: node outage.js GOITA PORT DB STOP_COMMAND START_COMMAND
'use strict';
const { execSync } = require('child_process');
const { Client, startTable, play, downloadRecord, startServer, killServer, replayCheck, httpGet } = require('./client');

const [goita, port, db, stopDb, startDb] = process.argv.slice(2);
const url = `ws://127.0.0.1:${port}/`;
const fail = (why) => { console.error('outage: ' + why); process.exit(1); };
const gameOf = (c) => JSON.stringify(c.state.game);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Sends a move and resolves with the mover's answer: an error, or the state after it.
function tryMove(mover, move) {
  const old = mover.state.game.history;
  const answer = mover.wait((m) => m.type === 'error' || (m.type === 'state' && m.game.history !== old), 'the answer to a move');
  mover.send({ type: 'move', table: mover.table, move });
  return answer;
}

(async () => {
  const server = await startServer(goita, port, db);
  const clients = ['Ann', 'Ben', 'Cho', 'Dai'].map((n) => new Client(url, n));
  for (const c of clients) { await c.open(); await c.request({ type: 'hello', name: c.name }, 'welcome'); }
  await startTable(clients);
  await play(clients, 12);

  // 1. the database goes away: a move is refused with the reason, nobody's table changes
  const before = clients.map(gameOf);
  execSync(stopDb);
  const mover = clients.find((c) => c.legal().length) || fail('nobody to move');
  const move = mover.legal()[0];
  for (let attempt = 0; attempt < 2; attempt++) {
    const answer = await tryMove(mover, move);
    if (answer.type !== 'error') fail('a move was played while the database was away');
    if (!/not saved, so it was not played/.test(answer.error) || !/database is unreachable/.test(answer.error)) {
      fail('the refusal does not say why: ' + answer.error);
    }
  }
  const created = await clients[1].request({ type: 'create' }, 'created').then(() => null, (e) => e.message);
  if (!created || !/database is unreachable/.test(created)) fail('a table was created while the database was away: ' + created);
  await sleep(300);
  clients.forEach((c, s) => { if (gameOf(c) !== before[s]) fail(`seat ${s + 1}'s table changed while the database was away`); });
  const sick = await httpGet(port, '/healthz');
  if (sick.status !== 503 || !/^database down since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ: .*unreachable/.test(sick.body)) fail(`/healthz while away: ${sick.status} ${sick.body}`);

  // 2. the database is back: the server (not restarted) reconnects, the same move is played
  execSync(startDb);
  // (a message resolves one waiter: the mover's answer is awaited by tryMove alone)
  const seen = clients.filter((c) => c !== mover)
    .map((c) => c.wait((m) => m.type === 'state' && JSON.stringify(m.game) !== before[clients.indexOf(c)], 'the move after the outage'));
  const answer = await tryMove(mover, move);
  if (answer.type !== 'state') fail('the move was refused after the database came back: ' + answer.error);
  await Promise.all(seen);
  const healthy = await httpGet(port, '/healthz');
  if (healthy.status !== 200 || healthy.body !== 'ok\n') fail(`/healthz once back: ${healthy.status} ${healthy.body}`);

  // 3. the game goes on to its end; the stored record is whole and replays
  while (await play(clients, 50)) { /* until the game is over */ }
  const gameId = clients[0].state.game_id || fail('no game id at the end');
  const record = await downloadRecord(port, gameId);
  const check = replayCheck(goita, record);
  if (!/^ok/.test(check)) fail('the stored record does not replay: ' + check);
  const metrics = (await httpGet(port, '/metrics')).body;
  const value = (name) => Number((metrics.match(new RegExp(`^${name} (\\S+)$`, 'm')) || fail(`no ${name} in /metrics`))[1]);
  if (value('goita_store_errors_total') < 3) fail('/metrics did not count the failed database calls');
  if (value('goita_moves_total') < 20 || value('goita_move_seconds_count') < 20) fail('/metrics did not count the moves');
  if (value('goita_move_seconds_bucket{le="\\+Inf"}') !== value('goita_move_seconds_count')) fail('the histogram does not add up');
  console.log(`outage: moves refused while the database was away, then the game went on; ${check}`);
  for (const c of clients) c.close();
  await killServer(server);
})().catch((e) => fail(e.stack || String(e)));
