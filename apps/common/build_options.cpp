#include "build_options.hpp"

#include "mancala/error.hpp"

namespace mancala::cli {

void add_build_options(po::options_description& desc) {
  add_game_options(desc);
  desc.add_options()
      ("max-seeds", po::value<int>()->required(), "build levels 0..K (boards with up to K seeds)")
      ("out", po::value<std::string>()->required(), "table directory (created; complete levels are reused)")
      ("threads", po::value<int>()->default_value(0), "TBB threads (0: all cores); files do not depend on it")
      ("quiet", po::bool_switch(), "no progress line on stderr");
}

BuildOptions read_build_options(const po::variables_map& vm) {
  if (vm.count("position")) throw InputError("build takes --pits, not --position");
  if (!vm.count("pits")) throw InputError("build needs --pits");
  BuildOptions o;
  o.game = game_setup(vm);
  o.threads = vm["threads"].as<int>();
  if (o.threads < 0 || o.threads > 1024) throw InputError("--threads must be between 0 and 1024");
  o.max_seeds = vm["max-seeds"].as<int>();
  o.out = vm["out"].as<std::string>();
  if (o.out.empty()) throw InputError("--out must name the table directory, it is empty");
  o.quiet = vm["quiet"].as<bool>();
  o.json = vm["json"].as<bool>();
  return o;
}

}  // namespace mancala::cli
