// What a random read costs on this machine, by the size of the memory it
// falls in: what a search node's misses cost, when its own instructions do
// not hide them (results/README.md, "What a node's time is made of").  A
// node of the solver
// asks for its transposition-table cluster (one line of a table of tens to
// thousands of MiB) and its children's level values (one line each, in
// levels of tens of MiB and more) at once, then waits for them
// (solver/src/search.hpp); a table builder's board does the same for its
// successors.  Two cases, over regions of 1 MiB to 1 GiB, with and without
// transparent huge pages asked for (madvise, as TranspositionTable does):
//   DependentReads  a chase through a random cycle of the region's cache
//                   lines: each read waits for the one before (latency);
//   BatchedReads    k independent lines asked for together (prefetched),
//                   then read; the next batch waits for this one (a node:
//                   one cluster and up to six children's values, k = 7).
// Run (scripts/bench_memory.sh records it):
//   build/bench/memory_latency --benchmark_format=json
#include <benchmark/benchmark.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

namespace {

constexpr std::size_t kLine = 64;

// An anonymous mapping of `bytes`, with huge pages asked for or refused,
// every page touched (so that no read below faults a page in).
class Region {
 public:
  Region(std::size_t bytes, bool huge) : bytes_(bytes) {
    void* m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw std::runtime_error("mmap failed");
    madvise(m, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
    base_ = static_cast<std::uint8_t*>(m);
    for (std::size_t i = 0; i < bytes; i += 4096) base_[i] = 1;
  }
  ~Region() { munmap(base_, bytes_); }
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;

  std::uint8_t* base() const { return base_; }
  std::size_t lines() const { return bytes_ / kLine; }

 private:
  std::size_t bytes_;
  std::uint8_t* base_;
};

// Args: MiB, huge pages (0/1).  Each line holds the offset of the next line
// of one random cycle through all of them.
void BM_DependentReads(benchmark::State& state) {
  Region r(std::size_t(state.range(0)) << 20, state.range(1) != 0);
  const std::size_t n = r.lines();
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin(), order.end(), std::mt19937_64(1));
  for (std::size_t i = 0; i < n; ++i)
    *reinterpret_cast<std::uint64_t*>(r.base() + order[i] * kLine) = std::uint64_t(order[(i + 1) % n]) * kLine;
  constexpr int kReads = 1024;
  std::uint64_t at = 0;
  for (auto _ : state) {
    for (int i = 0; i < kReads; ++i) at = *reinterpret_cast<const std::uint64_t*>(r.base() + at);
    benchmark::DoNotOptimize(at);
  }
  state.counters["ns_per_read"] =
      benchmark::Counter(double(state.iterations()) * kReads, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// Args: MiB, huge pages (0/1), k lines a batch.
void BM_BatchedReads(benchmark::State& state) {
  Region r(std::size_t(state.range(0)) << 20, state.range(1) != 0);
  const std::size_t n = r.lines();
  const int k = int(state.range(2));
  std::uint64_t x = 0x9e3779b97f4a7c15ull;
  constexpr int kBatches = 256;
  for (auto _ : state) {
    for (int b = 0; b < kBatches; ++b) {
      const std::uint8_t* at[16];
      for (int j = 0; j < k; ++j) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        at[j] = r.base() + ((x >> 24) % n) * kLine;
        __builtin_prefetch(at[j]);
      }
      std::uint64_t sum = 0;
      for (int j = 0; j < k; ++j) sum += *at[j];
      x += sum & 1;  // the next batch's addresses wait for this batch's reads
    }
    benchmark::DoNotOptimize(x);
  }
  state.counters["ns_per_batch"] =
      benchmark::Counter(double(state.iterations()) * kBatches, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void Sizes(benchmark::internal::Benchmark* b) {
  for (int huge : {0, 1})
    for (int mib : {1, 4, 8, 16, 32, 64, 256, 1024}) b->Args({mib, huge});
}

void Batches(benchmark::internal::Benchmark* b) {
  for (int mib : {8, 32, 64, 1024})
    for (int k : {1, 2, 4, 7, 12}) b->Args({mib, 1, k});
}

BENCHMARK(BM_DependentReads)->Apply(Sizes)->ArgNames({"MiB", "huge"})->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BatchedReads)->Apply(Batches)->ArgNames({"MiB", "huge", "k"})->Unit(benchmark::kMicrosecond);

}  // namespace
