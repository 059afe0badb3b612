// Board values of chosen positions of an acyclic level (Kalah, BrainKing,
// Congkak), each from one ply: the exits to lower levels read from those
// levels, the in-level successors from the level's own values, which must be
// known already (see phi_buckets.hpp for an order that guarantees it).  The
// same negamax as LevelValues::solve_acyclic(), for builders that split a
// level between processes.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "mancala/rules.hpp"
#include "mancala/valuation.hpp"
#include "mancala/tables/board_index.hpp"
#include "mancala/tables/value_encoding.hpp"

namespace mancala::tables {

// out[i] = board value of rank ranks[i] of level k.  lower(seeds) points at
// the values of a lower level; level points at level k's values, where every
// in-level successor of the positions asked for must be known (a successor
// still kUnknownValue is a logic error, thrown).
template <class R, class Rank, class Value>
void solve_acyclic_positions_with(const BoardIndex& index, int m, int k, const Value& value, std::span<const Rank> ranks,
                                  std::int8_t* out);

template <class R, class Lower, class Rank>
void solve_acyclic_positions(const BoardIndex& index, int m, int k, const Lower& lower, const std::int8_t* level,
                             std::span<const Rank> ranks, std::int8_t* out) {
  solve_acyclic_positions_with<R>(
      index, m, k, [&](int seeds, std::uint64_t rank) -> int { return seeds < k ? lower(seeds)[rank] : level[rank]; }, ranks, out);
}

// solve_acyclic_positions() with every successor's value from
// value(seeds, rank) (lower levels and level k alike), for a builder that
// holds only slices of the levels.
template <class R, class Rank, class Value>
void solve_acyclic_positions_with(const BoardIndex& index, int m, int k, const Value& value, std::span<const Rank> ranks,
                                  std::int8_t* out) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, ranks.size(), 256), [&](const tbb::blocked_range<std::size_t>& r) {
    Position p;
    p.pits_per_side = std::uint8_t(m);
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      index.unrank(ranks[i], k, p.pits.data());
      int best;
      if (R::is_terminal(p)) {
        best = finished_board_value(p);
      } else {
        best = kBelowEveryValue;
        for (MoveMask rest = R::legal_moves(p); rest; rest &= rest - 1) {
          Position c = p;
          const MoveResult res = R::play(c, std::countr_zero(rest));
          const int delta = move_gain(c, res.extra_turn, 0);
          int v = 0;
          if (!res.game_over) {
            const int cs = c.board_seeds();
            const std::uint64_t cr = index.rank(c.pits.data(), cs);
            v = value(cs, cr);
            if (cs == k && v == kUnknownValue)
              throw std::logic_error("acyclic level " + std::to_string(k) + ": successor " + std::to_string(cr) + " of " +
                                     std::to_string(ranks[i]) + " is not known yet");
          }
          best = std::max(best, move_value(res.extra_turn, delta, v));
        }
      }
      out[i] = std::int8_t(best);
    }
  });
}

}  // namespace mancala::tables
