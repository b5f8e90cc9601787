// The goita browser client: lobby, table, replays. It speaks the server's JSON messages over one
// WebSocket (docs/SERVER.md) and draws only what the server sends: a seat's view.
'use strict';

const KANJI = { 1: 'し', 2: '香', 3: '馬', 4: '銀', 5: '金', 6: '角', 7: '飛', 8: '王', 9: '玉' };
const ENGLISH = { 1: 'pawn', 2: 'lance', 3: 'knight', 4: 'silver', 5: 'gold', 6: 'bishop', 7: 'rook', 8: 'king', 9: 'king' };

const TEXT = {
  ja: {
    you: 'あなた', name: '名前', save: '保存', new_table: '新しい卓', players: '人数', target: '目標点',
    teyaku: '手役あり', king_face_down: '王の伏せ出しを許す', turn_timer: '持ち時間', off: 'なし', create: '卓を作る',
    tables: '卓の一覧', finished_games: '終わった対局', refresh: '更新', lobby: 'ロビーへ', log: '棋譜',
    download_json: '記録 (JSON)', download_txt: '棋譜文字列', no_tables: '卓はまだありません', waiting: '募集中',
    playing: '対局中', over: '終局', sit: '座る', computer: 'コンピュータ', watch: '観戦', start: '開始',
    return_seat: '席に戻る', empty: '空席', seat: '席', round: '第{n}局', dealer: '親', your_turn: 'あなたの番です',
    lead_block: '伏せる駒を選んでください', lead_attack: '攻める駒を選んでください',
    answer: '{p} を受ける駒を選ぶか、なしにしてください', then_attack: '次に攻める駒を選んでください',
    pass: 'なし', cancel: 'やり直す', redeal: '配り直す', go: 'このまま打つ',
    decide: '味方が五し: 配り直すか打つかを決めてください', waiting_for: '{name} の番です',
    decide_own: 'あなたが五し: 配り直しを申し出るか、このまま打つかを選んでください',
    decide_agree: '味方が五しで配り直しを申し出ています: 同意するか、このまま打つかを選んでください',
    rule_set: 'ルール', preset_standard: '標準', preset_japanese: '日本の解説 (王は場に出た後か二枚持ち)',
    preset_french: 'フランス版 Goita Shogi (1〜5点)', preset_custom: '独自ルール',
    attack_by: '{name} の攻め', result: '{name} の上がり: {points} 点', doubled: '(倍)',
    teyaku_win: '{name} の手役: {points} 点', redeal_done: '配り直し', game_over: '終局: {team} の勝ち',
    us: '味方', them: '相手', team: 'チーム', spectating: '観戦中', left_game: '席を外しました',
    reconnecting: '接続が切れました。再接続しています…', replay: '再生', move: '手',
    finished: '終了', vs: '対', rating: 'R', start_needs: '全員そろうと開始できます', seconds: '残り {n} 秒',
    hand_count: '手駒 {n}', error: 'エラー', level_random: 'ランダム', level_rules: 'ルール', level_sampler: 'サンプラー',
    level_expert: 'エキスパート', new_round_soon: '次の局をまもなく配ります',
    more_tables: 'さらに表示 (全 {n} 卓)', older_games: 'さらに前の対局', stand_in: '代打ち中 (コンピュータ)',
    abandoned: '中断',
    password: 'パスワード (8文字以上)', register: 'この名前を登録', login: 'ログイン', logout: 'ログアウト',
    guest: 'ゲスト: 名前を登録すると他の端末からもログインできます', registered_as: '{name} として登録済み',
    leaderboard: 'ランキング', history: '{name} のレーティング履歴', no_history: 'まだ対局がありません',
    games_count: '{n} 局', game_no: '対局 #{n}',
    private_table: '非公開 (招待リンクで参加)', invite_link: '招待リンク', copy: 'コピー', copied: '招待リンクをコピーしました',
    quick_match: 'クイック対戦', quick_wait: '待ち時間', seconds_unit: '秒', quick_level: 'コンピュータの強さ',
    quick_hint: '上のルールで待っている人と同じ卓に座ります。待ち時間が過ぎると空席にコンピュータが入ります。',
    queued: '対戦相手を待っています ({waiting}/{players} 人) · あと {n} 秒でコンピュータが入ります', cancel_quick: 'やめる',
    rematch: '再戦', rematch_asked: '再戦の希望: {names}', rematch_left: '(あと {n} 秒)',
    rematch_at: '再戦は卓 #{n} で始まりました', chat: 'チャット', send: '送信', spectator: '観戦',
  },
  en: {
    you: 'You', name: 'Name', save: 'Save', new_table: 'New table', players: 'Players', target: 'Target',
    teyaku: 'Teyaku', king_face_down: 'Kings may be led face-down', turn_timer: 'Turn timer', off: 'off',
    create: 'Create', tables: 'Tables', finished_games: 'Finished games', refresh: 'Refresh', lobby: 'Lobby',
    log: 'Moves', download_json: 'Record (JSON)', download_txt: 'History strings', no_tables: 'No tables yet',
    waiting: 'waiting', playing: 'playing', over: 'over', sit: 'Sit', computer: 'Computer', watch: 'Watch',
    start: 'Start', return_seat: 'Back to my seat', empty: 'empty', seat: 'Seat', round: 'Round {n}',
    dealer: 'dealer', your_turn: 'Your turn', lead_block: 'Choose the piece to place face-down',
    lead_attack: 'Choose the piece to attack with', answer: 'Answer {p} with a piece, or pass',
    then_attack: 'Now choose the piece to attack with', pass: 'Pass', cancel: 'Start over', redeal: 'Redeal',
    go: 'Play on', decide: 'Your partner has five pawns: redeal or play on?', waiting_for: "{name}'s turn",
    decide_own: 'You have five pawns: propose a redeal, or play on?',
    decide_agree: 'Your partner has five pawns and proposes a redeal: agree, or play on?',
    rule_set: 'Rules', preset_standard: 'Standard', preset_japanese: 'Japanese (king after a king, or both kings)',
    preset_french: 'French edition, Goita Shogi (points 1-5)', preset_custom: 'custom rules',
    attack_by: 'attack by {name}', result: '{name} went out: {points} points', doubled: '(doubled)',
    teyaku_win: '{name} wins by teyaku: {points} points', redeal_done: 'Redeal', game_over: 'Game over: {team} won',
    us: 'us', them: 'them', team: 'team', spectating: 'Watching', left_game: 'You left the seat',
    reconnecting: 'Connection lost. Reconnecting…', replay: 'Replay', move: 'move', finished: 'finished',
    vs: 'vs', rating: 'R', start_needs: 'The game can start when every seat is filled',
    seconds: '{n} s left', hand_count: '{n} in hand', error: 'Error', level_random: 'random', level_rules: 'rules',
    level_sampler: 'sampler', level_expert: 'expert', new_round_soon: 'The next round is dealt in a moment',
    more_tables: 'More ({n} tables in all)', older_games: 'Older games', stand_in: 'a computer stands in',
    abandoned: 'abandoned',
    password: 'Password (8 or more characters)', register: 'Claim this name', login: 'Log in', logout: 'Log out',
    guest: 'Guest: claim your name to log in from other devices', registered_as: 'Registered as {name}',
    leaderboard: 'Leaderboard', history: 'Rating history of {name}', no_history: 'No games yet',
    games_count: '{n} games', game_no: 'game #{n}',
    private_table: 'Private (join by invite link)', invite_link: 'Invite link', copy: 'Copy', copied: 'Invite link copied',
    quick_match: 'Quick match', quick_wait: 'Wait', seconds_unit: 's', quick_level: 'Computer level',
    quick_hint: 'Sits you with others waiting for the rules above; after the wait, computers take the empty seats.',
    queued: 'Waiting for players ({waiting} of {players} here) · computers join in {n} s', cancel_quick: 'Cancel',
    rematch: 'Rematch', rematch_asked: 'Rematch asked by {names}', rematch_left: '({n} s left)',
    rematch_at: 'The rematch started at table #{n}', chat: 'Chat', send: 'Send', spectator: 'watching',
  },
};

let lang = localStorage.getItem('goita.lang') || ((navigator.language || '').startsWith('ja') ? 'ja' : 'en');

function t(key, args) {
  let s = (TEXT[lang] && TEXT[lang][key]) || TEXT.en[key] || key;
  for (const k in args || {}) s = s.replace('{' + k + '}', args[k]);
  return s;
}

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

function tile(mark, options) {
  const o = options || {};
  const m = Number(mark);
  const classes = ['tile', 'kanji'];
  if (!m || o.down) classes.push('back');
  if (o.down && m) classes.push('known');
  if (m === 8 || m === 9) classes.push('red');
  if (o.attack) classes.push('attack');
  const node = el(o.button ? 'button' : 'span', { class: classes.join(' '), text: m ? KANJI[m] : '' });
  node.title = m ? (lang === 'en' ? ENGLISH[m] : KANJI[m]) : '';
  if (o.button) node.type = 'button';
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

// Offline play (offline.js) stands in for the server while it is set: it takes the page's
// messages and answers through receive.
let offline = null;

function send(msg) {
  if (offline) offline(msg);
  else if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
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
  const box = $('history');
  const name = player.bot ? `${t('computer')} · ${t('level_' + player.bot)}` : player.name;
  const list = el('ol', {});
  for (const g of games) {
    const change = Math.round(g.rating_after - g.rating_before);
    list.append(el('li', {}, el('a', { href: `#replay/${g.game}`, text: t('game_no', { n: g.game }) }),
      ` ${g.time}  ${Math.round(g.rating_before)} → ${Math.round(g.rating_after)} (${change >= 0 ? '+' : ''}${change})`));
  }
  box.replaceChildren(el('h3', { text: t('history', { name }) }),
    games.length ? list : el('p', { class: 'muted', text: t('no_history') }));
}

// ---- pages ----

function show(page) {
  for (const id of ['lobby', 'table', 'replay']) $(id).hidden = id !== page;
}

function route() {
  if (location.hash === '#offline') { if (window.goitaOffline) window.goitaOffline.open(); return; }
  const m = location.hash.match(/^#replay\/(\d+)$/);
  if (m) { openReplay(Number(m[1])); return; }
  const invite = location.hash.match(/^#invite\/([0-9a-f]{32})$/);
  if (invite) { send({ type: 'join', invite: invite[1] }); return; } // 'joined' opens the table
  if (currentTable) { show('table'); return; }
  show('lobby');
}

function enterTable(id, asWatcher) {
  if (id !== currentTable) $('chat-log').replaceChildren();
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

function rulesLabel(row) {
  return row.preset ? t('preset_' + row.preset) : t('preset_custom');
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
    const seats = tb.seats.map((s, i) => el('span', { class: 'seat-chip', text: `${i + 1}${tb.seats.length === 4 ? (i % 2 ? 'B' : 'A') : ''}: ${displayName(s, i)}` }));
    const row = el('div', { class: 'table-row' },
      el('strong', { text: `#${tb.id}` }), el('span', { text: t(tb.status) }), el('span', { class: 'muted', text: rulesLabel(tb), title: tb.rules }), ...seats);
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
function renderGames(games, older) {
  const box = $('games');
  if (!older) box.replaceChildren();
  const more = $('older-games');
  if (more) more.remove();
  for (const g of games) {
    box.append(el('div', { class: 'game-row' },
      el('strong', { text: `#${g.id}` }), el('span', { class: 'muted', text: g.ended ? `${g.finished} (${t(g.ended)})` : g.finished }),
      el('span', { text: `${g.names.join(' / ')}  ${shownPoints(g.score[0], g.scale)} ${t('vs')} ${shownPoints(g.score[1], g.scale)}` }),
      el('a', { href: `#replay/${g.id}`, text: t('replay') }),
      el('a', { href: `/records/${g.id}.json`, download: '', text: 'JSON' }),
      el('a', { href: `/records/${g.id}.txt`, download: '', text: 'TXT' })));
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

function renderTerritory(node, s) {
  node.replaceChildren();
  node.classList.remove('turn');
  if (s === undefined) return;
  const seat = view.seats[s];
  const g = view.game;
  const who = el('div', { class: 'who' }, el('strong', { text: `${s + 1}. ${displayName(seat, s)}` }));
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
  const blocks = el('div', { class: 'row' });
  const attacks = el('div', { class: 'row' });
  for (let i = 0; i < row.blocks.length; i++) {
    blocks.append(tile(row.blocks[i], { down: row.face_down[i] === '1' }));
    attacks.append(tile(row.attacks[i], { attack: true }));
  }
  node.append(blocks, attacks);
}

function legalMoves() {
  return view && view.game && view.seat >= 0 ? view.game.legal : [];
}

function choiceStillLegal() {
  return choice !== null && legalMoves().some((m) => m[1] === String(choice.kind));
}

function kindOf(mark) { return Number(mark) === 9 ? 8 : Number(mark); }

function renderControls() {
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
    const b = tile(mark, { button: true });
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
  if (g.phase === 'over' && g.result) {
    const r = g.result;
    let text = t('redeal_done');
    const points = shownPoints(r.points, g.scale);
    if (r.end === 'finish') text = `${t('result', { name: seatName(r.winner), points })} ${r.doubled ? t('doubled') : ''}`;
    else if (r.end === 'teyaku' || r.end === 'double_goshi') text = t('teyaku_win', { name: seatName(r.winner), points });
    const box = el('div', { class: 'result' }, el('div', { text }));
    if (view.status === 'playing') box.append(el('div', { class: 'muted', text: t('new_round_soon') }));
    c.append(box);
  }
  if (view.status === 'over') {
    const players = view.seats.length;
    const winner = g.scores[0] >= g.scores[1] ? 0 : 1;
    const team = players === 4 ? `${seatName(winner)} & ${seatName(winner + 2)}` : seatName(winner);
    const box = el('div', { class: 'result' }, el('strong', { text: t('game_over', { team }) }));
    if (view.game_id) {
      box.append(el('div', {},
        el('a', { href: `/records/${view.game_id}.json`, download: '', text: t('download_json') }), ' · ',
        el('a', { href: `/records/${view.game_id}.txt`, download: '', text: t('download_txt') }), ' · ',
        el('a', { href: `#replay/${view.game_id}`, text: t('replay') })));
    }
    box.append(rematchBox());
    c.append(box);
  }
}

function renderSeating() {
  const box = $('seating');
  box.replaceChildren();
  if (view.status !== 'waiting') return;
  const players = view.seats.length;
  const seated = view.seat >= 0;
  for (let s = 0; s < players; s++) {
    if (view.seats[s]) continue;
    const level = el('select', {});
    for (const lv of ['sampler', 'expert', 'rules', 'random']) level.append(el('option', { value: lv, text: t('level_' + lv) }));
    const team = players === 4 ? ` (${t('team')} ${s % 2 ? '2-4' : '1-3'})` : '';
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

function renderTable() {
  if (!view) return;
  const players = view.seats.length;
  const base = view.seat >= 0 ? view.seat : 0;
  const spots = placement(players, base);
  for (const spot of ['top', 'left', 'right', 'bottom']) renderTerritory($('t-' + spot), spots[spot]);
  $('table-title').textContent = `#${view.table} · ${t(view.status)}`;
  const g = view.game;
  if (g) {
    if (players === 4) {
      const mine = view.seat >= 0 ? sideOf(view.seat, 4) : 0;
      const label = view.seat >= 0 ? [t('us'), t('them')] : [`1-3`, `2-4`];
      const p = (v) => shownPoints(v, g.scale);
      $('scores').textContent = `${label[0]} ${p(g.scores[mine])} — ${label[1]} ${p(g.scores[1 - mine])} / ${p(g.target)}`;
    } else {
      const p = (v) => shownPoints(v, g.scale);
      $('scores').textContent = g.scores.map((v, i) => `${seatName(i)} ${p(v)}`).join(' — ') + ` / ${p(g.target)}`;
    }
  } else {
    $('scores').textContent = '';
  }
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
  const log = $('log');
  log.replaceChildren();
  for (const token of (g ? g.log : [])) log.append(el('li', { text: moveText(token) }));
  log.scrollTop = log.scrollHeight;
}

// ---- replays of stored games ----

let replay = null;

function parseRound(history, players) {
  const tokens = history.split(',');
  const hands = tokens.slice(0, players).map((h) => h.split(''));
  const dealer = Number(tokens[players][1]) - 1;
  const moves = tokens.slice(players + 1);
  return { hands, dealer, moves };
}

// The table after the first n moves of a round, everything in the open.
function replayPosition(round, players, n) {
  const hands = round.hands.map((h) => h.slice());
  const rows = hands.map(() => ({ blocks: [], attacks: [], down: [] }));
  let passes = 0, plays = 0;
  for (let i = 0; i < n; i++) {
    const m = round.moves[i];
    if (m[1] === 'p') { passes++; continue; }
    const seat = Number(m[0]) - 1;
    const lead = plays === 0 || passes === players - 1;
    for (const mark of [m[1], m[2]]) {
      const j = hands[seat].findIndex((x) => kindOf(x) === kindOf(mark));
      if (j >= 0) hands[seat].splice(j, 1);
    }
    rows[seat].blocks.push(m[1]);
    rows[seat].attacks.push(m[2]);
    rows[seat].down.push(lead);
    plays++;
    passes = 0;
  }
  return { hands, rows };
}

function openReplay(id) {
  show('replay');
  $('replay-title').textContent = `#${id}`;
  $('dl-json').href = `/records/${id}.json`;
  $('dl-txt').href = `/records/${id}.txt`;
  fetch(`/records/${id}.json`).then((r) => r.json()).then((rec) => {
    const players = Number((rec.rules.match(/players=(\d)/) || [0, 4])[1]);
    const scale = /scale=ones/.test(rec.rules) ? 'ones' : 'tens';
    replay = { rec, players, round: 0, move: 0, rounds: rec.rounds.map((r) => parseRound(r.history, players)),
      shown: (v) => shownPoints(v, scale) };
    renderReplay();
  }).catch(() => showNotice(`${t('error')}: /records/${id}.json`));
}

function renderReplay() {
  const r = replay;
  const round = r.rounds[r.round];
  const pos = replayPosition(round, r.players, r.move);
  const names = r.rec.players.map((p, i) => p.name || p.engine || `${t('seat')} ${i + 1}`);
  const board = $('r-board');
  board.replaceChildren();
  const spots = placement(r.players, 0);
  for (const spot in spots) {
    const s = spots[spot];
    const node = el('div', { class: `territory r-${spot}` }, el('div', { class: 'who' },
      el('strong', { text: `${s + 1}. ${names[s]}` }), round.dealer === s ? el('span', { class: 'dealer-mark', text: t('dealer') }) : null));
    const blocks = el('div', { class: 'row' }), attacks = el('div', { class: 'row' });
    pos.rows[s].blocks.forEach((b, i) => { blocks.append(tile(b, { down: pos.rows[s].down[i] })); attacks.append(tile(pos.rows[s].attacks[i], { attack: true })); });
    const hand = el('div', { class: 'row' });
    for (const m of pos.hands[s]) hand.append(tile(m));
    node.append(blocks, attacks, hand);
    board.append(node);
  }
  const rr = r.rec.rounds[r.round];
  board.append(el('div', { class: 'r-center' },
    el('div', { text: t('round', { n: r.round + 1 }) }),
    el('div', { class: 'muted', text: `${rr.score_before.map(r.shown).join(' : ')} → ${rr.score_after.map(r.shown).join(' : ')}` })));
  $('r-pos').textContent = `${t('round', { n: r.round + 1 })} · ${t('move')} ${r.move}/${round.moves.length}`;
  const log = $('r-log');
  log.replaceChildren();
  round.moves.slice(0, r.move).forEach((m) => {
    const seat = Number(m[0]) - 1;
    log.append(el('li', { text: m[1] === 'p' ? `${names[seat]}: ${t('pass')}` : `${names[seat]}: ${KANJI[m[1]]} → ${KANJI[m[2]]}` }));
  });
}

function stepReplay(dr, dm) {
  if (!replay) return;
  const r = replay;
  if (dr) { r.round = Math.max(0, Math.min(r.rounds.length - 1, r.round + dr)); r.move = 0; }
  if (dm) {
    r.move += dm;
    if (r.move > r.rounds[r.round].moves.length) {
      if (r.round + 1 < r.rounds.length) { r.round++; r.move = 0; } else r.move = r.rounds[r.round].moves.length;
    }
    if (r.move < 0) {
      if (r.round > 0) { r.round--; r.move = r.rounds[r.round].moves.length; } else r.move = 0;
    }
  }
  renderReplay();
}

// ---- start ----

function applyLanguage() {
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll('[data-t]')) node.textContent = t(node.dataset.t);
  $('lang').textContent = lang === 'ja' ? 'English' : '日本語';
  if (me) setMe(me);
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
  $('replay-back').addEventListener('click', () => { history.replaceState(null, '', location.pathname); replay = null; route(); });
  $('r-prev').addEventListener('click', () => stepReplay(0, -1));
  $('r-next').addEventListener('click', () => stepReplay(0, 1));
  $('r-prev-round').addEventListener('click', () => stepReplay(-1, 0));
  $('r-next-round').addEventListener('click', () => stepReplay(1, 0));
  window.addEventListener('hashchange', route);
  if (location.hash !== '#offline') connect(); // offline play needs no server
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
