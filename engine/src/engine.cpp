#include "mancala/engine.hpp"

#include <bit>

#include "mancala/error.hpp"

namespace mancala {

MoveMask legal_moves(const Ruleset& rules, const Position& p) {
  return dispatch(rules, [&](auto R) { return decltype(R)::legal_moves(p); });
}

bool is_terminal(const Ruleset& rules, const Position& p) {
  return dispatch(rules, [&](auto R) { return decltype(R)::is_terminal(p); });
}

MoveResult apply_move(const Ruleset& rules, Position& p, int pit) {
  const int m = p.m();
  const std::string name = "move " + std::to_string(pit);
  if (pit < 1 || pit > m) throw InputError(name + " is out of range 1.." + std::to_string(m));
  const MoveMask legal = legal_moves(rules, p);
  if (legal == 0) throw InputError(name + " is illegal: the game is over in " + [&] {
                                     return std::string(p.to_move == Side::South ? "south" : "north") + "'s turn";
                                   }());
  const int i = pit - 1;
  if ((legal >> i) & 1u) return dispatch(rules, [&](auto R) { return decltype(R)::play(p, i); });
  if ((p.burnt >> i) & 1u) throw InputError(name + " is illegal: pit " + std::to_string(pit) + " is burnt");
  if (p.pits[i] == 0) throw InputError(name + " is illegal: pit " + std::to_string(pit) + " is empty");
  if (rules.game == Game::Oware && p.opponent_row_empty())
    throw InputError(name + " is illegal: it does not feed the opponent, whose row is empty");
  if (rules.game == Game::Oware && rules.grand_slam == GrandSlam::Forbidden)
    throw InputError(name + " is illegal: it would capture all of the opponent's seeds (grand slam forbidden)");
  throw InputError(name + " is illegal");
}

std::vector<int> parse_move_list(const std::string& text) {
  std::vector<int> moves;
  if (text.empty()) return moves;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = text.find(',', start);
    const std::string tok = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (tok.empty() || tok.size() > 3 || tok.find_first_not_of("0123456789") != std::string::npos)
      throw InputError("malformed move list '" + text + "': '" + tok + "' is not a pit number");
    // No leading zeros, as in positions: one text per move list.
    if (tok.size() > 1 && tok[0] == '0')
      throw InputError("malformed move list '" + text + "': '" + tok + "' has a leading zero");
    moves.push_back(std::stoi(tok));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return moves;
}

Decided decided(const Position& p) {
  const int total = p.total_seeds();
  if (2 * p.store[0] > total) return Decided::MoverWins;
  if (2 * p.store[1] > total) return Decided::OpponentWins;
  if (total > 0 && 2 * p.store[0] == total && 2 * p.store[1] == total) return Decided::Draw;
  return Decided::No;
}

namespace {
template <class R>
void perft_walk(const Position& p, int ply, int depth, std::vector<std::uint64_t>& counts) {
  for (MoveMask rest = R::legal_moves(p); rest; rest &= rest - 1) {
    Position child = p;
    R::play(child, std::countr_zero(rest));
    ++counts[ply];
    if (ply + 1 < depth) perft_walk<R>(child, ply + 1, depth, counts);
  }
}
}  // namespace

std::vector<std::uint64_t> perft(const Ruleset& rules, const Position& p, int depth) {
  if (depth < 1 || depth > 200) throw InputError("perft depth must be between 1 and 200, got " + std::to_string(depth));
  std::vector<std::uint64_t> counts(depth, 0);
  dispatch(rules, [&](auto R) { perft_walk<decltype(R)>(p, 0, depth, counts); });
  return counts;
}

}  // namespace mancala
