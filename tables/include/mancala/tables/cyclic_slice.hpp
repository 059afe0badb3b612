// One slice of an Oware level for a builder that splits the level between
// processes: the same threshold retrograde analysis as solve_cyclic_level()
// (cyclic_level.hpp), with the state of ranks [lo, hi) only and the
// predecessor updates handed back to the caller instead of applied in place.
//
// The caller runs, for t = k down to 1:
//     frontier = seed(t)
//     while some slice has a non-empty frontier:
//         updates = expand(frontier)     // to predecessors in any slice
//         (deliver each update to the slice that owns its rank, in batches)
//         frontier = apply(updates addressed to this slice, t)
// and finally values().  A position is decided at the threshold that equals
// its value whatever the order of the updates (cyclic_level.hpp), so the
// values do not depend on how the level is split: they are the ones
// solve_cyclic_level() gives, byte for byte.  Nothing here communicates.
#pragma once

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mancala/error.hpp"
#include "mancala/tables/cyclic_level.hpp"
#include "mancala/tables/exit_requests.hpp"
#include "mancala/tables/value_encoding.hpp"

namespace mancala::tables {

// The first rank of part `part` when `size` ranks are split into `parts`
// contiguous, nearly equal parts (part == parts gives size): floor(size *
// part / parts), the product in 128 bits (any 64-bit size, any int parts),
// rounded down to a multiple of `align` (a distributed build's slices are
// whole blocks of the level file, so that each process writes its own; a
// level of fewer than parts * align positions leaves some parts empty).
inline std::uint64_t slice_begin(std::uint64_t size, int parts, int part, std::uint64_t align = 1) {
  __extension__ typedef unsigned __int128 Wide;
  if (part >= parts) return size;
  const std::uint64_t even = std::uint64_t(Wide(size) * Wide(std::uint64_t(part)) / Wide(std::uint64_t(parts)));
  return even / align * align;
}

template <class R>
class CyclicSlice {
 public:
  // Update encoding: predecessor rank << 1 | (1 if the decided child is in W).
  using Update = std::uint64_t;

  CyclicSlice(const BoardIndex& index, int m, int k, std::uint64_t lo, std::uint64_t hi)
      : index_(index), m_(m), k_(k), lo_(lo), hi_(hi), cells_(hi - lo) {}

  std::uint64_t lo() const { return lo_; }
  std::uint64_t hi() const { return hi_; }

  // Best exit and in-level child count of every position of the slice;
  // lower(seeds) points at the values of a lower level, by rank.
  template <class Lower>
  void scan(const Lower& lower) {
    cyclic_detail::scan_exits<R>(index_, m_, k_, lower, lo_, hi_, cells_.data(), nullptr);
  }

  // The exits of the ranks [from, to) of the slice when some children are
  // held elsewhere (a distributed build), each move played once:
  // held(seeds, rank) points at a lower level's value held here, or is
  // null, and the others are asked of owner(key) through `out`;
  // fold_exits() folds the answers in and writes the cells.  One batch at a
  // time.
  template <class Held, class Owner>
  void scan_exits(std::uint64_t from, std::uint64_t to, const Held& held, const Owner& owner, ExitRequests& out) {
    if (from < lo_ || to > hi_ || from > to) throw std::logic_error("cyclic slice: scan outside the slice");
    batch_from_ = from;
    best_.assign(to - from, cyclic_detail::kNoExit);
    in_level_.assign(to - from, 0);
    const int parts = int(out.keys.size());
    tbb::enumerable_thread_specific<ExitRequests> found([&] { return ExitRequests(parts); });
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(from, to, 256), [&](const tbb::blocked_range<std::uint64_t>& r) {
      ExitRequests& mine = found.local();
      Position p;
      p.pits_per_side = std::uint8_t(m_);
      index_.unrank(r.begin(), k_, p.pits.data());
      for (std::uint64_t rank = r.begin(); rank != r.end(); ++rank, index_.next(p.pits.data())) {
        const std::uint64_t i = rank - from;
        if (R::is_terminal(p)) {
          best_[i] = finished_board_value(p);
          continue;
        }
        cyclic_detail::for_each_move<R>(
            p, k_, [&](int delta) { best_[i] = std::max(best_[i], delta); },
            [&](int delta, const Position& c, int cs) {
              const std::uint64_t cr = index_.rank(c.pits.data(), cs);
              if (const std::int8_t* v = held(cs, cr)) {
                best_[i] = std::max(best_[i], delta - int(*v));
              } else {
                const std::uint64_t key = value_key(cs, cr);
                const int o = owner(key);
                mine.keys[std::size_t(o)].push_back(key);
                mine.waiting[std::size_t(o)].push_back({i, std::int16_t(delta), false});
              }
            },
            [&] { ++in_level_[i]; });
      }
    });
    for (auto& f : found) out.append(f);
  }
  void fold_exits(const ExitRequests& req, std::span<const std::int8_t> answers) {
    for_each_answer(req, answers, [&](const WaitingMove& w, std::int8_t v) { best_[w.offset] = std::max(best_[w.offset], w.gain - int(v)); });
    for (std::size_t i = 0; i < best_.size(); ++i)
      cells_[batch_from_ - lo_ + i] = cyclic_detail::undecided_cell(best_[i], in_level_[i]);
  }

  // Positions of the slice decided outright at threshold t (global ranks),
  // sorted: the threads find them in any order, and a frontier in a fixed
  // order keeps runs reproducible.
  std::vector<std::uint64_t> seed(int t) {
    tbb::enumerable_thread_specific<std::vector<std::uint64_t>> found;
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(lo_, hi_), [&](const tbb::blocked_range<std::uint64_t>& r) {
      auto& out = found.local();
      for (std::uint64_t rank = r.begin(); rank != r.end(); ++rank)
        if (cyclic_detail::seed_cell(cells_[rank - lo_], t, 0)) out.push_back(rank);
    });
    std::vector<std::uint64_t> all = gather(found);
    std::sort(all.begin(), all.end());
    return all;
  }

  // The updates that the decided positions `frontier` (of this slice) send
  // to their in-level predecessors, sorted by rank: the updates for one
  // slice are one contiguous run.
  std::vector<Update> expand(std::span<const std::uint64_t> frontier) const {
    tbb::enumerable_thread_specific<std::vector<Update>> found;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, frontier.size()), [&](const tbb::blocked_range<std::size_t>& r) {
      auto& out = found.local();
      Position p;
      p.pits_per_side = std::uint8_t(m_);
      for (std::size_t i = r.begin(); i != r.end(); ++i) {
        const std::uint64_t rank = frontier[i];
        index_.unrank(rank, k_, p.pits.data());
        const Update child_wins = cyclic_detail::cell_value(cells_[rank - lo_]) > 0;
        for_each_in_level_predecessor<R>(p, [&](const Position& q) { out.push_back(index_.rank(q.pits.data(), k_) << 1 | child_wins); });
      }
    });
    std::vector<Update> all = gather(found);
    tbb::parallel_sort(all.begin(), all.end());
    return all;
  }

  // Applies updates addressed to this slice at threshold t; returns the
  // positions they decided (global ranks).
  std::vector<std::uint64_t> apply(std::span<const Update> updates, int t) {
    tbb::enumerable_thread_specific<std::vector<std::uint64_t>> found;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, updates.size()), [&](const tbb::blocked_range<std::size_t>& r) {
      auto& out = found.local();
      for (std::size_t i = r.begin(); i != r.end(); ++i) {
        const std::uint64_t qr = updates[i] >> 1;
        if (qr < lo_ || qr >= hi_) throw std::logic_error("cyclic slice: an update for rank " + std::to_string(qr) + " outside the slice");
        if (cyclic_detail::apply_update(cells_[qr - lo_], updates[i] & 1, t, 0)) out.push_back(qr);
      }
    });
    return gather(found);
  }

  // Board values of the slice (undecided positions are worth 0).
  std::vector<std::int8_t> values() const {
    std::vector<std::int8_t> out(cells_.size());
    for (std::size_t i = 0; i < cells_.size(); ++i) out[i] = cyclic_detail::final_value(cells_[i]);
    return out;
  }

 private:
  template <class T>
  static std::vector<T> gather(tbb::enumerable_thread_specific<std::vector<T>>& parts) {
    std::vector<T> all;
    for (auto& v : parts) all.insert(all.end(), v.begin(), v.end());
    return all;
  }

  const BoardIndex& index_;
  int m_, k_;
  std::uint64_t lo_, hi_;
  std::vector<cyclic_detail::Cell> cells_;
  // scan_exits()'s batch until fold_exits(): its first rank, each
  // position's best exit so far and its in-level child count.
  std::uint64_t batch_from_ = 0;
  std::vector<int> best_, in_level_;
};

}  // namespace mancala::tables
