// goita-core's own random playout loop: deal at random, play uniformly random legal moves
// (getPossibleMoves), continue 5-pawn deals, until the round ends. Prints moves/s and rounds/s
// in the same shape as `goita bench playout`. Usage: node playout.js [ROUNDS]
'use strict';
const { Board } = require('goita-core');

const rounds = Number(process.argv[2] || 20000);
let moves = 0;
const start = process.hrtime.bigint();
for (let i = 0; i < rounds; i++) {
  const board = Board.createRandomly(i % 4);
  while (!board.isEndOfDeal) {
    if (board.isGoshiSuspended) board.continueGoshi();
    const legal = board.toThinkingInfo().getPossibleMoves();
    board.playMove(legal[Math.floor(Math.random() * legal.length)]);
    moves++;
  }
}
const secs = Number(process.hrtime.bigint() - start) / 1e9;
console.log(`goita-core playout  rounds ${rounds}  moves ${moves}  ${secs.toFixed(3)} s  ` +
  `${(moves / secs / 1e3).toFixed(1)}k moves/s  ${(rounds / secs / 1e3).toFixed(2)}k rounds/s  ` +
  `${(moves / rounds).toFixed(1)} moves/round`);
