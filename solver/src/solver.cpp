// The search driver: iterative deepening, the null-window tests, the level
// tables in memory, the principal variation and the progress status around
// the search (search.hpp).  The policies it applies are in
// level_table_policy.hpp and null_window_schedule.hpp.
#include "mancala/solver/solver.hpp"

#include <tbb/task_arena.h>

#include <bit>
#include <chrono>
#include <memory>
#include <optional>

#include "level_table_cache.hpp"
#include "level_table_policy.hpp"
#include "mancala/error.hpp"
#include "mancala/rules.hpp"
#include "mancala/valuation.hpp"
#include "mancala/solver/null_window_schedule.hpp"
#include "principal_variation.hpp"
#include "search.hpp"
#include "shared_state.hpp"

namespace mancala::solver {

using detail::SharedState;

namespace {

// Girving's Kalah solver deepens in steps of 3 too.
constexpr int kDeepeningStep = 3;

}  // namespace

struct Solver::Impl {
  Ruleset rules;
  SolveOptions options;
  TranspositionTable tt;
  // The table's keys are only comparable for one ruleset, board width and
  // set of burnt holes (South-relative mask; see SharedState::north_key_bit).
  int keyed_pits = -1;
  std::uint32_t keyed_burnt = 0;
  std::optional<tables::BoardIndex> index;
  std::atomic<std::uint64_t>* live_nodes = nullptr;
  std::atomic<int> lower{0}, upper{0}, testing{0}, tests{0}, table_level{-1}, table_top{-1}, deepening{-1};
  std::atomic<bool> building_tables{false};
  std::atomic<std::uint64_t> finished_nodes{0};
  // When the search of the running solve started (steady clock, ns; 0
  // while its level tables are built), for the progress line's rate.
  std::atomic<std::int64_t> search_started{0};
  bool last_stopped = false;
  // In-memory level tables of the last solve.
  detail::LevelTableCache level_tables;

  Impl(const Ruleset& r, const SolveOptions& o) : rules(r), options(o), tt(o.tt_megabytes, o.threads > 1) {
    if (o.threads < 1) throw InputError("--threads must be at least 1");
    if (o.move_order) check_move_order(*o.move_order);
    if (o.deepening_depth < 0 || o.deepening_depth >= kExactDepth)
      throw InputError("--deepening must be between 0 and " + std::to_string(kExactDepth - 1) + ", got " +
                       std::to_string(o.deepening_depth));
  }

  // Index (and table reset) for boards of p's width with up to p's seeds.
  const tables::BoardIndex& index_for(const Position& p) {
    const int pits = 2 * p.m();
    const int seeds = p.board_seeds();
    if (keyed_pits != pits) {
      if (keyed_pits != -1) tt.clear();
      keyed_pits = pits;
      index.reset();
    }
    if (!index || index->max_seeds() < seeds) {
      try {
        index.emplace(pits, std::max(seeds, index ? index->max_seeds() : 0));
      } catch (const InputError&) {
        throw InputError("a board of " + std::to_string(p.m()) + " pits a side with " + std::to_string(seeds) +
                         " seeds is beyond the solver's 64-bit lossless keys");
      }
    }
    return *index;
  }

  // Clears the table when p's burnt holes are not those of the last solve,
  // and returns the key bit for North to move (0 unless the two rows' burnt
  // holes differ).
  std::uint64_t north_key_bit_for(const Position& p) {
    Position south = p;
    if (south.to_move == Side::North) south.flip();
    if (south.burnt != keyed_burnt) {
      tt.clear();
      keyed_burnt = south.burnt;
    }
    const std::uint32_t row = (1u << p.m()) - 1;
    if ((south.burnt & row) == ((south.burnt >> p.m()) & row)) return 0;
    constexpr std::uint64_t bit = std::uint64_t(1) << 63;
    if (index->level_offset(index->max_seeds() + 1) > bit)
      throw InputError("a board of " + std::to_string(p.m()) + " pits a side with " + std::to_string(p.board_seeds()) +
                       " seeds and burnt holes is beyond the solver's 64-bit lossless keys");
    return bit;
  }

  // The null-window test "is b >= gamma?" at `depth`, recorded in `log`.
  template <class R>
  static int logged_test(const Position& p, SharedState& shared, int gamma, int depth, std::vector<TestRecord>& log) {
    const int diff = p.store_difference();
    const std::uint64_t nodes_before = shared.nodes.load();
    const auto t0 = std::chrono::steady_clock::now();
    const int v = detail::search_root<R>(shared, p, gamma - 1, gamma, depth);
    log.push_back({diff + gamma, v >= gamma, diff + v, shared.nodes.load() - nodes_before,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), depth});
    return v;
  }

  // Iterative deepening: searches cut off at depths 3, 6, ... with MTD(f),
  // each from the last one's value.  Their values only guess the exact
  // value; their transposition-table entries (of less than exact depth,
  // so an exact search never takes their bounds) give it best moves.
  template <class R>
  int deepening_guess(const Position& p, SharedState& shared, std::vector<TestRecord>& log) {
    // Not in Oware: its solves rest on the level tables, and above them a
    // cut-off search meets cycles whose results cannot be stored, so
    // deepening costs there without paying (results/README.md).
    if constexpr (detail::Worker<R>::kCycles) return 0;
    const int seeds = p.board_seeds();
    const int diff = p.store_difference();
    int guess = 0;
    for (int depth = kDeepeningStep; depth <= options.deepening_depth; depth += kDeepeningStep) {
      int lo = -seeds, hi = seeds, g = guess;
      while (lo < hi) {
        const int beta = g == lo ? g + 1 : g;
        deepening = depth;
        testing = diff + beta;
        const int v = logged_test<R>(p, shared, beta, depth, log);
        if (v >= beta) lo = v; else hi = v;
        g = v;
      }
      guess = lo;
      // No stop before the option's depth, even when the guess holds still:
      // a guess that holds still can still be wrong, and the exact tests
      // then cost far more than the deeper searches would have (Kalah(5,6)
      // with 23-seed tables: guess 3 at 15 and 18, 2 at 21; the solve took
      // 275 M nodes stopped at 18, 128 M at 21).  A stop from depth 18 on
      // (3cceb34) saved 7.7% over 60 solves, all of it on one board whose
      // wrong guess happened to be cheaper (results/README.md, "The
      // deepening's stop removed").
    }
    deepening = -1;
    return guess;
  }

  // Exact board value of p by null-window tests (see NullWindowSchedule).
  template <class R>
  int board_value(const Position& p, SharedState& shared, std::vector<TestRecord>& log) {
    if (R::is_terminal(p)) return finished_board_value(p);
    // Values of acyclic rulesets have the parity of the seeds on the board
    // (every seed ends in one store or the other).
    const int guess = deepening_guess<R>(p, shared, log);
    NullWindowSchedule schedule(p.board_seeds(), !detail::Worker<R>::kCycles, guess);
    const int diff = p.store_difference();
    while (!schedule.done()) {
      const int gamma = schedule.next_test();
      lower = diff + schedule.lower();
      upper = diff + schedule.upper();
      testing = diff + gamma;
      if (options.test_stop_after_tests >= 0 && tests.load() >= options.test_stop_after_tests) throw detail::SearchStopped();
      ++tests;
      const int v = logged_test<R>(p, shared, gamma, kExactDepth, log);
      schedule.record(gamma, v);
    }
    return schedule.value();
  }

  static std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }

  template <class R>
  SolveResult solve(const Position& p) {
    const auto t0 = std::chrono::steady_clock::now();
    SharedState shared(tt, index_for(p), options.threads, options.parallel_split_above_tables);
    shared.north_key_bit = north_key_bit_for(p);
    // Every key is below the index's last level offset (or has the north
    // bit), and every value within the index's seeds.
    tt.configure(shared.north_key_bit ? 64 : std::bit_width(index->level_offset(index->max_seeds() + 1) - 1), index->max_seeds());
    shared.stop = options.stop;
    // Until a test says more: every seed on the board may go either way.
    lower = p.store_difference() - p.board_seeds();
    upper = p.store_difference() + p.board_seeds();
    search_started = 0;
    // Endgame tables, in files or in memory, hold the boards without burnt
    // holes: a Congkak position with burnt holes is searched without them
    // (its board alone would name a different position in them).
    const EndgameTables* files = p.burnt ? nullptr : options.tables;
    // Oware: files that stop below the levels that fit in memory would
    // leave the search those levels' cycles; the levels are built instead.
    if constexpr (detail::Worker<R>::kCycles) {
      if (files && files->max_seeds() < std::min(p.board_seeds(), detail::automatic_level_top(*index, p.board_seeds(), true, detail::full_table_budget(options)))) files = nullptr;
    }
    shared.use_tables(files, p);
    live_nodes = &shared.nodes;
    tests = 0;
    table_top = -1;
    SolveResult result;
    if (options.search_stats) shared.stats = &result.search_stats;
    if (options.move_order) shared.move_order = &*options.move_order;
    // The solve's own arena holds its threads (the level-table build and the
    // searches run in it), so that two solvers, or a solve beside a table
    // build, never clamp each other as a process-wide limit would.
    tbb::task_arena arena(options.threads);
    bool exact = false;
    arena.execute([&] {
      try {
        // A finished game's value is its sweep: no levels to build for it
        // (a board of 255 seeds would have built 50 levels for nothing).
        if (!files && !p.burnt && !R::is_terminal(p)) {
          const int top = detail::level_table_top(*index, p.board_seeds(), detail::Worker<R>::kCycles, options);
          if (top >= 0) {
            // More levels than needed serve too, unless the caller fixed the count.
            const detail::LevelTables* levels = level_tables.find(rules, p.m(), top, options.level_table_seeds < 0);
            if (!levels) {
              table_top = top;
              building_tables = true;
              levels = &level_tables.build<R>(rules, p.m(), top, [&](int level) { table_level = level; }, options.stop);
              building_tables = false;
            }
            table_top = levels->max_seeds();
            shared.use_tables(levels, p);
          }
        }
        search_started = now_ns();
        result.board_value = board_value<R>(p, shared, result.test_log);
        exact = true;
        lower = upper = p.store_difference() + result.board_value;
        detail::principal_variation<R>(p, result.board_value, shared, result.pv);
      } catch (const detail::SearchStopped&) {
        result.complete = false;
      } catch (const tables::BuildStopped&) {
        result.complete = false;
      }
    });
    building_tables = false;
    last_stopped = !result.complete;
    result.lower = lower.load();
    result.upper = upper.load();
    result.value = exact ? p.store_difference() + result.board_value : result.lower;
    result.level_tables = files ? files->max_seeds() : table_top.load();
    result.best_move = result.pv.empty() ? 0 : result.pv.front();
    if (!result.complete && !result.best_move) {
      // Not proven: the move the last search found best at the root.
      Bounds stored{-p.board_seeds(), p.board_seeds(), -1};
      tt.probe(shared.key(p), stored);  // sets the move from an entry of any depth
      if (stored.move >= 0 && (R::legal_moves(p) >> stored.move & 1))
        result.best_move = stored.move + 1;
    }
    result.tt_entries = tt.capacity();
    result.nodes = shared.nodes.load();
    result.tests = tests.load();
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    finished_nodes += result.nodes;
    live_nodes = nullptr;
    lower = upper = result.value;
    return result;
  }
};

Solver::Solver(const Ruleset& rules, const SolveOptions& options) : impl_(std::make_unique<Impl>(rules, options)) {}
Solver::~Solver() = default;

SolveResult Solver::solve(const Position& p) {
  return dispatch(impl_->rules, [&](auto R) { return impl_->solve<decltype(R)>(p); });
}

std::vector<MoveValue> Solver::analyze(const Position& p) {
  std::vector<MoveValue> out;
  bool stopped = false;
  dispatch(impl_->rules, [&](auto R) {
    using Rules = decltype(R);
    for (MoveMask rest = Rules::legal_moves(p); rest; rest &= rest - 1) {
      const int pit = std::countr_zero(rest);
      Position c = p;
      const MoveResult r = Rules::play(c, pit);
      const SolveResult child = impl_->solve<Rules>(c);
      if (!child.complete) {
        stopped = true;
        break;
      }
      // child.value is from the child's mover's side.
      out.push_back({pit + 1, r.extra_turn ? child.value : -child.value});
    }
  });
  std::stable_sort(out.begin(), out.end(), [](const MoveValue& a, const MoveValue& b) { return a.value > b.value; });
  impl_->last_stopped = stopped;
  return out;
}

bool Solver::stopped() const { return impl_->last_stopped; }

SolveStatus Solver::status() const {
  const auto* live = impl_->live_nodes;
  const std::int64_t started = impl_->search_started.load();
  return {impl_->finished_nodes.load() + (live ? live->load() : 0),
          impl_->lower.load(),
          impl_->upper.load(),
          impl_->testing.load(),
          impl_->tests.load(),
          impl_->building_tables.load() ? impl_->table_level.load() : -1,
          impl_->table_top.load(),
          impl_->deepening.load(),
          impl_->options.deepening_depth,
          started > 0 ? double(Impl::now_ns() - started) * 1e-9 : 0.0};
}

}  // namespace mancala::solver
