// The named cases of the fault-injection harness (tests/e2e/chaos.js case NAME GOITA): each
// broken case of issue 45 as a fixed schedule, deterministic but for the servers' own timing.
// A case resolves with what it found wrong (an empty list when the bug is absent).
'use strict';
const { Cluster, rng, sleep } = require('./chaos-cluster');
const { Person } = require('./chaos-people');
const { check } = require('./chaos-check');
const { Client, httpGet } = require('./client');
const { spawn } = require('child_process');

// A person of a case, connected to `node` ('proxy' or a server's name), who does not reconnect by
// itself: the case moves it.
async function person(cl, name, node) {
  const p = new Person(cl, name, node, rng([...name].reduce((h, ch) => h * 31 + ch.charCodeAt(0), 7)));
  p.auto = false;
  p.conn = await p.connect(cl.url(node));
  return p;
}

// A table made by people[0] on its connection: people at seats 0.., computer players (level
// rules) in the others, started; resolves with its id.
async function table(cl, people, start = true) {
  const id = (await people[0].conn.request({ type: 'create', rules: '' }, 'created')).table;
  for (let s = 0; s < people.length; s++) {
    const seated = await people[s].conn.request({ type: 'sit', table: id, seat: s }, 'seated');
    Object.assign(people[s], { seatToken: seated.seat_token, table: id, seat: s });
    people[s].attach(people[s].conn);
  }
  for (let s = people.length; s < 4; s++) await people[0].conn.request({ type: 'bot', table: id, seat: s, level: 'rules' }, 'state');
  if (!start) return id;
  people[0].conn.send({ type: 'start', table: id });
  await until(() => people.every((p) => p.lastState && p.lastState.status === 'playing'), 5000, 'the game started');
  return id;
}

async function until(test, ms, what) {
  const start = Date.now();
  while (!(await test())) {
    if (Date.now() - start > ms) throw new Error(`no ${what} within ${ms} ms`);
    await sleep(50);
  }
  return Date.now() - start;
}

const progress = (p) => (p.lastState && p.lastState.game ? `${p.lastState.game.round}:${p.lastState.game.log.length}:${p.lastState.status}` : '');

// Plays n moves (each by the person to move; computers move by themselves), each seen by every
// person; resolves with the number played (fewer when the game ended or a move was refused).
async function play(people, n, note, choose = (p, legal) => p.r.pick(legal)) {
  for (let i = 0; i < n; i++) {
    let mover = null;
    await until(() => people[0].lastState.status === 'over' || (mover = people.find((p) => p.lastState && (p.lastState.game.legal || []).length)), 8000, 'a person to move');
    if (people[0].lastState.status === 'over') return i;
    const st = mover.lastState;
    const answer = mover.conn.wait((m) => m.type === 'error' || (m.type === 'state' && m.game && m.game.history !== st.game.history), 'the answer to a move', 8000);
    mover.conn.send({ type: 'move', table: mover.table, move: choose(mover, st.game.legal) });
    const got = await answer;
    if (got.type === 'error') { if (note) note(`${mover.name}'s move refused: ${got.error}`); return i; }
    const now = progress(mover);
    await until(() => people.every((p) => progress(p) === now || (p.lastState && p.lastState.status === 'over')), 8000, 'a move seen by everyone').catch(() => {});
  }
  return n;
}

// Every person leaves its connection and resumes its seat at `node`, within ms.
async function moveTo(people, node, ms = 15000) {
  for (const p of people) {
    p.entry = node;
    if (p.conn) { p.conn.onClose = null; p.conn.close(); p.conn = null; }
    const start = Date.now();
    for (;;) {
      try {
        const c = await p.connect(p.cluster.url(node));
        const msg = p.seatToken ? { type: 'resume', seat_token: p.seatToken } : { type: 'watch', table: p.table };
        await c.request(msg, p.seatToken ? 'seated' : 'state');
        p.attach(c);
        break;
      } catch (e) {
        if (Date.now() - start > ms) throw new Error(`${p.name} could not come back at ${node}: ${e.message}`);
        await sleep(300);
      }
    }
  }
  await until(() => people.every((p) => p.lastState && p.lastState.game), 5000, 'a state for everyone');
}

// A PostgreSQL session of the harness's own holding `LOCK TABLE name IN EXCLUSIVE MODE`: writes
// to that table wait until release() ends it.
async function holdLock(cl, name) {
  const psql = spawn('psql', [cl.db, '-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1'], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  psql.stdout.on('data', (d) => { out += d; });
  const exited = new Promise((resolve) => psql.on('exit', resolve));
  psql.stdin.write(`BEGIN; LOCK TABLE ${name} IN EXCLUSIVE MODE; SELECT 'locked';\n`);
  await until(() => out.includes('locked'), 5000, `the lock on ${name}`);
  return { release: () => { psql.stdin.end('ROLLBACK;\n'); return exited; } };
}

// The longest a hello to `node` took to be answered while test() was false, probed every 250 ms.
async function slowestAnswer(cl, node, test, ms, what) {
  let slowest = 0;
  await until(async () => {
    const probe = new Client(cl.url(node), 'probe'), start = Date.now();
    await probe.open(ms);
    const welcome = probe.wait((m) => m.type === 'welcome', 'a welcome', ms);
    probe.send({ type: 'hello', name: 'probe' });
    await welcome;
    probe.close();
    slowest = Math.max(slowest, Date.now() - start);
    await sleep(200);
    return test();
  }, ms, what);
  return slowest;
}

const ownerIs = (cl, id, want, ms) => until(() => cl.owner(id) === want, ms, `table ${id} owned by ${want}`);

// Heals, lets every game go on to its end at whichever server serves it, and runs the checker.
async function finish(cl, tables, people) {
  await cl.heal();
  await cl.untilHealthy(Object.keys(cl.nodes), 20000);
  await sleep(cl.lease * 1000 + 1000);
  for (const p of people) { p.auto = true; if (!p.conn || p.conn.closed) p.cutOff('healing'); }
  const deadline = Date.now() + 45000;
  while (Date.now() < deadline && !people.every((p) => p.lastState && p.lastState.status === 'over')) {
    for (const p of people) p.tick().catch(() => {});
    await sleep(50);
  }
  const ids = tables.flatMap((t) => t.ids);
  const unfinished = cl.rows(`SELECT id FROM tables WHERE status != 2 AND id IN (${ids.join(',')}) ORDER BY id`).map((x) => x.id);
  return check(cl, tables, { unfinished }).violations;
}

const group = (ids, people, watchers = []) => ({ ids, people, watchers, everyone: () => [...people, ...watchers] });

const CASES = {
  // (1) The owner paused past its lease, woken, then the server that took its table over killed:
  // the woken one takes the table back with its stale copy and writes over the stored moves.
  async 'paused-owner-rewrites'(cl, found) {
    await cl.up(2);
    const people = [];
    for (let s = 0; s < 4; s++) people.push(await person(cl, `P${s + 1}`, 'n1'));
    const id = await table(cl, people);
    const watcher = await person(cl, 'W', 'n2');
    watcher.table = id;
    await watcher.conn.request({ type: 'watch', table: id }, 'state');
    watcher.attach(watcher.conn);
    cl.note(`${await play(people, 10)} moves at n1`);
    cl.pause('n1');
    await ownerIs(cl, id, 'n2', cl.lease * 3000 + 3000);
    cl.note(`table ${id} taken over by n2`);
    await moveTo(people, 'n2');
    // (the first legal move here, the last one at n1 after: the two copies of the game part)
    cl.note(`${await play(people, 8, (x) => found.push(x), (p, legal) => legal[0])} moves at n2`);
    cl.resume('n1');
    await sleep(1000);
    await cl.killNode('n2');
    await ownerIs(cl, id, 'n1', cl.lease * 3000 + 3000);
    cl.note(`table ${id} back at n1`);
    await moveTo(people, 'n1');
    cl.note(`${await play(people, 8, (x) => cl.note(x), (p, legal) => legal[legal.length - 1])} moves at n1 again`);
    found.push(...await finish(cl, [group([id], people, [watcher])], [...people, watcher]));
  },

  // (2) The woken owner's abandon path: its players went to the server that took the table
  // over and finished the game there; the woken server sees them gone and ends the game again
  // as abandoned (a second games row, tables.ended = 'abandoned').
  async 'paused-owner-phantom-end'(cl, found) {
    cl.serveArgs.push('--seat-grace', '1');
    await cl.up(2);
    const people = [];
    for (let s = 0; s < 4; s++) people.push(await person(cl, `P${s + 1}`, 'n1'));
    const id = await table(cl, people);
    await play(people, 6);
    cl.pause('n1');
    await ownerIs(cl, id, 'n2', cl.lease * 3000 + 3000);
    await moveTo(people, 'n2');
    for (let i = 0; i < 40 && await play(people, 50); i++) { /* to the end, at n2 */ }
    await until(() => people.every((p) => p.lastState.status === 'over'), 10000, 'the game over at n2');
    cl.note(`table ${id} finished at n2 (game ${people[0].lastState.game_id})`);
    cl.resume('n1');
    await sleep(cl.lease * 1000 + 4000); // n1's seat grace (1 s) and a tick or two
    found.push(...await finish(cl, [group([id], people)], people));
  },

  // (3) A server that lost a table keeps serving it: its clients stay, frozen, its lobby keeps
  // the row, its /healthz stays 503.
  async 'lost-table-kept'(cl, found) {
    await cl.up(2);
    const people = [await person(cl, 'P1', 'n1'), await person(cl, 'P2', 'n1')];
    const id = await table(cl, people);
    const watcher = await person(cl, 'W', 'n1');
    watcher.table = id;
    await watcher.conn.request({ type: 'watch', table: id }, 'state');
    watcher.attach(watcher.conn);
    await play(people, 6);
    const tablesBefore = await metric(cl, 'n1', 'goita_tables');
    cl.pause('n1');
    await ownerIs(cl, id, 'n2', cl.lease * 3000 + 3000);
    // the two people come back on other devices at n2 (their first connections stay at n1) and
    // play on there with the computers, so that n1's copy is behind
    const devices = [];
    for (const p of people) {
      const d = await person(cl, `${p.name}'`, 'n2');
      Object.assign(d, { seatToken: p.seatToken, table: id, seat: p.seat });
      d.player = p.player;
      d.conn.close();
      d.conn = await d.connect(cl.url('n2'));
      await d.conn.request({ type: 'resume', seat_token: d.seatToken }, 'seated');
      d.attach(d.conn);
      devices.push(d);
    }
    await until(() => devices.every((d) => d.lastState && d.lastState.game), 5000, 'the devices at n2 given the table');
    cl.note(`${await play(devices, 3, (x) => cl.note(x))} moves at n2 by the people's other devices`);
    for (const d of devices) d.close();
    const woke = Date.now();
    const heard = [...people, watcher].map((p) => p.received.length);
    cl.resume('n1');
    await sleep(cl.lease * 2000 + 1000);
    // the owner's state, as a watcher at n2 sees it
    const probe = new Client(cl.url('n2'), 'probe');
    await probe.open(2000);
    await probe.request({ type: 'hello', name: 'probe' }, 'welcome');
    const truth = await probe.request({ type: 'watch', table: id }, 'state');
    probe.close();
    [...people, watcher].forEach((p, i) => {
      const later = p.received.slice(heard[i]);
      const told = later.some((m) => m.type === 'error' || m.type === 'seated' || m.type === 'moved') || p.conn.closed;
      const same = p.lastState && p.lastState.game && p.lastState.game.round === truth.game.round && p.lastState.game.log.length === truth.game.log.length;
      if (!told && !same) found.push(`${p.name}, at n1, was left at round ${p.lastState.game.round} move ${p.lastState.game.log.length} with no word, while the table is at round ${truth.game.round} move ${truth.game.log.length} at n2 (${Math.round((Date.now() - woke) / 1000)} s after n1 woke)`);
    });
    // a resume at n1 is served from n1's copy, or sent to the owner
    const answer = await people[0].conn.request({ type: 'resume', seat_token: people[0].seatToken }, 'seated').then(() => sleep(500).then(() => people[0].lastState), (e) => e);
    if (!(answer instanceof Error) && answer.game && (answer.game.log.length !== truth.game.log.length || answer.game.round !== truth.game.round)) {
      found.push(`n1 answered a resume of table ${id} from its stale copy (round ${answer.game.round} move ${answer.game.log.length}, the owner is at round ${truth.game.round} move ${truth.game.log.length})`);
    }
    const tablesAfter = await metric(cl, 'n1', 'goita_tables');
    if (tablesAfter >= tablesBefore) found.push(`n1 still counts table ${id} as its own (goita_tables ${tablesBefore} before, ${tablesAfter} after losing it)`);
    const lobby = new Client(cl.url('n1'), 'lobby');
    await lobby.open(2000);
    await lobby.request({ type: 'hello', name: 'lobby' }, 'welcome');
    const page = await lobby.request({ type: 'list' }, 'tables');
    lobby.close();
    const rows = page.tables.filter((t) => t.id === id);
    if (rows.length > 1) found.push(`n1's lobby lists table ${id} ${rows.length} times`);
    const errors1 = await metric(cl, 'n1', 'goita_store_errors_total');
    await sleep(3000);
    const errors2 = await metric(cl, 'n1', 'goita_store_errors_total');
    if (errors2 > errors1) found.push(`n1 keeps failing database calls (${errors2 - errors1} in 3 s: computer players retrying a refused move?)`);
    const health = await cl.health('n1');
    if (health.status !== 200) found.push(`n1's /healthz is ${health.status} ${JSON.stringify(health.body)} ${Math.round((Date.now() - woke) / 1000)} s after it woke`);
    found.push(...await finish(cl, [group([id], people, [watcher])], [...people, watcher]));
  },

  // (3b) The owner paused inside a transaction: its save of the game's start has locked the
  // table's row and waits for the seats (held by the harness), and n1 is paused there; the lock
  // let go, the save's statement ends and its commit is never sent. The takeover must not wait
  // for n1 to wake (issue: n2's claim waited for the row lock, and n2's loop with it).
  async 'paused-mid-transaction'(cl, found) {
    await cl.up(2);
    const people = [await person(cl, 'P1', 'n1'), await person(cl, 'P2', 'n1')];
    const id = await table(cl, people, false);
    const lock = await holdLock(cl, 'seats');
    people[0].conn.send({ type: 'start', table: id });
    await until(() => cl.psql("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO seats%'") !== '0',
      5000, "n1's save waiting for the seats");
    cl.pause('n1');
    await lock.release();
    const paused = Date.now();
    cl.note('n1 paused in a transaction: the table\'s row locked, its commit not sent');
    const bound = cl.lease * 3000 + 3000;
    const slowest = await slowestAnswer(cl, 'n2', () => cl.owner(id) === 'n2', bound, `table ${id} owned by n2`).catch((e) => { found.push(`${e.message} (n1 paused holding its row)`); return -1; });
    if (slowest < 0) { cl.resume('n1'); return; }
    cl.note(`table ${id} taken over by n2 ${Date.now() - paused} ms after n1 paused; n2 answered a hello in ${slowest} ms at most meanwhile`);
    if (slowest > 2000) found.push(`n2 took ${slowest} ms to answer a hello while n1 was paused holding table ${id}'s row`);
    // the start was not committed: the table waits at n2, and is started there
    for (const p of people) {
      p.conn.onClose = null;
      p.conn.close();
      p.entry = 'n2';
      p.conn = await p.connect(cl.url('n2'));
      await p.conn.request({ type: 'resume', seat_token: p.seatToken }, 'seated');
      p.attach(p.conn);
    }
    people[0].conn.send({ type: 'start', table: id });
    await until(() => people.every((p) => p.lastState && p.lastState.status === 'playing'), 5000, 'the game started at n2');
    cl.note(`${await play(people, 4)} moves at n2`);
    cl.resume('n1');
    found.push(...await finish(cl, [group([id], people)], people));
  },

  // (4) PostgreSQL away longer than the lease: when it is back, the first server to renew claims
  // the tables of the other live servers.
  async 'db-outage-steals'(cl, found) {
    await cl.up(3);
    const owners = {}, people = [];
    for (const n of ['n1', 'n2', 'n3']) {
      const p = await person(cl, `P${n}`, n);
      const id = await table(cl, [p]);
      owners[id] = n;
      people.push(p);
    }
    for (const id of Object.keys(owners)) if (cl.owner(id) !== owners[id]) throw new Error(`table ${id} is not ${owners[id]}'s to begin with`);
    cl.stopPg();
    cl.note('PostgreSQL stopped');
    await sleep(cl.lease * 2500);
    cl.startPg();
    cl.note('PostgreSQL started');
    await sleep(cl.lease * 2000 + 1000);
    for (const [id, n] of Object.entries(owners)) {
      const now = cl.owner(id);
      if (now !== n) found.push(`table ${id} of ${n} (alive all along) was claimed by ${now} after the database came back`);
    }
    found.push(...await finish(cl, [group(Object.keys(owners).map(Number), people)], people));
  },

  // (5) A second server under a live server's name: both start and both say they are healthy.
  async 'duplicate-node'(cl, found) {
    await cl.up(2);
    const dup = await cl.startDuplicate('n1');
    if (!dup) return;
    await sleep(cl.lease * 2000);
    const first = await cl.health('n1');
    const second = await httpGet(dup.port, '/healthz').catch((e) => ({ status: 0, body: e.message }));
    if (first.status === 200 && second.status === 200) found.push(`two servers named n1 (ports ${cl.nodes.n1.port} and ${dup.port}) both answer /healthz 200 after ${cl.lease * 2} s`);
  },

  // (6) A request forwarded to a server that dies gets an answer (a reply or an error) within a
  // bounded time: two leases and two seconds.
  async 'forward-to-dead'(cl, found) {
    await cl.up(2);
    const host = await person(cl, 'P1', 'n1');
    const people = [host, await person(cl, 'P2', 'n2')];
    const id = await table(cl, people);
    // P1 (at n1) plays its turns, the computers theirs, until P2 (forwarded through n2) is to move
    await until(() => {
      const mine = people[0].lastState;
      if ((mine.game.legal || []).length && people[0].moving !== mine) {
        people[0].moving = mine;
        people[0].conn.send({ type: 'move', table: id, move: mine.game.legal[0] });
      }
      return people[1].lastState && (people[1].lastState.game.legal || []).length;
    }, 30000, 'P2 (forwarded, at n2) to move');
    cl.pause('n1');
    const p = people[1], st = p.lastState, sent = Date.now();
    // an answer: an error, or a state with one more move (a state of the new owner without it,
    // when it takes the table over and seats the client again, answers nothing)
    const answer = p.conn.wait((m) => m.type === 'error' || (m.type === 'state' && m.game && m.game.log.length > st.game.log.length), 'an answer', 20000);
    const move = st.game.legal[0];
    p.conn.send({ type: 'move', table: id, move });
    await sleep(300);
    await cl.killNode('n1');
    const bound = cl.lease * 2000 + 2000;
    const got = await answer.then((m) => m, () => null);
    const ms = Date.now() - sent;
    if (!got) found.push(`a move forwarded by n2 to n1, which died, got no answer in 20 s`);
    else if (got.type === 'state' && got.game.log[st.game.log.length] !== move) found.push(`a move forwarded by n2 to n1, which died, was dropped with no word: the next state has ${got.game.log[st.game.log.length]} at its place (${ms} ms)`);
    else if (ms > bound) found.push(`a move forwarded by n2 to n1, which died, was answered after ${ms} ms (bound ${bound} ms): ${got.error || got.type}`);
    else cl.note(`the forwarded move was answered in ${ms} ms: ${got.error || got.type}`);
  },
};

async function metric(cl, node, name) {
  const body = (await httpGet(cl.nodes[node].port, '/metrics')).body;
  const m = body.match(new RegExp(`^${name} (\\S+)$`, 'm'));
  return m ? Number(m[1]) : NaN;
}

// Runs case `name` in its own cluster in dir; resolves with what it found wrong.
async function runCase(name, goita, dir) {
  const cl = new Cluster(goita, dir, { lease: 3 });
  const found = [];
  try {
    await CASES[name](cl, found);
  } finally {
    await cl.down();
  }
  return found;
}

module.exports = { CASES, runCase };
