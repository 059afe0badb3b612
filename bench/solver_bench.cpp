// Solver nodes per second on a fixed set of small positions (one thread, a
// fresh 64 MiB table per solve, so every iteration does the same work).
#include <benchmark/benchmark.h>

#include "mancala/notation.hpp"
#include "mancala/solver/solver.hpp"

namespace {

using namespace mancala;

void BM_Solve(benchmark::State& state, const char* digest, const char* position) {
  const Ruleset rules = parse_digest(digest);
  const Position p = parse_position(position);
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    solver::Solver solver(rules, {.threads = 1, .tt_megabytes = 64});
    const solver::SolveResult r = solver.solve(p);
    benchmark::DoNotOptimize(r.value);
    nodes += r.nodes;
  }
  state.counters["nodes/s"] = benchmark::Counter(double(nodes), benchmark::Counter::kIsRate);
  state.counters["nodes"] = benchmark::Counter(double(nodes) / double(state.iterations()));
}

BENCHMARK_CAPTURE(BM_Solve, kalah_5x3, "kalah", "3,3,3,3,3/3,3,3,3,3 0-0 s")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Solve, kalah_empty_capture_5x3, "kalah+empty-capture", "3,3,3,3,3/3,3,3,3,3 0-0 s")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Solve, brainking_5x3, "brainking", "3,3,3,3,3/3,3,3,3,3 0-0 s")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Solve, congkak_5x3, "congkak", "3,3,3,3,3/3,3,3,3,3 0-0 s")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Solve, oware_4x3, "oware", "3,3,3,3/3,3,3,3 0-0 s")->Unit(benchmark::kMillisecond);

}  // namespace
