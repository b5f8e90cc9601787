/* Players (docs/SERVER.md "Players"): guests known by a token and saved only once they act,
 * names claimed with a password and logins from other devices, names kept for computers, the
 * leaderboard and each player's rating history. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_limits.h"
#include "hub_map.h"
#include "hub_players.h"
#include "hub_requests.h"
#include "hub_send.h"
#include "names.h"
#include "ratings.h"
#include "secret.h"

/* Logins: this many tries at one account's password are free; then each further try waits twice
 * as long as the last, from 1 s up to LOGIN_WAIT_MAX_MS. A try counts before its hash is
 * checked (a right password undoes it), so guesses sent at once from many connections take
 * their turns like any others. A quiet account is forgiven after LOGIN_FORGET_MS. Each try
 * also counts against the client's address (throttle.h), whatever the name. */
#define LOGIN_FREE_FAILURES 3
#define LOGIN_WAIT_MAX_MS 300000
#define LOGIN_FORGET_MS 900000

/* What a login for a name nobody has is checked against, so that it costs the same argon2id work
 * as a real one and its answer takes as long (a password no one can have: it hashes "no account
 * has this password", and such a login fails whatever the check says). */
static const char dummy_hash[] =
    "$argon2id$v=19$m=65536,t=2,p=1$PLLwExoAd5kJ3Zj9rrY7Bw$kpaylhG9O6G4YRolCD4RhyPRsWjTA26U7BQOg+OL9TQ";

#define HISTORY_ROWS 20
#define LEADERBOARD_ROWS 50

void hub_trim_name(const char *name, char out[SRV_NAME_SIZE]) {
  while (*name == ' ') name++;
  size_t n = strlen(name);
  while (n > 0 && name[n - 1] == ' ') n--;
  if (n >= SRV_NAME_SIZE) n = SRV_NAME_SIZE - 1;
  memcpy(out, name, n);
  out[n] = '\0';
}

/* The key an account was stored under before names had keys (names.h): trimmed, with ASCII
 * letters in lowercase. */
static void legacy_account_of(const char *name, char out[SRV_NAME_SIZE]) {
  hub_trim_name(name, out);
  for (char *p = out; *p; p++)
    if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
}

/* The account a name claims (its key, names.h, in key), and its player and password hash when
 * someone holds it. An account kept under its old key (claimed before keys, and whose name's
 * key another account took first: hub_accounts_rekey) is found by that key first, so that its
 * owner still logs in; every other account by the key. Returns 0, or -1 after a store error, or
 * -2 when the name has no key (too long once normalized). */
static int find_account(srv_hub *h, const char *name, char key[SRV_NAME_KEY_SIZE], srv_player *owner,
                        char hash[SRV_PASSWORD_HASH_SIZE], bool *found) {
  *found = false;
  if (srv_name_key(name, key) != 0) {
    key[0] = '\0';
    return -2;
  }
  char legacy[SRV_NAME_SIZE];
  legacy_account_of(name, legacy);
  if (strcmp(legacy, key) != 0 && srv_store_account(h->store, legacy, owner, hash, found) != 0) return -1;
  if (!*found && srv_store_account(h->store, key, owner, hash, found) != 0) return -1;
  return 0;
}

/* An account whose stored key is not its name's key (claimed before keys, or keyed by an
 * older ICU whose confusables differ). */
typedef struct stale_account {
  int64_t id;
  char name[SRV_NAME_SIZE], key[SRV_NAME_KEY_SIZE], hash[SRV_PASSWORD_HASH_SIZE];
} stale_account;

typedef struct stale_list {
  stale_account *rows;
  size_t n, cap;
  bool out_of_memory;
} stale_list;

static void note_stale(void *ctx, int64_t id, const char *name, const char *account, const char *password_hash) {
  stale_list *l = ctx;
  stale_account row = {.id = id};
  if (srv_name_key(name, row.key) != 0 || strcmp(row.key, account) == 0) return;
  if (l->n == l->cap) {
    const size_t cap = l->cap ? 2 * l->cap : 16;
    stale_account *grown = realloc(l->rows, cap * sizeof *grown);
    if (!grown) {
      l->out_of_memory = true;
      return;
    }
    l->rows = grown;
    l->cap = cap;
  }
  snprintf(row.name, sizeof row.name, "%s", name);
  snprintf(row.hash, sizeof row.hash, "%s", password_hash);
  l->rows[l->n++] = row;
}

void hub_accounts_rekey(srv_hub *h) {
  stale_list l = {0};
  if (srv_store_accounts(h->store, note_stale, &l) != 0)
    hub_log(h, "accounts not rekeyed: %s", srv_store_error(h->store));
  if (l.out_of_memory) hub_log(h, "accounts not all rekeyed: out of memory");
  int rekeyed = 0;
  for (size_t i = 0; i < l.n; i++) {
    if (srv_store_player_register(h->store, l.rows[i].id, l.rows[i].name, l.rows[i].key, l.rows[i].hash) == 0)
      rekeyed++;
    else /* another account has that key already: this one keeps its old key, which find_account still tries */
      hub_log(h, "account of player %lld (\"%s\") kept its old key: %s", (long long)l.rows[i].id, l.rows[i].name,
              srv_store_error(h->store));
  }
  if (rekeyed) hub_log(h, "%d accounts stored under their names' keys", rekeyed);
  free(l.rows);
}

bool hub_name_allowed(srv_hub *h, hub_client *c, const char *request, const char *name, int64_t self) {
  const char *why = srv_name_reserved(name);
  if (why) {
    hub_send_error(h, c->id, request, SRV_ERR_NAME_RESERVED, "the name \"%s\" is %s: choose another", name, why);
    return false;
  }
  char account[SRV_NAME_KEY_SIZE], password[SRV_PASSWORD_HASH_SIZE];
  srv_player owner;
  bool found = false;
  const int looked = find_account(h, name, account, &owner, password, &found);
  if (looked == -2) {
    hub_send_error(h, c->id, request, SRV_ERR_BAD_REQUEST,
                   "the name \"%s\" is too long once its characters are written plainly: choose a shorter one", name);
    return false;
  }
  if (looked != 0) {
    hub_send_error_retry(h, c->id, request, SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "%s",
                         srv_store_error(h->store));
    return false;
  }
  if (found && owner.id != self) {
    hub_send_error(h, c->id, request, SRV_ERR_NAME_TAKEN,
                   "the name \"%s\" is registered: log in with its password, or choose another", name);
    return false;
  }
  return true;
}

json_t *hub_player_json(const srv_player *p) {
  json_t *o = json_pack("{s:I, s:s, s:i, s:i, s:i, s:b}", "id", (json_int_t)p->id, "name", p->name, "rating",
                        (int)(p->rating + 0.5), "deviation", (int)(p->deviation + 0.5), "games", p->games, "registered",
                        p->registered);
  if (o && p->bot[0]) json_object_set_new(o, "bot", json_string(p->bot));
  if (o && p->bot_account) json_object_set_new(o, "bot_account", json_true());
  return o;
}

/* What a client offers when it creates a table or seats a computer, from the library's own
 * tables so that the browser keeps no copy (docs/SERVER.md): the computer levels, weakest
 * first; the rule options of docs/RULES.md 12 with their values or range; and each rule set
 * as the full option text it stands for. */
static json_t *choices_json(void) {
  json_t *levels = json_array();
  for (const char *const *level = goita_player_levels(); *level; level++) json_array_append_new(levels, json_string(*level));
  json_t *options = json_array();
  size_t count = 0;
  const goita_rule_option *o = goita_rules_options(&count);
  for (size_t i = 0; i < count; i++) {
    json_t *row = json_pack("{s:s, s:s, s:s, s:s}", "name", o[i].name, "default", o[i].default_value, "section",
                            o[i].section, "help", o[i].help);
    if (o[i].values) {
      json_t *values = json_array();
      for (int v = 0; o[i].values[v]; v++) json_array_append_new(values, json_string(o[i].values[v]));
      json_object_set_new(row, "values", values);
    }
    if (o[i].kind != GOITA_RULE_OPTION_CHOICE) {
      json_object_set_new(row, "min", json_integer(o[i].min));
      json_object_set_new(row, "max", json_integer(o[i].max));
      json_object_set_new(row, "scaled", json_boolean(o[i].scaled));
      if (o[i].kind == GOITA_RULE_OPTION_CHOICE_OR_POINTS) json_object_set_new(row, "points", json_true());
    }
    json_array_append_new(options, row);
  }
  json_t *presets = json_object();
  for (const char *const *name = goita_rules_preset_names(); *name; name++) {
    char text[GOITA_RULES_TEXT_SIZE] = "", preset[64];
    goita_rules r;
    snprintf(preset, sizeof preset, "preset=%s", *name);
    if (goita_rules_parse(&r, preset, NULL) == GOITA_OK && goita_rules_format(&r, text, sizeof text) > 0)
      json_object_set_new(presets, *name, json_string(text));
  }
  return json_pack("{s:o, s:o, s:o}", "levels", levels, "rule_options", options, "presets", presets);
}

static void send_welcome(srv_hub *h, hub_client *c, const srv_player *p, const char *token) {
  hub_send_json(h, c->id, json_pack("{s:s, s:o, s:s, s:o}", "type", "welcome", "player", hub_player_json(p), "player_token",
                                    token, "choices", choices_json()));
}

void hub_send_player(srv_hub *h, uint64_t client, int64_t player) {
  srv_player p;
  if (srv_store_player_get(h->store, player, &p) != 0) return;
  hub_send_json(h, client, json_pack("{s:s, s:o}", "type", "player", "player", hub_player_json(&p)));
}

bool hub_client_player(srv_hub *h, hub_client *c, const char *request) {
  if (c->player) return true;
  if (!c->guest[0]) {
    hub_send_error(h, c->id, request, SRV_ERR_HELLO_FIRST, "say hello first");
    return false;
  }
  srv_player p;
  bool found = false; /* another connection with the same token may have made the row */
  if (srv_store_player_by_token(h->store, c->guest, &p, &found) != 0 ||
      (!found && srv_store_player_create(h->store, c->name, c->guest, &p) != 0)) {
    hub_send_error_retry(h, c->id, request, SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "%s",
                         srv_store_error(h->store));
    return false;
  }
  c->player = p.id;
  hub_rate_adopt(h, c->guest, p.id);
  c->guest[0] = '\0';
  hub_send_player(h, c->id, p.id);
  return true;
}

void hub_bot_seat_name(hub_seat *s, int seat) {
  /* A seat number as one byte (seats are 0-3) lets the compiler see that the name always fits,
   * which an unoptimised build's -Wformat-truncation cannot tell from an int. */
  const unsigned char number = (unsigned char)(seat + 1);
  snprintf(s->name, sizeof s->name, "Computer %u · %s", (unsigned)number, s->bot);
}

/* A name for a guest who gave none, so that two of them are told apart in a game and in chat:
 * "Player 1234" with four random digits, neither a registered name nor one of a client here
 * (tried a few times; then the last draw stands, a guest's name being only shown). */
static void guest_name(srv_hub *h, char out[SRV_NAME_SIZE]) {
  for (int attempt = 0; attempt < 4; attempt++) {
    uint16_t r = 0;
    h->io.random(h->io.ctx, &r, sizeof r);
    snprintf(out, SRV_NAME_SIZE, "Player %04u", (unsigned)(r % 10000));
    char account[SRV_NAME_KEY_SIZE], hash[SRV_PASSWORD_HASH_SIZE];
    srv_player owner;
    bool found = false;
    bool taken = false;
    for (int i = 0; i < h->nclients && !taken; i++) taken = strcmp(h->clients[i].name, out) == 0;
    if (taken) continue;
    if (find_account(h, out, account, &owner, hash, &found) != 0 || !found) return;
  }
}

/* A guest: known by its token, saved only when it does something that needs a row. */
static void hello_guest(srv_hub *h, hub_client *c, const char *name, const char *token) {
  if (name[0] && !hub_name_allowed(h, c, "hello", name, 0)) return;
  c->player = 0;
  c->bot_account = false;
  srv_token_hash(token, c->guest);
  if (name[0])
    snprintf(c->name, sizeof c->name, "%s", name);
  else
    guest_name(h, c->name);
  const srv_player guest = {.name = "", .rating = SRV_RATING_START, .deviation = SRV_DEVIATION_START};
  srv_player p = guest;
  snprintf(p.name, sizeof p.name, "%s", c->name);
  send_welcome(h, c, &p, token);
}

/* A hello with a player token: the player comes back, renamed if it asks (a claimed name
 * stays). A token with no row is a guest's that has not played yet (rows are made lazily):
 * it stays that guest, under the same token. */
static void hello_again(srv_hub *h, hub_client *c, const srv_request *r, const char *name) {
  char hash[SRV_TOKEN_HASH_SIZE];
  srv_token_hash(r->token, hash);
  srv_player p;
  bool found = false;
  if (srv_store_player_by_token(h->store, hash, &p, &found) != 0) {
    hub_send_error_retry(h, c->id, "hello", SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "%s",
                         srv_store_error(h->store));
    return;
  }
  if (!found) {
    hello_guest(h, c, name, r->token);
    return;
  }
  if (name[0] && !p.registered && strcmp(name, p.name) != 0) {
    if (!hub_name_allowed(h, c, "hello", name, p.id)) return;
    if (srv_store_player_rename(h->store, p.id, name) != 0) {
      hub_send_error_retry(h, c->id, "hello", SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "%s",
                           srv_store_error(h->store));
      return;
    }
    snprintf(p.name, sizeof p.name, "%s", name);
  }
  c->player = p.id;
  c->guest[0] = '\0';
  c->bot_account = p.bot_account;
  snprintf(c->name, sizeof c->name, "%s", p.name);
  send_welcome(h, c, &p, r->token);
}

void hub_do_hello(srv_hub *h, hub_client *c, const srv_request *r) {
  char name[SRV_NAME_SIZE];
  hub_trim_name(r->name, name);
  if (r->token[0]) {
    hello_again(h, c, r, name);
    return;
  }
  /* A new guest: a token now, a row only when it does something that needs one. */
  char token[SRV_TOKEN_SIZE];
  hub_new_token(h, token);
  hello_guest(h, c, name, token);
}

/* Sends a password job for the client, whose pending fields are set; the job's answer
 * finishes the request (srv_hub_password_done). The io call comes last: a test's io may answer
 * from inside it. */
static void send_password_job(srv_hub *h, hub_client *c, int kind, const char *password, const char *hash) {
  srv_password_job job;
  memset(&job, 0, sizeof job);
  job.client = c->id;
  job.serial = ++h->password_serial;
  job.kind = kind;
  snprintf(job.password, sizeof job.password, "%s", password);
  if (hash) snprintf(job.hash, sizeof job.hash, "%s", hash);
  c->password_pending = kind;
  c->password_serial = job.serial;
  h->io.password(h->io.ctx, &job);
  srv_secret_wipe(job.password, sizeof job.password);
}

/* Refuses a register or login while the client's last one waits for its password job. */
static bool password_busy(srv_hub *h, hub_client *c, const char *request) {
  if (!c->password_pending) return false;
  hub_send_error(h, c->id, request, SRV_ERR_REQUEST_PENDING,
                 "your last register or login is still being checked: wait for its answer");
  return true;
}

void hub_do_register(srv_hub *h, hub_client *c, const srv_request *r) {
  if (password_busy(h, c, "register") || !hub_client_player(h, c, "register")) return;
  srv_player p;
  if (srv_store_player_get(h->store, c->player, &p) != 0) {
    hub_send_error_retry(h, c->id, "register", SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "%s",
                         srv_store_error(h->store));
    return;
  }
  if (p.registered) {
    hub_send_error(h, c->id, "register", SRV_ERR_ALREADY_REGISTERED, "you have claimed the name \"%s\" already",
                   p.name);
    return;
  }
  char name[SRV_NAME_SIZE], account[SRV_NAME_KEY_SIZE];
  hub_trim_name(r->name, name);
  if (!hub_name_allowed(h, c, "register", name, p.id) || srv_name_key(name, account) != 0) return;
  if (srv_password_common(r->password)) {
    hub_send_error(h, c->id, "register", SRV_ERR_PASSWORD_COMMON,
                   "this password is one of the most common ones, which are tried first: choose another");
    return;
  }
  c->pending_player = p.id;
  snprintf(c->pending_name, sizeof c->pending_name, "%s", name);
  snprintf(c->pending_account, sizeof c->pending_account, "%s", account);
  send_password_job(h, c, SRV_PASSWORD_HASH, r->password, NULL);
}

/* Finishes a register once its password is hashed: the name is checked again, since another
 * player may have claimed it meanwhile. */
static void register_hashed(srv_hub *h, hub_client *c, const srv_password_answer *a) {
  if (!a->ok) {
    hub_send_error_retry(h, c->id, "register", SRV_ERR_SERVER_BUSY, HUB_RETRY_MEMORY_MS, "out of memory");
    return;
  }
  if (!hub_name_allowed(h, c, "register", c->pending_name, c->pending_player)) return;
  if (srv_store_player_register(h->store, c->pending_player, c->pending_name, c->pending_account, a->hash) != 0) {
    hub_send_error_retry(h, c->id, "register", SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "%s",
                         srv_store_error(h->store));
    return;
  }
  snprintf(c->name, sizeof c->name, "%s", c->pending_name);
  hub_send_player(h, c->id, c->pending_player);
}

/* Whether an account's tries are forgotten: quiet for LOGIN_FORGET_MS and not waiting. */
static bool guard_forgotten(const hub_login_guard *g, int64_t now) {
  return now - g->last_ms > LOGIN_FORGET_MS && now >= g->until_ms;
}

/* The guard of a registered player's password, made when missing; NULL when out of memory. */
static hub_login_guard *login_guard(srv_hub *h, int64_t player, bool create) {
  uint64_t ptr;
  if (hub_map_get(&h->login_index, (uint64_t)player, &ptr)) return (hub_login_guard *)(uintptr_t)ptr;
  if (!create) return NULL;
  hub_login_guard *g = calloc(1, sizeof *g);
  if (!g || hub_map_put(&h->login_index, (uint64_t)player, (uint64_t)(uintptr_t)g) != 0) {
    free(g);
    return NULL;
  }
  return g;
}

void hub_login_guards_prune(srv_hub *h, bool all) {
  const int64_t now = h->io.now_ms(h->io.ctx);
  uint64_t *quiet = malloc(h->login_index.count * sizeof *quiet + 1);
  size_t n = 0;
  for (size_t i = 0; i < h->login_index.cap && (quiet || all); i++) {
    if (!h->login_index.entries[i].used) continue;
    hub_login_guard *g = (hub_login_guard *)(uintptr_t)h->login_index.entries[i].value;
    if (!all && !guard_forgotten(g, now)) continue;
    if (quiet) quiet[n++] = h->login_index.entries[i].key;
    free(g);
  }
  if (all) {
    hub_map_free(&h->login_index);
  } else {
    for (size_t i = 0; i < n; i++) hub_map_del(&h->login_index, quiet[i]);
  }
  free(quiet);
}

/* Counts a try; from the free ones on, the next try must wait. */
static void login_counted(hub_login_guard *g, int64_t now) {
  if (guard_forgotten(g, now)) memset(g, 0, sizeof *g);
  g->failures++;
  g->last_ms = now;
  const int over = g->failures - LOGIN_FREE_FAILURES;
  if (over >= 0) {
    int64_t wait = INT64_C(1000) << (over < 9 ? over : 9);
    g->until_ms = now + (wait < LOGIN_WAIT_MAX_MS ? wait : LOGIN_WAIT_MAX_MS);
  }
}

int hub_login_throttle_new(srv_hub *h) {
  srv_throttle_rules rules;
  srv_throttle_rules_default(&rules);
  if (h->options.login_addresses > 0) rules.capacity = (size_t)h->options.login_addresses;
  return srv_throttle_new(&h->address_tries, &rules);
}

void srv_hub_client_address(srv_hub *h, uint64_t client, const char *address) {
  hub_client *c = hub_client_get(h, client);
  if (c) c->has_address = srv_address_parse(address, &c->address);
}

/* Counts a login's try against the client's address, before its hash; false after refusing
 * the login when the address must wait. */
static bool address_counted(srv_hub *h, hub_client *c, int64_t now) {
  if (!c->has_address) return true;
  const int64_t wait = srv_throttle_try(h->address_tries, &c->address, now);
  if (wait == 0) return true;
  hub_send_error_retry(h, c->id, "login", SRV_ERR_LOGIN_THROTTLED, wait,
                       "too many wrong passwords from your address: try again in %lld s", (long long)((wait + 999) / 1000));
  return false;
}

void hub_do_login(srv_hub *h, hub_client *c, const srv_request *r) {
  if (password_busy(h, c, "login")) return;
  char account[SRV_NAME_KEY_SIZE], hash[SRV_PASSWORD_HASH_SIZE] = "";
  const int64_t now = h->io.now_ms(h->io.ctx);
  srv_player p;
  bool found = false;
  if (find_account(h, r->name, account, &p, hash, &found) == -1) { /* a name with no key: no account has it */
    hub_send_error_retry(h, c->id, "login", SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "%s",
                         srv_store_error(h->store));
    return;
  }
  snprintf(c->pending_account, sizeof c->pending_account, "%s", account);
  if (!found) { /* the same work and answer as a wrong password, so a name is not told by timing */
    if (!address_counted(h, c, now)) return;
    c->pending_player = 0;
    send_password_job(h, c, SRV_PASSWORD_CHECK, r->password, dummy_hash);
    return;
  }
  hub_login_guard *g = login_guard(h, p.id, true);
  if (!g) {
    hub_send_error_retry(h, c->id, "login", SRV_ERR_SERVER_BUSY, HUB_RETRY_MEMORY_MS, "out of memory");
    return;
  }
  if (now < g->until_ms) {
    hub_send_error_retry(h, c->id, "login", SRV_ERR_LOGIN_THROTTLED, g->until_ms - now,
                         "too many wrong passwords for \"%s\": try again in %lld s", r->name,
                         (long long)((g->until_ms - now + 999) / 1000));
    return;
  }
  if (!address_counted(h, c, now)) return;
  login_counted(g, now); /* before the hash: a guess waiting for its check counts already */
  c->pending_player = p.id;
  send_password_job(h, c, SRV_PASSWORD_CHECK, r->password, hash);
}

/* Finishes a login once its password is checked: a wrong one stays counted against the account;
 * a right one forgives its tries and gives this device a token of its own (the others' keep
 * working). */
static void login_checked(srv_hub *h, hub_client *c, const srv_password_answer *a) {
  if (!a->ok || !c->pending_player) {
    hub_send_error(h, c->id, "login", SRV_ERR_LOGIN_FAILED, "wrong name or password");
    return;
  }
  hub_login_guard *g = login_guard(h, c->pending_player, false);
  if (g) memset(g, 0, sizeof *g);
  if (c->has_address) srv_throttle_undo(h->address_tries, &c->address, h->io.now_ms(h->io.ctx)); /* not a guess */
  srv_player p;
  if (srv_store_player_get(h->store, c->pending_player, &p) != 0) {
    hub_send_error_retry(h, c->id, "login", SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "%s",
                         srv_store_error(h->store));
    return;
  }
  char token[SRV_TOKEN_SIZE], token_hash[SRV_TOKEN_HASH_SIZE];
  hub_new_token(h, token);
  srv_token_hash(token, token_hash);
  if (srv_store_player_token_add(h->store, p.id, token_hash) != 0) {
    hub_send_error_retry(h, c->id, "login", SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "%s",
                         srv_store_error(h->store));
    return;
  }
  c->player = p.id;
  c->guest[0] = '\0';
  c->bot_account = false;
  snprintf(c->name, sizeof c->name, "%s", p.name);
  send_welcome(h, c, &p, token);
}

void srv_hub_password_done(srv_hub *h, const srv_password_answer *a) {
  hub_client *c = hub_client_get(h, a->client);
  /* gone, or answered for a request the client no longer waits for */
  if (!c || !c->password_pending || c->password_serial != a->serial || c->password_pending != a->kind) return;
  c->password_pending = 0;
  if (a->kind == SRV_PASSWORD_HASH)
    register_hashed(h, c, a);
  else
    login_checked(h, c, a);
}

void hub_send_leaderboard(srv_hub *h, hub_client *c, const char *type,
                          int (*read)(srv_store *store, srv_player *rows, int max, int *count)) {
  srv_player rows[LEADERBOARD_ROWS];
  int n = 0;
  if (read(h->store, rows, LEADERBOARD_ROWS, &n) != 0) {
    hub_send_error_retry(h, c->id, type, SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "%s", srv_store_error(h->store));
    return;
  }
  json_t *list = json_array();
  for (int i = 0; i < n; i++) json_array_append_new(list, hub_player_json(&rows[i]));
  hub_send_json(h, c->id, json_pack("{s:s, s:o}", "type", type, "players", list));
}

void hub_do_leaderboard(srv_hub *h, hub_client *c, const srv_request *r) {
  (void)r;
  hub_send_leaderboard(h, c, "leaderboard", srv_store_leaderboard);
}

void hub_send_history(srv_hub *h, hub_client *c, const srv_request *r, const char *type,
                      int (*read)(srv_store *store, int64_t player, srv_rating_row *rows, int max, int *count)) {
  srv_player p;
  srv_rating_row rows[HISTORY_ROWS];
  int n = 0;
  if (srv_store_player_get(h->store, r->player, &p) != 0) {
    hub_send_error(h, c->id, type, SRV_ERR_PLAYER_UNKNOWN, "no player %lld", (long long)r->player);
    return;
  }
  if (read(h->store, r->player, rows, HISTORY_ROWS, &n) != 0) {
    hub_send_error_retry(h, c->id, type, SRV_ERR_STORAGE_FAILED, HUB_RETRY_STORE_MS, "%s",
                         srv_store_error(h->store));
    return;
  }
  json_t *list = json_array();
  for (int i = 0; i < n; i++)
    json_array_append_new(list, json_pack("{s:I, s:s, s:f, s:f, s:f, s:f}", "game", (json_int_t)rows[i].game, "time",
                                          rows[i].time, "rating_before", rows[i].rating_before, "rating_after",
                                          rows[i].rating_after, "deviation_before", rows[i].deviation_before,
                                          "deviation_after", rows[i].deviation_after));
  hub_send_json(h, c->id, json_pack("{s:s, s:o, s:o}", "type", type, "player", hub_player_json(&p), "games", list));
}

void hub_do_history(srv_hub *h, hub_client *c, const srv_request *r) {
  hub_send_history(h, c, r, "history", srv_store_rating_history);
}
