// Position notation: `<south row>/<north row> <south store>-<north store> <s|n>`.
//
// Each row is comma-separated in its owner's sowing order (pit 1 farthest from
// the owner's store), so south pit i faces north pit m+1-i; `x` marks a burnt
// hole.  Kalah(6,4) start: `4,4,4,4,4,4/4,4,4,4,4,4 0-0 s`.
//
// The grammar is strict (single spaces, no signs, no leading zeros), so every
// accepted string prints back identically: parse and format are inverse.
#pragma once

#include <string>

#include "mancala/position.hpp"
#include "mancala/ruleset.hpp"

namespace mancala {

// Throws InputError naming the problem.
Position parse_position(const std::string& text);
std::string format_position(const Position& p);

// Checks that a position is playable under a ruleset (burnt holes only in
// Congkak); throws InputError.
void validate_for(const Ruleset& rules, const Position& p);

// A board diagram for people: North's row on top, read right to left.
std::string diagram(const Position& p);

}  // namespace mancala
