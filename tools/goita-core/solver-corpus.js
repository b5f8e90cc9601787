// Solver data from goita-core, the public JavaScript engine: what its exact solver says each
// legal move of a position is worth. tests/solver_corpus.c compares our solver with it
// (docs/SOLVER.md, "Proof against goita-core").
//
// Usage:
//   node solver-corpus.js corpus --positions N --seed S --left A-B --out FILE
//       seeded random positions with at most A to B pieces left in hands and at least three
//       legal moves, each solved.
//   node solver-corpus.js time FILE
//       times goita-core's solver on the history strings of FILE (the third tab-separated
//       field of each line, as `goita bench solve --list` writes them).
//
// Corpus lines (tab-separated): history, then the moves as "token:value" separated by
// spaces (sorted, 9 read as 8), then goita-core's time in ms. Values are in points from the
// point of view of the seat to move. goita-core lets a king go face-down: compare under
// king_face_down=allowed.
'use strict';
const fs = require('fs');
const { Board, Solver } = require('goita-core');
const { seededRandom } = require('./seeded-random');

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

let below; // the seeded generator of corpus()

const SET = '11111111112222333344445555667789';
function deal() {
  const pieces = SET.split('');
  for (let i = pieces.length - 1; i > 0; i--) {
    const j = below(i + 1);
    [pieces[i], pieces[j]] = [pieces[j], pieces[i]];
  }
  const hands = [];
  for (let s = 0; s < 4; s++) hands.push(pieces.slice(s * 8, s * 8 + 8).sort().join(''));
  return hands;
}

// Pieces still in hands: 32 less two for every play written after the dealer token.
function piecesLeft(history) {
  return 32 - 2 * history.split(',').slice(5).filter((t) => !t.endsWith('p')).length;
}

// goita-core's value of every legal move, 9 read as 8 (the two kings give one move).
function solve(history) {
  const start = process.hrtime.bigint();
  const evaluated = new Solver().solve(history);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const values = new Map();
  for (const e of evaluated) {
    const token = e.move.toOpenString().replace(/9/g, '8');
    const score = e.score;
    if (values.has(token) && values.get(token) !== score)
      throw new Error(`${history}: ${token} has two values (${values.get(token)}, ${score})`);
    values.set(token, score);
  }
  return { values, ms };
}

function corpus() {
  const positions = Number(arg('--positions', 100));
  ({ below } = seededRandom(Number(arg('--seed', 1))));
  const [lo, hi] = String(arg('--left', '8-14')).split('-').map(Number);
  const outPath = arg('--out', null);
  if (!outPath || !(positions > 0) || !(lo >= 2 && hi >= lo && hi <= 32)) {
    console.error('usage: node solver-corpus.js corpus --positions N --seed S --left A-B --out FILE');
    process.exit(2);
  }
  const lines = [];
  while (lines.length < positions) {
    const left = lo + 2 * below((hi - lo) / 2 + 1);
    let history = `${deal().join(',')},s${below(4) + 1}`;
    let board = Board.createFromString(history);
    if (board.isGoshiSuspended || board.isEndOfDeal) continue;
    // Play on to the pieces asked for, then on to a position with a real choice.
    while (!board.isEndOfDeal &&
           (piecesLeft(history) > left || board.toThinkingInfo().getPossibleMoves().length < 3)) {
      const moves = board.toThinkingInfo().getPossibleMoves();
      board.playMove(moves[below(moves.length)]);
      history = board.toHistoryString();
      board = Board.createFromString(history);
    }
    if (board.isEndOfDeal) continue;
    const { values, ms } = solve(history);
    const moves = [...values.entries()].sort(([a], [b]) => (a < b ? -1 : a > b)).map(([m, v]) => `${m}:${v}`);
    lines.push(`${history}\t${moves.join(' ')}\t${ms.toFixed(1)}`);
  }
  fs.writeFileSync(outPath, lines.join('\n') + '\n');
}

function time() {
  const file = process.argv[3];
  if (!file) {
    console.error('usage: node solver-corpus.js time FILE');
    process.exit(2);
  }
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const fields = line.split('\t');
    if (fields.length < 3) continue;
    const { values, ms } = solve(fields[2]);
    const value = Math.max(...values.values());
    console.log(`${fields[0]}\t${fields[1]}\tvalue ${value}\t${ms.toFixed(1)} ms`);
  }
}

if (process.argv[2] === 'corpus') corpus();
else if (process.argv[2] === 'time') time();
else {
  console.error('usage: node solver-corpus.js corpus|time ...');
  process.exit(2);
}
