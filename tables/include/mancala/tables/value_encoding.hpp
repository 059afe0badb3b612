// How the tables hold a board value, and the limits that follow: written
// once for the builders, the files, the prober, the verifier and the solver.
//
// A value is one signed byte.  |b| <= the seeds on the board, so levels of up
// to 127 seeds fit; -128 is never a board value and marks a position of a
// level being built whose value is not known yet.
#pragma once

#include <cstdint>
#include <string>

#include "mancala/error.hpp"

namespace mancala::tables {

using TableValue = std::int8_t;

// Highest level a table (file, in-memory level or distributed build) holds.
inline constexpr int kMaxTableSeeds = 127;

// A position of a level being built whose value is not known yet.
inline constexpr TableValue kUnknownValue = -128;

// A value's key across the levels, (level, rank) in 64 bits: what builders
// that hold only slices of the levels ask each other for.
inline constexpr int kKeyLevelShift = 57;  // 7 bits of level (<= 127 seeds), 57 of rank

inline std::uint64_t value_key(int seeds, std::uint64_t rank) { return std::uint64_t(seeds) << kKeyLevelShift | rank; }
inline int key_seeds(std::uint64_t key) { return int(key >> kKeyLevelShift); }
inline std::uint64_t key_rank(std::uint64_t key) { return key & ((std::uint64_t(1) << kKeyLevelShift) - 1); }

}  // namespace mancala::tables
