// The goita browser client: lobby, table, replays. It speaks the server's JSON messages over one
// WebSocket (docs/SERVER.md) and draws only what the server sends: a seat's view.
'use strict';

const $ = (id) => document.getElementById(id);
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
// The lobby: the tables the server has listed or announced (docs/SERVER.md "The lobby"), by id,
// kept up to date by its "lobby" events; the finished games shown so far.
const lobbyTables = new Map();
let lobbyTotal = 0, lobbyNext = null, gamesNext = null, lobbyRender = 0;

let gamesShown = [];      // the finished games listed, every page so far
let leadersShown = [];    // the leaderboard's players
let historyShown = null;  // the rating history open under it
let quickTimer = null;
let rematchTimer = null;

function seatTokens() {
  try { return JSON.parse(localStorage.getItem('goita.seats') || '{}'); } catch (e) { return {}; }
}
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
function saveInvite(table, code) {
  const all = invites();
  if (all[table] === code) return;
  all[table] = code;
  localStorage.setItem('goita.invites', JSON.stringify(all));
}

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

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
    const seat = currentTable && seatTokens()[currentTable];
    if (replayAsked()) { route(); return; } // a replay's address: the table waits in the lobby
    if (seat && !watching) send({ type: 'resume', seat_token: seat });
    else if (currentTable && watching && invites()[currentTable]) send({ type: 'join', invite: invites()[currentTable] });
    else if (currentTable && watching) send({ type: 'watch', table: currentTable });
    route();
  };
  ws.onmessage = (e) => receive(JSON.parse(e.data));
  ws.onclose = () => {
    showNotice(t('reconnecting'), true);
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 250 * 2 ** retry);
  };
}

function showNotice(text, sticky) {
  const n = $('notice');
  n.textContent = text;
  n.hidden = false;
  clearTimeout(noticeTimer);
  if (!sticky) noticeTimer = setTimeout(hideNotice, 6000);
}
function hideNotice() { $('notice').hidden = true; }

function receive(msg) {
  switch (msg.type) {
    case 'welcome':
      localStorage.setItem('goita.player', msg.player_token);
      setMe(msg.player);
      if (!$('name').value) $('name').value = me.name;
      break;
    case 'player':
      setMe(msg.player);
      break;
    case 'leaderboard':
      renderLeaders(msg.players);
      break;
    case 'history':
      renderHistory(msg.player, msg.games);
      break;
    case 'hello':
      break;
    case 'tables':
      if (!msg.after) lobbyTables.clear(); // a first page starts the list afresh
      for (const row of msg.tables) lobbyTables.set(row.id, row);
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
      send({ type: 'watch', table: msg.table });
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
    case 'error':
      if (msg.request === 'resume') { saveSeatToken(currentTable, null); leaveTable(); }
      if (msg.request === 'join') { history.replaceState(null, '', location.pathname); route(); }
      if (msg.request === 'quick') showQueue(null);
      showNotice(`${t('error')}: ${msg.error}`);
      break;
    default:
      break;
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
}

// A computer seat reads "Computer 2 · expert" in the page's language; people keep their names.
function displayName(seat, index) {
  if (!seat) return t('empty');
  return seat.bot ? `${t('computer')} ${index + 1} · ${t('level_' + seat.bot)}` : seat.name;
}

function renderLeaders(players) {
  leadersShown = players;
  const box = $('leaders');
  box.replaceChildren();
  for (const p of players) {
    const name = p.bot ? `${t('computer')} · ${t('level_' + p.bot)}` : p.name;
    box.append(el('li', { class: p.bot ? 'computer' : undefined },
      el('a', { href: '#', text: name, on: { click: (e) => { e.preventDefault(); send({ type: 'history', player: p.id }); } } }),
      ` ${t('rating')}${p.rating} ±${p.deviation} · ${t('games_count', { n: p.games })}`));
  }
}

function renderHistory(player, games) {
  historyShown = { player, games };
  const box = $('history');
  const name = player.bot ? `${t('computer')} · ${t('level_' + player.bot)}` : player.name;
  const list = el('ol', {});
  for (const g of games) {
    const change = Math.round(g.rating_after - g.rating_before);
    list.append(el('li', {}, el('a', { href: `?game=${g.game}`, text: t('game_no', { n: g.game }) }),
      ` ${dateText(g.time)}  ${Math.round(g.rating_before)} → ${Math.round(g.rating_after)} (${change >= 0 ? '+' : ''}${change})`));
  }
  box.replaceChildren(el('h3', { text: t('history', { name }) }),
    games.length ? list : el('p', { class: 'muted', text: t('no_history') }));
}

// ---- pages ----

function show(page) {
  for (const id of ['lobby', 'table', 'replay']) $(id).hidden = id !== page;
}

// Whether the page's address asks for a replay.
function replayAsked() {
  return new URLSearchParams(location.search).has('game') || /^#replay\/\d+$/.test(location.hash);
}

// Shows the page the address asks for: a replay (?game=ID&round=R&move=M, or the older
// #replay/ID), an invitation, the table this tab sits at, or the lobby.
function route() {
  const query = new URLSearchParams(location.search);
  const old = location.hash.match(/^#replay\/(\d+)$/);
  if (replayAsked()) {
    const id = Number(old ? old[1] : query.get('game'));
    openReplay(id, Number(query.get('round')) || 1, Number(query.get('move')) || 0);
    return;
  }
  const invite = location.hash.match(/^#invite\/([0-9a-f]{32})$/);
  if (invite) { send({ type: 'join', invite: invite[1] }); return; } // 'joined' opens the table
  if (currentTable) { show('table'); return; }
  show('lobby');
}

function enterTable(id, asWatcher) {
  if (id !== currentTable) { $('chat-log').replaceChildren(); clearRoundResult(); }
  currentTable = id;
  watching = asWatcher;
  sessionStorage.setItem('goita.table', String(id));
  sessionStorage.setItem('goita.watching', asWatcher ? '1' : '0');
  if (location.hash) history.replaceState(null, '', location.pathname);
  show('table');
}

function leaveTable() {
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

// ---- lobby ----

// The rule set comes first: the options after it override it (docs/RULES.md 11). The target
// is typed on the rule set's own scale (15 for the French edition's 1-5 points).
function rulesText() {
  const parts = [`preset=${$('opt-preset').value}`, `players=${$('opt-players').value}`,
    `target=${$('opt-target').value}`];
  if ($('opt-players').value === '4') parts.push($('opt-teyaku').checked ? 'teyaku=on' : 'teyaku=off');
  parts.push($('opt-kingdown').checked ? 'king_face_down=allowed' : 'king_face_down=forbidden');
  return parts.join(',');
}

// Points as the table's scale shows them: the French edition counts 1-5 where the Japanese
// pieces count 10-50 (the server always sends tens).
function shownPoints(points, scale) {
  return scale === 'ones' ? Math.round(points / 10) : points;
}

function onPresetChange() {
  const french = $('opt-preset').value === 'french';
  const target = $('opt-target');
  Object.assign(target, french ? { min: 5, max: 100, step: 1, value: 15 } : { min: 50, max: 1000, step: 10, value: 150 });
  $('opt-teyaku').checked = !french;
}

function renderTables() {
  const box = $('tables');
  box.replaceChildren();
  const tables = [...lobbyTables.values()].sort((a, b) => a.id - b.id);
  if (!tables.length) box.append(el('p', { class: 'muted', text: t('no_tables') }));
  const mine = seatTokens();
  for (const tb of tables) {
    // partners sit opposite: seats 1 and 3 against 2 and 4
    const seats = tb.seats.map((s, i) => el('span', { class: 'seat-chip', text: `${i + 1}. ${displayName(s, i)}${tb.seats.length === 4 ? ` (${teamName(i)})` : ''}` }));
    const row = el('div', { class: 'table-row' },
      el('strong', { text: `#${tb.id}` }), el('span', { text: t(tb.status) }), el('span', { class: 'muted', text: rulesInWords(tb.rules, tb.preset) }), ...seats);
    if (mine[tb.id]) {
      row.append(el('button', { class: 'primary', type: 'button', text: t('return_seat'),
        on: { click: () => { watching = false; send({ type: 'resume', seat_token: mine[tb.id] }); } } }));
    }
    row.append(el('button', { type: 'button', text: t('watch'), on: { click: () => { enterTable(tb.id, true); send({ type: 'watch', table: tb.id }); } } }));
    box.append(row);
  }
  if (lobbyNext !== null) {
    box.append(el('button', { id: 'more-tables', type: 'button', text: t('more_tables', { n: lobbyTotal }),
      on: { click: () => send({ type: 'list', after: lobbyNext }) } }));
  }
}

// The quick-match queue's news: where this player waits (a 'queued' message), or null when it
// waits no more.
function showQueue(msg) {
  clearInterval(quickTimer);
  $('quick-status').hidden = !msg;
  $('quick').disabled = !!msg;
  if (!msg) return;
  const until = Date.now() + msg.seconds_left * 1000;
  const tick = () => {
    const n = Math.max(0, Math.ceil((until - Date.now()) / 1000));
    $('quick-text').textContent = t('queued', { waiting: msg.waiting, players: msg.players, n });
  };
  tick();
  quickTimer = setInterval(tick, 1000);
}

// Shows a page of finished games: the first page replaces the list, an older one is added below.
// The pages shown are kept to draw them again in another language.
function renderGames(games, older) {
  if (!older) gamesShown = [];
  gamesShown.push(...games);
  const box = $('games');
  box.replaceChildren();
  for (const g of gamesShown) {
    const when = dateText(g.finished) + (g.ended ? ` (${t(g.ended)})` : '');
    box.append(el('div', { class: 'game-row' },
      el('strong', { text: `#${g.id}` }), el('span', { class: 'muted', text: when }),
      el('span', { text: `${g.names.map(shownName).join(' / ')}  ${shownPoints(g.score[0], g.scale)} ${t('vs')} ${shownPoints(g.score[1], g.scale)}` }),
      el('a', { href: `?game=${g.id}`, text: t('replay') }),
      el('a', { href: `/records/${g.id}.json`, download: '', text: 'JSON', 'aria-label': `JSON ${t('game_no', { n: g.id })}` }),
      el('a', { href: `/records/${g.id}.txt`, download: '', text: 'TXT', 'aria-label': `TXT ${t('game_no', { n: g.id })}` })));
  }
  if (gamesNext !== null) {
    box.append(el('button', { id: 'older-games', type: 'button', text: t('older_games'),
      on: { click: () => send({ type: 'games', before: gamesNext }) } }));
  }
}

// ---- the table ----

// One chat line, built of text nodes only: whatever was typed shows as typed.
function addChat(line) {
  const log = $('chat-log');
  const who = line.seat >= 0 ? `${line.from} (${line.seat + 1})` : `${line.from} (${t('spectator')})`;
  log.append(el('li', {}, el('span', { class: 'from', text: who }), line.text));
  while (log.children.length > 50) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

function renderInvite() {
  $('invite-box').hidden = !view.invite;
  if (view.invite) $('invite-link').value = `${location.origin}${location.pathname}#invite/${view.invite}`;
}

function copyInvite() {
  const input = $('invite-link');
  input.select();
  const done = () => showNotice(t('copied'));
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(input.value).then(done, () => {});
  else if (document.execCommand('copy')) done();
}

// The rematch part of the game-over box: the button for a seated player, who asked, and where
// the rematch went.
function rematchBox() {
  const box = el('div', { class: 'rematch' });
  const r = view.rematch;
  clearInterval(rematchTimer);
  if (r && r.table) {
    box.append(el('span', { text: t('rematch_at', { n: r.table }) }),
      el('button', { type: 'button', text: t('watch'), on: { click: () => { enterTable(r.table, true); send({ type: 'watch', table: r.table }); } } }));
    return box;
  }
  if (view.seat >= 0) {
    const asked = r && r.asked[view.seat];
    box.append(el('button', { class: 'primary', type: 'button', text: t('rematch'), disabled: asked ? 'disabled' : undefined,
      on: { click: () => send({ type: 'rematch', table: currentTable }) } }));
  }
  if (r) {
    const names = r.asked.map((a, s) => (a ? seatName(s) : null)).filter((n) => n).join(', ');
    const status = el('span', { class: 'muted' });
    const until = Date.now() + (r.seconds_left || 0) * 1000;
    const tick = () => {
      const n = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      status.textContent = `${t('rematch_asked', { names })} ${t('rematch_left', { n })}`;
    };
    tick();
    rematchTimer = setInterval(tick, 1000);
    box.append(status);
  }
  return box;
}

// Which seat sits where on screen: the viewer at the bottom, the next seats counter-clockwise.
function placement(players, base) {
  const spots = players === 4 ? ['bottom', 'right', 'top', 'left'] : players === 3 ? ['bottom', 'right', 'left'] : ['bottom', 'top'];
  const out = {};
  for (let i = 0; i < players; i++) out[spots[i]] = (base + i) % players;
  return out;
}

function sideOf(seat, players) { return players === 4 ? seat % 2 : seat; }

function seatName(s) {
  const seat = view && view.seats[s];
  return seat ? displayName(seat, s) : `${t('seat')} ${s + 1}`;
}

// The seat that made the table's last play (not a pass or a 5-pawn decision), or -1.
function lastPlaySeat(g) {
  for (let i = g.log.length - 1; i >= 0; i--) {
    const token = g.log[i];
    if (/^\d[0-9x]\d$/.test(token)) return Number(token[0]) - 1;
  }
  return -1;
}

// The seat's relation to the viewer and its team, as a badge beside its name.
function seatBadges(s) {
  const out = [];
  if (view.seats.length === 4) {
    out.push(el('span', { class: `team-mark team-${s % 2 ? 'b' : 'a'}`, text: teamName(s) }));
    if (view.seat >= 0 && s !== view.seat) {
      const partner = s % 2 === view.seat % 2;
      out.push(el('span', { class: partner ? 'partner-mark' : 'muted', text: t(partner ? 'partner' : 'opponent') }));
    }
  }
  if (s === view.seat) out.push(el('span', { class: 'you-mark', text: t('you_mark') }));
  return out;
}

// One labelled row of a territory: the face-down and blocking pieces, or the attacking ones.
function pieceRow(kind, name, pieces) {
  const row = el('div', { class: `row ${kind}`, role: 'group', 'aria-label': t(`row_${kind}_long`, { name }) },
    el('span', { class: 'row-label', 'aria-hidden': 'true', text: t(`row_${kind}`) }));
  for (const p of pieces) row.append(p);
  return row;
}

// A seat's territory: who sits there (team, partner, dealer, pieces in hand) and its two rows,
// the last play of the round marked and, when it has just been made, animated.
function renderTerritory(node, s, fresh) {
  node.replaceChildren();
  node.classList.remove('turn', 'team-a', 'team-b', 'mine');
  if (s === undefined) return;
  const seat = view.seats[s];
  const g = view.game;
  const name = displayName(seat, s);
  if (view.seats.length === 4) node.classList.add(s % 2 ? 'team-b' : 'team-a');
  if (s === view.seat) node.classList.add('mine');
  const who = el('div', { class: 'who' }, el('strong', { text: `${s + 1}. ${name}` }), ...seatBadges(s));
  if (seat) {
    who.append(el('span', { class: 'muted', text: `${t('rating')}${seat.rating}` }));
    if (!seat.connected) who.append(el('span', { class: 'offline', text: '●' }));
    if (seat.stand_in) who.append(el('span', { class: 'muted stand-in', text: t('stand_in') }));
  }
  if (g && g.dealer === s) who.append(el('span', { class: 'dealer-mark', text: t('dealer') }));
  if (g) who.append(el('span', { class: 'count', text: t('hand_count', { n: g.sizes[s] }) }));
  node.append(who);
  if (!g) return;
  if (g.phase !== 'over' && g.turn === s && view.status === 'playing') node.classList.add('turn');
  const row = g.rows[s];
  const last = lastPlaySeat(g) === s ? row.blocks.length - 1 : -1;
  const blocks = [], attacks = [];
  for (let i = 0; i < row.blocks.length; i++) {
    const b = tile(row.blocks[i], { down: row.face_down[i] === '1' });
    const a = tile(row.attacks[i], { attack: true });
    if (i === last) {
      for (const p of [b, a]) p.classList.add('last', ...(fresh ? ['fresh'] : []));
      a.setAttribute('aria-label', `${a.getAttribute('aria-label')} (${t('last_move')})`);
    }
    blocks.push(b);
    attacks.push(a);
  }
  node.append(pieceRow('blocks', name, blocks), pieceRow('attacks', name, attacks));
}

function legalMoves() {
  return view && view.game && view.seat >= 0 ? view.game.legal : [];
}

function choiceStillLegal() {
  return choice !== null && legalMoves().some((m) => m[1] === String(choice.kind));
}

function kindOf(mark) { return Number(mark) === 9 ? 8 : Number(mark); }

// The viewer's hand and what it may do now. A piece button keeps the keyboard focus across
// redraws (the hand is rebuilt on every state), so the game can be played by keyboard alone.
function renderControls() {
  const focused = document.activeElement;
  const focusIndex = focused && focused.parentNode === $('hand') ? Number(focused.dataset.index) : -1;
  drawControls();
  if (focusIndex >= 0) {
    const again = $('hand').querySelector(`[data-index="${focusIndex}"]:not([disabled])`) || $('hand').querySelector('button:not([disabled])');
    if (again) again.focus();
  }
}

// Builds the prompt, the hand's buttons and the move buttons (renderControls keeps the focus).
function drawControls() {
  const prompt = $('prompt'), hand = $('hand'), actions = $('actions');
  prompt.textContent = '';
  hand.replaceChildren();
  actions.replaceChildren();
  const g = view.game;
  if (!g) return;
  const legal = legalMoves();
  const myTurn = legal.length > 0;
  if (view.seat < 0) prompt.textContent = t('spectating');
  else if (!myTurn && g.phase !== 'over') prompt.textContent = t('waiting_for', { name: seatName(g.turn) });
  // 5-pawn decision
  if (myTurn && g.phase === 'decide') {
    // Under goshi_decision=holder_and_partner the holder proposes first, then the partner
    // agrees or not; otherwise the partner alone decides (docs/RULES.md 3.3).
    const holder = (g.goshi >> view.seat) & 1;
    const partnerProposed = view.seats.length === 4 && /goshi_decision=holder_and_partner/.test(view.rules);
    prompt.textContent = t(holder ? 'decide_own' : partnerProposed ? 'decide_agree' : 'decide');
    for (const m of legal) {
      actions.append(el('button', { class: 'primary', type: 'button', text: m.endsWith('r') ? t('redeal') : t('go'),
        on: { click: () => send({ type: 'move', table: currentTable, move: m }) } }));
    }
  }
  const plays = legal.filter((m) => m.length === 3);
  const leading = myTurn && g.phase === 'play' && !g.attack;
  if (myTurn && g.phase === 'play') {
    if (choice === null) prompt.textContent = leading ? t('lead_block') : t('answer', { p: KANJI[g.attack] });
    else prompt.textContent = leading ? t('lead_attack') : t('then_attack');
  }
  const marks = (g.hand || '').split('');
  let chosenIndex = -1;
  if (choice !== null) chosenIndex = choice.index;
  marks.forEach((mark, i) => {
    const kind = kindOf(mark);
    let playable = false;
    if (myTurn && g.phase === 'play') {
      if (choice === null) playable = plays.some((m) => Number(m[1]) === kind);
      else playable = i !== chosenIndex && plays.some((m) => Number(m[1]) === choice.kind && Number(m[2]) === kind);
    }
    const b = tile(mark, { button: true, label: t(playable ? 'play_piece' : 'piece_in_hand', { p: pieceName(mark) }) });
    b.dataset.index = String(i);
    b.disabled = !playable && i !== chosenIndex;
    if (i === chosenIndex) b.classList.add('chosen');
    b.addEventListener('click', () => {
      if (i === chosenIndex) { choice = null; renderControls(); return; }
      if (choice === null) { choice = { kind, index: i }; renderControls(); return; }
      const move = plays.find((m) => Number(m[1]) === choice.kind && Number(m[2]) === kind);
      choice = null;
      if (move) send({ type: 'move', table: currentTable, move });
    });
    hand.append(b);
  });
  if (myTurn && legal.some((m) => m.endsWith('p'))) {
    actions.append(el('button', { type: 'button', text: t('pass'),
      on: { click: () => { choice = null; send({ type: 'move', table: currentTable, move: legal.find((m) => m.endsWith('p')) }); } } }));
  }
  if (choice !== null) actions.append(el('button', { type: 'button', text: t('cancel'), on: { click: () => { choice = null; renderControls(); } } }));
}

function moveText(token) {
  const seat = Number(token[0]) - 1;
  const who = seatName(seat);
  if (token[1] === 'p') return `${who}: ${t('pass')}`;
  if (token[1] === 'r') return `${who}: ${t('redeal')}`;
  if (token[1] === 'g') return `${who}: ${t('go')}`;
  const block = token[1] === 'x' ? '■' : KANJI[token[1]];
  return `${who}: ${block} → ${KANJI[token[2]]}`;
}

// The middle of the table: the round, the attack to answer, a 5-pawn announcement and its
// decisions, the round's result while the next deal waits, and the game's end with a rematch.
function renderCenter() {
  const c = $('center');
  c.replaceChildren();
  const g = view.game;
  if (!g) {
    c.append(el('p', { text: t(view.status) }), el('p', { class: 'muted', text: t('start_needs') }));
    return;
  }
  c.append(el('div', { class: 'muted', text: t('round', { n: g.round }) }));
  if (g.phase === 'play' && g.attack) {
    c.append(el('div', { class: 'attack-now' }, tile(g.attack, { attack: true })),
      el('div', { class: 'muted', text: t('attack_by', { name: seatName(g.attacker) }) }));
  }
  if (g.goshi && g.phase !== 'over') {
    const box = goshiBox(g.goshi, view.seats.length, decisionsOf(g.log), seatName);
    if (g.phase === 'decide') {
      for (let s = 0; s < view.seats.length; s++) {
        if ((g.deciders >> s) & 1 && s !== view.seat) box.append(el('div', { class: 'muted', text: t('goshi_waiting', { name: seatName(s) }) }));
      }
    }
    c.append(box);
  }
  if (g.phase === 'over' && g.result) {
    const box = el('div', { class: 'result' }, el('div', { text: resultSentence(g.result, seatName, g.scale) }));
    if (view.status === 'playing') box.append(el('div', { class: 'muted', text: t('new_round_soon') }));
    c.append(box);
  }
  if (view.status === 'over') c.append(gameOverBox(g));
}

// The game's end: the winning side, the record's downloads and replay, and the rematch.
function gameOverBox(g) {
  const players = view.seats.length;
  const winner = g.scores.indexOf(Math.max(...g.scores));
  const team = players === 4 ? `${teamName(winner)} (${seatName(winner)} · ${seatName(winner + 2)})` : seatName(winner);
  const box = el('div', { class: 'result' }, el('strong', { text: t('game_over', { team }) }));
  if (view.game_id) {
    box.append(el('div', {},
      el('a', { href: `/records/${view.game_id}.json`, download: '', text: t('download_json') }), ' · ',
      el('a', { href: `/records/${view.game_id}.txt`, download: '', text: t('download_txt') }), ' · ',
      el('a', { href: `?game=${view.game_id}`, text: t('replay') })));
  }
  box.append(rematchBox());
  return box;
}

function renderSeating() {
  const box = $('seating');
  box.replaceChildren();
  if (view.status !== 'waiting') return;
  const players = view.seats.length;
  const seated = view.seat >= 0;
  for (let s = 0; s < players; s++) {
    if (view.seats[s]) continue;
    const level = el('select', { 'aria-label': `${t('seat')} ${s + 1}: ${t('quick_level')}` });
    for (const lv of ['sampler', 'expert', 'rules', 'random']) level.append(el('option', { value: lv, text: t('level_' + lv) }));
    const team = players === 4 ? ` (${teamName(s)})` : '';
    box.append(el('span', { class: 'seat-chip' }, `${t('seat')} ${s + 1}${team}: `,
      el('button', { type: 'button', text: t('sit'), on: { click: () => send({ type: 'sit', table: currentTable, seat: s }) } }), ' ',
      level,
      el('button', { type: 'button', text: t('computer'), on: { click: () => send({ type: 'bot', table: currentTable, seat: s, level: level.value }) } })));
  }
  const full = view.seats.every((s) => s);
  if (seated) {
    box.append(el('button', { class: 'primary', type: 'button', text: t('start'),
      disabled: full ? undefined : 'disabled', on: { click: () => send({ type: 'start', table: currentTable }) } }));
  }
}

let logShown = '';   // "table:round:moves" drawn last, to animate only a new play

// Draws the whole table from the last state: territories, scores, timer, centre, controls, log.
function renderTable() {
  if (!view) return;
  const players = view.seats.length;
  const base = view.seat >= 0 ? view.seat : 0;
  const spots = placement(players, base);
  const g = view.game;
  const logKey = g ? `${view.table}:${g.round}:${g.log.length}` : '';
  const fresh = !!g && logKey !== logShown && logShown.startsWith(`${view.table}:${g.round}:`);
  logShown = logKey;
  for (const spot of ['top', 'left', 'right', 'bottom']) renderTerritory($('t-' + spot), spots[spot], fresh);
  $('table-title').textContent = `#${view.table} · ${t(view.status)} · ${rulesInWords(view.rules, (lobbyTables.get(view.table) || {}).preset)}`;
  $('scores').textContent = g ? tableScores(g) : '';
  clearInterval(countdown);
  $('timer').textContent = '';
  if (view.seconds_left !== undefined && view.status === 'playing') {
    let left = view.seconds_left;
    const tick = () => { $('timer').textContent = t('seconds', { n: Math.max(0, left) }); left--; };
    tick();
    countdown = setInterval(tick, 1000);
  }
  renderInvite();
  renderCenter();
  renderSeating();
  renderControls();
  renderRoundResult();
  const log = $('log');
  log.replaceChildren();
  for (const token of (g ? g.log : [])) log.append(el('li', { text: moveText(token) }));
  log.scrollTop = log.scrollHeight;
}

// The score bar: the viewer's team first, marked, with four players; each seat otherwise.
function tableScores(g) {
  const p = (v) => shownPoints(v, g.scale);
  if (view.seats.length !== 4) return scoreLine(g.scores, view.seats.length, seatName, g.scale, g.target);
  const mine = view.seat >= 0 ? sideOf(view.seat, 4) : 0;
  const mark = view.seat >= 0 ? ` (${t('us')})` : '';
  return `${teamName(mine)}${mark} ${p(g.scores[mine])} — ${teamName(1 - mine)} ${p(g.scores[1 - mine])} / ${p(g.target)}`;
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
  if (historyShown) renderHistory(historyShown.player, historyShown.games);
  if (view) renderTable();
  if (replay && !$('replay').hidden) renderReplay();
}

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
    const create = { type: 'create', rules: rulesText(), turn_seconds: Number($('opt-timer').value) };
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
  $('refresh-leaders').addEventListener('click', () => send({ type: 'leaderboard' }));
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
  initReplay();
  window.addEventListener('hashchange', route);
  connect();
}

init();
