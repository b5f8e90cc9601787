/* Accounts that hold up against a hostile crowd (docs/SERVER.md "Claimed names"): wrong
 * passwords counted per client address in a table a crowd of addresses cannot empty, and the
 * hub's logins counted by address before their hash; the most common passwords refused. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "hub_harness.h"
#include "names.h"
#include "secret.h"
#include "throttle.h"

/* ---- the throttle alone, on a clock of its own ---- */

static srv_address address_of(const char *text) {
  srv_address a;
  cr_assert(srv_address_parse(text, &a), "could not read the address %s", text);
  return a;
}

/* The n-th address of a crowd: 10.x.y.z, all different. */
static srv_address crowd_member(int n) {
  char text[32];
  snprintf(text, sizeof text, "10.%d.%d.%d", (n >> 16) & 255, (n >> 8) & 255, n & 255);
  return address_of(text);
}

Test(throttle, addresses_are_read_and_ipv6_counted_by_its_64) {
  srv_address a = address_of("203.0.113.7"), b = address_of(" ::ffff:203.0.113.7 ");
  cr_assert(memcmp(&a, &b, sizeof a) == 0, "an IPv4 address and its IPv6-mapped form are one address");
  srv_address c = address_of("2001:db8:1:2::1"), d = address_of("2001:db8:1:2:ffff:eeee:dddd:cccc");
  cr_assert(memcmp(&c, &d, sizeof c) == 0, "two addresses of one /64 are one");
  srv_address e = address_of("2001:db8:1:3::1");
  cr_assert(memcmp(&c, &e, sizeof c) != 0, "another /64 is another address");
  srv_address x;
  cr_assert_not(srv_address_parse("", &x));
  cr_assert_not(srv_address_parse("not an address", &x));
  cr_assert_not(srv_address_parse("1.2.3.4.5", &x));
}

Test(throttle, free_tries_then_doubling_waits_then_forgiveness) {
  srv_throttle_rules rules;
  srv_throttle_rules_default(&rules);
  srv_throttle *t;
  cr_assert_eq(srv_throttle_new(&t, &rules), 0);
  const srv_address a = address_of("198.51.100.1");
  int64_t now = 1000000;
  for (int i = 0; i < rules.free_tries; i++) cr_assert_eq(srv_throttle_try(t, &a, now), 0, "try %d refused", i + 1);
  cr_assert_eq(srv_throttle_try(t, &a, now), 1000, "the first wait is 1 s");
  now += 1000;
  cr_assert_eq(srv_throttle_try(t, &a, now), 0);
  cr_assert_eq(srv_throttle_try(t, &a, now), 2000, "then twice as long");
  cr_assert_eq(srv_throttle_tries(t, &a, now), rules.free_tries + 1);
  srv_throttle_undo(t, &a, now); /* a right password is not a guess */
  cr_assert_eq(srv_throttle_tries(t, &a, now), rules.free_tries);
  now += (int64_t)(rules.free_tries + 1) * rules.forgive_ms;
  cr_assert_eq(srv_throttle_tries(t, &a, now), 0, "every try is forgiven in time");
  cr_assert_eq(srv_throttle_try(t, &a, now), 0);
  srv_throttle_free(t);
}

/* A crowd of fresh addresses, a hundred times the table's size, each with one wrong password,
 * does not push out an address that guessed a lot: it stays throttled and keeps its count
 * (evicting the oldest entry instead would have freed it at once). */
Test(throttle, a_crowd_of_addresses_cannot_push_out_a_guesser) {
  srv_throttle_rules rules;
  srv_throttle_rules_default(&rules);
  rules.capacity = 64;
  srv_throttle *t;
  cr_assert_eq(srv_throttle_new(&t, &rules), 0);
  const srv_address guesser = address_of("192.0.2.66");
  int64_t now = 1000000;
  while (srv_throttle_tries(t, &guesser, now) < rules.free_tries + 4) now += srv_throttle_try(t, &guesser, now); /* waits waited out */
  cr_assert_gt(srv_throttle_try(t, &guesser, now), 10000, "the guesser waits");
  const int tries = srv_throttle_tries(t, &guesser, now);
  for (int n = 0; n < 100 * (int)rules.capacity; n++) {
    const srv_address member = crowd_member(n);
    cr_assert_eq(srv_throttle_try(t, &member, now + n), 0, "a fresh address was refused");
  }
  now += 100 * (int64_t)rules.capacity;
  cr_assert_eq(srv_throttle_tries(t, &guesser, now), tries, "the crowd made the table forget the guesser");
  cr_assert_gt(srv_throttle_try(t, &guesser, now), 0, "the guesser may guess again at once");
  srv_throttle_free(t);
}

/* What it does cost to push an address out: every place held by an address with more tries
 * of its own. Only then does the table, full, give the guesser's place to a newcomer. */
Test(throttle, only_a_table_full_of_worse_guessers_pushes_one_out) {
  srv_throttle_rules rules;
  srv_throttle_rules_default(&rules);
  rules.capacity = 16;
  srv_throttle *t;
  cr_assert_eq(srv_throttle_new(&t, &rules), 0);
  const srv_address guesser = address_of("192.0.2.66");
  const int64_t now = 1000000;
  for (int i = 0; i < 5; i++) cr_assert_eq(srv_throttle_try(t, &guesser, now), 0);
  for (int n = 0; n < (int)rules.capacity - 1; n++) {
    const srv_address member = crowd_member(n);
    for (int i = 0; i < 6; i++) srv_throttle_try(t, &member, now);
  }
  cr_assert_eq(srv_throttle_tries(t, &guesser, now), 5, "the table is full, and the guesser is still in it");
  const srv_address newcomer = crowd_member(99999);
  cr_assert_eq(srv_throttle_try(t, &newcomer, now), 0);
  cr_assert_eq(srv_throttle_tries(t, &guesser, now), 0, "the guesser, with the fewest tries, made room");
  srv_throttle_free(t);
}

Test(throttle, rules_that_make_no_sense_are_refused) {
  srv_throttle_rules rules;
  srv_throttle_rules_default(&rules);
  srv_throttle *t = NULL;
  rules.capacity = 0;
  cr_assert_eq(srv_throttle_new(&t, &rules), -1);
  srv_throttle_rules_default(&rules);
  rules.forgive_ms = 0;
  cr_assert_eq(srv_throttle_new(&t, &rules), -1);
  cr_assert_null(t);
}

/* ---- the hub's logins, counted per address ---- */

static void connect_from(uint64_t id, const char *address) {
  srv_hub_connect(w.hub, id);
  if (address) srv_hub_client_address(w.hub, id, address);
  say(id, "{\"type\":\"hello\",\"name\":\"Someone %d\"}", (int)id);
  cr_assert_eq(w.clients[id].welcomes, 1, "%s", w.clients[id].last_error);
}

/* Password jobs wait until run_passwords: what counts is decided before any is done. */
static void setup(void) {
  hub_harness_setup();
  w.hold_passwords = true;
}

TestSuite(accounts, .init = setup, .fini = hub_harness_teardown);

/* One address tries names in turn, one guess each, from many connections at once (so no
 * account's own count ever stops it): its 20 free tries are sent to be checked, the rest
 * refused before any hash, while another address is not held up (issue 39: per account only). */
Test(accounts, one_address_guessing_many_names_is_throttled) {
  int refused = 0;
  for (uint64_t id = 1; id <= 30; id++) {
    connect_from(id, "203.0.113.7");
    say(id, "{\"type\":\"login\",\"name\":\"Name %d\",\"password\":\"guess one\"}", (int)id);
    refused += strstr(w.clients[id].last_error, "too many wrong passwords from your address") != NULL;
  }
  cr_assert_eq(w.npasswords, 20, "%d of 30 guesses from one address were sent to be checked", w.npasswords);
  cr_assert_eq(refused, 10, "%s", w.clients[30].last_error);
  cr_assert(strstr(w.clients[30].last_error, "try again in 1 s"), "%s", w.clients[30].last_error);
  connect_from(31, "198.51.100.9");
  say(31, "{\"type\":\"login\",\"name\":\"Name 31\",\"password\":\"guess one\"}");
  cr_assert_eq(w.npasswords, 21, "another address was held up: %s", w.clients[31].last_error);
  connect_from(32, NULL); /* no address known: counted per account only */
  say(32, "{\"type\":\"login\",\"name\":\"Name 32\",\"password\":\"guess one\"}");
  cr_assert_eq(w.npasswords, 22, "%s", w.clients[32].last_error);
  w.npasswords = 0; /* never answered: the hub drops them with their clients */
}

/* Behind one address (a household, a school) people log in rightly: a right password takes its
 * try back, so only wrong ones add up. */
Test(accounts, right_passwords_do_not_count_against_an_address) {
  connect_from(1, "203.0.113.8");
  say(1, "{\"type\":\"register\",\"name\":\"Ann\",\"password\":\"correct horse\"}");
  run_passwords();
  cr_assert_str_empty(w.clients[1].last_error);
  for (uint64_t id = 2; id <= 26; id++) { /* more than the 20 free tries */
    connect_from(id, "203.0.113.8");
    say(id, "{\"type\":\"login\",\"name\":\"Ann\",\"password\":\"correct horse\"}");
    cr_assert_eq(w.npasswords, 1, "login %d from the address refused: %s", (int)id, w.clients[id].last_error);
    run_passwords();
    cr_assert(w.clients[id].welcomes == 2 && !w.clients[id].last_error[0], "login %d: %s", (int)id, w.clients[id].last_error);
  }
}

/* ---- the most common passwords ---- */

/* Every password of 8 bytes or more in the build's list of leaked ones (Debian john-data's) is
 * refused, in any ASCII case; before (issue 39) only the 185 of the server's own short list
 * were, so "poohbear" or "butthead" could guard an account. */
Test(passwords, every_leaked_password_of_the_list_is_refused) {
  FILE *f = fopen(GOITA_PASSWORD_LIST, "r");
  cr_assert(f, "cannot read %s", GOITA_PASSWORD_LIST);
  char line[256];
  int checked = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = '\0';
    const size_t n = strlen(line);
    if (strncmp(line, "#!comment", 9) == 0 || n < 8 || n > SRV_PASSWORD_MAX) continue;
    cr_assert(srv_password_common(line), "the leaked password \"%s\" is taken", line);
    for (char *p = line; *p; p++)
      if (*p >= 'a' && *p <= 'z') *p = (char)(*p - 'a' + 'A');
    cr_assert(srv_password_common(line), "the leaked password \"%s\" in capitals is taken", line);
    checked++;
  }
  fclose(f);
  cr_assert_gt(checked, 500, "only %d passwords of 8 bytes or more in %s", checked, GOITA_PASSWORD_LIST);
  cr_assert(srv_password_common("poohbear"));
  cr_assert_not(srv_password_common("a long and rare one"));
  cr_assert_not(srv_password_common("goita at the kitchen table"));
}

/* ---- names ---- */

static void same_key(const char *a, const char *b) {
  char ka[SRV_NAME_KEY_SIZE], kb[SRV_NAME_KEY_SIZE];
  cr_assert_eq(srv_name_key(a, ka), 0, "no key for %s", a);
  cr_assert_eq(srv_name_key(b, kb), 0, "no key for %s", b);
  cr_assert_str_eq(ka, kb, "\"%s\" and \"%s\" look alike but have different keys", a, b);
}

static void other_key(const char *a, const char *b) {
  char ka[SRV_NAME_KEY_SIZE], kb[SRV_NAME_KEY_SIZE];
  cr_assert_eq(srv_name_key(a, ka), 0);
  cr_assert_eq(srv_name_key(b, kb), 0);
  cr_assert_str_neq(ka, kb, "\"%s\" and \"%s\" share a key", a, b);
}

/* Case, width, compatibility forms, spaces and lookalike letters of other scripts do not make
 * another name (UTS #39 skeletons over NFKC_Casefold); other letters and accents do. */
Test(names, lookalike_names_share_a_key) {
  same_key("Ann", "ANN");
  same_key("Ann", "  ann  ");
  same_key("Ann Lee", "Ann   Lee");
  same_key("Ann", "\xef\xbc\xa1\xef\xbd\x8e\xef\xbd\x8e"); /* fullwidth */
  same_key("Ann", "\xce\x91nn");                           /* Greek capital alpha */
  same_key("Ann", "\xd0\x90nn");                           /* Cyrillic capital A */
  same_key("Ann Lee", "Ann\xc2\xa0Lee");                   /* no-break space */
  same_key("Mia", "rnia");                                 /* m and rn */
  same_key("Kim", "KIM");                                  /* a capital I is an i, though it looks like l */
  same_key("Kim", "\xce\x9aim");                           /* Greek capital kappa */
  same_key("MIA", "\xce\x9c\xce\x99\xce\x91");              /* Greek capitals */
  same_key("office", "o\xef\xac\x83" "ce");                /* the ffi ligature */
  other_key("Ann", "Anna");
  other_key("Ann", "Ken");
  other_key("Noel", "No\xc3\xabl");                          /* an accent is seen */
  other_key("\xe5\xa4\xaa\xe9\x83\x8e", "\xe8\x8a\xb1\xe5\xad\x90"); /* 太郎, 花子 */
  char key[SRV_NAME_KEY_SIZE];
  cr_assert_eq(srv_name_key("\xff not UTF-8", key), -1);
}

static void reserved_as(const char *name, const char *why) {
  const char *got = srv_name_reserved(name);
  if (!why) {
    cr_assert_null(got, "\"%s\" is refused as %s", name, got);
    return;
  }
  cr_assert(got && strcmp(got, why) == 0, "\"%s\": %s, not %s", name, got ? got : "free", why);
}

/* The reserved names, however they are spelled (issue 39: a Greek omicron, a fullwidth C got
 * through; guests' and operators' names were free to take). */
Test(names, reserved_names_are_refused_however_spelled) {
  const char *computer = "kept for computer players", *guest = "kept for guests", *op = "kept for the server's operators";
  reserved_as("Computer 2 \xc2\xb7 expert", computer);
  reserved_as("C\xce\xbfmputer 2", computer);        /* Greek small omicron */
  reserved_as("\xef\xbc\xa3omputer 2", computer);    /* fullwidth C */
  reserved_as("\xd0\xa1\xd0\xbemputer", computer);  /* Cyrillic Es and o */
  reserved_as("COMPUTER", computer);
  reserved_as("Computer1", computer);                /* a digit after it, though 1 looks like l */
  reserved_as("Cornputer 3", computer);              /* rn for m */
  reserved_as("expert (computer)", computer);
  reserved_as("\xe3\x82\xb3\xe3\x83\xb3\xe3\x83\x94\xe3\x83\xa5\xe3\x83\xbc\xe3\x82\xbf 2", computer); /* コンピュータ 2 */
  reserved_as("Computers", NULL);
  reserved_as("Computerized Ann", NULL);
  reserved_as("Player 0427", guest);
  reserved_as("player 12", guest);
  reserved_as("Player O427", guest);                 /* a letter O for the digit */
  reserved_as("\xef\xbc\xb0layer 0427", guest);      /* fullwidth P */
  reserved_as("Player One", NULL);
  reserved_as("Playful", NULL);
  reserved_as("admin", op);
  reserved_as("ADMIN", op);
  reserved_as("\xd0\xb0" "dmin", op);                    /* Cyrillic a */
  reserved_as("Moderator", op);
  reserved_as("admiral", NULL);
  reserved_as("Ann", NULL);
}

/* An account cannot be claimed again in another case, width or script (issue 39: "ann" and
 * "Ann" were one account, but "\u0391nn" with a Greek alpha was another), and its owner logs
 * in by any spelling that looks the same. */
Test(accounts, an_account_is_one_whatever_its_spelling) {
  connect_from(1, "198.51.100.1");
  say(1, "{\"type\":\"register\",\"name\":\"Ann\",\"password\":\"correct horse\"}");
  run_passwords();
  cr_assert_str_empty(w.clients[1].last_error);
  static const char *const impostors[] = {"ANN", "\\u0391nn", "\\u0410nn", "\\uff21nn", " ann "};
  for (uint64_t i = 0; i < sizeof impostors / sizeof *impostors; i++) {
    const uint64_t id = 2 + i;
    connect_from(id, "198.51.100.2");
    say(id, "{\"type\":\"register\",\"name\":\"%s\",\"password\":\"another horse\"}", impostors[i]);
    cr_assert_eq(w.npasswords, 0, "%s was sent to be hashed", impostors[i]);
    cr_assert(strstr(w.clients[id].last_error, "is registered"), "%s: %s", impostors[i], w.clients[id].last_error);
  }
  connect_from(10, "198.51.100.3");
  say(10, "{\"type\":\"login\",\"name\":\"\\u0391NN\",\"password\":\"correct horse\"}");
  run_passwords();
  cr_assert_eq(w.clients[10].welcomes, 2, "%s", w.clients[10].last_error);
}

/* An account claimed before names had keys is stored under its name in lowercase: it is still
 * found by it, for logins and against impostors. */
Test(accounts, accounts_claimed_before_keys_are_still_found) {
  connect_from(1, "198.51.100.1");
  say(1, "{\"type\":\"register\",\"name\":\"Ann\",\"password\":\"correct horse\"}");
  run_passwords();
  srv_player p;
  char hash[SRV_PASSWORD_HASH_SIZE];
  bool found = false;
  char key[SRV_NAME_KEY_SIZE];
  cr_assert_eq(srv_name_key("Mia", key), 0);
  cr_assert_str_eq(key, "rnia");
  cr_assert_eq(srv_store_account(w.store, "ann", &p, hash, &found), 0);
  cr_assert(found);
  cr_assert_eq(srv_store_player_register(w.store, p.id, "Mia", "mia", hash), 0); /* as an older server stored it */
  connect_from(2, "198.51.100.2");
  say(2, "{\"type\":\"register\",\"name\":\"MIA\",\"password\":\"another horse\"}");
  cr_assert(strstr(w.clients[2].last_error, "is registered"), "%s", w.clients[2].last_error);
  say(2, "{\"type\":\"login\",\"name\":\"mia\",\"password\":\"correct horse\"}");
  run_passwords();
  cr_assert_eq(w.clients[2].welcomes, 2, "%s", w.clients[2].last_error);
}

/* A server started on a database of accounts claimed before names had keys stores them under
 * their keys, so that a lookalike of an old name cannot be claimed; of two old accounts whose
 * names now share a key, the first takes it and the other keeps its old one, and both owners
 * still log in with their own passwords. */
Test(accounts, old_accounts_are_rekeyed_at_start) {
  static const char *const olds[][2] = {{"Mia", "mia"}, {"Ann", "ann"}, {"\xce\x91nn", "\xce\x91nn"}}; /* Greek Alpha */
  int64_t ids[3];
  for (int i = 0; i < 3; i++) {
    srv_player p;
    char token[SRV_TOKEN_HASH_SIZE];
    snprintf(token, sizeof token, "%064d", i);
    cr_assert_eq(srv_store_player_create(w.store, olds[i][0], token, &p), 0);
    cr_assert_eq(srv_store_player_register(w.store, p.id, olds[i][0], olds[i][1],
                                           "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$aGFzaA"), 0);
    ids[i] = p.id;
  }
  close_hub(); /* a new server on that database */
  open_hub(0);
  srv_player p;
  char hash[SRV_PASSWORD_HASH_SIZE];
  bool found = false;
  cr_assert_eq(srv_store_account(w.store, "rnia", &p, hash, &found), 0);
  cr_assert(found && p.id == ids[0], "Mia's account is not under its key");
  cr_assert_eq(srv_store_account(w.store, "ann", &p, hash, &found), 0);
  cr_assert(found && p.id == ids[1]);
  cr_assert_eq(srv_store_account(w.store, "\xce\x91nn", &p, hash, &found), 0);
  cr_assert(found && p.id == ids[2], "the second Ann lost its old key");
  connect_from(1, "198.51.100.1");
  say(1, "{\"type\":\"register\",\"name\":\"M\\u0456a\",\"password\":\"another horse\"}"); /* Cyrillic i */
  cr_assert(strstr(w.clients[1].last_error, "is registered"), "%s", w.clients[1].last_error);
  say(1, "{\"type\":\"login\",\"name\":\"\\u0391nn\",\"password\":\"whatever\"}");
  cr_assert_eq(w.npasswords, 1);
  cr_assert_str_eq(w.passwords[0].hash, "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$aGFzaA");
  w.npasswords = 0;
}
