// The Ko shogi engine of web/koshogi.html: libkoshogi compiled to WebAssembly (wasm/koshogi.js,
// built by scripts/wasm.sh) in a Web Worker, so the page never waits on the computer's search.
// The page posts {id, op, args} and gets {id, result} or {id, error}.
'use strict';
importScripts('wasm/koshogi.js');

let engine = null;
// emscripten looks for koshogi.wasm beside the worker; it sits in wasm/ with koshogi.js
const ready = createKoshogi({ locateFile: (file) => 'wasm/' + file }).then((module) => {
  engine = { module, ctx: module.ccall('ksw_new', 'number', [], []) };
  if (!engine.ctx) throw new Error('out of memory');
});

// Calls one function of src/wasm/koshogi_wasm.h on the worker's game; throws its error.
function call(name, ...args) {
  const types = args.map((a) => (typeof a === 'number' ? 'number' : 'string'));
  const reply = JSON.parse(engine.module.ccall(name, 'string', ['number', ...types], [engine.ctx, ...args]));
  if (reply.error) throw new Error(reply.error);
  return reply;
}

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

onmessage = (e) => {
  const { id, op, args } = e.data;
  ready.then(() => {
    if (!ops[op]) throw new Error(`unknown operation ${op}`);
    return ops[op](...args);
  }).then((result) => postMessage({ id, result }), (err) => postMessage({ id, error: String(err.message || err) }));
};
