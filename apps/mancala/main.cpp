// `mancala`: the command line of the toolkit.  Exit statuses (the one list,
// also printed by `mancala --help` and in README "Exit status"):
//   0    success
//   1    a verdict against the input: `verify` found the tables bad, `batch`
//        had a line fail
//   2    bad input: a malformed position, an illegal move, an unknown option,
//        a bad table file (one line on stderr naming the problem); also an
//        output that could not be written (see delivered())
//   3    an internal error (a bug: please report it)
//   4    a solve stopped early (--time-limit, SIGINT or SIGTERM) and printed
//        what it had proven
//   75   a build stopped by one of its hidden --test-stop options
//   128+signal  another command ended by SIGINT (130) or SIGTERM (143)
// (interrupt.hpp).
#include <iostream>
#include <map>
#include <string>

#include "commands.hpp"
#include "interrupt.hpp"
#include "mancala/error.hpp"
#include "mancala/version.hpp"

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
      {"convert", {cmd_convert, "rewrite a table directory's files in another format (compress, decompress, v1 to v2)"}},
      {"opening", {cmd_opening, "congkak: the simultaneous opening solved as a game (mixed strategies)"}},
      {"match", {cmd_match, "congkak: a multi-round match solved for its outcome"}},
      {"batch", {cmd_batch, "run the commands of a manifest (Slurm array aware), one JSON line each"}},
      {"play", {cmd_play, "play the perfect engine in the terminal (hint, undo, quit)"}},
  };
  return table;
}

void usage(std::ostream& out) {
  out << "Usage: mancala <command> [options]     (mancala help <command> or mancala <command> --help: its options)\n"
         "       mancala --version\n\nCommands:\n";
  for (const auto& [name, entry] : commands()) out << "  " << name << std::string(10 - name.size(), ' ') << entry.summary << "\n";
  out << "\nExit status:\n"
         "  0    success\n"
         "  1    a verdict against the input (verify found the tables bad; a batch line failed)\n"
         "  2    bad input: one line on stderr names the problem (also an output that could not be written)\n"
         "  3    internal error\n"
         "  4    a solve stopped early (--time-limit, SIGINT, SIGTERM) and printed its bounds\n"
         "  75   a build stopped by one of its hidden --test-stop options (tests only)\n"
         "  130  interrupted by SIGINT, 143 by SIGTERM (other commands)\n"
         "\nReport bugs at the project's issue tracker; the version and commit are in mancala --version.\n";
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

// A command's status once its output is out (cli::stdout_write_error).
int delivered(int status) {
  const std::string error = mancala::cli::stdout_write_error();
  return error.empty() ? status : fail(error);
}

}  // namespace

int main(int argc, char** argv) {
  mancala::cli::install_interrupt_handlers();
  if (argc < 2) {
    usage(std::cerr);
    return 2;
  }
  std::string name = argv[1];
  if (name == "--version" || name == "-V") {
    if (argc > 2) return fail(name + " takes no arguments, got '" + argv[2] + "'");
    std::cout << "mancala " << mancala::version() << " (commit " << mancala::source_commit() << ")\n";
    return delivered(0);
  }
  mancala::cli::Args rest(argv + 2, argv + argc);
  if (name == "help" && argc == 3) {  // mancala help CMD = mancala CMD --help
    name = argv[2];
    rest = {"--help"};
  } else if (name == "--help" || name == "-h" || name == "help") {
    if (argc > 2 && name == "help") return fail("help takes one command name (mancala help solve)");
    usage(std::cout);
    return delivered(0);
  }
  const auto it = commands().find(name);
  if (it == commands().end()) return fail("unknown command '" + name + "' (see mancala --help)");
  try {
    return delivered(it->second.run(rest));
  } catch (const mancala::InputError& e) {
    return fail(e.what());
  } catch (const boost::program_options::error& e) {
    return fail(e.what());
  } catch (const std::exception& e) {
    std::cerr << "mancala: internal error: " << one_line(e.what()) << "\n";
    return 3;
  }
}
