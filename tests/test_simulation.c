/* The hubs of several servers under deterministic simulation (issue 45, item 5; docs/SERVER.md
 * "The simulation"), in the way FoundationDB tests itself: three hubs, each on its own simulated
 * store (srv_store_open_simulated: PostgreSQL's fencing on one shared in-memory SQLite database),
 * a bus in memory that drops, delays and reorders, a clock per server, computer players that
 * answer late, and scripted people who create tables, sit, start, play, watch and resume with
 * their seat tokens through whichever server they are on. A scheduler draws faults from the
 * seed: a server paused past its lease, killed and started again under its name, the database
 * away for longer than the lease, the bus away, a server's clock stepped or running slow, a
 * second server started under a live name. Everything comes from the seed, so a failing seed fails again.
 *
 * Checked on every schedule (a failure names the seed and the faults' trace):
 * - every state a client was shown is the final stored record at that place, seen from its seat
 *   (so no move shown is lost or replaced), and shows no hidden piece;
 * - no stored move is ever written over or deleted, and every move was written by the server
 *   that owned the table, in the epoch it owned it in (so one server per table and epoch);
 * - at most one game is stored per table, and a closed table is never written again;
 * - every table's stored moves replay, and a finished game's reach its end;
 * - a second server under a live server's name is refused;
 * - once the faults stop and time runs on, every open table is served by exactly one live hub,
 *   the one the database names, in the database's epoch.
 *
 * SIMULATION_SEEDS=N runs seeds 1..N (default 300, about 30 s); SIMULATION_SEED=S runs seed S
 * alone and prints its trace. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hub.h"
#include "hub_state.h"
#include "protocol.h"
#include "store.h"
#include "store_impl.h"

#define HUBS 3
#define PEOPLE 7 /* client ids 1..7 on whichever hub they are on; the last one watches */
#define WATCHER PEOPLE
#define STEP_MS 100
#define RENEW_MS 1000
#define LEASE_MS (3 * RENEW_MS)
#define FAULTS_FROM_MS 2000
#define FAULTS_UNTIL_MS 36000
#define SETTLE_MS 16000 /* after the last fault: the lease, the grace after it, and renewals */
#define RULES "target=50"

static const char *const names[HUBS] = {"a", "b", "c"};

typedef struct sim_hub {
  srv_store *store;
  srv_hub *hub;
  bool alive, paused;
  int generation; /* starts so far: a computer's answer to an older process is dropped */
  int64_t offset;  /* this server's clock less the global time */
  int64_t slow_until; /* till then its clock runs at a quarter of the speed */
  int64_t wake_at, restart_at; /* when a paused one wakes, a killed one is started again */
  int64_t quiet_since; /* the end of the last fault that touched it */
  bool disconnect[PEOPLE + 1]; /* people who left it while it was paused: told when it wakes */
  bool bus_heard_up;           /* the bus's state as this hub last heard it */
  uint64_t rng;
} sim_hub;

typedef struct person {
  int hub; /* -1: not connected */
  bool welcomed;
  int64_t table; /* the table it sits at (0: none) */
  int seat;
  char token[SRV_TOKEN_SIZE];
  bool resume; /* to resume its seat (or watch again) at its next turn to act */
  int tries;   /* resumes refused in a row */
  int64_t watching;
  int64_t created, created_at; /* a table it created and waits to fill */
  json_t *state;               /* the last state of its table */
  int64_t next_ms;
} person;

typedef struct bus_msg {
  char *subject, *text;
  int64_t at;
  long serial;
} bus_msg;

typedef struct bot_job {
  int hub, generation;
  int64_t at;
  srv_think_job job;
} bot_job;

typedef struct shown {
  int64_t table;
  int seat;
  json_t *game;
} shown;

static struct {
  uint64_t seed, rng;
  int64_t now; /* the global time: the database's clock */
  char db[64];
  sqlite3 *audit; /* the checker's own connection: keeps the database alive across kills */
  sim_hub hubs[HUBS];
  person people[PEOPLE + 1];
  bus_msg *bus;
  int nbus, capbus;
  long bus_serial;
  bool bus_down, db_down;
  int64_t bus_up_at, db_up_at, db_quiet_since;
  int drop_percent, max_delay_ms;
  bot_job *jobs;
  int njobs, capjobs;
  shown *shown;
  int nshown, capshown;
  int64_t *tables; /* every table created, for the watcher */
  int ntables, captables;
  int64_t wanted; /* a table whose creator waits for a second person */
  char trace[4096];
  char logs[16][200];
  int nlogs;
  char failure[2048];
  long long moves, games; /* stored in the end, for the report */
} w;

/* ---- randomness: everything from the seed ---- */

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

static int below(int n) { return (int)(splitmix(&w.rng) % (uint64_t)n); }
static bool chance(int percent) { return below(100) < percent; }

/* ---- the record of what happened ---- */

static void trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void trace(const char *fmt, ...) {
  size_t used = strlen(w.trace);
  if (used + 80 >= sizeof w.trace) return;
  used += (size_t)snprintf(w.trace + used, sizeof w.trace - used, "%s%.1fs ", used ? "; " : "", (double)w.now / 1000);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(w.trace + used, sizeof w.trace - used, fmt, ap);
  va_end(ap);
}

/* Notes the first invariant broken; the schedule stops at the next step. */
static void violation(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void violation(const char *fmt, ...) {
  if (w.failure[0]) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(w.failure, sizeof w.failure, fmt, ap);
  va_end(ap);
}

/* ---- the hubs' world: io callbacks ---- */

static int hub_of(void *ctx) { return (int)(intptr_t)ctx; }

static void *grow(void *array, int *cap, int n, size_t size) {
  if (n < *cap) return array;
  *cap = *cap ? 2 * *cap : 64;
  void *bigger = realloc(array, (size_t)*cap * size);
  cr_assert(bigger);
  return bigger;
}

static void on_message(int hub, person *p, json_t *msg) {
  const char *type = json_string_value(json_object_get(msg, "type"));
  const int64_t table = json_integer_value(json_object_get(msg, "table"));
  if (strcmp(type, "state") == 0) {
    json_t *game = json_object_get(msg, "game");
    if (game) {
      w.shown = grow(w.shown, &w.capshown, w.nshown, sizeof *w.shown);
      w.shown[w.nshown++] = (shown){table, (int)json_integer_value(json_object_get(msg, "seat")), json_incref(game)};
    }
    if (table == p->table || table == p->created || table == p->watching) {
      json_decref(p->state);
      p->state = json_incref(msg);
    }
  } else if (strcmp(type, "welcome") == 0) {
    p->welcomed = true;
  } else if (strcmp(type, "seated") == 0) {
    p->table = table;
    p->seat = (int)json_integer_value(json_object_get(msg, "seat"));
    snprintf(p->token, sizeof p->token, "%s", json_string_value(json_object_get(msg, "seat_token")));
    p->resume = false;
    p->tries = 0;
  } else if (strcmp(type, "created") == 0) {
    p->created = table;
    p->created_at = w.now;
    w.tables = grow(w.tables, &w.captables, w.ntables, sizeof *w.tables);
    w.tables[w.ntables++] = table;
  } else if (strcmp(type, "moved") == 0 || strcmp(type, "error") == 0) {
    if (p->table || p->watching) p->resume = true;
  }
  (void)hub;
}

static void sim_send(void *ctx, uint64_t client, const char *text, size_t len) {
  const int hub = hub_of(ctx);
  json_t *msg = json_loadb(text, len, 0, NULL);
  if (!msg) {
    violation("hub %s sent something that is not JSON: %.*s", names[hub], (int)len, text);
    return;
  }
  if (client >= 1 && client <= PEOPLE && w.people[client].hub == hub) on_message(hub, &w.people[client], msg);
  json_decref(msg);
}

static void sim_think(void *ctx, const srv_think_job *job) {
  const int hub = hub_of(ctx);
  w.jobs = grow(w.jobs, &w.capjobs, w.njobs, sizeof *w.jobs);
  w.jobs[w.njobs++] = (bot_job){hub, w.hubs[hub].generation, w.now + 20 + below(600), *job};
}

static void sim_random(void *ctx, void *buf, size_t len) {
  sim_hub *h = &w.hubs[hub_of(ctx)];
  unsigned char *p = buf;
  for (size_t i = 0; i < len; i++) p[i] = (unsigned char)splitmix(&h->rng);
}

static int64_t sim_now(void *ctx) { return w.now + w.hubs[hub_of(ctx)].offset; }

static int64_t db_now(void *ctx) {
  (void)ctx;
  return w.now;
}

static void sim_password(void *ctx, const srv_password_job *job) {
  (void)ctx;
  (void)job; /* nobody registers in the simulation */
}

static int sim_publish(void *ctx, const char *subject, const char *text, size_t len) {
  (void)ctx;
  if (w.bus_down) return -1;
  if (chance(w.drop_percent)) return 0; /* lost on the way */
  w.bus = grow(w.bus, &w.capbus, w.nbus, sizeof *w.bus);
  w.bus[w.nbus++] = (bus_msg){strdup(subject), strndup(text, len), w.now + below(w.max_delay_ms + 1), w.bus_serial++};
  return 0;
}

static void sim_log(void *ctx, const char *text) {
  snprintf(w.logs[w.nlogs++ % 16], sizeof w.logs[0], "%.1fs %s: %s", (double)w.now / 1000, names[hub_of(ctx)], text);
}

/* ---- starting and stopping servers ---- */

static bool listening(int i) { return w.hubs[i].alive && !w.hubs[i].paused; }

/* Starts hub i under its name; false while the name is refused (its lease still live) or the
 * database is away: the scheduler tries again later. */
static bool start_hub(int i) {
  sim_hub *h = &w.hubs[i];
  if (srv_store_open_simulated(&h->store, w.db, db_now, NULL) != 0) {
    violation("opening the simulated store: %s", srv_store_error(h->store));
    srv_store_close(h->store);
    h->store = NULL;
    return false;
  }
  srv_store_fail_all(h->store, w.db_down);
  if (srv_store_node(h->store, names[i], LEASE_MS) != 0) {
    srv_store_close(h->store);
    h->store = NULL;
    return false;
  }
  srv_hub_options o;
  srv_hub_options_default(&o);
  o.round_pause_ms = 500;
  o.player_rate_per_second = 0;
  o.seat_grace_ms = 5000;
  o.waiting_table_expiry_ms = 15000;
  o.lease_renew_ms = RENEW_MS;
  o.node = names[i];
  const srv_hub_io io = {(void *)(intptr_t)i, sim_send, sim_think, sim_random, sim_now, sim_password, sim_publish,
                         sim_log, NULL, NULL, NULL, NULL, NULL};
  char err[256];
  h->generation++;
  if (srv_hub_new(&h->hub, h->store, &io, &o, err, sizeof err) != 0) {
    srv_store_close(h->store);
    h->store = NULL;
    h->hub = NULL;
    return false;
  }
  h->alive = true;
  h->paused = false;
  for (int p = 1; p <= PEOPLE; p++) h->disconnect[p] = false;
  h->bus_heard_up = !w.bus_down;
  if (h->bus_heard_up) srv_hub_bus_state(h->hub, true);
  return true;
}

/* kill -9: the process and its connection go, its lease is not given up. */
static void kill_hub(int i) {
  sim_hub *h = &w.hubs[i];
  srv_hub_free(h->hub);
  srv_store_close(h->store);
  h->hub = NULL;
  h->store = NULL;
  h->alive = h->paused = false;
  h->slow_until = 0;
  memset(h->disconnect, 0, sizeof h->disconnect);
  for (int p = 1; p <= PEOPLE; p++)
    if (w.people[p].hub == i) w.people[p].hub = -1; /* cut off: they connect elsewhere and resume */
}

/* ---- the scripted people ---- */

static void say(person *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(person *p, const char *fmt, ...) {
  char text[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  srv_hub_receive(w.hubs[p->hub].hub, (uint64_t)(p - w.people), text, strlen(text));
}

/* Connects a person to a live server, at random, to say hello and resume there. */
static void connect_somewhere(person *p) {
  int live[HUBS], n = 0;
  for (int i = 0; i < HUBS; i++)
    if (listening(i)) live[n++] = i;
  if (!n) return;
  p->hub = live[below(n)];
  p->welcomed = false;
  if (p->table || p->watching) p->resume = true;
  srv_hub_connect(w.hubs[p->hub].hub, (uint64_t)(p - w.people));
}

static const char *state_status(const person *p) {
  const char *s = json_string_value(json_object_get(p->state, "status"));
  return s ? s : "";
}

/* The creator fills the empty seats with computers and starts. */
static void fill_and_start(person *p) {
  json_t *seats = json_object_get(p->state, "seats");
  for (size_t s = 0; s < json_array_size(seats); s++)
    if (json_is_null(json_array_get(seats, s)))
      say(p, "{\"type\":\"bot\",\"table\":%lld,\"seat\":%d,\"level\":\"rules\"}", (long long)p->table, (int)s);
  say(p, "{\"type\":\"start\",\"table\":%lld}", (long long)p->table);
}

static void play(person *p) {
  json_t *game = json_object_get(p->state, "game");
  json_t *legal = json_object_get(game, "legal");
  if (json_integer_value(json_object_get(game, "turn")) != p->seat || !json_array_size(legal)) return;
  const size_t pick = chance(50) ? 0 : json_array_size(legal) - 1;
  say(p, "{\"type\":\"move\",\"table\":%lld,\"move\":\"%s\"}", (long long)p->table,
      json_string_value(json_array_get(legal, pick)));
}

static void act(person *p, bool settling) {
  const int id = (int)(p - w.people);
  if (!p->welcomed) {
    say(p, "{\"type\":\"hello\",\"name\":\"P%d\"}", id);
    return;
  }
  if (p->resume) {
    if (++p->tries > 40) { /* given up: a computer stands in for it */
      p->table = p->watching = 0;
      p->resume = false;
      p->tries = 0;
    } else if (p->table) {
      say(p, "{\"type\":\"resume\",\"seat_token\":\"%s\"}", p->token);
    } else if (p->watching) {
      p->resume = false;
      say(p, "{\"type\":\"watch\",\"table\":%lld}", (long long)p->watching);
    }
    return;
  }
  if (id == WATCHER) {
    if ((!p->watching || chance(5)) && w.ntables) {
      p->watching = w.tables[below(w.ntables)];
      say(p, "{\"type\":\"watch\",\"table\":%lld}", (long long)p->watching);
    }
    return;
  }
  if (p->created && !p->table) { /* just created: sit down */
    say(p, "{\"type\":\"sit\",\"table\":%lld,\"seat\":0}", (long long)p->created);
    if (!p->table) p->created = 0;
    else if (!settling && chance(50)) w.wanted = p->table;
    return;
  }
  if (p->table) {
    const char *status = state_status(p);
    if (strcmp(status, "over") == 0) {
      say(p, "{\"type\":\"leave\"}");
      p->table = p->created = 0;
      json_decref(p->state);
      p->state = NULL;
    } else if (strcmp(status, "waiting") == 0) {
      if (p->created == p->table && w.now - p->created_at > 1500) fill_and_start(p);
    } else {
      play(p);
    }
    return;
  }
  if (settling) return; /* no new tables once the faults stop */
  if (w.wanted && chance(70)) {
    const int64_t table = w.wanted;
    w.wanted = 0;
    say(p, "{\"type\":\"sit\",\"table\":%lld,\"seat\":1}", (long long)table);
    return;
  }
  if (chance(30)) say(p, "{\"type\":\"create\",\"rules\":\"%s\"}", chance(80) ? RULES : "target=50,players=2");
}

static void people_act(bool settling) {
  for (int id = 1; id <= PEOPLE && !w.failure[0]; id++) {
    person *p = &w.people[id];
    if (w.now < p->next_ms) continue;
    p->next_ms = w.now + 100 + below(600);
    if (p->hub < 0) {
      connect_somewhere(p);
      continue;
    }
    if (w.hubs[p->hub].paused) { /* its server does not answer: sometimes it goes elsewhere */
      if (chance(20)) {
        w.hubs[p->hub].disconnect[id] = true;
        connect_somewhere(p);
      }
      continue;
    }
    act(p, settling);
  }
}

/* ---- the bus and the computers ---- */

static int by_time(const void *a, const void *b) {
  const bus_msg *x = a, *y = b;
  if (x->at != y->at) return x->at < y->at ? -1 : 1;
  return x->serial < y->serial ? -1 : x->serial > y->serial;
}

/* Delivers what is due, in the order of its (random) delay, to the servers listening. */
static void pump(void) {
  for (int rounds = 0; rounds < 50; rounds++) {
    qsort(w.bus, (size_t)w.nbus, sizeof *w.bus, by_time);
    int due = 0;
    while (due < w.nbus && w.bus[due].at <= w.now) due++;
    if (!due) return;
    bus_msg *batch = malloc((size_t)due * sizeof *batch);
    memcpy(batch, w.bus, (size_t)due * sizeof *batch);
    memmove(w.bus, w.bus + due, (size_t)(w.nbus - due) * sizeof *w.bus);
    w.nbus -= due;
    for (int k = 0; k < due; k++) {
      for (int i = 0; i < HUBS; i++) {
        char own[32];
        snprintf(own, sizeof own, SRV_BUS_NODE "%s", names[i]);
        if (listening(i) && (strcmp(batch[k].subject, SRV_BUS_LOBBY) == 0 || strcmp(batch[k].subject, own) == 0))
          srv_hub_bus_message(w.hubs[i].hub, batch[k].subject, batch[k].text, strlen(batch[k].text));
      }
      free(batch[k].subject);
      free(batch[k].text);
    }
    free(batch);
  }
}

static void drop_bus(void) {
  for (int k = 0; k < w.nbus; k++) {
    free(w.bus[k].subject);
    free(w.bus[k].text);
  }
  w.nbus = 0;
}

/* Answers the computers' turns that are due, from the job's view alone. */
static void answer_bots(void) {
  for (int k = 0; k < w.njobs;) {
    bot_job *j = &w.jobs[k];
    sim_hub *h = &w.hubs[j->hub];
    if (!h->alive || h->generation != j->generation) { /* its process is gone */
      w.jobs[k] = w.jobs[--w.njobs];
      continue;
    }
    if (j->at > w.now || h->paused) {
      k++;
      continue;
    }
    goita_move moves[GOITA_MAX_LEGAL];
    const int n = goita_view_legal_moves(&j->job.view, moves);
    const bot_job done = *j;
    w.jobs[k] = w.jobs[--w.njobs];
    if (n > 0) srv_hub_bot_move(h->hub, done.job.table, done.job.version, moves[below(n)]);
  }
}

/* ---- faults ---- */

static void set_db(bool down) {
  w.db_down = down;
  for (int i = 0; i < HUBS; i++)
    if (w.hubs[i].store) srv_store_fail_all(w.hubs[i].store, down);
}

static void set_bus(bool down) {
  w.bus_down = down;
  if (down) drop_bus();
  for (int i = 0; i < HUBS; i++)
    if (listening(i)) {
      w.hubs[i].bus_heard_up = !down;
      srv_hub_bus_state(w.hubs[i].hub, !down);
    }
}

/* A second server under a live server's name must be refused (a server whose lease is live:
 * it renewed within the last lease, nothing has stopped it or the database since). */
static void duplicate_start(int i) {
  srv_store *twin = NULL;
  if (srv_store_open_simulated(&twin, w.db, db_now, NULL) != 0) {
    violation("opening the simulated store: %s", srv_store_error(twin));
  } else if (srv_store_node(twin, names[i], LEASE_MS) == 0) {
    violation("a second server was started under the name %s while that server was live", names[i]);
  } else if (!strstr(srv_store_error(twin), "a live server is named")) {
    violation("a second server under a live name was refused for another reason: %s", srv_store_error(twin));
  }
  srv_store_close(twin);
}

/* Draws at most one fault for this step, and ends those whose time has come. */
static void faults(bool drawing) {
  for (int i = 0; i < HUBS; i++) {
    sim_hub *h = &w.hubs[i];
    if (h->paused && w.now >= h->wake_at) {
      h->paused = false;
      h->quiet_since = w.now;
      trace("%s wakes", names[i]);
      for (int p = 1; p <= PEOPLE; p++)
        if (h->disconnect[p]) {
          srv_hub_disconnect(h->hub, (uint64_t)p);
          h->disconnect[p] = false;
        }
      if (h->bus_heard_up == w.bus_down) { /* what changed while it was stopped */
        h->bus_heard_up = !w.bus_down;
        srv_hub_bus_state(h->hub, h->bus_heard_up);
      }
    }
    if (!h->alive && w.now >= h->restart_at) {
      if (start_hub(i)) {
        h->quiet_since = w.now;
        trace("%s started again", names[i]);
      } else {
        h->restart_at = w.now + 500; /* refused while its lease is live: again later */
      }
    }
  }
  if (w.db_down && w.now >= w.db_up_at) {
    set_db(false);
    w.db_quiet_since = w.now;
    trace("database back");
  }
  if (w.bus_down && w.now >= w.bus_up_at) {
    set_bus(false);
    trace("bus back");
  }
  if (!drawing || !chance(2)) return;
  const int i = below(HUBS);
  sim_hub *h = &w.hubs[i];
  switch (below(7)) {
  case 0:
    if (!listening(i)) return;
    h->paused = true;
    h->wake_at = w.now + LEASE_MS + below(5000);
    trace("%s paused until %.1fs", names[i], (double)h->wake_at / 1000);
    break;
  case 1:
    if (!h->alive) return;
    kill_hub(i);
    h->restart_at = w.now + below(6000);
    trace("%s killed", names[i]);
    break;
  case 2:
    if (w.db_down) return;
    set_db(true);
    w.db_up_at = w.now + LEASE_MS + below(5000);
    trace("database away until %.1fs", (double)w.db_up_at / 1000);
    break;
  case 3:
    if (w.bus_down) return;
    set_bus(true);
    w.bus_up_at = w.now + 1000 + below(7000);
    trace("bus away until %.1fs", (double)w.bus_up_at / 1000);
    break;
  case 4:
    if (!h->alive) return;
    h->offset += 1000 + below(8000);
    trace("%s's clock stepped to +%.1fs", names[i], (double)h->offset / 1000);
    break;
  case 5:
    if (!h->alive || h->slow_until > w.now) return;
    h->slow_until = h->quiet_since = w.now + 2000 + below(8000);
    trace("%s's clock slow until %.1fs", names[i], (double)h->slow_until / 1000);
    break;
  default:
    if (!listening(i) || w.db_down || w.now - h->quiet_since < LEASE_MS || w.now - w.db_quiet_since < 2 * LEASE_MS)
      return;
    trace("a second %s started", names[i]);
    duplicate_start(i);
    break;
  }
}

static void step(bool drawing, bool settling) {
  w.now += STEP_MS;
  for (int i = 0; i < HUBS; i++)
    if (w.hubs[i].slow_until > w.now) w.hubs[i].offset -= 3 * STEP_MS / 4;
  faults(drawing);
  for (int i = 0; i < HUBS; i++)
    if (listening(i)) srv_hub_tick(w.hubs[i].hub);
  pump();
  answer_bots();
  people_act(settling);
}

/* ---- the checker ---- */

static long long audit_count(const char *sql) {
  sqlite3_stmt *st = NULL;
  cr_assert_eq(sqlite3_prepare_v2(w.audit, sql, -1, &st, NULL), SQLITE_OK, "%s: %s", sql, sqlite3_errmsg(w.audit));
  const long long n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
  sqlite3_finalize(st);
  return n;
}

/* Every write of a move, with the owner of its table at that moment; and every change that
 * must never happen: a stored move written over or deleted, a closed table written again. */
static void audit_install(void) {
  const char *sql =
      "CREATE TABLE sim_writes (table_id INTEGER, seq INTEGER, move TEXT, node TEXT, epoch INTEGER, "
      "  owner TEXT, owner_epoch INTEGER, status INTEGER);"
      "CREATE TABLE sim_changes (what TEXT, table_id INTEGER, seq INTEGER);"
      "CREATE TRIGGER sim_move_written AFTER INSERT ON moves BEGIN INSERT INTO sim_writes SELECT new.table_id, "
      "  new.seq, new.move, new.node, new.epoch, t.node, t.epoch, t.status FROM tables t WHERE t.id = new.table_id; END;"
      "CREATE TRIGGER sim_move_replaced AFTER UPDATE ON moves BEGIN "
      "  INSERT INTO sim_changes VALUES ('a stored move written over', old.table_id, old.seq); END;"
      "CREATE TRIGGER sim_move_deleted AFTER DELETE ON moves BEGIN "
      "  INSERT INTO sim_changes VALUES ('a stored move deleted', old.table_id, old.seq); END;"
      "CREATE TRIGGER sim_closed_written AFTER UPDATE ON tables WHEN old.status = 2 BEGIN "
      "  INSERT INTO sim_changes VALUES ('a closed table written again', old.id, new.status); END;";
  char *err = NULL;
  cr_assert_eq(sqlite3_exec(w.audit, sql, NULL, NULL, &err), SQLITE_OK, "%s", err);
}

static void check_audit(void) {
  static const struct {
    const char *sql, *what;
  } checks[] = {
      {"SELECT count(*) FROM sim_changes", "a stored move was written over or deleted, or a closed table written"},
      {"SELECT count(*) FROM (SELECT 1 FROM sim_writes GROUP BY table_id, seq HAVING count(*) > 1)",
       "a move was stored twice at one place"},
      {"SELECT count(*) FROM sim_writes WHERE node IS NOT owner OR epoch != owner_epoch OR status = 2",
       "a move was written by a server that did not own the table in that epoch"},
      {"SELECT count(*) FROM (SELECT 1 FROM sim_writes GROUP BY table_id, epoch HAVING count(DISTINCT node) > 1)",
       "two servers wrote one table in one epoch"},
      {"SELECT count(*) FROM (SELECT 1 FROM games GROUP BY table_id HAVING count(*) > 1)",
       "a table has two stored games"},
      {"SELECT count(*) FROM games g JOIN tables t ON t.id = g.table_id WHERE t.status != 2",
       "a game is stored for a table that is still open"},
  };
  for (size_t k = 0; k < sizeof checks / sizeof *checks; k++) {
    const long long n = audit_count(checks[k].sql);
    if (n != 0) violation("%s (%lld times)", checks[k].what, n);
  }
}

/* A table rebuilt from its stored moves with the rules: the state at the start of each round,
 * and where its moves begin. */
typedef struct truth_round {
  goita_game start;
  int first, n;
} truth_round;

typedef struct truth {
  int64_t table;
  goita_rules rules;
  char (*moves)[16];
  int nmoves;
  truth_round *rounds;
  int nrounds, caprounds;
  goita_game end;
  bool ok;
} truth;

static truth *truths;
static int ntruths;

static void add_round(truth *t) {
  t->rounds = grow(t->rounds, &t->caprounds, t->nrounds, sizeof *t->rounds);
  t->rounds[t->nrounds++] = (truth_round){t->end, t->nmoves, 0};
}

static bool build_truth(truth *t, const char *rules, uint64_t seed) {
  goita_rules_default(&t->rules);
  if (goita_rules_parse(&t->rules, rules, NULL) != GOITA_OK || goita_game_start(&t->end, &t->rules, seed, NULL) != GOITA_OK) {
    violation("table %lld: its rules \"%s\" do not start a game", (long long)t->table, rules);
    return false;
  }
  add_round(t);
  sqlite3_stmt *st = NULL;
  sqlite3_prepare_v2(w.audit, "SELECT seq, move FROM moves WHERE table_id = ? ORDER BY seq", -1, &st, NULL);
  sqlite3_bind_int64(st, 1, t->table);
  bool ok = true;
  while (ok && sqlite3_step(st) == SQLITE_ROW) {
    const char *text = (const char *)sqlite3_column_text(st, 1);
    if (sqlite3_column_int(st, 0) != t->nmoves) {
      violation("table %lld: stored move %d is missing", (long long)t->table, t->nmoves);
      ok = false;
      break;
    }
    while (goita_round_over(&t->end.round) && !t->end.over) {
      goita_game_next_round(&t->end, NULL);
      add_round(t);
    }
    goita_move m;
    if (goita_move_parse(text, strlen(text), &m) != GOITA_OK || goita_game_apply(&t->end, m, NULL) != GOITA_OK) {
      violation("table %lld: stored move %d \"%s\" does not replay", (long long)t->table, t->nmoves, text);
      ok = false;
      break;
    }
    t->moves = realloc(t->moves, (size_t)(t->nmoves + 1) * sizeof *t->moves);
    snprintf(t->moves[t->nmoves++], sizeof *t->moves, "%s", text);
    t->rounds[t->nrounds - 1].n++;
  }
  sqlite3_finalize(st);
  return ok;
}

static truth *truth_of(int64_t table) {
  for (int i = 0; i < ntruths; i++)
    if (truths[i].table == table) return &truths[i];
  return NULL;
}

static void build_truths(void) {
  sqlite3_stmt *st = NULL;
  sqlite3_prepare_v2(w.audit, "SELECT id, rules, seed FROM tables WHERE status != 0 OR id IN (SELECT table_id FROM moves)",
                     -1, &st, NULL);
  while (sqlite3_step(st) == SQLITE_ROW && !w.failure[0]) {
    truths = realloc(truths, (size_t)(ntruths + 1) * sizeof *truths);
    truth *t = &truths[ntruths++];
    memset(t, 0, sizeof *t);
    t->table = sqlite3_column_int64(st, 0);
    t->ok = build_truth(t, (const char *)sqlite3_column_text(st, 1), (uint64_t)sqlite3_column_int64(st, 2));
  }
  sqlite3_finalize(st);
}

static void free_truths(void) {
  for (int i = 0; i < ntruths; i++) {
    free(truths[i].moves);
    free(truths[i].rounds);
  }
  free(truths);
  truths = NULL;
  ntruths = 0;
}

/* Whether a seat may see block i of seat t (tests/hub_harness.c's scan). */
static bool block_visible(const goita_round *r, int viewer, int t, int i) {
  if (!((r->face_down[t] >> i) & 1u) || t == viewer) return true;
  return r->phase == GOITA_PHASE_OVER && r->result.end == GOITA_END_FINISH && t == r->result.winner &&
         i == r->plays[t] - 1;
}

/* What the seat was shown must be what the stored record shows it at that place, and may show
 * nothing hidden from it. */
static void check_shown(const shown *s) {
  truth *t = truth_of(s->table);
  const int round = (int)json_integer_value(json_object_get(s->game, "round"));
  const size_t nlog = json_array_size(json_object_get(s->game, "log"));
  if (!t) {
    violation("table %lld: a game was shown, and nothing of it is stored", (long long)s->table);
    return;
  }
  if (!t->ok) return;
  /* a round shown before its first move: dealt from the stored ones */
  while (t->rounds[t->nrounds - 1].start.round_index < round && goita_round_over(&t->end.round) && !t->end.over) {
    goita_game_next_round(&t->end, NULL);
    add_round(t);
  }
  const truth_round *r = NULL;
  for (int k = 0; k < t->nrounds; k++)
    if (t->rounds[k].start.round_index == round) r = &t->rounds[k];
  if (!r) {
    violation("table %lld: round %d was shown, and the stored moves never reach it (%d rounds stored from %d, %d moves; seat %d, %zu shown)", (long long)s->table, round, t->nrounds, t->rounds[0].start.round_index, t->nmoves, s->seat, nlog);
    return;
  }
  goita_game g = r->start;
  for (int k = 0; k < r->n && (size_t)g.round.nlog < nlog; k++) {
    goita_move m;
    goita_move_parse(t->moves[r->first + k], strlen(t->moves[r->first + k]), &m);
    goita_game_apply(&g, m, NULL);
  }
  if ((size_t)g.round.nlog != nlog) {
    char *shown_log = json_dumps(json_object_get(s->game, "log"), JSON_COMPACT);
    violation("table %lld round %d: a client was shown %zu moves (%s); %d are stored", (long long)s->table, round, nlog,
              shown_log, (int)g.round.nlog);
    free(shown_log);
    return;
  }
  goita_view view;
  goita_game_view(&g, s->seat < 0 ? GOITA_OBSERVER : s->seat, &view);
  srv_table_info info;
  memset(&info, 0, sizeof info);
  info.id = s->table;
  info.rules = "";
  info.players = t->rules.players;
  info.seconds_left = info.rematch.seconds_left = -1;
  char *text = srv_message_state(&info, s->seat, &view);
  json_t *expected = json_loads(text, 0, NULL);
  if (!json_equal(json_object_get(expected, "game"), s->game)) {
    char *a = json_dumps(s->game, JSON_COMPACT), *b = json_dumps(json_object_get(expected, "game"), JSON_COMPACT);
    violation("table %lld round %d, seat %d: shown %.700s; the stored record gives %.700s", (long long)s->table, round,
              s->seat, a, b);
    free(a);
    free(b);
  }
  json_decref(expected);
  free(text);
  /* hidden information, from the full state rather than from the view */
  const goita_round *full = &g.round;
  const char *hand = json_string_value(json_object_get(s->game, "hand"));
  if (s->seat < 0 && hand) violation("table %lld: a spectator was shown a hand", (long long)s->table);
  if (s->seat >= 0) {
    int counts[GOITA_KIND_SLOTS] = {0};
    for (const char *p = hand ? hand : ""; *p; p++) counts[goita_mark_kind(*p - '0')]++;
    for (int k = GOITA_PAWN; k <= GOITA_KING; k++)
      if (counts[k] != full->hand[s->seat][k]) violation("table %lld: seat %d was shown another hand", (long long)s->table, s->seat);
  }
  json_t *rows = json_object_get(s->game, "rows");
  for (int seat = 0; seat < full->players; seat++) {
    const char *blocks = json_string_value(json_object_get(json_array_get(rows, (size_t)seat), "blocks"));
    for (int i = 0; blocks && i < full->plays[seat] && blocks[i]; i++)
      if (!block_visible(full, s->seat, seat, i) && blocks[i] != '0')
        violation("table %lld: seat %d was shown seat %d's face-down block %d", (long long)s->table, s->seat, seat, i);
  }
}

/* Whether two move texts are one move: the record names which of the two kings was played (8
 * 王, 9 玉), a stored move only its kind. */
static bool same_move(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (*a != *b && !((*a == '8' || *a == '9') && (*b == '8' || *b == '9'))) return false;
  return *a == *b;
}

/* A stored game's record holds the table's stored moves, in order: all of them for a finished
 * game, the first ones for an abandoned game (a stale copy of the table would store another). */
static void check_record(int64_t table, const char *json, bool finished) {
  const truth *t = truth_of(table);
  goita_record rec;
  goita_error gerr;
  if (!t || !t->ok) return;
  if (goita_record_read_json(&rec, json, strlen(json), &gerr) != GOITA_OK) {
    violation("table %lld: its stored game's record does not read: %s", (long long)table, gerr.message);
    return;
  }
  int k = 0;
  for (int r = 0; r < rec.nrounds; r++)
    for (int j = 0; j < rec.rounds[r].round.nlog; j++, k++) {
      char text[16];
      goita_move_format(rec.rounds[r].round.log[j], text, sizeof text);
      if (k >= t->nmoves || !same_move(text, t->moves[k])) {
        violation("table %lld: its stored game's move %d is %s; the stored move there is %s", (long long)table, k, text,
                  k < t->nmoves ? t->moves[k] : "none");
        goita_record_free(&rec);
        return;
      }
    }
  if (finished && k != t->nmoves)
    violation("table %lld: its stored game has %d moves, %d are stored", (long long)table, k, t->nmoves);
  goita_record_free(&rec);
}

/* Every stored game's record is the table's stored moves, and a finished one's reach its end;
 * every open table is served by exactly one live hub, the one the database names, in its
 * epoch. */
static void check_end(void) {
  sqlite3_stmt *st = NULL;
  sqlite3_prepare_v2(w.audit, "SELECT table_id, record, ended IS NULL FROM games", -1, &st, NULL);
  while (sqlite3_step(st) == SQLITE_ROW) {
    check_record(sqlite3_column_int64(st, 0), (const char *)sqlite3_column_text(st, 1), sqlite3_column_int(st, 2));
    if (!sqlite3_column_int(st, 2)) continue;
    const truth *t = truth_of(sqlite3_column_int64(st, 0));
    goita_game end;
    if (t) end = t->end;
    while (t && goita_round_over(&end.round) && !end.over) goita_game_next_round(&end, NULL); /* a teyaku at the deal */
    if (!t || (t->ok && !end.over))
      violation("table %lld: its game is stored as finished, and its moves do not finish it",
                (long long)sqlite3_column_int64(st, 0));
  }
  sqlite3_finalize(st);
  sqlite3_prepare_v2(w.audit, "SELECT id, COALESCE(node, ''), epoch FROM tables WHERE status != 2", -1, &st, NULL);
  while (sqlite3_step(st) == SQLITE_ROW) {
    const int64_t id = sqlite3_column_int64(st, 0), epoch = sqlite3_column_int64(st, 2);
    const char *node = (const char *)sqlite3_column_text(st, 1);
    int holders = 0;
    for (int i = 0; i < HUBS; i++) {
      hub_table *t = w.hubs[i].alive ? hub_table_get(w.hubs[i].hub, id) : NULL;
      if (!t) continue;
      holders++;
      if (strcmp(node, names[i]) != 0)
        violation("table %lld is %s's in the database, and %s serves it too", (long long)id, node, names[i]);
      else if (t->epoch != epoch)
        violation("table %lld: %s serves it in epoch %lld, the database's is %lld", (long long)id, names[i],
                  (long long)t->epoch, (long long)epoch);
    }
    if (holders != 1) violation("table %lld (%s's in the database) is served by %d live servers", (long long)id, node, holders);
  }
  sqlite3_finalize(st);
  for (int i = 0; i < HUBS; i++) {
    srv_hub *h = w.hubs[i].hub;
    for (int k = 0; w.hubs[i].alive && k < h->ntables; k++) {
      const hub_table *t = h->tables[k];
      if (t->lost || t->status == SRV_OVER) continue;
      char sql[160];
      snprintf(sql, sizeof sql, "SELECT count(*) FROM tables WHERE id = %lld AND status != 2 AND node = '%s'",
               (long long)t->id, names[i]);
      if (audit_count(sql) != 1)
        violation("%s serves table %lld, which the database does not name as its open table", names[i], (long long)t->id);
    }
  }
}

/* ---- one schedule ---- */

static void world_free(void) {
  for (int i = 0; i < HUBS; i++) {
    srv_hub_free(w.hubs[i].hub);
    srv_store_close(w.hubs[i].store);
  }
  for (int p = 0; p <= PEOPLE; p++) json_decref(w.people[p].state);
  drop_bus();
  free(w.bus);
  free(w.jobs);
  for (int k = 0; k < w.nshown; k++) json_decref(w.shown[k].game);
  free(w.shown);
  free(w.tables);
  free_truths();
  sqlite3_close(w.audit);
}

/* Runs the schedule of a seed; returns false with the broken invariant in w.failure. */
static bool run_schedule(uint64_t seed) {
  memset(&w, 0, sizeof w);
  w.seed = w.rng = seed;
  w.now = 1000;
  snprintf(w.db, sizeof w.db, "goita-simulation-%llu", (unsigned long long)seed);
  w.drop_percent = below(4) == 0 ? 0 : below(6);
  w.max_delay_ms = below(400);
  for (int i = 0; i < HUBS; i++) w.hubs[i].rng = splitmix(&w.rng);
  for (int p = 0; p <= PEOPLE; p++) w.people[p].hub = -1;
  char uri[128];
  snprintf(uri, sizeof uri, "file:%s?mode=memory&cache=shared", w.db);
  srv_store *first = NULL;
  cr_assert_eq(srv_store_open_simulated(&first, w.db, db_now, NULL), 0, "%s", srv_store_error(first));
  cr_assert_eq(sqlite3_open_v2(uri, &w.audit, SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI, NULL), SQLITE_OK);
  srv_store_close(first);
  audit_install();
  for (int i = 0; i < HUBS; i++) cr_assert(start_hub(i), "hub %s did not start", names[i]);
  trace("drop %d%%, delay up to %d ms", w.drop_percent, w.max_delay_ms);
  while (w.now < FAULTS_UNTIL_MS && !w.failure[0]) step(w.now >= FAULTS_FROM_MS, false);
  /* the faults stop: everything comes back, and time runs on */
  while (!w.failure[0]) {
    bool calm = !w.db_down && !w.bus_down;
    for (int i = 0; i < HUBS; i++) calm &= listening(i) && w.hubs[i].slow_until <= w.now;
    if (calm) break;
    step(false, true);
  }
  const int64_t settled = w.now + SETTLE_MS;
  while (w.now < settled && !w.failure[0]) step(false, true);
  check_audit();
  if (!w.failure[0]) build_truths();
  for (int k = 0; k < w.nshown && !w.failure[0]; k++) check_shown(&w.shown[k]);
  if (!w.failure[0]) check_end();
  w.moves = audit_count("SELECT count(*) FROM moves");
  w.games = audit_count("SELECT count(*) FROM games");
  return !w.failure[0];
}

/* Seeds that once failed, each run on every build. A seed names a schedule of this version of
 * the generator (faults(), act()): when the generator changes, the bug a seed found is sought
 * again with the bug put back, and the new seed that finds it is added. 38 showed an expired
 * table's watcher a game never dealt (hub_view.c), 4 since the slow clocks; 29 caught a move
 * write that ignored the epoch, 1 since the slow clocks; 198 ended a game with a teyaku at the
 * deal of its last round (the checker's replay once missed it). */
static const uint64_t regressions[] = {1, 4, 29, 38, 198};

static void run_seed(uint64_t seed) {
  const bool ok = run_schedule(seed);
  if (!ok) {
    char logs[16 * 200 + 16] = "";
    for (int k = w.nlogs > 16 ? w.nlogs - 16 : 0; k < w.nlogs; k++) {
      strcat(logs, "\n  ");
      strcat(logs, w.logs[k % 16]);
    }
    const char *failure = w.failure;
    char copy[sizeof w.failure + sizeof w.trace + sizeof logs + 128];
    snprintf(copy, sizeof copy, "seed %llu: %s\nfaults: %s\nlast log lines:%s", (unsigned long long)seed, failure,
             w.trace, logs);
    world_free();
    cr_assert_fail("%s", copy);
  }
  world_free();
}

static uint64_t env_number(const char *name, uint64_t otherwise) {
  const char *v = getenv(name);
  return v && *v ? strtoull(v, NULL, 10) : otherwise;
}

Test(simulation, seeded_schedules_keep_every_move_and_one_owner_per_table, .timeout = 3600) {
  const char *one = getenv("SIMULATION_SEED");
  if (one && *one) {
    run_seed(strtoull(one, NULL, 10));
    fprintf(stderr, "seed %s: %lld moves and %lld games stored, %d states checked; %s\n", one, w.moves, w.games,
            w.nshown, w.trace);
    return;
  }
  const uint64_t n = env_number("SIMULATION_SEEDS", 300);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (uint64_t seed = 1; seed <= n; seed++) run_seed(seed);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  const double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
  fprintf(stderr, "simulation: %llu schedules in %.1f s, %.0f schedules a second\n", (unsigned long long)n, seconds,
          (double)n / seconds);
}

Test(simulation, seeds_that_once_failed) {
  for (size_t k = 0; k < sizeof regressions / sizeof *regressions; k++)
    run_seed(regressions[k]);
}

/* ---- the simulated store alone: PostgreSQL's fencing (store_postgresql.c), step by step ---- */

static int64_t store_clock;
static int64_t store_now(void *ctx) {
  (void)ctx;
  return store_clock;
}

static void note_owned(void *ctx, int64_t table, int64_t epoch) {
  int64_t *owned = ctx;
  owned[0] = table;
  owned[1] = epoch;
}

Test(simulation, the_simulated_store_fences_as_postgresql_does) {
  srv_store *a = NULL, *b = NULL, *twin = NULL;
  store_clock = 1000;
  cr_assert_eq(srv_store_open_simulated(&a, "goita-simulation-store", store_now, NULL), 0, "%s", srv_store_error(a));
  cr_assert_eq(srv_store_open_simulated(&b, "goita-simulation-store", store_now, NULL), 0, "%s", srv_store_error(b));
  cr_assert_eq(srv_store_node(a, "a", 3000), 0, "%s", srv_store_error(a));
  cr_assert_eq(srv_store_node(b, "b", 3000), 0, "%s", srv_store_error(b));
  /* a second a while a's lease is live: refused at once */
  cr_assert_eq(srv_store_open_simulated(&twin, "goita-simulation-store", store_now, NULL), 0);
  cr_assert_eq(srv_store_node(twin, "a", 3000), -1);
  cr_assert(strstr(srv_store_error(twin), "a live server is named a"), "%s", srv_store_error(twin));
  /* a's table, in epoch 1, and its first move; the same move again is saved once */
  srv_table_row row;
  memset(&row, 0, sizeof row);
  snprintf(row.rules, sizeof row.rules, "%s", RULES);
  row.seed = 7;
  row.status = SRV_PLAYING;
  cr_assert_eq(srv_store_table_create(a, &row), 0, "%s", srv_store_error(a));
  cr_assert_eq(row.epoch, 1);
  cr_assert_eq(srv_store_move_add(a, row.id, 1, 0, "1p"), 0, "%s", srv_store_error(a));
  cr_assert_eq(srv_store_move_add(a, row.id, 1, 0, "1p"), 0, "the same move again is not refused");
  cr_assert_eq(srv_store_move_add(a, row.id, 1, 0, "2p"), SRV_STORE_FENCED, "another move over a stored one");
  /* a is paused past its lease (by the database's clock): b claims the table in epoch 2 */
  store_clock += 3001;
  int64_t owned[2] = {0, 0};
  cr_assert_eq(srv_store_lease_renew(b, true, note_owned, owned), 0, "%s", srv_store_error(b));
  cr_assert_eq(owned[0], row.id);
  cr_assert_eq(owned[1], 2, "the claim is a new epoch");
  bool found = false;
  srv_table_row loaded;
  cr_assert_eq(srv_store_table_load(b, row.id, &loaded, &found), 0);
  cr_assert(found && loaded.epoch == 2);
  /* every write of a, in its epoch 1, is fenced; b's go through */
  cr_assert_eq(srv_store_move_add(a, row.id, 1, 1, "2p"), SRV_STORE_FENCED);
  cr_assert_eq(srv_store_table_update(a, &row), SRV_STORE_FENCED);
  cr_assert_eq(srv_store_table_end(a, row.id, 1, "expired"), SRV_STORE_FENCED);
  srv_game_row game;
  memset(&game, 0, sizeof game);
  game.table = row.id;
  game.epoch = 1;
  cr_assert_eq(srv_store_game_abandon(a, &game, "{}", ""), SRV_STORE_FENCED);
  cr_assert_eq(srv_store_move_add(b, row.id, 2, 1, "3p"), 0, "%s", srv_store_error(b));
  /* a renews: its lease is its own again, and the table is b's */
  owned[0] = 0;
  cr_assert_eq(srv_store_lease_renew(a, false, note_owned, owned), 0);
  cr_assert_eq(owned[0], 0, "a still owns the table");
  /* the name a, lapsed, is taken by a new process: the old one is replaced */
  store_clock += 3001;
  cr_assert_eq(srv_store_node(twin, "a", 3000), 0, "%s", srv_store_error(twin));
  cr_assert_eq(srv_store_lease_renew(a, false, note_owned, owned), SRV_STORE_SUPERSEDED);
  /* the database away: every call fails, and says why */
  srv_store_fail_all(b, true);
  cr_assert_eq(srv_store_move_add(b, row.id, 2, 2, "4p"), -1);
  cr_assert(srv_store_failing(b));
  cr_assert(strstr(srv_store_error(b), "unreachable"), "%s", srv_store_error(b));
  srv_store_fail_all(b, false);
  cr_assert_eq(srv_store_move_add(b, row.id, 2, 2, "4p"), 0, "%s", srv_store_error(b));
  srv_store_close(twin);
  srv_store_close(a);
  srv_store_close(b);
}
