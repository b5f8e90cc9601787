// The Ko shogi engine of web/koshogi.html: libkoshogi compiled to WebAssembly (wasm/koshogi.js,
// built by scripts/wasm.sh) in a Web Worker, so the page never waits on the computer's search.
// The page posts {id, op, args} and gets {id, result} or {id, error}.
'use strict';
importScripts('wasm/koshogi.js', 'wasm-worker.js');

// The functions of src/wasm/koshogi_wasm.h, called on the worker's game.
const { call, serve } = wasmWorker(createKoshogi, 'ksw_new');

const ops = {
  faces: () => call('ksw_faces'),
  start: (position) => call('ksw_start', position),
  state: (ply) => call('ksw_state', ply),
  play: (move) => call('ksw_play', move),
  think: (ms) => call('ksw_think', ms),
  resign: () => call('ksw_resign'),
  truncate: (ply) => call('ksw_truncate', ply),
  record: (black, white) => call('ksw_record', black, white),
  load: (record) => call('ksw_load', record),
  help: (id, color) => call('ksw_help', id, color),
};

serve(ops);
