/* Time controls (hub_clock.h): the banks, what a timed turn allows, what a move costs, and what
 * running out plays. As in shogi's 持ち時間 and 秒読み, a move is paid from the bank first
 * and the byoyomi only covers what the bank cannot, so a bank never grows back. */
#include <string.h>

#include "hub_clock.h"
#include "hub_options.h"

void hub_clock_start(hub_table *t) {
  for (int s = 0; s < GOITA_MAX_SEATS; s++) t->seats[s].bank_ms = (int64_t)t->clock.bank_seconds * 1000;
}

int hub_clock_setup(srv_hub *h, hub_table *t, int bank_seconds, int on_timeout) {
  t->clock.bank_seconds = bank_seconds;
  t->clock.on_timeout = on_timeout;
  hub_clock_start(t);
  return hub_options_save(h, t);
}

int64_t hub_clock_allowance_ms(const hub_table *t) {
  if (t->turn_seconds <= 0 && t->clock.bank_seconds <= 0) return -1;
  return t->seats[t->game.round.turn].bank_ms + (int64_t)t->turn_seconds * 1000;
}

void hub_clock_moved(srv_hub *h, hub_table *t, int seat, int64_t moved_ms) {
  hub_seat *s = &t->seats[seat];
  if (s->bank_ms <= 0) return;
  const int64_t used = moved_ms - t->clock.turn_started_ms;
  if (used <= 0) return;
  s->bank_ms = used < s->bank_ms ? s->bank_ms - used : 0;
  hub_options_save(h, t); /* a failure is logged; a restart finds the bank as last saved */
}

bool hub_clock_ran_out(srv_hub *h, hub_table *t, goita_move *pass) {
  const int seat = t->game.round.turn;
  if (t->seats[seat].bank_ms > 0) {
    t->seats[seat].bank_ms = 0;
    hub_options_save(h, t); /* a failure is logged; a restart finds the bank as last saved */
  }
  if (t->clock.on_timeout != SRV_TIMEOUT_PASS) return false;
  goita_move legal[GOITA_MAX_LEGAL];
  const int n = goita_round_legal_moves(&t->game.round, legal);
  for (int i = 0; i < n; i++)
    if (legal[i].type == GOITA_MOVE_PASS) {
      *pass = legal[i];
      return true;
    }
  return false;
}
