/* Names and passwords: claimed names logged into from another device, wrong passwords slowed
 * down, reserved and look-alike names refused, guests named apart, password work off the event
 * loop and off the computer players' worker. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bots.h"
#include "hub_harness.h"

TestSuite(server, .init = hub_harness_setup, .fini = hub_harness_teardown);

/* A guest claims its name with a password and keeps its rating and games; from a second device
 * it logs in and is the same player, with a token of that device's own; nobody else can take the
 * name, in any case or spacing. */
Test(server, names_are_claimed_and_logged_into_from_another_device) {
  const uint64_t one[1] = {1};
  connect_client(1, "Ann");
  table_with("target=10", 0, one, 1, "random");
  play_out(one, 1);
  const json_int_t id = player_field(1, "id"), rating = player_field(1, "rating");
  cr_assert_eq(player_field(1, "games"), 1);
  say(1, "{\"type\":\"register\",\"name\":\" Ann \",\"password\":\"short\"}");
  cr_assert(strstr(error_of(1), "field \"password\": expected 8 to 128 bytes"), "%s", error_of(1));
  say(1, "{\"type\":\"register\",\"name\":\" Ann \",\"password\":\"correct horse\"}");
  cr_assert_eq(w.clients[1].errors, 1, "%s", error_of(1));
  cr_assert(json_is_true(json_object_get(w.clients[1].player, "registered")));
  cr_assert_eq(player_field(1, "id"), id);
  cr_assert_eq(player_field(1, "rating"), rating);
  cr_assert_eq(player_field(1, "games"), 1);
  cr_assert_str_eq(json_string_value(json_object_get(w.clients[1].player, "name")), "Ann");
  say(1, "{\"type\":\"register\",\"name\":\"Ann2\",\"password\":\"correct horse\"}");
  cr_assert(strstr(error_of(1), "you have claimed the name \"Ann\" already"), "%s", error_of(1));
  /* the second device */
  connect_client(2, "Bob");
  say(2, "{\"type\":\"login\",\"name\":\"ann\",\"password\":\"wrong horse\"}");
  cr_assert(strstr(error_of(2), "wrong name or password"), "%s", error_of(2));
  say(2, "{\"type\":\"login\",\"name\":\"ANN\",\"password\":\"correct horse\"}");
  cr_assert_eq(w.clients[2].errors, 1, "%s", error_of(2));
  cr_assert_eq(player_field(2, "id"), id);
  cr_assert_eq(player_field(2, "games"), 1);
  cr_assert_str_neq(w.clients[2].player_token, w.clients[1].player_token, "a device's token given to another");
  /* both devices' tokens work */
  for (uint64_t dev = 1; dev <= 2; dev++) {
    srv_hub_connect(w.hub, 2 + dev);
    say(2 + dev, "{\"type\":\"hello\",\"player_token\":\"%s\",\"name\":\"Renamed\"}", w.clients[dev].player_token);
    cr_assert_eq(player_field(2 + dev, "id"), id);
    cr_assert_str_eq(json_string_value(json_object_get(w.clients[2 + dev].player, "name")), "Ann",
                     "a claimed name changed by hello");
  }
  /* the name is nobody else's */
  connect_client(5, "Eve");
  say(5, "{\"type\":\"register\",\"name\":\"aNN\",\"password\":\"12345678\"}");
  cr_assert(strstr(error_of(5), "the name \"aNN\" is registered"), "%s", error_of(5));
  say(5, "{\"type\":\"hello\",\"name\":\"ann\"}");
  cr_assert(strstr(error_of(5), "is registered"), "%s", error_of(5));
  say(5, "{\"type\":\"login\",\"name\":\"nobody\",\"password\":\"12345678\"}");
  cr_assert(strstr(error_of(5), "wrong name or password"), "%s", error_of(5));
}

/* Wrong passwords: after three, each further try waits, on the hub's clock, even with the right
 * password. */
Test(server, wrong_passwords_slow_down_the_next_tries) {
  connect_client(1, "Ann");
  say(1, "{\"type\":\"register\",\"name\":\"Ann\",\"password\":\"correct horse\"}");
  cr_assert_eq(w.clients[1].errors, 0, "%s", error_of(1));
  srv_hub_connect(w.hub, 2);
  for (int i = 0; i < 3; i++) {
    say(2, "{\"type\":\"login\",\"name\":\"Ann\",\"password\":\"guess %04d\"}", i);
    cr_assert(strstr(error_of(2), "wrong name or password"), "%s", error_of(2));
  }
  say(2, "{\"type\":\"login\",\"name\":\"Ann\",\"password\":\"correct horse\"}");
  cr_assert(strstr(error_of(2), "too many wrong passwords for \"Ann\": try again in 1 s"), "%s", error_of(2));
  cr_assert_null(w.clients[2].player);
  w.now += 1000;
  say(2, "{\"type\":\"login\",\"name\":\"Ann\",\"password\":\"guess 0004\"}");
  say(2, "{\"type\":\"login\",\"name\":\"Ann\",\"password\":\"correct horse\"}");
  cr_assert(strstr(error_of(2), "try again in 2 s"), "the wait did not double: %s", error_of(2));
  w.now += 2000;
  const int errors = w.clients[2].errors;
  say(2, "{\"type\":\"login\",\"name\":\"Ann\",\"password\":\"correct horse\"}");
  cr_assert_eq(w.clients[2].errors, errors, "%s", error_of(2));
  cr_assert_eq(player_field(2, "id"), player_field(1, "id"));
}

/* The lockout cannot be crowded out (issue 39): it kept 64 names, so 64 logins for unknown names
 * made it forget an account in lockout, and then one account took 8 guesses a second. */
Test(server, logins_for_other_names_do_not_lift_a_lockout) {
  connect_client(1, "Ann");
  say(1, "{\"type\":\"register\",\"name\":\"Ann\",\"password\":\"correct horse\"}");
  cr_assert_eq(w.clients[1].errors, 0, "%s", error_of(1));
  srv_hub_connect(w.hub, 2);
  for (int i = 0; i < 3; i++) say(2, "{\"type\":\"login\",\"name\":\"Ann\",\"password\":\"guess %04d\"}", i);
  w.hold_passwords = true; /* unknown names cost a hash each: not done here, only counted */
  for (int i = 0; i < 200; i++) {
    w.now += 1; /* the lockout's second is not over at the end */
    say(2, "{\"type\":\"login\",\"name\":\"nobody %d\",\"password\":\"whatever1\"}", i);
    w.npasswords = 0;
    srv_hub_disconnect(w.hub, 2); /* a new connection: the last one's check is dropped */
    srv_hub_connect(w.hub, 2);
  }
  w.hold_passwords = false;
  say(2, "{\"type\":\"login\",\"name\":\"Ann\",\"password\":\"guess 0003\"}");
  cr_assert(strstr(error_of(2), "too many wrong passwords for \"Ann\""), "the lockout was crowded out: %s", error_of(2));
}

/* Guesses sent at once from 30 connections are not all checked: each counts before its hash,
 * so the lockout starts after the free ones (issue 39: all 30 were checked). */
Test(server, concurrent_guesses_are_counted_before_they_are_checked) {
  connect_client(1, "Ann");
  say(1, "{\"type\":\"register\",\"name\":\"Ann\",\"password\":\"correct horse\"}");
  cr_assert_eq(w.clients[1].errors, 0, "%s", error_of(1));
  w.hold_passwords = true;
  int refused = 0;
  for (uint64_t id = 2; id < 32; id++) {
    srv_hub_connect(w.hub, id);
    say(id, "{\"type\":\"login\",\"name\":\"Ann\",\"password\":\"guess %04d\"}", (int)id);
    refused += w.clients[id].errors > 0 && strstr(error_of(id), "too many wrong passwords") != NULL;
  }
  cr_assert_eq(w.npasswords, 3, "%d of 30 concurrent guesses were sent to be checked", w.npasswords);
  cr_assert_eq(refused, 27);
  run_passwords();
  w.hold_passwords = false;
}

/* A login for a name nobody has costs a real check, like a wrong password, and gets the same
 * answer: its timing does not tell which names exist (issue 39: 1-6 ms against 255-375 ms). */
Test(server, unknown_names_take_the_work_of_known_ones) {
  srv_hub_connect(w.hub, 2);
  w.hold_passwords = true;
  say(2, "{\"type\":\"login\",\"name\":\"Nobody\",\"password\":\"whatever1\"}");
  cr_assert_eq(w.npasswords, 1, "an unknown name was answered without a password check: %s", error_of(2));
  cr_assert_eq(w.passwords[0].kind, SRV_PASSWORD_CHECK);
  cr_assert_eq(strlen(w.passwords[0].hash), strlen("$argon2id$v=19$m=65536,t=2,p=1$") + 22 + 1 + 43,
               "not checked against an argon2id hash of the server's parameters: %s", w.passwords[0].hash);
  cr_assert(strncmp(w.passwords[0].hash, "$argon2id$v=19$m=65536,t=2,p=1$", 31) == 0, "%s", w.passwords[0].hash);
  run_passwords();
  w.hold_passwords = false;
  cr_assert(strstr(error_of(2), "wrong name or password"), "%s", error_of(2));
}

/* Names that look like a computer seat's are refused as it is (issue 39: a Greek omicron, a
 * fullwidth C or a zero-width space got through), and names may not carry the control,
 * bidirectional and invisible characters chat refuses, nor those that show nothing. */
Test(server, names_that_look_like_a_computer_or_hide_characters_are_refused) {
  static const char *const lookalikes[] = {
      "C\\u03bfmputer 2 \\u00b7 expert",      /* Greek small omicron */
      "\\uff23omputer 2 \\u00b7 expert",      /* fullwidth C */
      "\\u0421\\u043emputer 2",               /* Cyrillic Es and o */
      "Comput\\u0435r\\u00a03",               /* Cyrillic e, a no-break space */
      "\\ud835\\udc02omputer 1 \\u00b7 rules", /* mathematical bold C */
      "Sampler (C\\u039fMPUTER)",             /* Greek capital omicron */
  };
  srv_hub_connect(w.hub, 1);
  for (size_t i = 0; i < sizeof lookalikes / sizeof *lookalikes; i++) {
    const int errors = w.clients[1].errors;
    say(1, "{\"type\":\"hello\",\"name\":\"%s\"}", lookalikes[i]);
    cr_assert_eq(w.clients[1].errors, errors + 1, "hello took the name %s", lookalikes[i]);
    cr_assert(strstr(error_of(1), "is kept for computer players"), "%s: %s", lookalikes[i], error_of(1));
  }
  static const char *const hidden[] = {
      "Computer\\u200b 2 \\u00b7 expert", /* zero-width space */
      "Ann\\u202e",                       /* right-to-left override */
      "A\\u2066nn\\u2069",                /* isolates */
      "A\\u200dnn",                       /* zero-width joiner */
      "Ann\\ufeff",                       /* byte-order mark */
      "\\u3164",                          /* Hangul filler: looks empty */
      "A\\u00adnn",                       /* soft hyphen */
  };
  for (size_t i = 0; i < sizeof hidden / sizeof *hidden; i++) {
    const int errors = w.clients[1].errors;
    say(1, "{\"type\":\"hello\",\"name\":\"%s\"}", hidden[i]);
    cr_assert_eq(w.clients[1].errors, errors + 1, "hello took the name %s", hidden[i]);
    cr_assert(strstr(error_of(1), "control and invisible characters are not allowed"), "%s: %s", hidden[i],
              error_of(1));
  }
  /* names in other scripts are fine */
  w.clients[1].errors = 0;
  connect_client(1, "\\u039a\\u03ce\\u03c3\\u03c4\\u03b1\\u03c2"); /* Greek */
  connect_client(1, "\\u3053\\u3093\\u3074\\u3085\\u30fc\\u305f\\u597d\\u304d");
}

/* The most common passwords are refused (issue 39: 12345678 and password were accepted), in
 * any ASCII case, and so are runs and repeats; an uncommon one is taken. */
Test(server, the_most_common_passwords_are_refused) {
  static const char *const common[] = {"12345678", "password", "PASSWORD1", "qwertyuiop", "iloveyou",
                                       "23456789", "aaaaaaaaaa", "abcdefghij", "87654321", "1q2w3e4r"};
  connect_client(1, "Ann");
  for (size_t i = 0; i < sizeof common / sizeof *common; i++) {
    const int errors = w.clients[1].errors;
    say(1, "{\"type\":\"register\",\"name\":\"Ann\",\"password\":\"%s\"}", common[i]);
    cr_assert_eq(w.clients[1].errors, errors + 1, "the password %s was taken", common[i]);
    cr_assert(strstr(error_of(1), "one of the most common ones"), "%s: %s", common[i], error_of(1));
  }
  const int errors = w.clients[1].errors;
  say(1, "{\"type\":\"register\",\"name\":\"Ann\",\"password\":\"correct horse\"}");
  cr_assert_eq(w.clients[1].errors, errors, "%s", error_of(1));
  cr_assert(json_is_true(json_object_get(w.clients[1].player, "registered")));
}

/* Guests who give no name are told apart: "Player 1234", not all "Player" (issue 39). */
Test(server, guests_get_distinct_names) {
  char seen[8][SRV_NAME_SIZE];
  for (uint64_t id = 1; id <= 8; id++) {
    srv_hub_connect(w.hub, id);
    say(id, "{\"type\":\"hello\"}");
    const char *name = json_string_value(json_object_get(w.clients[id].player, "name"));
    cr_assert_not_null(name);
    cr_assert_eq(strlen(name), strlen("Player 1234"), "a guest is called \"%s\"", name);
    cr_assert(strncmp(name, "Player ", 7) == 0, "a guest is called \"%s\"", name);
    snprintf(seen[id - 1], sizeof seen[id - 1], "%s", name);
    for (uint64_t other = 1; other < id; other++)
      cr_expect_str_neq(seen[other - 1], name, "two guests are both \"%s\"", name);
  }
}

/* Names of computers are not for people: refused in hello and in register, whatever the case. */
Test(server, computer_names_are_reserved) {
  static const char *const names[] = {"Computer 2 · expert", "computer", "  COMPUTER 3", "expert (computer)",
                                      "Sampler (Computer)", "コンピュータ 1"};
  srv_hub_connect(w.hub, 1);
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    const int errors = w.clients[1].errors;
    say(1, "{\"type\":\"hello\",\"name\":\"%s\"}", names[i]);
    cr_assert_eq(w.clients[1].errors, errors + 1, "hello took the name %s", names[i]);
    cr_assert(strstr(error_of(1), "is kept for computer players"), "%s", error_of(1));
  }
  w.clients[1].errors = 0;
  connect_client(1, "Computerfan"); /* a word that only starts like it is fine */
  say(1, "{\"type\":\"register\",\"name\":\"Computer 1 · random\",\"password\":\"12345678\"}");
  cr_assert(strstr(error_of(1), "is kept for computer players"), "%s", error_of(1));
}

/* Every computer seat is named by its seat and level, in the seats, the lobby and the stored
 * game, so two computers of one level are told apart. */
Test(server, computer_seats_are_told_apart) {
  const uint64_t one[1] = {1};
  connect_client(1, "Ann");
  table_with("target=10", 0, one, 1, "random");
  json_t *seats = json_object_get(w.clients[1].last_state, "seats");
  for (int s = 1; s < 4; s++) {
    char expected[40];
    snprintf(expected, sizeof expected, "Computer %d · random", s + 1);
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(seats, (size_t)s), "name")), expected);
  }
  play_out(one, 1);
  say(1, "{\"type\":\"games\"}");
  json_t *names = json_object_get(json_array_get(json_object_get(w.clients[1].last, "games"), 0), "names");
  cr_assert_str_eq(json_string_value(json_array_get(names, 1)), "Computer 2 · random");
  cr_assert_str_eq(json_string_value(json_array_get(names, 3)), "Computer 4 · random");
}

/* Passwords are hashed and checked off the event loop: while a register's or a login's job is
 * out, the other tables play on and the client's own next register or login is refused; the
 * answer finishes the request; an answer for a client that left, or for a request it no longer
 * waits for, changes nothing. */
Test(server, passwords_are_worked_off_the_event_loop) {
  const uint64_t one[1] = {1};
  connect_client(1, "Ann");
  connect_client(2, "Bob");
  table_with("target=10", 0, one, 1, "random");
  w.hold_passwords = true;
  say(2, "{\"type\":\"register\",\"name\":\"Bob\",\"password\":\"correct horse\"}");
  cr_assert_eq(w.npasswords, 1, "no password job was asked for");
  cr_assert_eq(w.clients[2].errors, 0, "%s", w.clients[2].last_error);
  cr_assert(!json_is_true(json_object_get(w.clients[2].player, "registered")), "registered before the hash");
  say(2, "{\"type\":\"login\",\"name\":\"Bob\",\"password\":\"correct horse\"}");
  cr_assert(strstr(error_of(2), "still being checked"), "%s", error_of(2));
  /* the hub answers others meanwhile: Ann's table plays on */
  char *before = game_text(1);
  for (int i = 0; i < 20; i++) {
    run_jobs();
    play_if_turn(1);
  }
  char *after = game_text(1);
  cr_assert_str_neq(before, after, "Ann's table did not move while a password was out");
  free(before);
  free(after);
  run_passwords();
  cr_assert(json_is_true(json_object_get(w.clients[2].player, "registered")), "the answer did not finish it");
  /* a login whose client leaves before the answer: nothing happens, nothing is sent */
  srv_hub_connect(w.hub, 3);
  say(3, "{\"type\":\"hello\"}");
  say(3, "{\"type\":\"login\",\"name\":\"bob\",\"password\":\"correct horse\"}");
  cr_assert_eq(w.npasswords, 1);
  srv_hub_disconnect(w.hub, 3);
  const long sent = w.messages;
  run_passwords();
  cr_assert_eq(w.messages, sent, "an answer for a client that left was sent somewhere");
  /* and one that does arrive logs in */
  srv_hub_connect(w.hub, 4);
  say(4, "{\"type\":\"hello\"}");
  say(4, "{\"type\":\"login\",\"name\":\"BOB\",\"password\":\"correct horse\"}");
  run_passwords();
  cr_assert_eq(json_integer_value(json_object_get(w.clients[4].player, "id")),
               json_integer_value(json_object_get(w.clients[2].player, "id")));
  w.hold_passwords = false;
}

/* ---- the worker threads (bots.c) ---- */

static void wake_nothing(void *ctx) { (void)ctx; }

/* Registrations hash their passwords on a worker of their own: 16 at once do not hold another
 * table's computer move (issue 39: 40 registrations held one for 8.5 s, being queued in front
 * of it on the computer players' one thread). */
Test(bots, password_jobs_never_hold_a_computer_move) {
  srv_bots *bots = NULL;
  cr_assert_eq(srv_bots_start(&bots, 1, wake_nothing, NULL), 0);
  enum { HASHES = 16 };
  srv_password_job pw;
  memset(&pw, 0, sizeof pw);
  pw.kind = SRV_PASSWORD_HASH;
  snprintf(pw.password, sizeof pw.password, "correct horse");
  for (int i = 0; i < HASHES; i++) {
    pw.client = (uint64_t)i + 1;
    srv_bots_submit_password(bots, &pw);
  }
  srv_think_job job;
  memset(&job, 0, sizeof job);
  goita_rules rules;
  goita_rules_default(&rules);
  goita_game game;
  uint64_t seed = 1;
  goita_move legal[GOITA_MAX_LEGAL];
  for (;; seed++) { /* a deal that does not end at once */
    cr_assert_eq(goita_game_start(&game, &rules, seed, NULL), GOITA_OK);
    goita_game_view(&game, game.round.turn, &job.view);
    if (goita_view_legal_moves(&job.view, legal) > 0) break;
  }
  job.table = 7;
  job.seed = seed;
  snprintf(job.level, sizeof job.level, "random");
  srv_bots_submit(bots, &job);
  int hashed = 0, moves = 0, hashed_before_move = -1;
  srv_bot_answer answers[32];
  for (int waited = 0; waited < 60000 && (moves == 0 || hashed < HASHES); waited++) {
    const int n = srv_bots_collect(bots, answers, 32);
    for (int i = 0; i < n; i++) {
      if (answers[i].password) {
        hashed++;
        continue;
      }
      moves++;
      cr_assert_eq(answers[i].table, 7);
      hashed_before_move = hashed;
    }
    if (n == 0) nanosleep(&(struct timespec){0, 1000000}, NULL);
  }
  srv_bots_stop(bots);
  cr_assert_eq(moves, 1, "no move");
  cr_assert_eq(hashed, HASHES);
  cr_assert_lt(hashed_before_move, 2, "the computer's move waited for %d password hashes", hashed_before_move);
}
