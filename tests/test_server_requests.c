/* Requests to the hub: bad ones get clear errors with the codes clients act on (each documented
 * in docs/SERVER.md), the welcome lists the choices, turn timers, rule sets, per-player limits
 * and chat. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_harness.h"
#include "protocol.h"

TestSuite(server, .init = hub_harness_setup, .fini = hub_harness_teardown);

/* Requests are checked strictly; each error names what was wrong, and the connection goes on. */
Test(server, bad_requests_get_clear_errors) {
  srv_hub_connect(w.hub, 1);
  static const struct {
    const char *request, *error, *code;
  } cases[] = {
      {"not json", "not JSON", "bad_request"},
      {"[1,2]", "expected a JSON object", "bad_request"},
      {"{\"kind\":\"hello\"}", "field \"type\": expected a string", "bad_request"},
      {"{\"type\":\"dance\"}", "unknown type \"dance\"", "bad_request"},
      {"{\"type\":\"hello\",\"nmae\":\"x\"}", "hello: unknown field \"nmae\"", "bad_request"},
      {"{\"type\":\"hello\",\"name\":5}", "field \"name\": expected a string", "bad_request"},
      {"{\"type\":\"hello\",\"name\":\"\"}", "field \"name\": expected 1 to 39 bytes", "bad_request"},
      {"{\"type\":\"hello\",\"name\":\"a\\u0007b\"}",
       "control and invisible characters are not allowed (U+0007 at character 2)", "bad_request"},
      {"{\"type\":\"hello\",\"player_token\":\"XYZ\"}", "expected 32 lowercase hex digits", "bad_request"},
      {"{\"type\":\"create\"}", "say hello first", "hello_first"},
      {"{\"type\":\"sit\",\"table\":1}", "sit: missing field \"seat\"", "bad_request"},
      {"{\"type\":\"sit\",\"table\":1,\"seat\":4}", "expected a seat from 0 to 3", "bad_request"},
      {"{\"type\":\"sit\",\"table\":1.5,\"seat\":0}", "field \"table\": expected an integer", "bad_request"},
      {"{\"type\":\"move\",\"table\":1,\"move\":\"9zz\"}", "not a move token", "bad_request"},
      {"{\"type\":\"bot\",\"table\":1,\"seat\":0,\"level\":\"genius\"}", "not a level", "bad_request"},
      {"{\"type\":\"watch\",\"table\":77}", "no table 77", "table_unknown"},
      {"{\"type\":\"create\",\"turn_seconds\":-1}", "expected 0 (off) to 3600 seconds", "bad_request"},
      {"{\"type\":\"ping\",\"type\":\"ping\"}", "not JSON", "bad_request"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const int errors = w.clients[1].errors;
    srv_hub_receive(w.hub, 1, cases[i].request, strlen(cases[i].request));
    cr_assert_eq(w.clients[1].errors, errors + 1, "no error for %s", cases[i].request);
    cr_assert(strstr(w.clients[1].last_error, cases[i].error), "%s: \"%s\" does not say \"%s\"", cases[i].request,
              w.clients[1].last_error, cases[i].error);
    cr_assert_str_eq(w.clients[1].last_code, cases[i].code, "%s", cases[i].request);
  }
  char big[SRV_MAX_REQUEST + 100];
  memset(big, ' ', sizeof big);
  memcpy(big, "{\"type\":\"ping\"}", 15);
  srv_hub_receive(w.hub, 1, big, sizeof big);
  cr_assert(strstr(w.clients[1].last_error, "message too long"));
  cr_assert_str_eq(w.clients[1].last_code, "bad_request");
  w.clients[1].errors = 0;
  connect_client(1, "Ann"); /* still usable */
  say(1, "{\"type\":\"create\",\"rules\":\"players=5\"}");
  cr_assert(strstr(w.clients[1].last_error, "rules: "), "%s", w.clients[1].last_error);
  cr_assert_str_eq(w.clients[1].last_code, "rules_invalid");
  say(1, "{\"type\":\"ping\"}");
  cr_assert_str_eq(json_string_value(json_object_get(w.clients[1].last, "type")), "pong");
}

/* The browser acts on codes, not sentences (docs/SERVER.md "Errors"): a seat token is
 * worthless only after seat_unknown, and a resume refused for going too fast says when to try
 * again, with the token still good. */
Test(server, errors_carry_the_codes_clients_act_on) {
  w.options.player_rate_per_second = 1;
  w.options.player_rate_burst = 2;
  close_hub();
  open_hub(0);
  connect_client(1, "Ann");
  connect_client(2, "Ben");
  say(1, "{\"type\":\"create\",\"rules\":\"players=2\"}");
  const int table = (int)json_integer_value(json_object_get(w.clients[1].last, "table"));
  w.now += 5000;
  say(1, "{\"type\":\"sit\",\"table\":%d,\"seat\":0}", table);
  cr_assert_eq(w.clients[1].errors, 0, "%s", w.clients[1].last_error);
  w.now += 5000;
  say(2, "{\"type\":\"sit\",\"table\":%d,\"seat\":0}", table);
  cr_assert_str_eq(w.clients[2].last_code, "seat_taken");
  say(2, "{\"type\":\"sit\",\"table\":%d,\"seat\":2}", table);
  cr_assert_str_eq(w.clients[2].last_code, "seat_invalid");
  w.now += 5000;
  say(2, "{\"type\":\"move\",\"table\":%d,\"move\":\"1p\"}", table);
  cr_assert_str_eq(w.clients[2].last_code, "not_seated");
  say(2, "{\"type\":\"resume\",\"seat_token\":\"%032d\"}", 7);
  cr_assert_str_eq(w.clients[2].last_code, "seat_unknown");
  cr_assert_eq(w.clients[2].last_retry_ms, 0);

  /* a reload that resumes too fast: refused with when to try again, and the token still holds */
  char token[SRV_TOKEN_SIZE];
  snprintf(token, sizeof token, "%s", w.clients[1].seat_token);
  srv_hub_disconnect(w.hub, 1);
  srv_hub_connect(w.hub, 3);
  say(3, "{\"type\":\"hello\",\"player_token\":\"%s\"}", w.clients[1].player_token);
  for (int i = 0; i < 3 && strcmp(w.clients[3].last_code, "rate_limited") != 0; i++)
    say(3, "{\"type\":\"resume\",\"seat_token\":\"%s\"}", token);
  cr_assert_str_eq(w.clients[3].last_code, "rate_limited", "%s", w.clients[3].last_error);
  cr_assert_str_eq(json_string_value(json_object_get(w.clients[3].last, "request")), "resume");
  cr_assert_gt(w.clients[3].last_retry_ms, 0);
  w.now += w.clients[3].last_retry_ms;
  const int errors = w.clients[3].errors;
  say(3, "{\"type\":\"resume\",\"seat_token\":\"%s\"}", token);
  cr_assert_eq(w.clients[3].errors, errors, "%s", w.clients[3].last_error);
  cr_assert_eq(w.clients[3].table, table);
  cr_assert_eq(w.clients[3].seat, 0);
}

/* docs/SERVER.md's table of errors ("### Errors") lists every code the server has, each once,
 * and no other; those that come with retry_ms say so there. */
Test(server, every_error_code_is_documented) {
  FILE *f = fopen(GOITA_DOCS_DIR "/SERVER.md", "r");
  cr_assert(f, "cannot read docs/SERVER.md");
  char line[2048];
  int listed[SRV_ERROR_COUNT] = {0}, rows = 0;
  bool in_errors = false;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#') in_errors = strcmp(line, "### Errors\n") == 0;
    char code[64];
    if (!in_errors || sscanf(line, "| `%63[a-z_]` |", code) != 1) continue;
    rows++;
    int error = 0;
    for (int e = 1; e < SRV_ERROR_COUNT && !error; e++)
      if (strcmp(srv_error_code(e), code) == 0) error = e;
    cr_assert(error, "docs/SERVER.md lists an error code the server does not have: %s", code);
    listed[error]++;
    cr_assert_eq(strstr(line, "retry_ms") != NULL, srv_error_retries(error),
                 "docs/SERVER.md: the row of %s should say %s retry_ms", code,
                 srv_error_retries(error) ? "it comes with" : "nothing of");
  }
  fclose(f);
  for (int e = 1; e < SRV_ERROR_COUNT; e++)
    cr_assert_eq(listed[e], 1, "docs/SERVER.md lists the error code %s %d times", srv_error_code(e), listed[e]);
  cr_assert_eq(rows, SRV_ERROR_COUNT - 1);
}

/* The welcome lists what a client may offer from the library's own tables (docs/SERVER.md):
 * the browser's create form and computer levels keep no copy of their own. */
Test(server, welcome_lists_levels_rule_options_and_rule_sets) {
  connect_client(1, "Ann");
  const json_t *choices = w.clients[1].choices;
  cr_assert(json_is_object(choices));
  const json_t *levels = json_object_get(choices, "levels");
  size_t n = 0;
  for (const char *const *level = goita_player_levels(); *level; level++, n++)
    cr_expect_str_eq(json_string_value(json_array_get(levels, n)), *level);
  cr_expect_eq(json_array_size(levels), n);
  size_t count = 0;
  const goita_rule_option *o = goita_rules_options(&count);
  const json_t *options = json_object_get(choices, "rule_options");
  cr_assert_eq(json_array_size(options), count);
  for (size_t i = 0; i < count; i++) {
    const json_t *row = json_array_get(options, i);
    cr_expect_str_eq(json_string_value(json_object_get(row, "name")), o[i].name);
    cr_expect_str_eq(json_string_value(json_object_get(row, "default")), o[i].default_value);
    if (strcmp(o[i].name, "target") == 0) {
      cr_expect_eq(json_integer_value(json_object_get(row, "max")), 10000);
      cr_expect(json_is_true(json_object_get(row, "scaled")));
    }
  }
  const char *french = json_string_value(json_object_get(json_object_get(choices, "presets"), "french"));
  cr_assert(french);
  cr_expect(strstr(french, "king_face_down=allowed") && strstr(french, "scale=ones"), "%s", french);
  /* a level the library does not know is answered with the library's list */
  say(1, "{\"type\":\"bot\",\"table\":1,\"seat\":0,\"level\":\"genius\"}");
  cr_expect(strstr(w.clients[1].last_error, "random, rules, fast, sampler, expert, master_2026_11, master"), "%s",
            w.clients[1].last_error);
}

/* With a turn timer, a stand-in computer player moves for a person who lets it run out. */
Test(server, turn_timer_moves_for_an_absent_player) {
  const uint64_t one[1] = {1};
  connect_client(1, "Ann");
  const int table = table_with("", 5, one, 1, "random");
  for (int guard = 0; guard < 100 && json_array_size(json_object_get(json_object_get(w.clients[1].last_state, "game"),
                                                                     "legal")) == 0;
       guard++)
    run_jobs();
  json_t *game = json_object_get(w.clients[1].last_state, "game");
  cr_assert_gt(json_array_size(json_object_get(game, "legal")), 0, "Ann's turn never came");
  cr_assert_eq(json_integer_value(json_object_get(w.clients[1].last_state, "seconds_left")), 5);
  char *before = game_text(1);
  w.now += 4000;
  srv_hub_tick(w.hub);
  cr_assert_eq(w.njobs, 0, "the stand-in moved before the time ran out");
  w.now += 1500;
  srv_hub_tick(w.hub);
  cr_assert_eq(w.njobs, 1, "no stand-in after the time ran out");
  cr_assert_eq(w.jobs[0].view.seat, 0);
  cr_assert_eq(w.jobs[0].table, table);
  run_jobs();
  char *after = game_text(1);
  cr_assert_str_neq(after, before, "the stand-in's move was not played");
  free(before);
  free(after);
}

/* A table created with a rule set: the lobby names it and its scale, every state carries the
 * scale, and the game is played to the end under it (docs/RULES.md 10-11). */
Test(server, rule_sets_are_named_and_scaled) {
  connect_client(1, "ann");
  const uint64_t seated[] = {1};
  const int table = table_with("preset=french,target=5", 0, seated, 1, "random");
  say(1, "{\"type\":\"list\"}");
  json_t *tables = json_object_get(w.clients[1].last, "tables");
  cr_assert(json_is_array(tables), "no table list");
  json_t *row = json_array_get(tables, 0);
  cr_assert_eq(json_integer_value(json_object_get(row, "id")), table);
  cr_expect_str_eq(json_string_value(json_object_get(row, "preset")), "french");
  cr_expect_str_eq(json_string_value(json_object_get(row, "scale")), "ones");
  json_t *game = json_object_get(w.clients[1].last_state, "game");
  cr_expect_str_eq(json_string_value(json_object_get(game, "scale")), "ones");
  cr_expect_eq(json_integer_value(json_object_get(game, "target")), 50, "targets are sent in tens");
  play_out(seated, 1);
  say(1, "{\"type\":\"games\"}");
  json_t *games = json_object_get(w.clients[1].last, "games");
  cr_assert(json_is_array(games) && json_array_size(games) == 1, "one finished game");
  cr_expect_str_eq(json_string_value(json_object_get(json_array_get(games, 0), "preset")), "french");
}

/* One player floods `create`: three tables, then the table limit, then the request bucket say
 * no. Another player's game goes on, a lobby listener gets three events for the flood and the
 * events of others' tables as before, and the bucket fills again as the clock runs. */
Test(server, per_player_limits_refuse_a_flood_and_nobody_else_notices) {
  close_hub();
  w.options.max_tables_per_player = 3;
  w.options.player_rate_per_second = 5;
  w.options.player_rate_burst = 20;
  open_hub(0);
  connect_client(1, "Flood");
  connect_client(2, "Ben");
  srv_hub_connect(w.hub, 3);
  const uint64_t ben[1] = {2};
  table_with("", 0, ben, 1, "random");
  say(3, "{\"type\":\"list\"}");
  srv_hub_tick(w.hub);
  const int events = w.clients[3].created_events;
  int created = 0, too_many_tables = 0, too_fast = 0, ben_moves = 0;
  for (int i = 0; i < 100; i++) {
    say(1, "{\"type\":\"create\"}");
    if (strcmp(last_type(1), "created") == 0)
      created++;
    else if (strstr(w.clients[1].last_error, "you already have 3 open tables"))
      too_many_tables++;
    else if (strstr(w.clients[1].last_error, "too many requests: at most 5 a second"))
      too_fast++;
    else
      cr_assert_fail("unexpected reply: %s", w.clients[1].last_error);
    if (i % 5 == 0) { /* Ben's game goes on meanwhile */
      run_jobs();
      ben_moves += play_if_turn(2); /* asserts that the move is accepted */
    }
  }
  cr_assert_eq(created, 3);
  cr_assert_eq(too_many_tables, 17);
  cr_assert_eq(too_fast, 80);
  cr_assert_gt(ben_moves, 0, "Ben's game did not go on");
  cr_assert_eq(w.clients[2].errors, 0, "%s", w.clients[2].last_error);
  srv_hub_tick(w.hub);
  cr_assert_eq(w.clients[3].created_events, events + 3, "the listener got %d tables", w.clients[3].created_events - events);
  connect_client(4, "Cat");
  const int cat = create_table(4);
  srv_hub_tick(w.hub);
  json_int_t id;
  cr_assert_str_eq(last_event(3, &id), "created");
  cr_assert_eq(id, cat);
  /* a second later there are 5 more requests in the flooder's bucket, and no more */
  w.now += 1000;
  for (int i = 0; i < 5; i++) {
    say(1, "{\"type\":\"games\"}");
    cr_assert_str_eq(last_type(1), "games", "%s", w.clients[1].last_error);
  }
  say(1, "{\"type\":\"games\"}");
  cr_assert(strstr(w.clients[1].last_error, "too many requests"), "%s", w.clients[1].last_error);
}

/* Chat lines go to everyone at the table and nobody else; too long, control characters and a
 * flood are refused with clear errors; a newcomer gets the last lines. */
Test(server, chat_is_checked_limited_and_stays_at_its_table) {
  connect_client(1, "Ann");
  connect_client(2, "Ben");
  connect_client(3, "Cho");
  say(1, "{\"type\":\"create\"}");
  const int table = (int)int_of(w.clients[1].last, "table");
  say(1, "{\"type\":\"sit\",\"table\":%d,\"seat\":0}", table);
  say(2, "{\"type\":\"watch\",\"table\":%d}", table);
  say(3, "{\"type\":\"create\"}");
  say(3, "{\"type\":\"sit\",\"table\":%d,\"seat\":0}", (int)int_of(w.clients[3].last, "table"));
  say(1, "{\"type\":\"chat\",\"table\":%d,\"text\":\"hello <b>all</b> & \\\"you\\\"\"}", table);
  for (uint64_t id = 1; id <= 2; id++) {
    cr_assert_eq(w.clients[id].chats, 1, "client %d did not get the line", (int)id);
    cr_assert_str_eq(json_string_value(json_object_get(w.clients[id].chat, "text")), "hello <b>all</b> & \"you\"");
    cr_assert_str_eq(json_string_value(json_object_get(w.clients[id].chat, "from")), "Ann");
    cr_assert_eq(int_of(w.clients[id].chat, "seat"), 0);
    cr_assert_eq(int_of(w.clients[id].chat, "table"), table);
  }
  cr_assert_eq(w.clients[3].chats, 0, "a line went to another table");
  say(2, "{\"type\":\"chat\",\"table\":%d,\"text\":\"from the rail\"}", table);
  cr_assert_eq(int_of(w.clients[1].chat, "seat"), -1, "a spectator's line has a seat");
  say(3, "{\"type\":\"chat\",\"table\":%d,\"text\":\"hi\"}", table);
  expect_error(3, "you are not at table");
  /* 200 characters of three bytes each are fine; 201 are not */
  char text[1024] = "";
  for (int i = 0; i < 200; i++) strcat(text, "\u3042");
  say(1, "{\"type\":\"chat\",\"table\":%d,\"text\":\"%s\"}", table, text);
  cr_assert_eq(w.clients[1].chats, 3, "200 characters refused: %s", w.clients[1].last_error);
  strcat(text, "\u3042");
  say(1, "{\"type\":\"chat\",\"table\":%d,\"text\":\"%s\"}", table, text);
  expect_error(1, "at most 200 characters (this has 201)");
  say(1, "{\"type\":\"chat\",\"table\":%d,\"text\":\"two\\nlines\"}", table);
  expect_error(1, "control characters are not allowed (U+000A at character 4)");
  say(1, "{\"type\":\"chat\",\"table\":%d,\"text\":\"abc\\u202edcba\"}", table);
  expect_error(1, "U+202E");
  say(1, "{\"type\":\"chat\",\"table\":%d,\"text\":\"\\u0085\"}", table);
  expect_error(1, "U+0085");
  say(1, "{\"type\":\"chat\",\"table\":%d,\"text\":\"   \"}", table);
  expect_error(1, "field \"text\": empty");
  say(1, "{\"type\":\"chat\",\"table\":%d}", table);
  expect_error(1, "missing field \"text\"");
  cr_assert_eq(w.clients[2].chats, 3, "a refused line was sent");
  /* a flood: 5 at once (Ann has said 2), then one every 2 s */
  for (int i = 0; i < 3; i++) say(1, "{\"type\":\"chat\",\"table\":%d,\"text\":\"line %d\"}", table, i);
  cr_assert_eq(w.clients[2].chats, 6, "%s", w.clients[1].last_error);
  say(1, "{\"type\":\"chat\",\"table\":%d,\"text\":\"one too many\"}", table);
  expect_error(1, "too many lines: wait 2.0 s (5 at once, then one every 2.0 s)");
  cr_assert_eq(w.clients[2].chats, 6, "a flood went through");
  w.now += 2000;
  say(1, "{\"type\":\"chat\",\"table\":%d,\"text\":\"later\"}", table);
  cr_assert_eq(w.clients[2].chats, 7, "no line allowed after the wait: %s", w.clients[1].last_error);
  say(2, "{\"type\":\"chat\",\"table\":%d,\"text\":\"Ben has his own bucket\"}", table);
  cr_assert_eq(w.clients[1].chats, 8, "%s", w.clients[2].last_error);
  /* a newcomer gets what was said, oldest first */
  connect_client(4, "Dai");
  say(4, "{\"type\":\"watch\",\"table\":%d}", table);
  json_t *lines = json_object_get(w.clients[4].chat_history, "lines");
  cr_assert_eq(json_array_size(lines), 8);
  cr_assert_str_eq(json_string_value(json_object_get(json_array_get(lines, 0), "text")), "hello <b>all</b> & \"you\"");
  cr_assert_str_eq(json_string_value(json_object_get(json_array_get(lines, 7), "from")), "Ben");
  /* only the last 50 are kept */
  for (int i = 0; i < 60; i++) {
    w.now += 2000;
    say(4, "{\"type\":\"chat\",\"table\":%d,\"text\":\"n%d\"}", table, i);
  }
  connect_client(5, "Eli");
  say(5, "{\"type\":\"watch\",\"table\":%d}", table);
  lines = json_object_get(w.clients[5].chat_history, "lines");
  cr_assert_eq(json_array_size(lines), 50);
  cr_assert_str_eq(json_string_value(json_object_get(json_array_get(lines, 0), "text")), "n10");
  srv_hub_connect(w.hub, 6);
  say(6, "{\"type\":\"chat\",\"table\":%d,\"text\":\"hi\"}", table);
  expect_error(6, "say hello first");
}

/* A guest without a player row draws from a bucket of its own (keyed on its pending token);
 * when its first create makes the row, the row takes over that bucket rather than a full one. */
Test(server, a_guest_is_rate_limited_before_and_after_its_row_is_made) {
  close_hub();
  w.options.player_rate_per_second = 5;
  w.options.player_rate_burst = 20;
  open_hub(0);
  connect_client(1, "Guest");
  for (int i = 0; i < 20; i++) {
    say(1, "{\"type\":\"games\"}");
    cr_assert_str_eq(last_type(1), "games", "%s", w.clients[1].last_error);
  }
  say(1, "{\"type\":\"create\"}");
  expect_error(1, "too many requests");
  cr_assert_eq(count_rows("SELECT count(*) FROM players"), 0, "a refused request made a player row");
  connect_client(2, "Other"); /* another guest: its own bucket */
  say(2, "{\"type\":\"games\"}");
  cr_assert_str_eq(last_type(2), "games", "%s", w.clients[2].last_error);
  w.now += 1000; /* five more */
  create_table(1);
  cr_assert_eq(count_rows("SELECT count(*) FROM players"), 1);
  for (int i = 0; i < 4; i++) {
    say(1, "{\"type\":\"games\"}");
    cr_assert_str_eq(last_type(1), "games", "%s", w.clients[1].last_error);
  }
  say(1, "{\"type\":\"games\"}");
  expect_error(1, "too many requests");
}
