// Fuzz target: the position notation (engine/include/mancala/notation.hpp)
// and what a command does with a position it accepted.
//
// The input is the text of a position.  Every input must either be refused
// with InputError or parse to a position that
//  - is within the engine's limits (1..16 pits a side, at most 255 seeds,
//    burnt holes only on the board and empty),
//  - prints back to exactly the input and re-parses equal (the grammar is
//    strict so that parse and format are inverse),
// and then, for every ruleset, as `mancala show/moves/apply` would:
// validate_for() refuses it (InputError) only for burnt holes outside
// Congkak; otherwise its legal moves are pits of the board that hold seeds
// and are not burnt, every legal move plays (keeping every seed and leaving
// burnt holes empty, the result printing and re-parsing), and every other
// pit is refused with InputError leaving the position unchanged.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.hpp"
#include "mancala/engine.hpp"
#include "mancala/error.hpp"
#include "mancala/notation.hpp"
#include "mancala/rules.hpp"

namespace mancala {
namespace {

const Ruleset kRulesets[] = {
    {.game = Game::Kalah},
    {.game = Game::Kalah, .empty_capture = true},
    {.game = Game::BrainKing},
    {.game = Game::Oware},
    {.game = Game::Oware, .grand_slam = GrandSlam::Forbidden},
    {.game = Game::Oware, .grand_slam = GrandSlam::CaptureAll},
    {.game = Game::Congkak},
    {.game = Game::Congkak, .congkak_capture = CongkakCapture::NeedsOpposite},
};

// The limits parse_position() promises, for any position of the engine.
void check_well_formed(const Position& p, const std::string& input) {
  const int m = p.m();
  FUZZ_CHECK(m >= 1 && m <= kMaxPitsPerSide, input);
  FUZZ_CHECK(p.total_seeds() <= kMaxSeeds, input);
  for (int i = 2 * m; i < 2 * kMaxPitsPerSide; ++i) FUZZ_CHECK(p.pits[std::size_t(i)] == 0, input);
  FUZZ_CHECK((std::uint64_t(p.burnt) >> (2 * m)) == 0, input);  // 2m may be 32
  for (int i = 0; i < 2 * m; ++i)
    if ((p.burnt >> i) & 1u) FUZZ_CHECK(p.pits[std::size_t(i)] == 0, input);
}

// The text prints back and parses to the same position.
void check_round_trip(const Position& p, const std::string& input) {
  const std::string text = format_position(p);
  Position back;
  try {
    back = parse_position(text);
  } catch (const InputError&) {
    FUZZ_CHECK(!"a printed position does not parse", input);
  }
  FUZZ_CHECK(back == p, input);
}

void check_ruleset(const Ruleset& rules, const Position& p, const std::string& input) {
  try {
    validate_for(rules, p);
  } catch (const InputError&) {
    FUZZ_CHECK(p.burnt != 0 && rules.game != Game::Congkak, input);
    return;
  }
  FUZZ_CHECK(p.burnt == 0 || rules.game == Game::Congkak, input);

  const int m = p.m();
  const MoveMask legal = legal_moves(rules, p);
  const bool terminal = is_terminal(rules, p);
  FUZZ_CHECK((legal >> m) == 0, input);
  FUZZ_CHECK((legal & p.burnt) == 0, input);
  for (int i = 0; i < m; ++i)
    if ((legal >> i) & 1u) FUZZ_CHECK(p.pits[std::size_t(i)] != 0, input);
  if (terminal) FUZZ_CHECK(legal == 0, input);
  // A game that is not over has a move, except Oware's "must feed and
  // cannot", which is_terminal() covers too.
  if (!terminal) FUZZ_CHECK(legal != 0, input);

  // Pit 0 and m+1 are out of range: refused like any illegal move.
  for (int pit = 0; pit <= m + 1; ++pit) {
    Position q = p;
    const bool is_legal = pit >= 1 && pit <= m && ((legal >> (pit - 1)) & 1u);
    try {
      const MoveResult r = apply_move(rules, q, pit);
      FUZZ_CHECK(is_legal, input);
      (void)r;
    } catch (const InputError&) {
      FUZZ_CHECK(!is_legal, input);
      FUZZ_CHECK(q == p, input);
      continue;
    }
    check_well_formed(q, input);
    FUZZ_CHECK(q.total_seeds() == p.total_seeds(), input);
    // Burnt holes stay burnt and empty, wherever the turn went.
    FUZZ_CHECK(q.m() == m, input);
    for (int pit2 = 1; pit2 <= m; ++pit2)
      for (const Side s : {Side::South, Side::North}) FUZZ_CHECK(q.burnt_at(s, pit2) == p.burnt_at(s, pit2), input);
    check_round_trip(q, input);
  }
  // Two plies of every line (extra turns count as plies): sowing chains such
  // as Congkak's relay from the positions one move away.
  const auto counts = perft(rules, p, 2);
  FUZZ_CHECK(counts.size() == 2, input);
}

}  // namespace
}  // namespace mancala

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mancala;
  const std::string input(reinterpret_cast<const char*>(data), size);
  Position p;
  try {
    p = parse_position(input);
  } catch (const InputError&) {
    return 0;  // refused with a reason: the documented outcome for bad text
  }
  check_well_formed(p, input);
  FUZZ_CHECK(format_position(p) == input, input);
  check_round_trip(p, input);
  (void)diagram(p);  // fixed-width cells and buffers, any counts and widths
  for (const Ruleset& rules : kRulesets) check_ruleset(rules, p, input);
  return 0;
}
