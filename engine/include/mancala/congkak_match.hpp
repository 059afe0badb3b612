// Multi-round Congkak as the rule texts describe it (the "multiple round
// option"); the engine plays a match, nothing solves one yet.
//
// A round is ordinary Congkak (CongkakRules).  When it ends, every house has
// been emptied into its owner's store; each player then refills their own
// holes from their store, n seeds a hole, in sowing order from pit 1 — a hole
// that cannot get a full n is burnt for the round and the seeds left over stay
// in the store.  The loser of the round starts the next one (after a tied
// round, the player who did not start the last one).  The match ends when a
// player cannot fill a single hole; the winner holds more seeds.
#pragma once

#include "mancala/position.hpp"
#include "mancala/rules.hpp"
#include "mancala/ruleset.hpp"

namespace mancala {

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
