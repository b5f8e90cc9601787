// The WebAssembly build (web/wasm/, scripts/wasm.sh) against the native build: for seeded
// games, at positions along each round, the computer players of several levels choose the
// same move with the same values from the mover's view, and the exact solver gives every
// move the same value. Usage: node parity.js GOITA WASM_DIR
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const [goita, wasmDir] = process.argv.slice(2);
const fail = (why) => { console.error('wasm parity: ' + why); process.exit(1); };
if (!goita || !wasmDir) fail('usage: node parity.js GOITA WASM_DIR');

const LEVELS = ['random', 'rules', 'sampler:samples=12,tt_mb=4', 'expert:samples=8,tt_mb=4', 'fast', 'master:ms=3,tt_mb=4',
  'master_2026_11:ms=3,tt_mb=4'];
const SEEDS = ['1', '7', '2026'];
const RULES = '';

// Runs one native engine session and returns its reply lines.
function engine(level, commands) {
  const run = spawnSync(goita, ['engine', '--player', level], { input: ['goita', ...commands, 'quit', ''].join('\n'), encoding: 'utf8' });
  if (run.status !== 0) fail(`goita engine --player ${level} exited with ${run.status}: ${run.stderr}`);
  return run.stdout.split('\n');
}

// The native player's choices for each position: { move, values: {token: "v.vv"}, deals: {token: n} }
// (the budgeted levels, fast and master, also say how many deals valued each move).
function nativeChoices(level, positions) {
  const commands = [];
  for (const p of positions) commands.push(`position ${p.view}`, `go seed ${p.seed}`);
  const out = [];
  let values = {}, deals = {};
  for (const line of engine(level, commands)) {
    if (line.startsWith('error')) fail(`native engine: ${line}`);
    const info = line.match(/^info move (\S+) value (\S+)(?: deals (\d+) agree \d+)?$/);
    if (info) { values[info[1]] = info[2]; if (info[3] !== undefined) deals[info[1]] = Number(info[3]); }
    const best = line.match(/^bestmove (\S+)$/);
    if (best) { out.push({ move: best[1], values, deals }); values = {}; deals = {}; }
  }
  return out;
}

// The native solver's value of each move of each full position: {token: value}.
function nativeSolves(positions) {
  const commands = [];
  for (const p of positions) commands.push(`position ${p.full}`, 'solve');
  const out = [];
  let values = {};
  for (const line of engine('random', commands)) {
    if (line.startsWith('error')) fail(`native solve: ${line}`);
    const info = line.match(/^info move (\S+) value (-?\d+)$/);
    if (info) values[info[1]] = Number(info[2]);
    if (/^value /.test(line)) { out.push(values); values = {}; }
  }
  return out;
}

(async () => {
  const createGoita = require(path.resolve(wasmDir, 'goita.js'));
  const M = await createGoita({ wasmBinary: fs.readFileSync(path.join(wasmDir, 'goita.wasm')) });
  const call = (name, ...args) => {
    const types = args.map((a) => (typeof a === 'number' ? 'number' : 'string'));
    const reply = JSON.parse(M.ccall(name, 'string', ['number', ...types], [ctx, ...args]));
    if (reply.error) fail(`${name}: ${reply.error}`);
    return reply;
  };
  const ctx = M.ccall('gw_new', 'number', [], []);
  // Positions from a round of each seeded game, played by the rules level in the wasm build.
  const positions = [];
  for (const seed of SEEDS) {
    call('gw_start', RULES, seed);
    for (let step = 0; ; step++) {
      const open = call('gw_state', -1);
      if (open.phase === 'over') break;
      const view = call('gw_state', open.turn).history;
      if (step % 3 === 0 && open.phase === 'play') positions.push({ view, seed: String(step + 1) });
      const choice = call('gw_choose_seat', open.turn, 'rules', String(step));
      call('gw_play', choice.move);
    }
    const full = call('gw_round_history').history;
    const tokens = full.split(',');
    for (const p of positions) {
      if (p.full) continue;
      // the same position with every hand: the full history cut after as many tokens
      p.full = tokens.slice(0, p.view.split(',').length).join(',');
    }
  }
  if (positions.length < 10) fail(`only ${positions.length} positions`);
  let compared = 0;
  for (const level of LEVELS) {
    const native = nativeChoices(level, positions);
    if (native.length !== positions.length) fail(`${level}: ${native.length} native answers for ${positions.length} positions`);
    positions.forEach((p, i) => {
      const wasm = call('gw_choose', RULES, p.view, level, p.seed);
      if (wasm.move !== native[i].move) fail(`${level} at ${p.view} seed ${p.seed}: wasm plays ${wasm.move}, native ${native[i].move}`);
      wasm.moves.forEach((m, j) => {
        // the engine prints 2 decimals: the same number rounds to within half a hundredth
        const v = wasm.values[j], n = Number(native[i].values[m]);
        if (!(Math.abs(v - n) <= 0.005 + 1e-9)) fail(`${level} at ${p.view}: move ${m} is worth ${v} in wasm, ${native[i].values[m]} native`);
        const d = native[i].deals[m];
        if (d !== undefined && wasm.deals[j] !== d) fail(`${level} at ${p.view}: move ${m} valued on ${wasm.deals[j]} deals in wasm, ${d} native`);
      });
      if (wasm.moves.length !== Object.keys(native[i].values).length) fail(`${level} at ${p.view}: the values differ in number`);
      compared++;
    });
  }
  const solves = nativeSolves(positions);
  positions.forEach((p, i) => {
    const wasm = call('gw_solve', RULES, p.full, 0);
    wasm.moves.forEach((m, j) => {
      const [lo, hi] = wasm.values[j];
      if (lo !== hi || solves[i][m] !== lo) fail(`solve at ${p.full}: move ${m} is worth ${lo}..${hi} in wasm, ${solves[i][m]} native`);
    });
    if (wasm.moves.length !== Object.keys(solves[i]).length) fail(`solve at ${p.full}: the moves differ in number`);
  });
  // A position loaded into the game (the tutorial's lessons): the same round, and the legal moves
  // the native build lists there; a wrong string is refused with its reason.
  for (const p of positions) {
    call('gw_load', RULES, p.full);
    const again = call('gw_round_history').history;
    if (again !== p.full) fail(`gw_load of ${p.full} holds ${again}`);
    const turn = call('gw_state', -1).turn;
    const legal = call('gw_state', turn).legal.join(' ');
    const native = spawnSync(goita, ['legal', p.full], { encoding: 'utf8' }).stdout.trim().split('\n').join(' ');
    if (legal !== native) fail(`gw_load of ${p.full}: legal moves ${legal}, native ${native}`);
  }
  const refused = JSON.parse(M.ccall('gw_load', 'string', ['number', 'string', 'string'], [ctx, RULES, '12345678,12345679,11112345,11112345,s1,2p']));
  if (!/token 6 "2p"/.test(refused.error || '')) fail(`gw_load of an illegal move answers ${JSON.stringify(refused)}`);
  console.log(`wasm parity: ${compared} choices at ${positions.length} positions (${LEVELS.join(', ')}) and ${positions.length} solves agree, and as many positions load`);
})().catch((e) => fail(e.stack || String(e)));
