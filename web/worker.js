// The engine of offline play and analysis: libgoita compiled to WebAssembly (wasm/goita.js,
// built by scripts/wasm.sh) in a Web Worker, so the page never waits on it. The page posts
// {id, op, args} and gets {id, result} or {id, error}; "analyse" also posts {id, progress}.
'use strict';
importScripts('wasm/goita.js', 'wasm-worker.js');

// The functions of src/wasm/goita_wasm.h, called on the worker's context.
const { call, serve } = wasmWorker(createGoita, 'gw_new');

// A move token with the king 玉 (9) written as 王 (8), as the engine lists moves.
function kingAs8(token) { return token.replace(/9/g, '8'); }

// The analysis of one round (a full history string): for each play, the exact values of every
// move with all hands known, and what the player of `level` would choose from the mover's own
// view. Values are points for the mover's side; a move's loss is the best value less its own.
function analyse(id, rules, history, level, players) {
  const tokens = history.split(',');
  const moves = tokens.slice(players + 1);
  const out = [];
  for (let i = 0; i < moves.length; i++) {
    const position = tokens.slice(0, players + 1 + i).join(',');
    const played = moves[i];
    const solved = call('gw_solve', rules, position, 0);
    if (/[rg]$/.test(solved.moves[0] || '') && !/[rg]$/.test(played)) {
      // A 5-pawn decision the string leaves out: play followed, so each decision was to play
      // (docs/RECORDS.md 1.5). Write it into the dealer token and look at this play again.
      tokens[players] += `+${solved.moves[0][0]}g`;
      i--;
      continue;
    }
    const at = solved.moves.findIndex((m) => kingAs8(m) === kingAs8(played));
    const best = solved.value[0];
    const value = at >= 0 ? solved.values[at][0] : best;
    const bestMoves = solved.moves.filter((m, j) => solved.values[j][0] === best);
    const choice = call('gw_choose', rules, position, level, String(i + 1));
    out.push({ index: i, seat: Number(played[0]) - 1, played, value, best, loss: best - value, best_moves: bestMoves,
      exact: solved.complete === 1,
      computer: { move: choice.move, moves: choice.moves, values: choice.values, deals: choice.deals, agree: choice.agree } });
    postMessage({ id, progress: (i + 1) / moves.length });
  }
  return out;
}

const ops = {
  start: (rules, seed) => call('gw_start', rules, seed),
  state: (seat) => call('gw_state', seat),
  play: (token) => call('gw_play', token),
  next: () => call('gw_next_round'),
  history: () => call('gw_round_history'),
  chooseSeat: (seat, level, seed) => call('gw_choose_seat', seat, level, seed),
  choose: (rules, history, level, seed) => call('gw_choose', rules, history, level, seed),
  solve: (rules, history, ms) => call('gw_solve', rules, history, ms),
  analyse(...args) { return analyse(this.id, ...args); },
  load: (rules, history) => call('gw_load', rules, history),
};

serve(ops);
