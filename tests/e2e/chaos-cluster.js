// The cluster of the fault-injection harness (tests/e2e/chaos.js): PostgreSQL, nats-server,
// the goita servers under libfaketime and HAProxy, every piece a child of this process (or, for
// PostgreSQL, of pg_ctl) in one folder on loopback, each stopped, paused and started at will;
// and the audit triggers the invariant checker reads.
'use strict';
const { spawn, execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { startServer, httpGet } = require('./client');

const root = path.join(__dirname, '..', '..');
// A program by its name, found in PATH or in /usr/sbin (where Debian puts nats-server and
// haproxy, not in every user's PATH).
const program = (name) => [...(process.env.PATH || '').split(':'), '/usr/sbin'].map((d) => path.join(d, name)).find((f) => fs.existsSync(f)) || name;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const freePort = () => execFileSync('node', [path.join(__dirname, 'free-port.js')]).toString().trim();
const stamp = () => new Date().toISOString().slice(11, 23);

// One seeded generator (mulberry32 over a splitmix-like seed): every random choice of a run
// takes it, so a seed names its schedule (the timing of the servers still varies).
function rng(seed) {
  let a = (Number(seed) * 2654435761) >>> 0;
  const next = () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next.int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  next.pick = (list) => list[Math.floor(next() * list.length)];
  return next;
}

class Cluster {
  constructor(goita, dir, opts) {
    this.goita = goita;
    this.dir = dir;
    this.lease = opts.lease || 3;
    this.serveArgs = opts.serveArgs || [];
    this.nodes = {}; // name -> { port, proc, clock }
    this.extra = []; // duplicate servers
    this.events = []; // what the harness did, with times
    this.shown = []; // every state every client was shown
    this.faketime = ['/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1', '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1']
      .find((f) => fs.existsSync(f));
  }

  note(what) {
    const line = `${stamp()} ${what}`;
    this.events.push(line);
    fs.appendFileSync(path.join(this.dir, 'events.log'), line + '\n');
    if (process.env.CHAOS_VERBOSE) console.log('chaos: ' + line);
  }

  psql(sql) {
    return execFileSync('psql', [this.db, '-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-c', sql], { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30 }).toString().trim(); // (a long run's records are large)
  }

  // rows of a query as objects (the query wrapped in json_agg)
  rows(sql) {
    const text = this.psql(`SELECT coalesce(json_agg(q), '[]') FROM (${sql}) q`);
    return JSON.parse(text || '[]');
  }

  hasColumn(table, column) {
    return this.psql(`SELECT count(*) FROM information_schema.columns WHERE table_name = '${table}' AND column_name = '${column}'`) === '1';
  }

  startPg() { this.db = execFileSync(path.join(root, 'scripts/postgres.sh'), ['start', path.join(this.dir, 'pg')]).toString().trim(); }
  stopPg() { execFileSync(path.join(root, 'scripts/postgres.sh'), ['stop', path.join(this.dir, 'pg')], { stdio: 'ignore' }); }

  startNats() {
    return new Promise((resolve, reject) => {
      const log = fs.openSync(path.join(this.dir, 'nats.log'), 'a');
      this.nats = spawn(program('nats-server'), ['-a', '127.0.0.1', '-p', this.natsPort], { cwd: this.dir, stdio: ['ignore', log, 'pipe'] });
      this.nats.stderr.on('data', (d) => { fs.writeSync(log, d); if (/Server is ready/.test(d.toString())) resolve(); });
      this.nats.on('exit', (code) => reject(new Error(`nats-server exited (${code})`)));
    });
  }

  stopNats() {
    return new Promise((resolve) => {
      if (!this.nats) return resolve();
      this.nats.removeAllListeners('exit');
      this.nats.on('exit', resolve);
      this.nats.kill('SIGKILL');
      this.nats = null;
    });
  }

  // The environment of a server: libfaketime with an offset read from its file at every call.
  env(name) {
    const clock = path.join(this.dir, `${name}.faketime`);
    if (!fs.existsSync(clock)) fs.writeFileSync(clock, '+0\n');
    if (!this.faketime) return process.env;
    // (a server built with AddressSanitizer refuses to start with a library preloaded before its
    // runtime unless told that the order is wanted)
    const asan = [process.env.ASAN_OPTIONS, 'verify_asan_link_order=0'].filter(Boolean).join(':');
    return { ...process.env, LD_PRELOAD: this.faketime, FAKETIME_TIMESTAMP_FILE: clock, FAKETIME_NO_CACHE: '1', ASAN_OPTIONS: asan };
  }

  async startNode(name, port) {
    const log = fs.openSync(path.join(this.dir, `${name}.log`), 'a');
    const args = ['--host', '127.0.0.1', '--node', name, '--lease', String(this.lease), '--bus', `nats://127.0.0.1:${this.natsPort}`, ...this.serveArgs];
    const proc = await startServer(this.goita, port, this.db, args, { env: this.env(name), log });
    this.nodes[name] = { name, port, proc, stopped: false };
    this.note(`${name} started on ${port} (pid ${proc.pid})`);
    return this.nodes[name];
  }

  // A server under a live server's name, on a port of its own: resolves with it, or null when it
  // would not start (then its output is in DIR/dup-NAME.log).
  async startDuplicate(name) {
    const port = freePort();
    const log = fs.openSync(path.join(this.dir, `dup-${name}.log`), 'a');
    const args = ['--host', '127.0.0.1', '--node', name, '--lease', String(this.lease), '--bus', `nats://127.0.0.1:${this.natsPort}`, ...this.serveArgs];
    try {
      const proc = await Promise.race([startServer(this.goita, port, this.db, args, { env: this.env(name), log }),
        sleep(10000).then(() => { throw new Error('no answer in 10 s'); })]);
      const dup = { name, port, proc };
      this.extra.push(dup);
      this.note(`a second ${name} started on ${port} (pid ${proc.pid})`);
      return dup;
    } catch (e) {
      this.note(`a second ${name} refused to start: ${e.message}`);
      return null;
    }
  }

  kill(proc) {
    return new Promise((resolve) => {
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return resolve();
      proc.removeAllListeners('exit');
      proc.on('exit', () => resolve());
      proc.kill('SIGCONT');
      proc.kill('SIGKILL');
    });
  }

  async killNode(name) {
    const n = this.nodes[name];
    await this.kill(n.proc);
    n.proc = null;
    this.note(`${name} killed (SIGKILL)`);
  }

  async restartNode(name) { await this.startNode(name, this.nodes[name].port); }

  pause(name) { this.nodes[name].proc.kill('SIGSTOP'); this.nodes[name].stopped = true; this.note(`${name} paused (SIGSTOP)`); }
  resume(name) { this.nodes[name].proc.kill('SIGCONT'); this.nodes[name].stopped = false; this.note(`${name} woken (SIGCONT)`); }

  clock(name, seconds) {
    fs.writeFileSync(path.join(this.dir, `${name}.faketime`), `${seconds >= 0 ? '+' : ''}${seconds}\n`);
    this.note(`${name}'s clock set to ${seconds >= 0 ? '+' : ''}${seconds} s`);
  }

  startProxy() {
    const names = Object.keys(this.nodes).map((n) => `${n}:${this.nodes[n].port}`);
    this.proxyDir = path.join(this.dir, 'proxy');
    fs.mkdirSync(this.proxyDir, { recursive: true });
    this.proxyPort = execFileSync(path.join(root, 'scripts/cluster.sh'), ['proxy', this.proxyDir, ...names], { stdio: ['ignore', 'pipe', 'inherit'] }).toString().trim().split('\n').pop();
    this.proxyPid = Number(fs.readFileSync(path.join(this.proxyDir, 'haproxy.pid'), 'utf8'));
    this.note(`HAProxy on ${this.proxyPort}`);
  }

  killProxy() {
    if (this.proxy) { this.proxy.kill('SIGKILL'); this.proxy = null; }
    if (this.proxyPid) { try { process.kill(this.proxyPid, 'SIGKILL'); } catch (e) { /* gone */ } this.proxyPid = 0; }
    this.note('HAProxy killed (SIGKILL)');
  }

  restartProxy() {
    const log = fs.openSync(path.join(this.proxyDir, 'haproxy.log'), 'a');
    this.proxy = spawn(program('haproxy'), ['-db', '-f', path.join(this.proxyDir, 'haproxy.cfg')], { stdio: ['ignore', log, log] });
    this.note('HAProxy started again');
  }

  // Starts PostgreSQL, NATS and `count` servers, the audit trigger once the schema is there,
  // then HAProxy. Whatever happens, they are stopped when this process exits.
  async up(count = 3) {
    process.on('exit', () => {
      for (const p of [this.nats, this.proxy, ...this.extra.map((d) => d.proc)]) if (p) p.kill('SIGKILL');
      if (this.proxyPid) try { process.kill(this.proxyPid, 'SIGKILL'); } catch (e) { /* gone */ }
      try { this.stopPg(); } catch (e) { /* stopped */ }
    });
    fs.mkdirSync(path.join(this.dir, 'pg'), { recursive: true });
    fs.chmodSync(this.dir, 0o711); // as root, PostgreSQL runs as the postgres user
    this.startPg();
    this.natsPort = freePort();
    await this.startNats();
    for (let i = 1; i <= count; i++) await this.startNode(`n${i}`, freePort());
    this.installAudit();
    await this.untilHealthy(Object.keys(this.nodes), 10000);
    await sleep(this.lease * 400); // the servers hear each other once
    this.startProxy();
  }

  // The audit trigger (issue 45): every UPDATE or DELETE of a stored move, every second game of
  // a table and every change of a table already ended is copied into chaos_audit.
  installAudit() {
    for (let i = 0; this.psql("SELECT to_regclass('moves') IS NOT NULL AND to_regclass('games') IS NOT NULL") !== 't'; i++) {
      if (i > 100) throw new Error('the servers made no schema');
      execFileSync('sleep', ['0.1']);
    }
    this.psql(`
      CREATE TABLE IF NOT EXISTS chaos_audit (at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(), what TEXT NOT NULL,
        table_id BIGINT, old TEXT, new TEXT);
      CREATE OR REPLACE FUNCTION chaos_moves_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          INSERT INTO chaos_audit (what, table_id, old) VALUES ('stored move deleted', OLD.table_id, row_to_json(OLD)::text);
          RETURN OLD;
        END IF;
        INSERT INTO chaos_audit (what, table_id, old, new) VALUES (CASE WHEN to_jsonb(OLD) - 'played' = to_jsonb(NEW) - 'played'
          THEN 'stored move written again' ELSE 'stored move replaced' END, OLD.table_id, row_to_json(OLD)::text, row_to_json(NEW)::text);
        RETURN NEW;
      END $$;
      DROP TRIGGER IF EXISTS chaos_moves ON moves;
      CREATE TRIGGER chaos_moves BEFORE UPDATE OR DELETE ON moves FOR EACH ROW EXECUTE FUNCTION chaos_moves_audit();
      CREATE OR REPLACE FUNCTION chaos_games_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM games WHERE table_id = NEW.table_id) THEN
          INSERT INTO chaos_audit (what, table_id, old, new) VALUES ('game stored twice', NEW.table_id,
            (SELECT json_agg(json_build_object('id', id, 'ended', ended, 'score', ARRAY[score0, score1]))::text FROM games WHERE table_id = NEW.table_id),
            json_build_object('ended', NEW.ended, 'score', ARRAY[NEW.score0, NEW.score1])::text);
        END IF;
        RETURN NEW;
      END $$;
      DROP TRIGGER IF EXISTS chaos_games ON games;
      CREATE TRIGGER chaos_games BEFORE INSERT ON games FOR EACH ROW EXECUTE FUNCTION chaos_games_audit();
      CREATE OR REPLACE FUNCTION chaos_tables_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- (tables.epoch, the ownership epoch of issue 45, when the schema has it: it only grows)
        IF (to_jsonb(NEW)->>'epoch')::bigint < (to_jsonb(OLD)->>'epoch')::bigint THEN
          INSERT INTO chaos_audit (what, table_id, old, new) VALUES ('table epoch went back', OLD.id, to_jsonb(OLD)->>'epoch', to_jsonb(NEW)->>'epoch');
        END IF;
        IF OLD.status = 2 AND (NEW.status IS DISTINCT FROM OLD.status OR NEW.ended IS DISTINCT FROM OLD.ended) THEN
          INSERT INTO chaos_audit (what, table_id, old, new) VALUES ('table ended twice', OLD.id,
            json_build_object('status', OLD.status, 'ended', OLD.ended)::text, json_build_object('status', NEW.status, 'ended', NEW.ended)::text);
        END IF;
        RETURN NEW;
      END $$;
      DROP TRIGGER IF EXISTS chaos_tables ON tables;
      CREATE TRIGGER chaos_tables BEFORE UPDATE ON tables FOR EACH ROW EXECUTE FUNCTION chaos_tables_audit();`);
    this.note('audit triggers installed');
  }

  async health(name) {
    const n = this.nodes[name];
    if (!n || !n.proc || n.stopped) return { status: 0, body: 'not running' };
    return Promise.race([httpGet(n.port, '/healthz').catch((e) => ({ status: 0, body: e.message })), sleep(1500).then(() => ({ status: 0, body: 'no answer' }))]);
  }

  async untilHealthy(names, ms) {
    const start = Date.now();
    for (;;) {
      const all = await Promise.all(names.map((n) => this.health(n)));
      if (all.every((h) => h.status === 200 && !/unreachable/.test(h.body))) return true;
      if (Date.now() - start > ms) return false;
      await sleep(200);
    }
  }

  // The server that owns table id now, by the database.
  owner(id) { return this.psql(`SELECT coalesce(node, '') FROM tables WHERE id = ${Number(id)}`); }

  url(name) { return name === 'proxy' ? `ws://127.0.0.1:${this.proxyPort}/` : `ws://127.0.0.1:${this.nodes[name].port}/`; }

  live() { return Object.keys(this.nodes).filter((n) => this.nodes[n].proc && !this.nodes[n].stopped); }

  // Mends every fault: every clock back, every server woken or started again, the duplicates
  // killed, NATS, PostgreSQL and HAProxy running.
  async heal() {
    for (const d of this.extra) await this.kill(d.proc);
    this.extra = [];
    for (const name of Object.keys(this.nodes)) {
      this.clock(name, 0);
      if (this.nodes[name].stopped) this.resume(name);
    }
    try { this.psql('SELECT 1'); } catch (e) { this.startPg(); this.note('PostgreSQL started'); }
    if (!this.nats) { await this.startNats(); this.note('nats-server started'); }
    for (const name of Object.keys(this.nodes)) if (!this.nodes[name].proc) await this.restartNode(name);
    if (!this.proxyPid && !this.proxy) this.restartProxy();
  }

  async down() {
    for (const d of this.extra) await this.kill(d.proc);
    for (const n of Object.values(this.nodes)) await this.kill(n.proc);
    this.killProxy();
    await this.stopNats();
    try { this.stopPg(); } catch (e) { /* already stopped */ }
  }
}

module.exports = { Cluster, rng, sleep, stamp };
