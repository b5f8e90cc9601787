// A fault-injection harness in the style of Jepsen (issue 45, docs/SERVER.md "The fault-injection
// harness"): a real PostgreSQL (scripts/postgres.sh), a real nats-server, three `goita serve`
// servers (--node n1..n3, a short --lease, each under libfaketime so that its clock can be
// stepped) and HAProxy in front (its configuration from scripts/cluster.sh proxy), all as the
// current user in one folder on loopback. Scripted people (with computer players at some seats)
// and watchers play several tables through HAProxy and directly, reconnecting with their seat
// tokens as the browser page does when cut off; a scheduler applies random faults from a seed.
// Every state message every client is shown is logged; at the end the faults are healed, every
// unfinished game is resumed with its seat tokens and played out, and the invariant checker
// compares what the clients were shown with what the database holds (check() below).
//
//   node chaos.js run GOITA [--seconds N | --schedules N] [--seed S] [--dir DIR]
//   node chaos.js case NAME GOITA [--dir DIR]       (NAME: see CASES below, or "all")
//
// Exit status 0 when every invariant held (a case: when the bug it reproduces is absent), 1 if not.
'use strict';
const { spawn, execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { Client, startServer, httpGet, replayCheck, within } = require('./client');

const root = path.join(__dirname, '..', '..');
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

// ---------------------------------------------------------------------------------------------
// The cluster: every piece a child of this process (or, for PostgreSQL, of pg_ctl), in DIR.
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
    return execFileSync('psql', [this.db, '-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-c', sql], { stdio: ['ignore', 'pipe', 'pipe'] }).toString().trim();
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
      this.nats = spawn('nats-server', ['-a', '127.0.0.1', '-p', this.natsPort], { cwd: this.dir, stdio: ['ignore', log, 'pipe'] });
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
    return { ...process.env, LD_PRELOAD: this.faketime, FAKETIME_TIMESTAMP_FILE: clock, FAKETIME_NO_CACHE: '1' };
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
    this.proxy = spawn('haproxy', ['-db', '-f', path.join(this.proxyDir, 'haproxy.cfg')], { stdio: ['ignore', log, log] });
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

// ---------------------------------------------------------------------------------------------
// The people and the watchers. Every state message each was shown goes into the cluster's
// `shown` (and DIR/shown.jsonl): who, its seat, the table, the round, the moves as it saw them.

class Person {
  // entry: 'proxy' or a server's name; the person reconnects there first, then anywhere
  constructor(cluster, name, entry, r) {
    Object.assign(this, { cluster, name, entry, r, conn: null, player: null, seatToken: null, table: null, seat: -1 });
    this.received = []; // every message of every connection, for the hidden-information scan
    this.tokens = new Set(); // every seat token it was given
    this.active = true;
    this.auto = true; // reconnects by itself when cut off (the harness cases drive it by hand)
    this.lastState = null;
    this.reconnects = 0;
    this.problems = []; // what a person would notice: refusals, frozen tables
  }

  log(msg) {
    this.received.push(msg);
    if (msg.type !== 'state' || !msg.game) return;
    this.lastState = msg;
    this.lastStateAt = Date.now();
    const entry = { at: Date.now(), who: this.name, via: this.via, seat: msg.seat, table: msg.table, status: msg.status,
      round: msg.game.round, history: msg.game.history, game_id: msg.game_id || null };
    this.cluster.shown.push(entry);
    fs.appendFileSync(path.join(this.cluster.dir, 'shown.jsonl'), JSON.stringify(entry) + '\n');
  }

  // Opens a connection to url and says hello (with the player token once there is one).
  async connect(url) {
    const c = new Client(url, this.name);
    await c.open(2000);
    const origReceive = c.receive.bind(c);
    c.receive = (m) => { this.log(m); origReceive(m); };
    const hello = await Promise.race([c.request(this.player ? { type: 'hello', player_token: this.player } : { type: 'hello', name: this.name }, 'welcome'),
      sleep(3000).then(() => { throw new Error('no welcome'); })]);
    this.player = hello.player_token;
    c.player = this.player;
    this.via = url;
    return c;
  }

  // Comes back to its seat (or its watch) after a lost connection: the entry first, then the
  // proxy or any server, as a browser page that reloads.
  // elsewhere: the entry served it badly (frozen, refused): not the entry first
  async reconnect(elsewhere = false) {
    if (this.conn) { this.conn.onClose = null; this.conn.close(); this.conn = null; }
    this.reconnects++;
    for (let attempt = 0; this.active; attempt++) {
      const where = attempt === 0 && !elsewhere ? this.entry : this.r.pick(['proxy', ...Object.keys(this.cluster.nodes)]);
      try {
        const c = await this.connect(this.cluster.url(where));
        const msg = this.seatToken ? { type: 'resume', seat_token: this.seatToken } : { type: 'watch', table: this.table };
        const reply = await Promise.race([c.request(msg, this.seatToken ? 'seated' : 'state'), sleep(4000).then(() => { throw new Error('no answer to ' + msg.type); })]);
        if (reply.type === 'state') this.log(reply);
        this.attach(c);
        return true;
      } catch (e) {
        this.lastError = e.message;
        await sleep(300 + this.r.int(0, 700));
      }
    }
    return false;
  }

  attach(c) {
    this.conn = c;
    c.table = this.table;
    c.onClose = () => { if (this.conn === c && this.active && this.auto) this.cutOff('connection closed'); };
    this.lastPong = Date.now();
  }

  cutOff(why, elsewhere = false) {
    if (this.reconnecting) return;
    this.reconnecting = true;
    this.problems.push(`${stamp()} ${why}`);
    this.reconnect(elsewhere).finally(() => { this.reconnecting = false; });
  }

  // One step of the person's life: a ping as the page's keep-alive (no pong within 4 s: cut off),
  // a move when it is its turn, a reconnection when the table is frozen for too long.
  async tick() {
    if (!this.conn || this.reconnecting || !this.active) return;
    const c = this.conn;
    if (Date.now() - this.lastPong > 4000) return this.cutOff('no pong for 4 s');
    if (!this.pinging && Date.now() - (this.pingedAt || 0) > 1000) {
      this.pinging = true;
      this.pingedAt = Date.now();
      c.wait((m) => m.type === 'pong', 'pong', 3000).then(() => { this.lastPong = Date.now(); }, () => {}).finally(() => { this.pinging = false; });
      try { c.send({ type: 'ping' }); } catch (e) { /* closing */ }
    }
    const st = this.lastState;
    if (!st || st.status !== 'playing' || !this.seatToken) return;
    const legal = st.game.legal || [];
    if (!legal.length) {
      if (Date.now() - this.lastStateAt > 15000) { this.lastStateAt = Date.now(); this.cutOff('no state for 15 s while playing', true); }
      return;
    }
    if (this.moving === st || this.busy) return;
    this.moving = st;
    this.busy = true;
    try { await this.move(c, st, legal); } finally { this.busy = false; }
  }

  // Plays a random legal move after a short thought, and takes a refusal as a person would.
  async move(c, st, legal) {
    await sleep(this.r.int(0, 120));
    if (this.lastState !== st || this.conn !== c) return;
    const answer = c.wait((m) => m.type === 'error' || (m.type === 'state' && m.game && m.game.history !== st.game.history), 'the answer to a move', 6000);
    try { c.send({ type: 'move', table: this.table, move: this.r.pick(legal) }); } catch (e) { return; }
    const got = await answer.catch((e) => ({ type: 'error', error: e.message }));
    if (got.type === 'error') {
      this.problems.push(`${stamp()} move refused: ${got.error}`);
      this.moving = null;
      // a browser shows the reason; the person tries again later, on a new connection when told
      // the table is elsewhere or when nothing answered
      if (/another server|not answering|within/.test(got.error)) this.cutOff('move: ' + got.error, true);
      else await sleep(500);
    }
  }

  close() { this.active = false; if (this.conn) { this.conn.onClose = null; this.conn.close(); } }
}

// A table of the run: its people (2 to 4, computer players in the other seats) and a watcher.
class Table {
  constructor(cluster, r, index) {
    this.cluster = cluster;
    this.r = r;
    this.index = index;
    this.people = [];
    this.watchers = [];
    this.ids = []; // the tables played, one after another
    this.all = []; // every person and watcher of every table of the run
    this.tokens = {}; // table id -> its seat tokens
  }

  // Creates a table on the first person's connection, seats everyone, starts it; then a watcher.
  async start() {
    const r = this.r, cl = this.cluster, nodes = Object.keys(cl.nodes);
    const game = this.ids.length;
    const count = r.int(2, 4);
    const order = [0, 1, 2, 3].sort(() => r() - 0.5);
    const host = this.people[0] || new Person(cl, `t${this.index}p0`, r.pick(['proxy', ...nodes]), r);
    const people = [host];
    for (let i = 1; i < count; i++) people.push(new Person(cl, `t${this.index}g${game}p${i}`, r.pick(['proxy', ...nodes]), r));
    let id = null;
    try {
      for (const p of people) { if (p.conn) { p.conn.onClose = null; p.conn.close(); } p.conn = await p.connect(cl.url(p.entry)); p.seatToken = null; }
      id = (await host.conn.request({ type: 'create', rules: '' }, 'created')).table;
      for (let i = 0; i < people.length; i++) {
        const seated = await people[i].conn.request({ type: 'sit', table: id, seat: order[i] }, 'seated');
        Object.assign(people[i], { seatToken: seated.seat_token, table: id, seat: order[i] });
      }
      for (let i = people.length; i < 4; i++) await host.conn.request({ type: 'bot', table: id, seat: order[i], level: r.pick(['random', 'rules']) }, 'state');
      await host.conn.request({ type: 'start', table: id }, 'state');
    } catch (e) {
      for (const p of people) if (p !== host && p.conn) { p.conn.onClose = null; p.conn.close(); }
      throw new Error(`${id ? `table ${id}` : 'a table'} not started: ${e.message}`);
    }
    for (const p of this.people) if (!people.includes(p)) p.close();
    for (const p of this.watchers) p.close();
    this.people = people;
    this.ids.push(id);
    this.tokens[id] = people.map((p) => p.seatToken);
    for (const p of people) { p.tokens.add(p.seatToken); p.attach(p.conn); if (!this.all.includes(p)) this.all.push(p); }
    this.watchers = [];
    const w = new Person(cl, `t${this.index}g${game}w`, r.pick(['proxy', ...nodes]), r);
    w.table = id;
    try {
      w.conn = await w.connect(cl.url(w.entry));
      await w.conn.request({ type: 'watch', table: id }, 'state');
      w.attach(w.conn);
      this.watchers = [w];
      this.all.push(w);
    } catch (e) { cl.note(`table ${id}: no watcher: ${e.message}`); }
    cl.note(`table ${id} (${people.length} people) started at ${host.entry}`);
    return id;
  }

  everyone() { return [...this.people, ...this.watchers]; }
  over() { return this.people.every((p) => p.lastState && p.lastState.status === 'over' && p.lastState.table === this.ids[this.ids.length - 1]); }
}

// ---------------------------------------------------------------------------------------------
// The faults. Each takes the cluster and the generator, does its harm, waits and mends it.
const FAULTS = {
  async pause(cl, r) {
    const n = r.pick(cl.live());
    if (!n) return;
    cl.pause(n);
    await sleep(cl.lease * 1000 * (1.3 + r()));
    cl.resume(n);
  },
  // the paused owner woken, then the server that took its tables over killed (issue 45's first
  // case): the woken one may take them back
  async 'pause-kill'(cl, r) {
    const n = r.pick(cl.live());
    if (!n) return;
    cl.pause(n);
    await sleep(cl.lease * 1000 * (1.3 + r()));
    cl.resume(n);
    await sleep(r.int(200, 1500));
    const other = r.pick(cl.live().filter((x) => x !== n));
    if (!other) return;
    await cl.killNode(other);
    await sleep(cl.lease * 1000 * (1.2 + r()));
    await cl.restartNode(other);
  },
  async kill(cl, r) {
    const n = r.pick(cl.live());
    if (!n) return;
    await cl.killNode(n);
    await sleep(r.int(500, cl.lease * 1500));
    await cl.restartNode(n);
  },
  async 'pg-outage'(cl, r) {
    cl.stopPg();
    cl.note('PostgreSQL stopped');
    await sleep(cl.lease * 1000 * (1.3 + r()));
    cl.startPg();
    cl.note('PostgreSQL started');
  },
  async 'pg-restart'(cl) {
    cl.stopPg();
    cl.startPg();
    cl.note('PostgreSQL restarted');
  },
  async 'nats-outage'(cl, r) {
    await cl.stopNats();
    cl.note('nats-server stopped');
    await sleep(r.int(1000, 6000));
    await cl.startNats();
    cl.note('nats-server started');
  },
  async 'proxy-kill'(cl, r) {
    cl.killProxy();
    await sleep(r.int(200, 2000));
    cl.restartProxy();
  },
  async clock(cl, r) {
    const n = r.pick(cl.live());
    if (!n) return;
    cl.clock(n, r.pick([-1, 1]) * r.int(cl.lease, cl.lease * 10));
    await sleep(r.int(2000, cl.lease * 3000));
    cl.clock(n, 0);
  },
  async duplicate(cl, r) {
    const n = r.pick(cl.live());
    if (!n) return;
    const dup = await cl.startDuplicate(n);
    if (!dup) return;
    await sleep(cl.lease * 1000 * 2);
    const h = await httpGet(dup.port, '/healthz').catch((e) => ({ status: 0, body: e.message }));
    const first = await cl.health(n);
    cl.note(`the second ${n}: /healthz ${h.status} ${h.body.split('\n')[0]}; the first: ${first.status}`);
    await cl.kill(dup.proc);
    cl.extra = cl.extra.filter((d) => d !== dup);
    cl.note(`the second ${n} killed`);
  },
};

// ---------------------------------------------------------------------------------------------
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
      for (const t of tables) if (t.over() && !t.starting) {
        t.starting = true;
        t.start().catch((e) => cl.note(`table ${t.index} could not start a new game: ${e.message}`)).finally(() => { t.starting = false; });
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
  // every game goes on to its end: the people stay, reconnect when cut off, and play
  const deadline = Date.now() + opts.finishSeconds * 1000;
  while (Date.now() < deadline && !tables.every((t) => t.over())) await sleep(200);
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

// ---------------------------------------------------------------------------------------------
// The invariant checker: what the clients were shown against what the database holds.
function check(cl, tables, opts = {}) {
  const violations = [];
  const bad = (kind, text) => violations.push(`${kind}: ${text}`);
  // 1. the audit trigger
  const audit = cl.rows('SELECT what, table_id, old, new FROM chaos_audit ORDER BY at');
  const rewrites = audit.filter((a) => a.what === 'stored move written again');
  const epochs = cl.hasColumn('moves', 'epoch') && cl.hasColumn('moves', 'node');
  for (const a of audit) {
    if (a.what === 'stored move written again') continue; // the same move sent again by its writer
    bad(a.what, `table ${a.table_id}: ${a.old} -> ${a.new}`);
  }
  // 2. two servers writing one table in one epoch
  if (epochs) {
    for (const row of cl.rows('SELECT table_id, epoch, string_agg(DISTINCT node, \',\') AS nodes FROM moves GROUP BY table_id, epoch HAVING count(DISTINCT node) > 1')) {
      bad('two servers in one epoch', `table ${row.table_id} epoch ${row.epoch}: ${row.nodes}`);
    }
    // a move of an older epoch stored after one of a newer: a fenced-out server still wrote
    for (const row of cl.rows('SELECT a.table_id, a.seq, a.epoch, b.seq AS later, b.epoch AS older FROM moves a JOIN moves b ON b.table_id = a.table_id AND b.seq > a.seq AND b.epoch < a.epoch ORDER BY 1, 2 LIMIT 20')) {
      bad('an older epoch wrote after a newer', `table ${row.table_id}: move ${row.seq} in epoch ${row.epoch}, move ${row.later} in epoch ${row.older}`);
    }
  }
  // 3. games stored or ended twice
  const games = cl.rows('SELECT id, table_id, ended, record FROM games ORDER BY id');
  const byTable = {};
  for (const g of games) (byTable[g.table_id] = byTable[g.table_id] || []).push(g);
  for (const [id, list] of Object.entries(byTable)) {
    if (list.length > 1) bad('game stored twice', `table ${id}: games ${list.map((g) => `${g.id} (${g.ended || 'finished'})`).join(', ')}`);
  }
  for (const t of cl.rows("SELECT t.id FROM tables t WHERE t.ended = 'abandoned' AND EXISTS (SELECT 1 FROM games g WHERE g.table_id = t.id AND g.ended IS NULL)")) {
    bad('game ended twice', `table ${t.id} is marked abandoned, yet its game was finished`);
  }
  // 4. every stored record replays
  for (const g of games) {
    const rec = JSON.parse(g.record);
    const res = replayCheck(cl.goita, rec);
    if (!/^ok/.test(res)) bad('record does not replay', `game ${g.id} (table ${g.table_id}): ${res}`);
  }
  // 5. every move a client was shown is in the final record at its place
  const finals = {};
  for (const [id, list] of Object.entries(byTable)) finals[id] = JSON.parse((list.find((g) => !g.ended) || list[list.length - 1]).record);
  let compared = 0;
  const missing = {};
  for (const s of cl.shown) {
    const rec = finals[s.table];
    if (!rec) continue;
    const mine = s.history.split(','), round = rec.rounds[s.round - 1];
    compared++;
    const where = `table ${s.table} round ${s.round}`;
    if (!round) { (missing[where] = missing[where] || []).push(`${s.who} was shown round ${s.round}, the record has ${rec.rounds.length}`); continue; }
    const theirs = round.history.split(',');
    for (let i = 0; i < mine.length; i++) {
      const a = (mine[i] || '').replace(/9/g, '8'), b = (theirs[i] || '').replace(/9/g, '8');
      // a hand: the pieces shown are among those dealt (a writer sorts them); the dealer token:
      // its 5-pawn decisions are written differently by a view and a record; a move: x hides a piece
      const same = i < 4 ? a.length === b.length && within(a.replace(/x/g, ''), b)
        : i === 4 ? a.split('+')[0] === b.split('+')[0]
          : a.length === b.length && [...a].every((ch, k) => ch === 'x' || ch === b[k]);
      if (!same) {
        (missing[where] = missing[where] || []).push(`${s.who} (${s.seat < 0 ? "watching" : `seat ${s.seat + 1}`}, via ${s.via}) was shown ${i < 4 ? 'hand' : 'move'} ${i < 4 ? i + 1 : i - 3} "${mine[i]}", the record has "${theirs[i] || 'nothing'}"`);
        break;
      }
    }
    if (s.game_id && !(byTable[s.table] || []).some((g) => Number(g.id) === Number(s.game_id))) {
      (missing[where] = missing[where] || []).push(`${s.who} was shown game ${s.game_id}, stored as ${(byTable[s.table] || []).map((g) => g.id).join(',') || 'none'}`);
    }
  }
  for (const [where, list] of Object.entries(missing)) bad('shown state not in the record', `${where}: ${list.length} states, e.g. ${list[0]}`);
  // 6. the hidden-information scan of every message of every client
  const { scanHidden } = require('./client');
  for (const t of tables) for (const id of t.ids) {
    const rec = finals[id];
    if (!rec) continue;
    const deals = rec.rounds.map((x) => x.history.split(',').slice(0, 4));
    const tokens = (t.tokens && t.tokens[id]) || t.people.filter((p) => p.table === id).map((p) => p.seatToken);
    for (const p of t.all || t.everyone()) {
      const own = { name: p.name, player: p.player, received: p.received.filter((m) => m.table === undefined ? m.type !== 'state' : m.table === id) };
      try { scanHidden(own, tokens.filter((x) => x !== p.seatToken && !(p.tokens && p.tokens.has(x))), deals); } catch (e) { bad('hidden piece shown', e.message.slice(0, 400)); }
    }
  }
  // 7. every game finished (or left resumable: then it is one of `unfinished`)
  for (const id of opts.unfinished || []) bad('game neither finished nor played out', `table ${id}`);
  return { violations, compared, games: games.length, rewrites: rewrites.length, problems: tables.flatMap((t) => (t.all || t.everyone()).flatMap((p) => p.problems.map((x) => `${p.name}: ${x}`))) };
}

module.exports = { Cluster, Person, Table, FAULTS, check, rng, sleep };

// ---------------------------------------------------------------------------------------------
if (require.main === module) {
  const argv = process.argv.slice(2);
  const cases = require('./chaos-cases');
  const opt = (name, fallback) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : fallback; };
  const mode = argv[0];
  const dirOf = () => { const d = opt('--dir', null) || fs.mkdtempSync(path.join(os.tmpdir(), 'goita-chaos-')); fs.mkdirSync(d, { recursive: true }); return path.resolve(d); };
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
      const names = argv[1] === 'all' ? Object.keys(cases.CASES) : [argv[1]];
      const goita = argv[2];
      let failed = 0;
      for (const name of names) {
        if (!cases.CASES[name]) { console.error(`chaos: no case ${name} (${Object.keys(cases.CASES).join(', ')})`); process.exit(2); }
        const dir = path.join(dirOf(), name);
        fs.mkdirSync(dir, { recursive: true });
        const t0 = Date.now();
        const found = await cases.runCase(name, goita, dir).catch((e) => [`the case broke: ${e.stack || e}`]);
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
