// The table commands (info, verify, probe, solve --tables, build) on table
// directories that are bad in every way found so far: forged headers with
// recomputed checksums, FIFOs and symlink loops in place of level files, gaps
// in the levels, paths that are files or cannot be created, Congkak
// positions with burnt holes.  Each must give the one-line error of the
// contract (exit status 2), or for `verify` its verdict (exit status 1, the
// problems on stderr and, with --json, in its JSON object), and never crash,
// hang or answer.  The concurrent cases (two builds at once, a file
// truncated while mapped, a rename that fails) are in
// table_robustness_test.sh.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "cli_harness.hpp"
#include "temp_dir.hpp"

namespace {

using namespace cli_harness;
namespace fs = std::filesystem;

// ---------------------------------------------------------------------------
// Fixtures: small table directories built once by the binary itself.
// ---------------------------------------------------------------------------

// Removed when the process ends, and at its start if a dead process of the
// same id left one (built fixtures found there would be reused).
const fs::path& suite_dir() {
  static const TempDir dir{"mancala_table_robustness"};
  return dir.path();
}

// A directory built with `mancala build ARGS --out DIR` (once per process).
fs::path built(const std::string& name, const Args& args) {
  const fs::path dir = suite_dir() / "built" / name;
  if (!fs::exists(dir / "level_000.mtb")) {
    const RunResult r = run_mancala(cat(cat({"build"}, args), {"--out", dir.string(), "--quiet"}), 60s);
    EXPECT_EQ(r.exit_code, 0) << describe(r);
  }
  return dir;
}
const Args kKalah3 = {"--game", "kalah", "--pits", "3", "--max-seeds", "8"};
fs::path kalah3() { return built("kalah3", kKalah3); }
fs::path kalah3_level0() { return built("kalah3_level0", {"--game", "kalah", "--pits", "3", "--max-seeds", "0"}); }
fs::path oware3() { return built("oware3", {"--game", "oware", "--pits", "3", "--max-seeds", "8"}); }
fs::path kalah4() { return built("kalah4", {"--game", "kalah", "--pits", "4", "--max-seeds", "8"}); }

// A fresh copy of a built directory, private to the running test.
fs::path copy_of(const fs::path& source) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(info->test_suite_name()) + "." + info->name();
  for (char& c : name)
    if (c == '/') c = '_';
  const fs::path dir = suite_dir() / "work" / name;
  fs::remove_all(dir);
  fs::create_directories(dir.parent_path());
  fs::copy(source, dir, fs::copy_options::recursive);
  return dir;
}

fs::path level(const fs::path& dir, int k) {
  char name[32];
  std::snprintf(name, sizeof name, "level_%03d.mtb", k);
  return dir / name;
}

std::string bytes_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
void write_bytes(const fs::path& file, const std::string& bytes) {
  fs::remove_all(file);
  std::ofstream(file, std::ios::binary) << bytes;
}

// ---------------------------------------------------------------------------
// Forging headers (layout in tables/include/mancala/tables/table_file.hpp),
// with every checksum recomputed, so that only the range checks can tell.
// ---------------------------------------------------------------------------

std::uint32_t crc32(const std::string& s) {
  std::uint32_t c = 0xffffffffu;
  for (const unsigned char b : s) {
    c ^= b;
    for (int i = 0; i < 8; ++i) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
  }
  return ~c;
}
std::uint64_t fnv1a64(const std::string& s) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char b : s) h = (h ^ b) * 0x100000001b3ull;
  return h;
}

// Format version 2: the header, then the block index (end offset and XXH3
// of each block), then the blocks.  The forger handles the raw codec, whose
// blocks are the values themselves; reindex() recomputes the index from the
// payload, as a forger who changes values would.
struct Header {
  std::uint32_t version = 0;
  std::string digest;
  std::uint64_t pits = 0, seeds = 0, scheme = 0, encoding = 0, entries = 0, codec = 0, block_log2 = 0, stored = 0;
  std::uint64_t payload_hash = 0;
  std::string index;
  std::string payload;
};

std::uint64_t get(const std::string& b, std::size_t at, int n) {
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= std::uint64_t(std::uint8_t(b[at + std::size_t(i)])) << (8 * i);
  return v;
}
void put(std::string& b, std::uint64_t v, int n) {
  for (int i = 0; i < n; ++i) b += char(std::uint8_t(v >> (8 * i)));
}

Header parse(const std::string& b) {
  Header h;
  h.version = std::uint32_t(get(b, 8, 4));
  const std::size_t len = get(b, 24, 2);
  h.digest = b.substr(26, len);
  const std::size_t at = 26 + len;
  h.pits = get(b, at, 1);
  h.seeds = get(b, at + 1, 2);
  h.scheme = get(b, at + 3, 1);
  h.encoding = get(b, at + 4, 1);
  h.entries = get(b, at + 5, 8);
  h.codec = get(b, at + 13, 1);
  h.block_log2 = get(b, at + 14, 1);
  h.stored = get(b, at + 15, 8);
  h.payload_hash = get(b, at + 23, 8);
  const std::size_t header_size = get(b, 12, 4);
  const std::size_t blocks = h.block_log2 < 40 ? (h.entries + (std::uint64_t(1) << h.block_log2) - 1) >> h.block_log2 : 1;
  h.index = b.substr(header_size, 16 * blocks);
  h.payload = b.substr(header_size + 16 * blocks);
  return h;
}

// The index of a raw payload in blocks of 2^block_log2 values.
void reindex(Header& h) {
  h.index.clear();
  const std::size_t block = std::size_t(1) << h.block_log2;
  for (std::size_t at = 0; at < h.payload.size(); at += block) {
    const std::size_t n = std::min(block, h.payload.size() - at);
    put(h.index, at + n, 8);
    put(h.index, XXH3_64bits(h.payload.data() + at, n), 8);
  }
  h.stored = h.payload.size();
}

// The file of a header: header size, digest hash, index hash and CRC always
// consistent.
std::string serialize(const Header& h) {
  std::string b = std::string("MNCLTBL\x1a", 8);
  put(b, h.version, 4);
  put(b, 26 + h.digest.size() + 43, 4);
  put(b, fnv1a64(h.digest), 8);
  put(b, h.digest.size(), 2);
  b += h.digest;
  put(b, h.pits, 1);
  put(b, h.seeds, 2);
  put(b, h.scheme, 1);
  put(b, h.encoding, 1);
  put(b, h.entries, 8);
  put(b, h.codec, 1);
  put(b, h.block_log2, 1);
  put(b, h.stored, 8);
  put(b, h.payload_hash, 8);
  put(b, XXH3_64bits(h.index.data(), h.index.size()), 8);
  put(b, crc32(b), 4);
  return b + h.index + h.payload;
}

void forge(const fs::path& file, const std::function<void(Header&)>& edit) {
  Header h = parse(bytes_of(file));
  edit(h);
  write_bytes(file, serialize(h));
}

// ---------------------------------------------------------------------------
// Expectations
// ---------------------------------------------------------------------------

// `verify DIR`: exit status 1, one "mancala: verify failed: " line per
// problem, the first naming `keyword`; with --json one object on stdout,
// {"ok": false, "problems": [...]} with the same problems.
void expect_bad_tables(const fs::path& dir, const std::string& keyword) {
  {
    const RunResult r = run_mancala({"verify", dir.string(), "--quiet"}, 10s);
    SCOPED_TRACE(describe(r));
    EXPECT_TRUE(ended_normally(r)) << "verify hung or crashed";
    EXPECT_EQ(r.exit_code, 1) << "verify's status for bad tables";
    EXPECT_EQ(r.out, "");
    const auto lines = lines_of(r.err);
    ASSERT_FALSE(lines.empty());
    for (const auto& line : lines) EXPECT_EQ(line.rfind("mancala: verify failed: ", 0), 0u) << line;
    EXPECT_TRUE(mentions(lines.front(), keyword)) << "expected '" << keyword << "'";
  }
  const RunResult r = run_mancala({"verify", dir.string(), "--quiet", "--json"}, 10s);
  SCOPED_TRACE(describe(r));
  EXPECT_TRUE(ended_normally(r)) << "verify --json hung or crashed";
  EXPECT_EQ(r.exit_code, 1);
  ASSERT_EQ(lines_of(r.out).size(), 1u) << "--json prints one JSON line";
  const json j = json::parse(r.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << "not a JSON object";
  EXPECT_EQ(j.value("ok", true), false);
  ASSERT_TRUE(j.contains("problems") && j["problems"].is_array() && !j["problems"].empty()) << j.dump();
  EXPECT_TRUE(mentions(j["problems"][0].get<std::string>(), keyword)) << j.dump();
  EXPECT_EQ(j["problems"].size(), lines_of(r.err).size()) << "each problem is also a line on stderr";
}

const std::string kProbePosition = "1,1,1/1,1,1 0-0 s";  // 6 seeds: inside the 3-pit tables

// info, probe and solve --tables on a bad directory: the one-line error.
void expect_readers_refuse(const fs::path& dir, const std::vector<std::string>& keywords, const Args& game = {}) {
  expect_user_error(run_mancala({"info", dir.string()}, 10s), keywords);
  expect_user_error(run_mancala(cat(cat({"probe", "--tables", dir.string()}, game), {"--position", kProbePosition}), 10s),
                    keywords);
  expect_user_error(run_mancala(cat(cat({"solve", "--tables", dir.string()}, game),
                                    {"--position", kProbePosition, "--quiet", "--tt-mb", "16"}),
                                10s),
                    keywords);
}

// ---------------------------------------------------------------------------
// 1. Header fields are range-checked, also under a consistent CRC.
// ---------------------------------------------------------------------------

struct HeaderForgery {
  std::string name;
  std::function<void(Header&)> edit;
  std::string keyword;  // the message names the problem
};
void PrintTo(const HeaderForgery& f, std::ostream* os) { *os << f.name; }

class ForgedHeader : public ::testing::TestWithParam<HeaderForgery> {};

// Every level of the directory forged alike (so that they agree with each
// other and only the ranges can tell), and so is level 0 of a directory of
// level 0 alone (1 entry whatever the width: the entry count cannot tell).
TEST_P(ForgedHeader, IsRefusedByEveryCommand) {
  // The forger writes the very bytes of a real file when it changes nothing.
  const std::string good = bytes_of(level(kalah3(), 5));
  ASSERT_EQ(serialize(parse(good)), good);
  for (const fs::path& source : {kalah3_level0(), kalah3()}) {
    SCOPED_TRACE(source.filename().string());
    const fs::path dir = copy_of(source);
    for (int k = 0; fs::exists(level(dir, k)); ++k) forge(level(dir, k), GetParam().edit);
    expect_bad_tables(dir, "level_000.mtb");
    expect_bad_tables(dir, GetParam().keyword);
    expect_readers_refuse(dir, {"level_000.mtb", GetParam().keyword});
  }
}

INSTANTIATE_TEST_SUITE_P(
    Fields, ForgedHeader,
    ::testing::Values(
        HeaderForgery{"Pits0", [](Header& h) { h.pits = 0; }, "pits"},
        HeaderForgery{"Pits17", [](Header& h) { h.pits = 17; }, "17 pits"},
        HeaderForgery{"Pits20", [](Header& h) { h.pits = 20; }, "20 pits"},
        HeaderForgery{"Pits64", [](Header& h) { h.pits = 64; }, "64 pits"},
        HeaderForgery{"Pits200", [](Header& h) { h.pits = 200; }, "200 pits"},
        HeaderForgery{"Pits255", [](Header& h) { h.pits = 255; }, "255 pits"},
        HeaderForgery{"Level128", [](Header& h) { h.seeds += 128; }, "level"},
        HeaderForgery{"Level65535", [](Header& h) { h.seeds = 65535; }, "level"},
        HeaderForgery{"LevelOfAnotherFile", [](Header& h) { h.seeds = h.seeds == 0 ? 1 : h.seeds - 1; }, "level"},
        HeaderForgery{"EntryCountNotTheLevelSize",
                      [](Header& h) {
                        h.payload += '\0';
                        h.entries = h.payload.size();
                        h.payload_hash = fnv1a64(h.payload);
                        reindex(h);
                      },
                      "entry count"},
        HeaderForgery{"UnknownRuleset", [](Header& h) { h.digest = "chess"; }, "unknown ruleset 'chess'"},
        HeaderForgery{"UnknownRulesetOption", [](Header& h) { h.digest = "kalah+grand-slam=forbidden"; }, "unknown ruleset"},
        HeaderForgery{"EmptyRuleset", [](Header& h) { h.digest = ""; }, "unknown ruleset"},
        HeaderForgery{"LongRuleset", [](Header& h) { h.digest = std::string(300, 'k'); }, "300 bytes"},
        HeaderForgery{"ValueEncoding2", [](Header& h) { h.encoding = 2; }, "value encoding"},
        HeaderForgery{"IndexScheme0", [](Header& h) { h.scheme = 0; }, "index scheme"},
        HeaderForgery{"Codec3", [](Header& h) { h.codec = 3; }, "codec"},
        HeaderForgery{"Codec255", [](Header& h) { h.codec = 255; }, "codec"},
        HeaderForgery{"Version3", [](Header& h) { h.version = 3; }, "version"},
        HeaderForgery{"Version1LayoutOfVersion2", [](Header& h) { h.version = 1; }, "header"},
        HeaderForgery{"BlockSize2To9", [](Header& h) { h.block_log2 = 9; reindex(h); }, "block size"},
        HeaderForgery{"BlockSize2To25", [](Header& h) { h.block_log2 = 25; reindex(h); }, "block size"},
        HeaderForgery{"BlockSize2To255", [](Header& h) { h.block_log2 = 255; }, "block size"},
        HeaderForgery{"StoredSizeHuge", [](Header& h) { h.stored = ~std::uint64_t(0) >> 1; }, "payload size"},
        // The largest level below 2^64 boards (16 pits, 36 seeds: C(67, 31)),
        // a stored size that makes header + index + payload wrap around 2^64
        // to the file's true size: the sizes are added without wrapping.
        HeaderForgery{"SizesWrappingAround2To64",
                      [](Header& h) {
                        h.pits = 16;
                        h.seeds = 36;
                        h.entries = 11923179284862717872ull;
                        h.codec = 1;
                        h.block_log2 = 10;
                        const std::uint64_t blocks = (h.entries >> 10) + ((h.entries & 1023) != 0);
                        const std::uint64_t header = 26 + h.digest.size() + 43;
                        const std::uint64_t file = header + h.index.size() + h.payload.size();
                        h.stored = file - header - 16 * blocks;  // wraps, as a forger wants
                      },
                      "more than 2^64"}),
    [](const auto& param_info) { return param_info.param.name; });

// ---------------------------------------------------------------------------
// 7. verify: bad tables are its verdict, exit status 1 with the problems;
// a misused command is exit status 2.
// ---------------------------------------------------------------------------

struct BadTables {
  std::string name;
  std::function<void(const fs::path& dir)> damage;
  std::string keyword;
};
void PrintTo(const BadTables& b, std::ostream* os) { *os << b.name; }

class VerifyVerdict : public ::testing::TestWithParam<BadTables> {};

TEST_P(VerifyVerdict, IsExitStatus1WithTheProblems) {
  const fs::path dir = copy_of(kalah3());
  GetParam().damage(dir);
  expect_bad_tables(dir, GetParam().keyword);
}

void set_byte(const fs::path& file, std::size_t at, char value) {
  std::string b = bytes_of(file);
  b[at] = value;
  write_bytes(file, b);
}
void copy_level(const fs::path& from, const fs::path& to) {
  fs::remove_all(to);
  fs::copy_file(from, to);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, VerifyVerdict,
    ::testing::Values(
        BadTables{"BadMagic", [](const fs::path& d) { set_byte(level(d, 3), 0, 'X'); }, "level_003.mtb: not a mancala table"},
        BadTables{"BadVersion", [](const fs::path& d) { forge(level(d, 3), [](Header& h) { h.version = 7; }); }, "format version 7"},
        BadTables{"BadHeaderCrc", [](const fs::path& d) { set_byte(level(d, 3), 17, '\x55'); }, "level_003.mtb: header checksum"},
        BadTables{"BadPayloadHash", [](const fs::path& d) { set_byte(level(d, 6), bytes_of(level(d, 6)).size() - 1, 9); },
                  "level_006.mtb: block 0 checksum mismatch"},
        BadTables{"IndexOutOfOrder",
                  [](const fs::path& d) {
                    forge(level(d, 6), [](Header& h) { h.index[0] = char(h.index[0] + 1); });  // block 0 ends a byte late
                  },
                  "level_006.mtb: block index entry 0 is out of order"},
        BadTables{"BadIndexHash",
                  [](const fs::path& d) {
                    const std::string b = bytes_of(level(d, 6));
                    const std::size_t at = get(b, 12, 4) + 9;  // block 0's hash
                    set_byte(level(d, 6), at, char(b[at] ^ 0x40));
                  },
                  "level_006.mtb: block index checksum"},
        BadTables{"TruncatedPayload", [](const fs::path& d) { fs::resize_file(level(d, 5), fs::file_size(level(d, 5)) - 1); },
                  "level_005.mtb"},
        BadTables{"TruncatedHeader", [](const fs::path& d) { fs::resize_file(level(d, 5), 20); }, "level_005.mtb: truncated header"},
        BadTables{"EmptyFile", [](const fs::path& d) { write_bytes(level(d, 5), ""); }, "level_005.mtb: empty"},
        BadTables{"AppendedBytes", [](const fs::path& d) { std::ofstream(level(d, 4), std::ios::app | std::ios::binary) << "xx"; },
                  "level_004.mtb"},
        BadTables{"DirectoryInsteadOfAFile",
                  [](const fs::path& d) {
                    fs::remove(level(d, 3));
                    fs::create_directories(level(d, 3) / "inside");
                  },
                  "level_003.mtb: is a directory"},
        BadTables{"DirectoryInsteadOfLevel0",
                  [](const fs::path& d) {
                    fs::remove(level(d, 0));
                    fs::create_directory(level(d, 0));
                  },
                  "level_000.mtb: is a directory"},
        BadTables{"ForeignRuleset", [](const fs::path& d) { copy_level(level(oware3(), 3), level(d, 3)); },
                  "level_003.mtb: built for ruleset 'oware'"},
        BadTables{"ForeignPits", [](const fs::path& d) { copy_level(level(kalah4(), 3), level(d, 3)); },
                  "level_003.mtb: built for 4 pits"},
        BadTables{"LevelOfAnotherNumber", [](const fs::path& d) { copy_level(level(d, 2), level(d, 3)); }, "level_003.mtb: holds level 2"},
        BadTables{"Garbage", [](const fs::path& d) { write_bytes(level(d, 2), std::string(5000, '\xa5')); }, "level_002.mtb"},
        BadTables{"GarbageLevel0", [](const fs::path& d) { write_bytes(level(d, 0), "garbage"); }, "level_000.mtb"},
        BadTables{"MissingLevel0", [](const fs::path& d) { fs::remove(level(d, 0)); }, "level_000.mtb"},
        BadTables{"EmptyDirectory",
                  [](const fs::path& d) {
                    for (int k = 0; k <= 8; ++k) fs::remove(level(d, k));
                  },
                  "no level files"},
        BadTables{"Gap", [](const fs::path& d) { fs::remove(level(d, 5)); }, "lacks level_005.mtb"},
        BadTables{"SymlinkLoop",
                  [](const fs::path& d) {
                    fs::remove(level(d, 3));
                    fs::create_symlink(level(d, 3).filename(), level(d, 3));
                  },
                  "level_003.mtb"},
        BadTables{"Fifo",
                  [](const fs::path& d) {
                    fs::remove(level(d, 3));
                    ASSERT_EQ(::mkfifo(level(d, 3).c_str(), 0644), 0);
                  },
                  "level_003.mtb: not a regular file"},
        // Well formed, checksums recomputed: only the re-derivation can tell.
        BadTables{"ValueChangedUnderValidChecksums",
                  [](const fs::path& d) {
                    forge(level(d, 6), [](Header& h) {
                      h.payload[h.payload.size() / 2] = char(h.payload[h.payload.size() / 2] + 2);
                      h.payload_hash = fnv1a64(h.payload);
                      reindex(h);
                    });
                  },
                  "level_006.mtb: level 6 position"}),
    [](const auto& param_info) { return param_info.param.name; });

// Several bad files: one problem each, in level order.
TEST(VerifyProblems, ListsEveryBadFile) {
  const fs::path dir = copy_of(kalah3());
  set_byte(level(dir, 2), 0, 'X');
  fs::resize_file(level(dir, 7), 30);
  const RunResult r = run_mancala({"verify", dir.string(), "--quiet", "--json"}, 10s);
  SCOPED_TRACE(describe(r));
  EXPECT_EQ(r.exit_code, 1);
  const json j = json::parse(r.out, nullptr, false);
  ASSERT_TRUE(j.is_object() && j.contains("problems"));
  ASSERT_EQ(j["problems"].size(), 2u);
  EXPECT_TRUE(mentions(j["problems"][0].get<std::string>(), "level_002.mtb"));
  EXPECT_TRUE(mentions(j["problems"][1].get<std::string>(), "level_007.mtb"));
  EXPECT_EQ(j.value("ruleset", ""), "kalah");
  EXPECT_EQ(lines_of(r.err).size(), 2u);
}

// ---------------------------------------------------------------------------
// 8. Compressed files: a damaged block is found by verify (naming the block)
// and by every reader that decodes it, and never yields a value.
// ---------------------------------------------------------------------------

// Kalah 3 pits to 10 seeds in zstd blocks of 1024 values: level 10 (3003
// values) has 3 blocks.
fs::path kalah3z() {
  return built("kalah3z", {"--game", "kalah", "--pits", "3", "--max-seeds", "10", "--compression", "zstd", "--block-size", "1024"});
}

// Where block b of a version 2 file starts and ends (from its index).
std::pair<std::size_t, std::size_t> block_bytes(const std::string& b, std::size_t block) {
  const Header h = parse(b);
  const std::size_t payload = get(b, 12, 4) + h.index.size();
  const std::size_t begin = block == 0 ? 0 : get(h.index, 16 * (block - 1), 8);
  return {payload + begin, payload + get(h.index, 16 * block, 8)};
}

TEST(CompressedTables, EachDamagedBlockIsNamedByVerifyAndInfo) {
  const std::string good = bytes_of(level(kalah3z(), 10));
  ASSERT_EQ(parse(good).codec, 1u) << "the fixture is not compressed";
  ASSERT_EQ(parse(good).index.size(), 3u * 16);
  for (std::size_t block = 0; block < 3; ++block) {
    SCOPED_TRACE("block " + std::to_string(block));
    const fs::path dir = copy_of(kalah3z());
    const auto [begin, end] = block_bytes(good, block);
    std::string bad = good;
    bad[(begin + end) / 2] = char(bad[(begin + end) / 2] ^ 0x21);
    write_bytes(level(dir, 10), bad);
    expect_bad_tables(dir, "level_010.mtb: block " + std::to_string(block));
    expect_user_error(run_mancala({"info", dir.string()}, 10s), {"level_010.mtb", "block " + std::to_string(block), "corrupt"});
  }
}

// Probes of every board of level 10 from a file whose middle block is
// damaged: none of the damaged block's boards is answered; the others are
// answered with the values the sound file gives, or refused when a move
// leads into the damaged block.
TEST(CompressedTables, ADamagedBlockNeverYieldsAValue) {
  const fs::path dir = copy_of(kalah3z());
  const std::string good = bytes_of(level(dir, 10));
  const auto [begin, end] = block_bytes(good, 1);
  std::string bad = good;
  for (std::size_t at = begin; at < end; at += 7) bad[at] = char(bad[at] ^ 0x5a);
  write_bytes(level(dir, 10), bad);
  // Every board of 10 seeds over 6 pits, South to move.
  std::string input;
  int boards = 0;
  for (int a = 0; a <= 10; ++a)
    for (int b = 0; a + b <= 10; ++b)
      for (int c = 0; a + b + c <= 10; ++c)
        for (int d = 0; a + b + c + d <= 10; ++d)
          for (int e = 0; a + b + c + d + e <= 10; ++e) {
            const int f = 10 - a - b - c - d - e;
            input += std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(c) + "/" + std::to_string(d) + "," +
                     std::to_string(e) + "," + std::to_string(f) + " 0-0 s\n";
            ++boards;
          }
  ASSERT_EQ(boards, 3003);
  const RunResult damaged = run_mancala_input({"probe", "--tables", dir.string()}, input);
  const RunResult sound = run_mancala_input({"probe", "--tables", kalah3z().string()}, input);
  EXPECT_EQ(damaged.exit_code, 2);
  EXPECT_EQ(sound.exit_code, 0) << describe(sound);
  const auto got = lines_of(damaged.out), want = lines_of(sound.out);
  ASSERT_EQ(got.size(), want.size());
  int refused = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const json g = json::parse(got[i], nullptr, false), w = json::parse(want[i], nullptr, false);
    if (g.contains("error")) {
      ++refused;
      EXPECT_TRUE(mentions(g["error"].get<std::string>(), "level_010.mtb")) << g.dump();
      EXPECT_TRUE(mentions(g["error"].get<std::string>(), "block 1")) << g.dump();
    } else {
      EXPECT_EQ(g["value"], w["value"]) << got[i];
    }
  }
  // Block 1 holds ranks 1024..2047; a board of another block whose move
  // leads into it is refused too (a probe values every move).
  EXPECT_GE(refused, 1024);
  EXPECT_LT(refused, 3003 - 1024);
  EXPECT_TRUE(mentions(damaged.err, std::to_string(refused) + " of the input lines could not be probed")) << damaged.err;
}

// Kalah 3 pits to 10 seeds packed in blocks of 1024 values.
fs::path kalah3p() {
  return built("kalah3p", {"--game", "kalah", "--pits", "3", "--max-seeds", "10", "--compression", "packed", "--block-size", "1024"});
}

// A packed file is checked block by block when it is opened (its values are
// then read in place): a damaged block, in its run table or its data, is
// named by every reader, and no probe answers from the file.
TEST(CompressedTables, EachDamagedPackedBlockIsNamedByEveryReader) {
  const std::string good = bytes_of(level(kalah3p(), 10));
  ASSERT_EQ(parse(good).codec, 2u) << "the fixture is not packed";
  ASSERT_EQ(parse(good).index.size(), 3u * 16);
  for (std::size_t block = 0; block < 3; ++block) {
    const auto [begin, end] = block_bytes(good, block);
    for (const std::size_t at : {begin + 1, begin + 3, (begin + end) / 2, end - 1}) {
      SCOPED_TRACE("block " + std::to_string(block) + " byte " + std::to_string(at - begin));
      const fs::path dir = copy_of(kalah3p());
      std::string bad = good;
      bad[at] = char(bad[at] ^ 0x44);
      write_bytes(level(dir, 10), bad);
      expect_bad_tables(dir, "level_010.mtb: block " + std::to_string(block));
      const std::vector<std::string> named = {"level_010.mtb", "block " + std::to_string(block), "corrupt"};
      expect_user_error(run_mancala({"info", dir.string()}, 10s), named);
      // A probe of a 10-seed board opens level 10, and refuses it.
      expect_user_error(run_mancala({"probe", "--tables", dir.string(), "--position", "2,2,1/2,2,1 0-0 s"}, 10s), named);
    }
  }
}

// Raw values labelled packed, under recomputed checksums: no block decodes
// as a packed block of its size.
TEST(CompressedTables, RawValuesLabelledPackedAreRefused) {
  const fs::path dir = copy_of(kalah3());
  forge(level(dir, 6), [](Header& h) { h.codec = 2; });
  expect_bad_tables(dir, "level_006.mtb: block 0");
  expect_user_error(run_mancala({"info", dir.string()}, 10s), {"level_006.mtb", "block 0"});
}

// A file that says its raw values are zstd frames, under recomputed
// checksums: the frames do not decode.
TEST(CompressedTables, RawValuesLabelledZstdAreRefused) {
  const fs::path dir = copy_of(kalah3());
  forge(level(dir, 6), [](Header& h) { h.codec = 1; });
  expect_bad_tables(dir, "level_006.mtb: block 0");
  expect_user_error(run_mancala({"info", dir.string()}, 10s), {"level_006.mtb", "block 0"});
}

TEST(CompressedTables, TruncatedOrExtendedIsRefused) {
  for (const int delta : {-1, +1}) {
    const fs::path dir = copy_of(kalah3z());
    std::string b = bytes_of(level(dir, 9));
    if (delta < 0)
      b.pop_back();
    else
      b += 'x';
    write_bytes(level(dir, 9), b);
    expect_bad_tables(dir, "level_009.mtb: file is");
    expect_readers_refuse(dir, {"level_009.mtb", "truncated or extended"});
  }
}

// Misuse is exit status 2, the one-line error; sound tables exit 0.
TEST(VerifyMisuse, IsExitStatus2) {
  expect_user_error(run_mancala({"verify", (suite_dir() / "nowhere").string()}), {"does not exist"});
  expect_user_error(run_mancala({"verify", (kalah3() / "level_003.mtb").string()}), {"level_003.mtb", "not a directory"});
  expect_user_error(run_mancala({"verify"}), {"dir"});
  expect_user_error(run_mancala({"verify", kalah3().string(), "--bogus"}), {"--bogus"});
  const json ok = run_json({"verify", kalah3().string(), "--quiet"});
  EXPECT_EQ(ok.value("ok", false), true);
}

// ---------------------------------------------------------------------------
// 2. A FIFO (or any non-regular file) in place of a level file is refused,
// never opened for a read that would block.
// ---------------------------------------------------------------------------

fs::path with_fifo(const fs::path& file) {
  fs::remove(file);
  EXPECT_EQ(::mkfifo(file.c_str(), 0644), 0);
  return file;
}

TEST(TableFifo, EveryReaderRefusesIt) {
  const fs::path dir = copy_of(kalah3());
  with_fifo(level(dir, 2));
  expect_readers_refuse(dir, {"level_002.mtb", "not a regular file"});
}

TEST(TableFifo, LevelZeroAsAFifo) {
  const fs::path dir = copy_of(kalah3());
  with_fifo(level(dir, 0));
  expect_readers_refuse(dir, {"level_000.mtb", "not a regular file"});
}

TEST(TableFifo, BuildRefusesToResumeFromIt) {
  const fs::path dir = copy_of(kalah3());
  with_fifo(level(dir, 4));
  expect_user_error(run_mancala(cat(cat({"build"}, kKalah3), {"--out", dir.string(), "--quiet"}), 10s),
                    {"level_004.mtb", "not a regular file"});
}

TEST(TableFifo, BuildTimesAsAFifo) {
  const fs::path dir = copy_of(kalah3());
  with_fifo(dir / "build_times.csv");
  expect_user_error(run_mancala({"info", dir.string()}, 10s), {"build_times.csv", "not a regular file"});
  fs::remove(level(dir, 8));  // so that build writes a level and appends its time
  expect_user_error(run_mancala(cat(cat({"build"}, kKalah3), {"--out", dir.string(), "--quiet"}), 10s),
                    {"build_times.csv", "not a regular file"});
}

// ---------------------------------------------------------------------------
// 5. A gap in the levels is an error naming the missing level.
// ---------------------------------------------------------------------------

TEST(TableGap, EveryReaderNamesTheMissingLevel) {
  const fs::path dir = copy_of(kalah3());
  fs::remove(level(dir, 5));
  expect_readers_refuse(dir, {"lacks level_005.mtb", "level_006.mtb"});
  expect_bad_tables(dir, "lacks level_005.mtb");
}

TEST(TableGap, AFileFarAboveTheLastLevel) {
  const fs::path dir = copy_of(kalah3());
  fs::copy_file(level(dir, 8), level(dir, 40));
  expect_readers_refuse(dir, {"lacks level_009.mtb", "level_040.mtb"});
  expect_bad_tables(dir, "lacks level_009.mtb");
}

TEST(TableGap, NoLevelZero) {
  const fs::path dir = copy_of(kalah3());
  fs::remove(level(dir, 0));
  expect_readers_refuse(dir, {"lacks level_000.mtb"});
}

// ---------------------------------------------------------------------------
// 6. File-system failures are input errors naming the path, not internal
// errors.
// ---------------------------------------------------------------------------

TEST(TablePaths, SymlinkLoopInPlaceOfALevelFile) {
  const fs::path dir = copy_of(kalah3());
  fs::remove(level(dir, 3));
  fs::create_symlink("level_003.mtb", level(dir, 3));
  expect_readers_refuse(dir, {"level_003.mtb", "symbolic links"});
  expect_user_error(run_mancala(cat(cat({"build"}, kKalah3), {"--out", dir.string(), "--quiet"}), 10s),
                    {"level_003.mtb", "symbolic links"});
}

// A symbolic link to nothing is a level file that cannot be read: once taken
// for an absent file, it silently lowered the tables' top (verify passed), or
// named a gap as a missing file.
TEST(TablePaths, DanglingSymlinkAsTheTopLevelFile) {
  const fs::path dir = copy_of(kalah3());
  fs::create_symlink("no_such_level.mtb", level(dir, 9));  // the tables end at 8 seeds
  expect_readers_refuse(dir, {"level_009.mtb", "symbolic link to nothing"});
  const RunResult v = run_mancala({"verify", dir.string()}, 30s);
  EXPECT_EQ(v.exit_code, 1) << describe(v);
  EXPECT_TRUE(mentions(v.err, "level_009.mtb")) << describe(v);
}

TEST(TablePaths, DanglingSymlinkInPlaceOfALevelFile) {
  const fs::path dir = copy_of(kalah3());
  fs::remove(level(dir, 2));
  fs::create_symlink("no_such_level.mtb", level(dir, 2));
  expect_readers_refuse(dir, {"level_002.mtb", "symbolic link to nothing"});
  expect_user_error(run_mancala(cat(cat({"build"}, kKalah3), {"--out", dir.string(), "--quiet"}), 10s),
                    {"level_002.mtb", "symbolic link to nothing"});
}

TEST(TablePaths, TableDirectoryThatIsAFile) {
  const std::string file = (kalah3() / "level_001.mtb").string();
  expect_readers_refuse(file, {file, "not a directory"});
}

TEST(TablePaths, SymlinkLoopAsTheTableDirectory) {
  const fs::path dir = suite_dir() / "work" / "dir_loop";
  fs::create_directories(dir.parent_path());
  fs::remove(dir);
  fs::create_symlink("dir_loop", dir);
  expect_readers_refuse(dir, {dir.string()});
  expect_user_error(run_mancala({"verify", dir.string()}), {dir.string()});
  expect_user_error(run_mancala(cat(cat({"build"}, kKalah3), {"--out", dir.string(), "--quiet"})), {dir.string()});
}

class BuildOut : public ::testing::TestWithParam<std::pair<std::string, std::vector<std::string>>> {};

TEST_P(BuildOut, IsAnInputErrorNamingThePath) {
  expect_user_error(run_mancala({"build", "--pits", "3", "--max-seeds", "4", "--out", GetParam().first, "--quiet"}),
                    GetParam().second);
}

INSTANTIATE_TEST_SUITE_P(
    Paths, BuildOut,
    ::testing::Values(std::pair<std::string, std::vector<std::string>>{"", {"--out", "empty"}},
                      std::pair<std::string, std::vector<std::string>>{"/etc/passwd", {"/etc/passwd", "not a directory"}},
                      std::pair<std::string, std::vector<std::string>>{"/proc/nope", {"/proc/nope", "cannot create"}},
                      // a new directory under a parent that is a file
                      std::pair<std::string, std::vector<std::string>>{"/etc/passwd/tables", {"/etc/passwd/tables", "cannot create"}},
                      std::pair<std::string, std::vector<std::string>>{"/proc/self/tables", {"/proc/self/tables", "cannot create"}}),
    [](const auto& param_info) {
      std::string name = "Path";
      for (const char c : param_info.param.first) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      return name;
    });

// ---------------------------------------------------------------------------
// 9. Tables hold boards without burnt holes: probe refuses a position with
// some instead of answering another board's value.
// ---------------------------------------------------------------------------

TEST(TableProbeBurnt, IsRefused) {
  const fs::path dir = built("congkak3", {"--game", "congkak", "--pits", "3", "--max-seeds", "6"});
  for (const char* position : {"x,1,1/1,1,1 0-0 s", "1,2,1/1,x,1 3-2 n", "x,x,1/x,1,x 0-0 s"})
    expect_user_error(run_mancala({"probe", "--tables", dir.string(), "--game", "congkak", "--position", position}),
                      {"burnt holes"});
  // Without burnt holes it still answers.
  const json j = run_json({"probe", "--tables", dir.string(), "--game", "congkak", "--position", "1,1,1/1,1,1 0-0 s"});
  EXPECT_TRUE(j.contains("value"));
}

}  // namespace
