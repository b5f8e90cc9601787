// Differential test data from goita-core, the public JavaScript engine: seeded random rounds,
// and for every prefix of each round what goita-core says about it. tests/differential.c
// reads the file and compares our engine line by line (docs/RECORDS.md 4, "Proof against
// goita-core").
//
// Usage: node differential.js --rounds N --seed S --out FILE
//
// Lines (tab-separated):
//   P  history  legal  over  winner  points
//      legal: goita-core's legal moves as sorted tokens ("2p 213 ..."), 9 read as 8, without
//      duplicates; "-" while a 5-pawn deal waits for the partner's decision (goita-core has
//      no move for it). over 0/1; winner seat 1-4 or 0; points as goita-core scores them.
//   V  history  viewer  hidden
//      goita-core's toHiddenString(viewer) of that history, viewer 1-4 or 0 for an observer.
'use strict';
const fs = require('fs');
const { Board } = require('goita-core');
const { seededRandom } = require('./seeded-random');

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}
const rounds = Number(arg('--rounds', 1000));
const seed = Number(arg('--seed', 1)) >>> 0;
const outPath = arg('--out', null);
if (!outPath || !(rounds > 0)) {
  console.error('usage: node differential.js --rounds N --seed S --out FILE');
  process.exit(2);
}

const { random, below } = seededRandom(seed);

const SET = '11111111112222333344445555667789';
function shuffle(pieces) {
  for (let i = pieces.length - 1; i > 0; i--) {
    const j = below(i + 1);
    [pieces[i], pieces[j]] = [pieces[j], pieces[i]];
  }
  return pieces;
}

// Most deals are uniform. One in eight is pawn-rich, so that the rare deal rules get many
// cases: 5 pawns in two hands (same team or not), or 6-8 pawns in one (teyaku).
function deal() {
  const hands = [[], [], [], []];
  let rest = SET.split('');
  if (random() < 0.125) {
    const a = below(4);
    const b = (a + 1 + below(3)) % 4;
    const rich = random() < 0.5 ? [[a, 5], [b, 5]] : [[a, 6 + below(3)]];
    for (const [seat, pawns] of rich) {
      for (let i = 0; i < pawns; i++) hands[seat].push('1');
      rest.splice(rest.indexOf('1'), pawns === 5 ? 5 : pawns);
    }
  }
  rest = shuffle(rest);
  for (let s = 0; s < 4; s++) while (hands[s].length < 8) hands[s].push(rest.pop());
  return hands.map((h) => h.sort().join(''));
}

function legalTokens(board) {
  const seen = new Set();
  for (const m of board.toThinkingInfo().getPossibleMoves()) seen.add(m.toOpenString().replace(/9/g, '8'));
  return [...seen].sort().join(' ');
}

function endOf(board) {
  if (!board.isEndOfDeal) return [0, 0, 0];
  const f = board.getFinishState();
  if (f && f.redeal) return [1, 0, 0];
  const last = board.toHistoryString().split(',').length > 5 ? board.history.lastMove : null;
  if (last && last.finish) return [1, last.no + 1, last.toScore()];
  return [1, f.nextDealerNo + 1, f.wonScore];
}

const out = fs.createWriteStream(outPath);
for (let round = 0; round < rounds; round++) {
  const hands = deal();
  const dealer = below(4);
  let history = `${hands.join(',')},s${dealer + 1}`;
  let board = Board.createFromString(history);
  const viewAt = below(40); // one prefix per round also gets its hidden views compared
  for (let ply = 0; ; ply++) {
    const suspended = board.isGoshiSuspended && !board.isEndOfDeal;
    const [over, winner, points] = endOf(board);
    const legal = suspended ? '-' : legalTokens(board);
    out.write(`P\t${history}\t${legal}\t${over}\t${winner}\t${points}\n`);
    if (ply === viewAt || over) {
      for (let viewer = 0; viewer <= 4; viewer++)
        out.write(`V\t${history}\t${viewer}\t${board.history.toHiddenString(viewer - 1)}\n`);
    }
    if (over) break;
    if (suspended) {
      // The partners decide, written with our decision extension (the dealer token's "+3r"),
      // asked in turn order from the dealer. A redeal needs every partner asked to say it
      // (with one 5-pawn hand per team, both); the first "play" settles play.
      const partners = board.goshiPlayerNo.map((s) => (s + 2) % 4)
        .sort((a, b) => ((a - dealer + 4) % 4) - ((b - dealer + 4) % 4));
      const redeal = random() < 0.25;
      const tokens = redeal ? partners.map((p) => `+${p + 1}r`).join('') : `+${partners[0] + 1}g`;
      history = history.replace(/,s\d/, (m) => m + tokens);
      if (redeal) {
        out.write(`P\t${history}\t\t1\t0\t0\n`);
        break;
      }
      board.continueGoshi();
      continue; // play goes on from the same deal
    }
    const moves = board.toThinkingInfo().getPossibleMoves();
    const move = moves[below(moves.length)];
    board.playMove(move);
    history = board.toHistoryString();
    board = Board.createFromString(history); // what a reader of the string gets
  }
}
out.end();
