// Probing a table directory from another program: the one thing an engine
// embedding the tables needs, in two calls (Fathom's tb_init / tb_probe_root).
//
//     std::string error;
//     auto tables = mancala::TableProber::open("tables/kalah6", error);
//     if (!tables) { report(error); ... }
//     const mancala::ProbeAnswer a = tables->probe("4,0,5,5,5,5/4,4,4,4,4,4 0-1 n");
//     if (!a) report(a.error); else use(a.result->value, a.result->best_move);
//
// The ruleset and the board width come from the files' headers.  A value is
// the final store difference, player to move minus opponent, under perfect
// play from the position (its stores included), the same number `mancala
// solve` and `mancala probe` print; the caller needs to know neither the
// engine's board layout, nor that the files hold board values without the
// stores, nor how an extra turn changes the sign of a child's value.
//
// Errors are values at this boundary, never exceptions: open() returns null
// and says why, probe() returns an answer whose `error` says why (a
// malformed position, another board width, burnt holes, more seeds than the
// tables hold, a corrupt level file met on first use).  A prober is safe to
// use from several threads at once; level files are mapped on first use.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mancala/position.hpp"
#include "mancala/ruleset.hpp"

namespace mancala {

namespace tables {
class TableDirectory;
}

// Win, draw or loss for the player to move.
enum class Outcome { Loss = -1, Draw = 0, Win = 1 };
Outcome outcome_of(int value);
const char* outcome_name(Outcome o);  // "win", "draw", "loss"

struct ProbedMove {
  int pit;    // 1-based, in the mover's sowing order (the notation's numbering)
  int value;  // the probed position's value if this move is played, then perfect play
};

struct ProbeResult {
  int value = 0;      // final store difference, player to move minus opponent
  Outcome outcome = Outcome::Draw;
  int best_move = 0;  // 1-based pit (the lowest of equal best moves), 0 when the game is over
  std::vector<ProbedMove> moves;  // every legal move, in pit order
};

// Why a probe has no result.
enum class ProbeError {
  None,
  Position,    // malformed notation, or not a position of the tables' ruleset
  NotCovered,  // another board width, burnt holes, or more seeds than the tables hold
  Table,       // a level file found corrupt on first use, or values that disagree
  Internal,    // out of memory, or any other failure
};

// A probe's answer: a result, or why there is none.
struct ProbeAnswer {
  std::optional<ProbeResult> result;
  std::string error;                    // the message, naming the problem
  ProbeError kind = ProbeError::None;   // its kind (None with a result)
  explicit operator bool() const { return result.has_value(); }
};

class TableProber {
 public:
  // Opens a table directory built by `mancala build`; null on error, with
  // `error` naming the problem (no such directory, no level files, a gap, an
  // unreadable or mismatched header).
  static std::unique_ptr<TableProber> open(const std::filesystem::path& dir, std::string& error);
  ~TableProber();
  TableProber(const TableProber&) = delete;
  TableProber& operator=(const TableProber&) = delete;

  const Ruleset& rules() const { return rules_; }
  int pits_per_side() const { return pits_; }
  int max_seeds() const;  // boards with up to this many seeds (stores excluded)

  // The position in the project's notation (mancala/notation.hpp).
  ProbeAnswer probe(std::string_view position) const;
  ProbeAnswer probe(const Position& position) const;

 private:
  TableProber(std::unique_ptr<tables::TableDirectory> dir, const Ruleset& rules, int pits);
  std::unique_ptr<tables::TableDirectory> dir_;
  Ruleset rules_;
  int pits_;
};

}  // namespace mancala
