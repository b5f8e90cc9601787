// The goita browser client's core: the WebSocket to the server (docs/SERVER.md), its messages
// handed to the screens (lobby.js, table.js, results.js, replay.js), which page shows, and the
// start. It draws only what the server sends: a seat's view.
'use strict';

const $ = (id) => document.getElementById(id);
// An element with properties (class, text, listeners under "on", attributes) and children.
function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const k in props || {}) {
    if (props[k] === undefined) continue;
    if (k === 'class') node.className = props[k];
    else if (k === 'on') for (const ev in props.on) node.addEventListener(ev, props.on[ev]);
    else if (k === 'text') node.textContent = props[k];
    else node.setAttribute(k, props[k]);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

// ---- connection ----

let ws = null;
let retry = 0;
let me = null;            // the welcome's player
let view = null;          // the last state of the table on screen
let currentTable = Number(sessionStorage.getItem('goita.table')) || 0;
let watching = sessionStorage.getItem('goita.watching') === '1';
let choice = null;        // the block chosen for a play
let noticeTimer = null;
let countdown = null;


// The seat tokens this browser holds, by table (to come back to a seat after a reload).
function seatTokens() {
  try { return JSON.parse(localStorage.getItem('goita.seats') || '{}'); } catch (e) { return {}; }
}
// Keeps a table's seat token, or forgets it (token null).
function saveSeatToken(table, token) {
  const all = seatTokens();
  if (token) all[table] = token; else delete all[table];
  localStorage.setItem('goita.seats', JSON.stringify(all));
}

// Invite codes of private tables, kept to come back to them (a private table is watched only by
// its code).
function invites() {
  try { return JSON.parse(localStorage.getItem('goita.invites') || '{}'); } catch (e) { return {}; }
}
// Keeps a private table's invite code.
function saveInvite(table, code) {
  const all = invites();
  if (all[table] === code) return;
  all[table] = code;
  localStorage.setItem('goita.invites', JSON.stringify(all));
}

// Offline play (offline.js) stands in for the server while it is set: it takes the page's
// messages and answers through receive.
let offline = null;

// The last request of each type sent: an error answering one is put in words with its table
// and seat (i18n.js errorText).
const asked = {};

// Sends a request to the server when connected; dropped otherwise (a reconnect asks again).
function send(msg) {
  asked[msg.type] = msg;
  if (offline) offline(msg);
  else if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

// Opens the WebSocket, says hello, asks for the lobby and returns to a seat held; reconnects
// with a growing delay when it closes.
function connect() {
  const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/';
  ws = new WebSocket(url, 'goita');
  ws.onopen = () => {
    retry = 0;
    hideNotice();
    const hello = { type: 'hello' };
    const token = localStorage.getItem('goita.player');
    const name = localStorage.getItem('goita.name');
    if (token) hello.player_token = token;
    if (name) hello.name = name;
    send(hello);
    send({ type: 'list' });
    send({ type: 'games' });
    send({ type: 'leaderboard' });
    send({ type: 'bot_leaderboard' });
    if (replayAsked()) { route(); return; } // a replay's address: the table waits in the lobby
    returnToTable();
    route();
  };
  ws.onmessage = (e) => receive(JSON.parse(e.data));
  ws.onclose = () => {
    showNotice(t('reconnecting'), true);
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 250 * 2 ** retry);
  };
}

// Goes back to the table this page is at: to its seat by the seat token, or to watch it (by its
// invite when private). After a reconnect, or when the table moved to another server.
function returnToTable() {
  const seat = currentTable && seatTokens()[currentTable];
  if (seat && !watching) send({ type: 'resume', seat_token: seat });
  else if (currentTable && watching && invites()[currentTable]) send({ type: 'join', invite: invites()[currentTable] });
  else if (currentTable && watching) send({ type: 'watch', table: currentTable });
}

// A notice under the header: gone after 6 s unless sticky.
function showNotice(text, sticky) {
  const n = $('notice');
  n.textContent = text;
  n.hidden = false;
  clearTimeout(noticeTimer);
  if (!sticky) noticeTimer = setTimeout(hideNotice, 6000);
}
// Hides the notice.
function hideNotice() { $('notice').hidden = true; }

// Hands one server message to the screen it concerns.
function receive(msg) {
  switch (msg.type) {
    case 'welcome':
      localStorage.setItem('goita.player', msg.player_token);
      setMe(msg.player);
      if (!$('name').value) $('name').value = me.name;
      if (msg.choices) applyChoices(msg.choices);
      break;
    case 'player':
      setMe(msg.player);
      break;
    case 'leaderboard':
      renderLeaders(msg.players);
      break;
    case 'bot_leaderboard':
      renderBotLeaders(msg.players);
      break;
    case 'history':
      renderHistory(msg.player, msg.games);
      break;
    case 'stats':
      renderStats(msg);
      break;
    case 'hello':
      break;
    case 'tables':
      if (!msg.after) lobbyTables.clear(); // a first page starts the list afresh
      for (const row of msg.tables) lobbyTables.set(row.id, row);
      for (const row of msg.koshogi || []) lobbyTables.set(row.id, row); // numbered apart from Goita's
      lobbyTotal = msg.total;
      lobbyNext = msg.next;
      renderTables();
      break;
    case 'lobby':
      if (msg.event === 'removed') lobbyTables.delete(msg.table.id);
      else lobbyTables.set(msg.table.id, msg.table);
      lobbyTotal = msg.total;
      // events come in bursts (one per changed table a tick): draw once per frame
      if (!lobbyRender) lobbyRender = requestAnimationFrame(() => { lobbyRender = 0; renderTables(); });
      break;
    case 'games':
      gamesNext = msg.next;
      renderGames(msg.games, !!msg.before);
      break;
    case 'created':
      if (msg.invite) saveInvite(msg.table, msg.invite);
      enterTable(msg.table, true);
      if (msg.seat === undefined) send({ type: 'watch', table: msg.table }); // else "seated" follows
      break;
    case 'joined':
      enterTable(msg.table, true);
      if (seatTokens()[msg.table]) { watching = false; send({ type: 'resume', seat_token: seatTokens()[msg.table] }); }
      break;
    case 'seated':
      saveSeatToken(msg.table, msg.seat_token);
      showQueue(null);
      enterTable(msg.table, false);
      break;
    case 'queued':
      showQueue(msg);
      break;
    case 'quick_cancelled':
      showQueue(null);
      break;
    case 'chat':
      if (msg.table === currentTable) addChat(msg);
      break;
    case 'chat_history':
      if (msg.table === currentTable) { $('chat-log').replaceChildren(); msg.lines.forEach(addChat); }
      break;
    case 'state':
      if (msg.invite) saveInvite(msg.table, msg.invite);
      if (msg.table === currentTable) {
        view = msg;
        noteRoundEnd(msg);
        if (!choiceStillLegal()) choice = null;
        renderTable();
      }
      break;
    case 'left':
      leaveTable();
      break;
    case 'moved':
      // the server that served the table lost it to another (docs/PROTOCOL.md): ask again, and
      // this server sends the request where the table is now
      if (msg.table === currentTable) { showNotice(t('tableMoved')); returnToTable(); }
      break;
    case 'error':
      if (msg.request === 'resume') resumeRefused(msg);
      if (msg.request === 'join') { history.replaceState(null, '', location.pathname); route(); }
      if (msg.request === 'quick') showQueue(null);
      showNotice(`${t('error')}: ${errorText(msg, asked[msg.request])}`);
      break;
    default:
      break;
  }
}

// A resume the server refused (docs/SERVER.md "Errors"): the seat token is forgotten only when
// no seat has it; refused for now (too many requests, the table's server away) it is kept and
// the seat asked for again when the server says.
function resumeRefused(msg) {
  if (msg.code === 'seat_unknown') {
    saveSeatToken(currentTable, null);
    leaveTable();
  } else if (msg.retry_ms > 0) {
    setTimeout(returnToTable, msg.retry_ms);
  }
}

// ---- players ----

// The player this page is, from a welcome or a player message: the header shows its rating,
// which the server sends again after every rated game.
function setMe(player) {
  me = player;
  $('me').textContent = `${me.name} (${t('rating')} ${me.rating})`;
  if (me.registered) localStorage.setItem('goita.name', me.name);
  $('account-status').textContent = me.registered ? t('registered_as', { name: me.name }) : t('guest');
  $('account-form').hidden = !!me.registered;
  $('name-form').hidden = !!me.registered;
  $('logout').hidden = !me.registered;
  $('my-stats').hidden = !me.id; // a guest has no statistics before its first saved action
}

// A computer seat reads "Computer 2 · expert" in the page's language; people keep their names.
function displayName(seat, index) {
  if (!seat) return t('empty');
  return seat.bot ? `${t('computer')} ${index + 1} · ${t('level_' + seat.bot)}` : botMarked(seat.name, seat.bot_account);
}

// A bot account's name with its mark, so that a program is never taken for a person
// (docs/SERVER.md "Bots").
function botMarked(name, isBot) {
  return isBot ? `${name} [${t('bot_tag')}]` : name;
}

// ---- pages ----

function show(page) {
  for (const id of ['lobby', 'table', 'replay', 'match']) $(id).hidden = id !== page;
}

// Whether the page's address asks for a replay.
function replayAsked() {
  return new URLSearchParams(location.search).has('game') || /^#replay\/\d+$/.test(location.hash);
}

// Shows the page the address asks for: a replay (?game=ID&round=R&move=M, or the older
// #replay/ID), an invitation, the table this tab sits at, or the lobby.
function route() {
  if (location.hash === '#offline') { if (window.goitaOffline) window.goitaOffline.open(); return; }
  const query = new URLSearchParams(location.search);
  const old = location.hash.match(/^#replay\/(\d+)$/);
  if (replayAsked()) {
    const id = Number(old ? old[1] : query.get('game'));
    const key = /^[0-9a-f]{32}$/.test(query.get('key') || '') ? query.get('key') : ''; // a private table's game
    openReplay(id, Number(query.get('round')) || 1, Number(query.get('move')) || 0, key);
    return;
  }
  if (/^\d+$/.test(query.get('match') || '')) { openMatch(Number(query.get('match'))); return; }
  const invite = location.hash.match(/^#invite\/([0-9a-f]{32})$/);
  if (invite) { send({ type: 'join', invite: invite[1] }); return; } // 'joined' opens the table
  if (currentTable) { show('table'); return; }
  show('lobby');
}

// A duplicate match's page (docs/SERVER.md "Duplicate matches"): its result with the standard
// error, and each game's seats, points and record, from /matches/ID.json.
async function openMatch(id) {
  show('match');
  const res = await fetch(`matches/${id}.json`).catch(() => null);
  const m = res && res.ok ? await res.json() : null;
  if (!m) { $('match-title').textContent = t('match_missing', { n: id }); return; }
  const a = botMarked(m.a.name, m.a.bot_account), b = botMarked(m.b.name, m.b.bot_account);
  $('match-title').textContent = t('match_title', { n: m.id, name: m.name });
  const r = m.result;
  $('match-result').textContent = m.status === 'failed' ? t('match_failed', { why: m.why })
    : r.deals ? t('match_result', { a, b, mean: r.mean.toFixed(1), se: r.stderr === undefined ? '?' : r.stderr.toFixed(1), deals: r.deals })
    : t('match_none_yet', { a, b });
  $('match-result').dataset.status = m.status;
  const head = el('tr', {}, ...['match_deal', 'match_seats', 'match_points', 'match_record'].map((k) => el('th', { text: t(k) })));
  const rows = m.games.map((g) => {
    const seats = g.swapped ? `${b} · ${a}` : `${a} · ${b}`;
    const points = g.swapped ? `${g.b} · ${g.a}` : `${g.a} · ${g.b}`;
    return el('tr', {}, el('td', { text: String(g.deal) }), el('td', { text: seats }), el('td', { text: points }),
      el('td', {}, el('a', { href: `?game=${g.game}`, text: t('game_no', { n: g.game }) })));
  });
  $('match-games').replaceChildren(head, ...rows);
}

// Shows a table, as its player or a spectator, remembered for a reload of this tab.
function enterTable(id, asWatcher) {
  if (id !== currentTable) { $('chat-log').replaceChildren(); clearRoundResult(); }
  currentTable = id;
  watching = asWatcher;
  sessionStorage.setItem('goita.table', String(id));
  sessionStorage.setItem('goita.watching', asWatcher ? '1' : '0');
  if (location.hash) history.replaceState(null, '', location.pathname);
  show('table');
}

// Back to the lobby from a table, forgetting it.
function leaveTable() {
  clearInterval(countdown); // its tick draws the clocks from the table's view, gone now
  currentTable = 0;
  $('chat-log').replaceChildren();
  clearRoundResult();
  view = null;
  choice = null;
  sessionStorage.removeItem('goita.table');
  sessionStorage.removeItem('goita.watching');
  show('lobby');
  renderTables(); // kept up to date by the lobby's events meanwhile
  send({ type: 'games' });
}

// ---- start ----

function applyLanguage() {
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll('[data-t]')) node.textContent = t(node.dataset.t);
  for (const node of document.querySelectorAll('[data-aria]')) node.setAttribute('aria-label', t(node.dataset.aria));
  for (const node of document.querySelectorAll('[data-seconds]')) node.textContent = t('seconds_n', { n: node.dataset.seconds });
  $('lang').textContent = lang === 'ja' ? 'English' : '日本語';
  if (me) setMe(me);
  renderTables();
  renderGames([], true);
  renderLeaders(leadersShown);
  renderBotLeaders(botLeadersShown);
  if (historyShown) renderHistory(historyShown.player, historyShown.games);
  renderStats();
  if (view) renderTable();
  if (replay && !$('replay').hidden) renderReplay();
}

// Wires the page's forms and buttons, then connects.
function init() {
  applyLanguage();
  $('lang').addEventListener('click', () => {
    lang = lang === 'ja' ? 'en' : 'ja';
    localStorage.setItem('goita.lang', lang);
    applyLanguage();
  });
  $('name-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const name = $('name').value.trim();
    if (!name) return;
    localStorage.setItem('goita.name', name);
    send({ type: 'hello', name, player_token: localStorage.getItem('goita.player') || undefined });
  });
  $('opt-preset').addEventListener('change', onPresetChange);
  $('create-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const create = { type: 'create', rules: rulesText(), turn_seconds: Number($('opt-timer').value), sit: true };
    if (Number($('opt-bank').value)) create.bank_seconds = Number($('opt-bank').value);
    if ($('opt-timeout').value === 'pass') create.on_timeout = 'pass';
    if ($('opt-takeover').checked) create.take_over = true;
    if ($('opt-private').checked) create.private = true;
    send(create);
  });
  $('quick').addEventListener('click', () => {
    const wait = Math.max(0, Math.min(300, Math.round(Number($('quick-wait').value)) || 0));
    send({ type: 'quick', rules: rulesText(), wait_seconds: wait, level: $('quick-level').value });
  });
  $('quick-cancel').addEventListener('click', () => send({ type: 'quick_cancel' }));
  $('invite-copy').addEventListener('click', copyInvite);
  $('chat-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = $('chat-text').value.trim();
    if (!text || !currentTable) return;
    send({ type: 'chat', table: currentTable, text });
    $('chat-text').value = '';
  });
  $('refresh-games').addEventListener('click', () => send({ type: 'games' }));
  $('refresh-leaders').addEventListener('click', () => {
    send({ type: 'leaderboard' });
    send({ type: 'bot_leaderboard' });
  });
  const account = (type) => {
    const name = $('acct-name').value.trim();
    const password = $('acct-password').value;
    if (!name || !password) return;
    send({ type, name, password });
    $('acct-password').value = '';
  };
  $('account-form').addEventListener('submit', (e) => { e.preventDefault(); account('register'); });
  $('login').addEventListener('click', () => account('login'));
  $('logout').addEventListener('click', () => {
    localStorage.removeItem('goita.player');
    localStorage.removeItem('goita.name');
    localStorage.removeItem('goita.seats');
    send({ type: 'hello' });
  });
  $('back').addEventListener('click', () => { send({ type: 'leave' }); leaveTable(); });
  // back from a replay by loading the page afresh: it reconnects and returns to a seat held
  $('replay-back').addEventListener('click', () => location.assign(location.pathname));
  $('match-back').addEventListener('click', () => location.assign(location.pathname));
  initReplay();
  window.addEventListener('hashchange', route);
  if (location.hash !== '#offline' && location.hash !== '#tutorial') connect(); // offline play and the tutorial need no server
}

// What offline.js uses of the client: the table drawn from state messages it makes itself.
window.goitaClient = {
  receive, show, showNotice, t, KANJI,
  lang: () => lang,
  replay: () => replay,
  // Starts (a function) or ends (null) offline play; a page opened offline connects on leaving.
  setOffline(handler) {
    offline = handler;
    currentTable = 0;
    view = null;
    choice = null;
    if (!handler && !ws) connect();
  },
};

init();
