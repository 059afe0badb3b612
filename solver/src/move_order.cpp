#include "mancala/solver/move_order.hpp"

#include <array>
#include <charconv>
#include <string>
#include <string_view>
#include <system_error>

#include "mancala/error.hpp"
#include "mancala/rules.hpp"
#include "move_sorter.hpp"

namespace mancala::solver {

namespace {

// The text form's fields, in its order.
constexpr std::array<const char*, 4> kKinds = {"level_fail_low", "level_cut", "behind_fail_low", "behind_cut"};
constexpr std::array<const char*, 4> kWeights = {"extra_turn", "per_reply", "per_seed_of_material", "per_pit"};

std::array<const NodeWeights*, 4> kinds_of(const OrderWeights& w) {
  return {&w.level_fail_low, &w.level_cut, &w.behind_fail_low, &w.behind_cut};
}

// The form format_move_order writes: "0", or digits without a leading zero
// after an optional '-', so that a text the parser takes prints back the
// same (as the position notation).
bool canonical_integer(const std::string& f) {
  const std::size_t digits = f.size() - (!f.empty() && f[0] == '-' ? 1 : 0);
  if (digits == 0 || digits > 10) return false;
  const std::string_view d(f.data() + (f.size() - digits), digits);
  for (const char c : d)
    if (c < '0' || c > '9') return false;
  return !(d[0] == '0' && (digits > 1 || f[0] == '-'));
}

std::array<int, 4> fields_of(const NodeWeights& n) { return {n.extra_turn, n.per_reply, n.per_seed_of_material, n.per_pit}; }

// Within the bounds, a child's score (MoveSorter::order) stays below every
// child of known value and inside the sort key's 29 bits: the largest
// score of a child of unknown value, and the smallest.
constexpr int kMostScore = kMaxExtraTurnWeight + kMaxSeeds * detail::MoveSorter::kPerSeedOfGain +
                           kMaxOrderWeight * (kMaxPitsPerSide + 2 * kMaxPitsPerSide + kMaxSeeds);
static_assert(kMostScore < detail::MoveSorter::kExact - kMaxSeeds * detail::MoveSorter::kPerSeedOfGain);
static_assert(kMostScore < (1 << 28));

}  // namespace

const OrderWeights& tuned_move_order(const Ruleset& rules) {
  return dispatch(rules, [](auto r) -> const OrderWeights& { return detail::order_weights<decltype(r)>(); });
}

std::string format_move_order(const OrderWeights& w) {
  std::string s;
  for (const NodeWeights* kind : kinds_of(w))
    for (const int v : fields_of(*kind)) {
      if (!s.empty()) s += ',';
      s += std::to_string(v);
    }
  return s;
}

OrderWeights parse_move_order(const std::string& text) {
  std::array<int, 16> v{};
  std::size_t count = 0, at = 0;
  while (true) {
    const std::size_t comma = text.find(',', at);
    const std::string field = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    if (count == v.size()) throw InputError("move order '" + text + "': more than 16 weights");
    int x = 0;
    const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), x);
    if (!canonical_integer(field) || ec != std::errc() || end != field.data() + field.size())
      throw InputError("move order '" + text + "': weight " + std::to_string(count + 1) + " ('" + field +
                       "') is not an integer in its plain form (digits, a leading '-', no leading zero)");
    v[count++] = x;
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  if (count != v.size())
    throw InputError("move order '" + text + "': " + std::to_string(count) + " weights, expected 16 (" +
                     "extra_turn, per_reply, per_seed_of_material, per_pit for each of level_fail_low, level_cut, "
                     "behind_fail_low, behind_cut)");
  auto node = [&](int k) { return NodeWeights{v[4 * k], v[4 * k + 1], v[4 * k + 2], v[4 * k + 3]}; };
  const OrderWeights w{node(0), node(1), node(2), node(3)};
  check_move_order(w);
  return w;
}

void check_move_order(const OrderWeights& w) {
  const auto kinds = kinds_of(w);
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    const auto fields = fields_of(*kinds[k]);
    for (std::size_t f = 0; f < fields.size(); ++f) {
      const bool extra = f == 0;
      const int low = extra ? 0 : -kMaxOrderWeight, high = extra ? kMaxExtraTurnWeight : kMaxOrderWeight;
      if (fields[f] < low || fields[f] > high)
        throw InputError(std::string("move order: ") + kKinds[k] + "." + kWeights[f] + " = " + std::to_string(fields[f]) +
                         " is outside [" + std::to_string(low) + ", " + std::to_string(high) + "]");
    }
  }
}

}  // namespace mancala::solver
