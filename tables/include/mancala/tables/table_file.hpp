// On-disk endgame tables: one file per level (all boards with k seeds).
//
// File layout, format version 1 (all integers little-endian, written field by
// field, never as a raw struct):
//
//   offset  size  field
//   0       8     magic "MNCLTBL\x1a"
//   8       4     format version (1)
//   12      4     header size in bytes (H)
//   16      8     FNV-1a 64 of the ruleset digest (a quick "wrong ruleset" check)
//   24      2     ruleset digest length L
//   26      L     ruleset digest text, e.g. "kalah+empty-capture"
//   26+L    1     pits per side m
//   27+L    2     seeds on the board k (the level)
//   29+L    1     index scheme (1: colex rank of the stars-and-bars partial
//                 sums over the 2m mover-relative pits, see board_index.hpp)
//   30+L    1     value encoding (1: int8 board value, mover-relative, stores
//                 excluded)
//   31+L    8     entry count (= C(k+2m-1, 2m-1))
//   39+L    1     payload codec (0: raw bytes)
//   40+L    8     payload size as stored
//   48+L    8     payload size decoded
//   56+L    8     FNV-1a 64 of the decoded payload
//   64+L    4     CRC-32 of header bytes 0 .. 64+L
//   H       ...   payload
//
// A file is trusted only if every field matches what the reader expects
// (magic, version, digest, pits, level, scheme, encoding, entry count), the
// header CRC holds, the file size is exactly H + payload size, and the
// payload hash matches; otherwise the reader refuses it with an error naming
// the file.  Writers write `<name>.tmp`, fsync it, rename it into place and
// fsync the directory, so a complete file is either there or not.
//
// Nothing that varies between runs (times, hosts, thread counts) is in a
// file: a rebuild, with any number of threads or after an interruption, gives
// byte-identical files.  Build times go to build_times.csv beside them.
//
// Compression: none yet.  Measured with the zstd command on Kalah 5-pit level
// 17 (3.1 MB): 2.3x at level 3, 2.8x at level 19; Oware 6-pit level 12: 2.5x.
// A raw payload is probed in place from the mapping; a compressed one needs
// block-wise decoding and a cache, worth it once tables outgrow memory.
//
// Version history:
//   1  first format.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "mancala/ruleset.hpp"

namespace mancala::tables {

inline constexpr std::uint32_t kTableFormatVersion = 1;

struct TableHeader {
  std::string digest;
  int pits_per_side = 0;
  int seeds = 0;
  std::uint64_t entries = 0;
  std::uint64_t payload_hash = 0;
};

// "level_07.mtb": the file of level k in a table directory.
std::filesystem::path level_path(const std::filesystem::path& dir, int seeds);

std::uint64_t fnv1a64(const void* data, std::size_t size);

// Writes a level file atomically (tmp, fsync, rename, fsync directory).
// Throws InputError on an I/O error (e.g. a full disk), naming the file.
void write_level(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side, int seeds,
                 const std::vector<std::int8_t>& values);

// The same file as write_level(), written from the values in pieces (a
// builder that never holds the whole level: append() them in rank order).
// The header, whose payload hash is known only at the end, is written by
// finish(), which also syncs and renames the file into place; a writer
// destroyed before finish() leaves only its `.tmp` (as an interrupted
// write_level() does), which the next write of the level replaces.  Throws InputError
// on an I/O error, std::logic_error when the values do not add up to
// `entries`.
class LevelFileWriter {
 public:
  LevelFileWriter(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side, int seeds, std::uint64_t entries);
  ~LevelFileWriter();
  LevelFileWriter(const LevelFileWriter&) = delete;
  LevelFileWriter& operator=(const LevelFileWriter&) = delete;

  void append(const std::int8_t* values, std::size_t n);
  void finish();

 private:
  void write_all(const void* p, std::size_t n);
  std::filesystem::path dir_, file_, tmp_;
  Ruleset rules_;
  int pits_per_side_, seeds_;
  std::uint64_t entries_, written_ = 0, hash_;
  std::size_t header_size_ = 0;
  int fd_ = -1;
};

// A level file mapped read-only and fully validated (header, size, payload
// hash) on open.  Throws InputError naming the file and the problem.
class MappedLevel {
 public:
  MappedLevel(const std::filesystem::path& file, const Ruleset& rules, int pits_per_side, int seeds);
  ~MappedLevel();
  MappedLevel(const MappedLevel&) = delete;
  MappedLevel& operator=(const MappedLevel&) = delete;

  const TableHeader& header() const { return header_; }
  const std::int8_t* values() const { return values_; }
  std::uint64_t size() const { return header_.entries; }

 private:
  TableHeader header_;
  void* map_ = nullptr;
  std::size_t map_size_ = 0;
  const std::int8_t* values_ = nullptr;
};

// Reads just the header of a level file, checking its own consistency (magic,
// version, header CRC, file size) but not what it should contain.
TableHeader read_header(const std::filesystem::path& file);

}  // namespace mancala::tables
