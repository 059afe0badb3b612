// Multi-round Congkak as the rule texts describe it (the "multiple round
// option"); the engine plays a match (CongkakMatch), the solver's
// MatchSolver solves one.
//
// A round is ordinary Congkak (CongkakRules).  When it ends, every house has
// been emptied into its owner's store; each player then refills their own
// holes from their store, n seeds a hole, in sowing order from pit 1 — a hole
// that cannot get a full n is burnt for the round and the seeds left over stay
// in the store.  The loser of the round starts the next one (after a tied
// round, the player who did not start the last one).  The match ends when a
// player cannot fill a single hole: that player loses.  Burnt holes hold
// nothing, so a capture opposite one takes nothing from it.
//
// The three rules between rounds are the free functions below, written once
// for CongkakMatch and the MatchSolver.
#pragma once

#include "mancala/position.hpp"
#include "mancala/rules.hpp"
#include "mancala/ruleset.hpp"

namespace mancala {

// A player holding fewer than n stones cannot fill a hole: the match is over.
bool congkak_match_over(int south_stones, int north_stones, int seeds_per_hole);

// Who starts the round after one that left these stones: its loser; after a
// tie, the player who did not start it (for a first round with the
// simultaneous opening, "started" means moved first once the opening was over).
Side next_round_starter(int south_stones, int north_stones, Side round_starter);

// The start position of a round: each player fills their own holes from the
// stones they hold, n a hole in sowing order from pit 1; a hole that cannot get
// n is burnt; leftovers stay in the store.  `starter` is to move.
Position congkak_round_start(int pits_per_side, int seeds_per_hole, int south_stones, int north_stones, Side starter);

class CongkakMatch {
 public:
  // Throws InputError unless `rules` is congkak and the board fits the engine.
  CongkakMatch(const Ruleset& rules, int pits_per_side, int seeds_per_hole);

  const Position& position() const { return position_; }
  int round() const { return round_; }
  bool over() const { return over_; }
  Side round_starter() const { return starter_; }
  int seeds_of(Side s) const { return position_.store_of(s) + row_of(s); }

  // Plays a legal pit (1-based; throws InputError otherwise) and, if that
  // ends the round, sets up the next one or ends the match.
  MoveResult play(int pit);

 private:
  int row_of(Side s) const;
  void next_round();

  Ruleset rules_;
  int seeds_per_hole_;
  Position position_;
  int round_ = 1;
  bool over_ = false;
  Side starter_ = Side::South;
};

}  // namespace mancala
