/* The goita command: dispatches to subcommands (options.c answers help and unknown names). */
#include <string.h>

#include "cli.h"

/* goita version: prints the version. */
static int cmd_version(int argc, char **argv) {
  const cli_command c = {"goita", "version", NULL, "Prints the version of goita and of its library.\n", NULL,
                         "goita version", NULL, 0};
  const int parsed = cli_parse_no_operands(&c, argc, argv);
  if (parsed >= 0) return parsed;
  printf("goita %s\n", goita_version());
  return 0;
}

static const cli_entry commands[] = {
    {"play", cmd_play, "play a game against computer players (your partner is one), saved as a record"},
    {"solo", cmd_solo, "the solo memory game \"Gardes\" (RULES.md 9), or its expected score (--solve)"},
    {"watch", cmd_watch, "watch a seeded game between computer players, move by move"},
    {"replay", cmd_replay, "show a game record (JSON) or a history string move by move; --check validates"},
    {"legal", cmd_legal, "print every legal move at the end of a history string, one per line"},
    {"result", cmd_result, "print the result of a history string as one JSON line"},
    {"solve", cmd_solve, "the value of a position with every hand known, and of each legal move (JSON)"},
    {"puzzles", cmd_puzzles, "make a set of puzzles proved by the exact solver, or --check one"},
    {"match", cmd_match, "one player's team against another's on paired deals; one JSON line"},
    {"engine", cmd_engine, "a computer player behind the line protocol of docs/PROTOCOL.md"},
    {"bench", cmd_bench, "measure on one core: random playouts, or the solver on fixed positions"},
    {"bot", cmd_bot, "play on a goita server as a bot account, with a level or an engine (docs/SERVER.md)"},
    {"serve", cmd_serve, "online play: the game server and its web client (docs/SERVER.md)"},
    {"rules", cmd_rules, "list the rule options of --rules OPTS, with values and defaults"},
    {"version", cmd_version, "print the version"},
};

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--version") == 0) return cmd_version(0, argv + 2);
  char about[128];
  snprintf(about, sizeof about, "goita %s - the Japanese team game Goita\n", goita_version());
  const cli_program program = {
      "goita", about,
      "Players (--player, match's A and B) are random, rules, fast, sampler, expert, master or a level with\n"
      "parameters such as sampler:samples=64,infer=on (docs/PLAYERS.md), or engine:COMMAND for a\n"
      "program that speaks the protocol. OPTS is rule option text (docs/RULES.md 12), e.g. target=100,\n"
      "or a rule set first: preset=standard, preset=japanese or preset=french (docs/RULES.md 11).\n"
      "HISTORY is a history string (docs/RECORDS.md), e.g. 12345678,12345679,11112345,11112345,s1,113.\n",
      commands, sizeof commands / sizeof commands[0]};
  return cli_dispatch(&program, argc, argv);
}
