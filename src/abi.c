/* What a binding needs to check it matches this build: the ABI version and the size of every
 * public struct (docs/ABI.md). */
#include <string.h>

#include "goita/goita.h"

/* Every public struct, by its typedef name. */
#define GOITA_PUBLIC_STRUCTS(X)                                                                          \
  X(goita_error)                                                                                        \
  X(goita_rng)                                                                                          \
  X(goita_rules)                                                                                        \
  X(goita_rule_option)                                                                                  \
  X(goita_move)                                                                                         \
  X(goita_round_result)                                                                                 \
  X(goita_round)                                                                                        \
  X(goita_view)                                                                                         \
  X(goita_draw_result)                                                                                  \
  X(goita_game)                                                                                         \
  X(goita_solo)                                                                                         \
  X(goita_solo_memory)                                                                                  \
  X(goita_solo_action)                                                                                  \
  X(goita_record_round)                                                                                 \
  X(goita_record)                                                                                       \
  X(goita_solve_options)                                                                                \
  X(goita_solve_bounds)                                                                                 \
  X(goita_solve_result)                                                                                 \
  X(goita_player_info)                                                                                  \
  X(goita_batch_options)                                                                                \
  X(goita_batch_arrays)                                                                                 \
  X(goita_puzzle)                                                                                       \
  X(goita_hint_reason)                                                                                  \
  X(goita_hint_move)                                                                                    \
  X(goita_hint)

int goita_abi_version(void) { return GOITA_ABI_VERSION; }

size_t goita_struct_size(const char *name) {
  if (!name) return 0;
#define GOITA_STRUCT_SIZE(type)                                                                        \
  if (strcmp(name, #type) == 0) return sizeof(type);
  GOITA_PUBLIC_STRUCTS(GOITA_STRUCT_SIZE)
#undef GOITA_STRUCT_SIZE
  return 0;
}
