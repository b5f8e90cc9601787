/* Shared pieces of the goita command: subcommands and small helpers. */
#ifndef GOITA_CLI_H
#define GOITA_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "goita/goita.h"

/* Each subcommand takes the arguments after its name and returns the process exit code. */
int cmd_watch(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_legal(int argc, char **argv);
int cmd_result(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_match(int argc, char **argv);
int cmd_engine(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_solo(int argc, char **argv);
int cmd_serve(int argc, char **argv);

/* Reads an unsigned 64-bit number (decimal or 0x hex); prints an error naming opt on failure. */
bool cli_parse_u64(const char *opt, const char *text, uint64_t *out);

/* Reads a whole number from lo to hi for option opt of command cmd; prints an error on failure
 * ("goita match: --jobs is 1-64", with unit after it when given). */
bool cli_parse_range(const char *cmd, const char *opt, const char *text, uint64_t lo, uint64_t hi, const char *unit,
                     uint64_t *out);

/* Reads a table size in MiB (--tt-mb, 1-65536); prints an error naming cmd on failure. */
bool cli_parse_table_mb(const char *cmd, const char *text, uint64_t *mb);

/* Reads rule option text; prints the library's error on failure. */
bool cli_parse_rules(const char *text, goita_rules *rules);

/* Returns the value of option argv[*i] (advancing *i), or NULL after printing an error. */
const char *cli_option_value(int argc, char **argv, int *i);

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
 * error and returns NULL on failure. */
char *cli_read_file(const char *path, size_t *len);

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
