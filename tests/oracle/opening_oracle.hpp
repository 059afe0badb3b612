// The brute-force oracle of Congkak's simultaneous opening (lock-step model).
// A plain, separate implementation written from the model text below; it uses
// only oracle.hpp, the standard library and Boost.Multiprecision (exact
// rationals), nothing of the engine or the solver.
//
// The model.  Both players make their first move at the same time.
//  - Each hand sows one stone per tick.  A hand's path: its own holes pit 1..m,
//    its own store, the opponent's holes pit 1..m, its own pit 1 again, ...;
//    never the opponent's store; burnt holes are skipped.  (South: S1..Sm,
//    S-store, N1..Nm, S1...; North: N1..Nm, N-store, S1..Sm, N1...)
//  - Within a tick South's drop is placed and fully resolved first, then
//    North's.
//  - A hand's last stone is a landing, resolved at that drop:
//      own store        -> the hand chooses a new hole at the end of the tick;
//      hole now >= 2    -> relay: lift every stone there (hole becomes 0), the
//                          next drop (next tick) is at the next spot after it;
//      empty own hole   -> capture (needs_opposite = false: lander + opposite
//                          hole to the store, even if the opposite is empty;
//                          needs_opposite = true: only if the opposite holds
//                          stones, else the lander stays); the hand is done;
//      empty hole on the opponent's side -> the hand is done.
//  - End of tick: every hand that landed in its own store this tick (and both
//    hands at the root, "end of tick 0") chooses; a chooser whose own row is
//    empty at that moment is done at this tick instead.  One chooser: an
//    ordinary decision (South maximizes, North minimizes South's value).  Two
//    choosers: a simultaneous zero-sum matrix game (rows South's nonempty
//    holes, columns North's), optimal mixed strategies.  Each chosen hole is
//    emptied into its hand (both after both choices); its first stone drops at
//    the next tick into the next spot after the hole.
//  - A done hand stops; the other keeps sowing alone until it is done too.
//  - Both done: the player whose hand was done at the earlier tick moves first
//    in the alternating game that follows (South on a tie).  The hand-over
//    position is the board with stores and that player to move; it is valued
//    by a leaf function (by default: if either row is empty, every hole goes to
//    its owner's store and the value is South store - North store; otherwise
//    the exact alternating Congkak value, converted to South's view).
//
// Values are exact rationals: South's expected final store difference.
#pragma once

#include <boost/multiprecision/cpp_int.hpp>
#include <functional>
#include <string>
#include <vector>

#include "oracle/oracle.hpp"

namespace oracle {

using Fraction = boost::multiprecision::cpp_rational;

// "p/q" in lowest terms with q > 0, or "p" when q == 1 (e.g. "-7/3", "4", "0").
std::string fraction_text(const Fraction& f);

// Value of the zero-sum matrix game a[row][col] (the row player maximizes,
// the column player minimizes), exact.  Throws std::invalid_argument if the
// matrix is empty or ragged.
Fraction matrix_game_value(const std::vector<std::vector<Fraction>>& a);

// An optimal strategy pair with the value: row[i], col[j] are probabilities.
struct MatrixGameSolution {
  Fraction value;
  std::vector<Fraction> row;
  std::vector<Fraction> col;
};
// Solved by support enumeration with exact Gaussian elimination (see
// opening_oracle.cpp); the returned pair is checked to be a saddle point.
MatrixGameSolution matrix_game_solve(const std::vector<std::vector<Fraction>>& a);

// Leaf valuation: given the hand-over Board (south_to_move = first mover,
// rows not swept), South's value.
using LeafValue = std::function<Fraction(const Board&)>;

struct OpeningResult {
  Fraction value;                                  // South's equilibrium value
  // [south hole-1][north hole-1]: South's value when the opening starts with
  // that pair of first holes.  Entries whose South or North hole is empty (or
  // burnt) at the root are left 0; when one row is empty at the root (that
  // hand is done at tick 0, the other chooses alone) every entry is 0.
  std::vector<std::vector<Fraction>> root_matrix;
};

// The simultaneous opening from board `b` (both hands about to choose;
// b.south_to_move ignored), leaves valued by `leaf`.  rules.game must be
// "congkak" (std::invalid_argument otherwise).
OpeningResult opening(const Rules& rules, const Board& b, const LeafValue& leaf);

// Same with leaves valued by the end-of-round test and exact alternating play
// (a memoized negamax over oracle::play, shared by all leaves of this call):
// the expected final store difference, South minus North.
OpeningResult opening(const Rules& rules, const Board& b);

// South first chooses hole i, North hole j (1-based; both must be nonempty,
// std::invalid_argument otherwise).  Returns true and sets `handover` (the
// hand-over Board, first mover to move, rows not swept) if the opening then
// runs to its end without any further choice; returns false (handover
// untouched) as soon as a hand lands in its own store while its own row holds
// stones, i.e. a further choice arises -- even one with a single nonempty hole.
bool forced_handover(const Rules& rules, const Board& b, int i, int j, Board& handover);

}  // namespace oracle
