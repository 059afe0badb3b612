// `mancala`: the command line of the toolkit.  Every error caused by the user
// (bad position, illegal move, unknown option) is one line on stderr and exit
// status 2; SIGINT and SIGTERM end it with one line and status 128 + signal
// (interrupt.hpp).
#include <iostream>
#include <map>
#include <string>

#include "commands.hpp"
#include "interrupt.hpp"
#include "mancala/error.hpp"

namespace {

using Command = int (*)(const mancala::cli::Args&);

struct Entry {
  Command run;
  const char* summary;
};

const std::map<std::string, Entry>& commands() {
  using namespace mancala::cli;
  static const std::map<std::string, Entry> table{
      {"show", {cmd_show, "draw the board of a position"}},
      {"moves", {cmd_moves, "list the legal moves and the positions they lead to"}},
      {"apply", {cmd_apply, "play a list of moves and print the resulting position"}},
      {"perft", {cmd_perft, "count move sequences to a depth (regression counts)"}},
      {"solve", {cmd_solve, "exact value, best move and principal variation of a position"}},
      {"analyze", {cmd_analyze, "exact value of every legal move"}},
      {"bench", {cmd_bench, "solve a fixed position set; print a node-count signature"}},
      {"build", {cmd_build, "build endgame tables (levels 0..K) into a directory"}},
      {"probe", {cmd_probe, "value and best move of a position from endgame tables"}},
      {"verify", {cmd_verify, "check every table file and re-derive every value"}},
      {"info", {cmd_info, "per-level statistics of a table directory"}},
      {"opening", {cmd_opening, "congkak: the simultaneous opening solved as a game (mixed strategies)"}},
      {"match", {cmd_match, "congkak: a multi-round match solved for its outcome"}},
      {"batch", {cmd_batch, "run the commands of a manifest (Slurm array aware), one JSON line each"}},
  };
  return table;
}

void usage(std::ostream& out) {
  out << "Usage: mancala <command> [options]     (mancala <command> --help for its options)\n\nCommands:\n";
  for (const auto& [name, entry] : commands()) out << "  " << name << std::string(10 - name.size(), ' ') << entry.summary << "\n";
}

// User text is echoed in messages; control characters are escaped so that an
// error stays one line.
std::string one_line(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20 || c == 0x7f) out += "?";
    else out += char(c);
  }
  return out;
}

int fail(const std::string& what) {
  std::cerr << "mancala: error: " << one_line(what) << "\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  mancala::cli::install_interrupt_handlers();
  if (argc < 2) {
    usage(std::cerr);
    return 2;
  }
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    usage(std::cout);
    return 0;
  }
  const auto it = commands().find(name);
  if (it == commands().end()) return fail("unknown command '" + name + "' (see mancala --help)");
  try {
    return it->second.run(mancala::cli::Args(argv + 2, argv + argc));
  } catch (const mancala::InputError& e) {
    return fail(e.what());
  } catch (const boost::program_options::error& e) {
    return fail(e.what());
  } catch (const std::exception& e) {
    std::cerr << "mancala: internal error: " << one_line(e.what()) << "\n";
    return 3;
  }
}
