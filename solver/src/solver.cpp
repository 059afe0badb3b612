#include "mancala/solver/solver.hpp"

#include <tbb/task_arena.h>

#include <chrono>
#include <memory>
#include <optional>

#include "mancala/error.hpp"
#include "mancala/rules.hpp"
#include "mancala/valuation.hpp"
#include "mancala/solver/null_window_schedule.hpp"
#include "mancala/tables/level_values.hpp"
#include "search.hpp"

namespace mancala::solver {

using detail::SharedState;

namespace {

// In-memory level values as the solver's endgame tables.
template <class R>
class LevelValuesProbe final : public EndgameTables {
 public:
  explicit LevelValuesProbe(const tables::LevelValues<R>& v) : values_(v) {}
  int max_seeds() const override { return values_.built_seeds(); }
  bool probe(const Position& p, int& board_value) const override {
    const int seeds = p.board_seeds();
    if (p.m() != values_.pits_per_side() || seeds > values_.built_seeds()) return false;
    board_value = values_.value(p.pits.data(), seeds);
    return true;
  }
  const std::int8_t* level_values(int pits_per_side, int seeds) const override {
    if (pits_per_side != values_.pits_per_side() || seeds < 0 || seeds > values_.built_seeds()) return nullptr;
    return values_.level(seeds).data();
  }

 private:
  const tables::LevelValues<R>& values_;
};

// Oware's cycles make plain search exponential (results that meet a
// repetition cannot be stored), so Oware solves first compute every level
// that fits this budget by retrograde analysis.
constexpr std::uint64_t kOwareLevelBudget = std::uint64_t(1) << 28;
// The acyclic rulesets build levels of up to 2^25 boards (one memoized pass,
// seconds), when the root has this many more seeds than the top level.
constexpr std::uint64_t kAcyclicLevelBudget = std::uint64_t(1) << 25;
constexpr int kAcyclicMargin = 24;  // measured: Kalah(5,4) is faster without
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
  // In-memory level tables of the last solve: a LevelValues<R> of this
  // solver's rules, for boards of level_pits pits a side, levels 0..level_top.
  std::shared_ptr<void> level_values;
  int level_pits = -1, level_top = -1;

  Impl(const Ruleset& r, const SolveOptions& o) : rules(r), options(o), tt(o.tt_megabytes) {
    if (o.threads < 1) throw InputError("--threads must be at least 1");
    if (o.deepening_depth < 0 || o.deepening_depth >= kExactDepth)
      throw InputError("--deepening must be between 0 and " + std::to_string(kExactDepth - 1));
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

  // The last level (all boards with up to that many seeds) that the
  // automatic choice solves in memory before searching p, or -1 for none.
  template <class R>
  int automatic_level_top(const Position& p) const {
    const int seeds = p.board_seeds();
    const tables::BoardIndex& keys = *index;
    const bool cycles = detail::Worker<R>::kCycles;
    const std::uint64_t budget = cycles ? kOwareLevelBudget : kAcyclicLevelBudget;
    int top = -1;
    while (top < seeds && keys.level_offset(top + 2) <= budget && top < tables::kMaxTableSeeds) ++top;
    if (!cycles && top + kAcyclicMargin > seeds) top = -1;
    return top;
  }

  // The same under SolveOptions::level_table_seeds.
  template <class R>
  int level_table_top(const Position& p) const {
    const int seeds = p.board_seeds();
    const bool cycles = detail::Worker<R>::kCycles;
    const int top = automatic_level_top<R>(p);
    if (options.level_table_seeds < 0) return top;
    const int asked = std::min({options.level_table_seeds, seeds, tables::kMaxTableSeeds});
    // Oware's search above a level it does not have in memory meets every
    // cycle of that level and stores nothing that met one: on a 5-seed
    // board, 65 M nodes with 4 levels against 25 with 5.  So fewer levels
    // than fit the budget are refused rather than run for hours.
    if (cycles && asked < top && !options.oware_search_below_levels)
      throw InputError("--level-tables " + std::to_string(options.level_table_seeds) +
                       " leaves Oware boards of up to " + std::to_string(top) +
                       " seeds to the search, which is exponential in their cycles; give at least " +
                       std::to_string(top) + ", or -1 (automatic)");
    return asked;
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
    // deepening costs there without paying (on a board out of the search's
    // reach, it took 12 s to get to the same error).
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
      ++tests;
      const int v = logged_test<R>(p, shared, gamma, kExactDepth, log);
      schedule.record(gamma, v);
    }
    return schedule.value();
  }

  // A line of moves that each keep the exact board value `value`.
  template <class R>
  std::vector<int> principal_variation(Position p, int value, SharedState& shared) {
    std::vector<int> pv;
    // Oware lines that keep the value can go round a cycle for ever: stop at
    // the first repeated position (endless play from there).
    std::vector<std::pair<std::uint64_t, Side>> seen;
    for (int ply = 0; ply < 200 && !R::is_terminal(p); ++ply) {
      const std::pair<std::uint64_t, Side> here{shared.key(p), p.to_move};
      if (std::find(seen.begin(), seen.end(), here) != seen.end()) break;
      seen.push_back(here);
      bool found = false;
      const int before = p.store_difference();
      // The table's best move almost always keeps the value: trying it first
      // spares a null-window search of every move ahead of it.
      Bounds stored{-p.board_seeds(), p.board_seeds(), -1};
      shared.tt.probe(here.first, stored);
      const MoveMask legal = R::legal_moves(p);
      int order[kMaxPitsPerSide], n = 0;
      if (stored.move >= 0 && (legal >> stored.move & 1)) order[n++] = stored.move;
      for (MoveMask rest = legal; rest; rest &= rest - 1)
        if (std::countr_zero(rest) != stored.move) order[n++] = std::countr_zero(rest);
      for (int k = 0; k < n && !found; ++k) {
        const int pit = order[k];
        Position c = p;
        const MoveResult r = R::play(c, pit);
        const int delta = move_gain(c, r.extra_turn, before);
        // The move reaches `value` iff the child's board value is exactly:
        const int need = r.extra_turn ? value - delta : delta - value;
        bool ok;
        if (r.game_over) {
          ok = delta == value;
        } else {
          // A null-window test around `need` (values are exact maxima, so
          // >= / <= suffices in the right direction).
          if (r.extra_turn)
            ok = detail::search_root<R>(shared, c, need - 1, need) >= need;
          else
            ok = detail::search_root<R>(shared, c, need, need + 1) <= need;
        }
        if (ok) {
          pv.push_back(pit + 1);
          p = c;
          value = r.game_over ? 0 : need;
          found = true;
        }
      }
      if (!found) break;  // cannot happen for an exact value; stop rather than loop
    }
    return pv;
  }

  template <class R>
  SolveResult solve(const Position& p) {
    const auto t0 = std::chrono::steady_clock::now();
    SharedState shared(tt, index_for(p), options.threads, options.parallel_marks_above_tables);
    shared.north_key_bit = north_key_bit_for(p);
    // Endgame tables, in files or in memory, hold the boards without burnt
    // holes: a Congkak position with burnt holes is searched without them
    // (its board alone would name a different position in them).
    const EndgameTables* files = p.burnt ? nullptr : options.tables;
    // Oware: files that stop below the levels that fit in memory would
    // leave the search those levels' cycles; the levels are built instead.
    if constexpr (detail::Worker<R>::kCycles) {
      if (files && files->max_seeds() < std::min(p.board_seeds(), automatic_level_top<R>(p))) files = nullptr;
    }
    shared.use_tables(files, p);
    live_nodes = &shared.nodes;
    tests = 0;
    table_top = -1;
    SolveResult result;
    // The solve's own arena holds its threads (the level-table build and the
    // searches run in it), so that two solvers, or a solve beside a table
    // build, never clamp each other as a process-wide limit would.
    tbb::task_arena arena(options.threads);
    arena.execute([&] {
      std::optional<LevelValuesProbe<R>> probe;
      if (!files && !p.burnt) {
        const int top = level_table_top<R>(p);
        if (top >= 0) {
          // Kept for the next solve of the same board width (analyze solves
          // every child, and a batch of positions shares one board); more
          // levels than needed serve too, unless the caller fixed the count.
          const bool reuse = level_pits == p.m() && (level_top == top || (level_top > top && options.level_table_seeds < 0));
          if (!reuse) {
            building_tables = true;
            level_values.reset();
            auto levels = std::make_shared<tables::LevelValues<R>>(p.m(), top);
            while (levels->built_seeds() < top) {
              table_level = levels->built_seeds() + 1;
              levels->build_next();
            }
            level_values = levels;
            level_pits = p.m();
            level_top = top;
            building_tables = false;
          }
          table_top = level_top;
          probe.emplace(*std::static_pointer_cast<tables::LevelValues<R>>(level_values));
          shared.use_tables(&*probe, p);
        }
      }
      result.board_value = board_value<R>(p, shared, result.test_log);
      result.pv = principal_variation<R>(p, result.board_value, shared);
    });
    result.value = p.store_difference() + result.board_value;
    result.level_tables = files ? files->max_seeds() : table_top.load();
    result.best_move = result.pv.empty() ? 0 : result.pv.front();
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
  dispatch(impl_->rules, [&](auto R) {
    using Rules = decltype(R);
    for (MoveMask rest = Rules::legal_moves(p); rest; rest &= rest - 1) {
      const int pit = std::countr_zero(rest);
      Position c = p;
      const MoveResult r = Rules::play(c, pit);
      const SolveResult child = impl_->solve<Rules>(c);
      // child.value is from the child's mover's side.
      out.push_back({pit + 1, r.extra_turn ? child.value : -child.value});
    }
  });
  std::stable_sort(out.begin(), out.end(), [](const MoveValue& a, const MoveValue& b) { return a.value > b.value; });
  return out;
}

SolveStatus Solver::status() const {
  const auto* live = impl_->live_nodes;
  return {impl_->finished_nodes.load() + (live ? live->load() : 0),
          impl_->lower.load(),
          impl_->upper.load(),
          impl_->testing.load(),
          impl_->tests.load(),
          impl_->building_tables.load() ? impl_->table_level.load() : -1,
          impl_->table_top.load(),
          impl_->deepening.load(),
          impl_->options.deepening_depth};
}

}  // namespace mancala::solver
