#include "cli_common.hpp"

#include <sched.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <iostream>
#include <string_view>
#include <typeinfo>

#include "mancala/engine.hpp"
#include "mancala/error.hpp"
#include "mancala/notation.hpp"
#include "mancala/version.hpp"

namespace mancala::cli {


void add_game_options(po::options_description& desc, const std::string& default_game, bool with_moves,
                      po::options_description* unlisted, ListedBoardOptions listed) {
  desc.add_options()
      ("game", po::value<std::string>()->default_value(default_game), "ruleset: kalah, brainking, oware, congkak")
      ("empty-capture", po::bool_switch(), "kalah: a last seed in an own empty house captures even when the opposite house is empty")
      ("grand-slam", po::value<std::string>(), "oware: no-capture (default), forbidden or capture-all")
      ("capture", po::value<std::string>(), "congkak: always (default) or needs-opposite");
  (listed.position ? desc : *unlisted).add_options()(
      "position", po::value<std::string>(), "position '<south row>/<north row> <south store>-<north store> <s|n>'");
  desc.add_options()("pits", po::value<int>(), "pits a side of the start position (default: the game's)");
  (listed.seeds ? desc : *unlisted).add_options()(
      "seeds", po::value<int>(), "seeds a pit of the start position (default: the game's)");
  if (with_moves)
    desc.add_options()("moves", po::value<std::string>(),
                       "comma-separated pits (1-based, the mover's) played from that position first, e.g. 3,1,6");
}

Ruleset ruleset_setup(const po::variables_map& vm) {
  Ruleset rules;
  rules.game = parse_game(vm["game"].as<std::string>());
  const std::string game = game_name(rules.game);
  if (vm["empty-capture"].as<bool>()) {
    if (rules.game != Game::Kalah) throw InputError("--empty-capture applies only to kalah, not " + game);
    rules.empty_capture = true;
  }
  if (vm.count("grand-slam")) {
    if (rules.game != Game::Oware) throw InputError("--grand-slam applies only to oware, not " + game);
    rules.grand_slam = parse_grand_slam(vm["grand-slam"].as<std::string>());
  }
  if (vm.count("capture")) {
    if (rules.game != Game::Congkak) throw InputError("--capture applies only to congkak, not " + game);
    rules.congkak_capture = parse_congkak_capture(vm["capture"].as<std::string>());
  }
  return rules;
}

bool ruleset_given(const po::variables_map& vm) {
  return !vm["game"].defaulted() || vm["empty-capture"].as<bool>() || vm.count("grand-slam") || vm.count("capture");
}

GameSetup game_setup_for(const po::variables_map& vm, const Ruleset& rules) {
  GameSetup g;
  g.rules = rules;
  if (vm.count("position")) {
    if (vm.count("pits") || vm.count("seeds")) throw InputError("--position cannot be combined with --pits or --seeds");
    g.start = parse_position(vm["position"].as<std::string>());
  } else {
    const int pits = vm.count("pits") ? int(int_option(vm, "pits", 1, kMaxPitsPerSide)) : g.rules.default_pits();
    const int seeds = vm.count("seeds") ? int(int_option(vm, "seeds", 0, kMaxSeeds)) : g.rules.default_seeds();
    g.start = start_position(pits, seeds);
  }
  validate_for(g.rules, g.start);
  g.position = g.start;
  if (vm.count("moves")) {
    g.moves = parse_move_list(vm["moves"].as<std::string>());
    for (std::size_t i = 0; i < g.moves.size(); ++i) {
      try {
        apply_move(g.rules, g.position, g.moves[i]);
      } catch (const InputError& e) {
        throw InputError("at move " + std::to_string(i + 1) + " of --moves: " + e.what());
      }
    }
  }
  return g;
}

GameSetup game_setup(const po::variables_map& vm) { return game_setup_for(vm, ruleset_setup(vm)); }

namespace {

// Whether an option takes a whole number.
bool takes_integer(const po::option_description& option) {
  const auto* typed = dynamic_cast<const po::typed_value_base*>(option.semantic().get());
  if (!typed) return false;
  const std::type_info& t = typed->value_type();
  return t == typeid(int) || t == typeid(long) || t == typeid(long long) || t == typeid(unsigned) ||
         t == typeid(unsigned long) || t == typeid(unsigned long long);
}

// Whole numbers are taken in plain form only, as in the position notation
// and --move-order: digits, with a '-' before a negative one, no '+' and
// no leading zero, so that '04' or '+3' is refused rather than read as 4
// or 3, and a value given prints back as it was written.  Text that is no
// number at all is left to Boost's own message.
void refuse_unplain_integers(const po::parsed_options& parsed, const po::options_description& all) {
  for (const po::option& o : parsed.options) {
    const po::option_description* option = o.unregistered ? nullptr : all.find_nothrow(o.string_key, false);
    if (!option || !takes_integer(*option)) continue;
    for (const std::string& v : o.value) {
      const std::size_t sign = v.find_first_not_of("+-") == 1 ? 1 : 0;  // one sign at most
      const std::string_view body = std::string_view(v).substr(sign);
      if (body.empty() || body.find_first_not_of("0123456789") != std::string_view::npos) continue;
      if (v[0] == '+' || (body[0] == '0' && (body.size() > 1 || sign == 1)))
        throw InputError("the argument ('" + v + "') for option '--" + o.string_key +
                         "' is invalid: numbers are written without '+' and without leading zeros");
    }
  }
}

}  // namespace

bool parse_args(const std::string& command, const std::string& synopsis, po::options_description& desc,
                const Args& args, po::variables_map& vm, const po::positional_options_description* positional,
                const po::options_description* hidden) {
  desc.add_options()("json", po::bool_switch(), "print one JSON object on stdout")("help,h", "print this help");
  po::options_description all;
  all.add(desc);
  if (hidden) all.add(*hidden);
  po::command_line_parser parser(args);
  // Boost's default style, less allow_guessing: a prefix of an option name
  // (--pit, --js) is refused as unknown rather than taken for the option.
  parser.style(po::command_line_style::default_style & ~po::command_line_style::allow_guessing);
  parser.options(all);
  if (positional)
    parser.positional(*positional);
  else
    parser.positional(po::positional_options_description{});
  const po::parsed_options parsed = parser.run();
  refuse_unplain_integers(parsed, all);
  po::store(parsed, vm);
  if (vm.count("help")) {
    std::cout << "Usage: " << command << " " << synopsis << "\n\n" << desc << "\n";
    return false;
  }
  // A missing positional argument is named as the synopsis names it (DIR),
  // not as Boost's "the option '--dir' is required".
  for (unsigned i = 0; positional && i < positional->max_total_count() && i < 16; ++i) {
    const std::string& name = positional->name_for_position(i);
    const po::option_description* option = all.find_nothrow(name, false);
    if (!vm.count(name) && option && option->semantic()->is_required()) {
      std::string shown = name;
      std::transform(shown.begin(), shown.end(), shown.begin(), [](unsigned char c) { return char(std::toupper(c)); });
      throw InputError("missing " + shown + " (" + option->description() + ")");
    }
  }
  po::notify(vm);
  return true;
}

long long int_option(const po::variables_map& vm, const std::string& name, long long lo, long long hi) {
  const po::variable_value& v = vm[name];
  const long long value = v.value().type() == typeid(int) ? v.as<int>() : v.as<long long>();
  if (value < lo || value > hi)
    throw InputError("--" + name + " must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " +
                     std::to_string(value));
  return value;
}

void add_threads_option(po::options_description& desc, const std::string& what) {
  desc.add_options()("threads", po::value<int>()->default_value(0),
                     (what + " (0: every available core, SLURM_CPUS_PER_TASK in a Slurm task); values never depend on it").c_str());
}

int available_cpus() {
  // A Slurm task's allocation: the affinity mask may show the whole node
  // when the cgroup plugin is not in use.
  if (const char* slurm = std::getenv("SLURM_CPUS_PER_TASK")) {
    char* end = nullptr;
    errno = 0;
    const long n = std::strtol(slurm, &end, 10);
    if (errno == 0 && end != slurm && *end == '\0' && n >= 1 && n <= 1024) return int(n);
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  return int(std::max(1u, std::thread::hardware_concurrency()));
}

ThreadAllowance::ThreadAllowance(int threads) {
  if (std::size_t(threads) > tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism))
    control_ = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
}
ThreadAllowance::~ThreadAllowance() = default;

int threads_option(const po::variables_map& vm) {
  const int n = int(int_option(vm, "threads", 0, 1024));
  return n == 0 ? available_cpus() : n;
}

double seconds_option(const po::variables_map& vm, const std::string& name, double hi) {
  const double v = vm[name].as<double>();
  if (!(v > 0 && v <= hi)) {
    char shown[32];  // %g: an absurd number in a few characters, not 300 digits
    std::snprintf(shown, sizeof shown, "%g", v);
    throw InputError("--" + name + " must be a number of seconds above 0 and at most " + std::to_string(long(hi)) +
                     ", got " + shown);
  }
  return v;
}

std::vector<int> pit_numbers(MoveMask mask) {
  std::vector<int> pits;
  for (; mask; mask &= mask - 1) pits.push_back(std::countr_zero(mask) + 1);
  return pits;
}

nlohmann::json position_json(const Ruleset& rules, const Position& p) {
  auto row = [&](Side s) {
    nlohmann::json pits = nlohmann::json::array();
    for (int pit = 1; pit <= p.m(); ++pit)
      pits.push_back(p.burnt_at(s, pit) ? nlohmann::json("x") : nlohmann::json(p.seeds_at(s, pit)));
    return nlohmann::json{{"pits", pits}, {"store", p.store_of(s)}};
  };
  nlohmann::json j{{"position", format_position(p)},
                   {"game", game_name(rules.game)},
                   {"ruleset", rules.digest()},
                   {"pits_per_side", p.m()},
                   {"to_move", p.to_move == Side::South ? "s" : "n"},
                   {"south", row(Side::South)},
                   {"north", row(Side::North)},
                   {"terminal", is_terminal(rules, p)},
                   {"legal_moves", pit_numbers(legal_moves(rules, p))}};
  if (rules.game == Game::Oware) {
    // "more than half the seeds": reported, not enforced (values are for the game played out)
    const auto side_name = [](Side s) { return s == Side::South ? "south" : "north"; };
    switch (decided(p)) {
      case Decided::No: j["decided"] = nullptr; break;
      case Decided::MoverWins: j["decided"] = side_name(p.to_move); break;
      case Decided::OpponentWins: j["decided"] = side_name(other(p.to_move)); break;
      case Decided::Draw: j["decided"] = "draw"; break;
    }
  }
  return j;
}

std::string fixed(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

std::string human(double x) {
  const char* units[] = {"", "k", "M", "G", "T", "P"};
  int u = 0;
  while (x >= 999.95 && u < 5) {
    x /= 1000;
    ++u;
  }
  return fixed(x, u ? 1 : 0) + units[u];
}

std::string seconds_text(double s) { return fixed(s, 3) + " s"; }

void with_version(nlohmann::json& j) {
  j["version"] = version();
  j["commit"] = source_commit();
  j["schema_version"] = kJsonSchemaVersion;
}

std::string stdout_write_error() {
  errno = 0;
  std::cout.flush();
  if (std::cout) return "";
  const int err = errno;
  return std::string("cannot write the output on stdout: ") + (err ? std::strerror(err) : "write failed");
}

void print_json(nlohmann::json j) {
  with_version(j);
  std::cout << j.dump() << "\n";
}

}  // namespace mancala::cli
