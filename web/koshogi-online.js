// Ko shogi between people online (koshogi.html, docs/SERVER.md "Ko shogi tables"): the page's
// WebSocket to goita serve, the lobby's Ko shogi tables, a table's game as the server sends it
// (the moves replayed into the page's engine, so the board, the legal moves and the move list
// are drawn as for a game at one screen), both clocks counting down from the server's figures,
// resignation, draws and rematches; the Ko shogi leaderboard and a player's Ko shogi rating
// history; records of finished games
// replayed from the server with a link to a move (?record=ID&move=N). The server decides
// everything: the page shows a flag fallen only when the server says so.
'use strict';

const ks = {
  ws: null,
  retry: 0,
  me: null,          // the player the server welcomed
  tables: new Map(), // the lobby's Ko shogi tables by id
  leaders: [],       // the Ko shogi leaderboard's players, best first
  history: null,     // the last ks_history message: a player's Ko shogi rating changes, newest first
  table: null,       // the last ks_table message of the table this page is at
  at: 0,             // performance.now() when it came: the running clock counts from there
  applying: Promise.resolve(), // the table's messages are applied one after the other
};

// The page is at an online game (not a game at this screen or a replay of a record).
const online = () => ui.mode === 'online' && ks.table;

function ksSend(msg) {
  if (ks.ws && ks.ws.readyState === WebSocket.OPEN) ks.ws.send(JSON.stringify(msg));
}

// A server's error in the page's language by its code, else its own words.
function ksError(msg) {
  const key = 'err_' + msg.code;
  return KS_TEXT[ksLang][key] || KS_TEXT.en[key] ? kt(key, { why: msg.error }) : msg.error;
}

// Whether the person at this page may move now at its online table.
function onlineMayMove(s) {
  const t = ks.table;
  return !!t && t.status === 'playing' && !t.result && t.you === SIDES[s.toMove];
}

// Whether the person at this page may resign: seated at a game in play.
function onlineMayResign() { return ks.table.status === 'playing' && !ks.table.result && !!ks.table.you; }

// Sends a move chosen on the board; the board changes when the server's table says so.
function onlineMove(text) {
  ksSend({ type: 'ks_move', table: ks.table.table, move: text });
}

// m:ss of milliseconds, rounded up (a clock shows 0:00 only when nothing is left).
function clockText(ms) {
  const s = Math.ceil(Math.max(0, ms) / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

// A side's time now: the server's figures, the running side's counted down since they came.
function timeLeft(color) {
  const c = ks.table.clock;
  let { main_ms: main, byoyomi_ms: byoyomi } = c[SIDES[color]];
  if (c.running === SIDES[color] && !ks.table.result) {
    let spent = performance.now() - ks.at;
    const fromMain = Math.min(spent, main);
    main -= fromMain;
    spent -= fromMain;
    byoyomi = Math.max(0, byoyomi - spent);
  }
  return { main, byoyomi };
}

// Both clocks, the players' names, the draw offer, the invite link and the rematch.
function drawOnline() {
  $('online-bar').hidden = !online();
  if (!online()) return;
  const t = ks.table;
  for (const color of [0, 1]) {
    const seat = t.seats[color];
    const { main, byoyomi } = timeLeft(color);
    const name = seat ? (seat.bot ? `${kt('computer')} · ${kt('level_' + seat.bot)}` : seat.name) : kt('empty_seat');
    const box = $('clock-' + SIDES[color]);
    box.querySelector('.who').textContent = `${side(color)} ${name}${seat ? ` (${seat.rating})` : ''}${t.you === SIDES[color] ? ' · ' + kt('you') : ''}`;
    const flagged = t.end === 'time' && t.result && t.result !== SIDES[color] && t.result !== 'draw';
    box.querySelector('.time').textContent = flagged ? kt('flag_fell') : main > 0 || !t.clock.byoyomi_ms ? clockText(main) : kt('byoyomi_left', { s: clockText(byoyomi) });
    box.classList.toggle('running', t.clock.running === SIDES[color] && !t.result);
  }
  const playing = t.status === 'playing' && !t.result && !!t.you;
  const offered = t.draw_offer && t.draw_offer !== t.you;
  $('offer-draw').hidden = !playing || !!t.draw_offer;
  $('accept-draw').hidden = $('decline-draw').hidden = !playing || !offered;
  $('draw-state').textContent = t.draw_offer ? kt(offered ? 'draw_offered' : 'draw_you_offered') : '';
  const over = !!t.result && !!t.you;
  $('rematch').hidden = !over || !t.game_id || !!(t.rematch && t.rematch.table);
  $('rematch').disabled = !!(t.rematch && t.rematch.asked[SIDES.indexOf(t.you)]);
  $('record-link').hidden = !t.game_id;
  if (t.game_id) $('record-link').href = `koshogi.html?record=${t.game_id}${t.invite ? '&key=' + t.invite : ''}`;
  $('invite-box').hidden = !t.invite;
  if (t.invite) $('invite-link').value = `${location.origin}${location.pathname}?invite=${t.invite}`;
  $('online-table').textContent = kt('online_table', { n: t.table - 2 ** 40 });
}

// The status line's words for an online game that is over, or null to let the engine's speak.
function onlineStatus() {
  const t = ks.table;
  if (!online()) return null;
  if (t.result) {
    const result = t.result === 'draw' ? kt(t.end === 'agreement' ? 'draw_agreed' : 'no_contest') : kt(t.result + '_wins');
    return kt('over', { result, reason: kt('end_' + t.end) });
  }
  if (t.status === 'waiting') return kt('waiting_opponent');
  return null;
}

// Applies a table's message: its moves replayed into the page's engine, then drawn.
function onTable(msg) {
  ks.applying = ks.applying.then(async () => {
    const before = ks.table && ks.table.table === msg.table ? ks.table.moves.length : -1;
    ks.table = msg;
    ks.at = performance.now();
    ui.mode = 'online';
    ui.names = msg.seats.map((s, i) => (s ? s.name : SIDES[i]));
    if (before !== msg.moves.length || !ui.state) {
      ui.sel = null;
      await game('load', msg.moves.join(' '));
      ui.state = await game('state', msg.moves.length);
    }
    history.replaceState(null, '', `?table=${msg.table}`);
    draw();
  }).catch((e) => notice(e.message));
}

// The lobby's Ko shogi tables: a person's open seat to sit at, any table to watch.
function drawTables() {
  const list = $('ks-tables');
  list.textContent = '';
  for (const t of ks.tables.values()) {
    const li = document.createElement('li');
    const names = t.seats.map((s) => (s ? (s.bot ? kt('computer') : s.name) : '—')).join(' – ');
    const clock = kt('clock_text', { m: t.main_ms / 60000, s: t.byoyomi_ms / 1000 });
    li.append(`${names} · ${clock} `);
    t.seats.forEach((s, color) => {
      if (s || t.status !== 'waiting') return;
      li.append(Object.assign(document.createElement('button'), {
        type: 'button', textContent: kt('sit_as', { side: side(color) }),
        onclick: () => ksSend({ type: 'ks_sit', table: t.id, side: SIDES[color] }),
      }), ' ');
    });
    li.append(Object.assign(document.createElement('button'), { type: 'button', textContent: kt('watch'), onclick: () => ksSend({ type: 'ks_watch', table: t.id }) }));
    list.appendChild(li);
  }
  $('no-tables').hidden = ks.tables.size > 0;
}

const playerName = (p) => (p.bot ? kt('level_' + p.bot) : p.name);

// The Ko shogi leaderboard: each player's Ko shogi rating, deviation and rated games, the name a
// link to the player's rating history.
function drawLeaders() {
  const list = $('ks-leaders');
  list.textContent = '';
  for (const p of ks.leaders) {
    const li = document.createElement('li');
    const link = Object.assign(document.createElement('a'), { href: '#', textContent: playerName(p) });
    link.addEventListener('click', (e) => {
      e.preventDefault();
      ksSend({ type: 'ks_history', player: p.id });
    });
    li.append(link, ` ${kt('leader_numbers', { rating: p.rating, deviation: p.deviation, games: p.games })}`);
    list.appendChild(li);
  }
  $('no-leaders').hidden = ks.leaders.length > 0;
  drawHistory();
}

// A player's Ko shogi rating history: each rated game (a link to its record), its date, the
// rating before and after. A private game's record opens only from its table's invite link.
function drawHistory() {
  const box = $('ks-history');
  box.textContent = '';
  box.hidden = !ks.history;
  if (!ks.history) return;
  box.appendChild(Object.assign(document.createElement('h4'), {
    textContent: kt('ks_history', { name: playerName(ks.history.player) }),
  }));
  if (!ks.history.games.length) {
    box.appendChild(Object.assign(document.createElement('p'), { className: 'muted', textContent: kt('no_history') }));
    return;
  }
  const list = document.createElement('ol');
  for (const g of ks.history.games) {
    const before = Math.round(g.rating_before), after = Math.round(g.rating_after);
    const change = after - before;
    const li = document.createElement('li');
    li.append(Object.assign(document.createElement('a'), {
      href: `koshogi.html?record=${g.game}`, textContent: kt('game_no', { n: g.game }),
    }), ` ${g.time.slice(0, 10)} ${before} → ${after} (${change >= 0 ? '+' : ''}${change})`);
    list.appendChild(li);
  }
  box.appendChild(list);
}

function ksReceive(msg) {
  switch (msg.type) {
    case 'welcome':
      localStorage.setItem('goita.player', msg.player_token);
      ks.me = msg.player;
      break;
    case 'tables':
      if (msg.after === 0) {
        ks.tables.clear();
        for (const t of msg.koshogi || []) ks.tables.set(t.id, t);
        drawTables();
      }
      break;
    case 'lobby':
      if (msg.table.game !== 'koshogi') break;
      if (msg.event === 'removed') ks.tables.delete(msg.table.id);
      else ks.tables.set(msg.table.id, msg.table);
      drawTables();
      break;
    case 'ks_table':
      // a game just saved has moved two ratings: the leaderboard is asked again
      if (msg.game_id && !(ks.table && ks.table.game_id === msg.game_id)) ksSend({ type: 'ks_leaderboard' });
      onTable(msg);
      break;
    case 'ks_leaderboard':
      ks.leaders = msg.players;
      drawLeaders();
      break;
    case 'ks_history':
      ks.history = msg;
      drawHistory();
      break;
    case 'moved':
      // the server that served the table lost it to another (docs/SERVER.md "Ko shogi tables"):
      // watch it again, and this server sends the request where the table is now
      if (ks.table && msg.table === ks.table.table) ksSend({ type: 'ks_watch', table: msg.table });
      break;
    case 'error':
      notice(ksError(msg));
      break;
  }
}

// Where the page's address sends it once connected: a table (?table=N), an invite (?invite=CODE).
function goToAddress() {
  const q = new URLSearchParams(location.search);
  if (q.get('invite')) ksSend({ type: 'ks_join', invite: q.get('invite') });
  else if (q.get('table')) ksSend({ type: 'ks_watch', table: Number(q.get('table')) });
}

function ksConnect() {
  const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/', 'goita');
  ks.ws = ws;
  ws.onopen = () => {
    ks.retry = 0;
    $('online').hidden = false;
    const hello = { type: 'hello' };
    const token = localStorage.getItem('goita.player');
    const name = localStorage.getItem('goita.name');
    if (token) hello.player_token = token;
    if (name) hello.name = name;
    ksSend(hello);
    ksSend({ type: 'list' });
    ksSend({ type: 'ks_leaderboard' });
    if (ks.table) ksSend({ type: 'ks_watch', table: ks.table.table }); // back at the table after a reconnect
    else goToAddress();
  };
  ws.onmessage = (e) => ksReceive(JSON.parse(e.data));
  ws.onclose = () => {
    ks.retry = Math.min(ks.retry + 1, 6);
    setTimeout(ksConnect, 250 * 2 ** ks.retry);
  };
}

// A finished game's record from the server, shown at a move: ?record=ID&move=N (&key=INVITE).
async function openRecord(q) {
  const key = q.get('key') ? `?key=${encodeURIComponent(q.get('key'))}` : '';
  const reply = await fetch(`records/ks-${encodeURIComponent(q.get('record'))}.txt${key}`);
  if (!reply.ok) return notice(kt('record_missing'));
  const loaded = await game('load', await reply.text());
  ui.names = [loaded.black || 'black', loaded.white || 'white'];
  ui.mode = 'hotseat';
  await view(0);
  await view(Math.min(Number(q.get('move')) || ui.state.plies, ui.state.plies));
}

// Wires the online panel and connects (a page not served by goita serve has no online play).
function onlineInit() {
  $('ks-create-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const msg = { type: 'ks_create', main_minutes: Number($('ks-main').value), byoyomi_seconds: Number($('ks-byoyomi').value), side: $('ks-side').value };
    if ($('ks-opponent').value) msg.level = $('ks-opponent').value;
    if ($('ks-private').checked) msg.private = true;
    ksSend(msg);
  });
  $('offer-draw').addEventListener('click', () => ksSend({ type: 'ks_draw', table: ks.table.table, answer: 'offer' }));
  $('accept-draw').addEventListener('click', () => ksSend({ type: 'ks_draw', table: ks.table.table, answer: 'accept' }));
  $('decline-draw').addEventListener('click', () => ksSend({ type: 'ks_draw', table: ks.table.table, answer: 'decline' }));
  $('refresh-leaders').addEventListener('click', () => ksSend({ type: 'ks_leaderboard' }));
  $('rematch').addEventListener('click', () => ksSend({ type: 'ks_rematch', table: ks.table.table }));
  setInterval(() => { if (online() && ks.table.clock.running && !ks.table.result) drawOnline(); }, 200);
  const q = new URLSearchParams(location.search);
  if (q.get('record')) openRecord(q).catch((e) => notice(e.message));
  if (location.protocol.startsWith('http')) ksConnect();
}
