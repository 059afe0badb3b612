// Fuzz target: the move order's text form (solver/include/mancala/solver/
// move_order.hpp, `solve --move-order`, Python's move_order=).
//
// The input is the text of an order.  Every input must either be refused
// with InputError or parse to weights that
//  - check_move_order accepts (within the bounds),
//  - print back to exactly the input, and re-parse equal,
// and then, with those weights at every kind of node, every child a board
// of the engine's limits can have (any gain, pit, replies and material,
// with and without an extra turn) scores below every child of known value
// and inside the sort key's 29 bits, without an overflow (UBSan in the
// sanitizer and fuzz builds).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.hpp"
#include "mancala/error.hpp"
#include "mancala/solver/move_order.hpp"
#include "move_sorter.hpp"

namespace mancala {
namespace {

using solver::NodeWeights;
using solver::OrderWeights;
using solver::detail::MoveSorter;
using solver::detail::OrderChild;

void check_scores(const NodeWeights& w, const std::string& input) {
  const int least_known = MoveSorter::order(w, {.pit = 0, .exact = true, .exact_value = -kMaxSeeds, .extra_turn = false,
                                                .gain = 0, .replies = 0, .material = 0});
  for (const bool extra : {false, true})
    for (const int gain : {-kMaxSeeds, 0, kMaxSeeds})
      for (const int pit : {0, kMaxPitsPerSide - 1})
        for (const int replies : {0, kMaxPitsPerSide})
          for (const int material : {-kMaxSeeds, 0, kMaxSeeds}) {
            const OrderChild c{.pit = pit, .exact = false, .exact_value = 0, .extra_turn = extra, .gain = gain,
                               .replies = replies, .material = material};
            const int o = MoveSorter::order(w, c);
            FUZZ_CHECK(o < least_known, input);
            FUZZ_CHECK(o > -(1 << 28) && o < (1 << 28), input);
          }
}

}  // namespace
}  // namespace mancala

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mancala;
  const std::string input(reinterpret_cast<const char*>(data), size);
  OrderWeights w;
  try {
    w = solver::parse_move_order(input);
  } catch (const InputError&) {
    return 0;  // refused with a reason: the documented outcome for bad text
  }
  try {
    solver::check_move_order(w);
  } catch (const InputError&) {
    FUZZ_CHECK(!"parsed weights out of bounds", input);
  }
  FUZZ_CHECK(solver::format_move_order(w) == input, input);
  FUZZ_CHECK(solver::format_move_order(solver::parse_move_order(input)) == input, input);
  for (const NodeWeights* n : {&w.level_fail_low, &w.level_cut, &w.behind_fail_low, &w.behind_cut}) check_scores(*n, input);
  return 0;
}
