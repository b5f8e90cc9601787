/* One worker thread of goita-load: its own epoll set with the four clients of each of its
 * tables, its lobby listeners and, in one worker, the create-flooder. A table and its four
 * clients stay in one thread, so the time a move was sent is read without locks. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include "load.h"

/* Handshakes a worker has under way at once: a ramp, so the server's listen queue never
 * overflows however many clients the run has. */
#define MAX_CONNECTING 32
/* A table with no state for this long at the end of the run counts as stalled. */
#define STALL_US 2000000
/* A refused create, sit or start is tried again after this long. */
#define RETRY_US 500000
/* The flooder stops adding creates while this much waits unsent (the server reads slowly). */
#define FLOOD_BACKLOG 262144

typedef enum peer_role { ROLE_PLAYER, ROLE_LISTENER, ROLE_FLOODER } peer_role;

typedef enum table_phase { T_HELLO, T_CREATING, T_SITTING, T_STARTING, T_PLAYING, T_RETRY, T_DEAD } table_phase;

typedef struct table table;
typedef struct worker worker;

typedef struct peer {
  ws_conn ws; /* first: epoll reports the peer */
  peer_role role;
  worker *w;
  bool connected; /* a connection was started (it may have ended since) */
  bool welcomed;
  table *table; /* a player's table and its place there */
  int k;
  uint64_t moved_on;     /* key of the state it last moved in */
  uint64_t last_state;   /* key of the last state it received */
  int seen_seq;          /* the table's move count when it last took a sample */
  int listener;          /* a listener's index in its worker */
  bool listening;        /* a listener got its first table list */
  char token[40];        /* the flooder's player token, to come back as the same player */
  int64_t reconnect_us;  /* when the flooder connects again, 0 when not waiting */
} peer;

struct table {
  peer *p[4];
  int64_t id;
  table_phase phase;
  int welcomed, seated;
  bool started_once;
  int seq;             /* moves sent at this table */
  int64_t sent_us;     /* when the last one was sent */
  int64_t create_us;   /* when the last create was sent */
  int64_t retry_us;
  int64_t last_state_us;
  peer *mover;         /* a client waiting to send its move (--think-ms), or NULL */
  char move[96];       /* that move */
  int64_t move_due_us;
};

struct worker {
  worker_args *a;
  load_run *run;
  worker_result *r;
  int epfd;
  peer *peers;
  int npeers, next_connect, connecting;
  table *tables;
  int ntables;
  peer *flooder;
  uint64_t rng;
};

int64_t load_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int u64_list_push(u64_list *l, uint64_t x) {
  if (l->n == l->cap) {
    const size_t cap = l->cap ? 2 * l->cap : 1024;
    uint64_t *grown = realloc(l->v, cap * sizeof *grown);
    if (!grown) return -1;
    l->v = grown;
    l->cap = cap;
  }
  l->v[l->n++] = x;
  return 0;
}

/* Returns a random number below n (xorshift64*: the moves need no better). */
static unsigned below(worker *w, unsigned n) {
  w->rng ^= w->rng >> 12;
  w->rng ^= w->rng << 25;
  w->rng ^= w->rng >> 27;
  return (unsigned)((w->rng * 0x2545f4914f6cdd1dull >> 32) % n);
}

/* Whether the measured window is open. */
static bool measuring(const worker *w) { return atomic_load(&w->run->phase) == PHASE_MEASURE; }

/* Stops the whole run because a connection could not be set up. */
static void give_up(worker *w, const char *why) {
  if (atomic_exchange(&w->run->failed, 1) == 0)
    snprintf(w->run->failure, sizeof w->run->failure, "%s", why);
}

/* Sends a JSON text; a failure shows up as the connection's close. */
static void send_text(peer *p, const char *text) { ws_send_text(&p->ws, text, strlen(text)); }

/* Counts an error the server answered, by the request it names. */
static void count_error(worker *w, const char *request, const char *text) {
  worker_result *r = w->r;
  for (int i = 0; i < r->nerrors; i++)
    if (strcmp(r->errors[i].request, request) == 0) {
      r->errors[i].count++;
      return;
    }
  if (r->nerrors == LOAD_MAX_ERROR_KINDS) return;
  error_count *e = &r->errors[r->nerrors++];
  snprintf(e->request, sizeof e->request, "%s", request);
  snprintf(e->first, sizeof e->first, "%s", text);
  e->count = 1;
}

/* Starts a new game at a table: its first client creates the table. */
static void table_create(table *t) {
  t->phase = T_CREATING;
  t->seated = 0;
  t->mover = NULL; /* a move still thinking belongs to the game that ended */
  t->create_us = load_now_us();
  send_text(t->p[0], "{\"type\":\"create\",\"rules\":\"\"}");
}

/* Sends the move a table's client chose, now: the latency is measured from here. */
static void send_move(worker *w, table *t) {
  peer *p = t->mover;
  t->mover = NULL;
  if (t->phase != T_PLAYING) return;
  t->seq++;
  t->sent_us = load_now_us();
  if (measuring(w)) w->r->moves++;
  send_text(p, t->move);
}

/* FNV-1a of a state's round and history: a client moves once in each state it is to move in. */
static uint64_t state_key(json_int_t round, const char *history) {
  uint64_t h = 0xcbf29ce484222325u ^ (uint64_t)round;
  for (const char *c = history; *c; c++) h = (h ^ (unsigned char)*c) * 0x100000001b3u;
  return h;
}

/* A seat's state: samples the latency of the move it shows, moves when it is this seat's turn,
 * and starts the next game when this one is over. */
static void player_state(worker *w, peer *p, json_t *msg, int64_t now) {
  table *t = p->table;
  if (json_integer_value(json_object_get(msg, "table")) != t->id) return;
  t->last_state_us = now;
  const char *status = json_string_value(json_object_get(msg, "status"));
  json_t *game = json_object_get(msg, "game");
  if (!status || !game) return;
  const char *history = json_string_value(json_object_get(game, "history"));
  const uint64_t key = state_key(json_integer_value(json_object_get(game, "round")), history ? history : "");
  if (key != p->last_state && p->seen_seq != t->seq && t->sent_us && measuring(w) &&
      t->sent_us >= atomic_load(&w->run->begin_us))
    u64_list_push(&w->r->move_latency, (uint64_t)(now - t->sent_us));
  if (key != p->last_state) p->seen_seq = t->seq;
  p->last_state = key;
  if (strcmp(status, "over") == 0) {
    p->seen_seq = t->seq; /* the next game's first state is no move's */
    if (t->phase != T_PLAYING) return;
    if (measuring(w)) {
      w->r->games++;
      u64_list_push(&w->r->game_end, (uint64_t)(now - t->sent_us));
    }
    table_create(t);
    return;
  }
  if (strcmp(status, "playing") != 0) return;
  if (t->phase == T_STARTING) {
    t->phase = T_PLAYING;
    if (measuring(w) && t->create_us >= atomic_load(&w->run->begin_us))
      u64_list_push(&w->r->game_setup, (uint64_t)(now - t->create_us));
    if (!t->started_once) atomic_fetch_add(&w->run->tables_playing, 1);
    t->started_once = true;
  }
  json_t *legal = json_object_get(game, "legal");
  const size_t n = json_array_size(legal);
  if (!n || key == p->moved_on || t->phase != T_PLAYING) return;
  p->moved_on = key;
  const char *move = json_string_value(json_array_get(legal, below(w, (unsigned)n)));
  if (!move) return;
  snprintf(t->move, sizeof t->move, "{\"type\":\"move\",\"table\":%lld,\"move\":\"%s\"}", (long long)t->id, move);
  t->mover = p;
  /* Thinking takes from half to one and a half times the mean, uniformly. */
  t->move_due_us = w->run->think_us ? now + w->run->think_us / 2 + below(w, (unsigned)w->run->think_us + 1) : 0;
  if (!t->move_due_us) send_move(w, t);
}

/* A message to one of a table's four clients. */
static void player_message(worker *w, peer *p, const char *text, size_t len, int64_t now) {
  json_t *msg = json_loadb(text, len, 0, NULL);
  if (!msg) return;
  const char *type = json_string_value(json_object_get(msg, "type"));
  table *t = p->table;
  if (!type) {
  } else if (strcmp(type, "state") == 0) {
    player_state(w, p, msg, now);
  } else if (strcmp(type, "welcome") == 0 && !p->welcomed) {
    p->welcomed = true;
    w->connecting--;
    if (++t->welcomed == 4) table_create(t);
  } else if (strcmp(type, "created") == 0 && t->phase == T_CREATING) {
    t->id = json_integer_value(json_object_get(msg, "table"));
    u64_list_push(&w->r->creates, (uint64_t)t->id);
    u64_list_push(&w->r->creates, (uint64_t)t->create_us);
    t->phase = T_SITTING;
    for (int k = 0; k < 4; k++) {
      t->p[k]->moved_on = t->p[k]->last_state = 0;
      char sit[96];
      snprintf(sit, sizeof sit, "{\"type\":\"sit\",\"table\":%lld,\"seat\":%d}", (long long)t->id, k);
      send_text(t->p[k], sit);
    }
  } else if (strcmp(type, "seated") == 0 && t->phase == T_SITTING) {
    if (++t->seated == 4) {
      t->phase = T_STARTING;
      char start[96];
      snprintf(start, sizeof start, "{\"type\":\"start\",\"table\":%lld}", (long long)t->id);
      send_text(t->p[0], start);
    }
  } else if (strcmp(type, "error") == 0) {
    const char *request = json_string_value(json_object_get(msg, "request"));
    const char *error = json_string_value(json_object_get(msg, "error"));
    count_error(w, request ? request : "-", error ? error : "");
    if (request && (strcmp(request, "create") == 0 || strcmp(request, "sit") == 0 || strcmp(request, "start") == 0) &&
        t->phase != T_PLAYING && t->phase != T_RETRY) {
      t->phase = T_RETRY; /* refused (a limit, say): the table tries a new game later */
      t->retry_us = now + RETRY_US;
    }
  }
  json_decref(msg);
}

/* Makes a listener's seen list long enough to index id. */
static int seen_reserve(u64_list *seen, uint64_t id) {
  if (id < seen->n) return 0;
  if (id > 100000000) return -1; /* not a table id this run can have made */
  size_t cap = seen->cap ? seen->cap : 1024;
  while (cap <= id) cap *= 2;
  if (cap != seen->cap) {
    uint64_t *grown = realloc(seen->v, cap * sizeof *grown);
    if (!grown) return -1;
    seen->v = grown;
    seen->cap = cap;
  }
  memset(seen->v + seen->n, 0, (cap - seen->n) * sizeof *seen->v);
  seen->n = cap;
  return 0;
}

/* Notes the first time a listener sees each table the message names. A table is recognised by
 * "id":N or "table":N, so full lists and change messages both count. */
static void listener_message(worker *w, peer *p, const char *text, size_t len, int64_t now) {
  if (!p->welcomed) {
    if (strstr(text, "\"welcome\"")) {
      p->welcomed = true;
      w->connecting--;
      send_text(p, "{\"type\":\"list\"}");
    }
    return;
  }
  if (!p->listening) {
    p->listening = true;
    atomic_fetch_add(&w->run->listeners_ready, 1);
  }
  w->r->lobby_messages++;
  w->r->lobby_bytes += len;
  u64_list *seen = &w->r->seen[p->listener];
  const char *end = text + len;
  for (const char *q = text; (q = memchr(q, '"', (size_t)(end - q))) != NULL; q++) {
    size_t skip;
    if (end - q > 6 && memcmp(q, "\"id\":", 5) == 0)
      skip = 5;
    else if (end - q > 9 && memcmp(q, "\"table\":", 8) == 0)
      skip = 8;
    else
      continue;
    const char *d = q + skip;
    uint64_t id = 0;
    while (d < end && *d >= '0' && *d <= '9') id = id * 10 + (uint64_t)(*d++ - '0');
    if (d == q + skip || seen_reserve(seen, id) != 0) continue;
    if (!seen->v[id]) seen->v[id] = (uint64_t)now;
    q = d - 1;
  }
}

/* The flooder's replies: counted as created or refused. */
static void flooder_message(worker *w, peer *p, const char *text, size_t len) {
  if (!p->welcomed) {
    json_t *msg = json_loadb(text, len, 0, NULL);
    const char *type = json_string_value(json_object_get(msg, "type"));
    const char *token = json_string_value(json_object_get(msg, "player_token"));
    if (type && strcmp(type, "welcome") == 0) {
      if (token) snprintf(p->token, sizeof p->token, "%s", token); /* to come back as the same player */
      p->welcomed = true;
      w->connecting--;
    }
    json_decref(msg);
    return;
  }
  if (strstr(text, "\"type\":\"created\"")) {
    w->r->flood_created++;
  } else if (strstr(text, "\"type\":\"error\"")) {
    w->r->flood_refused++;
    if (!w->r->flood_refusal[0]) snprintf(w->r->flood_refusal, sizeof w->r->flood_refusal, "%s", text);
  }
}

/* ws.h's message callback: hands the message to its peer's role. */
static void on_message(void *user, ws_conn *c, char *text, size_t len) {
  peer *p = (peer *)c;
  worker *w = user;
  const int64_t now = load_now_us();
  switch (p->role) {
  case ROLE_PLAYER:
    player_message(w, p, text, len, now);
    break;
  case ROLE_LISTENER:
    listener_message(w, p, text, len, now);
    break;
  case ROLE_FLOODER:
    flooder_message(w, p, text, len);
    break;
  }
}

/* Connects a peer and says hello (queued until the upgrade is answered): a player to its
 * table's server (the run's tables are dealt over its servers in turn), the others to the first. */
static void peer_connect(worker *w, peer *p) {
  memset(&p->ws, 0, sizeof p->ws);
  p->welcomed = false;
  p->connected = true;
  w->connecting++;
  const int table_index = p->role == ROLE_PLAYER ? w->a->table_from + (int)(p->table - w->tables) : 0;
  const ws_target *target = &w->run->targets[table_index % w->run->ntargets];
  if (ws_connect(&p->ws, target, w->epfd, p, w->rng ^ (uint64_t)(p - w->peers) << 20) != 0) {
    char why[160];
    snprintf(why, sizeof why, "cannot connect: %s", p->ws.close_reason);
    give_up(w, why);
  }
}

/* Sends a peer's hello once its upgrade was answered. */
static void peer_hello(peer *p, int index) {
  char text[128];
  if (p->role == ROLE_FLOODER && p->token[0])
    snprintf(text, sizeof text, "{\"type\":\"hello\",\"player_token\":\"%s\"}", p->token);
  else
    snprintf(text, sizeof text, "{\"type\":\"hello\",\"name\":\"%s%d\"}",
             p->role == ROLE_PLAYER ? "load" : p->role == ROLE_LISTENER ? "lobby" : "flood", index);
  send_text(p, text);
}

/* A peer's connection ended: during set-up that ends the run; later it is counted. */
static void peer_closed(worker *w, peer *p) {
  worker_result *r = w->r;
  if (p->role == ROLE_FLOODER && (p->welcomed || p->token[0])) {
    r->flood_closed++; /* an attacker comes back at once */
    p->reconnect_us = load_now_us() + 100000;
    if (!p->welcomed) w->connecting--;
    ws_close(&p->ws);
    return;
  }
  if (!p->welcomed || (p->role == ROLE_PLAYER && atomic_load(&w->run->phase) == PHASE_SETUP)) {
    char why[160];
    snprintf(why, sizeof why, "a %s connection failed during set-up: %s",
             p->role == ROLE_LISTENER ? "listener's" : "player's", p->ws.close_reason);
    give_up(w, why);
  }
  if (p->role == ROLE_PLAYER) {
    r->players_closed++;
    p->table->phase = T_DEAD;
  } else {
    r->listeners_closed++; /* a server that cannot keep up with the lobby closes listeners */
    if (!p->listening) atomic_fetch_add(&w->run->listeners_ready, 1); /* settled: none to wait for */
  }
  if (!r->close_reason[0]) snprintf(r->close_reason, sizeof r->close_reason, "%s", p->ws.close_reason);
  ws_close(&p->ws);
}

/* Sends the creates that are due at the flood's rate, while the socket keeps up. */
static void flood(worker *w, peer *p, int64_t now) {
  if (p->ws.state == WS_CLOSED && p->reconnect_us && now >= p->reconnect_us) {
    p->reconnect_us = 0;
    peer_connect(w, p);
  }
  if (!p->welcomed || p->ws.state != WS_OPEN || !measuring(w)) return;
  const int64_t begin = atomic_load(&w->run->begin_us);
  const long due = (long)((double)w->run->flood_rate * (double)(now - begin) / 1e6);
  while (w->r->flood_sent < due && ws_pending(&p->ws) < FLOOD_BACKLOG && p->ws.state == WS_OPEN) {
    send_text(p, "{\"type\":\"create\",\"rules\":\"\"}");
    w->r->flood_sent++;
  }
}

/* Starts more connections while fewer than MAX_CONNECTING are under way. Listeners and the
 * flooder come after every table of the run plays: the lobby is measured in the steady state,
 * not while hundreds of tables are set up at once. */
static void ramp(worker *w) {
  const bool all_playing = atomic_load(&w->run->tables_playing) == w->run->tables;
  while (w->next_connect < w->npeers && w->connecting < MAX_CONNECTING &&
         (w->peers[w->next_connect].role == ROLE_PLAYER || all_playing))
    peer_connect(w, &w->peers[w->next_connect++]);
}

/* Tries again the tables whose last try was refused, and sends the moves whose thinking
 * time is over. */
static void table_timers(worker *w, int64_t now) {
  for (int i = 0; i < w->ntables; i++) {
    table *t = &w->tables[i];
    if (t->phase == T_RETRY && now >= t->retry_us) table_create(t);
    if (t->mover && now >= t->move_due_us) send_move(w, t);
  }
}

/* Lays out the worker's tables and peers: players, listeners, then the flooder. */
static int worker_init(worker *w, worker_args *a) {
  memset(w, 0, sizeof *w);
  w->a = a;
  w->run = a->run;
  w->r = &a->result;
  w->rng = a->seed | 1;
  w->ntables = a->table_to - a->table_from;
  w->npeers = 4 * w->ntables + a->nlisteners + (a->flooder ? 1 : 0);
  w->epfd = epoll_create1(EPOLL_CLOEXEC);
  w->tables = calloc((size_t)w->ntables + 1, sizeof *w->tables);
  w->peers = calloc((size_t)w->npeers + 1, sizeof *w->peers);
  w->r->seen = calloc((size_t)a->nlisteners + 1, sizeof *w->r->seen);
  w->r->nlisteners = a->nlisteners;
  if (w->epfd < 0 || !w->tables || !w->peers || !w->r->seen) return -1;
  for (int i = 0; i < w->npeers; i++) {
    peer *p = &w->peers[i];
    p->w = w;
    p->ws.fd = -1;
    if (i < 4 * w->ntables) {
      p->role = ROLE_PLAYER;
      p->table = &w->tables[i / 4];
      p->k = i % 4;
      p->table->p[p->k] = p;
    } else if (i < 4 * w->ntables + a->nlisteners) {
      p->role = ROLE_LISTENER;
      p->listener = i - 4 * w->ntables;
    } else {
      p->role = ROLE_FLOODER;
      w->flooder = p;
    }
  }
  return 0;
}

/* Counts the tables that have had no state for STALL_US: a game the run could not finish. */
static void count_stalled(worker *w, int64_t now) {
  for (int i = 0; i < w->ntables; i++) {
    const table *t = &w->tables[i];
    if (t->phase != T_DEAD && t->started_once && now - t->last_state_us > STALL_US) w->r->stalled++;
  }
}

void *load_worker(void *arg) {
  worker_args *a = arg;
  worker w;
  if (worker_init(&w, a) != 0) {
    give_up(&w, "out of memory or descriptors for a worker");
    return NULL;
  }
  struct epoll_event events[256];
  while (atomic_load(&w.run->phase) != PHASE_STOP && !atomic_load(&w.run->failed)) {
    ramp(&w);
    const bool timers = w.run->think_us || (w.flooder && measuring(&w)); /* ms matters to them */
    const int n = epoll_wait(w.epfd, events, 256, timers ? 1 : 20);
    for (int i = 0; i < n; i++) {
      peer *p = events[i].data.ptr;
      const ws_state before = p->ws.state;
      if (ws_handle(&p->ws, events[i].events, on_message, &w) != 0) {
        peer_closed(&w, p);
        continue;
      }
      if (before == WS_HANDSHAKE && p->ws.state == WS_OPEN) peer_hello(p, a->index * 100000 + (int)(p - w.peers));
    }
    const int64_t now = load_now_us();
    table_timers(&w, now);
    if (w.flooder) flood(&w, w.flooder, now);
  }
  count_stalled(&w, load_now_us());
  for (int i = 0; i < w.npeers; i++) ws_close(&w.peers[i].ws);
  close(w.epfd);
  free(w.tables);
  free(w.peers);
  return NULL;
}
