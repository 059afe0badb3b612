// mancala.Tables: probing a table directory (mancala::TableProber).
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <stdexcept>
#include <system_error>

#include "bindings.hpp"
#include "mancala/error.hpp"
#include "mancala/probe.hpp"
#include "mancala/tables/table_directory.hpp"

MANCALA_PYTHON_REFUSE_UNINITIALISED(mancala::ProbeResult);

namespace mancala::python {

namespace {

}  // namespace

std::filesystem::path path_argument(const py::object& path) {
  py::object text = py::module_::import("os").attr("fspath")(path);
  if (py::isinstance<py::bytes>(text)) text = py::module_::import("os").attr("fsdecode")(text);
  const std::string s = text.cast<std::string>();
  if (s.find('\0') != std::string::npos) throw py::value_error("embedded null byte");
  return std::filesystem::path(s);
}

std::filesystem::path table_directory_argument(const py::object& path) {
  const std::filesystem::path dir = path_argument(path);
  std::error_code ec;
  const std::filesystem::file_type type = std::filesystem::status(dir, ec).type();
  const bool missing = type == std::filesystem::file_type::not_found;
  if (missing || (!ec && type != std::filesystem::file_type::directory)) {
    try {
      tables::require_table_directory(dir);
    } catch (const InputError& e) {
      PyErr_SetString(missing ? PyExc_FileNotFoundError : PyExc_NotADirectoryError, e.what());
      throw py::error_already_set();
    }
  }
  return dir;
}

namespace {

// Opens `dir` (from table_directory_argument()): ValueError with the
// prober's message when it is not a table directory (no level 0, a gap, a
// bad header).
OpenTables open_tables(const std::filesystem::path& dir) {
  std::string error;
  std::unique_ptr<TableProber> prober = TableProber::open(dir, error);
  if (!prober) throw InputError(error);
  return {dir, std::move(prober)};
}

// A probe's result, or its error as an exception: ValueError for a bad or
// uncovered position, OSError for a corrupt level file (as gzip's
// BadGzipFile), RuntimeError for anything else.
ProbeResult result_of(const ProbeAnswer& a) {
  if (a) return *a.result;
  switch (a.kind) {
    case ProbeError::Table:
      PyErr_SetString(PyExc_OSError, a.error.c_str());
      throw py::error_already_set();
    case ProbeError::Internal:
      throw std::runtime_error(a.error);
    case ProbeError::None:
    case ProbeError::Position:
    case ProbeError::NotCovered:
      break;
  }
  throw InputError(a.error);
}

ProbeResult probe_state(const OpenTables& t, const GameState& s) {
  if (!(s.rules() == t.prober->rules()))
    throw InputError("the state's ruleset " + s.rules().digest() + " is not the tables' " + t.prober->rules().digest());
  const Position p = s.position();
  ProbeAnswer a;
  {
    py::gil_scoped_release release;  // the first probe of a level maps and validates its file
    a = t.prober->probe(p);
  }
  return result_of(a);
}

ProbeResult probe_text(const OpenTables& t, const std::string& position) {
  ProbeAnswer a;
  {
    py::gil_scoped_release release;
    a = t.prober->probe(position);
  }
  return result_of(a);
}

// The largest start position the tables cover: seeds a pit.
int covered_seeds(const TableProber& p) { return p.max_seeds() / (2 * p.pits_per_side()); }

std::string repr(const ProbeResult& r) {
  std::string moves;
  for (std::size_t i = 0; i < r.moves.size(); ++i)
    moves += (i ? ", (" : "(") + std::to_string(r.moves[i].pit) + ", " + std::to_string(r.moves[i].value) + ")";
  return "ProbeResult(value=" + std::to_string(r.value) + ", result='" + outcome_name(r.outcome) + "', best_move=" +
         (r.best_move ? std::to_string(r.best_move) : std::string("None")) + ", moves=[" + moves + "])";
}

}  // namespace

void bind_tables(py::module_& m) {
  py::class_<ProbeResult>(m, "ProbeResult", "What a table probe found: the value, a best move, every move's value.")
      .def_readonly("value", &ProbeResult::value,
                    "Final store difference, player to move minus opponent, stores included, under perfect play.")
      .def_property_readonly("result", [](const ProbeResult& r) { return outcome_name(r.outcome); },
                             "'win', 'draw' or 'loss' for the player to move.")
      .def_property_readonly(
          "best_move", [](const ProbeResult& r) { return r.best_move ? std::optional<int>(r.best_move) : std::nullopt; },
          "The lowest best pit (1-based), None when the game is over.")
      .def_property_readonly(
          "best_action",
          [](const ProbeResult& r) { return r.best_move ? std::optional<int>(r.best_move - 1) : std::nullopt; },
          "best_move - 1, None when the game is over.")
      .def_property_readonly(
          "moves",
          [](const ProbeResult& r) {
            std::vector<std::pair<int, int>> moves;
            for (const ProbedMove& mv : r.moves) moves.emplace_back(mv.pit, mv.value);
            return moves;
          },
          "Every legal move as (pit, value), in pit order; value as for solve() after playing it.")
      .def("__repr__", &repr);

  py::class_<OpenTables>(m, "Tables", R"doc(An endgame table directory built by `mancala build`, opened for probing.

Tables(path): path is a str, bytes or os.PathLike.  The ruleset and board width come
from the files.  FileNotFoundError (NotADirectoryError) when there is no such
directory, ValueError when it is not a usable table directory.  A Tables can
also be passed as solve()'s and analyze()'s tables.
)doc")
      .def(py::init([](const py::object& path) { return open_tables(table_directory_argument(path)); }), py::arg("path"))
      .def("probe", &probe_state, py::arg("state"))
      .def("probe", &probe_text, py::arg("position"),
           R"doc(The value of a State (of the tables' ruleset) or of a position in
the project's notation: a ProbeResult.  ValueError naming the problem for another
ruleset or board width, burnt holes, more seeds on the board than the tables
hold (max_seeds) or a malformed position; OSError for a corrupt level file.
)doc")
      .def_property_readonly("path", [](const OpenTables& t) { return t.dir; })
      .def_property_readonly("ruleset", [](const OpenTables& t) { return t.prober->rules().digest(); })
      .def_property_readonly("pits_per_side", [](const OpenTables& t) { return t.prober->pits_per_side(); })
      .def_property_readonly("max_seeds", [](const OpenTables& t) { return t.prober->max_seeds(); },
                             "The tables hold every board with up to this many seeds (stores excluded).")
      .def(
          "game",
          [](const OpenTables& t, std::optional<int> seeds) {
            return std::make_shared<GameSpec>(t.prober->rules(), t.prober->pits_per_side(),
                                              seeds.value_or(covered_seeds(*t.prober)));
          },
          py::arg("seeds") = py::none(), R"doc(The Game of the tables' ruleset and width; seeds a pit by default the most
whose start position the tables cover (max_seeds // (2 * pits_per_side)).
)doc")
      .def("__repr__", [](const OpenTables& t) {
        return "<mancala.Tables " + t.prober->rules().digest() + " pits=" + std::to_string(t.prober->pits_per_side()) +
               " max_seeds=" + std::to_string(t.prober->max_seeds()) + " '" + t.dir.string() + "'>";
      });
}

}  // namespace mancala::python
