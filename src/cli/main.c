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
          "  play [--plain] [--seat N] [--player SPEC] [--hint SPEC] [--seed S] [--rules OPTS] [--ascii]\n"
          "       [--delay MS] [--records DIR]\n"
          "        play a game against computer players (your partner is one) at a table drawn in the\n"
          "        terminal, or line by line (--plain); the game is saved as a record (by default in\n"
          "        ~/.local/share/goita/games)\n"
          "  solo [--seed S] [--ascii]\n"
          "        the solo memory game \"Gardes\" (RULES.md 9): turn pieces, remember them, take pairs\n"
          "  solo --solve [--games N] [--rollouts R] [--seed S] [--jobs J]\n"
          "        the expected score of a perfect memory, by sampling N deals (default 4000)\n"
          "  watch [--seed S] [--rules OPTS] [--player SPEC] [--ascii] [--record FILE]\n"
          "        watch a seeded game between computer players (sampler by default), move by move\n"
          "        (and save its record)\n"
          "  bench [playout|solve] [--rounds N] [--count N] [--seed S] [--rules OPTS] [--tt-mb N] [--list]\n"
          "        measure on one core: random playouts, or the solver on fixed positions\n"
          "  legal [--rules OPTS] [--seat N] HISTORY\n"
          "        print every legal move at the end of HISTORY, one per line (\"2p\", \"213\")\n"
          "  result [--rules OPTS] [--seat N] HISTORY\n"
          "        print {\"over\":..,\"winner\":SEAT|null,\"points\":N|null} for HISTORY\n"
          "  replay [--check] [--ascii] [--rules OPTS] FILE|-\n"
          "        show a game record (JSON) or a history string move by move; --check validates\n"
          "  solve [--rules OPTS] [--tt-mb N] [--win-loss] [--nodes N] [--ms T] HISTORY\n"
          "        solve a position with every hand known: one JSON line with the value of the\n"
          "        position and of every legal move (points, seat to move's side; docs/SOLVER.md)\n"
          "  match [--games N] [--seed S] [--rules OPTS] [--jobs J] [--engine-timeout SEC] [--quiet] A B\n"
          "        A's team against B's on paired deals (each deal twice, seats swapped); ends with one\n"
          "        JSON line: points per round of A minus B, its standard error, game wins\n"
          "  engine [--player SPEC]\n"
          "        a computer player behind the line protocol of docs/PROTOCOL.md (stdin/stdout)\n"
          "  version    print the version\n"
          "  help       print this help\n"
          "\n"
          "A and B are players: random, rules, sampler, or a level with parameters such as\n"
          "sampler:samples=64,infer=on (docs/PLAYERS.md), or engine:COMMAND for a program that speaks\n"
          "the protocol, e.g. engine:\"goita engine --player rules\".\n"
          "OPTS is rule option text, e.g. king_face_down=allowed,target=150 (see RULES.md).\n"
          "HISTORY is a history string (docs/RECORDS.md), e.g. 12345678,12345679,11112345,11112345,s1,113,2p;\n"
          "one written for a seat, with x for hidden pieces, reads as that seat's view (--seat N).\n",
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
  if (strcmp(cmd, "legal") == 0) return cmd_legal(argc - 2, argv + 2);
  if (strcmp(cmd, "result") == 0) return cmd_result(argc - 2, argv + 2);
  if (strcmp(cmd, "replay") == 0) return cmd_replay(argc - 2, argv + 2);
  if (strcmp(cmd, "solve") == 0) return cmd_solve(argc - 2, argv + 2);
  if (strcmp(cmd, "match") == 0) return cmd_match(argc - 2, argv + 2);
  if (strcmp(cmd, "engine") == 0) return cmd_engine(argc - 2, argv + 2);
  if (strcmp(cmd, "play") == 0) return cmd_play(argc - 2, argv + 2);
  if (strcmp(cmd, "solo") == 0) return cmd_solo(argc - 2, argv + 2);
  if (strcmp(cmd, "serve") == 0) return cmd_serve(argc - 2, argv + 2);
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
