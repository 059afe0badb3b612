// level_edges GAME PITS SEEDS: the move graph of one level, for the scaling
// model (results/scaling_model.md): per position, the legal moves, the moves
// that leave the level (their values are looked up in lower levels: in a
// build whose lower levels are spread over machines, each is a remote
// lookup), the moves that stay in it, and for Oware the in-level
// predecessors (each one a predecessor update in the retrograde analysis).
// One line of JSON on stdout.  Single-threaded; meant for levels of a few
// million positions.
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "mancala/rules.hpp"
#include "mancala/tables/board_index.hpp"
#include "mancala/tables/cyclic_level.hpp"

using namespace mancala;

template <class R>
int run(const Ruleset& rules, int m, int k) {
  const tables::BoardIndex index(2 * m, k);
  std::uint64_t positions = 0, terminal = 0, moves = 0, exits = 0, in_level = 0, game_over = 0, predecessors = 0;
  Position p;
  p.pits_per_side = std::uint8_t(m);
  index.unrank(0, k, p.pits.data());
  do {
    ++positions;
    if (R::is_terminal(p)) {
      ++terminal;
      continue;
    }
    for (MoveMask rest = R::legal_moves(p); rest; rest &= rest - 1) {
      Position c = p;
      const MoveResult res = R::play(c, std::countr_zero(rest));
      ++moves;
      if (res.game_over) ++game_over;
      else if (c.board_seeds() < k) ++exits;
      else ++in_level;
    }
    if constexpr (R::game == Game::Oware) tables::for_each_in_level_predecessor<R>(p, [&](const Position&) { ++predecessors; });
  } while (index.next(p.pits.data()));
  std::printf(
      "{\"ruleset\":\"%s\",\"pits_per_side\":%d,\"seeds\":%d,\"positions\":%llu,\"terminal\":%llu,\"moves\":%llu,"
      "\"exits_to_lower_levels\":%llu,\"in_level_moves\":%llu,\"game_over_moves\":%llu,\"in_level_predecessors\":%llu}\n",
      rules.digest().c_str(), m, k, (unsigned long long)positions, (unsigned long long)terminal, (unsigned long long)moves,
      (unsigned long long)exits, (unsigned long long)in_level, (unsigned long long)game_over, (unsigned long long)predecessors);
  return 0;
}

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: level_edges GAME PITS SEEDS\n");
    return 2;
  }
  try {
    Ruleset rules = parse_digest(argv[1]);
    const int m = std::atoi(argv[2]), k = std::atoi(argv[3]);
    return dispatch(rules, [&](auto R) { return run<decltype(R)>(rules, m, k); });
  } catch (const std::exception& e) {
    std::fprintf(stderr, "level_edges: %s\n", e.what());
    return 2;
  }
}
