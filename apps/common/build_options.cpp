#include "build_options.hpp"

#include <unistd.h>

#include "mancala/error.hpp"
#include "progress.hpp"

namespace mancala::cli {

void add_build_options(po::options_description& desc) {
  add_game_options(desc);
  desc.add_options()
      ("max-seeds", po::value<int>()->required(), "build levels 0..K (boards with up to K seeds)")
      ("out", po::value<std::string>()->required(), "table directory (created; complete levels are reused)")
      ("quiet", po::bool_switch(), "no progress line on stderr");
  add_threads_option(desc, "TBB threads (per process); the files do not depend on it either");
}

void add_build_test_options(po::options_description& hidden) {
  hidden.add_options()
      ("test-stop-after-level", po::value<int>(), "test only: exit 75 once this run has written level K")
      ("test-stop-mid-level", po::value<int>(), "test only: exit 75 with half of level K's .tmp written");
}

BuildOptions read_build_options(const po::variables_map& vm) {
  if (vm.count("position")) throw InputError("build takes --pits, not --position");
  if (!vm.count("pits")) throw InputError("build needs --pits");
  BuildOptions o;
  o.game = game_setup(vm);
  o.threads = threads_option(vm);
  o.max_seeds = vm["max-seeds"].as<int>();
  o.out = vm["out"].as<std::string>();
  if (o.out.empty()) throw InputError("--out must name the table directory, it is empty");
  o.quiet = vm["quiet"].as<bool>();
  o.json = vm["json"].as<bool>();
  if (vm.count("test-stop-after-level")) o.test_stop_after_level = int(int_option(vm, "test-stop-after-level", 0, o.max_seeds));
  if (vm.count("test-stop-mid-level")) o.test_stop_mid_level = int(int_option(vm, "test-stop-mid-level", 0, o.max_seeds));
  return o;
}

namespace {

[[noreturn]] void test_stop(const std::string& line) {
  // A drawn progress line is ended first, as the SIGINT handler does.
  const std::string text = (ProgressLine::drawn() ? "\n" : "") + line + "\n";
  [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, text.data(), text.size());
  ::_exit(kTestStopStatus);
}

}  // namespace

tables::BuildTestHooks test_stop_hooks(const BuildOptions& opt, const std::string& who) {
  tables::BuildTestHooks hooks;
  if (const int after = opt.test_stop_after_level; after >= 0)
    hooks.level_written = [after, who](int k) {
      if (k == after) test_stop(who + ": test stop after level " + std::to_string(k) + " (--test-stop-after-level)");
    };
  if (const int mid = opt.test_stop_mid_level; mid >= 0)
    hooks.level_half_written = [mid, who](int k) {
      if (k == mid) test_stop(who + ": test stop half-way through writing level " + std::to_string(k) + " (--test-stop-mid-level)");
    };
  return hooks;
}

}  // namespace mancala::cli
