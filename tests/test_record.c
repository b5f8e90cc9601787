#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

/* Plays a seeded game with random moves and records it; with stop_at > 0 the game is cut off
 * in the middle of round stop_at (as when a player leaves). */
static goita_record play_recorded(const char *rules_text, uint64_t seed, int stop_at) {
  goita_rules rules;
  cr_assert_eq(goita_rules_parse(&rules, rules_text, NULL), GOITA_OK);
  goita_game g;
  cr_assert_eq(goita_game_start(&g, &rules, seed, NULL), GOITA_OK);
  goita_record rec;
  goita_record_init(&rec, &g);
  strcpy(rec.name[0], "Ayame");
  strcpy(rec.engine[1], "random");
  strcpy(rec.started, "2026-11-21T09:00:00Z");
  goita_rng rng;
  goita_rng_seed(&rng, seed ^ 77);
  for (int round = 1;; round++) {
    int moves = 0;
    while (!goita_round_over(&g.round)) {
      goita_move list[GOITA_MAX_LEGAL];
      const int n = goita_round_legal_moves(&g.round, list);
      cr_assert_eq(goita_game_apply(&g, list[goita_rng_below(&rng, (uint32_t)n)], NULL), GOITA_OK);
      if (round == stop_at && ++moves == 5) break;
    }
    cr_assert_eq(goita_record_add_round(&rec, &g, "2026-11-21T09:00:00Z", NULL, NULL), GOITA_OK);
    if (g.over || round == stop_at) break;
    cr_assert_eq(goita_game_next_round(&g, NULL), GOITA_OK);
  }
  if (g.over) strcpy(rec.finished, "2026-11-21T09:40:00+09:00");
  return rec;
}

static char *write_json(const goita_record *rec) {
  char *json = NULL;
  goita_error err;
  cr_assert_eq(goita_record_write_json(rec, &json, &err), GOITA_OK, "%s", err.message);
  return json;
}

static void expect_same_rounds(const goita_record *a, const goita_record *b) {
  cr_assert_eq(a->nrounds, b->nrounds);
  for (int i = 0; i < a->nrounds; i++) {
    goita_round x = a->rounds[i].round;
    if (!b->seeded) x.deal_seed = 0; /* hands given, not dealt from a seed */
    cr_expect_eq(memcmp(&x, &b->rounds[i].round, sizeof x), 0, "round %d", i + 1);
  }
  cr_expect_eq(memcmp(a->score, b->score, sizeof a->score), 0);
  cr_expect_eq(a->over, b->over);
  cr_expect_eq(a->winner_side, b->winner_side);
}

/* Written, read (replaying every round) and written again: the same bytes, the same rounds. */
Test(record, round_trip_under_every_option_set) {
  const char *options[] = {"", "king_face_down=allowed,next_dealer=rotate", "teyaku=off,double_goshi=points:60",
                           "goshi_both_teams=play_if_both,draw=C", "players=3", "players=2,target=100",
                           "king_attack=a_or_b,draw=A1"};
  int rounds = 0;
  for (size_t o = 0; o < sizeof options / sizeof *options; o++)
    for (uint64_t seed = 1; seed <= 12; seed++) {
      goita_record rec = play_recorded(options[o], seed * 1000003 + o, seed % 4 == 0 ? 3 : 0);
      char *json = write_json(&rec);
      goita_record back;
      goita_error err;
      cr_assert_eq(goita_record_read_json(&back, json, strlen(json), &err), GOITA_OK, "[%s] %s", options[o],
                   err.message);
      expect_same_rounds(&rec, &back);
      cr_expect_str_eq(back.name[0], "Ayame");
      cr_expect_str_eq(back.engine[1], "random");
      char *again = write_json(&back);
      cr_expect_str_eq(again, json);
      rounds += rec.nrounds;
      free(again);
      free(json);
      goita_record_free(&back);
      goita_record_free(&rec);
    }
  cr_expect_gt(rounds, 300);
}

/* A record of a game played at a real table has no seed: every deal is read as written. */
Test(record, records_without_seed_replay_their_deals) {
  goita_record rec = play_recorded("", 99, 0);
  rec.seeded = false;
  char *json = write_json(&rec);
  cr_expect(strstr(json, "\"seed\": null") != NULL);
  goita_record back;
  goita_error err;
  cr_assert_eq(goita_record_read_json(&back, json, strlen(json), &err), GOITA_OK, "%s", err.message);
  expect_same_rounds(&rec, &back);
  free(json);
  goita_record_free(&back);
  goita_record_free(&rec);
}

/* Replaces the first occurrence of from with to in text (a fresh string). */
static char *edit(const char *text, const char *from, const char *to) {
  const char *at = strstr(text, from);
  cr_assert(at != NULL, "\"%s\" is not in the record", from);
  char *out = malloc(strlen(text) + strlen(to) + 1);
  memcpy(out, text, (size_t)(at - text));
  strcpy(out + (at - text), to);
  strcat(out, at + strlen(from));
  return out;
}

Test(record, errors_name_the_field) {
  goita_record rec = play_recorded("", 5, 0);
  char *json = write_json(&rec);
  char first_history[300], broken_history[300];
  const char *h = strstr(json, "\"history\": \"") + 12;
  const size_t hl = (size_t)(strchr(h, '"') - h);
  memcpy(first_history, h, hl);
  first_history[hl] = '\0';
  /* the first move token, changed to a pass of the dealer who must lead */
  strcpy(broken_history, first_history);
  char *move = strchr(strchr(broken_history, 's'), ',');
  cr_assert(move != NULL);
  move[2] = 'p';
  move[3] = '\0';
  struct {
    char *text;
    int status;
    const char *where;
  } cases[] = {
      {edit(json, "\"format\": \"goita-record\"", "\"format\": \"goita\""), GOITA_EPARSE, "format"},
      {edit(json, "\"version\": 1", "\"version\": 2"), GOITA_EVALUE, "version"},
      {edit(json, "\"version\": 1", "\"version\": \"1\""), GOITA_EPARSE, "version"},
      {edit(json, "\"rules\": \"", "\"rules\": \"king_attak=a_or_b,"), GOITA_EOPTION, "rules"},
      {edit(json, "\"seed\": \"", "\"seed\": \"1"), GOITA_EILLEGAL, "first_dealer"},
      {edit(json, "\"generator\": 1", "\"generator\": 7"), GOITA_EVALUE, "generator"},
      {edit(json, "\"name\": \"Ayame\"", "\"nick\": \"Ayame\""), GOITA_EPARSE, "players[0].nick"},
      {edit(json, "\"name\": \"Ayame\"", "\"name\": 5"), GOITA_EPARSE, "players[0].name"},
      {edit(json, first_history, broken_history), GOITA_EILLEGAL, "rounds[0].history"},
      {edit(json, "\"score_before\": [", "\"score_before\": [5,"), GOITA_EPARSE, "rounds[0].score_before"},
      {edit(json, "\"doubled\": ", "\"doubled\": 0, \"x\": "), GOITA_EPARSE, "rounds[0].result.x"},
      {edit(json, "\"format\"", "\"format\": \"goita-record\", \"format\""), GOITA_EPARSE, "line"},
      {edit(json, "\"rounds\": [", "\"rounds\": [,"), GOITA_EPARSE, "line"},
      {edit(json, "\"over\": true", "\"over\": false"), GOITA_EILLEGAL, "result"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    goita_record back;
    goita_error err;
    const int st = goita_record_read_json(&back, cases[i].text, strlen(cases[i].text), &err);
    cr_expect_eq(st, cases[i].status, "case %zu: %s", i, err.message);
    cr_expect(strncmp(err.message, cases[i].where, strlen(cases[i].where)) == 0, "case %zu: %s", i, err.message);
    cr_expect_eq(back.nrounds, 0);
    cr_expect_null(back.rounds);
    free(cases[i].text);
  }
  free(json);
  goita_record_free(&rec);
}

/* Scores that do not follow from the moves are caught wherever they are. */
Test(record, tampered_scores_are_caught) {
  goita_record rec = play_recorded("", 8, 0);
  cr_assert_gt(rec.nrounds, 1);
  rec.rounds[1].score_after[0]++;
  char *json = write_json(&rec);
  goita_record back;
  goita_error err;
  cr_expect_eq(goita_record_read_json(&back, json, strlen(json), &err), GOITA_EILLEGAL);
  cr_expect(strncmp(err.message, "rounds[1].score_after", 21) == 0, "%s", err.message);
  free(json);
  goita_record_free(&rec);
}

/* A round saved in progress is replaced when it is saved again, finished. */
Test(record, a_round_in_progress_is_saved_then_replaced) {
  goita_rules rules;
  goita_rules_default(&rules);
  goita_game g;
  goita_game_start(&g, &rules, 21, NULL);
  goita_record rec;
  goita_record_init(&rec, &g);
  goita_rng rng;
  goita_rng_seed(&rng, 3);
  int saves = 0;
  while (!goita_round_over(&g.round)) {
    goita_move list[GOITA_MAX_LEGAL];
    const int n = goita_round_legal_moves(&g.round, list);
    goita_game_apply(&g, list[goita_rng_below(&rng, (uint32_t)n)], NULL);
    cr_assert_eq(goita_record_add_round(&rec, &g, NULL, NULL, NULL), GOITA_OK);
    saves++;
    cr_expect_eq(rec.nrounds, 1);
  }
  cr_expect_gt(saves, 1);
  cr_expect(goita_round_over(&rec.rounds[0].round));
  cr_expect_eq(memcmp(&rec.rounds[0].round, &g.round, sizeof g.round), 0);
  goita_record_free(&rec);
}
