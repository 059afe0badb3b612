// Code compiled for a board's width: the builders, the distributed slices
// and the verifier specialise their inner loops for 5- and 6-pit boards.
#pragma once

#include <type_traits>

#include "mancala/position.hpp"
#include "mancala/rules.hpp"

namespace mancala::tables {

// f(std::integral_constant<int, W>{}) with W = m for the common widths 5
// and 6, else W = 0 (any width): code specialised by width knows the loop
// bounds of the rows, the sowing and the rank (a Kalah 6-pit build of 15
// seeds, one thread: 2.62 s -> 2.28 s, level_values.hpp).
template <class F>
void with_board_width(int m, F&& f) {
  if (m == 6)
    f(std::integral_constant<int, 6>{});
  else if (m == 5)
    f(std::integral_constant<int, 5>{});
  else
    f(std::integral_constant<int, 0>{});
}

// Tells the compiler that a board has Width pits a side (Width > 0; 0: any
// width), so that the loops over the pits unroll and the ruleset's move,
// inlined, is compiled for that width.
template <int Width>
[[gnu::always_inline]] inline void assume_board_width(const Position& p) {
  if constexpr (Width > 0) {
    if (p.m() != Width) __builtin_unreachable();
  }
}

// The ruleset's move on a board of Width pits a side, flattened: the move
// is inlined here and compiled for that width.  The distributed slices
// called the general move out of line (a quarter of a one-rank Kalah
// build's samples were in it); LevelValues gets the same by flattening
// its own loop (level_values.hpp).
template <class R, int Width>
[[gnu::flatten]] inline MoveResult play_at_width(Position& p, int pit) {
  assume_board_width<Width>(p);
  const MoveResult res = R::play(p, pit);
  assume_board_width<Width>(p);
  return res;
}

}  // namespace mancala::tables
