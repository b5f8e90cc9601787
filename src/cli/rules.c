/* goita rules: the rule options from the library's own table (goita_rules_options), so that
 * the help for OPTS never drifts from what the parser takes. */
#include <string.h>

#include "cli.h"

#define WIDTH 80  /* every line fits a terminal of 80 columns */
#define INDENT 4  /* where the continuation lines and the help start */

/* Prints text from column `at` (the cursor's), wrapped at spaces before WIDTH; continuation
 * lines start at INDENT. */
static void wrapped(const char *text, int at) {
  while (*text) {
    int len = (int)strlen(text);
    if (at + len > WIDTH) {
      int cut = WIDTH - at;
      while (cut > 0 && text[cut] != ' ') cut--;
      if (cut == 0) cut = len; /* one word longer than the line: left whole */
      len = cut;
    }
    printf("%.*s\n", len, text);
    text += len;
    while (*text == ' ') text++;
    if (*text) printf("%*s", INDENT, "");
    at = INDENT;
  }
}

/* What an option takes, as its row says: "any_of_abc, a_or_last or a_or_b", "2 to 4". */
static void values_text(const goita_rule_option *o, char *buf, size_t size) {
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; o->values && o->values[i] && used < size; i++) {
    const bool last = !o->values[i + 1] && o->kind == GOITA_RULE_OPTION_CHOICE;
    used += (size_t)snprintf(buf + used, size - used, "%s%s", i == 0 ? "" : last ? " or " : ", ", o->values[i]);
  }
  if (used >= size) return;
  if (o->kind == GOITA_RULE_OPTION_NUMBER)
    snprintf(buf + used, size - used, "%d to %d", o->min, o->max);
  if (o->kind == GOITA_RULE_OPTION_NUMBER && o->scaled && used < size)
    snprintf(buf + strlen(buf), size - strlen(buf), " (to %d with scale=ones)", o->max / 10);
  else if (o->kind == GOITA_RULE_OPTION_CHOICE_OR_POINTS)
    snprintf(buf + used, size - used, " or points:N, N %d to %d", o->min, o->max);
}

int cmd_rules(int argc, char **argv) {
  goita_rules rules;
  goita_rules_default(&rules);
  bool given = false;
  cli_option options[] = {cli_rules_option(&rules)};
  options[0].help = "print each option's value under these rules";
  options[0].given = &given;
  const cli_command c = {
      "goita", "rules", NULL,
      "Lists the rule options that --rules OPTS takes (docs/RULES.md 12): each option's\n"
      "values, default, section of docs/RULES.md and what it does. Options are written\n"
      "name=value,name=value; a rule set (preset) comes first and the options after it\n"
      "change it.\n",
      NULL, "goita rules\ngoita rules --rules preset=french", options, sizeof options / sizeof *options};
  const int parsed = cli_parse_no_operands(&c, argc, argv);
  if (parsed >= 0) return parsed;
  if (given) {
    char text[GOITA_RULES_TEXT_SIZE];
    if (goita_rules_format(&rules, text, sizeof text) < 0) return 1;
    for (char *item = strtok(text, ","); item; item = strtok(NULL, ",")) printf("%s\n", item);
    return 0;
  }
  size_t count = 0;
  const goita_rule_option *o = goita_rules_options(&count);
  for (size_t i = 0; i < count; i++) {
    char values[256], line[512];
    values_text(&o[i], values, sizeof values);
    snprintf(line, sizeof line, "%s = %s (default %s; RULES.md %s)", o[i].name, values, o[i].default_value,
             o[i].section);
    wrapped(line, 0);
    printf("%*s", INDENT, "");
    wrapped(o[i].help, INDENT);
  }
  return 0;
}
