// On-disk endgame tables: one file per level (all boards with k seeds).
//
// File layout, format version 2 (all integers little-endian, written field by
// field, never as a raw struct):
//
//   offset  size  field
//   0       8     magic "MNCLTBL\x1a"
//   8       4     format version (2)
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
//   31+L    8     entry count S (= C(k+2m-1, 2m-1))
//   39+L    1     payload codec (0: none, the values as they are; 1: zstd;
//                 2: packed, tables/src/packed_block.hpp)
//   40+L    1     log2 of the block size b: the values are stored in blocks
//                 of 2^b consecutive ranks (the last one shorter), each coded
//                 on its own; 10 <= b <= 24
//   41+L    8     payload size as stored P (every block, after the index)
//   49+L    8     FNV-1a 64 of the S values in rank order (the level's
//                 content hash: the same for every codec and block size,
//                 and the same as version 1's payload hash)
//   57+L    8     XXH3-64 of the block index
//   65+L    4     CRC-32 of header bytes 0 .. 65+L
//   H       16n   block index, n = ceil(S / 2^b) entries: 8 bytes, where the
//                 stored block ends (from the start of the payload; blocks
//                 are back to back, the first starts at 0), then 8 bytes,
//                 XXH3-64 of the block's values (decoded)
//   H+16n   P     payload: the blocks
//
// Codec "none" stores the values themselves, so the payload is the level's
// values in rank order and is read in place from the mapping; "zstd" stores
// each block as one zstd frame, and a reader decodes the blocks it needs (a
// probe one block, through a cache); "packed" stores each block as runs of
// 64 values in a few bits each, read in place one value at a time (a probe
// is two memory reads, not a block's decoding).  A block's XXH3 is checked
// whenever it is decoded, and for codecs "none" and "packed" every block's
// at open (as version 1 hashed its payload at open).  XXH3, not FNV-1a, for the blocks: it is
// about 15 times as fast (10 GB/s against 0.7 GB/s, bench/checksum_bench.cpp); FNV-1a stays as the
// content hash that published checksums and the pinned tests name.
//
// Version 1 (still read, never written; `mancala compress` rewrites such a
// directory in version 2):
//
//   0..38+L as above, then
//   39+L    1     payload codec (0: raw bytes)
//   40+L    8     payload size as stored (= S)
//   48+L    8     payload size decoded (= S)
//   56+L    8     FNV-1a 64 of the payload
//   64+L    4     CRC-32 of header bytes 0 .. 64+L
//   H       S     payload: the values in rank order
//
// A file is trusted only if every field matches what the reader expects
// (magic, version, digest, pits, level, scheme, encoding, entry count), the
// header CRC holds, the index hash holds and its offsets are in order and
// add up to P, the file size is exactly H + 16n + P (H + S in version 1),
// and each block's hash matches when its values are read; otherwise the
// reader refuses it with an error naming the file (and the block).  Every
// field is range-checked before it is used, also in a header whose CRC
// holds (a forged header is as likely as a corrupt one): the digest must be
// a known ruleset's canonical text (at most 255 bytes), 1 <= m <= 16 (the
// engine's limit), 0 <= k <= 127 (values are int8), and the entry count must
// be exactly C(k+2m-1, 2m-1).  Only regular files are read (a FIFO or a
// device in place of a level file is refused before any read, which would
// block).  Writers write `<name>.tmp`, fsync it, rename it into place and
// fsync the directory, so a complete file is either there or not.
//
// What the checks do not catch: the CRC and the hashes guard against
// accidents, not against forgery.  A file whose values were changed and
// whose hashes and header CRC were recomputed is trusted by every reader
// (probe, solve --tables, info, build's resume); only `mancala verify`
// re-derives the values from the rules and would find it.
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
// Version history:
//   1  first format: one raw payload, one FNV-1a hash.
//   2  blocks with an index and a hash each; codecs none and zstd, then
//      packed (codec 2, added without a version change: a reader that
//      does not know it refuses the file as an unknown codec).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "mancala/error.hpp"
#include "mancala/ruleset.hpp"
#include "mancala/tables/value_encoding.hpp"

namespace mancala::tables {

inline constexpr std::uint32_t kTableFormatVersion = 2;  // written; 1 and 2 are read

// How a level's values are stored (format version 2).
enum class Codec : std::uint8_t { None = 0, Zstd = 1, Packed = 2 };
// "none", "zstd", "packed".
const char* codec_name(Codec codec);
// Throws InputError naming the choices for anything else.
Codec parse_codec(const std::string& name);

struct LevelFormat {
  Codec codec = Codec::None;
  int block_log2 = 16;  // blocks of 2^16 values
  int zstd_level = 19;  // the coder's effort (1..22), codec zstd only; not in the file
};
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
  std::uint64_t payload_hash = 0;  // FNV-1a 64 of the values (both versions)
  int version = 0;
  Codec codec = Codec::None;
  int block_log2 = 0;               // 0 in version 1 (one block)
  std::uint64_t stored_bytes = 0;   // the payload as stored (blocks), index excluded
  std::uint64_t file_bytes = 0;
};

// "level_007.mtb": the file of level k in a table directory.
std::filesystem::path level_path(const std::filesystem::path& dir, int seeds);

std::uint64_t fnv1a64(const void* data, std::size_t size);

// Whether anything is at `file` (false only when nothing is).  Throws
// TableError naming the path when that cannot be told (a symlink loop, no
// permission) and when `file` is a symbolic link to nothing:
// std::filesystem::exists() would throw filesystem_error, which is no
// internal error, or call the link absent.
bool level_file_exists(const std::filesystem::path& file);

// Writes a level file atomically (tmp, fsync, rename, fsync directory).
// Throws InputError on an I/O error (e.g. a full disk, a failed rename),
// naming the file.
void write_level(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side, int seeds,
                 const std::vector<std::int8_t>& values, const LevelFormat& format = {});

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
  LevelFileWriter(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side, int seeds, std::uint64_t entries,
                  const LevelFormat& format = {});
  ~LevelFileWriter();
  LevelFileWriter(const LevelFileWriter&) = delete;
  LevelFileWriter& operator=(const LevelFileWriter&) = delete;

  // Whole blocks are coded in parallel (TBB), then written in order.
  void append(const std::int8_t* values, std::size_t n);
  void finish();

 private:
  void write_all(const void* p, std::size_t n);
  void write_blocks(const std::int8_t* values, std::size_t n);  // n: whole blocks, or the level's last
  std::filesystem::path dir_, file_, tmp_;
  Ruleset rules_;
  int pits_per_side_, seeds_;
  LevelFormat format_;
  std::uint64_t entries_, written_ = 0, hash_;
  std::uint64_t stored_ = 0;                  // payload bytes written
  std::vector<std::uint64_t> index_;          // per block written: end offset, XXH3
  std::vector<std::int8_t> pending_;          // values short of a whole block
  std::size_t header_size_ = 0;
  int fd_ = -1;
};

// A level file written by several processes at once into one file on a file
// system they all see (the distributed build, tables/mpi/), each process its
// own slice of the level: the bytes LevelFileWriter writes.  Every slice is
// whole blocks (only the level's last block may be short).  The steps:
//   every process:  code_blocks(its values)             its blocks and their index entries
//   (its payload offset: the stored sizes of the slices before it, summed;
//    the content hash: fnv1a64_continue() chained through the slices in
//    rank order)
//   one process:    create_level_tmp()                  the .tmp at its full size
//   every process:  write_level_part()                  its blocks at level_file_prefix_bytes() + offset
//   one process:    finish_level_tmp()                  header and index, sync, rename into place
struct CodedBlocks {
  // The blocks as stored, back to back; empty for codec none, whose blocks
  // are the values themselves.
  std::vector<std::uint8_t> stored;
  std::uint64_t stored_bytes = 0;
  // Per block: where it ends in the stored bytes (from the first block's
  // start), its XXH3-64.
  std::vector<std::uint64_t> index;
};
// Throws InputError for a format out of range.
CodedBlocks code_blocks(const std::int8_t* values, std::uint64_t n, const LevelFormat& format);

inline constexpr std::uint64_t kFnv1a64Offset = 0xcbf29ce484222325ull;
// FNV-1a 64 of the bytes that follow those whose hash is `state`
// (fnv1a64(d, n) == fnv1a64_continue(kFnv1a64Offset, d, n)).
std::uint64_t fnv1a64_continue(std::uint64_t state, const void* data, std::size_t size);

// Bytes of a level file before its payload: the header and the block index.
std::uint64_t level_file_prefix_bytes(const Ruleset& rules, int pits_per_side, int seeds, std::uint64_t entries,
                                      const LevelFormat& format);
// The .tmp of level `seeds` in dir, new, of `bytes` bytes (zeros); returns
// its path.  Throws InputError naming it.
std::filesystem::path create_level_tmp(const std::filesystem::path& dir, int seeds, std::uint64_t bytes);
// `n` bytes at `offset` of a .tmp made by create_level_tmp() (by any
// process that sees it), synced.  Throws InputError naming it.
void write_level_part(const std::filesystem::path& tmp, std::uint64_t offset, const void* data, std::size_t n);
// The header and index (`index`: every block's entry, ends from the start of
// the payload) into the .tmp, then sync and rename into place, as
// LevelFileWriter::finish().  Throws InputError naming the file.
void finish_level_tmp(const std::filesystem::path& dir, const Ruleset& rules, int pits_per_side, int seeds,
                      std::uint64_t entries, const LevelFormat& format, std::uint64_t stored_bytes, std::uint64_t content_hash,
                      const std::vector<std::uint64_t>& index);

// A level file mapped read-only and validated on open (header, size, block
// index; for values stored raw, every block's hash).  Throws TableError
// naming the file and the problem.  While it is mapped, a SIGBUS on its
// pages (the file truncated under it) ends the process with one line naming
// the file and exit status 2.  Thread-safe.
class MappedLevel {
 public:
  // Whole: every block is checked at open (raw and packed files), so values
  // are then read in place unchecked.  Slices: the header and index only,
  // for a process that reads a slice of a level shared by many (the
  // distributed build's resume): read() then checks each block it decodes,
  // and value() and values() are not for use.
  enum class Opening { Whole, Slices };
  MappedLevel(const std::filesystem::path& file, const Ruleset& rules, int pits_per_side, int seeds,
              Opening opening = Opening::Whole);
  ~MappedLevel();
  MappedLevel(const MappedLevel&) = delete;
  MappedLevel& operator=(const MappedLevel&) = delete;

  const TableHeader& header() const { return header_; }
  const std::filesystem::path& file() const { return file_; }
  // The values in rank order, in place in the mapping; null when they are
  // compressed (then value() and read() decode them).
  const std::int8_t* values() const { return values_; }
  std::uint64_t size() const { return header_.entries; }

  // The value of `rank` (< size()); a packed one is read in place, a zstd
  // block decoded, checked and kept in a small cache.  Throws TableError when the block is corrupt.
  int value(std::uint64_t rank) const {
    if (values_) return values_[rank];
    return cached_value(rank);
  }
  // Values [first, first + n) into out, each block checked (at open, or
  // now when the file was opened for slices).
  void read(std::uint64_t first, std::uint64_t n, std::int8_t* out) const;
  // Every block decoded and checked, and the content hash: what `verify`
  // asks of a file before it re-derives the values.  Throws TableError
  // naming the first bad block.
  void check_payload() const;

 private:
  struct Block;
  int cached_value(std::uint64_t rank) const;
  // read(), and with `recheck` raw version 2 blocks' hashes checked again.
  void read_blocks(std::uint64_t first, std::uint64_t n, std::int8_t* out, bool recheck) const;
  std::uint64_t block_count() const;
  // Decodes block b (whole) into out and checks its hash.
  void decode_block(std::uint64_t b, std::int8_t* out, void* context) const;

  std::filesystem::path file_;
  TableHeader header_;
  void* map_ = nullptr;
  std::size_t map_size_ = 0;
  const std::uint8_t* index_ = nullptr;    // version 2's block index
  const std::uint8_t* payload_ = nullptr;  // the stored blocks
  const std::int8_t* values_ = nullptr;
  std::unique_ptr<Block[]> cache_;         // compressed files: decoded blocks, by block number modulo kCacheSlots
  bool checked_at_open_ = true;  // Opening::Whole
  int bus_slot_ = -1;        // its entry in the SIGBUS handler's table, or -1
  std::string bus_message_;  // the line that handler prints for this file
};

// Reads just the header of a level file, checking its own consistency (magic,
// version, header CRC, file size, every field in range) but not what it
// should contain.  Throws TableError.
TableHeader read_header(const std::filesystem::path& file);

}  // namespace mancala::tables
