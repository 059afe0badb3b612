// How level files compress, and what a compressed level costs a prober: the
// measurements behind the codec and block size `mancala build --compression`
// offers (table_file.hpp), recorded by scripts/bench_codecs.sh.
//
//   table_codec DIR LEVEL... [--probes N] [--candidates LIST]
//
// For each level of the (raw or compressed) table directory DIR and each
// candidate "zstd:L:B" (zstd level L, blocks of 2^B values; "none:0:B" is
// the raw file), it writes the level in that format into a scratch
// directory beside DIR's parent's temporary directory, and prints one CSV
// row: the bits a position on disk (header and index included), the order-0
// entropy of the level's values in bits (what a value-by-value entropy coder
// with one static model per level could reach at best; zstd, which also
// models context, may go below it), the encode and full-decode speeds, and
// the nanoseconds a probe of N random ranks takes through MappedLevel: spread
// uniformly over the level (every probe a new block: the worst case) and in
// a walk of short random steps (probes near each other, as a search's are),
// and the uniform ones again chained (each waits for the value before: a
// probe's latency rather than the throughput of overlapping probes).
// Timings are of this machine at that moment: compare rows of one run.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "mancala/error.hpp"
#include "mancala/ruleset.hpp"
#include "mancala/tables/table_check.hpp"
#include "mancala/tables/table_file.hpp"

namespace {

using namespace mancala;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

struct Candidate {
  tables::LevelFormat format;
  std::string name;
};

std::vector<Candidate> parse_candidates(const std::string& list) {
  std::vector<Candidate> out;
  std::istringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    const auto a = item.find(':'), b = item.rfind(':');
    if (a == std::string::npos || a == b) throw InputError("candidate '" + item + "' is not CODEC:LEVEL:LOG2BLOCK");
    Candidate c;
    c.format.codec = tables::parse_codec(item.substr(0, a));
    c.format.zstd_level = std::stoi(item.substr(a + 1, b - a - 1));
    c.format.block_log2 = std::stoi(item.substr(b + 1));
    c.name = item;
    out.push_back(c);
  }
  return out;
}

double entropy_bits(const std::vector<std::int8_t>& values) {
  std::vector<std::uint64_t> count(256);
  for (const std::int8_t v : values) ++count[std::uint8_t(v)];
  double h = 0;
  for (const std::uint64_t c : count)
    if (c) {
      const double p = double(c) / double(values.size());
      h -= p * std::log2(p);
    }
  return h;
}

// Mean nanoseconds a probe of `ranks`, with a checksum of the values read
// so that the loop is not optimised away.
double probe_ns(const tables::MappedLevel& level, const std::vector<std::uint64_t>& ranks, long& sink) {
  const auto t0 = Clock::now();
  long sum = 0;
  for (const std::uint64_t r : ranks) sum += level.value(r);
  sink += sum;
  return seconds_since(t0) * 1e9 / double(ranks.size());
}

// The same ranks, each probe waiting for the one before (its rank depends
// on the value found, through a mask that is zero at run time): a probe's
// latency, as a search that acts on each value before its next probe sees
// it, where probe_ns() lets the processor overlap independent probes.
double chained_probe_ns(const tables::MappedLevel& level, const std::vector<std::uint64_t>& ranks, long& sink) {
  volatile std::uint64_t zero = 0;
  const std::uint64_t mask = zero;
  const auto t0 = Clock::now();
  long sum = 0;
  std::uint64_t carry = 0;
  for (const std::uint64_t r : ranks) {
    const int v = level.value(r ^ carry);
    carry = std::uint64_t(v) & mask;
    sum += v;
  }
  sink += sum;
  return seconds_since(t0) * 1e9 / double(ranks.size());
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc < 3) throw InputError("usage: table_codec DIR LEVEL... [--probes N] [--candidates LIST]");
    const std::filesystem::path dir = argv[1];
    std::vector<int> levels;
    std::size_t probes = 2000000;
    std::string list = "none:0:16,zstd:1:12,zstd:3:12,zstd:19:12,zstd:1:16,zstd:3:16,zstd:9:16,zstd:19:16,zstd:3:20,zstd:19:20";
    for (int i = 2; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--probes" && i + 1 < argc)
        probes = std::stoul(argv[++i]);
      else if (a == "--candidates" && i + 1 < argc)
        list = argv[++i];
      else
        levels.push_back(std::stoi(a));
    }
    const std::vector<Candidate> candidates = parse_candidates(list);
    const tables::DirectoryInfo info = tables::describe_directory(dir);
    const std::filesystem::path scratch =
        std::filesystem::temp_directory_path() / ("mancala_table_codec_" + std::to_string(::getpid()));
    std::filesystem::create_directories(scratch);
    std::cout << "ruleset,pits_per_side,level,positions,candidate,codec,zstd_level,block_values,file_bytes,bits_per_position,"
                 "entropy0_bits,encode_mb_per_s,decode_mb_per_s,uniform_probe_ns,walk_probe_ns,chained_probe_ns\n";
    long sink = 0;
    for (const int k : levels) {
      const tables::MappedLevel source(tables::level_path(dir, k), info.rules, info.pits_per_side, k);
      std::vector<std::int8_t> values(source.size());
      source.read(0, values.size(), values.data());
      const double h0 = entropy_bits(values);
      std::mt19937_64 rng(std::uint64_t(k) * 7919);
      std::vector<std::uint64_t> uniform(probes), walk(probes);
      std::uniform_int_distribution<std::uint64_t> any(0, values.size() - 1);
      std::uniform_int_distribution<int> step(-64, 64);
      std::uint64_t at = any(rng);
      for (std::size_t i = 0; i < probes; ++i) {
        uniform[i] = any(rng);
        at = std::uint64_t(std::clamp<std::int64_t>(std::int64_t(at) + step(rng), 0, std::int64_t(values.size()) - 1));
        walk[i] = (i % 4096 == 0) ? (at = any(rng)) : at;  // a fresh start now and then, as a search's roots
      }
      for (const Candidate& c : candidates) {
        auto t0 = Clock::now();
        tables::write_level(scratch, info.rules, info.pits_per_side, k, values, c.format);
        const double encode = seconds_since(t0);
        const std::filesystem::path file = tables::level_path(scratch, k);
        const std::uint64_t bytes = std::filesystem::file_size(file);
        const tables::MappedLevel level(file, info.rules, info.pits_per_side, k);
        std::vector<std::int8_t> back(values.size());
        t0 = Clock::now();
        level.read(0, back.size(), back.data());
        const double decode = seconds_since(t0);
        if (back != values) throw std::runtime_error("candidate " + c.name + " did not give the values back");
        const double u = probe_ns(level, uniform, sink), w = probe_ns(level, walk, sink);
        const double chained = chained_probe_ns(level, uniform, sink);
        const double mb = double(values.size()) / 1e6;
        std::printf("%s,%d,%d,%zu,%s,%s,%d,%llu,%llu,%.4f,%.4f,%.1f,%.1f,%.1f,%.1f,%.1f\n", info.rules.digest().c_str(), info.pits_per_side,
                    k, values.size(), c.name.c_str(), tables::codec_name(c.format.codec), c.format.zstd_level,
                    static_cast<unsigned long long>(1ull << c.format.block_log2), static_cast<unsigned long long>(bytes),
                    8.0 * double(bytes) / double(values.size()), h0, mb / encode, mb / decode, u, w, chained);
        std::fflush(stdout);
        std::filesystem::remove(file);
      }
    }
    std::filesystem::remove_all(scratch);
    if (sink == 42) std::fprintf(stderr, "\n");  // keeps the probes' sums alive
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "table_codec: error: %s\n", e.what());
    return 2;
  }
}
