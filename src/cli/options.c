/* Command-line options from one table per command: parsing, usage, --help and errors. */
#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HELP_WIDTH 80 /* help lines wrap before this column, so they fit a terminal of 80 */
#define OPTION_COLUMN 24 /* where an option's meaning starts */
#define SUMMARY_COLUMN 12 /* where a command's summary starts in the program's help */

/* The space between a program's name and its command's, none for a program with no commands
 * (name NULL, as goita-load). */
static const char *gap(const cli_command *c) { return c->name ? " " : ""; }

/* The command's name, "" for a program with no commands. */
static const char *command_name(const cli_command *c) { return c->name ? c->name : ""; }

int cli_usage_error(const cli_command *c, const char *fmt, ...) {
  fprintf(stderr, "%s%s%s: ", c->program, gap(c), command_name(c));
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, " (try: %s%s%s --help)\n", c->program, gap(c), command_name(c));
  return 2;
}

/* Whether [lo, hi] is every uint64_t, so that a message need not name the range. */
static bool full_range(uint64_t lo, uint64_t hi) { return lo == 0 && hi == UINT64_MAX; }

/* Writes "from LO to HI[ unit]" (or the form of a whole number) into buf, for messages. */
static void describe_range(char *buf, size_t size, uint64_t lo, uint64_t hi, const char *unit) {
  if (full_range(lo, hi))
    snprintf(buf, size, "a whole number (decimal, or hex after 0x)");
  else
    snprintf(buf, size, "from %llu to %llu%s%s", (unsigned long long)lo, (unsigned long long)hi, unit ? " " : "",
             unit ? unit : "");
}

/* Whether the space-separated words of scope include word. */
static bool in_scope(const char *scope, const char *word) {
  const size_t len = strlen(word);
  for (const char *w = scope; *w; w += strspn(w, " ")) {
    const size_t n = strcspn(w, " ");
    if (n == len && strncmp(w, word, n) == 0) return true;
    w += n;
  }
  return false;
}

/* Writes scope's words as "solve, player" into buf. */
static void describe_scope(char *buf, size_t size, const char *scope) {
  size_t used = 0;
  buf[0] = '\0';
  for (const char *w = scope; *w && used < size; w += strspn(w, " ")) {
    const int n = (int)strcspn(w, " ");
    used += (size_t)snprintf(buf + used, size - used, "%s%.*s", used ? ", " : "", n, w);
    w += n;
  }
}

bool cli_read_uint(const cli_command *c, const char *what, const char *text, uint64_t lo, uint64_t hi,
                   const char *unit, uint64_t *out) {
  /* Decimal, or hex after 0x; strtoull alone would also take signs, spaces and octal. */
  const bool hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const char *digits = hex ? text + 2 : text;
  char *end = NULL;
  errno = 0;
  const unsigned long long v = strtoull(digits, &end, hex ? 16 : 10);
  char range[96];
  describe_range(range, sizeof range, lo, hi, unit);
  const unsigned char first = (unsigned char)digits[0];
  if (!(hex ? isxdigit(first) : isdigit(first)) || errno || *end) {
    cli_usage_error(c, "%s must be %s%s, not \"%s\"", what, full_range(lo, hi) ? "" : "a whole number ", range, text);
    return false;
  }
  if (v < lo || v > hi) {
    cli_usage_error(c, "%s must be %s, not \"%s\"", what, range, text);
    return false;
  }
  *out = (uint64_t)v;
  return true;
}

/* Reads the value of option o; false after printing why. */
static bool read_value(const cli_command *c, const cli_option *o, const char *text) {
  switch (o->kind) {
    case CLI_UINT: return cli_read_uint(c, o->name, text, o->lo, o->hi, o->unit, o->target);
    case CLI_TEXT: *(const char **)o->target = text; return true;
    case CLI_READ: {
      char why[512] = "";
      if (o->read(text, o->target, why, sizeof why)) return true;
      cli_usage_error(c, "%s \"%s\": %s", o->name, text, why);
      return false;
    }
    case CLI_FLAG: break;
  }
  return false;
}

/* Prints words of text to out from column `at` (after a space when gap is set: text goes on
 * after something on the line), wrapping before HELP_WIDTH to column indent; returns the
 * column after the last word. */
static int print_wrapped(FILE *out, const char *text, int at, int indent, bool gap) {
  bool after = gap; /* a word before this one on the line */
  while (*text) {
    if (*text == ' ') {
      text++;
      continue;
    }
    const int len = (int)strcspn(text, " ");
    if (after && at + 1 + len > HELP_WIDTH) {
      fprintf(out, "\n%*s", indent, "");
      at = indent;
    } else if (after) {
      fputc(' ', out);
      at++;
    }
    fprintf(out, "%.*s", len, text);
    at += len;
    after = true;
    text += len;
  }
  return at;
}

/* Prints item after a space at column at, or at column indent of a new line when it would
 * pass HELP_WIDTH; returns the column after it. */
static int print_item(const char *item, int at, int indent) {
  const int len = (int)strlen(item);
  if (at > indent && at + 1 + len > HELP_WIDTH) {
    printf("\n%*s%s", indent, "", item);
    return indent + len;
  }
  printf(" %s", item);
  return at + 1 + len;
}

/* The usage line: every option with its value, then the operands. */
static void print_usage(const cli_command *c) {
  int at = printf("usage: %s%s%s", c->program, gap(c), command_name(c));
  const int indent = at + 1;
  for (size_t i = 0; i < c->noptions; i++) {
    const cli_option *o = &c->options[i];
    char item[96];
    snprintf(item, sizeof item, "[%s%s%s]", o->name, o->value ? " " : "", o->value ? o->value : "");
    at = print_item(item, at, indent);
  }
  if (c->operands) print_item(c->operands, at, indent);
  printf("\n");
}

/* One option's line: name and value, then its meaning with range and default. */
static void print_option(const cli_option *o) {
  char head[64], text[1024], range[64] = "", def[256] = "";
  const int len = snprintf(head, sizeof head, "  %s%s%s", o->name, o->value ? " " : "", o->value ? o->value : "");
  if (o->kind == CLI_UINT && !full_range(o->lo, o->hi))
    snprintf(range, sizeof range, "%llu-%llu%s%s", (unsigned long long)o->lo, (unsigned long long)o->hi,
             o->unit ? " " : "", o->unit ? o->unit : "");
  if (o->fallback)
    snprintf(def, sizeof def, "default: %s", o->fallback);
  else if (o->kind == CLI_UINT)
    snprintf(def, sizeof def, "default: %llu", (unsigned long long)*(const uint64_t *)o->target);
  else if (o->kind == CLI_TEXT && *(const char *const *)o->target)
    snprintf(def, sizeof def, "default: %s", *(const char *const *)o->target);
  char scope[128] = "";
  if (o->scope) {
    describe_scope(scope, sizeof scope - 2, o->scope);
    strcat(scope, ": ");
  }
  snprintf(text, sizeof text, "%s%s%s%s%s%s%s", scope, o->help, range[0] || def[0] ? " (" : "", range,
           range[0] && def[0] ? "; " : "", def, range[0] || def[0] ? ")" : "");
  printf("%s", head);
  int at = len;
  if (at + 2 > OPTION_COLUMN) {
    printf("\n");
    at = 0;
  }
  printf("%*s", OPTION_COLUMN - at, "");
  print_wrapped(stdout, text, OPTION_COLUMN, OPTION_COLUMN, false);
  printf("\n");
}

/* Prints prose (a command's about and notes) to out within HELP_WIDTH columns. The texts are
 * written with lines of any length, so they are filled again here, as argparse does: a line
 * that does not start with a space continues the one before it unless that one ended a
 * sentence (".") or introduced something (":"); an indented line (a list) starts a line of its
 * own, and its wrapped rest hangs two columns further in. */
static void print_prose(FILE *out, const char *text) {
  int at = 0, hang = 0;
  while (*text) {
    const int len = (int)strcspn(text, "\n");
    const int lead = (int)strspn(text, " ");
    if (len == 0) { /* a blank line ends the paragraph and stays */
      fprintf(out, at > 0 ? "\n\n" : "\n");
      at = 0;
      text += *text ? 1 : 0;
      continue;
    }
    if (lead > 0 && at > 0) { /* an indented line after an unfinished one */
      fputc('\n', out);
      at = 0;
    }
    if (at == 0) {
      hang = lead && lead + 2 < HELP_WIDTH / 2 ? lead + 2 : 0;
      fprintf(out, "%*s", lead, "");
      at = lead;
    }
    char line[1024];
    snprintf(line, sizeof line, "%.*s", len - lead, text + lead);
    at = print_wrapped(out, line, at, hang, at > lead);
    const char last = text[len - 1];
    if (last == '.' || last == ':' || (last == ')' && len > 1 && text[len - 2] == '.')) {
      fputc('\n', out);
      at = 0;
    }
    text += len;
    if (*text) text++;
  }
  if (at > 0) fputc('\n', out);
}

/* Prints text's lines with an indent of two spaces. */
static void print_indented(const char *text) {
  while (*text) {
    const int len = (int)strcspn(text, "\n");
    printf("  %.*s\n", len, text);
    text += len;
    if (*text) text++;
  }
}

/* Prints c's help (usage line, about, every option with value, range, default and meaning,
 * notes, examples) to stdout. */
static void print_help(const cli_command *c) {
  print_usage(c);
  printf("\n");
  print_prose(stdout, c->about);
  printf("\noptions:\n");
  for (size_t i = 0; i < c->noptions; i++) print_option(&c->options[i]);
  printf("  -h, --help%*sprint this help and exit\n", OPTION_COLUMN - 12, "");
  if (c->notes) {
    printf("\n");
    print_prose(stdout, c->notes);
  }
  printf("\nexamples:\n");
  print_indented(c->examples);
}

/* The table's row for an argument, or NULL. */
static const cli_option *find_option(const cli_command *c, const char *arg) {
  for (size_t i = 0; i < c->noptions; i++)
    if (strcmp(c->options[i].name, arg) == 0) return &c->options[i];
  return NULL;
}

int cli_parse(const cli_command *c, int argc, char **argv, cli_operands *operands) {
  operands->n = 0;
  operands->given = 0;
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      print_help(c);
      return 0;
    }
    if (strcmp(arg, "--list-options") == 0) { /* hidden: what the parser accepts, for tests */
      for (size_t k = 0; k < c->noptions; k++) printf("%s\n", c->options[k].name);
      printf("--help\n-h\n");
      return 0;
    }
    if (arg[0] != '-' || arg[1] == '\0') {
      if (operands->n == CLI_MAX_OPERANDS) return cli_usage_error(c, "too many arguments at \"%s\"", arg);
      operands->arg[operands->n++] = arg;
      continue;
    }
    const cli_option *o = find_option(c, arg);
    if (!o) return cli_usage_error(c, "unknown option \"%s\"", arg);
    if (o->given) *o->given = true;
    if (o - c->options < 64) operands->given |= UINT64_C(1) << (o - c->options);
    if (o->kind == CLI_FLAG) {
      *(bool *)o->target = true;
      continue;
    }
    if (i + 1 >= argc) {
      char range[96] = "";
      if (o->kind == CLI_UINT) describe_range(range, sizeof range, o->lo, o->hi, o->unit);
      return cli_usage_error(c, "%s needs a value %s%s%s", o->name, o->value, range[0] ? ", " : "", range);
    }
    if (!read_value(c, o, argv[++i])) return 2;
  }
  return -1;
}

int cli_check_scope(const cli_command *c, const cli_operands *operands, const char *section) {
  for (size_t i = 0; i < c->noptions && i < 64; i++) {
    const cli_option *o = &c->options[i];
    if (!(operands->given >> i & 1) || !o->scope || in_scope(o->scope, section)) continue;
    char sections[128];
    describe_scope(sections, sizeof sections, o->scope);
    return cli_usage_error(c, "%s is for %s, not %s", o->name, sections, section);
  }
  return -1;
}

int cli_parse_no_operands(const cli_command *c, int argc, char **argv) {
  cli_operands operands;
  const int parsed = cli_parse(c, argc, argv, &operands);
  if (parsed >= 0) return parsed;
  return operands.n ? cli_usage_error(c, "takes no arguments, not \"%s\"", operands.arg[0]) : -1;
}

int cli_parse_one_operand(const cli_command *c, int argc, char **argv, const char *what, const char *missing,
                          const char **operand) {
  cli_operands operands;
  const int parsed = cli_parse(c, argc, argv, &operands);
  if (parsed >= 0) return parsed;
  *operand = NULL;
  if (operands.n == 0) return missing ? cli_usage_error(c, "%s", missing) : -1;
  if (operands.n > 1) return cli_usage_error(c, "one %s, please (got a second: \"%s\")", what, operands.arg[1]);
  *operand = operands.arg[0];
  return -1;
}

/* Prints the program's help: what it is and every command with its summary. */
static void print_program_help(const cli_program *p, FILE *out) {
  fprintf(out, "%s\nusage: %s COMMAND [OPTIONS]\n\ncommands:\n", p->about, p->name);
  for (size_t i = 0; i < p->ncommands; i++) {
    const cli_entry *e = &p->commands[i];
    fprintf(out, "  %-9s", e->name);
    print_wrapped(out, e->summary, SUMMARY_COLUMN - 1, SUMMARY_COLUMN, true);
    fputc('\n', out);
  }
  fprintf(out, "  %-9s", "help");
  print_wrapped(out, "this help; help COMMAND (or COMMAND --help): its options and examples", SUMMARY_COLUMN - 1,
                SUMMARY_COLUMN, true);
  fputc('\n', out);
  if (p->notes) {
    fprintf(out, "\n");
    print_prose(out, p->notes);
  }
}

/* The entry named name, or NULL. */
static const cli_entry *find_command(const cli_program *p, const char *name) {
  for (size_t i = 0; i < p->ncommands; i++)
    if (strcmp(p->commands[i].name, name) == 0) return &p->commands[i];
  return NULL;
}

/* Whether arg asks for the program's help. */
static bool is_help(const char *arg) {
  return strcmp(arg, "help") == 0 || strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

/* Prints "PROGRAM COMMAND: message (try: PROGRAM help)" to stderr and returns 2. */
static int dispatch_error(const cli_program *p, const char *command, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int dispatch_error(const cli_program *p, const char *command, const char *fmt, ...) {
  fprintf(stderr, "%s %s: ", p->name, command);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, " (try: %s help)\n", p->name);
  return 2;
}

int cli_dispatch(const cli_program *p, int argc, char **argv) {
  if (argc < 2) {
    print_program_help(p, stderr);
    return 2;
  }
  const char *name = argv[1];
  if (is_help(name)) {
    /* "help help" and "help --help" ask for this help, not for a command named so */
    if (argc < 3 || is_help(argv[2])) {
      if (argc > 3) return dispatch_error(p, "help", "one command, please (got a second: \"%s\")", argv[3]);
      print_program_help(p, stdout);
      return 0;
    }
    if (argc > 3) return dispatch_error(p, "help", "one command, please (got a second: \"%s\")", argv[3]);
    const cli_entry *e = find_command(p, argv[2]);
    if (!e) {
      fprintf(stderr, "%s help: unknown command \"%s\" (try: %s help)\n", p->name, argv[2], p->name);
      return 2;
    }
    char help_arg[] = "--help";
    char *help_argv[] = {help_arg, NULL};
    return e->run(1, help_argv);
  }
  if (strcmp(name, "--list-commands") == 0) { /* hidden: every command, for tests */
    for (size_t i = 0; i < p->ncommands; i++) printf("%s\n", p->commands[i].name);
    return 0;
  }
  const cli_entry *e = find_command(p, name);
  if (!e) {
    fprintf(stderr, "%s: unknown command \"%s\" (try: %s help)\n", p->name, name, p->name);
    return 2;
  }
  return e->run(argc - 2, argv + 2);
}
