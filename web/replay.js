// Replays of stored games (docs/RECORDS.md): every round move by move with all hands in the
// open, the 5-pawn decisions and each round's result, driven by buttons or keys, and a link
// to every position (?game=ID&round=R&move=M; round from 1, move = moves shown).
'use strict';

let replay = null;

// A round's history string as hands, dealer and moves (decisions "3r"/"3g" among them).
function parseRound(history, players) {
  const tokens = history.split(',');
  const hands = tokens.slice(0, players).map((h) => h.split(''));
  const dealer = Number(tokens[players][1]) - 1;
  const moves = tokens.slice(players + 1);
  return { hands, dealer, moves };
}

// The table after the first n moves of a round, everything in the open, and who played last.
function replayPosition(round, players, n) {
  const hands = round.hands.map((h) => h.slice());
  const rows = hands.map(() => ({ blocks: [], attacks: [], down: [] }));
  let passes = 0, plays = 0, last = -1;
  for (let i = 0; i < n; i++) {
    const m = round.moves[i];
    if (m[1] === 'p') { passes++; continue; }
    if (!/^\d\d\d$/.test(m)) continue; // a 5-pawn decision
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
    last = seat;
  }
  return { hands, rows, last };
}

// The seats dealt exactly five pawns in a round, as the state's goshi bit mask.
function goshiOf(round) {
  let mask = 0;
  round.hands.forEach((h, s) => { if (h.filter((m) => m === '1').length === 5) mask |= 1 << s; });
  return mask;
}

// Loads a stored game's record and shows it at round (from 1) and move; key is the invite code
// a private table's game is given with ('' for any other).
function openReplay(id, round, move, key) {
  show('replay');
  $('replay-title').textContent = `#${id}`;
  const q = key ? `?key=${key}` : '';
  $('dl-json').href = `/records/${id}.json${q}`;
  $('dl-txt').href = `/records/${id}.txt${q}`;
  replayMissing(null);
  fetch(`/records/${id}.json${q}`).then((r) => { if (!r.ok) throw new Error(r.status); return r.json(); }).then((rec) => {
    const players = Number((rec.rules.match(/players=(\d)/) || [0, 4])[1]);
    const scale = /scale=ones/.test(rec.rules) ? 'ones' : 'tens';
    const rounds = rec.rounds.map((r) => parseRound(r.history, players));
    const r = Math.max(0, Math.min(rounds.length - 1, (round || 1) - 1));
    replay = { id, key, rec, players, scale, rounds, round: r, move: Math.max(0, Math.min(rounds[r].moves.length, move || 0)) };
    renderReplay();
  }).catch((e) => replayMissing({ id, status: Number(e.message) || 0 }));
}

// The replay's page for a game that could not be opened (missing = { id, status }: 404 when
// the server has no such finished game, 0 when it did not answer), or back to the replay
// itself (missing = null).
function replayMissing(missing) {
  for (const node of document.querySelectorAll('#replay .replay-nav, #replay .replay-help, #dl-json, #dl-txt, #r-board, #r-log')) node.hidden = !!missing;
  const old = $('r-missing');
  if (old) old.remove();
  if (!missing) return;
  replay = null;
  $('r-board').replaceChildren();
  $('r-log').replaceChildren();
  const box = el('section', { id: 'r-missing', class: 'panel' },
    el('h2', { text: t(missing.status === 404 ? 'game_missing' : 'game_unreachable', { n: missing.id }) }),
    el('p', { class: 'muted', text: t(missing.status === 404 ? 'game_missing_help' : 'game_unreachable_help') }),
    el('a', { href: location.pathname, text: t('to_lobby') }));
  $('r-board').before(box);
}

// One seat's territory in a replay: name and team, its two rows and its hand.
function replayTerritory(spot, s, names, round, pos) {
  const r = replay;
  const who = el('div', { class: 'who' }, el('strong', { text: `${s + 1}. ${names[s]}` }),
    r.players === 4 ? el('span', { class: `team-mark team-${s % 2 ? 'b' : 'a'}`, text: teamName(s) }) : null,
    round.dealer === s ? el('span', { class: 'dealer-mark', text: t('dealer') }) : null);
  const node = el('div', { class: `territory r-${spot}${r.players === 4 ? (s % 2 ? ' team-b' : ' team-a') : ''}` }, who);
  const row = pos.rows[s];
  const blocks = [], attacks = [];
  row.blocks.forEach((b, i) => {
    const last = pos.last === s && i === row.blocks.length - 1;
    const pb = tile(b, { down: row.down[i] }), pa = tile(row.attacks[i], { attack: true });
    if (last) { pb.classList.add('last'); pa.classList.add('last'); }
    blocks.push(pb);
    attacks.push(pa);
  });
  node.append(pieceRow('blocks', names[s], blocks), pieceRow('attacks', names[s], attacks));
  node.append(pieceRow('hand', names[s], pos.hands[s].map((m) => tile(m))));
  return node;
}

// The middle of a replayed round: where it stands, its 5-pawn decisions, and at its last
// move its result and the scores.
function replayCenter(round, rr, names) {
  const r = replay;
  const nameOf = (s) => names[s];
  const center = el('div', { class: 'r-center' }, el('div', { text: t('round', { n: r.round + 1 }) }));
  const goshi = goshiBox(goshiOf(round), r.players, rr.decisions || decisionsOf(round.moves), nameOf);
  if (goshi) center.append(goshi);
  if (r.move === round.moves.length && rr.result) {
    // a record numbers seats from 1 (docs/RECORDS.md), the state messages from 0
    const result = { ...rr.result, winner: rr.result.winner ? rr.result.winner - 1 : null };
    const box = el('div', { class: 'result' }, el('div', { text: resultSentence(result, nameOf, r.scale) }));
    const points = pointsLine(result, r.players, nameOf, r.scale);
    if (points) box.append(el('div', { text: points }));
    center.append(box);
  }
  const after = r.move === round.moves.length ? rr.score_after : rr.score_before;
  center.append(el('div', { class: 'muted', text: scoreLine(after, r.players, nameOf, r.scale, 0) }));
  return center;
}

// Draws the replay at its round and move, and puts that position in the address.
function renderReplay() {
  const r = replay;
  const round = r.rounds[r.round];
  const rr = r.rec.rounds[r.round];
  const pos = replayPosition(round, r.players, r.move);
  const names = r.rec.players.map((p, i) => shownName(p.name || p.engine || t('seat_n', { n: i + 1 })));
  const board = $('r-board');
  board.replaceChildren();
  const spots = placement(r.players, 0);
  for (const spot in spots) board.append(replayTerritory(spot, spots[spot], names, round, pos));
  board.append(replayCenter(round, rr, names));
  $('r-pos').textContent = `${t('round', { n: r.round + 1 })} (${t('round_of', { n: r.rounds.length })}) · ` +
    (round.moves.length ? `${t('move')} ${r.move}/${round.moves.length}` : t('no_moves'));
  const link = `?game=${r.id}${r.key ? '&key=' + r.key : ''}&round=${r.round + 1}&move=${r.move}`;
  history.replaceState(null, '', link);
  $('r-link').href = link;
  const log = $('r-log');
  log.replaceChildren();
  round.moves.slice(0, r.move).forEach((m) => {
    const seat = Number(m[0]) - 1;
    let what = `${KANJI[m[1]] || '■'} → ${KANJI[m[2]]}`;
    if (m[1] === 'p') what = t('pass');
    else if (m[1] === 'r') what = t('redeal');
    else if (m[1] === 'g') what = t('go');
    log.append(el('li', { text: `${names[seat]}: ${what}` }));
  });
  log.scrollTop = log.scrollHeight;
}

// Moves the replay dr rounds and dm moves (across round ends), or to a round's start or end.
function stepReplay(dr, dm, to) {
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
  if (to === 'start') r.move = 0;
  if (to === 'end') r.move = r.rounds[r.round].moves.length;
  renderReplay();
}

// The replay's buttons and keys: ←/→ a move, Home/End the round's start and end,
// PageUp/PageDown a round.
function initReplay() {
  $('r-prev').addEventListener('click', () => stepReplay(0, -1));
  $('r-next').addEventListener('click', () => stepReplay(0, 1));
  $('r-prev-round').addEventListener('click', () => stepReplay(-1, 0));
  $('r-next-round').addEventListener('click', () => stepReplay(1, 0));
  const keys = { ArrowLeft: [0, -1], ArrowRight: [0, 1], PageUp: [-1, 0], PageDown: [1, 0], Home: [0, 0, 'start'], End: [0, 0, 'end'] };
  document.addEventListener('keydown', (e) => {
    if ($('replay').hidden || !replay || e.altKey || e.ctrlKey || e.metaKey) return;
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName) || !keys[e.key]) return;
    e.preventDefault();
    stepReplay(...keys[e.key]);
  });
}
