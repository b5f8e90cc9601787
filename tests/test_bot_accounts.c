/* Bot accounts (docs/SERVER.md "Bots"), through the hub driven directly (no network, a fake
 * clock): a registered person makes a bot and gets its token once; the token, stored only as a
 * hash, lets the bot say hello as itself, marked as a bot wherever it shows; a new token or a
 * revocation ends the old one at once, live connections included; and every request a guest, a
 * bot or a stranger should not make is refused with its code. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "hub_harness.h"

/* The client's player, as the last welcome or player message showed it. */
static json_t *player_of(uint64_t client) { return w.clients[client].player; }

/* The id of the client's player row. */
static json_int_t player_id(uint64_t client) { return player_field(client, "id"); }

/* A person who has claimed a name. */
static void registered_person(uint64_t id, const char *name) {
  srv_hub_connect(w.hub, id);
  say(id, "{\"type\":\"hello\",\"name\":\"%s\"}", name);
  say(id, "{\"type\":\"register\",\"name\":\"%s\",\"password\":\"not a common one %s\"}", name, name);
  cr_assert_str_eq(error_code(id), "", "register: %s", error_code(id));
}

/* Makes a bot for the owner; returns its id and copies its token. */
static json_int_t make_bot(uint64_t owner, const char *name, char token[SRV_TOKEN_SIZE]) {
  say(owner, "{\"type\":\"bot_create\",\"name\":\"%s\"}", name);
  cr_assert_str_eq(last_type(owner), "bot_created", "bot_create: %s", error_code(owner));
  json_t *msg = w.clients[owner].last;
  json_t *bot = json_object_get(msg, "bot");
  cr_assert_str_eq(json_string_value(json_object_get(bot, "name")), name);
  cr_assert(json_is_true(json_object_get(bot, "bot_account")), "the bot is not marked as one");
  const char *t = json_string_value(json_object_get(msg, "token"));
  cr_assert(t && strlen(t) == SRV_TOKEN_SIZE - 1, "no token given");
  snprintf(token, SRV_TOKEN_SIZE, "%s", t);
  return json_integer_value(json_object_get(bot, "id"));
}

/* A connection saying hello with a token; returns the player id it was welcomed as. */
static json_int_t hello_with(uint64_t id, const char *token) {
  srv_hub_connect(w.hub, id);
  say(id, "{\"type\":\"hello\",\"player_token\":\"%s\"}", token);
  cr_assert_str_eq(last_type(id), "welcome");
  return json_integer_value(json_object_get(player_of(id), "id"));
}

TestSuite(bot_accounts, .init = hub_harness_setup, .fini = hub_harness_teardown);

Test(bot_accounts, a_bot_says_hello_with_its_token_and_shows_as_a_bot) {
  registered_person(1, "Aki");
  char token[SRV_TOKEN_SIZE];
  const json_int_t bot = make_bot(1, "Robo", token);

  /* the token is kept only as its hash */
  cr_assert_eq(count_rows_with("SELECT count(*) FROM player_tokens WHERE token = ?", token), 0, "a plain token was stored");
  char hash[SRV_TOKEN_HASH_SIZE];
  srv_token_hash(token, hash);
  cr_assert_eq(count_rows_with("SELECT count(*) FROM player_tokens WHERE token = ?", hash), 1);

  cr_assert_eq(hello_with(2, token), bot, "the token did not log the bot in");
  json_t *me = player_of(2);
  cr_assert_str_eq(json_string_value(json_object_get(me, "name")), "Robo");
  cr_assert(json_is_true(json_object_get(me, "bot_account")));
  /* a bot cannot be renamed by a hello */
  say(2, "{\"type\":\"hello\",\"player_token\":\"%s\",\"name\":\"Someone Else\"}", token);
  cr_assert_str_eq(json_string_value(json_object_get(player_of(2), "name")), "Robo");

  /* marked at the table, in the lobby and in chat */
  say(1, "{\"type\":\"list\"}");
  say(2, "{\"type\":\"create\",\"rules\":\"players=4\",\"sit\":true}");
  cr_assert_str_eq(error_code(2), "");
  json_t *seat0 = json_array_get(json_object_get(w.clients[2].last_state, "seats"), 0);
  cr_assert(json_is_true(json_object_get(seat0, "bot_account")), "the seat does not show a bot");
  const json_int_t table = json_integer_value(json_object_get(w.clients[2].last_state, "table"));
  say(1, "{\"type\":\"sit\",\"table\":%lld,\"seat\":1}", (long long)table);
  json_t *seat1 = json_array_get(json_object_get(w.clients[1].last_state, "seats"), 1);
  cr_assert_null(json_object_get(seat1, "bot_account"), "a person shown as a bot");
  say(2, "{\"type\":\"chat\",\"table\":%lld,\"text\":\"hello\"}", (long long)table);
  cr_assert_str_eq(last_type(1), "chat");
  cr_assert(json_is_true(json_object_get(w.clients[1].last, "bot_account")), "the bot's chat line is not marked");
  say(1, "{\"type\":\"chat\",\"table\":%lld,\"text\":\"hi\"}", (long long)table);
  cr_assert_null(json_object_get(w.clients[2].last, "bot_account"), "a person's chat line marked as a bot's");
  srv_hub_connect(w.hub, 3);
  say(3, "{\"type\":\"hello\"}");
  say(3, "{\"type\":\"list\"}");
  json_t *row = json_array_get(json_object_get(w.clients[3].tables, "tables"), 0);
  cr_assert(json_is_true(json_object_get(json_array_get(json_object_get(row, "seats"), 0), "bot_account")),
            "the lobby does not show the bot");

  /* the owner's list */
  say(1, "{\"type\":\"bots\"}");
  json_t *bots = json_object_get(w.clients[1].last, "bots");
  cr_assert_eq(json_array_size(bots), 1);
  cr_assert_eq(json_integer_value(json_object_get(json_array_get(bots, 0), "id")), bot);
}

Test(bot_accounts, a_new_token_or_a_revocation_ends_the_old_one_at_once) {
  registered_person(1, "Aki");
  char first[SRV_TOKEN_SIZE];
  const json_int_t bot = make_bot(1, "Robo", first);
  cr_assert_eq(hello_with(2, first), bot);
  say(2, "{\"type\":\"create\",\"rules\":\"players=4\",\"sit\":true}");
  cr_assert_str_eq(error_code(2), "");

  say(1, "{\"type\":\"bot_token\",\"bot\":%lld}", (long long)bot);
  cr_assert_str_eq(last_type(1), "bot_token");
  char second[SRV_TOKEN_SIZE];
  snprintf(second, sizeof second, "%s", json_string_value(json_object_get(w.clients[1].last, "token")));
  cr_assert_str_neq(second, first);
  /* the connection logged in with the old token is cut off: told so, and no longer the bot */
  cr_assert_str_eq(error_code(2), "bot_revoked");
  say(2, "{\"type\":\"create\",\"rules\":\"players=4\"}");
  cr_assert_str_eq(error_code(2), "hello_first", "a cut-off connection still acts: %s", error_code(2));
  /* the old token is a stranger's now: a guest, not the bot */
  cr_assert_neq(hello_with(3, first), bot, "the replaced token still logs the bot in");
  cr_assert_null(json_object_get(player_of(3), "bot_account"));
  cr_assert_eq(hello_with(4, second), bot, "the new token does not log the bot in");

  say(1, "{\"type\":\"bot_revoke\",\"bot\":%lld}", (long long)bot);
  cr_assert_str_eq(last_type(1), "bot_revoked");
  cr_assert_str_eq(error_code(4), "bot_revoked");
  cr_assert_neq(hello_with(5, second), bot, "the revoked token still logs the bot in");
  char id[24];
  snprintf(id, sizeof id, "%lld", (long long)bot);
  cr_assert_eq(count_rows_with("SELECT count(*) FROM player_tokens WHERE player = ?", id), 0, "a revoked token is still stored");
}

Test(bot_accounts, requests_from_those_who_may_not_are_refused) {
  registered_person(1, "Aki");
  registered_person(2, "Ben");
  char token[SRV_TOKEN_SIZE];
  const json_int_t bot = make_bot(1, "Robo", token);

  srv_hub_connect(w.hub, 3);
  say(3, "{\"type\":\"hello\",\"name\":\"Guest Person\"}");
  say(3, "{\"type\":\"bot_create\",\"name\":\"Mine\"}");
  cr_assert_str_eq(error_code(3), "not_registered", "a guest made a bot");
  hello_with(4, token);
  say(4, "{\"type\":\"bot_create\",\"name\":\"Child\"}");
  cr_assert_str_eq(error_code(4), "not_registered", "a bot made a bot");
  say(4, "{\"type\":\"bot_token\",\"bot\":%lld}", (long long)bot);
  cr_assert_str_eq(error_code(4), "not_registered", "a bot renewed its own token");

  /* another person's bot is not one's own, nor is a person */
  say(2, "{\"type\":\"bot_token\",\"bot\":%lld}", (long long)bot);
  cr_assert_str_eq(error_code(2), "bot_unknown");
  say(2, "{\"type\":\"bot_revoke\",\"bot\":%lld}", (long long)bot);
  cr_assert_str_eq(error_code(2), "bot_unknown");
  const json_int_t aki = player_id(1);
  say(1, "{\"type\":\"bot_revoke\",\"bot\":%lld}", (long long)aki);
  cr_assert_str_eq(error_code(1), "bot_unknown", "a person's tokens were revoked as a bot's");
  cr_assert_eq(hello_with(5, token), bot, "a refused revocation revoked the token");

  /* names as for people, and fields as the table says */
  say(1, "{\"type\":\"bot_create\",\"name\":\"Ben\"}");
  cr_assert_str_eq(error_code(1), "name_taken");
  say(1, "{\"type\":\"bot_create\",\"name\":\"robo\"}");
  cr_assert_str_eq(error_code(1), "name_taken", "a bot's name was claimed again in another case");
  say(1, "{\"type\":\"bot_create\",\"name\":\"Computer · expert\"}");
  cr_assert_str_eq(error_code(1), "name_reserved");
  say(1, "{\"type\":\"bot_create\",\"name\":\"   \"}");
  cr_assert_str_eq(error_code(1), "bad_request");
  say(1, "{\"type\":\"bot_create\"}");
  cr_assert_str_eq(error_code(1), "bad_request");
  say(1, "{\"type\":\"bot_revoke\",\"bot\":\"%lld\"}", (long long)bot);
  cr_assert_str_eq(error_code(1), "bad_request");
  say(1, "{\"type\":\"bot_token\",\"bot\":0}");
  cr_assert_str_eq(error_code(1), "bad_request");
  say(1, "{\"type\":\"bot_create\",\"name\":\"X\",\"token\":\"mine\"}");
  cr_assert_str_eq(error_code(1), "bad_request", "an unknown field was taken");

  /* a few bots each, no more */
  char spare[SRV_TOKEN_SIZE];
  int made = 1;
  for (; made < 50; made++) {
    char name[24];
    snprintf(name, sizeof name, "Robo %d", made);
    say(1, "{\"type\":\"bot_create\",\"name\":\"%s\"}", name);
    if (strcmp(last_type(1), "bot_created") != 0) break;
    snprintf(spare, sizeof spare, "%s", json_string_value(json_object_get(w.clients[1].last, "token")));
  }
  cr_assert_str_eq(error_code(1), "too_many_bots");
  cr_assert_eq(made, 5, "%d bots were made", made);
}

Test(bot_accounts, bots_are_rated_on_a_list_of_their_own) {
  registered_person(1, "Aki");
  char token[SRV_TOKEN_SIZE];
  const json_int_t bot = make_bot(1, "Robo", token);
  const json_int_t aki = player_id(1);
  /* both have played (the lists show only those who have) */
  sqlite3 *db;
  cr_assert_eq(sqlite3_open(w.db, &db), SQLITE_OK);
  cr_assert_eq(sqlite3_exec(db, "UPDATE players SET games = 1", NULL, NULL, NULL), SQLITE_OK);
  sqlite3_close(db);

  say(1, "{\"type\":\"leaderboard\"}");
  json_t *people = json_object_get(w.clients[1].last, "players");
  cr_assert_eq(json_array_size(people), 1, "the people's list holds %zu", json_array_size(people));
  cr_assert_eq(json_integer_value(json_object_get(json_array_get(people, 0), "id")), aki);
  say(1, "{\"type\":\"bot_leaderboard\"}");
  cr_assert_str_eq(last_type(1), "bot_leaderboard");
  json_t *bots = json_object_get(w.clients[1].last, "players");
  cr_assert_eq(json_array_size(bots), 1);
  cr_assert_eq(json_integer_value(json_object_get(json_array_get(bots, 0), "id")), bot);
  cr_assert(json_is_true(json_object_get(json_array_get(bots, 0), "bot_account")));
}

Test(bot_accounts, match_requests_that_make_no_match_are_refused) {
  registered_person(1, "Aki");
  char token[SRV_TOKEN_SIZE];
  const json_int_t bot = make_bot(1, "Robo", token);
  const json_int_t aki = player_id(1);
  say(1, "{\"type\":\"match_create\",\"name\":\"M\",\"bot\":%lld,\"deals\":2}", (long long)bot);
  cr_assert_str_eq(error_code(1), "match_invalid", "a match with no opponent was made");
  say(1, "{\"type\":\"match_create\",\"name\":\"M\",\"bot\":%lld,\"opponent\":%lld,\"level\":\"rules\",\"deals\":2}",
      (long long)bot, (long long)bot);
  cr_assert_str_eq(error_code(1), "match_invalid", "a match with two opponents was made");
  say(1, "{\"type\":\"match_create\",\"name\":\"M\",\"bot\":%lld,\"opponent\":%lld,\"deals\":2}", (long long)bot,
      (long long)bot);
  cr_assert_str_eq(error_code(1), "match_invalid", "a bot was matched against itself");
  say(1, "{\"type\":\"match_create\",\"name\":\"M\",\"bot\":%lld,\"level\":\"rules\",\"deals\":2}", (long long)aki);
  cr_assert_str_eq(error_code(1), "match_invalid", "a person was entered as a bot");
  say(1, "{\"type\":\"match_create\",\"name\":\"M\",\"bot\":%lld,\"level\":\"rules\",\"deals\":0}", (long long)bot);
  cr_assert_str_eq(error_code(1), "bad_request");
  say(1, "{\"type\":\"match_create\",\"name\":\"M\",\"bot\":%lld,\"level\":\"rules\",\"deals\":101}", (long long)bot);
  cr_assert_str_eq(error_code(1), "bad_request");
  say(1, "{\"type\":\"match_create\",\"name\":\"M\",\"bot\":%lld,\"level\":\"grandmaster\",\"deals\":1}", (long long)bot);
  cr_assert_str_eq(error_code(1), "bad_request");
  hello_with(2, token);
  say(2, "{\"type\":\"match_create\",\"name\":\"M\",\"bot\":%lld,\"level\":\"rules\",\"deals\":1}", (long long)bot);
  cr_assert_str_eq(error_code(2), "not_registered", "a bot made a match");
  say(1, "{\"type\":\"match\",\"match\":99}");
  cr_assert_str_eq(error_code(1), "match_unknown");
}

/* A bot against a level, 3 deals: the bot's connection is seated at each game, answers with
 * the first legal move, and the summary ends with every game and a result that follows from
 * their points. */
Test(bot_accounts, a_match_against_a_level_is_played_to_its_end) {
  registered_person(1, "Aki");
  char token[SRV_TOKEN_SIZE];
  const json_int_t bot = make_bot(1, "Robo", token);
  hello_with(2, token);
  say(1, "{\"type\":\"match_create\",\"name\":\"Robo v rules\",\"bot\":%lld,\"level\":\"rules\",\"deals\":3}",
      (long long)bot);
  cr_assert_str_eq(last_type(1), "match_created", "%s", error_code(1));
  const json_int_t match = json_integer_value(json_object_get(w.clients[1].last, "match"));
  json_t *summary = NULL;
  char answered[1024] = "";
  json_int_t left = 0; /* the last table the bot left */
  for (int step = 0; step < 5000; step++) {
    w.now += 100;
    srv_hub_tick(w.hub);
    run_jobs();
    json_t *state = w.clients[2].last_state;
    json_t *game = json_object_get(state, "game");
    const char *history = json_string_value(json_object_get(game, "history"));
    if (json_array_size(json_object_get(game, "legal")) && history && strcmp(history, answered) != 0) {
      snprintf(answered, sizeof answered, "%s", history);
      say(2, "{\"type\":\"move\",\"table\":%lld,\"move\":\"%s\"}", (long long)json_integer_value(json_object_get(state, "table")),
          json_string_value(json_array_get(json_object_get(game, "legal"), 0)));
      run_jobs();
      state = w.clients[2].last_state; /* the move's state replaced (and freed) the one read above */
    }
    const char *status = json_string_value(json_object_get(state, "status"));
    if (status && strcmp(status, "over") == 0 && json_integer_value(json_object_get(state, "table")) != left) {
      left = json_integer_value(json_object_get(state, "table"));
      say(2, "{\"type\":\"leave\"}");
    }
    if (step % 10) continue; /* once a second: the match page's requests cost as any */
    say(1, "{\"type\":\"match\",\"match\":%lld}", (long long)match);
    cr_assert_str_eq(error_code(1), "");
    summary = json_object_get(w.clients[1].match, "match");
    if (strcmp(json_string_value(json_object_get(summary, "status")), "playing") != 0) break;
  }
  cr_assert_str_eq(json_string_value(json_object_get(summary, "status")), "over", "%s", json_dumps(summary, 0));
  json_t *games = json_object_get(summary, "games");
  cr_assert_eq(json_array_size(games), 6);
  double sum = 0;
  for (size_t g = 0; g < 6; g++) {
    json_t *row = json_array_get(games, g);
    const json_int_t a = json_integer_value(json_object_get(row, "a")), b = json_integer_value(json_object_get(row, "b"));
    cr_assert((a > 0) != (b > 0), "game %zu: one scored round, %lld to %lld", g, (long long)a, (long long)b);
    cr_assert_eq(json_is_true(json_object_get(row, "swapped")), g % 2 == 1);
    sum += (double)(a - b) / 2;
  }
  json_t *result = json_object_get(summary, "result");
  cr_assert_eq(json_integer_value(json_object_get(result, "deals")), 3);
  cr_assert_float_eq(json_real_value(json_object_get(result, "mean")), sum / 3, 1e-9);
  cr_assert(json_is_real(json_object_get(result, "stderr")));
}

/* A person challenges a bot connected here: the bot is told the table and a seat, may decline
 * (the challenger is told) or sit there, although the table is private; a bot away or busy
 * cannot be challenged, and nobody else can decline for it or sit at the table. */
Test(bot_accounts, a_bot_is_challenged_and_declines_or_accepts) {
  registered_person(1, "Aki");
  char token[SRV_TOKEN_SIZE];
  const json_int_t bot = make_bot(1, "Robo", token);
  say(1, "{\"type\":\"challenge\",\"bot\":%lld}", (long long)bot);
  cr_assert_str_eq(error_code(1), "bot_busy", "a bot not connected was challenged");
  hello_with(2, token);

  say(1, "{\"type\":\"challenge\",\"bot\":%lld,\"rules\":\"players=2\"}", (long long)bot);
  cr_assert_str_eq(error_code(1), "", "%s", error_code(1));
  cr_assert_str_eq(last_type(2), "challenge");
  json_t *challenge = json_incref(w.clients[2].last);
  const json_int_t first = json_integer_value(json_object_get(challenge, "table"));
  cr_assert_str_eq(json_string_value(json_object_get(challenge, "from")), "Aki");
  cr_assert_eq(json_integer_value(json_object_get(challenge, "seat")), 1);
  json_decref(challenge);
  cr_assert_eq(json_integer_value(json_object_get(w.clients[1].last_state, "table")), first, "the challenger does not sit there");

  srv_hub_connect(w.hub, 3);
  say(3, "{\"type\":\"hello\",\"name\":\"Stranger\"}");
  say(3, "{\"type\":\"challenge_decline\",\"table\":%lld}", (long long)first);
  cr_assert_str_eq(error_code(3), "not_challenged", "a stranger declined for the bot");
  say(3, "{\"type\":\"sit\",\"table\":%lld,\"seat\":1}", (long long)first);
  cr_assert_str_eq(error_code(3), "table_private", "a stranger sat at a challenge");

  say(2, "{\"type\":\"challenge_decline\",\"table\":%lld}", (long long)first);
  cr_assert_str_eq(last_type(1), "challenge_declined");
  cr_assert_str_eq(json_string_value(json_object_get(w.clients[1].last, "bot")), "Robo");
  say(2, "{\"type\":\"challenge_decline\",\"table\":%lld}", (long long)first);
  cr_assert_str_eq(error_code(2), "not_challenged", "a challenge was declined twice");

  say(1, "{\"type\":\"leave\"}");
  say(1, "{\"type\":\"challenge\",\"bot\":%lld,\"rules\":\"players=2\"}", (long long)bot);
  const json_int_t second = json_integer_value(json_object_get(w.clients[2].last, "table"));
  cr_assert_neq(second, first);
  say(2, "{\"type\":\"sit\",\"table\":%lld,\"seat\":1}", (long long)second);
  cr_assert_str_eq(error_code(2), "", "the challenged bot could not sit: %s", error_code(2));
  json_t *seat1 = json_array_get(json_object_get(w.clients[1].last_state, "seats"), 1);
  cr_assert(json_is_true(json_object_get(seat1, "bot_account")), "the bot does not sit at the challenge");
  registered_person(4, "Ben");
  say(4, "{\"type\":\"challenge\",\"bot\":%lld}", (long long)bot);
  cr_assert_str_eq(error_code(4), "bot_busy", "a bot at a table was challenged");
}
