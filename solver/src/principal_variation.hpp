// The principal variation of a solved position (internal header): a line of
// moves that each keep its exact value, found by null-window searches.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

#include "mancala/rules.hpp"
#include "mancala/valuation.hpp"
#include "mancala/solver/transposition_table.hpp"
#include "search.hpp"
#include "shared_state.hpp"

namespace mancala::solver::detail {

// A line of moves (1-based pits) from p that each keep the exact board value
// `value` of p, appended to `pv` (so that a search stopped part-way, which
// throws SearchStopped, leaves the moves proven so far).
template <class R>
void principal_variation(Position p, int value, SharedState& shared, std::vector<int>& pv) {
  // Oware lines that keep the value can go round a cycle for ever: stop at
  // the first repeated position (endless play from there).
  std::vector<std::pair<std::uint64_t, Side>> seen;
  for (int ply = 0; ply < 200 && !R::is_terminal(p); ++ply) {
    const std::pair<std::uint64_t, Side> here{shared.key(p), p.to_move};
    if (std::find(seen.begin(), seen.end(), here) != seen.end()) break;
    seen.push_back(here);
    bool found = false;
    const int before = p.store_difference();
    // The table's best move almost always keeps the value: trying it first
    // spares a null-window search of every move ahead of it.
    Bounds stored{-p.board_seeds(), p.board_seeds(), -1};
    shared.tt.probe(here.first, stored);
    const MoveMask legal = R::legal_moves(p);
    int order[kMaxPitsPerSide], n = 0;
    if (stored.move >= 0 && (legal >> stored.move & 1)) order[n++] = stored.move;
    for (MoveMask rest = legal; rest; rest &= rest - 1)
      if (std::countr_zero(rest) != stored.move) order[n++] = std::countr_zero(rest);
    for (int k = 0; k < n && !found; ++k) {
      const int pit = order[k];
      Position c = p;
      const MoveResult r = R::play(c, pit);
      const int delta = move_gain(c, r.extra_turn, before);
      // The move reaches `value` iff the child's board value is exactly:
      const int need = r.extra_turn ? value - delta : delta - value;
      bool ok;
      if (r.game_over) {
        ok = delta == value;
      } else {
        // A null-window test around `need` (values are exact maxima, so
        // >= / <= suffices in the right direction).
        if (r.extra_turn)
          ok = search_root<R>(shared, c, need - 1, need) >= need;
        else
          ok = search_root<R>(shared, c, need, need + 1) <= need;
      }
      if (ok) {
        pv.push_back(pit + 1);
        p = c;
        value = r.game_over ? 0 : need;
        found = true;
      }
    }
    if (!found) break;  // cannot happen for an exact value; stop rather than loop
  }
}

}  // namespace mancala::solver::detail
