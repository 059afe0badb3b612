// The checksums a level file could carry, over a block of table values:
// FNV-1a 64 byte at a time (version 1's payload hash, still the content
// hash), XXH3-64 (version 2's block hash) and CRC-32 (the header's).  Run:
//   build/bench/checksum_bench --benchmark_format=json
#include <benchmark/benchmark.h>
#include <boost/crc.hpp>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cstdint>
#include <random>
#include <vector>

#include "mancala/tables/table_file.hpp"

namespace {

std::vector<std::int8_t> block_of_values(std::size_t n) {
  std::mt19937 rng(12345);
  std::vector<std::int8_t> v(n);
  for (auto& x : v) x = std::int8_t(int(rng() % 13) - 6);  // board values of a level: small, signed
  return v;
}

void BM_Fnv1a64(benchmark::State& state) {
  const auto v = block_of_values(std::size_t(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(mancala::tables::fnv1a64(v.data(), v.size()));
  state.SetBytesProcessed(std::int64_t(state.iterations()) * state.range(0));
}

void BM_Xxh3_64(benchmark::State& state) {
  const auto v = block_of_values(std::size_t(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(XXH3_64bits(v.data(), v.size()));
  state.SetBytesProcessed(std::int64_t(state.iterations()) * state.range(0));
}

void BM_Crc32(benchmark::State& state) {
  const auto v = block_of_values(std::size_t(state.range(0)));
  for (auto _ : state) {
    boost::crc_32_type crc;
    crc.process_bytes(v.data(), v.size());
    benchmark::DoNotOptimize(crc.checksum());
  }
  state.SetBytesProcessed(std::int64_t(state.iterations()) * state.range(0));
}

BENCHMARK(BM_Fnv1a64)->Arg(1 << 16)->Arg(1 << 20);
BENCHMARK(BM_Xxh3_64)->Arg(1 << 16)->Arg(1 << 20);
BENCHMARK(BM_Crc32)->Arg(1 << 16)->Arg(1 << 20);

}  // namespace
