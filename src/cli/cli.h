/* Shared pieces of the goita command: subcommands and small helpers. */
#ifndef GOITA_CLI_H
#define GOITA_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "goita/goita.h"
#include "options.h"

/* Each subcommand takes the arguments after its name and returns the process exit code. */
int cmd_watch(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_legal(int argc, char **argv);
int cmd_result(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_match(int argc, char **argv);
int cmd_engine(int argc, char **argv);
int cmd_bot(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_solo(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_puzzles(int argc, char **argv);

/* Reads rule option text into target (a goita_rules) for an option table (options.h); false
 * with the library's message in why. */
bool cli_read_rules(const char *text, void *target, char *why, size_t size);

/* The row of --rules OPTS, which every command that deals takes, reading into rules. */
cli_option cli_rules_option(goita_rules *rules);

/* The row of --tt-mb N, the solver's table size in MiB (1-65536), reading into mb. */
cli_option cli_tt_mb_option(uint64_t *mb);

/* Checks up front that a file can be written at path (creating and removing path.tmp, where
 * cli_write_file writes first), so a long game is not played for a record that cannot be
 * saved; false after printing why, naming cmd. */
bool cli_check_writable(const char *cmd, const char *path);

/* Writes a mark for people: kanji, or an ASCII letter when ascii is set. */
const char *cli_mark(int mark, bool ascii);

/* Round printing for people (table.c). Sides are teams "team 1-3" or single seats. */
void cli_print_side(const goita_rules *rules, int side);
void cli_print_hand(const goita_round *round, int seat, bool ascii);
/* Prints log entry i of round as move number `number`. */
void cli_print_move(const goita_round *round, int i, int number, bool ascii);
void cli_print_result(const goita_round *round);
void cli_print_scores(const goita_rules *rules, const int16_t *score);
/* Hands, every move and the result. */
void cli_print_round(const goita_round *round, bool ascii);

/* Reads a whole file ("-" for standard input) into a new zero-terminated string; prints an
 * error naming cmd and the reason (files.h) and returns NULL on failure. */
char *cli_read_file(const char *cmd, const char *path, size_t *len);

/* Writes text and a newline to path through a temporary file renamed into place; prints an
 * error and returns false on failure (the old file, if any, is kept). */
bool cli_write_file(const char *path, const char *text);

/* The current UTC time as "2026-11-21T09:30:00Z". */
void cli_utc_now(char *buf, size_t size);

/* A player program speaking the line protocol of docs/PROTOCOL.md (external.c). */
typedef struct cli_engine {
  int pid;
  int to, from;        /* its standard input and output */
  char buf[4096];      /* what it wrote that is not read yet */
  size_t len;
  double timeout_ms;   /* the longest wait for an answer */
  char name[128];      /* from its "id name" line */
  char why[800];       /* what went wrong, after a false return */
} cli_engine;

/* Starts `sh -c command`, shakes hands and sets the rules; false with e->why on failure. */
bool cli_engine_start(cli_engine *e, const char *command, const goita_rules *rules, double timeout_ms);

/* Asks for the move of the view's seat, telling only the view (and the scores); the seed
 * makes its choice reproducible. False with e->why on failure. The move is not checked. */
bool cli_engine_move(cli_engine *e, const goita_view *view, uint64_t seed, goita_move *move);

/* Says quit, waits briefly and ends the program. */
void cli_engine_stop(cli_engine *e);

/* Writes text as the inside of a JSON string (quotes and controls escaped) to out. */
void cli_json_string(FILE *out, const char *text);

#endif
