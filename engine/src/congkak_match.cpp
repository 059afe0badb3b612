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
  const int m = position_.m();
  const int n = seeds_per_hole_;
  if (south < n || north < n) {  // someone cannot fill a single hole
    over_ = true;
    return;
  }
  Side next = south < north ? Side::South : north < south ? Side::North : other(starter_);
  // Refill in absolute terms, then store mover-relative for `next`.
  Position p;
  p.pits_per_side = std::uint8_t(m);
  p.to_move = next;
  int stores[2] = {south, north};  // indexed by Side
  for (Side s : {Side::South, Side::North}) {
    const int base = s == next ? 0 : m;
    int& store = stores[int(s)];
    for (int i = 0; i < m; ++i) {
      if (store >= n) {
        p.pits[base + i] = std::uint8_t(n);
        store -= n;
      } else {
        p.burnt |= 1u << (base + i);
      }
    }
  }
  p.store[0] = std::uint8_t(stores[int(next)]);
  p.store[1] = std::uint8_t(stores[int(other(next))]);
  position_ = p;
  starter_ = next;
  ++round_;
}

}  // namespace mancala
