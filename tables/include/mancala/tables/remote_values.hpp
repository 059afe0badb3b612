// Values held in slices by several processes: who owns a rank, and the
// compact form of sorted key lists that builders send (tables/mpi/ drives
// these with MPI; nothing here communicates).  The request rounds
// themselves are in exit_requests.hpp.
//
// Ownership: level k, of S positions, is cut into `parts` contiguous slices
// of board ranks, slice r being [slice_begin(S, parts, r),
// slice_begin(S, parts, r + 1)) (cyclic_slice.hpp): equal blocks, the
// larger ones last.  A (level, rank) pair is one 64-bit key, level in the top
// 7 bits, so sorting keys sorts by level, then rank.
#pragma once


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

}  // namespace mancala::tables
