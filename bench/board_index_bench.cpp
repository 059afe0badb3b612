// BoardIndex's rank and unrank of random boards of one level, by pits and
// seeds.  unrank decodes the frontier positions of Oware's threshold
// retrograde build (cyclic_level.hpp) and the starts of every scan; rank
// keys every child of the search and every successor of the builders.  Run:
//   build/bench/board_index_bench --benchmark_format=json
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include "mancala/tables/board_index.hpp"

namespace {

using mancala::tables::BoardIndex;

// Random ranks of level `seeds`: the frontiers' ranks come in no order.
std::vector<std::uint64_t> random_ranks(const BoardIndex& index, int seeds) {
  std::mt19937_64 rng(12345);
  std::vector<std::uint64_t> ranks(1 << 16);
  for (auto& r : ranks) r = rng() % index.level_size(seeds);
  return ranks;
}

void BM_Unrank(benchmark::State& state) {
  const int pits = int(state.range(0)), seeds = int(state.range(1));
  const BoardIndex index(pits, seeds);
  const auto ranks = random_ranks(index, seeds);
  std::uint8_t board[32];
  std::size_t i = 0;
  for (auto _ : state) {
    index.unrank(ranks[i++ & (ranks.size() - 1)], seeds, board);
    benchmark::DoNotOptimize(board);
  }
}

void BM_Rank(benchmark::State& state) {
  const int pits = int(state.range(0)), seeds = int(state.range(1));
  const BoardIndex index(pits, seeds);
  const auto ranks = random_ranks(index, seeds);
  std::vector<std::uint8_t> boards(ranks.size() * std::size_t(pits));
  for (std::size_t i = 0; i < ranks.size(); ++i) index.unrank(ranks[i], seeds, &boards[i * std::size_t(pits)]);
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t b = i++ & (ranks.size() - 1);
    benchmark::DoNotOptimize(index.rank(&boards[b * std::size_t(pits)], seeds));
  }
}

// 6-pit Kalah and Awari boards at 15 and 24 seeds, 5-pit boards at 24.
BENCHMARK(BM_Unrank)->Args({12, 15})->Args({12, 24})->Args({10, 24});
BENCHMARK(BM_Rank)->Args({12, 15})->Args({12, 24})->Args({10, 24});

}  // namespace
