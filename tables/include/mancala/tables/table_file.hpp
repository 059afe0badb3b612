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
// the file.  Every field is range-checked before it is used, also in a
// header whose CRC holds (a forged header is as likely as a corrupt one):
// the digest must be a known ruleset's canonical text (at most 255 bytes),
// 1 <= m <= 16 (the engine's limit), 0 <= k <= 127 (values are int8), and the
// entry count must be exactly C(k+2m-1, 2m-1).  Only regular files are read
// (a FIFO or a device in place of a level file is refused before any read,
// which would block).  Writers write `<name>.tmp`, fsync it, rename it into
// place and fsync the directory, so a complete file is either there or not.
//
// What the checks do not catch: the CRC and the payload hash guard against
// accidents, not against forgery.  A file whose values were changed and
// whose payload hash and header CRC were recomputed is trusted by every
// reader (probe, solve --tables, info, build's resume); only `mancala
// verify` re-derives the values from the rules and would find it.
//
// Files are mapped, not read: if another program truncates or rewrites a
// level file in place while a command has it mapped (the toolkit itself
// never does: its writes go to a new file renamed into place), reading the
// lost pages raises SIGBUS.  MappedLevel turns that signal, for an address in
// one of its mappings, into one line on stderr naming the file and exit
// status 2 (an async-signal-safe handler, installed when the first level is
// mapped, that hands any other SIGBUS on to the handler it replaced).
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

#include "mancala/error.hpp"
#include "mancala/ruleset.hpp"
#include "mancala/tables/value_encoding.hpp"

namespace mancala::tables {

inline constexpr std::uint32_t kTableFormatVersion = 1;
// Levels 0..kMaxTableSeeds (value_encoding.hpp): a board value fits in an int8.

// The tables themselves are bad (a level file missing, corrupt, truncated,
// foreign, unreadable or not a regular file, a gap in the levels), as
// opposed to a command that was misused (no such directory, a bad option).
// `mancala verify` reports these as its verdict (exit status 1); for every
// other command they are bad input like any other (exit status 2).
class TableError : public InputError {
 public:
  using InputError::InputError;
};

struct TableHeader {
  std::string digest;
  int pits_per_side = 0;
  int seeds = 0;
  std::uint64_t entries = 0;
  std::uint64_t payload_hash = 0;
};

// "level_007.mtb": the file of level k in a table directory.
std::filesystem::path level_path(const std::filesystem::path& dir, int seeds);

std::uint64_t fnv1a64(const void* data, std::size_t size);

// Whether anything is at `file` (false only when nothing is, a dangling
// symlink included).  Throws TableError naming the path when that cannot be
// told (a symlink loop, no permission): std::filesystem::exists() would
// throw filesystem_error, which is no internal error.
bool level_file_exists(const std::filesystem::path& file);

// Writes a level file atomically (tmp, fsync, rename, fsync directory).
// Throws InputError on an I/O error (e.g. a full disk, a failed rename),
// naming the file.
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
// hash) on open.  Throws TableError naming the file and the problem.  While
// it is mapped, a SIGBUS on its pages (the file truncated under it) ends the
// process with one line naming the file and exit status 2.
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
  int bus_slot_ = -1;        // its entry in the SIGBUS handler's table, or -1
  std::string bus_message_;  // the line that handler prints for this file
};

// Reads just the header of a level file, checking its own consistency (magic,
// version, header CRC, file size, every field in range) but not what it
// should contain.  Throws TableError.
TableHeader read_header(const std::filesystem::path& file);

}  // namespace mancala::tables
