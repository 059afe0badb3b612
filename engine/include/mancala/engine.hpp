// Run-time entry points for callers that hold a Ruleset rather than a policy
// type: the command line, tests, other programs.  Each call dispatches once
// to the compile-time policy.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mancala/position.hpp"
#include "mancala/rules.hpp"
#include "mancala/valuation.hpp"
#include "mancala/ruleset.hpp"

namespace mancala {

MoveMask legal_moves(const Ruleset& rules, const Position& p);
bool is_terminal(const Ruleset& rules, const Position& p);

// Plays `pit` (1-based, from the mover's side).  An illegal move throws
// InputError saying why (out of range, empty, burnt, does not feed, forbidden
// grand slam, game over) and leaves p unchanged.
MoveResult apply_move(const Ruleset& rules, Position& p, int pit);

// "3,1,4" -> {3,1,4}; throws InputError on anything else.
std::vector<int> parse_move_list(const std::string& text);

// Oware's "more than half the seeds" rule: the side whose store already holds
// more than half of all seeds, if any.  The position stays playable.
enum class Decided { No, MoverWins, OpponentWins, Draw };
Decided decided(const Position& p);

// Leaf counts: result[d-1] is the number of move sequences of length d
// (every move is one ply, extra turns included; finished games have none).
std::vector<std::uint64_t> perft(const Ruleset& rules, const Position& p, int depth);

}  // namespace mancala
