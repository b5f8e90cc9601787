// goita serve killed (SIGKILL) mid-game and started again: every table and seat comes back from
// the database with no move lost, the players reconnect with their seat tokens to the same view,
// and the game is played to its end and its record downloaded. A lobby listener gets the table
// as a "created" event, and after the restart in its first page, then a "removed" event at the end.
// Usage: node restart.js GOITA PORT DB
'use strict';
const { Client, startTable, play, reconnect, downloadRecord, startServer, killServer } = require('./client');

const [goita, port, db] = process.argv.slice(2);
const url = `ws://127.0.0.1:${port}/`;
const fail = (why) => { console.error('restart: ' + why); process.exit(1); };
const gameOf = (c) => JSON.stringify(c.state.game);

(async () => {
  let server = await startServer(goita, port, db);
  const names = ['Ann', 'Ben', 'Cho', 'Dai'];
  let clients = names.map((n) => new Client(url, n));
  for (const c of clients) { await c.open(); c.player = (await c.request({ type: 'hello', name: c.name }, 'welcome')).player_token; }
  let lobby = new Client(url, 'Lobby');
  await lobby.open();
  await lobby.request({ type: 'list' }, 'tables');
  const announced = lobby.wait((m) => m.type === 'lobby' && m.event === 'created', 'a "created" lobby event');
  const table = await startTable(clients);
  if ((await announced).table.id !== table) fail('the lobby announced another table');
  lobby.close();
  await play(clients, 30);

  // 1. killed while quiet: every seat's view comes back exactly
  const before = clients.map(gameOf);
  await killServer(server);
  server = await startServer(goita, port, db);
  clients = await reconnect(url, clients, table);
  clients.forEach((c, s) => { if (gameOf(c) !== before[s]) fail(`seat ${s + 1}'s view differs after the restart`); });

  // 2. killed right after a move was answered to its player: the move is not lost
  const mover = clients.find((c) => c.legal().length) || fail('nobody to move');
  const historyBefore = mover.state.game.history;
  const answered = mover.wait((m) => m.type === 'state' && m.game.history !== historyBefore, 'the answer to a move');
  mover.send({ type: 'move', table, move: mover.legal()[0] });
  const after = JSON.stringify((await answered).game);
  await killServer(server);
  server = await startServer(goita, port, db);
  clients = await reconnect(url, clients, table);
  if (gameOf(clients[clients.indexOf(clients.find((c) => c.name === mover.name))]) !== after) fail('a move answered before the kill was lost:\n' + after + '\n' + gameOf(clients.find((c) => c.name === mover.name)));

  // 3. the game goes on to its end, and its record is there; the lobby lists it, then removes it
  lobby = new Client(url, 'Lobby');
  await lobby.open();
  const page = await lobby.request({ type: 'list' }, 'tables');
  if (!page.tables.some((row) => row.id === table && row.status === 'playing')) fail('the restored table is not listed');
  const removed = lobby.wait((m) => m.type === 'lobby' && m.event === 'removed' && m.table.id === table, 'a "removed" lobby event', 60000);
  while (await play(clients, 50)) { /* until the game is over */ }
  await removed;
  lobby.close();
  const gameId = clients[0].state.game_id;
  if (!gameId) fail('no game id at the end');
  const record = await downloadRecord(port, gameId);
  if (record.format !== 'goita-record' || !record.rounds.length) fail('the downloaded record is not a game record');
  console.log(`restart: killed twice, nothing lost; the game ended ${record.score.join(' to ')} over ${record.rounds.length} rounds`);
  for (const c of clients) c.close();
  await killServer(server);
})().catch((e) => fail(e.stack || String(e)));
