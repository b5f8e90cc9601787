/* Command-line options from one table per command (ENGINEERING.md): parsing, the usage line,
 * --help and every error message come from the same table, so they cannot disagree. Shared
 * by the goita and koshogi commands; it depends on neither library. */
#ifndef CLI_OPTIONS_H
#define CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What follows an option on the command line. */
typedef enum cli_kind {
  CLI_FLAG, /* nothing; the option sets a bool */
  CLI_UINT, /* a whole number from lo to hi (decimal, or hex after 0x), kept as a uint64_t */
  CLI_TEXT, /* any text, kept as a const char * */
  CLI_READ  /* text the option's read function turns into its target */
} cli_kind;

/* Reads text into target; false with why filled on failure. */
typedef bool (*cli_reader)(const char *text, void *target, char *why, size_t size);

/* One row of a command's table. Targets usually point at the command's locals, which hold
 * the defaults before parsing, so the help shows the defaults the command really uses. */
typedef struct cli_option {
  const char *name;     /* "--seed" */
  cli_kind kind;
  const char *value;    /* the value's name in the usage line: "S", "FILE"; NULL for a flag */
  void *target;         /* bool *, uint64_t *, const char ** or the reader's target */
  const char *help;     /* what the option means, one sentence without a full stop */
  uint64_t lo, hi;      /* the range of a CLI_UINT */
  const char *unit;     /* a CLI_UINT's unit, e.g. "ms"; NULL for none */
  const char *fallback; /* the default as help shows it; NULL: the target's value (numbers, text) */
  cli_reader read;      /* CLI_READ only */
  bool *given;          /* set true when the option appears; NULL when nobody asks */
  const char *scope;    /* the sections (first operands) it is for, "solve player"; NULL: all */
} cli_option;

/* A command's table and its help text. */
typedef struct cli_command {
  const char *program;         /* "goita" */
  const char *name;            /* "watch"; NULL for a program without commands (goita-load) */
  const char *operands;        /* what follows the options in the usage line ("HISTORY"); NULL */
  const char *about;           /* what the command does; lines end with \n */
  const char *notes;           /* after the options, what values mean; NULL for none */
  const char *examples;        /* command lines, one per line */
  const cli_option *options;
  size_t noptions;
} cli_command;

#define CLI_MAX_OPERANDS 8

/* The arguments that are not options, in order, and which rows of the table were given. */
typedef struct cli_operands {
  const char *arg[CLI_MAX_OPERANDS];
  int n;
  uint64_t given; /* bit i: options[i] appeared (the first 64 rows) */
} cli_operands;

/* Parses argv (the arguments after the command's name) by c's table into the targets, and
 * the other arguments into operands. Returns -1 when the command should run; otherwise the
 * exit status: 0 after --help, -h or --list-options (printed on stdout), 2 after an error
 * (printed on stderr, naming the option and what it takes). "-" alone is an operand. */
int cli_parse(const cli_command *c, int argc, char **argv, cli_operands *operands);

/* cli_parse for a command that takes options but no operands: -1 to run it, else the exit
 * status (of --help, or of a usage error naming the stray argument). */
int cli_parse_no_operands(const cli_command *c, int argc, char **argv);

/* cli_parse for a command that takes exactly one operand, what ("history string", "file"):
 * -1 with *operand set to run it, else the exit status (of --help, or of a usage error saying
 * missing, or naming the second operand). With missing NULL the operand may be left out: then
 * *operand is NULL. */
int cli_parse_one_operand(const cli_command *c, int argc, char **argv, const char *what, const char *missing,
                          const char **operand);

/* For a command made of sections (goita bench playout|solve|player): -1 when every option
 * given in operands is for section (its scope names it, or it has none), else the exit status
 * of a usage error naming the option and the sections it is for. */
int cli_check_scope(const cli_command *c, const cli_operands *operands, const char *section);

/* Reads text as a whole number from lo to hi for what (an option or operand name) of c;
 * false after printing an error that names what and the range (unit after it, when given). */
bool cli_read_uint(const cli_command *c, const char *what, const char *text, uint64_t lo, uint64_t hi,
                   const char *unit, uint64_t *out);

/* Prints "PROGRAM COMMAND: message (try: PROGRAM COMMAND --help)" to stderr and returns 2, the
 * exit status of a usage error. */
int cli_usage_error(const cli_command *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* One command of a program: its function gets the arguments after its name. */
typedef struct cli_entry {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary; /* one line for the program's help */
} cli_entry;

/* A program made of commands. */
typedef struct cli_program {
  const char *name;   /* "goita" */
  const char *about;  /* the first lines of its help */
  const char *notes;  /* the last lines; NULL for none */
  const cli_entry *commands;
  size_t ncommands;
} cli_program;

/* Runs the command named by argv[1] and returns its exit status. Answers "help", "--help" and
 * "-h" (with a command name after them: that command's help; with one of these three again:
 * the program's help; a second word after them is a usage error), and the hidden
 * "--list-commands" (the names, one a line, for tests); an unknown or missing command is a
 * usage error (status 2). */
int cli_dispatch(const cli_program *p, int argc, char **argv);

#endif
