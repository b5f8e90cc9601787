// A small goita client over WebSocket for the restart and load tests: JSON messages in, the
// last state kept, replies awaited by type.
'use strict';
const { spawn, execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const http = require('http');
const path = require('path');
const WebSocket = require(path.join(__dirname, '../../tools/e2e/node_modules/ws'));

class Client {
  // headers: extra HTTP headers of the upgrade (X-Forwarded-For, as a proxy would send it).
  constructor(url, name, headers = null) {
    this.url = url;
    this.name = name;
    this.headers = headers;
    this.state = null;
    this.waiters = [];
    this.onState = null;
    this.errors = [];
    this.received = []; // every message, for the hidden-information scans
    this.onClose = null; // called once when the connection is lost or closed
    this.closed = false;
  }

  // Opens the WebSocket; with ms, gives up (and rejects) when the upgrade is not answered in
  // that time (a stopped server accepts the TCP connection and never answers).
  open(ms = 0) {
    return new Promise((resolve, reject) => {
      this.ws = new WebSocket(this.url, 'goita', this.headers ? { headers: this.headers } : {});
      const timer = ms ? setTimeout(() => { reject(new Error(`${this.name}: ${this.url} did not answer within ${ms} ms`)); this.ws.terminate(); }, ms) : null;
      this.ws.on('open', () => { clearTimeout(timer); resolve(); });
      this.ws.on('error', (e) => { clearTimeout(timer); reject(e); });
      this.ws.on('close', () => {
        clearTimeout(timer);
        if (this.closed) return;
        this.closed = true;
        if (this.onClose) this.onClose();
      });
      this.ws.on('message', (data) => this.receive(JSON.parse(data.toString())));
    });
  }

  receive(msg) {
    this.received.push(msg);
    if (msg.type === 'state') {
      this.state = msg;
      if (this.onState) this.onState(msg);
    }
    if (msg.type === 'error') this.errors.push(msg.error);
    for (let i = 0; i < this.waiters.length; i++) {
      const w = this.waiters[i];
      if (w.test(msg)) {
        this.waiters.splice(i, 1);
        w.resolve(msg);
        return;
      }
    }
  }

  send(msg) { this.ws.send(JSON.stringify(msg)); }

  // What this client last received and whether its connection is open: for a timeout's message.
  lastSeen() {
    const game = this.state && this.state.game;
    const state = game ? `last state: ${this.state.status}, round ${game.round}, history "${game.history}", ${game.legal.length} legal` : 'no state';
    const types = this.received.slice(-4).map((m) => m.type).join(', ');
    return `${state}; last messages: ${types || 'none'}; connection ${this.ws && this.ws.readyState === 1 ? 'open' : 'closed'}`;
  }

  // Resolves with the first message (from now on) for which test is true.
  wait(test, what, ms = 10000) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name}: no ${what} within ${ms} ms (errors: ${this.errors.join('; ')}; ${this.lastSeen()})`)), ms);
      this.waiters.push({ test, resolve: (m) => { clearTimeout(timer); resolve(m); } });
    });
  }

  // As wait, for a state: resolves at once when the last state passes the test. ws hands over
  // the messages of one network read together, so a state may arrive before a waiter made
  // after an earlier message of the same read.
  waitState(test, what, ms = 10000) {
    return this.state && test(this.state) ? Promise.resolve(this.state) : this.wait((m) => m.type === 'state' && test(m), what, ms);
  }

  request(msg, type) {
    const reply = this.wait((m) => m.type === type || m.type === 'error', type);
    this.send(msg);
    return reply.then((m) => {
      if (m.type === 'error') throw new Error(`${this.name}: ${JSON.stringify(msg)} -> ${m.error}`);
      return m;
    });
  }

  close() { this.ws.terminate(); }

  legal() { return this.state && this.state.game ? this.state.game.legal : []; }
}

// Four clients at one new table, seated and started; resolves with the table number.
async function startTable(clients, rules = '') {
  const created = await clients[0].request({ type: 'create', rules }, 'created');
  for (let s = 0; s < clients.length; s++) {
    const seated = await clients[s].request({ type: 'sit', table: created.table, seat: s }, 'seated');
    clients[s].seatToken = seated.seat_token;
    clients[s].table = created.table;
  }
  const started = clients.map((c) => c.wait((m) => m.type === 'state' && m.status === 'playing', 'start'));
  clients[0].send({ type: 'start', table: created.table });
  await Promise.all(started);
  return created.table;
}

// Plays n moves, each by whoever's turn it is, waiting for every client to see each one;
// resolves false when the game is over before.
async function play(clients, n) {
  for (let i = 0; i < n; i++) {
    const mover = clients.find((c) => c.legal().length);
    if (!mover) {
      if (clients[0].state.status === 'over') return false;
      await new Promise((r) => setTimeout(r, 20));
      i--;
      continue;
    }
    const legal = mover.legal();
    const got = clients.map(() => false);
    const seen = clients.map((c, i) => {
      const old = c.state.game.history;
      return c.wait((m) => m.type === 'state' && (m.game.history !== old || m.status === 'over'), 'the state after a move')
        .then(() => { got[i] = true; });
    });
    const move = legal[Math.floor(Math.random() * legal.length)];
    mover.send({ type: 'move', table: mover.table, move });
    await Promise.all(seen).catch((e) => {
      const who = clients.filter((c, i) => got[i]).map((c) => c.name).join(', ') || 'nobody';
      throw new Error(`${e.message}; ${mover.name} played ${move}, and ${who} saw the state after it`);
    });
  }
  return true;
}

// New connections for the players of a table (to a restarted server, or another one): each says
// hello with its player token and resumes its seat; resolves with the new clients.
async function reconnect(url, clients, table) {
  const fresh = clients.map((c) => new Client(url, c.name));
  try {
    for (let s = 0; s < clients.length; s++) {
      await fresh[s].open();
      await fresh[s].request({ type: 'hello', player_token: clients[s].player }, 'welcome');
      const st = fresh[s].wait((m) => m.type === 'state', 'the state after resume');
      st.catch(() => {}); // (when the resume is refused, nobody waits for this state any more)
      await fresh[s].request({ type: 'resume', seat_token: clients[s].seatToken }, 'seated');
      await st;
      fresh[s].table = table;
      fresh[s].seatToken = clients[s].seatToken;
      fresh[s].player = clients[s].player;
    }
  } catch (e) {
    for (const c of fresh) if (c.ws) c.close();
    throw e;
  }
  return fresh;
}

// Servers started by startServer, killed when the test exits however it does.
const servers = new Set();
process.on('exit', () => { for (const server of servers) server.kill('SIGKILL'); });

// Starts `goita serve --port PORT --db DB` with the players' rate limits lifted (they move as
// fast as the server answers) and any further arguments; resolves once it listens.
// options: env (the server's environment), log (a file descriptor its output also goes to).
function startServer(goita, port, db, extra = [], options = {}) {
  return new Promise((resolve, reject) => {
    const args = ['serve', '--port', port, '--db', db, '--round-pause', '0', '--rate-per-second', '1000',
      '--rate-burst', '1000', ...extra];
    const server = spawn(goita, args, { stdio: ['ignore', 'pipe', options.log === undefined ? 'inherit' : options.log], env: options.env || process.env });
    servers.add(server);
    server.stdout.on('data', (d) => {
      if (options.log !== undefined) fs.writeSync(options.log, d);
      if (/goita serve: http/.test(d.toString())) resolve(server);
    });
    server.on('exit', (code) => { servers.delete(server); reject(new Error(`the server exited (${code})`)); });
  });
}

// Kills a server with SIGKILL and resolves once it is gone.
function killServer(server) {
  return new Promise((resolve) => {
    server.removeAllListeners('exit');
    server.on('exit', () => { servers.delete(server); resolve(); });
    server.kill('SIGKILL');
  });
}

// GET http://127.0.0.1:PORT/PATH; resolves with { status, body }.
function httpGet(port, urlPath) {
  return new Promise((resolve, reject) => {
    http.get(`http://127.0.0.1:${port}${urlPath}`, (res) => {
      let body = '';
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode, body }));
    }).on('error', reject);
  });
}

// Downloads a finished game's record (GET /records/ID.json) and resolves with it parsed.
async function downloadRecord(port, gameId) {
  const { status, body } = await httpGet(port, `/records/${gameId}.json`);
  if (status !== 200) throw new Error(`HTTP ${status}`);
  return JSON.parse(body);
}

// Runs `goita replay --check` on a record and returns its one line ("ok: ..." or the error).
function replayCheck(goita, record) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'goita-record-'));
  const file = path.join(dir, 'game.json');
  fs.writeFileSync(file, JSON.stringify(record));
  try {
    return execFileSync(goita, ['replay', '--check', file]).toString().trim();
  } catch (e) {
    return (e.stdout || '').toString().trim() + (e.stderr || '').toString().trim();
  } finally {
    fs.rmSync(dir, { recursive: true });
  }
}

// The hidden-information scan of every message a client received (throws at the first leak) (docs/SERVER.md "Hidden
// information"): no other seat's token and no field named like a secret, a spectator has no
// hand, a seat's hand is its own as dealt (the record's deal), no face-down block of another
// seat shown while the round is played, and no piece of another hand in the history string
// that was not dealt to it and shown.
function scanHidden(client, seatTokens, deals) {
  const fail = (why) => { throw new Error(why); };
  for (const msg of client.received) {
    const text = JSON.stringify(msg);
    for (const token of seatTokens) {
      if (text.includes(token) && !(msg.type === 'seated' && msg.seat_token === token)) fail(`${client.name} got a seat token not its own: ${text}`);
    }
    const secret = /"(hands|deal|deals|seed|token|tokens|player_token_hash)":/.exec(text.replace(/"(seat_token|player_token)":/g, ''));
    if (secret) fail(`${client.name} got a field named like a secret (${secret[1]}): ${text}`);
    if (msg.type === 'welcome' && msg.player_token !== client.player) fail(`${client.name} was welcomed with another player's token`);
    if (msg.type !== 'state' || !msg.game) continue;
    const g = msg.game, seat = msg.seat, parts = g.history.split(',');
    if (seat < 0 && g.hand !== undefined) fail(`the spectator ${client.name} got a hand`);
    if (seat >= 0 && g.hand.length !== g.sizes[seat]) fail(`${client.name}'s hand has ${g.hand.length} pieces, its size is ${g.sizes[seat]}`);
    g.rows.forEach((row, x) => {
      if (x === seat || g.phase === 'over') return;
      for (let i = 0; i < row.face_down.length; i++) {
        if (row.face_down[i] === '1' && row.blocks[i] !== '0') fail(`${client.name} sees seat ${x + 1}'s face-down block: ${text}`);
      }
    });
    for (const log of g.log) if (/^\d[1-9]/.test(log) && Number(log[0]) - 1 !== seat && g.phase !== 'over') {
      // a block of another seat written in the open must be a face-up one in its row
      const x = Number(log[0]) - 1;
      if (!g.rows[x].blocks.includes(log[1]) && !g.rows[x].attacks.includes(log[1])) fail(`${client.name} sees ${log} not on the table: ${text}`);
    }
    // the rounds this seat was dealt its hand in (one, unless the same hand came twice)
    const fits = deals.filter((d) => seat < 0 || d[seat] === parts[seat]);
    if (!fits.length) fail(`${client.name}'s hand ${parts[seat]} was dealt in no round of the record`);
    const honest = (deal) => (seat < 0 || within(g.hand, deal[seat])) &&
      deal.every((hand, x) => x === seat || within(parts[x].replace(/x/g, ''), hand));
    if (!fits.some(honest)) fail(`${client.name} was shown a piece not in the hand it names (deals ${JSON.stringify(fits)}): ${text}`);
  }
}
// Whether the pieces of `some` are among those of `all` (kings as 8 in both: a history string
// writes 王 and 玉 alike).
function within(some, all) {
  const left = all.replace(/9/g, '8').split('');
  return some.replace(/9/g, '8').split('').every((p) => { const i = left.indexOf(p); if (i >= 0) left.splice(i, 1); return i >= 0; });
}

module.exports = { Client, scanHidden, within, startTable, play, reconnect, downloadRecord, startServer, killServer, replayCheck, httpGet };
