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

/* Reads an unsigned 64-bit number (decimal or 0x hex); prints an error naming opt on failure. */
bool cli_parse_u64(const char *opt, const char *text, uint64_t *out);

/* Reads rule option text; prints the library's error on failure. */
bool cli_parse_rules(const char *text, goita_rules *rules);

/* Returns the value of option argv[*i] (advancing *i), or NULL after printing an error. */
const char *cli_option_value(int argc, char **argv, int *i);

/* Writes a mark for people: kanji, or an ASCII letter when ascii is set. */
const char *cli_mark(int mark, bool ascii);

#endif
