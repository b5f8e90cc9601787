/* goita puzzles: makes a set of puzzles from games between computer players, each proved by
 * the exact solver to have one best move (puzzle.h), or checks a set file (README.md,
 * "Puzzles"). The same options give the same file, byte for byte. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

#define PUZZLE_FORMAT 1

/* Writes the marks of a row as a string of digits. */
static json_t *marks_string(const uint8_t *marks, int n) {
  char text[GOITA_MAX_HAND + 1];
  for (int i = 0; i < n; i++) text[i] = (char)('0' + marks[i]);
  text[n] = '\0';
  return json_string(text);
}

/* A seat's hand as marks ascending, kings as the 王 (8) and 玉 (9) it holds. */
static json_t *hand_string(const goita_round *r, int seat) {
  uint8_t marks[GOITA_MAX_HAND];
  int n = 0;
  for (int kind = GOITA_PAWN; kind < GOITA_KING; kind++)
    for (int i = 0; i < r->hand[seat][kind]; i++) marks[n++] = (uint8_t)kind;
  if (r->kings[seat] & 1) marks[n++] = GOITA_MARK_OU;
  if (r->kings[seat] & 2) marks[n++] = GOITA_MARK_GYOKU;
  return marks_string(marks, n);
}

static json_t *move_string(goita_move move) {
  char token[16];
  goita_move_format(move, token, sizeof token);
  return json_string(token);
}

/* A puzzle as the set file holds it: the position as a history string (what check reads)
 * and as the page draws it (hands, rows), the moves' values, the answer and its line. */
static json_t *puzzle_json(int id, const goita_puzzle *p) {
  const goita_round *r = &p->position;
  char history[1024];
  goita_history_format(r, history, sizeof history);
  json_t *hands = json_array(), *rows = json_array(), *moves = json_array(), *line = json_array();
  for (int s = 0; s < r->players; s++) {
    json_array_append_new(hands, hand_string(r, s));
    char down[GOITA_MAX_PLAYS + 1] = {0};
    for (int i = 0; i < r->plays[s] && i < GOITA_MAX_PLAYS; i++) down[i] = (r->face_down[s] >> i & 1) ? '1' : '0';
    json_array_append_new(rows, json_pack("{s:o,s:o,s:s}", "blocks", marks_string(r->block_row[s], r->plays[s]),
                                          "attacks", marks_string(r->attack_row[s], r->plays[s]), "face_down", down));
  }
  for (int i = 0; i < p->nmoves; i++)
    json_array_append_new(moves, json_pack("{s:o,s:i}", "move", move_string(p->moves[i]), "value", p->value[i]));
  for (int i = 0; i < p->nline; i++) json_array_append_new(line, move_string(p->line[i]));
  return json_pack("{s:i,s:i,s:s,s:i,s:i,s:i,s:i,s:o,s:o,s:o,s:o,s:i,s:i,s:o,s:i}", "id", id, "difficulty",
                   p->difficulty, "history", history, "turn", r->turn, "dealer", r->dealer, "attack", r->attack,
                   "attacker", r->attacker, "hands", hands, "rows", rows, "moves", moves, "answer",
                   move_string(p->moves[p->answer]), "best", p->best, "second", p->second, "line", line, "plays",
                   p->plays);
}

typedef struct make_stats {
  int games, rounds;
  long tried, not_unique, unsolved;
} make_stats;

/* Plays one game between four players of spec from game_seed, examining every position;
 * appends to set the hardest puzzle of each round (the earliest of equals) until count. */
static int make_from_game(const goita_rules *rules, goita_player *const *players, uint64_t game_seed,
                          goita_solver *solver, uint64_t max_nodes, json_t *set, int count, make_stats *st) {
  goita_game game;
  goita_error err;
  if (goita_game_start(&game, rules, game_seed, &err) != GOITA_OK) {
    fprintf(stderr, "goita puzzles: %s\n", err.message);
    return 1;
  }
  static goita_puzzle found, kept;
  for (;;) {
    int have = 0;
    while (!goita_round_over(&game.round)) {
      goita_puzzle_verdict verdict;
      goita_puzzle_examine(solver, &game.round, max_nodes, &found, &verdict);
      st->tried += verdict != GOITA_PUZZLE_NOT_PLAY;
      st->not_unique += verdict == GOITA_PUZZLE_NOT_UNIQUE;
      st->unsolved += verdict == GOITA_PUZZLE_UNSOLVED;
      if (verdict == GOITA_PUZZLE_FOUND && (!have || found.difficulty > kept.difficulty)) {
        kept = found;
        have = 1;
      }
      goita_view view;
      goita_move move;
      goita_game_view(&game, game.round.turn, &view);
      goita_player_seed(players[game.round.turn], goita_seed_mix(game_seed ^ (uint64_t)game.round.nlog << 8 ^
                                                                  (uint64_t)game.round_index << 16));
      if (goita_player_choose(players[game.round.turn], &view, &move, NULL) != GOITA_OK ||
          goita_game_apply(&game, move, &err) != GOITA_OK) {
        fprintf(stderr, "goita puzzles: a computer player failed in game %llu\n", (unsigned long long)game_seed);
        return 1;
      }
    }
    st->rounds++;
    if (have) json_array_append_new(set, puzzle_json((int)json_array_size(set) + 1, &kept));
    if ((int)json_array_size(set) >= count || game.over) break;
    if (goita_game_next_round(&game, &err) != GOITA_OK) break;
  }
  st->games++;
  return 0;
}

/* Makes the set and writes it to out_path (or stdout); prints the figures on stderr. */
static int make_set(const goita_rules *rules, const char *spec, uint64_t count, uint64_t seed, uint64_t max_nodes,
                    uint64_t tt_mb, const char *out_path) {
  goita_player *players[GOITA_MAX_SEATS] = {0};
  goita_error err;
  for (int s = 0; s < rules->players; s++)
    if (goita_player_new(&players[s], spec, &err) != GOITA_OK) {
      fprintf(stderr, "goita puzzles: --players: %s\n", err.message);
      for (int t = 0; t < s; t++) goita_player_free(players[t]);
      return 2;
    }
  goita_solver *solver;
  if (goita_solver_new(&solver, (size_t)tt_mb << 20) != GOITA_OK) {
    fprintf(stderr, "goita puzzles: cannot allocate a %llu MiB table\n", (unsigned long long)tt_mb);
    return 1;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  json_t *list = json_array();
  make_stats st = {0};
  goita_rng rng;
  goita_rng_seed(&rng, seed);
  int status = 0;
  while (!status && json_array_size(list) < count)
    status = make_from_game(rules, players, goita_rng_next(&rng), solver, max_nodes, list, (int)count, &st);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  for (int s = 0; s < rules->players; s++) goita_player_free(players[s]);
  goita_solver_free(solver);
  if (status) {
    json_decref(list);
    return status;
  }
  char rules_text[512];
  goita_rules_format(rules, rules_text, sizeof rules_text);
  /* The header, then one puzzle a line: a regenerated set differs from the old line by line. */
  json_t *header = json_pack("{s:i,s:I,s:s,s:s,s:I}", "format", PUZZLE_FORMAT, "seed", (json_int_t)seed, "rules",
                             rules_text, "players", spec, "nodes", (json_int_t)max_nodes);
  char *head = json_dumps(header, JSON_COMPACT | JSON_PRESERVE_ORDER);
  json_decref(header);
  size_t len = strlen(head) + 32, used;
  for (size_t i = 0; i < json_array_size(list); i++) len += json_dumpb(json_array_get(list, i), NULL, 0, JSON_COMPACT | JSON_PRESERVE_ORDER) + 3;
  char *text = malloc(len);
  if (!text) {
    fprintf(stderr, "goita puzzles: out of memory\n");
    free(head);
    json_decref(list);
    return 1;
  }
  used = (size_t)snprintf(text, len, "%.*s,\"puzzles\":[\n", (int)strlen(head) - 1, head);
  for (size_t i = 0; i < json_array_size(list); i++) {
    used += json_dumpb(json_array_get(list, i), text + used, len - used, JSON_COMPACT | JSON_PRESERVE_ORDER);
    used += (size_t)snprintf(text + used, len - used, i + 1 < json_array_size(list) ? ",\n" : "\n");
  }
  snprintf(text + used, len - used, "]}");
  free(head);
  json_decref(list);
  bool written = true;
  if (out_path) written = cli_write_file(out_path, text);
  else printf("%s\n", text);
  free(text);
  const double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
  fprintf(stderr,
          "goita puzzles: %llu puzzles from %d games (%d rounds) in %.2f s: %ld candidate positions tried, "
          "%ld rejected as not unique (%.1f%%), %ld unsolved within the node limit\n",
          (unsigned long long)count, st.games, st.rounds, s, st.tried, st.not_unique,
          st.tried ? 100.0 * (double)st.not_unique / (double)st.tried : 0.0, st.unsolved);
  return written ? 0 : 1;
}

/* Reads a move token of the set into move; false when it does not read. */
static bool read_move(json_t *token, goita_move *move) {
  const char *text = json_string_value(token);
  return text && goita_move_parse(text, strlen(text), move) == GOITA_OK;
}

/* Reads a puzzle entry back into p (position from its history string). False with why. */
static bool read_puzzle(json_t *entry, const goita_rules *rules, goita_puzzle *p, char *why, size_t size) {
  memset(p, 0, sizeof *p);
  goita_error err;
  json_t *moves = json_object_get(entry, "moves"), *line = json_object_get(entry, "line");
  const char *history = json_string_value(json_object_get(entry, "history"));
  if (!history || !json_is_array(moves) || !json_is_array(line)) {
    snprintf(why, size, "an entry lacks its history, moves or line");
    return false;
  }
  if (goita_history_parse(&p->position, rules, history, &err) != GOITA_OK) {
    snprintf(why, size, "its history does not read: %s", err.message);
    return false;
  }
  goita_move answer;
  if (json_array_size(moves) > GOITA_MAX_LEGAL || json_array_size(line) > GOITA_MAX_LOG ||
      !read_move(json_object_get(entry, "answer"), &answer)) {
    snprintf(why, size, "too many moves, or no answer");
    return false;
  }
  p->nmoves = (int)json_array_size(moves);
  p->answer = -1;
  for (int i = 0; i < p->nmoves; i++) {
    json_t *m = json_array_get(moves, (size_t)i);
    if (!read_move(json_object_get(m, "move"), &p->moves[i]) || !json_is_integer(json_object_get(m, "value"))) {
      snprintf(why, size, "move %d does not read", i + 1);
      return false;
    }
    p->value[i] = (int16_t)json_integer_value(json_object_get(m, "value"));
    if (goita_move_equal(p->moves[i], answer)) p->answer = i;
  }
  p->nline = (int)json_array_size(line);
  for (int i = 0; i < p->nline; i++)
    if (!read_move(json_array_get(line, (size_t)i), &p->line[i])) {
      snprintf(why, size, "move %d of the line does not read", i + 1);
      return false;
    }
  p->best = (int)json_integer_value(json_object_get(entry, "best"));
  p->second = (int)json_integer_value(json_object_get(entry, "second"));
  p->plays = (int)json_integer_value(json_object_get(entry, "plays"));
  p->difficulty = (int)json_integer_value(json_object_get(entry, "difficulty"));
  return true;
}

/* Checks every puzzle of a set file: proved again by the solver, and the entry exactly as
 * the position and the proof write it (so the page draws the position checked). */
static int check_set(const char *path, uint64_t tt_mb) {
  char *text = cli_read_file("goita puzzles", path, NULL);
  if (!text) return 1;
  json_error_t jerr;
  json_t *set = json_loads(text, 0, &jerr);
  free(text);
  if (!set) {
    fprintf(stderr, "goita puzzles: %s: line %d: %s\n", path, jerr.line, jerr.text);
    return 1;
  }
  goita_rules rules;
  goita_error err;
  const char *rules_text = json_string_value(json_object_get(set, "rules"));
  json_t *list = json_object_get(set, "puzzles");
  int bad = 0;
  if (json_integer_value(json_object_get(set, "format")) != PUZZLE_FORMAT || !rules_text || !json_is_array(list)) {
    fprintf(stderr, "goita puzzles: %s: not a puzzle set of format %d (format, rules, puzzles)\n", path, PUZZLE_FORMAT);
    bad = 1;
  } else if (goita_rules_parse(&rules, rules_text, &err) != GOITA_OK) {
    fprintf(stderr, "goita puzzles: %s: rules: %s\n", path, err.message);
    bad = 1;
  }
  goita_solver *solver = NULL;
  if (!bad && goita_solver_new(&solver, (size_t)tt_mb << 20) != GOITA_OK) {
    fprintf(stderr, "goita puzzles: cannot allocate a %llu MiB table\n", (unsigned long long)tt_mb);
    bad = 1;
  }
  static goita_puzzle p;
  size_t i;
  json_t *entry;
  if (!bad) json_array_foreach(list, i, entry) {
      char why[300];
      const int id = (int)json_integer_value(json_object_get(entry, "id"));
      bool good = id == (int)i + 1;
      if (!good) snprintf(why, sizeof why, "its id is %d, not %d", id, (int)i + 1);
      else good = read_puzzle(entry, &rules, &p, why, sizeof why);
      if (good && goita_puzzle_check(solver, &p, &err) != GOITA_OK) {
        snprintf(why, sizeof why, "%s", err.message);
        good = false;
      }
      if (good) {
        json_t *written = puzzle_json(id, &p);
        good = json_equal(written, entry);
        if (!good) snprintf(why, sizeof why, "its position or fields differ from what its history gives");
        json_decref(written);
      }
      if (!good) {
        fprintf(stderr, "goita puzzles: %s: puzzle %d: %s\n", path, (int)i + 1, why);
        bad++;
      }
    }
  goita_solver_free(solver);
  if (!bad) printf("goita puzzles: %s: %d puzzles checked, each with one best move\n", path, (int)json_array_size(list));
  json_decref(set);
  return bad ? 1 : 0;
}

int cmd_puzzles(int argc, char **argv) {
  goita_rules rules;
  goita_rules_default(&rules);
  uint64_t count = 20, seed = 1, max_nodes = 5000000, tt_mb = 32;
  const char *spec = "rules", *out_path = NULL, *check_path = NULL;
  const cli_option options[] = {
      {"--count", CLI_UINT, "N", &count, "puzzles to make", .lo = 1, .hi = 100000},
      {"--seed", CLI_UINT, "S", &seed, "seed of the games the puzzles come from", .hi = UINT64_MAX},
      cli_rules_option(&rules),
      {.name = "--players", .kind = CLI_TEXT, .value = "SPEC", .target = &spec,
       .help = "the computer players of those games (docs/PLAYERS.md)"},
      {"--nodes", CLI_UINT, "N", &max_nodes, "give up a position after about N nodes of one solve; 0: no limit",
       .hi = UINT64_MAX},
      cli_tt_mb_option(&tt_mb),
      {.name = "--out", .kind = CLI_TEXT, .value = "FILE", .target = &out_path,
       .help = "write the set to FILE instead of standard output"},
      {.name = "--check", .kind = CLI_TEXT, .value = "FILE", .target = &check_path,
       .help = "check the set in FILE instead of making one"},
  };
  const cli_command c = {
      .program = "goita",
      .name = "puzzles",
      .about = "Makes a set of puzzles: positions of games between computer players (2 or 4 players) with at\n"
               "most 24 pieces in the hands where, with every hand known, exactly one move keeps the best\n"
               "value (the exact solver proves it), at most one per round, graded 1-5 by the length of the\n"
               "best line and how close the second-best move is.\n"
               "The set is JSON (the page's web/puzzles.json); the same options give the same file. How many\n"
               "candidate positions were tried and the share not unique go to standard error.\n"
               "With --check FILE, proves every puzzle of a set again and exits 1 naming any that fails.\n",
      .examples = "goita puzzles --count 200 --seed 1 --out puzzles.json\n"
                  "goita puzzles --count 30 --seed 1 --out web/puzzles.json   # the page's set\n"
                  "goita puzzles --check web/puzzles.json",
      .options = options,
      .noptions = sizeof options / sizeof options[0],
  };
  const int parsed = cli_parse_no_operands(&c, argc, argv);
  if (parsed >= 0) return parsed;
  if (check_path) return check_set(check_path, tt_mb);
  if (rules.players == 3) return cli_usage_error(&c, "puzzles need two sides: 2 or 4 players, not 3");
  if (out_path && !cli_check_writable("goita puzzles", out_path)) return 1;
  return make_set(&rules, spec, count, seed, max_nodes, tt_mb, out_path);
}
