#include "distributed_build.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <span>
#include <string>

#include "mancala/error.hpp"
#include "mancala/rules.hpp"
#include "mancala/tables/acyclic_slice.hpp"
#include "mancala/tables/cyclic_slice.hpp"
#include "mancala/tables/phi_buckets.hpp"
#include "mancala/tables/remote_values.hpp"
#include "mancala/tables/row_sum_classes.hpp"
#include "mancala/tables/row_sum_slice.hpp"
#include "mancala/tables/table_file.hpp"

namespace mancala::mpi {

namespace {

// Runs f on rank 0 only; an InputError there becomes an InputError with the
// same message on every process, so that all of them stop together.
template <class F>
void on_root(Comm& comm, F&& f) {
  std::string error;
  if (comm.root()) {
    try {
      f();
    } catch (const InputError& e) {
      error = e.what();
      if (error.empty()) error = "error on rank 0";
    }
  }
  comm.broadcast(error);
  if (!error.empty()) throw InputError(error);
}

// This process's slices of the levels built so far (ownership: slice r of
// a level of S positions is [slice_begin(S, P, r, B), slice_begin(S, P, r+1, B)),
// B the level files' block size).
class HeldSlices {
 public:
  HeldSlices(const tables::BoardIndex& index, int parts, int me, std::uint64_t align)
      : index_(index), parts_(parts), me_(me), align_(align) {
    for (int k = 0; k <= index.max_seeds(); ++k) {
      lo_.push_back(begin(k, me));
      hi_.push_back(begin(k, me + 1));
      for (int r = 1; r < parts; ++r) bounds_.push_back(begin(k, r));
    }
  }
  std::uint64_t begin(int k, int r) const { return tables::slice_begin(index_.level_size(k), parts_, r, align_); }
  std::uint64_t lo(int k) const { return lo_[std::size_t(k)]; }
  std::uint64_t hi(int k) const { return hi_[std::size_t(k)]; }
  // The owner of a key's rank (slice_owner() with the bounds looked up:
  // it is asked once a remote child, and a 128-bit division showed).
  int owner(std::uint64_t key) const {
    const std::size_t k = std::size_t(tables::key_seeds(key));
    const auto first = bounds_.begin() + std::ptrdiff_t(k * std::size_t(parts_ - 1)), last = first + (parts_ - 1);
    return int(std::upper_bound(first, last, tables::key_rank(key)) - first);
  }
  // Level k's slice: complete levels, or the one being built.
  std::vector<std::int8_t>& slice(int k) { return slices_[std::size_t(k)]; }
  const std::vector<std::int8_t>& slice(int k) const { return slices_[std::size_t(k)]; }
  bool holds(int k, std::uint64_t rank) const { return rank >= lo(k) && rank < hi(k); }
  std::int8_t held(int k, std::uint64_t rank) const { return slices_[std::size_t(k)][rank - lo(k)]; }
  void add(std::vector<std::int8_t> values) {
    const int k = int(slices_.size());
    if (values.size() != hi(k) - lo(k)) throw std::logic_error("slice of level " + std::to_string(k) + " has the wrong size");
    slices_.push_back(std::move(values));
    std::uint64_t n = 0;
    for (const auto& v : slices_) n += v.size();
    peak_ = std::max(peak_, n);
  }
  void note_extra(std::uint64_t n) {  // values held beside the slices (the level being built)
    std::uint64_t total = n;
    for (const auto& v : slices_) total += v.size();
    peak_ = std::max(peak_, total);
  }
  std::uint64_t peak_values() const { return peak_; }
  int levels() const { return int(slices_.size()); }

 private:
  const tables::BoardIndex& index_;
  int parts_, me_;
  std::uint64_t align_;
  std::vector<std::vector<std::int8_t>> slices_;
  std::vector<std::uint64_t> lo_, hi_;
  std::vector<std::uint64_t> bounds_;  // level k: begin(k, 1..P-1), P-1 entries from k(P-1)
  std::uint64_t peak_ = 0;
};

// Positions of Oware's exit scan per request round: 1/16 of the slice (a
// round holds each position's best exit and in-level count, 8 bytes, and
// about half an exit a position asked for, 8 bytes of key and 16 of
// waiting move: some 1.5 bytes a position of the slice), at least 256 (so
// that tiny levels do not take a collective per handful).
std::uint64_t batch_positions(std::uint64_t slice) { return std::max<std::uint64_t>(256, slice / 16); }

// A personalised exchange of sorted key lists (out[r] for rank r), each sent
// as varint differences (append_sorted_varints, remote_values.hpp): the
// lists received, one a rank, in rank order.
std::vector<std::vector<std::uint64_t>> exchange_sorted(Comm& comm, const std::vector<std::span<const std::uint64_t>>& out) {
  std::vector<std::uint8_t> bytes;
  std::vector<std::size_t> ends;
  for (const auto& keys : out) {
    tables::append_sorted_varints(keys, bytes);
    ends.push_back(bytes.size());
  }
  std::vector<std::span<const std::int8_t>> send;
  for (std::size_t r = 0, at = 0; r < ends.size(); at = ends[r++])
    send.emplace_back(reinterpret_cast<const std::int8_t*>(bytes.data()) + at, ends[r] - at);
  std::vector<std::uint64_t> from;
  const std::vector<std::int8_t> in = comm.all_to_all(send, &from);
  std::vector<std::vector<std::uint64_t>> lists;
  std::uint64_t at = 0;
  for (int r = 0; r < comm.size(); ++r) {
    lists.push_back(tables::read_sorted_varints(
        std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(in.data()) + at, from[std::size_t(r)])));
    at += from[std::size_t(r)];
  }
  return lists;
}

// The value of a key this process owns, for an answer; an in-level value
// not computed yet is a logic error.
std::int8_t owned_value(const HeldSlices& held, std::uint64_t key) {
  const int s = tables::key_seeds(key);
  const std::uint64_t r = tables::key_rank(key);
  if (s >= held.levels() || !held.holds(s, r)) throw std::logic_error("asked for a value this process does not own");
  return held.held(s, r);
}

// One round of requests for the acyclic build (collective): every process
// sends each owner the keys it asks of it, 8 bytes a key in the order asked
// (repeats and all: sorting and merging them cost more time than the bytes
// they save between processes of one machine, measured in
// results/README.md), and gets one value a key back, in the same order;
// answer(key) values the keys asked of this process.
template <class Answer>
std::vector<std::int8_t> exchange_requests(Comm& comm, const tables::ExitRequests& req, const Answer& answer) {
  std::vector<std::span<const std::uint64_t>> out;
  for (const auto& keys : req.keys) out.emplace_back(keys);
  std::vector<std::uint64_t> from;
  const std::vector<std::uint64_t> asked = comm.all_to_all(out, &from);
  std::vector<std::int8_t> answers(asked.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, asked.size(), 4096), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) answers[i] = answer(asked[i]);
  });
  std::vector<std::span<const std::int8_t>> back;
  for (std::size_t r = 0, at = 0; r < from.size(); at += from[r++]) back.emplace_back(answers.data() + at, from[r]);
  return comm.all_to_all(back);
}

// Positions whose exits are valued per request round of an acyclic level
// (either split: acyclic_slice.hpp, row_sum_slice.hpp): 1/16 of a process's
// share, whole words of the in-level bits, at least 4096 (so that small
// levels do not take a collective per handful) and at most 2^20 (a round's
// requests take about 50 bytes a position of the batch; 2^16 and 2^18 were
// no faster, a quarter of the share much slower: results/README.md).
std::uint64_t exit_batch_positions(std::uint64_t slice) {
  const std::uint64_t align = tables::AcyclicSlice<KalahRules<false>>::kBatchAlign;
  return std::clamp<std::uint64_t>((slice / 16 + align - 1) / align * align, 4096, std::uint64_t(1) << 20);
}

// Positions of a Phi bucket valued per round of phase 2: a round's requests
// take about 20 bytes a position, and one round a bucket is the fewest.
constexpr std::uint64_t kInLevelBatch = std::uint64_t(1) << 20;
// A round of fewer positions in all is not dealt out (four messages saved).
constexpr std::uint64_t kDealOutBelow = 4096;

// An acyclic level split by row-sum classes (row_sum_classes.hpp): each
// process values the boards of its classes, asking only for exits, in
// rounds of about exit_batch_positions() boards; walks their in-level
// chains without a message; then sends every value to the owner of its rank
// slice, the runs in rank order, so that no rank is sent along (a byte a
// board).
template <class R>
std::vector<std::int8_t> build_acyclic_level_by_classes(Comm& comm, HeldSlices& held, const tables::BoardIndex& index,
                                                        const tables::RowSumClasses& classes, int k, std::uint64_t* requested,
                                                        DistributedProgress* progress) {
  const std::uint64_t lo = held.lo(k), hi = held.hi(k), size = index.level_size(k);
  const int parts = comm.size(), me = comm.rank();
  tables::RowSumSlice<R> slice(index, classes);
  held.note_extra(classes.local_size() + (hi - lo));  // the classes' values, then the rank slice they go to
  auto owner = [&](std::uint64_t key) { return held.owner(key); };
  auto held_value = [&](int s, std::uint64_t r) -> const std::int8_t* {
    return held.holds(s, r) ? held.slice(s).data() + (r - held.lo(s)) : nullptr;
  };
  // Step 1: the exits, in rounds.  Each round takes its share of the blocks
  // of every row sum this process owns, so that the rounds of all processes
  // mix boards of every kind and cost about the same (a board's moves
  // depend on its rows; whole sums a round left one process waiting for
  // the other).  Every process knows every share, so the number of rounds
  // needs no message.
  const std::uint64_t largest = classes.largest_load();
  const std::uint64_t batch = exit_batch_positions(largest);
  const std::uint64_t rounds = (largest + batch - 1) / batch;
  std::uint64_t counted = 0;  // positions added to the progress (the same on every process)
  tables::ExitRequests req(parts);
  for (std::uint64_t round = 0; round < rounds; ++round) {
    req.clear();
    for (int a = 0; a <= k; ++a) {
      const auto [first, last] = slice.blocks_of_sum(a);
      const std::uint64_t n = last - first, from = first + n * round / rounds, to = first + n * (round + 1) / rounds;
      if (from < to) slice.value_exits(from, to, held_value, owner, req);
    }
    *requested += req.size();
    slice.fold(req, exchange_requests(comm, req, [&](std::uint64_t key) { return owned_value(held, key); }));
    if (progress) {  // the same sum on every process, without a collective
      const std::uint64_t all = size * (round + 1) / rounds / 2 - size * round / rounds / 2;
      counted += all;
      progress->positions_done += all;
    }
  }
  // Step 2: the in-level chains, here alone.
  slice.value_in_level();
  // The values to their rank slices.
  std::vector<std::uint64_t> bounds;
  for (int r = 0; r <= parts; ++r) bounds.push_back(held.begin(k, r));
  const std::vector<std::int8_t>& values = slice.values();
  std::vector<std::vector<std::int8_t>> out(static_cast<std::size_t>(parts));
  classes.for_each_run(bounds, [&](int q, int r, std::uint64_t first, std::uint64_t, std::uint64_t count) {
    if (q == me && r != me) out[std::size_t(r)].insert(out[std::size_t(r)].end(), values.begin() + std::ptrdiff_t(first),
                                                       values.begin() + std::ptrdiff_t(first + count));
  });
  std::vector<std::span<const std::int8_t>> send(out.begin(), out.end());
  std::vector<std::uint64_t> from;
  const std::vector<std::int8_t> in = comm.all_to_all(send, &from);
  std::vector<std::uint64_t> start(static_cast<std::size_t>(parts), 0);
  for (int q = 1; q < parts; ++q) start[std::size_t(q)] = start[std::size_t(q) - 1] + from[std::size_t(q) - 1];
  std::vector<std::uint64_t> read = start;
  std::vector<std::int8_t> mine(hi - lo);
  classes.for_each_run(bounds, [&](int q, int r, std::uint64_t first, std::uint64_t at, std::uint64_t count) {
    if (r != me) return;
    const std::int8_t* src = q == me ? values.data() + first : in.data() + read[std::size_t(q)];
    if (q != me) read[std::size_t(q)] += count;
    std::copy_n(src, count, mine.data() + at);
  });
  for (int q = 0; q < parts; ++q)  // every value received was placed
    if (q != me && read[std::size_t(q)] != start[std::size_t(q)] + from[std::size_t(q)])
      throw std::logic_error("level " + std::to_string(k) + ": process " + std::to_string(q) + " sent values for other ranks");
  if (progress) progress->positions_done += size - std::min(size, counted);
  return mine;
}

template <class R>
std::vector<std::int8_t> build_acyclic_level(Comm& comm, HeldSlices& held, const tables::BoardIndex& index, int m, int k,
                                             AcyclicSplit split, std::uint64_t* requested, DistributedProgress* progress) {
  if (split != AcyclicSplit::Ranks && tables::RowSumSlice<R>::supports(m)) {
    const tables::RowSumClasses classes(index, m, k, comm.size(), comm.rank());
    if (split == AcyclicSplit::RowSums || classes.balanced(comm.size()))
      return build_acyclic_level_by_classes<R>(comm, held, index, classes, k, requested, progress);
  }
  const std::uint64_t lo = held.lo(k), hi = held.hi(k), size = index.level_size(k);
  tables::AcyclicSlice<R> slice(index, m, k, lo, hi);
  held.note_extra(hi - lo);
  auto owner = [&](std::uint64_t key) { return held.owner(key); };
  auto held_value = [&](int s, std::uint64_t r) -> const std::int8_t* {
    return held.holds(s, r) ? held.slice(s).data() + (r - held.lo(s)) : nullptr;
  };
  std::uint64_t counted = 0;  // positions added to the progress (the same on every process)
  auto count = [&](std::uint64_t n) {
    if (!progress) return;
    const std::uint64_t all = comm.sum(n) / 2;
    counted += all;
    progress->positions_done += all;
  };
  tables::ExitRequests req(comm.size());
  // Phase 1: the exits, a batch of the slice at a time, in rank order.
  const std::uint64_t batch = exit_batch_positions(hi - lo);
  const std::uint64_t exit_rounds = comm.max((hi - lo + batch - 1) / batch);
  for (std::uint64_t round = 0; round < exit_rounds; ++round) {
    const std::uint64_t a = std::min(hi, lo + round * batch), b = std::min(hi, a + batch);
    req.clear();
    if (a < b) slice.value_exits(a, b, held_value, owner, req);
    *requested += req.size();
    slice.fold(req, exchange_requests(comm, req, [&](std::uint64_t key) { return owned_value(held, key); }));
    count(b - a);
  }
  // Phase 2: the moves within the level, bucket by bucket from the largest
  // Phi down, every process in step (one round per batch of a bucket).
  // The slices' shares of a bucket differ (Phi and rank are correlated:
  // with 2 processes, Kalah 6-pit level 18, the larger shares sum to 1.31
  // times the mean), so each round deals the work out evenly: the batches
  // of all processes, in process order, are one list cut into equal parts,
  // and a process values the positions of its part, its own or sent to it
  // with their exits, and sends the values of the others back to their
  // owners.
  const tables::PhiBuckets& buckets = slice.order_by_phi();
  auto in_level_value = [&](std::uint64_t key) {
    if (tables::key_seeds(key) != k) throw std::logic_error("asked for a lower level in phase 2");
    return slice.final_value(tables::key_rank(key));
  };
  const int parts = comm.size(), me = comm.rank();
  // Every process's bucket sizes, in one exchange for the level: each
  // process then knows every round's batches without a collective a round.
  const std::size_t n_buckets = std::size_t(buckets.max_phi()) + 1;
  std::vector<std::uint64_t> my_sizes(n_buckets);
  for (std::size_t phi = 0; phi < n_buckets; ++phi) my_sizes[phi] = buckets.bucket_size(int(phi));
  const std::vector<std::uint64_t> sizes = comm.all_to_all(
      std::vector<std::span<const std::uint64_t>>(std::size_t(parts), std::span<const std::uint64_t>(my_sizes)));
  auto bucket_size_of = [&](int r, int phi) { return sizes[std::size_t(r) * n_buckets + std::size_t(phi)]; };
  std::vector<std::uint64_t> batch_ranks;
  for (int phi = buckets.max_phi(); phi >= 0; --phi) {
    const std::uint64_t in_bucket = buckets.bucket_size(phi);
    std::uint64_t bucket_rounds = 0;
    for (int r = 0; r < parts; ++r)
      bucket_rounds = std::max(bucket_rounds, (bucket_size_of(r, phi) + kInLevelBatch - 1) / kInLevelBatch);
    for (std::uint64_t round = 0; round < bucket_rounds; ++round) {
      const std::uint64_t a = std::min<std::uint64_t>(in_bucket, round * kInLevelBatch);
      buckets.ranks(phi, a, std::min<std::uint64_t>(in_bucket, a + kInLevelBatch) - a, batch_ranks);
      // Where this batch lies in the list of all, and the part each process
      // values: its own batch when the batches are about even (within 5%)
      // or small, so that dealing out costs no messages.
      std::uint64_t total = 0, first = 0, largest = 0;
      for (int r = 0; r < parts; ++r) {
        const std::uint64_t size_r = bucket_size_of(r, phi);
        const std::uint64_t n = size_r - std::min(size_r, round * kInLevelBatch);
        const std::uint64_t count_r = std::min(n, kInLevelBatch);
        if (r < me) first += count_r;
        total += count_r;
        largest = std::max(largest, count_r);
      }
      if (progress) {  // the same sum on every process, without a collective
        counted += total / 2;
        progress->positions_done += total / 2;
      }
      if (total < kDealOutBelow || largest * 100 <= total * 105 / std::uint64_t(parts)) {
        req.clear();
        slice.value_in_level(batch_ranks, owner, req);
        *requested += req.size();
        slice.fold(req, exchange_requests(comm, req, in_level_value));
        slice.finish(batch_ranks);
        continue;
      }
      auto part_begin = [&](int r) { return tables::slice_begin(total, parts, r); };  // in the list of all
      // Positions [cut[q], cut[q+1]) of this batch go to process q.
      std::vector<std::uint64_t> cut(std::size_t(parts) + 1);
      for (int q = 0; q <= parts; ++q)
        cut[std::size_t(q)] = std::clamp<std::uint64_t>(q == parts ? total : part_begin(q), first, first + batch_ranks.size()) - first;
      std::vector<std::int8_t> exits(batch_ranks.size());
      for (std::size_t i = 0; i < batch_ranks.size(); ++i)
        if (i < cut[std::size_t(me)] || i >= cut[std::size_t(me) + 1]) exits[i] = slice.exit_best(batch_ranks[i]);
      std::vector<std::span<const std::uint64_t>> send_ranks;
      std::vector<std::span<const std::int8_t>> send_exits;
      for (int q = 0; q < parts; ++q) {
        const std::size_t from = cut[std::size_t(q)], n = q == me ? 0 : cut[std::size_t(q) + 1] - from;
        send_ranks.emplace_back(batch_ranks.data() + from, n);
        send_exits.emplace_back(exits.data() + from, n);
      }
      std::vector<std::uint64_t> foreign_from;
      const std::vector<std::uint64_t> foreign = comm.all_to_all(send_ranks, &foreign_from);
      const std::vector<std::int8_t> foreign_exits = comm.all_to_all(send_exits);
      const std::span<const std::uint64_t> mine(batch_ranks.data() + cut[std::size_t(me)],
                                                cut[std::size_t(me) + 1] - cut[std::size_t(me)]);
      req.clear();
      slice.value_in_level(mine, owner, req);
      slice.value_foreign(foreign, foreign_exits, owner, req);
      *requested += req.size();
      slice.fold(req, exchange_requests(comm, req, in_level_value));
      slice.finish(mine);
      // The values of the positions valued for others, back to their owners.
      std::vector<std::span<const std::int8_t>> back;
      for (std::size_t r = 0, at = 0; r < foreign_from.size(); at += foreign_from[r++])
        back.emplace_back(slice.foreign_values().data() + at, foreign_from[r]);
      const std::vector<std::int8_t> settled = comm.all_to_all(back);
      std::vector<std::uint64_t> sent;
      for (int q = 0; q < parts; ++q) sent.insert(sent.end(), send_ranks[std::size_t(q)].begin(), send_ranks[std::size_t(q)].end());
      slice.settle(sent, settled);
    }
  }
  if (progress) progress->positions_done += size - std::min(size, counted);
  return std::move(slice).values();
}

template <class R>
std::vector<std::int8_t> build_cyclic_level(Comm& comm, HeldSlices& held, const tables::BoardIndex& index, int m, int k,
                                            int* rounds, std::uint64_t* requested, DistributedProgress* progress) {
  const std::uint64_t size = index.level_size(k);
  const int parts = comm.size();
  std::vector<std::uint64_t> bounds;
  for (int r = 0; r <= parts; ++r) bounds.push_back(held.begin(k, r));
  const std::uint64_t lo = bounds[std::size_t(comm.rank())], hi = bounds[std::size_t(comm.rank()) + 1];
  tables::CyclicSlice<R> slice(index, m, k, lo, hi);
  held.note_extra(hi - lo);  // its values (the retrograde cells, 4 bytes each, come on top)
  // The exits, a batch of the slice at a time, their values fetched first.
  const std::uint64_t batch = batch_positions(hi - lo);
  const std::uint64_t scan_rounds = comm.max((hi - lo + batch - 1) / batch);
  tables::ExitRequests req(comm.size());
  auto owner = [&](std::uint64_t key) { return held.owner(key); };
  auto held_value = [&](int s, std::uint64_t r) -> const std::int8_t* {
    return s < k && held.holds(s, r) ? held.slice(s).data() + (r - held.lo(s)) : nullptr;
  };
  for (std::uint64_t round = 0; round < scan_rounds; ++round) {
    const std::uint64_t a = std::min(hi, lo + round * batch), b = std::min(hi, a + batch);
    req.clear();
    slice.scan_exits(a, b, held_value, owner, req);
    *requested += req.size();
    slice.fold_exits(req, exchange_requests(comm, req, [&](std::uint64_t key) { return owned_value(held, key); }));
  }
  if (progress) progress->positions_done += size / 2;
  std::uint64_t decided = 0;
  *rounds = 0;
  for (int t = k; t >= 1; --t) {
    std::vector<std::uint64_t> frontier = slice.seed(t);
    for (;;) {
      const std::uint64_t total = comm.sum(frontier.size());
      if (total == 0) break;
      ++*rounds;
      decided += total;
      if (progress) progress->positions_done += total / 2;
      // Updates sorted by rank: each owner's share is one contiguous run.
      const std::vector<std::uint64_t> updates = slice.expand(frontier);
      std::vector<std::span<const std::uint64_t>> out;
      auto at = updates.begin();
      for (int r = 0; r < parts; ++r) {
        const auto end = std::lower_bound(at, updates.end(), bounds[std::size_t(r) + 1] << 1);
        out.emplace_back(updates.data() + (at - updates.begin()), std::size_t(end - at));
        at = end;
      }
      std::vector<std::uint64_t> in;
      for (const auto& list : exchange_sorted(comm, out)) in.insert(in.end(), list.begin(), list.end());
      frontier = slice.apply(in, t);
    }
  }
  if (progress) progress->positions_done += size - size / 2 - decided / 2;
  return slice.values();
}

// Collective: rank 0 writes level k from the slices, its own first, then
// each other rank's in chunks (never the whole level at once).  A write
// error on rank 0 still receives every chunk (so that no rank waits
// forever), then stops everyone with the same message.
constexpr std::uint64_t kChunk = std::uint64_t(16) << 20;

void write_level_from_slices(Comm& comm, const HeldSlices& held, const std::filesystem::path& dir, const Ruleset& rules,
                             int m, int k, std::uint64_t size, const tables::BuildTestHooks* hooks) {
  std::string error;
  if (comm.root()) {
    std::optional<tables::LevelFileWriter> writer;
    // The test hook's point, as in build_tables(): the first floor(size/2)
    // values written, wherever that falls among the slices' pieces.
    bool stop_half = hooks && hooks->level_half_written;  // once
    const std::uint64_t half = size / 2;
    std::uint64_t written = 0;
    auto write = [&](const std::int8_t* p, std::size_t n) {
      if (!error.empty()) return;
      try {
        if (!writer) writer.emplace(dir, rules, m, k, size);
        if (stop_half && written + n >= half) {
          stop_half = false;
          const std::size_t first = std::size_t(half - written);
          writer->append(p, first);
          hooks->level_half_written(k);
          writer->append(p + first, n - first);
        } else {
          writer->append(p, n);
        }
        written += n;
      } catch (const InputError& e) {
        error = e.what();
        writer.reset();
      }
    };
    write(held.slice(k).data(), held.slice(k).size());
    std::vector<std::int8_t> chunk;
    for (int r = 1; r < comm.size(); ++r) {
      const std::uint64_t n = held.begin(k, r + 1) - held.begin(k, r);
      for (std::uint64_t at = 0; at < n; at += kChunk) {
        chunk.resize(std::min(kChunk, n - at));
        comm.receive(chunk, r);
        write(chunk.data(), chunk.size());
      }
    }
    if (error.empty()) {
      try {
        if (!writer) writer.emplace(dir, rules, m, k, size);
        writer->finish();
      } catch (const InputError& e) {
        error = e.what();
      }
    }
  } else {
    const auto& mine = held.slice(k);
    for (std::uint64_t at = 0; at < mine.size(); at += kChunk)
      comm.send(std::span<const std::int8_t>(mine.data() + at, std::min<std::uint64_t>(kChunk, mine.size() - at)), 0);
  }
  comm.broadcast(error);
  if (!error.empty()) throw InputError(error);
}

// Collective: every process gets the error of the lowest rank that has one
// ("" when none has), so that all stop together on a local failure (a
// write, a corrupt block of a rank's slice).
std::string first_error(Comm& comm, const std::string& mine) {
  const std::uint64_t p = std::uint64_t(comm.size());
  const std::uint64_t lowest = comm.max(mine.empty() ? 0 : p - std::uint64_t(comm.rank()));
  if (lowest == 0) return "";
  std::string error = mine;
  comm.broadcast(error, int(p - lowest));
  return error;
}

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {  // TableError too
    return e.what()[0] ? e.what() : "error";
  }
  return "";
}

// Collective, on a directory every process sees: each process codes its own
// slice of level k (whole blocks of the file: held's slices are aligned to
// them) and writes it at its offset; rank 0 writes the header and index
// (table_file.hpp, the same bytes as LevelFileWriter).  The content hash is
// chained through the slices in rank order.
void write_level_shared(Comm& comm, const HeldSlices& held, const std::filesystem::path& dir, const Ruleset& rules, int m,
                        int k, std::uint64_t size, const tables::LevelFormat& format, const tables::BuildTestHooks* hooks) {
  const std::vector<std::int8_t>& mine = held.slice(k);
  tables::CodedBlocks coded;
  std::string error = error_of([&] { coded = tables::code_blocks(mine.data(), mine.size(), format); });
  if (error = first_error(comm, error); !error.empty()) throw InputError(error);
  const std::vector<std::uint64_t> stored = comm.all_gather(coded.stored_bytes);
  std::uint64_t offset = 0, total = 0;
  for (int r = 0; r < comm.size(); ++r) {
    if (r < comm.rank()) offset += stored[std::size_t(r)];
    total += stored[std::size_t(r)];
  }
  // FNV-1a is a chain: each process continues the state of the ones before it.
  std::uint64_t hash = tables::kFnv1a64Offset;
  auto as_bytes = [](std::uint64_t& x) { return std::span<std::int8_t>(reinterpret_cast<std::int8_t*>(&x), sizeof x); };
  if (comm.rank() > 0) comm.receive(as_bytes(hash), comm.rank() - 1);
  hash = tables::fnv1a64_continue(hash, mine.data(), mine.size());
  if (comm.rank() + 1 < comm.size()) comm.send(as_bytes(hash), comm.rank() + 1);
  std::vector<std::int8_t> last(sizeof hash);
  std::memcpy(last.data(), &hash, sizeof hash);
  comm.broadcast(last, comm.size() - 1);
  std::memcpy(&hash, last.data(), sizeof hash);
  const std::uint64_t prefix = tables::level_file_prefix_bytes(rules, m, k, size, format);
  const std::filesystem::path tmp = tables::level_path(dir, k).string() + ".tmp";
  on_root(comm, [&] { tables::create_level_tmp(dir, k, prefix + total); });
  error = error_of([&] {
    const void* data = format.codec == tables::Codec::None ? static_cast<const void*>(mine.data()) : coded.stored.data();
    if (coded.stored_bytes > 0) tables::write_level_part(tmp, prefix + offset, data, coded.stored_bytes);
  });
  if (error = first_error(comm, error); !error.empty()) throw InputError(error);
  // The index, every process's entries moved to its offset, to rank 0.
  for (std::size_t i = 0; i < coded.index.size(); i += 2) coded.index[i] += offset;
  std::vector<std::span<const std::uint64_t>> out(std::size_t(comm.size()));
  out[0] = coded.index;
  const std::vector<std::uint64_t> index = comm.all_to_all(out);
  on_root(comm, [&] {
    if (hooks && hooks->level_half_written) hooks->level_half_written(k);  // the parts written, the header not
    tables::finish_level_tmp(dir, rules, m, k, size, format, total, hash, index);
  });
}

// Collective, on a directory every process sees: each process reads its own
// slice of a complete level file, checking the blocks it reads.
std::vector<std::int8_t> read_level_shared(Comm& comm, const HeldSlices& held, const std::filesystem::path& file,
                                           const Ruleset& rules, int m, int k) {
  std::vector<std::int8_t> mine(held.hi(k) - held.lo(k));
  const std::string error = first_error(comm, error_of([&] {
    const tables::MappedLevel level(file, rules, m, k, tables::MappedLevel::Opening::Slices);
    level.read(held.lo(k), mine.size(), mine.data());
  }));
  if (!error.empty()) throw InputError(error);
  return mine;
}

// Whether every process sees the directory rank 0 prepared: rank 0 writes a
// token into a file there, every process reads it back.
bool directory_is_shared(Comm& comm, const std::filesystem::path& dir) {
  const std::filesystem::path probe = dir / "mpi_shared_probe.tmp";
  std::string token;
  on_root(comm, [&] {
    token = std::to_string(::getpid()) + "-" +
            std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
    std::ofstream out(probe, std::ios::trunc);
    out << token;
    if (!out.flush()) throw InputError("cannot write " + probe.string());
  });
  comm.broadcast(token);
  std::string seen;
  std::ifstream(probe) >> seen;
  const bool shared = comm.sum(seen == token ? 0 : 1) == 0;
  comm.barrier();  // every process has read it
  if (comm.root()) std::filesystem::remove(probe);
  return shared;
}

template <class R>
std::vector<tables::BuiltLevel> build_with(Comm& comm, const std::filesystem::path& dir, const Ruleset& rules, int m,
                                           int max_seeds, DistributedProgress* progress, DistributedFigures* figures,
                                           const tables::BuildTestHooks* hooks, const tables::LevelFormat& format, bool shared,
                                           AcyclicSplit split) {
  const tables::BoardIndex index(2 * m, max_seeds);
  HeldSlices held(index, comm.size(), comm.rank(), std::uint64_t(1) << format.block_log2);
  std::uint64_t requested = 0;
  std::vector<tables::BuiltLevel> report;
  for (int k = 0; k <= max_seeds; ++k) {
    const std::uint64_t size = index.level_size(k);
    if (progress) progress->level = k;
    const std::filesystem::path file = tables::level_path(dir, k);
    // Resume: rank 0 maps a complete level file (a corrupt one is an error,
    // as in build_tables) and sends every rank its slice, in chunks.
    std::optional<tables::MappedLevel> existing;
    std::string reused = "0";
    on_root(comm, [&] {
      if (!tables::level_file_exists(file)) return;
      if (!shared) existing.emplace(file, rules, m, k);
      reused = "1";
    });
    comm.broadcast(reused);
    if (reused == "1" && shared) {
      held.add(read_level_shared(comm, held, file, rules, m, k));
      report.push_back({k, size, true, 0, 0});
      if (progress) progress->positions_done += size;
      continue;
    }
    if (reused == "1") {
      std::vector<std::int8_t> mine(held.hi(k) - held.lo(k));
      if (comm.root()) {
        // read(): a compressed level is decoded a chunk at a time.
        existing->read(held.lo(k), mine.size(), mine.data());
        std::vector<std::int8_t> chunk;
        for (int r = 1; r < comm.size(); ++r) {
          const std::uint64_t a = held.begin(k, r), n = held.begin(k, r + 1) - a;
          for (std::uint64_t at = 0; at < n; at += kChunk) {
            chunk.resize(std::min(kChunk, n - at));
            existing->read(a + at, chunk.size(), chunk.data());
            comm.send(std::span<const std::int8_t>(chunk.data(), chunk.size()), r);
          }
        }
        existing.reset();
      } else {
        for (std::uint64_t at = 0; at < mine.size(); at += kChunk)
          comm.receive(std::span<std::int8_t>(mine.data() + at, std::min<std::uint64_t>(kChunk, mine.size() - at)), 0);
      }
      held.add(std::move(mine));
      report.push_back({k, size, true, 0, 0});
      if (progress) progress->positions_done += size;
      continue;
    }
    const auto t0 = std::chrono::steady_clock::now();
    int passes = 1;
    std::vector<std::int8_t> values;
    if constexpr (R::game == Game::Oware)
      values = build_cyclic_level<R>(comm, held, index, m, k, &passes, &requested, progress);
    else
      values = build_acyclic_level<R>(comm, held, index, m, k, split, &requested, progress);
    held.add(std::move(values));
    if (shared)
      write_level_shared(comm, held, dir, rules, m, k, size, format, hooks);
    else
      write_level_from_slices(comm, held, dir, rules, m, k, size, hooks);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    on_root(comm, [&] { tables::append_build_time(dir, rules, m, k, size, seconds, passes); });
    report.push_back({k, size, false, seconds, passes});
    // After on_root's broadcast: on every rank, rank 0 has written the row.
    if (hooks && hooks->level_written) hooks->level_written(k);
  }
  if (figures) {
    figures->values_held_peak = held.peak_values();
    figures->values_requested = requested;
  }
  return report;
}

}  // namespace

std::uint64_t distributed_memory_estimate(const Ruleset& rules, int pits_per_side, int max_seeds, int processes) {
  const tables::BoardIndex index(2 * pits_per_side, max_seeds);
  const std::uint64_t p = std::uint64_t(processes);
  const std::uint64_t slice = index.level_size(max_seeds) / p + 1;
  std::uint64_t bytes = index.level_offset(max_seeds + 1) / p + std::uint64_t(max_seeds) + 1;  // a slice of every level
  if (rules.game == Game::Oware)  // the slice's cells, frontier and update buffers (about 3 predecessors each)
    bytes += slice * (4 + 8 + 2 * 3 * 8);
  else  // the larger of the two splits (build_acyclic_level):
    // by ranks and Phi, the Phi order of the positions with in-level moves (at most all), their bits and moves;
    // by row-sum classes (at most 5% over a slice), their values and moves, the values sent and received;
    // and a round's requests
    bytes += std::max((slice < tables::PhiBuckets::kNarrowBelow ? 4 : 8) * slice + slice / 8 + slice, slice * 105 / 100 * 4) +
             (std::uint64_t(50) << 20);
  bytes += 3 * slice;    // a request round's keys and answers (batch_positions)
  return bytes;
}

std::vector<tables::BuiltLevel> build_tables_distributed(Comm& comm, const std::filesystem::path& dir,
                                                         const Ruleset& rules, int pits_per_side, int max_seeds,
                                                         DistributedProgress* progress, DistributedFigures* figures,
                                                         const tables::BuildTestHooks* hooks, const tables::LevelFormat& format,
                                                         FileAccess access, AcyclicSplit split) {
  const int per_node = comm.node_size();
  tables::BuildLock lock;  // rank 0's, held until the last level is written
  on_root(comm, [&] {
    if (max_seeds < 0 || max_seeds > tables::kMaxTableSeeds)
      throw InputError("--max-seeds must be between 0 and " + std::to_string(tables::kMaxTableSeeds));
    if (pits_per_side < 1 || pits_per_side > kMaxPitsPerSide)
      throw InputError("pits per side must be between 1 and " + std::to_string(kMaxPitsPerSide));
    if (split == AcyclicSplit::RowSums && pits_per_side > tables::RowSumSlice<KalahRules<false>>::kMaxPits)
      throw InputError("--split row-sums keeps a board's moves in a byte: at most " +
                       std::to_string(tables::RowSumSlice<KalahRules<false>>::kMaxPits) + " pits a side");
    lock = tables::prepare_build(dir, rules, pits_per_side, max_seeds,
                                 distributed_memory_estimate(rules, pits_per_side, max_seeds, comm.size()), per_node);
  });
  bool shared = access == FileAccess::Shared;
  if (access == FileAccess::Auto) shared = directory_is_shared(comm, dir);
  if (access == FileAccess::Shared && !directory_is_shared(comm, dir))
    throw InputError("table directory " + dir.string() +
                     " is not the same directory on every process (--files shared needs a file system they all see; "
                     "--files root has rank 0 alone write it)");
  if (figures) figures->shared_files = shared;
  if (progress) progress->positions_total = tables::BoardIndex(2 * pits_per_side, max_seeds).level_offset(max_seeds + 1);
  std::vector<tables::BuiltLevel> report = dispatch(rules, [&](auto R) {
    return build_with<decltype(R)>(comm, dir, rules, pits_per_side, max_seeds, progress, figures, hooks, format, shared, split);
  });
  // Rank 0 alone writes levels raw, then converts them, as build_tables()
  // does: the same bytes.  Shared writes are in the format already (a
  // resumed level of another format is converted here, as build_tables()
  // converts it).
  on_root(comm, [&] {
    for (int k = 0; k <= max_seeds; ++k) {
      if (shared) {  // the header says whether there is anything to do; every process checked its blocks
        const tables::TableHeader head = tables::read_header(tables::level_path(dir, k));
        if (head.version == int(tables::kTableFormatVersion) && head.codec == format.codec && head.block_log2 == format.block_log2)
          continue;
      }
      tables::convert_level(dir, rules, pits_per_side, k, format);
    }
  });
  return report;
}

}  // namespace mancala::mpi
