// A fault-injection harness in the style of Jepsen (issue 45, docs/SERVER.md "The fault-injection
// harness"): a real PostgreSQL (scripts/postgres.sh), a real nats-server, three `goita serve`
// servers (--node n1..n3, a short --lease, each under libfaketime so that its clock can be
// stepped) and HAProxy in front (its configuration from scripts/cluster.sh proxy), all as the
// current user in one folder on loopback. Scripted people (with computer players at some seats)
// and watchers play several tables through HAProxy and directly, reconnecting with their seat
// tokens as the browser page does when cut off; a scheduler applies random faults from a seed.
// Every state message every client is shown is logged; at the end the faults are healed, every
// unfinished game is resumed with its seat tokens and played out, and the invariant checker
// compares what the clients were shown with what the database holds (chaos-check.js). The
// pieces: chaos-cluster.js, chaos-people.js, chaos-faults.js, chaos-check.js, chaos-cases.js.
//
//   node chaos.js run GOITA [--seconds N | --schedules N] [--seed S] [--dir DIR]
//   node chaos.js case NAME GOITA [--dir DIR]       (NAME: one of chaos-cases.js, or "all")
//
// Exit status 0 when every invariant held (a case: when the bug it reproduces is absent), 1 if not.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { Cluster, rng, sleep } = require('./chaos-cluster');
const { Table } = require('./chaos-people');
const { FAULTS } = require('./chaos-faults');
const { check } = require('./chaos-check');
const { runCase, CASES } = require('./chaos-cases');

// The random run: tables played under a seeded schedule of faults; then healed, every game
// resumed and played out, and checked.
async function run(goita, dir, opts) {
  const r = rng(opts.seed);
  const cl = new Cluster(goita, dir, { lease: opts.lease, serveArgs: ['--seat-grace', '60'] });
  await cl.up(3);
  const tables = [];
  for (let i = 0; i < opts.tables; i++) {
    const t = new Table(cl, rng(opts.seed * 1000 + i), i);
    await t.start();
    tables.push(t);
  }
  let playing = true;
  // the people's lives, every 50 ms
  const life = (async () => {
    while (playing) {
      for (const t of tables) for (const p of t.everyone()) p.tick().catch(() => {});
      // a finished game: its people start another while the run goes on
      // (a new game refused, e.g. by the players' request rate, is tried again 2 s later, as a person would)
      for (const t of tables) if (t.over() && !t.starting && Date.now() >= (t.retryAt || 0)) {
        t.starting = true;
        t.start().catch((e) => { t.retryAt = Date.now() + 2000; cl.note(`table ${t.index} could not start a new game: ${e.message}`); })
          .finally(() => { t.starting = false; });
      }
      await sleep(50);
    }
  })();
  const started = Date.now();
  let schedules = 0;
  const names = opts.faults.length ? opts.faults : Object.keys(FAULTS);
  while (opts.schedules ? schedules < opts.schedules : Date.now() - started < opts.seconds * 1000) {
    await sleep(r.int(1000, 4000));
    const f = r.pick(names);
    cl.note(`fault ${schedules + 1}: ${f}`);
    await FAULTS[f](cl, r);
    schedules++;
  }
  cl.note(`${schedules} faults in ${Math.round((Date.now() - started) / 1000)} s; healing`);
  for (const t of tables) t.starting = true; // no new games now
  await cl.heal();
  await cl.untilHealthy(Object.keys(cl.nodes), 20000);
  await sleep(cl.lease * 1000 + 2000); // takeovers settle
  // every game goes on to its end: the people stay, reconnect when cut off, and play. A game
  // stuck is one with no move stored for --finish seconds; a loaded machine that plays slowly
  // gets more time while moves are still being stored (up to five times --finish in all).
  const movesStored = () => Number(cl.rows('SELECT count(*) AS n FROM moves')[0].n);
  const hardDeadline = Date.now() + 5 * opts.finishSeconds * 1000;
  let deadline = Date.now() + opts.finishSeconds * 1000, moves = movesStored();
  while (Date.now() < Math.min(deadline, hardDeadline) && !tables.every((t) => t.over())) {
    await sleep(1000);
    const now = movesStored();
    if (now > moves) { moves = now; deadline = Date.now() + opts.finishSeconds * 1000; }
  }
  playing = false;
  await life;
  const played = tables.flatMap((t) => t.ids);
  const unfinished = played.length ? cl.rows(`SELECT id FROM tables WHERE status != 2 AND id IN (${played.join(',')}) ORDER BY id`).map((x) => x.id) : [];
  const report = check(cl, tables, { unfinished });
  report.schedules = schedules;
  for (const t of tables) for (const p of t.all) p.close();
  await cl.down();
  return report;
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const opt = (name, fallback) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : fallback; };
  const mode = argv[0];
  const dirOf = () => { const d = opt('--dir', null) || fs.mkdtempSync(path.join(os.tmpdir(), 'goita-chaos-')); fs.mkdirSync(d, { recursive: true }); fs.chmodSync(d, 0o711); return path.resolve(d); }; // (711: PostgreSQL, as the postgres user when run by root, goes through it)
  (async () => {
    if (mode === 'run') {
      const goita = argv[1], dir = dirOf();
      const seed = Number(opt('--seed', Date.now() % 100000));
      const o = { seed, seconds: Number(opt('--seconds', 60)), schedules: Number(opt('--schedules', 0)), lease: Number(opt('--lease', 3)),
        tables: Number(opt('--tables', 4)), finishSeconds: Number(opt('--finish', 120)), faults: (opt('--faults', '') || '').split(',').filter(Boolean) };
      console.log(`chaos: seed ${seed}, folder ${dir}`);
      const rep = await run(goita, dir, o);
      console.log(`chaos: seed ${seed}: ${rep.schedules} faults, ${rep.games} games stored, ${rep.compared} shown states compared, ${rep.rewrites} moves sent again`);
      // what the people went through (not violations): each kind once, with its count
      const kinds = {};
      for (const p of rep.problems) { const k = p.replace(/^\S+: \S+ /, '').replace(/\d+/g, 'N'); kinds[k] = (kinds[k] || 0) + 1; }
      fs.writeFileSync(path.join(dir, 'people.log'), rep.problems.join('\n') + '\n');
      for (const [k, n] of Object.entries(kinds)) console.log(`  seen by the people ${n} times: ${k}`);
      for (const v of rep.violations) console.log(`  VIOLATION ${v}`);
      console.log(rep.violations.length ? `chaos: FAIL seed ${seed} (${rep.violations.length} violations; see ${dir}/events.log)` : `chaos: ok seed ${seed}`);
      process.exit(rep.violations.length ? 1 : 0);
    } else if (mode === 'case') {
      const names = argv[1] === 'all' ? Object.keys(CASES) : [argv[1]];
      const goita = argv[2], base = dirOf();
      console.log(`chaos: cases in ${base}`);
      let failed = 0;
      for (const name of names) {
        if (!CASES[name]) { console.error(`chaos: no case ${name} (${Object.keys(CASES).join(', ')})`); process.exit(2); }
        const dir = path.join(base, name);
        fs.mkdirSync(dir, { recursive: true });
        const t0 = Date.now();
        const found = await runCase(name, goita, dir).catch((e) => [`the case broke: ${e.stack || e}`]);
        const secs = ((Date.now() - t0) / 1000).toFixed(1);
        if (found.length) { failed++; console.log(`chaos case ${name}: FAIL (${secs} s)`); for (const f of found) console.log(`  ${f}`); } else console.log(`chaos case ${name}: ok (${secs} s)`);
      }
      process.exit(failed ? 1 : 0);
    } else {
      console.error('usage: node chaos.js run GOITA [--seconds N | --schedules N] [--seed S] [--dir DIR] [--tables N] [--lease S] [--faults a,b]\n' +
        '       node chaos.js case NAME|all GOITA [--dir DIR]');
      process.exit(2);
    }
  })().catch((e) => { console.error('chaos: ' + (e.stack || e)); process.exit(1); });
}
