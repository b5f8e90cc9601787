/* The Ko shogi search's parts: the capture-only generator the quiescence search uses (the
 * same captures as the full generator, in its order), and the searcher's controls (stop,
 * node and depth limits, the table's size, the best line). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "koshogi/koshogi.h"

static bool same(const ks_move *a, const ks_move *b) {
  return a->from == b->from && a->to == b->to && a->ncap == b->ncap && a->nshot == b->nshot &&
         a->promote == b->promote && memcmp(a->cap, b->cap, sizeof a->cap) == 0 &&
         memcmp(a->shot, b->shot, sizeof a->shot) == 0;
}

/* Over a 400-ply random game, the capture generator lists exactly the full generator's moves
 * that capture or shoot, in the same order. */
Test(koshogi_search, capture_generator_matches_the_full_one) {
  static ks_move all[KS_MAX_MOVES], captures[KS_MAX_MOVES];
  ks_position pos;
  ks_start(&pos);
  uint64_t r = 4242;
  long compared = 0;
  for (int ply = 0; ply < 400; ply++) {
    const int n = ks_legal_moves(&pos, all, KS_MAX_MOVES);
    if (n == 0) break;
    const int nc = ks__capture_moves(&pos, captures, KS_MAX_MOVES);
    int k = 0;
    for (int i = 0; i < n; i++) {
      if (!all[i].ncap && !all[i].nshot) continue;
      cr_assert_lt(k, nc, "ply %d: the capture generator has %d moves, the full one more", ply, nc);
      cr_assert(same(&all[i], &captures[k]), "ply %d: capture %d differs", ply, k);
      k++;
    }
    cr_assert_eq(k, nc, "ply %d: %d captures in the full list, %d from the capture generator", ply, k, nc);
    compared += nc;
    r = r * 6364136223846793005u + 1442695040888963407u;
    ks_play(&pos, &all[(r >> 33) % (uint64_t)n]);
  }
  cr_assert_gt(compared, 1000);
}

/* A stopped searcher still answers with a legal move; clearing the stop lets it search. */
Test(koshogi_search, stop_and_limits) {
  ks_searcher *s = ks_searcher_new(1);
  cr_assert_not_null(s);
  ks_position pos;
  ks_start(&pos);
  ks_move best;
  ks_search_info info;
  ks_searcher_set_stop(s, true);
  cr_assert_eq(ks_searcher_run(s, &pos, NULL, 0, NULL, NULL, NULL, &best, &info), 0);
  cr_assert_eq(info.depth, 0);
  cr_assert_leq(info.nodes, 1);
  static ks_move moves[KS_MAX_MOVES];
  const int n = ks_legal_moves(&pos, moves, KS_MAX_MOVES);
  bool found = false;
  for (int i = 0; i < n; i++) found |= same(&moves[i], &best);
  cr_assert(found, "a stopped search's move is legal");
  ks_searcher_set_stop(s, false);
  const ks_limits nodes = {.nodes = 2000};
  cr_assert_eq(ks_searcher_run(s, &pos, NULL, 0, &nodes, NULL, NULL, &best, &info), 0);
  cr_assert_leq(info.nodes, 2000);
  cr_assert_geq(info.depth, 1);
  const ks_limits depth = {.depth = 2};
  cr_assert_eq(ks_searcher_run(s, &pos, NULL, 0, &depth, NULL, NULL, &best, &info), 0);
  cr_assert_eq(info.depth, 2);
  cr_assert_geq(info.seldepth, 2);
  cr_assert_geq(info.npv, 2, "the best line has the reply to ponder on");
  cr_assert(same(&info.pv[0], &best));
  cr_assert_eq(ks_searcher_resize(s, 0), -1);
  cr_assert_eq(ks_searcher_resize(s, KS_HASH_MAX_MIB + 1), -1);
  cr_assert_eq(ks_searcher_resize(s, 2), 0);
  ks_searcher_free(s);
}

/* The move a searcher finds to the given depth from a position's text, written out. */
static void best_move_text(const char *position, int depth, char *text) {
  ks_position pos;
  char err[128];
  cr_assert_eq(ks_position_parse(position, &pos, NULL, err, sizeof err), 0, "%s", err);
  ks_searcher *s = ks_searcher_new(1);
  cr_assert_not_null(s);
  const ks_limits limits = {.depth = depth};
  ks_move best;
  cr_assert_eq(ks_searcher_run(s, &pos, NULL, 0, &limits, NULL, NULL, &best, NULL), 0);
  cr_assert_gt(ks_move_format(&pos, &best, text, KS_MOVE_TEXT), 0);
  ks_searcher_free(s);
}

/* The capture search plays out the exchange on a point (a chariot moves five points along a
 * line, a chariot unit any number): a lone pawn is taken; a pawn defended by White's chariot
 * on 10c and attacked by two Black chariots is taken (won in the capture search's second
 * ply); with White's chariot unit behind the chariot it is left, since the unit retakes in the
 * third ply, where only recaptures are tried. */
Test(koshogi_search, an_exchange_on_a_point_is_played_out) {
  char text[KS_MOVE_TEXT];
  best_move_text("9g9/19/19/19/19/19/9p9/19/19/9CH9/19/19/19/19/19/19/19/19/9G9 b 1", 1, text);
  cr_assert_str_eq(text, "CHx10g", "the lone pawn is taken");
  best_move_text("9g9/19/9ch9/19/19/19/9p9/19/19/9CH9/19/9CH9/19/19/19/19/19/19/9G9 b 1", 1, text);
  cr_assert_str_eq(text, "CHx10g", "the pawn defended once and attacked twice is taken");
  best_move_text("9g9/9cu9/9ch9/19/19/19/9p9/19/19/9CH9/19/9CH9/19/19/19/19/19/19/9G9 b 1", 1, text);
  cr_assert_str_neq(text, "CHx10g", "the pawn defended twice and attacked twice is left");
}

/* Two plies from the start, the search's work in nodes: refutations tried before captures that
 * are at best trades, and only recaptures from the capture search's third ply on, keep it under
 * 8,000 nodes (6,762; 21,832 with neither, 18,874 with the order alone, 11,364 with the
 * recaptures alone). Node counts do not depend on the machine, so this holds everywhere. */
Test(koshogi_search, two_plies_from_the_start_take_few_nodes) {
  ks_searcher *s = ks_searcher_new(1);
  cr_assert_not_null(s);
  ks_position pos;
  ks_start(&pos);
  const ks_limits limits = {.depth = 2};
  ks_move best;
  ks_search_info info;
  cr_assert_eq(ks_searcher_run(s, &pos, NULL, 0, &limits, NULL, NULL, &best, &info), 0);
  cr_assert_eq(info.depth, 2);
  cr_assert_lt(info.nodes, 8000, "two plies from the start took %ld nodes", info.nodes);
  ks_searcher_free(s);
}
