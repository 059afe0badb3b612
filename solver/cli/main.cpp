// `mancala`: the command line of the toolkit.  Every error caused by the user
// (bad position, illegal move, unknown option) is one line on stderr and exit
// status 2.
#include <iostream>
#include <map>
#include <string>

#include "commands.hpp"
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
  };
  return table;
}

void usage(std::ostream& out) {
  out << "Usage: mancala <command> [options]     (mancala <command> --help for its options)\n\nCommands:\n";
  for (const auto& [name, entry] : commands()) out << "  " << name << std::string(10 - name.size(), ' ') << entry.summary << "\n";
}

int fail(const std::string& what) {
  std::cerr << "mancala: error: " << what << "\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
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
    std::cerr << "mancala: internal error: " << e.what() << "\n";
    return 3;
  }
}
