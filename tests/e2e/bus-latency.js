// How long a move takes from a client's send to its own state, at a table of the client's own
// server and at one of another server, reached through the message bus (docs/SERVER.md
// "Several servers"): two servers (--node ma, mb) on one PostgreSQL and one NATS server, GAMES
// games to 50 with seats 1 and 3 on ma (the owner) and seats 2 and 4 on mb; every move is timed,
// then the next waits until all four have seen it. Prints p50 and p99 of each kind, the largest
// state message and the size of a lobby row. docs/BENCHMARKS.md has figures.
// Usage: node bus-latency.js GOITA DB NATS_SERVER [GAMES=8]
'use strict';
const { spawn, execFileSync } = require('child_process');
const path = require('path');
const { Client, startServer, killServer } = require('./client');

const [goita, db, natsServer, games = '8'] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const freePort = () => execFileSync('node', [path.join(__dirname, 'free-port.js')]).toString().trim();
(async () => {
  const natsPort = freePort(), pa = freePort(), pb = freePort(), nats = `nats://127.0.0.1:${natsPort}`;
  const natsProcess = spawn(natsServer, ['-a', '127.0.0.1', '-p', natsPort], { stdio: 'ignore' });
  process.on('exit', () => natsProcess.kill('SIGKILL'));
  await sleep(300);
  const a = await startServer(goita, pa, db, ['--node', 'ma', '--lease', '3', '--bus', nats]);
  const b = await startServer(goita, pb, db, ['--node', 'mb', '--lease', '3', '--bus', nats]);
  await sleep(1500);
  const t = { local: [], forwarded: [] };
  let maxState = 0, rowBytes = 0;
  for (let g = 0; g < Number(games); g++) {
    const ps = [];
    for (let s = 0; s < 4; s++) {
      const c = new Client(`ws://127.0.0.1:${s % 2 ? pb : pa}/`, 'P' + s);
      await c.open(); await c.request({ type: 'hello', name: 'M' + g + s }, 'welcome'); ps.push(c);
    }
    await ps[1].request({ type: 'list' }, 'tables');
    const lob = ps[1].wait((m) => m.type === 'lobby' && m.event === 'created', 'the new table in the lobby of mb');
    const table = (await ps[0].request({ type: 'create', rules: 'target=50' }, 'created')).table;
    rowBytes = JSON.stringify((await lob).table).length;
    for (let s = 0; s < 4; s++) { ps[s].table = table; await ps[s].request({ type: 'sit', table, seat: s }, 'seated'); }
    const st = ps.map((c) => c.wait((m) => m.type === 'state' && m.status !== 'waiting', 'start'));
    ps[0].send({ type: 'start', table });
    await Promise.all(st);
    for (;;) {
      let mover;
      for (let i = 0; i < 200 && !(mover = ps.find((c) => c.legal().length)); i++) { if (ps[0].state.status === 'over') break; await sleep(5); }
      if (!mover || ps[0].state.status === 'over') break;
      const old = mover.state.game.history;
      const t0 = process.hrtime.bigint();
      const ans = mover.wait((m) => m.type === 'error' || (m.type === 'state' && m.game.history !== old), 'ans');
      mover.send({ type: 'move', table, move: mover.legal()[0] });
      const m = await ans;
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (m.type === 'error') throw new Error(m.error);
      maxState = Math.max(maxState, JSON.stringify(m).length);
      (ps.indexOf(mover) % 2 ? t.forwarded : t.local).push(ms);
      const prog = `${m.game.round}:${m.game.log.length}`;
      for (let i = 0; i < 400 && !ps.every((c) => `${c.state.game.round}:${c.state.game.log.length}` === prog || c.state.status === 'over'); i++) await sleep(2);
    }
    for (const c of ps) c.close();
  }
  const q = (xs, p) => { const s = [...xs].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.floor(p * s.length))].toFixed(2); };
  for (const k of ['local', 'forwarded']) console.log(`${k}: ${t[k].length} moves, p50 ${q(t[k], 0.5)} ms, p99 ${q(t[k], 0.99)} ms`);
  console.log(`largest state ${maxState} bytes; one lobby row ${rowBytes} bytes`);
  await killServer(a); await killServer(b); process.exit(0);
})().catch((e) => { console.error(e); process.exit(1); });
