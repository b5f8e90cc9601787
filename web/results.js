// Round results that stay on the table until dismissed, and the 5-pawn announcements and
// decisions. Built only from the state messages the seat was sent (docs/SERVER.md): the hands a
// result shows are the ones the rules reveal (a teyaku hand, five pawns announced), and to a
// spectator the whole finished round the server sends it.
'use strict';

let shownResult = null;   // the summary of a finished round on screen, until dismissed
let resultRound = '';     // "table:round" of the last round summarised, not to reopen it

// The 5-pawn decisions in a round's moves ("3r", "3g"), in order.
function decisionsOf(moves) {
  return moves.filter((m) => /^\d[rg]$/.test(m));
}

// How a round ended, in one sentence; nameOf(seat) names a seat.
function resultSentence(r, nameOf, scale) {
  const points = shownPoints(r.points, scale);
  if (r.end === 'finish') return `${t('result', { name: nameOf(r.winner), points })}${r.doubled ? ' ' + t('doubled') : ''}`;
  if (r.end === 'teyaku') return t('teyaku_win', { name: nameOf(r.winner), points });
  if (r.end === 'double_goshi') return t('double_goshi', { name: nameOf(r.winner), points });
  return t('redeal_result');
}

// Who gets a round's points: the winner's team with four players, else the winner.
function pointsLine(r, players, nameOf, scale) {
  if (r.winner === null || r.winner === undefined || r.winner < 0 || !r.points) return null;
  const team = players === 4 ? `${teamName(r.winner)} (${nameOf(r.winner)} · ${nameOf((r.winner + 2) % 4)})` : nameOf(r.winner);
  return t('points_to', { team, points: shownPoints(r.points, scale) });
}

// The 5-pawn part of a round: each holder with five pawns drawn, and each decision taken.
function goshiBox(goshi, players, decisions, nameOf) {
  const box = el('div', { class: 'goshi' });
  for (let s = 0; s < players; s++) {
    if (!((goshi >> s) & 1)) continue;
    const pawns = el('span', { class: 'pawns' });
    for (let i = 0; i < 5; i++) pawns.append(tile(1));
    box.append(el('div', { class: 'goshi-line' }, el('span', { text: t('goshi_announced', { name: nameOf(s) }) }), pawns));
  }
  for (const d of decisions) box.append(el('div', { class: 'decision', text: t('decision_' + d[1], { name: nameOf(Number(d[0]) - 1) }) }));
  return box.children.length ? box : null;
}

// A running score line: per team with four players, per seat otherwise.
function scoreLine(scores, players, nameOf, scale, target) {
  const p = (v) => shownPoints(v, scale);
  const sides = players === 4 ? scores.map((v, i) => `${teamName(i)} ${p(v)}`) : scores.map((v, i) => `${nameOf(i)} ${p(v)}`);
  return `${sides.join(' — ')}${target ? ` / ${p(target)}` : ''}`;
}

// What a finished round's summary holds, read from the table's state at the round's end.
function roundSummary(v) {
  const g = v.game;
  const r = g.result;
  const s = {
    table: v.table, round: g.round, result: r, scale: g.scale, players: v.seats.length, scores: g.scores.slice(),
    target: g.target, goshi: g.goshi, decisions: decisionsOf(g.log), teyaku: g.teyaku_hand || null, last: null,
    seats: v.seats.slice(), over: v.status === 'over', dealt: null,
  };
  // a spectator is sent the finished round in full (docs/SERVER.md): every hand as dealt
  if (v.seat < 0 && v.previous_round) s.dealt = parseRound(v.previous_round, s.players).hands;
  if (r.end === 'finish' && r.winner >= 0) {
    const row = g.rows[r.winner];
    const i = row.blocks.length - 1;
    if (i >= 0) s.last = { block: row.blocks[i], down: row.face_down[i] === '1', attack: row.attacks[i] };
  }
  return s;
}

// Called with every state of the table on screen: a round just over opens its summary.
function noteRoundEnd(v) {
  const g = v.game;
  if (!g || g.phase !== 'over' || !g.result) return;
  const key = `${v.table}:${g.round}`;
  if (key === resultRound && !(shownResult && v.status === 'over' && !shownResult.over)) return;
  resultRound = key;
  shownResult = roundSummary(v);
}

// Forgets the summary (another table, or back to the lobby).
function clearRoundResult() {
  shownResult = null;
  resultRound = '';
  renderRoundResult();
}

// Draws the summary of the last finished round, or nothing once it was dismissed.
function renderRoundResult() {
  const box = $('round-result');
  box.replaceChildren();
  box.hidden = !shownResult;
  if (!shownResult) return;
  const s = shownResult;
  const nameOf = (seat) => (s.seats[seat] ? displayName(s.seats[seat], seat) : t('seat_n', { n: seat + 1 }));
  box.append(el('h2', { id: 'round-result-title', text: t('round_result', { n: s.round }) }),
    el('p', { class: 'sentence', text: resultSentence(s.result, nameOf, s.scale) }));
  const points = pointsLine(s.result, s.players, nameOf, s.scale);
  if (points) box.append(el('p', { text: points }));
  if (s.last) {
    box.append(el('div', { class: 'reveal' }, el('span', { text: t('last_pieces') }),
      tile(s.last.block, { down: s.last.down }), tile(s.last.attack, { attack: true }),
      s.result.doubled ? el('span', { class: 'doubled', text: t('doubled') }) : null));
  }
  if (s.teyaku) {
    const hand = el('span', { class: 'pawns' });
    for (const m of s.teyaku) hand.append(tile(m));
    box.append(el('div', { class: 'reveal' }, el('span', { text: t('teyaku_hand') }), hand));
  }
  const goshi = goshiBox(s.goshi, s.players, s.decisions, nameOf);
  if (goshi) box.append(goshi);
  if (s.dealt) {
    const hands = el('div', { class: 'dealt' }, el('h3', { text: t('hands_dealt') }));
    s.dealt.forEach((hand, seat) => {
      const who = `${seat + 1}. ${nameOf(seat)}`;
      hands.append(el('div', { class: 'reveal', role: 'group', 'aria-label': t('row_hand_long', { name: who }) },
        el('span', { class: 'dealt-name', text: who }), ...hand.map((m) => tile(m))));
    });
    box.append(hands);
  }
  box.append(el('p', { class: 'score' }, el('strong', { text: `${t(s.over ? 'final_score' : 'score_now')}: ` }),
    scoreLine(s.scores, s.players, nameOf, s.scale, s.target)));
  box.append(el('button', { id: 'round-result-close', type: 'button', text: t('dismiss'),
    on: { click: () => { shownResult = null; renderRoundResult(); } } }));
  if (window.goitaRoundMistakes) window.goitaRoundMistakes.attach(box, s); // the biggest mistakes, online
}
