/* Forced runs (solver_runs.h), worked out by counting: leads whose attacks no opponent can
 * answer (the partner passes), then a final lead. */
#include <string.h>

#include "solver_moves.h"
#include "solver_runs.h"

/* The best finish (tens) the leader can force with hand count (size pieces) by a run: leads
 * whose attacks no opponent can answer (kinds in safe; the partner passes), then a final
 * lead. Returns 0 when there is none. */
static int run_value(const goita_solver *s, const uint8_t *count, int size, int kingup, unsigned safe) {
  const int need = size / 2 - 1; /* attacks before the final lead */
  int safe_pieces = 0;
  for (unsigned m = safe & ~KING_BIT; m; m &= m - 1) safe_pieces += count[__builtin_ctz(m)];
  const int kings = count[GOITA_KING];
  const bool kings_safe = (safe & KING_BIT) != 0;
  if (safe_pieces + (kings_safe ? kings : 0) < need) return 0;
  const bool face_down_kings = s->rules.king_face_down == GOITA_KING_FACE_DOWN_ALLOWED;
  int best = 0;
  for (int bf = 1; bf <= GOITA_KING; bf++) {
    if (!count[bf]) continue;
    for (int af = GOITA_KING; af >= 1; af--) {
      if (!count[af] || (af == bf && count[af] < 2)) continue;
      const int value = kind_tens[af] * (af == bf ? 2 : 1);
      if (value <= best) continue;
      const int final_kings = (bf == GOITA_KING) + (af == GOITA_KING);
      const int run_kings = kings - final_kings;
      int run_safe = safe_pieces;
      if (bf != GOITA_KING && (safe & (1u << bf))) run_safe--;
      if (af != GOITA_KING && (safe & (1u << af))) run_safe--;
      /* Kings left for the run attack (they may not go face-down) unless face-down is allowed. */
      const bool run_kings_attack =
          kings_safe && (kingup || (kings == 2 && s->rules.king_attack != GOITA_KING_ATTACK_A_OR_LAST));
      if (run_kings && !face_down_kings) {
        if (!run_kings_attack || run_kings > need || run_safe < need - run_kings) continue;
      } else if (run_safe + (run_kings_attack ? run_kings : 0) < need) {
        continue;
      }
      const int up = kingup || (run_kings && !face_down_kings);
      if (bf == GOITA_KING && !face_down_kings && af != GOITA_KING &&
          !(s->rules.king_attack == GOITA_KING_ATTACK_A_OR_B && !up))
        continue;
      if (af == GOITA_KING && !king_attack_ok(s, up, final_kings, 2)) continue;
      best = value;
    }
  }
  return best;
}

/* Kept out of line: the search calls it only when the cache (forced_run) misses. */
__attribute__((noinline)) int goita__forced_run_uncached(const goita_solver *s, const spos *p,
                                                         const hand_info *h, unsigned safe) {
  if (p->attack == 0) return run_value(s, h->count, h->size, p->kingup, safe);
  /* Answering: a defence whose attack is safe, then a run from the lead. */
  uint8_t count[GOITA_KIND_SLOTS];
  int best = 0;
  for (unsigned ds = h->held & defenders[p->attack]; ds; ds &= ds - 1) {
    const int d = __builtin_ctz(ds);
    const int up = p->kingup || d == GOITA_KING;
    for (unsigned as = attacks_after(s, h, p->kingup, d, false) & safe; as; as &= as - 1) {
      const int a = __builtin_ctz(as);
      memcpy(count, h->count, sizeof count);
      count[d]--;
      count[a]--;
      const int v = run_value(s, count, h->size - 2, up || a == GOITA_KING, safe);
      if (v > best) best = v;
    }
  }
  return best;
}
