#include "mancala/congkak_match.hpp"

#include "mancala/engine.hpp"
#include "mancala/error.hpp"

namespace mancala {

CongkakMatch::CongkakMatch(const Ruleset& rules, int pits_per_side, int seeds_per_hole)
    : rules_(rules), seeds_per_hole_(seeds_per_hole), position_(start_position(pits_per_side, seeds_per_hole)) {
  if (rules.game != Game::Congkak) throw InputError("match mode exists only for congkak, not " + game_name(rules.game));
  if (seeds_per_hole < 1) throw InputError("a congkak match needs at least one seed a hole");
}

int CongkakMatch::row_of(Side s) const {
  int sum = 0;
  for (int pit = 1; pit <= position_.m(); ++pit) sum += position_.seeds_at(s, pit);
  return sum;
}

MoveResult CongkakMatch::play(int pit) {
  if (over_) throw InputError("move " + std::to_string(pit) + " is illegal: the match is over");
  const MoveResult r = apply_move(rules_, position_, pit);
  if (r.game_over) next_round();
  return r;
}

void CongkakMatch::next_round() {
  const int south = position_.store_of(Side::South);
  const int north = position_.store_of(Side::North);
  if (congkak_match_over(south, north, seeds_per_hole_)) {
    over_ = true;
    return;
  }
  starter_ = next_round_starter(south, north, starter_);
  position_ = congkak_round_start(position_.m(), seeds_per_hole_, south, north, starter_);
  ++round_;
}

bool congkak_match_over(int south_stones, int north_stones, int seeds_per_hole) {
  return south_stones < seeds_per_hole || north_stones < seeds_per_hole;
}

Side next_round_starter(int south_stones, int north_stones, Side round_starter) {
  if (south_stones != north_stones) return south_stones < north_stones ? Side::South : Side::North;
  return other(round_starter);
}

Position congkak_round_start(int pits_per_side, int seeds_per_hole, int south_stones, int north_stones, Side starter) {
  // Fill in absolute terms, then store mover-relative for the starter.
  const int m = pits_per_side;
  const int n = seeds_per_hole;
  Position p;
  p.pits_per_side = std::uint8_t(m);
  p.to_move = starter;
  int stones[2] = {south_stones, north_stones};  // indexed by Side
  for (Side s : {Side::South, Side::North}) {
    const int base = s == starter ? 0 : m;
    int& held = stones[int(s)];
    for (int i = 0; i < m; ++i) {
      if (held >= n) {
        p.pits[std::size_t(base + i)] = std::uint8_t(n);
        held -= n;
      } else {
        p.burnt |= 1u << (base + i);
      }
    }
  }
  p.store[0] = std::uint8_t(stones[int(starter)]);
  p.store[1] = std::uint8_t(stones[int(other(starter))]);
  return p;
}

}  // namespace mancala
