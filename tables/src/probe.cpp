#include "mancala/probe.hpp"

#include <exception>
#include <new>

#include "mancala/engine.hpp"
#include "mancala/notation.hpp"
#include "mancala/tables/table_directory.hpp"
#include "mancala/tables/table_file.hpp"
#include "mancala/valuation.hpp"

namespace mancala {

Outcome outcome_of(int value) { return value > 0 ? Outcome::Win : value < 0 ? Outcome::Loss : Outcome::Draw; }

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::Win: return "win";
    case Outcome::Loss: return "loss";
    case Outcome::Draw: break;
  }
  return "draw";
}

TableProber::TableProber(std::unique_ptr<tables::TableDirectory> dir, const Ruleset& rules, int pits)
    : dir_(std::move(dir)), rules_(rules), pits_(pits) {}
TableProber::~TableProber() = default;

std::unique_ptr<TableProber> TableProber::open(const std::filesystem::path& dir, std::string& error) {
  try {
    auto tables = std::make_unique<tables::TableDirectory>(dir);
    const Ruleset rules = tables->rules();
    const int pits = tables->pits_per_side();
    return std::unique_ptr<TableProber>(new TableProber(std::move(tables), rules, pits));
  } catch (const std::exception& e) {
    error = e.what();
  }
  return nullptr;
}

int TableProber::max_seeds() const { return dir_->max_seeds(); }

namespace {
ProbeAnswer refused(ProbeError kind, std::string message) { return {std::nullopt, std::move(message), kind}; }
}  // namespace

ProbeAnswer TableProber::probe(std::string_view position) const {
  Position p;
  try {
    p = parse_position(std::string(position));
  } catch (const std::bad_alloc&) {
    return refused(ProbeError::Internal, "out of memory");
  } catch (const std::exception& e) {
    return refused(ProbeError::Position, e.what());
  }
  return probe(p);
}

ProbeAnswer TableProber::probe(const Position& p) const {
  try {
    validate_for(rules_, p);
  } catch (const std::bad_alloc&) {
    return refused(ProbeError::Internal, "out of memory");
  } catch (const std::exception& e) {
    return refused(ProbeError::Position, e.what());
  }
  if (p.m() != pits_)
    return refused(ProbeError::NotCovered, "the position has " + std::to_string(p.m()) + " pits a side; the tables are for " +
                                               std::to_string(pits_));
  // The tables hold boards without burnt holes (a Congkak round's start):
  // the rank of a board with some would name another board's value.
  if (p.burnt)
    return refused(ProbeError::NotCovered, "the tables cover only positions without burnt holes, and this one has some ('x')");
  if (p.board_seeds() > dir_->max_seeds())
    return refused(ProbeError::NotCovered, "the position has " + std::to_string(p.board_seeds()) +
                                               " seeds on the board; the tables reach " + std::to_string(dir_->max_seeds()));
  try {
    ProbeResult r;
    const int before = p.store_difference();
    if (is_terminal(rules_, p)) {
      r.value = terminal_value(p);
    } else {
      const int board_value = dir_->value(p.pits.data(), p.board_seeds());
      r.value = before + board_value;
      // The best move: one ply over the table values (seeds never increase).
      for (MoveMask rest = legal_moves(rules_, p); rest; rest &= rest - 1) {
        const int pit = std::countr_zero(rest) + 1;
        Position child = p;
        const MoveResult played = apply_move(rules_, child, pit);
        const int child_value = played.game_over ? 0 : dir_->value(child.pits.data(), child.board_seeds());
        const int value = before + move_value(played.extra_turn, move_gain(child, played.extra_turn, before), child_value);
        r.moves.push_back({pit, value});
        if (!r.best_move && value == r.value) r.best_move = pit;
      }
      // The tables' value is the best move's: a file whose values are not
      // (a forged payload with a recomputed hash) is not answered from.
      if (!r.best_move) return refused(ProbeError::Table, "the tables disagree with themselves at this position: run mancala verify");
    }
    r.outcome = outcome_of(r.value);
    return {std::move(r), "", ProbeError::None};
  } catch (const std::bad_alloc&) {
    return refused(ProbeError::Internal, "out of memory");
  } catch (const std::exception& e) {  // a level file refused when first mapped
    return refused(ProbeError::Table, e.what());
  }
}

}  // namespace mancala
