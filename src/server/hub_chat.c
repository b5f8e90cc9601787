/* A chat at each table (docs/SERVER.md, "Chat"): plain-text lines from those seated or watching,
 * checked by the protocol (length, control characters), limited per connection by a token
 * bucket on the hub's clock, and sent to everyone at the table. The last lines are kept in
 * memory for those who come later; they are not stored. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_chat.h"
#include "hub_requests.h"
#include "hub_send.h"

#define CHAT_LINES 50

typedef struct chat_line {
  int seat; /* -1: a spectator */
  char name[SRV_NAME_SIZE];
  bool bot_account; /* said by a program's account: shown as a bot's */
  char *text;
} chat_line;

/* The last CHAT_LINES lines, a ring: lines[first] is the oldest. */
struct hub_chat {
  chat_line lines[CHAT_LINES];
  int first, count;
};

void hub_chat_free(hub_table *t) {
  if (!t->chat) return;
  for (int i = 0; i < t->chat->count; i++) free(t->chat->lines[(t->chat->first + i) % CHAT_LINES].text);
  free(t->chat);
  t->chat = NULL;
}

/* Keeps a line for those who come later, dropping the oldest past CHAT_LINES. Returns -1 when
 * out of memory. */
static int keep_line(hub_table *t, int seat, const char *name, bool bot_account, const char *text) {
  if (!t->chat && !(t->chat = calloc(1, sizeof *t->chat))) return -1;
  char *copy = strdup(text);
  if (!copy) return -1;
  struct hub_chat *chat = t->chat;
  chat_line *line;
  if (chat->count == CHAT_LINES) {
    line = &chat->lines[chat->first];
    free(line->text);
    chat->first = (chat->first + 1) % CHAT_LINES;
  } else {
    line = &chat->lines[(chat->first + chat->count++) % CHAT_LINES];
  }
  line->seat = seat;
  snprintf(line->name, sizeof line->name, "%s", name);
  line->bot_account = bot_account;
  line->text = copy;
  return 0;
}

/* Takes one line from a client's token bucket (GCRA: the bucket is the time its debt is paid):
 * chat_burst lines at once, then one every chat_interval_ms. Returns 0, or how many
 * milliseconds to wait. */
static int64_t take_token(srv_hub *h, hub_client *c) {
  const int64_t now = h->io.now_ms(h->io.ctx), interval = h->options.chat_interval_ms;
  const int64_t due = c->chat_due_ms > now ? c->chat_due_ms : now;
  const int64_t over = due - now - (int64_t)(h->options.chat_burst - 1) * interval;
  if (over > 0) return over;
  c->chat_due_ms = due + interval;
  return 0;
}

/* chat: a line to everyone at the sender's table, as {"type":"chat","table","from","seat","text"}. */
void hub_do_chat(srv_hub *h, hub_client *c, const srv_request *r) {
  hub_table *t = hub_table_get(h, r->table);
  if (!t || c->table != r->table) {
    hub_send_error(h, c->id, "chat", SRV_ERR_NOT_AT_TABLE, "you are not at table %lld: sit or watch there to chat",
                   (long long)r->table);
    return;
  }
  const int64_t wait = take_token(h, c);
  if (wait > 0) {
    hub_send_error_retry(h, c->id, "chat", SRV_ERR_RATE_LIMITED, wait,
                         "too many lines: wait %.1f s (%d at once, then one every %.1f s)", (double)wait / 1000,
                         h->options.chat_burst, h->options.chat_interval_ms / 1000.0);
    return;
  }
  if (keep_line(t, c->seat, c->name, c->bot_account, r->text) != 0) {
    hub_send_error_retry(h, c->id, "chat", SRV_ERR_SERVER_BUSY, HUB_RETRY_MEMORY_MS, "out of memory");
    return;
  }
  json_t *msg = json_pack("{s:s, s:I, s:s, s:i, s:s}", "type", "chat", "table", (json_int_t)t->id, "from", c->name,
                          "seat", c->seat, "text", r->text);
  if (msg && c->bot_account) json_object_set_new(msg, "bot_account", json_true());
  char *text = srv_json_text(msg, JSON_COMPACT);
  json_decref(msg);
  if (!text) return;
  for (int s = 0; s < players_of(t); s++)
    if (t->seats[s].client) hub_send_raw(h, t->seats[s].client, text, strlen(text));
  for (int i = 0; i < t->nwatchers; i++) hub_send_raw(h, t->watchers[i], text, strlen(text));
  free(text);
}

/* Sends a client that has just come to a table the lines said there before, oldest first, as
 * {"type":"chat_history","table","lines":[{"from","seat","text"}]}; nothing when none were. */
void hub_chat_history(srv_hub *h, const hub_table *t, uint64_t client) {
  if (!t->chat || !t->chat->count) return;
  json_t *lines = json_array();
  for (int i = 0; i < t->chat->count; i++) {
    const chat_line *line = &t->chat->lines[(t->chat->first + i) % CHAT_LINES];
    json_t *row = json_pack("{s:s, s:i, s:s}", "from", line->name, "seat", line->seat, "text", line->text);
    if (row && line->bot_account) json_object_set_new(row, "bot_account", json_true());
    json_array_append_new(lines, row);
  }
  hub_send_json(h, client,
                json_pack("{s:s, s:I, s:o}", "type", "chat_history", "table", (json_int_t)t->id, "lines", lines));
}
