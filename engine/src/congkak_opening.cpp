#include "mancala/congkak_opening.hpp"

#include "mancala/error.hpp"

namespace mancala {
namespace {

const char* side_name(Side s) { return s == Side::South ? "South" : "North"; }

int row_base(Side side, int m) { return side == Side::South ? 0 : m; }

bool row_empty(const Position& b, Side side) {
  const int base = row_base(side, b.m());
  for (int i = 0; i < b.m(); ++i)
    if (b.pits[std::size_t(base + i)]) return false;
  return true;
}

std::string spot_name(int spot, int m) {
  if (spot == kSouthStoreSpot) return "South's store";
  if (spot == kNorthStoreSpot) return "North's store";
  return spot < m ? "South " + std::to_string(spot + 1) : "North " + std::to_string(spot - m + 1);
}

}  // namespace

std::string opening_timing_name(OpeningTiming t) {
  switch (t) {
    case OpeningTiming::LockStep:
      return "lock-step";
  }
  return "lock-step";
}

OpeningTiming parse_opening_timing(const std::string& name) {
  if (name == "lock-step") return OpeningTiming::LockStep;
  throw InputError("unknown opening timing '" + name + "' (known: lock-step)");
}

CongkakOpening::CongkakOpening(const Ruleset& rules, OpeningTiming timing) : rules_(rules) {
  (void)timing;  // one model so far
  if (rules.game != Game::Congkak)
    throw InputError("the simultaneous opening exists only in congkak, not " + game_name(rules.game));
}

OpeningState CongkakOpening::start(const Position& board) const {
  OpeningState s;
  s.board = board;
  if (s.board.to_move == Side::North) s.board.flip();  // absolute layout
  bool done_now[2] = {false, false};
  end_of_tick(s, 0, done_now, nullptr);
  return s;
}

MoveMask CongkakOpening::choices(const OpeningState& s, Side side) const {
  if (!s.choosing(side)) return 0;
  const int m = s.board.m();
  const int base = row_base(side, m);
  MoveMask mask = 0;
  for (int i = 0; i < m; ++i)
    if (s.board.pits[std::size_t(base + i)] && !((s.board.burnt >> (base + i)) & 1u)) mask |= MoveMask(1) << i;
  return mask;
}

int CongkakOpening::next_spot(Side side, int spot, const Position& b) const {
  const int m = b.m();
  do {
    if (side == Side::South) {
      if (spot == kSouthStoreSpot) spot = m;  // North's pit 1
      else if (spot == m - 1) spot = kSouthStoreSpot;
      else if (spot == 2 * m - 1) spot = 0;
      else ++spot;
    } else {
      if (spot == kNorthStoreSpot) spot = 0;  // South's pit 1
      else if (spot == 2 * m - 1) spot = kNorthStoreSpot;
      else if (spot == m - 1) spot = m;
      else ++spot;
    }
  } while (spot < 2 * m && ((b.burnt >> spot) & 1u));
  return spot;
}

bool CongkakOpening::drop(OpeningState& s, Side side, int tick, std::vector<std::string>* log) const {
  Position& b = s.board;
  const int m = b.m();
  OpeningHand& h = s.hand[std::size_t(side)];
  const int spot = next_spot(side, h.at, b);
  h.at = std::uint8_t(spot);
  --h.in_hand;
  auto note = [&](const std::string& what) {
    if (log) log->push_back("tick " + std::to_string(tick) + ": " + side_name(side) + " " + what);
  };
  if (spot >= 2 * m) {  // its own store (the other is never visited)
    ++b.store[std::size_t(side)];
    if (h.in_hand == 0) {
      h.phase = OpeningHand::Phase::Choosing;
      note("ends in its store and chooses again");
    }
    return false;
  }
  std::uint8_t& hole = b.pits[std::size_t(spot)];
  ++hole;
  if (h.in_hand) return false;
  if (hole > 1) {  // relay: lift everything, the stone just dropped too
    h.in_hand = hole;
    hole = 0;
    note("ends on " + spot_name(spot, m) + " and lifts its " + std::to_string(h.in_hand) + " stones");
    return false;
  }
  h.phase = OpeningHand::Phase::Done;
  const bool own_row = (spot < m) == (side == Side::South);
  if (!own_row) {
    note("ends on the empty " + spot_name(spot, m) + " and is done");
    return true;
  }
  const int opposite = 2 * m - 1 - spot;
  std::uint8_t& facing = b.pits[std::size_t(opposite)];
  if (rules_.congkak_capture == CongkakCapture::Always || facing != 0) {
    note("ends on the empty " + spot_name(spot, m) + ", captures " + std::to_string(facing + 1) + " and is done");
    b.store[std::size_t(side)] = std::uint8_t(b.store[std::size_t(side)] + facing + 1);
    facing = 0;
    hole = 0;
  } else {
    note("ends on the empty " + spot_name(spot, m) + " facing an empty hole and is done");
  }
  return true;
}

void CongkakOpening::end_of_tick(OpeningState& s, int tick, bool done_now[2], std::vector<std::string>* log) const {
  for (Side side : {Side::South, Side::North}) {
    if (s.choosing(side) && row_empty(s.board, side)) {
      s.hand[std::size_t(side)].phase = OpeningHand::Phase::Done;
      done_now[int(side)] = true;
      if (log) log->push_back("tick " + std::to_string(tick) + ": " + side_name(side) + " has no stones to choose and is done");
    }
  }
  if (!s.any_done && (done_now[0] || done_now[1])) {
    s.any_done = true;
    s.first_done = done_now[0] ? Side::South : Side::North;  // South on a tie
  }
}

void CongkakOpening::advance(OpeningState& s, int south_hole, int north_hole, std::vector<std::string>* log) const {
  const int m = s.board.m();
  const int holes[2] = {south_hole, north_hole};
  for (Side side : {Side::South, Side::North}) {
    const int hole = holes[int(side)];
    if (!s.choosing(side)) {
      if (hole != 0) throw InputError(std::string(side_name(side)) + " has no choice to make now");
      continue;
    }
    if (hole < 1 || hole > m)
      throw InputError(std::string(side_name(side)) + " must choose a hole 1.." + std::to_string(m) +
                       (hole == 0 ? "" : ", not " + std::to_string(hole)));
    if (!((choices(s, side) >> (hole - 1)) & 1u))
      throw InputError(std::string(side_name(side)) + "'s hole " + std::to_string(hole) + " is empty");
  }
  for (Side side : {Side::South, Side::North}) {
    if (!s.choosing(side)) continue;
    const int pit = row_base(side, m) + holes[int(side)] - 1;
    OpeningHand& h = s.hand[std::size_t(side)];
    h.phase = OpeningHand::Phase::Sowing;
    h.at = std::uint8_t(pit);
    h.in_hand = s.board.pits[std::size_t(pit)];
    s.board.pits[std::size_t(pit)] = 0;
    if (log) log->push_back(std::string(side_name(side)) + " takes the " + std::to_string(h.in_hand) + " stones of hole " +
                            std::to_string(holes[int(side)]));
  }
  for (int tick = 1;; ++tick) {
    bool done_now[2] = {false, false};
    for (Side side : {Side::South, Side::North})
      if (s.hand[std::size_t(side)].phase == OpeningHand::Phase::Sowing && drop(s, side, tick, log))
        done_now[int(side)] = true;
    end_of_tick(s, tick, done_now, log);
    if (s.over() || s.choosing(Side::South) || s.choosing(Side::North)) return;
  }
}

Position CongkakOpening::handover(const OpeningState& s) {
  Position p = s.board;
  if (s.first_done == Side::North) p.flip();
  return p;
}

}  // namespace mancala
