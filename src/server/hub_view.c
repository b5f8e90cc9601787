/* What clients at a table are sent: a seat's or a spectator's state. Only views leave the hub
 * (hub.h). The lobby's messages are in hub_lobby.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_send.h"
#include "hub_view.h"

static void table_info(const hub_table *t, srv_table_info *info, bool spectator, int64_t now) {
  memset(info, 0, sizeof *info);
  info->id = t->id;
  info->status = t->status;
  info->rules = t->rules_text;
  info->turn_seconds = t->turn_seconds;
  info->seconds_left = t->deadline_ms ? (int)((t->deadline_ms - now + 999) / 1000) : -1;
  if (info->seconds_left < -1) info->seconds_left = 0;
  info->bank_seconds = t->clock.bank_seconds;
  info->on_timeout = t->clock.on_timeout;
  info->take_over = t->take_over;
  info->players = players_of(t);
  for (int s = 0; s < players_of(t); s++) {
    if (!t->seats[s].player) continue;
    info->seats[s].name = t->seats[s].name;
    info->seats[s].bot = t->seats[s].bot;
    info->seats[s].rating = t->seats[s].rating;
    info->seats[s].connected = t->seats[s].bot[0] || t->seats[s].client != 0;
    info->seats[s].stand_in = t->seats[s].stand_in;
    info->seats[s].bank_left = (int)((t->seats[s].bank_ms + 999) / 1000);
    info->seats[s].bot_account = t->seats[s].bot_account;
  }
  info->game_id = t->game_id;
  info->previous_round = spectator && t->previous_round[0] ? t->previous_round : NULL;
  info->invite = t->invite[0] ? t->invite : NULL; /* all at a private table got there with it */
  info->rematch.seconds_left = t->rematch.deadline_ms ? (int)((t->rematch.deadline_ms - now + 999) / 1000) : -1;
  if (info->rematch.seconds_left < -1) info->rematch.seconds_left = 0;
  info->rematch.table = t->rematch.table;
  memcpy(info->rematch.asked, t->rematch.asked, sizeof info->rematch.asked);
}

/* Sends one client the table as it may see it: a seat's view, or the observer's. */
void hub_send_state(srv_hub *h, const hub_table *t, uint64_t client, int seat) {
  srv_table_info info;
  table_info(t, &info, seat < 0, h->io.now_ms(h->io.ctx));
  /* no game was dealt: a waiting table, or one that expired waiting (its game is all zero) */
  if (t->status == SRV_WAITING || t->game.round_index == 0) {
    hub_send_text(h, client, srv_message_state(&info, seat, NULL));
    return;
  }
  goita_view view;
  goita_game_view(&t->game, seat < 0 ? GOITA_OBSERVER : seat, &view);
  hub_send_text(h, client, srv_message_state(&info, seat, &view));
}

void hub_broadcast_state(srv_hub *h, const hub_table *t) {
  for (int s = 0; s < players_of(t); s++)
    if (t->seats[s].client) hub_send_state(h, t, t->seats[s].client, s);
  for (int i = 0; i < t->nwatchers; i++) hub_send_state(h, t, t->watchers[i], -1);
}
