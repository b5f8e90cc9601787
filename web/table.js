// The table: its territories, centre, the viewer's hand and moves, seating, scores, invite
// link, chat and rematch, all drawn from the last state the seat was sent (docs/SERVER.md).
'use strict';

let rematchTimer = null;

// One chat line, built of text nodes only: whatever was typed shows as typed.
function addChat(line) {
  const log = $('chat-log');
  const from = botMarked(line.from, line.bot_account);
  const who = line.seat >= 0 ? `${from} (${line.seat + 1})` : `${from} (${t('spectator')})`;
  log.append(el('li', {}, el('span', { class: 'from', text: who }), line.text));
  while (log.children.length > 50) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

// A private table's invite link, shown to everyone there.
function renderInvite() {
  $('invite-box').hidden = !view.invite;
  if (view.invite) $('invite-link').value = `${location.origin}${location.pathname}#invite/${view.invite}`;
}

// Copies the invite link (the clipboard where the page is secure, else the selection).
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

// The side a seat scores for: its team with four players, itself otherwise.
function sideOf(seat, players) { return players === 4 ? seat % 2 : seat; }

// A seat's name at the table on screen, or its number when empty.
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
  node.hidden = s === undefined; // no seat there with 2 or 3 players
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
  if (hasClock(s)) who.append(el('span', { class: 'clock', 'data-seat': String(s), role: 'timer', 'aria-label': t('clock', { name }) }));
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

// The viewer's legal moves now (none for a spectator or off turn).
function legalMoves() {
  return view && view.game && view.seat >= 0 ? view.game.legal : [];
}

// Whether the block chosen can still be played after a new state.
function choiceStillLegal() {
  // the chosen piece must still be there, at its place in the redrawn hand (a state that moved
  // the hand on would leave the choice on another piece, with no attack to offer)
  const hand = (view && view.game && view.game.hand) || '';
  return choice !== null && kindOf(hand[choice.index]) === choice.kind &&
    legalMoves().some((m) => m[1] === String(choice.kind));
}

// A piece's kind: both kings (8 and 9) are one.
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

// A move of the log in words: who, and pass, a decision, or block and attack.
function moveText(token) {
  const seat = Number(token[0]) - 1;
  const who = seatName(seat);
  if (token[1] === 'p') return `${who}: ${t('pass')}`;
  if (token[1] === 'r') return `${who}: ${t('redeal')}`;
  if (token[1] === 'g') return `${who}: ${t('go')}`;
  const block = token[1] === 'x' ? '■' : KANJI[token[1]];
  return `${who}: ${block} → ${KANJI[token[2]]}`;
}

// The middle of the table: the round, the attack to answer (dropping in when just played), a
// 5-pawn announcement and its decisions, the round's result while the next deal waits, and the
// game's end with a rematch.
function renderCenter(fresh) {
  const c = $('center');
  c.replaceChildren();
  const g = view.game;
  if (!g) {
    // what the table waits for: seats to fill, or someone seated to start it
    const full = view.seats.every((s) => s);
    const waitsFor = view.status !== 'waiting' ? null : !full ? 'start_needs' : view.seat >= 0 ? 'start_ready' : 'start_waiting_owner';
    c.append(el('p', { text: t(view.status) }));
    if (waitsFor) c.append(el('p', { id: 'start-status', class: 'muted', text: t(waitsFor) }));
    return;
  }
  c.append(el('div', { class: 'muted', text: t('round', { n: g.round }) }));
  if (g.phase === 'play' && g.attack) {
    const attack = tile(g.attack, { attack: true });
    if (fresh) attack.classList.add('fresh');
    c.append(el('div', { class: 'attack-now' }, attack),
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
    const q = view.invite ? `?key=${view.invite}` : ''; // a private table's record is given only with its code
    box.append(el('div', {},
      el('a', { href: `/records/${view.game_id}.json${q}`, download: '', text: t('download_json') }), ' · ',
      el('a', { href: `/records/${view.game_id}.txt${q}`, download: '', text: t('download_txt') }), ' · ',
      el('a', { href: `?game=${view.game_id}${view.invite ? '&key=' + view.invite : ''}`, text: t('replay') })));
  }
  box.append(rematchBox());
  return box;
}

// Before the start: a sit and a computer button for each empty seat, and the start button.
// During the game, at a table that allows it: a spectator's button to take over each seat a
// computer stands in for (docs/SERVER.md "Taking over a seat").
function renderSeating() {
  const box = $('seating');
  box.replaceChildren();
  if (view.status === 'playing' && view.take_over && view.seat < 0) {
    view.seats.forEach((seat, s) => {
      if (seat && !seat.bot && seat.stand_in) {
        box.append(el('button', { type: 'button', text: t('take_over_seat', { n: s + 1 }), on: { click: () => send({ type: 'sit', table: currentTable, seat: s }) } }));
      }
    });
  }
  if (view.status !== 'waiting') return;
  const players = view.seats.length;
  const seated = view.seat >= 0;
  for (let s = 0; s < players; s++) {
    if (view.seats[s]) continue;
    const level = el('select', { 'aria-label': `${t('seat')} ${s + 1}: ${t('quick_level')}` });
    for (const lv of levelsOffered()) level.append(el('option', { value: lv, text: t('level_' + lv) }));
    const team = players === 4 ? ` (${teamName(s)})` : '';
    box.append(el('span', { class: 'seat-chip' }, `${t('seat')} ${s + 1}${team}: `,
      // one seat a person: a seated player is offered no other
      seated ? null : el('button', { type: 'button', text: t('sit'), on: { click: () => send({ type: 'sit', table: currentTable, seat: s }) } }), seated ? null : ' ',
      level,
      el('button', { type: 'button', text: t('computer'), on: { click: () => send({ type: 'bot', table: currentTable, seat: s, level: level.value }) } })));
  }
  const full = view.seats.every((s) => s);
  if (!full) box.append(fillButton());
  if (seated) {
    box.append(el('button', { class: 'primary', type: 'button', text: t('start'),
      disabled: full ? undefined : 'disabled', on: { click: () => send({ type: 'start', table: currentTable }) } }));
  }
}

// One button that seats a computer player of the level chosen in every empty seat: the way to
// a game against the computer in one click from a new table.
function fillButton() {
  const level = el('select', { id: 'fill-level', 'aria-label': `${t('fill_computers')}: ${t('quick_level')}` });
  for (const lv of levelsOffered()) level.append(el('option', { value: lv, text: t('level_' + lv) }));
  if (levelsOffered().includes('expert')) level.value = 'expert';
  const fill = () => view.seats.forEach((s, seat) => {
    if (!s) send({ type: 'bot', table: currentTable, seat, level: level.value });
  });
  return el('span', { class: 'fill-seats' }, el('button', { id: 'fill-computers', type: 'button', text: t('fill_computers'), on: { click: fill } }), ' ', level);
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
  showClocks(-1);
  if (view.seconds_left !== undefined && view.status === 'playing') {
    let left = view.seconds_left;
    const tick = () => { $('timer').textContent = t('seconds', { n: Math.max(0, left) }); showClocks(Math.max(0, left)); left--; };
    tick();
    countdown = setInterval(tick, 1000);
  }
  renderInvite();
  renderCenter(fresh);
  renderSeating();
  renderControls();
  renderRoundResult();
  const log = $('log');
  log.replaceChildren();
  for (const token of (g ? g.log : [])) log.append(el('li', { text: moveText(token) }));
  log.scrollTop = log.scrollHeight;
}

// Whether a seat has a clock to show: a person's (not a computer's nor a stand-in's) at a table
// with a turn timer or a time bank (docs/SERVER.md "Time controls").
function hasClock(s) {
  const seat = view.seats[s];
  return !!seat && !seat.bot && !seat.stand_in && view.status === 'playing' && (view.turn_seconds > 0 || view.bank_seconds > 0);
}

// m:ss
function clockTime(seconds) { return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`; }

// Each seat's clock: its bank left, then the byoyomi; the seat to move's counted down from
// `left`, the seconds the server gave it (-1: not running). The server decides; this only shows.
function showClocks(left) {
  const byoyomi = view.turn_seconds || 0;
  for (const node of document.querySelectorAll('.clock[data-seat]')) {
    const s = Number(node.dataset.seat);
    const moving = left >= 0 && view.game && view.game.turn === s;
    const bank = moving ? Math.max(0, left - byoyomi) : ((view.seats[s] || {}).bank_left || 0);
    const byo = moving ? Math.min(left, byoyomi) : byoyomi;
    const parts = [];
    if (view.bank_seconds > 0) parts.push(clockTime(bank));
    if (byoyomi > 0) parts.push(t('seconds_n', { n: byo }));
    node.textContent = parts.join(' + '); // no clock glyph: the page's shipped font has none
    node.classList.toggle('running', moving);
  }
}

// The score bar: the viewer's team first, marked, with four players; each seat otherwise.
function tableScores(g) {
  const p = (v) => shownPoints(v, g.scale);
  if (view.seats.length !== 4) return scoreLine(g.scores, view.seats.length, seatName, g.scale, g.target);
  const mine = view.seat >= 0 ? sideOf(view.seat, 4) : 0;
  const mark = view.seat >= 0 ? ` (${t('us')})` : '';
  return `${teamName(mine)}${mark} ${p(g.scores[mine])} — ${teamName(1 - mine)} ${p(g.scores[1 - mine])} / ${p(g.target)}`;
}
