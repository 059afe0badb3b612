// Values held in slices by several processes, and the batched look-ups of a
// builder that needs values it does not hold (tables/mpi/ drives these with
// MPI; nothing here communicates).
//
// Ownership: level k, of S positions, is cut into `parts` contiguous slices
// of board ranks, slice r being [slice_begin(S, parts, r),
// slice_begin(S, parts, r + 1)) (cyclic_slice.hpp): equal blocks, the
// larger ones last.  A (level, rank) pair is one 64-bit key, level in the top
// 7 bits, so sorting keys sorts by level, then rank.
//
// A look-up round, for one batch of a process's positions:
//     RemoteRequests req(keys of the successors it does not hold, ...);
//     (send req.to_owner(r) to every process r, in one all-to-all)
//     (every process answers the keys it received with their values, in the
//      order received: answer_requests())
//     (the answers come back in one all-to-all, concatenated in owner order)
//     req.set_answers(answers);  ... req.value(key) ...
// Each key goes to its owner once per batch however many positions need it.
#pragma once

#include <tbb/parallel_sort.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "mancala/tables/cyclic_slice.hpp"

namespace mancala::tables {


// The slice (process) that owns rank `rank` of a level of `size` positions
// split into `parts` slices (aligned to `align`): the r with slice_begin(r) <=
// rank < slice_begin(r+1).
inline int slice_owner(std::uint64_t size, int parts, std::uint64_t rank, std::uint64_t align = 1) {
  if (rank >= size) throw std::logic_error("slice_owner: rank " + std::to_string(rank) + " beyond the level");
  int r = std::clamp(int(double(rank) * double(parts) / double(size)), 0, parts - 1);  // a guess, corrected below
  while (r + 1 < parts && slice_begin(size, parts, r + 1, align) <= rank) ++r;
  while (r > 0 && slice_begin(size, parts, r, align) > rank) --r;
  return r;
}

class RemoteRequests {
 public:
  // keys: any order, duplicates allowed (consumed).  owner(key) -> process.
  template <class Owner>
  RemoteRequests(std::vector<std::uint64_t> keys, int parts, const Owner& owner) : starts_(std::size_t(parts) + 1, 0) {
    tbb::parallel_sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    keys_ = std::move(keys);
    // Grouped by owner (a stable counting sort): position_[j] is where the
    // j-th key of the owner-grouped order sits in keys_.
    std::vector<int> owners(keys_.size());
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      owners[i] = owner(keys_[i]);
      if (owners[i] < 0 || owners[i] >= parts) throw std::logic_error("RemoteRequests: owner out of range");
      ++starts_[std::size_t(owners[i]) + 1];
    }
    for (int r = 0; r < parts; ++r) starts_[std::size_t(r) + 1] += starts_[std::size_t(r)];
    std::vector<std::uint64_t> at(starts_.begin(), starts_.end() - 1);
    grouped_.resize(keys_.size());
    position_.resize(keys_.size());
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      const std::uint64_t j = at[std::size_t(owners[i])]++;
      grouped_[j] = keys_[i];
      position_[j] = i;
    }
  }

  std::size_t size() const { return keys_.size(); }
  // The keys to ask process r for.
  std::span<const std::uint64_t> to_owner(int r) const {
    return {grouped_.data() + starts_[std::size_t(r)], grouped_.data() + starts_[std::size_t(r) + 1]};
  }

  // The answers, one value a key, concatenated in owner order (each owner's
  // in the order it was asked).
  void set_answers(std::span<const std::int8_t> answers) {
    if (answers.size() != grouped_.size())
      throw std::logic_error("RemoteRequests: " + std::to_string(answers.size()) + " answers to " + std::to_string(grouped_.size()) + " keys");
    values_.resize(keys_.size());
    for (std::size_t j = 0; j < answers.size(); ++j) values_[position_[j]] = answers[j];
    grouped_ = {};
    position_ = {};
  }

  // The value of a key that was asked for.
  std::int8_t value(std::uint64_t key) const {
    const auto it = std::lower_bound(keys_.begin(), keys_.end(), key);
    if (it == keys_.end() || *it != key) throw std::logic_error("RemoteRequests: key " + std::to_string(key) + " was not asked for");
    return values_[std::size_t(it - keys_.begin())];
  }

 private:
  std::vector<std::uint64_t> keys_;     // sorted, unique
  std::vector<std::uint64_t> starts_;   // owner r's keys: grouped_[starts_[r] .. starts_[r+1])
  std::vector<std::uint64_t> grouped_;  // the keys in owner order
  std::vector<std::uint64_t> position_; // grouped_[j] == keys_[position_[j]]
  std::vector<std::int8_t> values_;     // by keys_ index
};

// Sorted 64-bit keys (non-decreasing: repeats allowed) as LEB128 varints of
// their differences, the list starting from 0: what a builder sends instead
// of 8 bytes a key.  A request round's keys for one owner lie close
// together in its slice (a batch asks for a few values a position of 1/16
// of the slices), and an Oware round's updates are sorted ranks, so most
// differences take one or two bytes.  The level in a key's top bits (value
// encoding) costs a long difference once a level.
inline void append_sorted_varints(std::span<const std::uint64_t> sorted, std::vector<std::uint8_t>& out) {
  std::uint64_t last = 0;
  for (const std::uint64_t key : sorted) {
    if (key < last) throw std::logic_error("append_sorted_varints: keys out of order");
    std::uint64_t d = key - last;
    last = key;
    while (d >= 0x80) {
      out.push_back(std::uint8_t(d | 0x80));
      d >>= 7;
    }
    out.push_back(std::uint8_t(d));
  }
}

// The keys of one such list (a whole list: it starts from 0).  Throws
// std::runtime_error for bytes that are not one (a varint cut short or
// longer than 64 bits, a sum beyond 64 bits).
inline std::vector<std::uint64_t> read_sorted_varints(std::span<const std::uint8_t> bytes) {
  std::vector<std::uint64_t> keys;
  std::uint64_t last = 0;
  for (std::size_t i = 0; i < bytes.size();) {
    std::uint64_t d = 0;
    for (int shift = 0;; shift += 7) {
      if (i == bytes.size() || shift > 63) throw std::runtime_error("read_sorted_varints: a difference cut short or too long");
      const std::uint8_t b = bytes[i++];
      if (shift == 63 && (b & 0x7e)) throw std::runtime_error("read_sorted_varints: a difference beyond 64 bits");
      d |= std::uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) break;
    }
    if (d > ~last) throw std::runtime_error("read_sorted_varints: a key beyond 64 bits");
    last += d;
    keys.push_back(last);
  }
  return keys;
}

// The owner's side: the values of the keys it received, in their order;
// held(key) gives the value of a key this process owns.
template <class Held>
std::vector<std::int8_t> answer_requests(std::span<const std::uint64_t> keys, const Held& held) {
  std::vector<std::int8_t> out(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) out[i] = held(keys[i]);
  return out;
}

}  // namespace mancala::tables
