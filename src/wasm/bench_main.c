/* goita bench compiled to WebAssembly for node (scripts/wasm.sh --bench): the same workloads
 * and signatures as the native command, to compare the two builds (docs/BENCHMARKS.md).
 * Usage: node build-wasm/goita-bench.js [playout|solve] [options of goita bench] */
#include "cli.h"

int main(int argc, char **argv) {
  return cmd_bench(argc - 1, argv + 1);
}
