// Load test of goita serve on loopback: 4 x TABLES WebSocket clients seated at TABLES tables play
// at full speed (each move sent the moment the state allows it) for SECONDS, starting a new game
// whenever one ends. Prints moves per second, the latency from a move to each seat's receipt of
// the broadcast (p50, p99), and the server's memory per table. Usage:
//   node load.js URL TABLES SECONDS SERVER_PID
'use strict';
const fs = require('fs');
const { Client, startTable } = require('./client');

const [url, tablesArg, secondsArg, pid] = process.argv.slice(2);
const tables = Number(tablesArg), seconds = Number(secondsArg);
const rssKiB = () => Number(fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]);
const now = () => Number(process.hrtime.bigint()) / 1e6;

(async () => {
  const baseline = rssKiB();
  const clients = [];
  for (let i = 0; i < 4 * tables; i++) clients.push(new Client(url, `load${i}`));
  for (let i = 0; i < clients.length; i += 50) {
    await Promise.all(clients.slice(i, i + 50).map(async (c) => {
      await c.open();
      await c.request({ type: 'hello', name: c.name }, 'welcome');
    }));
  }
  const groups = [];
  for (let t = 0; t < tables; t++) groups.push({ clients: clients.slice(4 * t, 4 * t + 4), seq: 0, sentAt: 0, games: 0 });
  for (let i = 0; i < groups.length; i += 25) await Promise.all(groups.slice(i, i + 25).map((g) => startTable(g.clients)));
  const loaded = rssKiB();

  let moves = 0, running = true, games = 0;
  const latencies = [];
  const begin = now();
  for (const g of groups) {
    g.clients.forEach((c) => {
      c.seen = 0;
      c.history = '';
      c.onState = (msg) => {
        if (!running || !msg.game) return;
        if (g.sentAt && c.seen !== g.seq && msg.game.history !== c.history) {
          latencies.push(now() - g.sentAt);
          c.seen = g.seq;
        }
        c.history = msg.game.history;
        if (msg.status === 'over') {
          if (c === g.clients[0]) {
            games++;
            g.sentAt = 0;
            startTable(g.clients).catch((e) => { console.error(e.message); process.exit(1); });
          }
          return;
        }
        const legal = msg.game.legal;
        if (!legal.length || c.movedOn === msg.game.history) return;
        c.movedOn = msg.game.history;
        g.seq++;
        g.sentAt = now();
        moves++;
        c.send({ type: 'move', table: msg.table, move: legal[Math.floor(Math.random() * legal.length)] });
      };
      if (c.state) c.onState(c.state); /* whoever is to move starts */
    });
  }
  await new Promise((r) => setTimeout(r, seconds * 1000));
  running = false;
  const elapsed = (now() - begin) / 1000;
  const peak = rssKiB();
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
  const result = {
    clients: clients.length, tables, seconds: Number(elapsed.toFixed(1)), moves, games_finished: games,
    moves_per_second: Math.round(moves / elapsed), latency_ms_p50: Number(pct(0.5).toFixed(2)),
    latency_ms_p99: Number(pct(0.99).toFixed(2)), samples: latencies.length,
    server_rss_mib: { idle: Math.round(baseline / 1024), tables_started: Math.round(loaded / 1024), end: Math.round(peak / 1024) },
    kib_per_table: Math.round((loaded - baseline) / tables),
  };
  console.log(JSON.stringify(result));
  for (const c of clients) c.close();
  process.exit(0);
})().catch((e) => { console.error('load: ' + (e.stack || e)); process.exit(1); });
