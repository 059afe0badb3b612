// mancala.solve and mancala.analyze: the exact solver, run without the GIL.
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <future>
#include <optional>
#include <string>
#include <utility>

#include "bindings.hpp"
#include "cli_common.hpp"
#include "mancala/error.hpp"
#include "mancala/solver/directory_tables.hpp"
#include "mancala/solver/solver.hpp"

namespace mancala::python {

namespace {

// What solve() returns.
struct SolveAnswer {
  int value = 0;        // final store difference, player to move minus opponent
  int board_value = 0;  // value minus the current store difference
  int best_move = 0;    // 1-based pit, 0 when the game is over
  std::vector<int> pv;  // 1-based pits, both players' moves in turn
  std::uint64_t nodes = 0;
  double seconds = 0;
  int threads = 1;
  int level_tables = -1;  // boards with up to this many seeds came from tables
  std::string move_order;  // the order searched, in its text form (solver/move_order.hpp)
};

}  // namespace
}  // namespace mancala::python

MANCALA_PYTHON_REFUSE_UNINITIALISED(mancala::python::SolveAnswer);

namespace mancala::python {
namespace {

std::optional<int> optional_pit(int pit) { return pit ? std::optional<int>(pit) : std::nullopt; }
std::optional<int> optional_action(int pit) { return pit ? std::optional<int>(pit - 1) : std::nullopt; }

// The solve options of the keyword arguments (the command line's checks,
// with messages that name the arguments).
solver::SolveOptions solve_options(int threads, long long tt_mb, const std::optional<std::string>& move_order) {
  if (threads < 0 || threads > 1024)
    throw InputError("threads must be between 0 and 1024 (0: every available core), got " + std::to_string(threads));
  constexpr long long kMaxTtMegabytes = 1LL << 30;
  if (tt_mb < 1 || tt_mb > kMaxTtMegabytes)
    throw InputError("tt_mb must be between 1 and " + std::to_string(kMaxTtMegabytes) + ", got " + std::to_string(tt_mb));
  solver::SolveOptions o;
  o.threads = threads == 0 ? cli::available_cpus() : threads;
  o.tt_megabytes = std::size_t(tt_mb);
  if (move_order) o.move_order = solver::parse_move_order(*move_order);
  return o;
}

// tables_in_memory=: "auto", "yes" or "no", as the command line's
// --tables-in-memory.
solver::TablesInMemory tables_in_memory(const std::string& name) {
  const std::optional<solver::TablesInMemory> mode = solver::tables_in_memory_from(name);
  if (!mode) throw InputError("tables_in_memory must be 'auto', 'yes' or 'no', got '" + name + "'");
  return *mode;
}

// tables=: None, a directory (str or os.PathLike) or a mancala.Tables.
std::optional<std::filesystem::path> tables_dir(const py::object& tables) {
  if (tables.is_none()) return std::nullopt;
  if (py::isinstance<OpenTables>(tables)) return tables.cast<const OpenTables&>().dir;
  if (!py::isinstance<py::str>(tables) && !py::isinstance<py::bytes>(tables) && !py::hasattr(tables, "__fspath__"))
    throw py::type_error("tables must be None, a directory (str or os.PathLike) or a mancala.Tables, not " +
                         std::string(py::str(py::type::of(tables).attr("__name__"))));
  return table_directory_argument(tables);
}

// Runs `work(stop)` on another thread while this one waits without the GIL,
// looking for Python's signals every 50 ms: Ctrl-C stops the solver (its
// stop flag) and raises KeyboardInterrupt here.  Exceptions of `work` pass
// through.
template <class Work>
auto run_interruptibly(Work work) {
  std::atomic<bool> stop{false};
  auto done = std::async(std::launch::async, [&] { return work(&stop); });
  bool interrupted = false;
  {
    py::gil_scoped_release release;
    while (done.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
      py::gil_scoped_acquire acquire;
      if (PyErr_CheckSignals() != 0) {
        interrupted = true;
        stop = true;
        break;
      }
    }
    done.wait();
  }
  if (interrupted) throw py::error_already_set();  // the handler's exception, KeyboardInterrupt
  return done.get();
}

// The solver of a state's ruleset with the options and, if any, the tables,
// handed to `use`; on the calling (worker) thread.
template <class Use>
auto with_solver(const Ruleset& rules, const Position& p, solver::SolveOptions options,
                 const std::optional<std::filesystem::path>& dir, solver::TablesInMemory in_memory,
                 const std::atomic<bool>* stop, Use use) {
  std::optional<solver::DirectoryTables> tables;
  if (dir) {
    tables.emplace(*dir, rules, p.m());  // InputError if built for another ruleset or width
    tables->prepare_for(p, in_memory);
    options.tables = &*tables;
  }
  options.stop = stop;
  const cli::ThreadAllowance allowance(options.threads);  // as the command line: more threads than cores run
  solver::Solver s(rules, options);
  return use(s);
}

SolveAnswer solve(const GameState& state, int threads, const py::object& tables, long long tt_mb,
                  const std::string& in_memory_name, const std::optional<std::string>& move_order) {
  const solver::SolveOptions options = solve_options(threads, tt_mb, move_order);
  const solver::TablesInMemory in_memory = tables_in_memory(in_memory_name);
  const std::optional<std::filesystem::path> dir = tables_dir(tables);
  const Ruleset rules = state.rules();
  const Position p = state.position();
  const solver::SolveResult r = run_interruptibly([&](const std::atomic<bool>* stop) {
    return with_solver(rules, p, options, dir, in_memory, stop, [&](solver::Solver& s) { return s.solve(p); });
  });
  return {r.value,   r.board_value,   r.best_move,     r.pv, r.nodes,
          r.seconds, options.threads, r.level_tables,
          solver::format_move_order(solver::searched_move_order(rules, options))};
}

std::vector<std::pair<int, int>> analyze(const GameState& state, int threads, const py::object& tables, long long tt_mb,
                                         const std::string& in_memory_name, const std::optional<std::string>& move_order) {
  const solver::SolveOptions options = solve_options(threads, tt_mb, move_order);
  const solver::TablesInMemory in_memory = tables_in_memory(in_memory_name);
  const std::optional<std::filesystem::path> dir = tables_dir(tables);
  const Ruleset rules = state.rules();
  const Position p = state.position();
  const std::vector<solver::MoveValue> moves = run_interruptibly([&](const std::atomic<bool>* stop) {
    return with_solver(rules, p, options, dir, in_memory, stop, [&](solver::Solver& s) { return s.analyze(p); });
  });
  std::vector<std::pair<int, int>> out;
  for (const solver::MoveValue& mv : moves) out.emplace_back(mv.move - 1, mv.value);
  return out;
}

std::string repr(const SolveAnswer& a) {
  std::string pv;
  for (std::size_t i = 0; i < a.pv.size(); ++i) pv += (i ? ", " : "") + std::to_string(a.pv[i]);
  return "SolveResult(value=" + std::to_string(a.value) + ", result='" + result_name(a.value) + "', best_move=" +
         (a.best_move ? std::to_string(a.best_move) : std::string("None")) + ", pv=[" + pv +
         "], nodes=" + std::to_string(a.nodes) + ", seconds=" + std::to_string(a.seconds) + ")";
}

}  // namespace

void bind_solve(py::module_& m) {
  py::class_<SolveAnswer>(m, "SolveResult", "What solve() found: the value under perfect play, a best move, the line.")
      .def_readonly("value", &SolveAnswer::value,
                    "Final store difference, player to move minus opponent, stores included, under perfect play.")
      .def_property_readonly("result", [](const SolveAnswer& a) { return result_name(a.value); },
                             "'win', 'draw' or 'loss' for the player to move.")
      .def_readonly("board_value", &SolveAnswer::board_value,
                    "value minus the current store difference: what the seeds on the board are worth.")
      .def_property_readonly("best_move", [](const SolveAnswer& a) { return optional_pit(a.best_move); },
                             "A best move as a 1-based pit, None when the game is over.")
      .def_property_readonly("best_action", [](const SolveAnswer& a) { return optional_action(a.best_move); },
                             "best_move - 1 (an action), None when the game is over.")
      .def_readonly("pv", &SolveAnswer::pv, "The principal variation: 1-based pits of each mover in turn.")
      .def_property_readonly(
          "pv_actions",
          [](const SolveAnswer& a) {
            std::vector<int> actions;
            for (int pit : a.pv) actions.push_back(pit - 1);
            return actions;
          },
          "pv as actions.")
      .def_readonly("nodes", &SolveAnswer::nodes)
      .def_readonly("seconds", &SolveAnswer::seconds)
      .def_readonly("threads", &SolveAnswer::threads, "The threads searched with (threads=0 resolved).")
      .def_readonly("level_tables", &SolveAnswer::level_tables,
                    "Boards with up to this many seeds were read from endgame tables (tables=, or levels the solver "
                    "built in memory first), -1 if none.")
      .def_readonly("move_order", &SolveAnswer::move_order,
                    "The move-order weights searched with (16 integers, as solve()'s move_order=): the ruleset's "
                    "tuned ones unless move_order= was given.")
      .def("__repr__", &repr);

  m.def("solve", &solve, py::arg("state"), py::arg("threads") = 0, py::arg("tables") = py::none(),
        py::arg("tt_mb") = 256, py::arg("tables_in_memory") = "auto", py::arg("move_order") = py::none(),
        R"doc(The exact value of a state under perfect play: a SolveResult.

threads: search threads, 0 for every core this process may use
(SLURM_CPUS_PER_TASK inside a Slurm task); values never depend on it.
tables: an endgame table directory from `mancala build` (str, os.PathLike or
a mancala.Tables), built for the state's ruleset and board width (ValueError
otherwise; FileNotFoundError or NotADirectoryError when there is no such
directory).  tt_mb: the transposition table in MiB.  tables_in_memory: 'auto'
(copy the levels the search reads into memory when the state is above the
tables and they take at most a quarter of the machine's memory, and 1 GiB
or more or some are compressed), 'yes'
(always; ValueError past half of it) or 'no' (read the files in place); as
the command line's --tables-in-memory.  move_order: None (the ruleset's
tuned move order) or 16 comma-separated integers, as the command line's
--move-order: an experiment with the order, which changes the nodes, never
the value (ValueError for a malformed or out-of-bounds one).  The GIL is released while
the solver runs; Ctrl-C stops it and raises KeyboardInterrupt.
)doc");
  m.def("analyze", &analyze, py::arg("state"), py::arg("threads") = 0, py::arg("tables") = py::none(),
        py::arg("tt_mb") = 256, py::arg("tables_in_memory") = "auto", py::arg("move_order") = py::none(),
        R"doc(The exact value of every legal action: a list of (action, value), best first,
where value is the final store difference for the player to move after
playing it (as solve()'s value); empty when the game is over.  Arguments as
for solve().
)doc");
}

}  // namespace mancala::python
