// The first step of a distributed builder's work on one board of an acyclic
// level (AcyclicSlice, RowSumSlice): every move played once, the moves that
// leave the level valued where this process holds the child and asked of
// its owner otherwise, the moves that stay in the level set aside.  And the
// fixed board widths the compiler is told of, as LevelValues does.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

#include "mancala/position.hpp"
#include "mancala/rules.hpp"
#include "mancala/valuation.hpp"
#include "mancala/tables/board_index.hpp"
#include "mancala/tables/board_width.hpp"
#include "mancala/tables/exit_requests.hpp"
#include "mancala/tables/value_encoding.hpp"

namespace mancala::tables {

// What a board's exits gave (PlayedExits::settle): the best of the moves
// valued here (kBelowEveryValue: none), and the moves that stay in the
// level (bit a pit).
struct BoardExits {
  int best = kBelowEveryValue;
  MoveMask in_level = 0;
};

// A board's moves played by play_board_exits(): the best of those valued at
// once, and the held children whose values were asked for (prefetched) but
// not read yet.  Reading them later, after more boards were played, lets
// more misses overlap than one board's moves give (as LevelValues' batches).
template <int Width>
struct PlayedExits {
  struct Held {
    const std::int8_t* value;
    int gain;
    bool extra;
  } held[Width > 0 ? Width : kMaxPitsPerSide];
  int n = 0;
  BoardExits found;

  // found, with the held children's values read in.
  BoardExits settle() const {
    BoardExits done = found;
    for (int j = 0; j < n; ++j) done.best = std::max(done.best, move_value(held[j].extra, held[j].gain, *held[j].value));
    return done;
  }
};

// Boards whose exits are played before any of their held children's values
// is read, kBoards at a time (as LevelValues::kScanBatch): a batch's misses
// overlap where one board's moves give only a few.
template <int Width>
class ExitBatch {
 public:
  static constexpr int kBoards = 16;

  // Where the moves of the board whose cell is `offset` go; settle() first
  // when the batch is full().
  PlayedExits<Width>& next(std::uint64_t offset) {
    pending_[waiting_].offset = offset;
    return pending_[waiting_++].played;
  }
  bool full() const { return waiting_ == kBoards; }
  // done(offset, exits) for every board played since the last settle(), in turn.
  template <class Done>
  void settle(const Done& done) {
    for (int i = 0; i < waiting_; ++i) done(pending_[i].offset, pending_[i].played.settle());
    waiting_ = 0;
  }

 private:
  struct Pending {
    std::uint64_t offset;
    PlayedExits<Width> played;
  } pending_[kBoards];
  int waiting_ = 0;
};

// Plays board p of level k, not finished, into `played`.  held(s, r) points
// at the value of rank r of lower level s when this process holds it, else
// is null; owner(key) is the process to ask, and the request waits at
// `offset` in `out`.  in_level_child(child) is called for every move that
// keeps the seeds on the board (a RowSumSlice checks its row sums there).
template <class R, int Width, class Held, class Owner, class InLevelChild>
void play_board_exits(const BoardIndex& index, const Position& p, int k, std::uint64_t offset, const Held& held,
                      const Owner& owner, ExitRequests& out, const InLevelChild& in_level_child, PlayedExits<Width>& played) {
  played.n = 0;
  played.found = BoardExits{};
  for (MoveMask rest = R::legal_moves(p); rest; rest &= rest - 1) {
    Position c = p;
    const int pit = std::countr_zero(rest);
    const MoveResult res = play_at_width<R, Width>(c, pit);
    const int gain = move_gain(c, res.extra_turn, 0);
    if (res.game_over) {
      played.found.best = std::max(played.found.best, move_value(res.extra_turn, gain, 0));
      continue;
    }
    const int cs = c.board_seeds();
    if (cs == k) {
      in_level_child(c, res);
      played.found.in_level |= MoveMask(1) << pit;
      continue;
    }
    const std::uint64_t cr = index.template rank_for_width<Width>(c.pits.data(), cs);
    if (const std::int8_t* v = held(cs, cr)) {
      __builtin_prefetch(v);
      played.held[played.n++] = {v, gain, res.extra_turn};
    } else {
      const std::uint64_t key = value_key(cs, cr);
      const int r = owner(key);
      out.keys[std::size_t(r)].push_back(key);
      out.waiting[std::size_t(r)].push_back({offset, std::int16_t(gain), res.extra_turn});
    }
  }
}

}  // namespace mancala::tables
