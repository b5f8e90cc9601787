#include <criterion/criterion.h>

#include "goita/goita.h"

/* goita_abi_version and goita_struct_size report this build, so that bindings can check the
 * library they load against what they were written for (docs/ABI.md). */
Test(abi, the_version_is_the_header_s) {
  cr_assert_eq(goita_abi_version(), GOITA_ABI_VERSION);
  cr_assert_str_eq(goita_version(), GOITA_VERSION_STRING);
}

Test(abi, every_public_struct_has_its_size) {
#define CHECK(type) cr_assert_eq(goita_struct_size(#type), sizeof(type), #type)
  CHECK(goita_error);
  CHECK(goita_rng);
  CHECK(goita_rules);
  CHECK(goita_rule_option);
  CHECK(goita_move);
  CHECK(goita_round_result);
  CHECK(goita_round);
  CHECK(goita_view);
  CHECK(goita_draw_result);
  CHECK(goita_game);
  CHECK(goita_solo);
  CHECK(goita_solo_memory);
  CHECK(goita_solo_action);
  CHECK(goita_record_round);
  CHECK(goita_record);
  CHECK(goita_solve_options);
  CHECK(goita_solve_bounds);
  CHECK(goita_solve_result);
  CHECK(goita_player_info);
  CHECK(goita_batch_options);
  CHECK(goita_batch_arrays);
  CHECK(goita_puzzle);
  CHECK(goita_hint_reason);
  CHECK(goita_hint_move);
  CHECK(goita_hint);
#undef CHECK
}

Test(abi, other_names_have_no_size) {
  cr_assert_eq(goita_struct_size("goita_player"), 0); /* opaque: callers never see its size */
  cr_assert_eq(goita_struct_size("struct goita_round"), 0);
  cr_assert_eq(goita_struct_size(""), 0);
  cr_assert_eq(goita_struct_size(NULL), 0);
}
