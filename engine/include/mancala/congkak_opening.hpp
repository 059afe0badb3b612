// Congkak's simultaneous opening, as the rule texts describe the first round:
// both players choose a hole at the same time and their two hands sow at once.
//
// The texts leave the timing open; this is the lock-step model
// (OpeningTiming::LockStep, the only one so far; docs/DESIGN.md, section 10):
//  * Both hands drop one stone per tick.  Within a tick South's drop is
//    placed and resolved first, then North's, so a hole both reach in one
//    tick sees South's stone first.
//  * A hand's path is its own holes from pit 1, its own store, the
//    opponent's holes from pit 1, its own pit 1 again; it skips the
//    opponent's store and burnt holes.
//  * The last stone of a hand resolves at its drop: on a hole that held
//    stones, the hand lifts them all (the one just dropped included) and
//    drops the first at the next tick; on an empty hole of its own row it
//    captures as `congkak_capture` says (the lander and the opposite hole go
//    to its store) and is done; on an empty hole of the other row it is done;
//    in its own store it chooses a new hole at the end of the tick.
//  * At the end of a tick every hand in its store chooses, knowing the whole
//    board: a hand whose row is empty then is done instead; one chooser is
//    an ordinary decision; two choose simultaneously.  A chosen hole is
//    emptied into the hand at once and its first stone drops at the next
//    tick.  The start of the opening is the end of tick 0, both choosing.
//  * A row that empties does not stop the opening; when both hands are done,
//    the player whose hand was done at the earlier tick moves first (South
//    if both were done in the same tick) and alternating play begins.
//
// The opening is finite: a hand's travel between two visits of its own store
// is shorter than one lap, and each visit adds a stone to a store that never
// loses one.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "mancala/position.hpp"
#include "mancala/ruleset.hpp"

namespace mancala {

enum class OpeningTiming { LockStep };
std::string opening_timing_name(OpeningTiming t);
// Throws InputError naming the unknown timing.
OpeningTiming parse_opening_timing(const std::string& name);

struct OpeningHand {
  enum class Phase : std::uint8_t { Choosing, Sowing, Done };
  Phase phase = Phase::Choosing;
  // Where the hand dropped its last stone (a Spot, see below) and how many it
  // still holds; meaningful while sowing.
  std::uint8_t at = 0;
  std::uint8_t in_hand = 0;
  friend bool operator==(const OpeningHand&, const OpeningHand&) = default;
};

// A state of the opening between ticks.  The board is a Position with South
// to move, i.e. absolute: pits[0..m) South's row, pits[m..2m) North's row,
// store[0] South's, store[1] North's, burnt absolute too.
struct OpeningState {
  Position board;
  std::array<OpeningHand, 2> hand{};  // indexed by Side
  // The first hand to be done (South when both were done in one tick); only
  // meaningful once a hand is done.
  Side first_done = Side::South;
  bool any_done = false;

  bool over() const { return hand[0].phase == OpeningHand::Phase::Done && hand[1].phase == OpeningHand::Phase::Done; }
  bool choosing(Side s) const { return hand[std::size_t(s)].phase == OpeningHand::Phase::Choosing; }
  friend bool operator==(const OpeningState&, const OpeningState&) = default;
};

// Spots of the absolute board a hand can drop into: pits 0..2m-1, then the
// stores.
inline constexpr int kSouthStoreSpot = 2 * kMaxPitsPerSide;
inline constexpr int kNorthStoreSpot = 2 * kMaxPitsPerSide + 1;

class CongkakOpening {
 public:
  // Throws InputError unless `rules` is Congkak.
  explicit CongkakOpening(const Ruleset& rules, OpeningTiming timing = OpeningTiming::LockStep);

  // Both hands about to choose on `board` (to_move is ignored; the board is
  // taken as it stands, burnt holes included).  A side whose row is empty is
  // done at once.
  OpeningState start(const Position& board) const;

  // Holes side s may choose now (bit h-1 for its pit h); 0 unless choosing.
  MoveMask choices(const OpeningState& s, Side side) const;

  // Applies the choices of every choosing side (1-based pits; 0 for a side
  // that is not choosing) and runs ticks until the next choice or the end of
  // the opening.  Throws InputError on a missing or illegal choice.  Each
  // event (relay, capture, store, done) is appended to `log` if given.
  void advance(OpeningState& s, int south_hole, int north_hole, std::vector<std::string>* log = nullptr) const;

  // The position handed to alternating play once over(): the board with the
  // first player to be done to move.  The end-of-round test is the caller's
  // (the round is over at once when a row is empty).
  static Position handover(const OpeningState& s);

 private:
  int next_spot(Side side, int spot, const Position& b) const;
  // Drops one stone of side's hand; true if the hand was done by it.
  bool drop(OpeningState& s, Side side, int tick, std::vector<std::string>* log) const;
  void end_of_tick(OpeningState& s, int tick, bool done_this_tick[2], std::vector<std::string>* log) const;

  Ruleset rules_;
};

}  // namespace mancala
