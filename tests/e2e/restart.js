// goita serve killed (SIGKILL) mid-game and started again: every table and seat comes back from
// the database with no move lost, the players reconnect with their seat tokens to the same view,
// and the game is played to its end and its record downloaded. A lobby listener gets the table
// as a "created" event, and after the restart in its first page, then a "removed" event at the end.
// A Ko shogi game beside it comes back the same way: every move, and both clocks as they were
// after the last move (the time the server was down is charged to nobody); it is played on,
// resigned, and its record and the loser's rating history are there.
// Usage: node restart.js GOITA PORT DB
'use strict';
const { Client, startTable, play, reconnect, downloadRecord, startServer, killServer, httpGet } = require('./client');

const [goita, port, db] = process.argv.slice(2);
const url = `ws://127.0.0.1:${port}/`;
const fail = (why) => { console.error('restart: ' + why); process.exit(1); };
const gameOf = (c) => JSON.stringify(c.state.game);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Ko shogi: Kai (Black) and Lin (White) at a table with ten minutes and 30 s byoyomi. The moves
// are a game's first six, each legal after the ones before it.
const KS_MOVES = ['P6o-5o', 'P-3e', 'P-4p', 'P-5e', 'CH-11l', 'CH-17h'];
const ksTableOf = (m, table) => m.type === 'ks_table' && m.table === table;

async function ksOpen(name, token) {
  const c = new Client(url, name);
  await c.open();
  const welcome = await c.request(token ? { type: 'hello', player_token: token } : { type: 'hello', name }, 'welcome');
  c.player = welcome.player_token;
  c.playerId = welcome.player.id;
  return c;
}

// Plays the next move of KS_MOVES; resolves with the table as the mover was told it.
async function ksMove(ks, table, ply) {
  const mover = ks[ply % 2];
  const told = mover.wait((m) => ksTableOf(m, table) && m.moves.length === ply + 1, `Ko shogi move ${ply + 1}`);
  mover.send({ type: 'ks_move', table, move: KS_MOVES[ply] });
  return told;
}

// Both players back after a restart: the table as stored, against the one they were last told.
async function ksBack(ks, table, last) {
  const back = await Promise.all(ks.map((c) => ksOpen(c.name, c.player)));
  for (const c of back) {
    const t = await c.request({ type: 'ks_watch', table }, 'ks_table');
    if (JSON.stringify(t.moves) !== JSON.stringify(last.moves)) fail(`${c.name}'s Ko shogi moves differ after the restart: ${t.moves} against ${last.moves}`);
    for (const side of ['black', 'white']) {
      // the side to move's turn starts afresh: at most the time the restore took comes off
      const was = last.clock[side].main_ms, now = t.clock[side].main_ms;
      if (now > was || now < was - 1000) fail(`${side}'s main time was ${was} ms after the last move and is ${now} ms after the restart`);
    }
  }
  ks.forEach((c) => c.close());
  return back;
}

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
  let ks = [await ksOpen('Kai'), await ksOpen('Lin')];
  const ksTable = (await ks[0].request({ type: 'ks_create', side: 'black', main_minutes: 10, byoyomi_seconds: 30 }, 'ks_table')).table;
  await ks[1].request({ type: 'ks_sit', table: ksTable, side: 'white' }, 'ks_table');
  let ksLast;
  for (let ply = 0; ply < 4; ply++) ksLast = await ksMove(ks, ksTable, ply);
  await play(clients, 30);
  await sleep(2000); /* Black thinks: two seconds that the restart must not charge */

  // 1. killed while quiet: every seat's view comes back exactly
  const before = clients.map(gameOf);
  await killServer(server);
  server = await startServer(goita, port, db);
  clients = await reconnect(url, clients, table);
  clients.forEach((c, s) => { if (gameOf(c) !== before[s]) fail(`seat ${s + 1}'s view differs after the restart`); });
  ks = await ksBack(ks, ksTable, ksLast);
  ksLast = await ksMove(ks, ksTable, 4); /* answered, then the server is killed */

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
  ks = await ksBack(ks, ksTable, ksLast);

  // the Ko shogi game goes on, and White resigns: its record and the loser's history are stored
  ksLast = await ksMove(ks, ksTable, 5);
  const saved = ks[1].wait((m) => ksTableOf(m, ksTable) && m.game_id, 'the saved Ko shogi game');
  ks[1].send({ type: 'ks_resign', table: ksTable });
  const ksGame = (await saved).game_id;
  const ksRecord = await httpGet(port, `/records/ks-${ksGame}.txt`);
  if (ksRecord.status !== 200 || !KS_MOVES.every((m) => ksRecord.body.includes(m))) fail(`the Ko shogi record lacks moves:\n${ksRecord.body}`);
  const lin = (await ks[1].request({ type: 'ks_history', player: ks[1].playerId }, 'ks_history')).games;
  if (lin.length !== 1 || lin[0].game !== ksGame || !(lin[0].rating_after < lin[0].rating_before)) fail(`Lin's Ko shogi history: ${JSON.stringify(lin)}`);
  ks.forEach((c) => c.close());

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
