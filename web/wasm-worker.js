// What the WebAssembly workers share (worker.js for Goita, koshogi-worker.js for Ko shogi): a
// module built by scripts/wasm.sh, loaded with one context; its JSON functions called on that
// context; the page's requests {id, op, args} answered {id, result} or {id, error}.
'use strict';

// Loads a module from its factory (createGoita, createKoshogi) and makes its context with the
// function named. Answers call(name, ...args), which calls one function of the module on the
// context and throws the error it answers, and serve(ops), which answers the page's requests
// with the operations given (each called with {id} as this, for progress messages).
function wasmWorker(factory, newContext) {
  let engine = null;
  // emscripten looks for the .wasm beside the worker; it sits in wasm/ with its .js
  const ready = factory({ locateFile: (file) => 'wasm/' + file }).then((module) => {
    engine = { module, ctx: module.ccall(newContext, 'number', [], []) };
    if (!engine.ctx) throw new Error('out of memory');
  });
  const call = (name, ...args) => {
    const types = args.map((a) => (typeof a === 'number' ? 'number' : 'string'));
    const reply = JSON.parse(engine.module.ccall(name, 'string', ['number', ...types], [engine.ctx, ...args]));
    if (reply.error) throw new Error(reply.error);
    return reply;
  };
  const serve = (ops) => {
    onmessage = (e) => {
      const { id, op, args } = e.data;
      ready.then(() => {
        if (!ops[op]) throw new Error(`unknown operation ${op}`);
        return ops[op].apply({ id }, args);
      }).then((result) => postMessage({ id, result }), (err) => postMessage({ id, error: String(err.message || err) }));
    };
  };
  return { call, serve };
}
