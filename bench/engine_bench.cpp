// Moves applied per second on random playouts, one benchmark per ruleset.
// The playout picks uniformly among legal moves with a fixed-seed xorshift
// generator, so every run plays the same games.  Record with
// scripts/bench_engine.sh, which writes results/engine_bench.json.
#include <benchmark/benchmark.h>

#include <bit>

#include "mancala/rules.hpp"

namespace {

using namespace mancala;

struct XorShift {
  std::uint64_t s = 0x9E3779B97F4A7C15ull;
  std::uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
};

int pick(MoveMask mask, XorShift& rng) {
  int k = int(rng.next() % unsigned(std::popcount(mask)));
  while (k--) mask &= mask - 1;
  return std::countr_zero(mask);
}

template <class R>
void BM_RandomPlayout(benchmark::State& state) {
  const int m = int(state.range(0));
  const int n = int(state.range(1));
  const Position start = start_position(m, n);
  Position p = start;
  XorShift rng;
  int plies = 0;
  std::int64_t moves = 0;
  for (auto _ : state) {
    const MoveMask legal = R::legal_moves(p);
    if (legal == 0 || plies == 400) {  // Oware can cycle: cap the playout
      p = start;
      plies = 0;
      continue;
    }
    R::play(p, pick(legal, rng));
    benchmark::DoNotOptimize(p);
    ++plies;
    ++moves;
  }
  state.SetItemsProcessed(moves);
  state.counters["moves/s"] = benchmark::Counter(double(moves), benchmark::Counter::kIsRate);
}

BENCHMARK_TEMPLATE(BM_RandomPlayout, KalahRules<false>)->Name("kalah")->Args({6, 4})->Args({6, 6});
BENCHMARK_TEMPLATE(BM_RandomPlayout, KalahRules<true>)->Name("kalah+empty-capture")->Args({6, 4});
BENCHMARK_TEMPLATE(BM_RandomPlayout, BrainKingRules)->Name("brainking")->Args({6, 4});
BENCHMARK_TEMPLATE(BM_RandomPlayout, OwareRules<GrandSlam::NoCapture>)->Name("oware")->Args({6, 4});
BENCHMARK_TEMPLATE(BM_RandomPlayout, OwareRules<GrandSlam::Forbidden>)->Name("oware+grand-slam=forbidden")->Args({6, 4});
BENCHMARK_TEMPLATE(BM_RandomPlayout, CongkakRules<CongkakCapture::Always>)->Name("congkak")->Args({7, 7});
BENCHMARK_TEMPLATE(BM_RandomPlayout, CongkakRules<CongkakCapture::NeedsOpposite>)->Name("congkak+capture=needs-opposite")->Args({7, 7});

}  // namespace
