// mulberry32: a small seeded generator, so that a seed gives the same data everywhere. Shared
// by the tools here that make test data from goita-core.
'use strict';

// Returns { random, below }: random() in [0, 1), below(n) an integer in [0, n).
function seededRandom(seed) {
  let state = seed >>> 0;
  function random() {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  return { random, below: (n) => Math.floor(random() * n) };
}

module.exports = { seededRandom };
