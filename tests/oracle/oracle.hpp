// The brute-force oracle: a plain, independent implementation of the game
// rules, written from the rule texts only (it does not use the engine).
//
// Representation: absolute sides.  `south` and `north` hold pit 1..m of each
// side in its owner's sowing order (index 0 = pit 1, farthest from the owner's
// store; index m-1 = pit m, next to the owner's store).  South pit i faces
// North pit m+1-i.  Burnt holes (Congkak) are marked in `south_burnt` /
// `north_burnt` and always hold 0 seeds.
//
// Everything here is deliberately slow and simple: seed-by-seed sowing loops,
// copies of whole boards, string keys.  Tests compare the engine with it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace oracle {

struct Rules {
  std::string game = "kalah";              // kalah | brainking | oware | congkak
  bool empty_capture = false;              // kalah
  std::string grand_slam = "no-capture";   // oware: no-capture | forbidden | capture-all
  bool needs_opposite = false;             // congkak
};

struct Board {
  int m = 0;
  std::vector<int> south, north;
  std::vector<bool> south_burnt, north_burnt;
  int south_store = 0, north_store = 0;
  bool south_to_move = true;

  friend bool operator==(const Board&, const Board&) = default;
};

// Own notation parser/printer: `<south row>/<north row> <south>-<north> <s|n>`,
// rows comma-separated, `x` = burnt hole.  parse throws std::invalid_argument.
Board parse(const std::string& text);
std::string format(const Board& b);

// The start position: m pits a side, n seeds each, South to move.
Board start(int m, int n);

// Seeds on the board plus both stores.
int total_seeds(const Board& b);

// Legal moves of the player to move: pit numbers 1..m, ascending.  Empty when
// the game is over.
std::vector<int> legal_moves(const Rules& rules, const Board& b);

// Plays `pit` (1-based, the mover's pit number); throws std::invalid_argument
// if the move is not legal.  extra_turn: the same player moves again;
// game_over: the move ended the game (houses swept into their owners' stores,
// turn passed to the other player).
Board play(const Rules& rules, const Board& b, int pit, bool& extra_turn, bool& game_over);

bool terminal(const Rules& rules, const Board& b);

// (mover store + mover row) - (opponent store + opponent row): the final store
// difference of a terminal position, from the view of the player to move.
int final_value(const Board& b);

// result[d-1] = number of move sequences of length d, d = 1..depth.
std::vector<std::uint64_t> perft(const Rules& rules, const Board& b, int depth);

// Exact game value: final store difference (player to move minus opponent)
// under perfect play.  Kalah, BrainKing, Congkak: memoized negamax over full
// states (stores included).  Oware: the positions reachable from `b` are
// enumerated and solved by value iteration, layer by layer (see oracle.cpp);
// endless play splits the board seeds evenly, i.e. a cycle adds 0 to the
// store difference.  Throws std::runtime_error if more than `max_states`
// positions are reached (a few hundred thousand take a few seconds).
int value(const Rules& rules, const Board& b, std::size_t max_states = 2'000'000);

// Every position reachable from b (b first), each with its exact value as above.
std::vector<std::pair<Board, int>> reachable_values(const Rules& rules, const Board& b, std::size_t max_states = 2'000'000);

}  // namespace oracle
