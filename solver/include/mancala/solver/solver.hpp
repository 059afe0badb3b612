// Exact solver: the game-theoretic value of a position under perfect play.
//
// Values.  The board value b(p) is the best net number of seeds the player
// to move can still gain from the seeds on the board (stores excluded: they
// never influence play).  A move that gains `delta` (its change of the store
// difference, as seen by the mover) leads to b(p) = delta + b(child) when the
// mover moves again and b(p) = delta - b(child) otherwise.  The solve value is
// (mover's store - opponent's store) + b(p): the final store difference.
//
// Search.  Null-window fail-soft alpha-beta on b.  Iterative deepening
// first (searches cut off at depths 3, 6, ..., 21 whose leaves score 0)
// gives a first guess and fills the transposition table with best moves;
// then exact tests "is b >= g?" step from the guess toward the value
// (NullWindowSchedule; in Kalah, BrainKing and Congkak b has the parity of
// the seeds on the board, which halves the tests).  Shared transposition
// table with lossless keys and a depth per entry (an exact search never
// takes a cut-off search's bounds; the children's entries prefetched at a
// node expected to fail low), move ordering (children of known value first, best first; then the table move,
// extra turns, the gain, fewest replies for a player behind, the material
// term (the seeds the move leaves on the mover's row against the opponent's,
// for a player behind or at a node expected to fail low), and the pit
// nearest the store), and young brothers wait on TBB: high in the tree,
// once a node's two eldest children have not
// refuted it, every thread takes its remaining children in order, and a
// refutation cancels the others.  Values never depend on the number of
// threads: every search is exact, splitting only changes who searches
// which child, and a cancelled search stores nothing.
//
// Oware's cycles (graph-history interaction).  Endless play splits the
// remaining seeds evenly, so a position that repeats one on the current line
// (same board, same player to move, hence no capture in between) scores 0.
// Such a score depends on the path, so any result that used one is marked
// "tainted" and is never stored in the transposition table; stored results
// come from proof trees that contain no repetition and so hold for every
// path.  The root's value is exact: a player who can force a net gain of s
// with endless play worth 0 can force it without repeating a position (a
// memoryless attractor strategy), so scoring the first repetition as 0
// changes no value.  The brute-force tests check this on small boards.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "mancala/position.hpp"
#include "mancala/ruleset.hpp"
#include "mancala/solver/move_order.hpp"
#include "mancala/solver/transposition_table.hpp"

namespace mancala::solver {

// Hook for endgame databases: exact board values for boards with few seeds.
class EndgameTables {
 public:
  virtual ~EndgameTables() = default;
  virtual int max_seeds() const = 0;
  // Board value of p (mover-relative, stores excluded); false if not covered.
  virtual bool probe(const Position& p, int& board_value) const = 0;
  // The values of every board of `pits_per_side` pits a side holding `seeds`
  // seeds, in rank order (tables::BoardIndex::rank), when the tables hold
  // them in memory; null if not covered, or if the tables cannot say.  The
  // search then reads a child's value at its rank, computed once for the
  // child's key anyway, and prefetches the values of all of a node's children
  // at once, so that their cache misses overlap.  May open (and validate) the
  // level.
  virtual const std::int8_t* level_values(int pits_per_side, int seeds) const {
    (void)pits_per_side;
    (void)seeds;
    return nullptr;
  }
};

struct SolveOptions {
  int threads = 1;
  std::size_t tt_megabytes = 256;
  const EndgameTables* tables = nullptr;
  // Levels (all boards with up to this many seeds) solved by retrograde
  // analysis in memory before the search and probed by it (never for a
  // Congkak position with burnt holes: the levels, like the table files,
  // hold boards without burnt holes, so such positions are searched alone).
  // -1: automatic
  // (Oware: every level up to the root's when they fit full_table_bytes, so
  // that the root's value is read, not searched; else as many as fit 2^28
  // boards, since its search alone is exponential in the cycles; the other
  // rulesets: up to 2^25 boards, for roots with enough seeds above them to
  // pay for the build).
  int level_table_seeds = -1;
  // Oware's automatic choice: the memory that the full tables of a root
  // (every level below its seeds, 1 byte a board, and the retrograde
  // sweep's 2 1/8 bytes a board of the top level) may take.  0: half of this machine's
  // physical memory.
  std::uint64_t full_table_bytes = 0;
  // With several threads, nodes with more than this many seeds above the
  // endgame tables (or above 0 seeds without tables) search their younger
  // children in parallel.  Split lower, the tasks are too small for what a
  // split costs; higher, the threads wait at the few large nodes
  // (results/README.md, "Move-ordering and search-parameter measurements").
  // Tests lower it to split everywhere.
  int parallel_split_above_tables = 11;
  // Iterative deepening before the exact search: null-window searches cut
  // off at depths 3, 6, ..., up to this (0: none), whose leaves score 0.
  // Their value is the exact search's first guess, and their best moves in
  // the transposition table order its moves; it pays most on boards whose
  // value is far from 0 (results/README.md, "Move-ordering and
  // search-parameter measurements").  It always runs to this depth: a stop
  // once its guess held still was tried and removed ("The deepening's stop
  // removed").  Oware never deepens (see Solver::Impl::deepening_guess).
  int deepening_depth = 21;
  // Oware: allow level_table_seeds below what the automatic choice builds
  // (refused otherwise: the search above missing levels is exponential in
  // their cycles).  For tests of the search's repetition rule on tiny boards.
  bool oware_search_below_levels = false;
  // The caller's stop request (a signal handler's or a time limit's flag):
  // once raised, a solve stops within a few thousand nodes, or a range of
  // boards or a round of a level-table build, and returns what it has
  // proven (SolveResult::complete false).  Null: never stops early.
  const std::atomic<bool>* stop = nullptr;
  // Count what the search's nodes did (SolveResult::search_stats): for
  // measuring the move order and where the nodes are.  The search then runs
  // a worker compiled for no fixed width: the same nodes and values, slower
  // (so time a solve without it).
  bool search_stats = false;
  // The move order's weights in place of the ruleset's tuned ones
  // (tuned_move_order), for experiments with the order: the values are the
  // same, the nodes are not.  The search then runs a worker compiled for no
  // fixed width that reads them (slower: tune on node counts).
  std::optional<OrderWeights> move_order = std::nullopt;
  // Tests only: stop as `stop` does just before exact test N + 1 would
  // start, so that a test can stop a solve at a chosen point (-1: never).
  int test_stop_after_tests = -1;
};

// The move order a solve with `options` searches `rules` with: the
// caller's (SolveOptions::move_order), else the ruleset's tuned one.
inline const OrderWeights& searched_move_order(const Ruleset& rules, const SolveOptions& options) {
  return options.move_order ? *options.move_order : tuned_move_order(rules);
}

// One null-window test of the root: is the value >= `at_least`?  Values are
// final store differences, like SolveResult::value.
struct TestRecord {
  int at_least;
  bool holds;
  int bound;  // what the fail-soft search proved: value >= bound if holds, else <= bound
  std::uint64_t nodes;
  double seconds;
  int depth;  // kExactDepth, or the depth of an iterative-deepening search
};

// What the search's nodes did, over a whole solve (the iterative deepening,
// the exact tests and the principal variation's searches), when
// SolveOptions::search_stats asks.  A node is one call of the search, as in
// SolveResult::nodes; every node is in exactly one of the first seven
// counts.  An interior node's window "expects a cut" when it
// asks the mover for no gain from the board (the node usually fails high:
// one refutation settles it); otherwise it expects to fail low (every child
// is usually searched).
struct SearchStats {
  std::uint64_t terminal = 0;          // the game was over
  std::uint64_t from_tables = 0;       // valued by an endgame-table probe
  std::uint64_t horizon = 0;           // the deepening's cut-off depth reached: scored 0
  std::uint64_t repetition = 0;        // Oware: the board repeats one on the line (scored 0)
  std::uint64_t settled_by_entry = 0;  // the transposition table's bounds decided it
  std::uint64_t interior = 0;          // the node valued its children
  std::uint64_t abandoned = 0;         // left unfinished: the solve stopped, or a sibling refuted a split above
  std::uint64_t expected_cut = 0;            // interior nodes expecting a cut
  std::uint64_t expected_cut_failed_high = 0;  // ... that failed high
  std::uint64_t expected_cut_first_child = 0;  // ... on the first child tried
  std::uint64_t expected_all_failed_high = 0;  // interior nodes expecting to fail low that failed high
  std::uint64_t with_entry_move = 0;     // interior nodes whose entry named a move, tried first
  std::uint64_t entry_move_failed_high = 0;  // ... that failed high on it
  std::uint64_t children_valued = 0;     // children given a value at interior nodes (searched, known, or bounded by their seeds)
  // Interior nodes by the seeds on their board (index: seeds).
  std::vector<std::uint64_t> interior_by_seeds;

  // Adds another's counts (each worker's, as it ends): here, beside the
  // fields, so that a new count is summed too.
  void add(const SearchStats& o) {
    terminal += o.terminal;
    from_tables += o.from_tables;
    horizon += o.horizon;
    repetition += o.repetition;
    settled_by_entry += o.settled_by_entry;
    interior += o.interior;
    abandoned += o.abandoned;
    expected_cut += o.expected_cut;
    expected_cut_failed_high += o.expected_cut_failed_high;
    expected_cut_first_child += o.expected_cut_first_child;
    expected_all_failed_high += o.expected_all_failed_high;
    with_entry_move += o.with_entry_move;
    entry_move_failed_high += o.entry_move_failed_high;
    children_valued += o.children_valued;
    if (interior_by_seeds.size() < o.interior_by_seeds.size()) interior_by_seeds.resize(o.interior_by_seeds.size());
    for (std::size_t i = 0; i < o.interior_by_seeds.size(); ++i) interior_by_seeds[i] += o.interior_by_seeds[i];
  }
};

struct SolveResult {
  // False when SolveOptions::stop ended the solve early: then only `lower`,
  // `upper`, `pv` (the moves proven so far: empty unless lower == upper) and
  // the unproven `best_move` hold; value and board_value are not a value.
  bool complete = true;
  int value = 0;        // final store difference, player to move minus opponent
  int lower = 0, upper = 0;  // proven bounds on it (both = value when complete)
  int board_value = 0;  // value minus the current store difference
  // 1-based pit, 0 if the game is over.  Proven (pv's first move) when
  // complete or pv is not empty; otherwise the best move of the last search
  // (the transposition table's move at the root), or 0 if none was found.
  int best_move = 0;
  std::vector<int> pv;  // principal variation, 1-based pits
  std::uint64_t nodes = 0;
  double seconds = 0;
  int tests = 0;  // exact null-window searches (iterative deepening's are in test_log only)
  std::vector<TestRecord> test_log;  // the tests that found the value, in order (not the PV's)
  int level_tables = -1;  // boards with up to this many seeds came from level tables
  // Entries the transposition table held for this solve (its layout depends
  // on the board: TranspositionTable::configure).
  std::uint64_t tt_entries = 0;
  // Filled when SolveOptions::search_stats asked for it.
  SearchStats search_stats;
};

struct MoveValue {
  int move;   // 1-based pit
  int value;  // final store difference for the player to move after playing it
};

// A snapshot for progress lines.
struct SolveStatus {
  std::uint64_t nodes;
  int lower, upper;  // current bounds on the solve value
  int testing;       // value being tested
  int tests;
  int building_level;  // level table being built, -1 when searching
  int top_level;       // last level table to build
  int deepening;       // depth of the iterative-deepening search running, -1 in the exact search
  int deepening_depth;  // last depth of iterative deepening
  double search_seconds;  // time the search has run since the level tables were ready
};

class Solver {
 public:
  // Throws InputError on a bad option (e.g. a table beyond the machine's memory).
  Solver(const Ruleset& rules, const SolveOptions& options);
  ~Solver();

  // Throws InputError if the position is too large for lossless keys.
  SolveResult solve(const Position& p);
  // Exact value of every legal move, best first.  When SolveOptions::stop
  // ends it early, it returns the moves solved so far and stopped() is true.
  std::vector<MoveValue> analyze(const Position& p);
  // Whether the last solve() or analyze() was stopped early.
  bool stopped() const;

  // Safe to call from another thread while solve() runs.
  SolveStatus status() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mancala::solver
