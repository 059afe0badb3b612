// Fuzz target: the endgame-table file reader (tables/include/mancala/tables/
// table_file.hpp) and the directory readers built on it (`mancala info` and
// `mancala verify`: describe_directory, summarize_tables, verify_tables).
//
// The input is the bytes of a level file.  The target writes them to
// level_000.mtb in a private temporary directory and reads it back the ways
// the program does:
//   1. read_header(): the header's own consistency;
//   2. parse_digest() of the ruleset it names, then MappedLevel with the
//      header's ruleset, width and level: the full validation;
//   3. the directory readers on the directory of that one file.
// Every step must return or throw InputError; anything else (a crash, another
// exception, a hang, undefined behaviour) is a bug.  What is accepted must
// also agree: MappedLevel accepts only what read_header() accepts, with the
// same header, and a table's entry count is its level's size.
//
// A fuzzer cannot forge a CRC-32 or an FNV-1a hash, so every input is read a
// second time with its checksums recomputed (with_checksums()): the raw bytes
// test that damage is caught, the repaired ones reach the checks behind the
// checksums.
#include <boost/crc.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <unistd.h>
#include <vector>

#include "fuzz_check.hpp"
#include "mancala/error.hpp"
#include "mancala/position.hpp"
#include "mancala/ruleset.hpp"
#include "mancala/tables/board_index.hpp"
#include "mancala/tables/table_check.hpp"
#include "mancala/tables/table_file.hpp"

namespace mancala::tables {
namespace {

// A directory of our own under the system's temporary directory, removed at
// exit (left behind only when the process dies, e.g. on a crash).
class ScratchDir {
 public:
  ScratchDir() {
    std::string templ = (std::filesystem::temp_directory_path() / "mancala-fuzz-XXXXXX").string();
    if (!::mkdtemp(templ.data())) {
      std::perror("mkdtemp");
      std::abort();
    }
    path_ = templ;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

const ScratchDir& scratch() {
  static const ScratchDir dir;
  return dir;
}

std::uint64_t get_le(const std::vector<std::uint8_t>& d, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= std::uint64_t(d[at + std::size_t(i)]) << (8 * i);
  return v;
}
void put_le(std::vector<std::uint8_t>& d, std::size_t at, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) d[at + std::size_t(i)] = std::uint8_t(v >> (8 * i));
}

// The input with the digest hash, the payload hash and the header CRC
// recomputed where the header's layout (digest length L, header size H; see
// table_file.hpp) puts them inside the input; the rest is left as it is.
std::vector<std::uint8_t> with_checksums(std::vector<std::uint8_t> d) {
  const std::size_t size = d.size();
  if (size < 26) return d;
  const std::size_t L = get_le(d, 24, 2);
  if (size < 26 + L) return d;
  put_le(d, 16, fnv1a64(d.data() + 26, L), 8);
  const std::size_t crc_at = 64 + L;
  if (size < crc_at + 4) return d;
  const std::size_t payload = std::min<std::uint64_t>(get_le(d, 12, 4), size);
  put_le(d, 56 + L, fnv1a64(d.data() + payload, size - payload), 8);
  boost::crc_32_type crc;
  crc.process_bytes(d.data(), crc_at);
  put_le(d, crc_at, crc.checksum(), 4);
  return d;
}

bool same_header(const TableHeader& a, const TableHeader& b) {
  return a.digest == b.digest && a.pits_per_side == b.pits_per_side && a.seeds == b.seeds && a.entries == b.entries &&
         a.payload_hash == b.payload_hash;
}

// Reads the file back every way; returns whether MappedLevel accepted it.
bool read_back(const std::vector<std::uint8_t>& bytes, std::string_view input) {
  const std::filesystem::path dir = scratch().path();
  const std::filesystem::path file = level_path(dir, 0);
  {
    // A new file each time, not the old one truncated: ext4 pushes a file
    // truncated and rewritten out to disk at close (auto_da_alloc), which
    // made every input wait for the disk.
    std::error_code ec;
    std::filesystem::remove(file, ec);
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    if (!out) {
      std::perror("writing the input");
      std::abort();
    }
  }

  std::optional<TableHeader> header;
  try {
    header = read_header(file);
  } catch (const InputError&) {
  }

  bool accepted = false;
  if (header) {
    FUZZ_CHECK(header->pits_per_side >= 0 && header->pits_per_side <= 255, input);
    FUZZ_CHECK(header->seeds >= 0 && header->seeds <= 65535, input);
    std::optional<Ruleset> rules;
    try {
      rules = parse_digest(header->digest);
    } catch (const InputError&) {
    }
    // A directory holds levels 0..127 at most (int8 values): bigger levels
    // are refused by name before a reader opens them.
    if (rules && header->seeds <= 127) {
      try {
        const MappedLevel level(file, *rules, header->pits_per_side, header->seeds);
        accepted = true;
        FUZZ_CHECK(same_header(level.header(), *header), input);
        FUZZ_CHECK(level.size() == header->entries, input);
        FUZZ_CHECK(level.size() == BoardIndex(2 * header->pits_per_side, header->seeds).level_size(header->seeds), input);
        FUZZ_CHECK(std::uint64_t(header->pits_per_side) >= 1, input);
        // Every value is inside the mapping (a stray pointer faults here).
        const std::int8_t* v = level.values();
        FUZZ_CHECK(v != nullptr || level.size() == 0, input);
        std::uint64_t sum = 0;
        for (std::uint64_t i = 0; i < level.size(); ++i) sum += std::uint8_t(v[i]);
        (void)sum;
      } catch (const InputError&) {
      }
    }
  }

  // `mancala info` and `mancala verify` on the directory of this one file.
  try {
    const DirectoryInfo info = describe_directory(dir);
    FUZZ_CHECK(header.has_value(), input);
    FUZZ_CHECK(info.max_seeds == 0, input);
    FUZZ_CHECK(info.pits_per_side == header->pits_per_side, input);
    const std::vector<LevelSummary> levels = summarize_tables(dir);
    FUZZ_CHECK(levels.size() == 1, input);
    FUZZ_CHECK(levels[0].wins + levels[0].draws + levels[0].losses == levels[0].positions, input);
    verify_tables(dir);
  } catch (const InputError&) {
  }
  // The engine's limit, which the reader enforces (the known-bug-* inputs of
  // the corpus once got past it and crashed verify).
  if (accepted) FUZZ_CHECK(header->pits_per_side <= kMaxPitsPerSide, input);
  return accepted;
}

}  // namespace
}  // namespace mancala::tables

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mancala::tables;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::vector<std::uint8_t> raw(data, data + size);
  const std::vector<std::uint8_t> repaired = with_checksums(raw);
  const bool raw_accepted = read_back(raw, input);
  // A file the reader accepts has right checksums: repairing changes nothing.
  if (raw_accepted) FUZZ_CHECK(repaired == raw, input);
  if (repaired != raw) read_back(repaired, input);
  return 0;
}
