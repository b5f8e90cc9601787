/* The goita command: dispatches to subcommands. */
#include <string.h>

#include "cli.h"

static void usage(FILE *out) {
  fprintf(out,
          "goita %s - the Japanese team game Goita\n"
          "\n"
          "usage: goita COMMAND [OPTIONS]\n"
          "\n"
          "commands:\n"
          "  watch [--seed S] [--rules OPTS] [--ascii]\n"
          "        watch a seeded game between random players, move by move\n"
          "  bench [playout] [--rounds N] [--seed S] [--rules OPTS]\n"
          "        measure the rules engine: random playouts on one core\n"
          "  version    print the version\n"
          "  help       print this help\n"
          "\n"
          "OPTS is rule option text, e.g. king_face_down=allowed,target=150 (see RULES.md).\n",
          goita_version());
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "watch") == 0) return cmd_watch(argc - 2, argv + 2);
  if (strcmp(cmd, "bench") == 0) return cmd_bench(argc - 2, argv + 2);
  if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
    printf("goita %s\n", goita_version());
    return 0;
  }
  if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
    usage(stdout);
    return 0;
  }
  fprintf(stderr, "goita: unknown command \"%s\" (try: goita help)\n", cmd);
  return 2;
}
