// The engine of the hint (hint.js): libgoita in WebAssembly in its own worker, given only the
// player's own view of the position (the "history" of its state, hidden pieces written x).
'use strict';
importScripts('wasm/goita.js', 'wasm-worker.js');

const { call, serve } = wasmWorker(createGoita, 'gw_new');

serve({
  hint: (rules, history, level, seed) => call('gw_hint', rules, history, level, seed),
  unseen: (rules, history) => call('gw_unseen', rules, history),
});
