// The scripted people and watchers of the fault-injection harness (tests/e2e/chaos.js), and the
// tables they play: they reconnect with their seat tokens as the browser page does when cut off.
'use strict';
const fs = require('fs');
const path = require('path');
const { Client } = require('./client');
const { sleep, stamp } = require('./chaos-cluster');

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
    // the server lost the table to another: as the browser page, ask again on the same connection
    if (msg.type === 'moved' && msg.table === this.table && this.auto) this.returnToTable();
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
      sleep(3000).then(() => { throw new Error('no welcome'); })]).catch((e) => { c.close(); throw e; });
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
      let c = null;
      try {
        c = await this.connect(this.cluster.url(where));
        const msg = this.seatToken ? { type: 'resume', seat_token: this.seatToken } : { type: 'watch', table: this.table };
        await Promise.race([c.request(msg, this.seatToken ? 'seated' : 'state'), sleep(4000).then(() => { throw new Error('no answer to ' + msg.type); })]);
        this.attach(c);
        return true;
      } catch (e) {
        if (c) c.close();
        this.lastError = e.message;
        await sleep(300 + this.r.int(0, 700));
      }
    }
    return false;
  }

  // Asks for its seat (or its watch) again on the connection it has, as the page does on `moved`.
  async returnToTable() {
    const c = this.conn;
    if (!c || this.reconnecting) return;
    const msg = this.seatToken ? { type: 'resume', seat_token: this.seatToken } : { type: 'watch', table: this.table };
    try {
      const answer = c.wait((m) => m.type === (this.seatToken ? 'seated' : 'state') || m.type === 'error', 'the answer to ' + msg.type, 6000);
      c.send(msg);
      const got = await answer;
      if (got.type === 'error') this.cutOff(`${msg.type} after moved: ${got.error}`, true);
    } catch (e) {
      if (this.conn === c) this.cutOff(`${msg.type} after moved: ${e.message}`, true);
    }
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
      // (the answer to start is the table playing: a state broadcast by a seat taken is not, and
      // a start lost in a database outage leaves the table waiting)
      const playing = host.conn.wait((m) => m.type === 'error' || (m.type === 'state' && m.table === id && m.status === 'playing'), 'the start', 10000);
      host.conn.send({ type: 'start', table: id });
      const got = await playing;
      if (got.type === 'error') throw new Error(`start: ${got.error}`);
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

module.exports = { Person, Table };
