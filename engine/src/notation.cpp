#include "mancala/notation.hpp"

#include <cstdio>
#include <string_view>
#include <vector>

#include "mancala/error.hpp"

namespace mancala {

namespace {

constexpr int kBurnt = -1;

[[noreturn]] void bad(const std::string& text, const std::string& why) {
  throw InputError("malformed position '" + text + "': " + why);
}

// A count: digits without a sign or leading zero, at most kMaxSeeds.
int parse_count(std::string_view tok, const std::string& text, const char* what) {
  if (tok.empty()) bad(text, std::string("empty ") + what);
  for (char c : tok)
    if (c < '0' || c > '9') bad(text, std::string(what) + " '" + std::string(tok) + "' is not a number");
  if (tok.size() > 1 && tok[0] == '0') bad(text, std::string(what) + " '" + std::string(tok) + "' has a leading zero");
  if (tok.size() > 3) bad(text, std::string(what) + " " + std::string(tok) + " exceeds the engine's counter limit of " + std::to_string(kMaxSeeds));
  int v = 0;
  for (char c : tok) v = v * 10 + (c - '0');
  if (v > kMaxSeeds) bad(text, std::string(what) + " " + std::to_string(v) + " exceeds the engine's counter limit of " + std::to_string(kMaxSeeds));
  return v;
}

std::vector<int> parse_row(std::string_view row, const std::string& text, const char* side) {
  std::vector<int> pits;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = row.find(',', start);
    const std::string_view tok = row.substr(start, comma == std::string_view::npos ? row.npos : comma - start);
    if (tok == "x")
      pits.push_back(kBurnt);
    else
      pits.push_back(parse_count(tok, text, (std::string(side) + " pit").c_str()));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return pits;
}

}  // namespace

Position parse_position(const std::string& text) {
  // Split into exactly three fields on single spaces.
  const auto sp1 = text.find(' ');
  if (sp1 == std::string::npos) bad(text, "expected '<south row>/<north row> <south store>-<north store> <s|n>'");
  const auto sp2 = text.find(' ', sp1 + 1);
  if (sp2 == std::string::npos) bad(text, "missing the side to move");
  if (text.find(' ', sp2 + 1) != std::string::npos) bad(text, "too many fields");
  const std::string_view all(text);
  const std::string_view rows = all.substr(0, sp1);
  const std::string_view stores = all.substr(sp1 + 1, sp2 - sp1 - 1);
  const std::string_view side = all.substr(sp2 + 1);

  const auto slash = rows.find('/');
  if (slash == std::string_view::npos || rows.find('/', slash + 1) != std::string_view::npos)
    bad(text, "rows must be '<south row>/<north row>'");
  const std::vector<int> south = parse_row(rows.substr(0, slash), text, "south");
  const std::vector<int> north = parse_row(rows.substr(slash + 1), text, "north");
  if (south.size() != north.size())
    bad(text, "rows have different lengths (" + std::to_string(south.size()) + " south, " + std::to_string(north.size()) + " north)");
  if (south.size() > std::size_t(kMaxPitsPerSide))
    bad(text, std::to_string(south.size()) + " pits a side exceeds the engine's limit of " + std::to_string(kMaxPitsPerSide));

  const auto dash = stores.find('-');
  if (dash == std::string_view::npos || stores.find('-', dash + 1) != std::string_view::npos || dash == 0)
    bad(text, "stores must be '<south store>-<north store>', counts that are not negative, got '" + std::string(stores) + "'");
  const int south_store = parse_count(stores.substr(0, dash), text, "south store");
  const int north_store = parse_count(stores.substr(dash + 1), text, "north store");

  Side to_move;
  if (side == "s")
    to_move = Side::South;
  else if (side == "n")
    to_move = Side::North;
  else
    bad(text, "side to move must be 's' or 'n', got '" + std::string(side) + "'");

  const int m = int(south.size());
  long total = south_store + north_store;
  for (int i = 0; i < m; ++i) total += std::max(south[i], 0) + std::max(north[i], 0);
  if (total > kMaxSeeds)
    bad(text, "it holds " + std::to_string(total) + " seeds, more than the engine's limit of " + std::to_string(kMaxSeeds));

  Position p;
  p.pits_per_side = std::uint8_t(m);
  p.to_move = to_move;
  const std::vector<int>& mover = to_move == Side::South ? south : north;
  const std::vector<int>& opponent = to_move == Side::South ? north : south;
  for (int i = 0; i < m; ++i) {
    p.pits[i] = std::uint8_t(std::max(mover[i], 0));
    p.pits[m + i] = std::uint8_t(std::max(opponent[i], 0));
    if (mover[i] == kBurnt) p.burnt |= 1u << i;
    if (opponent[i] == kBurnt) p.burnt |= 1u << (m + i);
  }
  p.store[0] = std::uint8_t(to_move == Side::South ? south_store : north_store);
  p.store[1] = std::uint8_t(to_move == Side::South ? north_store : south_store);
  return p;
}

std::string format_position(const Position& p) {
  auto row = [&](Side s) {
    std::string out;
    for (int pit = 1; pit <= p.m(); ++pit) {
      if (pit > 1) out += ',';
      out += p.burnt_at(s, pit) ? std::string("x") : std::to_string(p.seeds_at(s, pit));
    }
    return out;
  };
  return row(Side::South) + "/" + row(Side::North) + " " + std::to_string(p.store_of(Side::South)) + "-" +
         std::to_string(p.store_of(Side::North)) + " " + (p.to_move == Side::South ? "s" : "n");
}

void validate_for(const Ruleset& rules, const Position& p) {
  if (p.burnt && rules.game != Game::Congkak)
    throw InputError("burnt holes ('x') exist only in congkak, not in " + game_name(rules.game));
}

std::string diagram(const Position& p) {
  const int m = p.m();
  auto cell = [&](Side s, int pit) {
    char buf[8];
    if (p.burnt_at(s, pit))
      std::snprintf(buf, sizeof buf, "%4s", "x");
    else
      std::snprintf(buf, sizeof buf, "%4d", p.seeds_at(s, pit));
    return std::string(buf);
  };
  auto label = [](int v) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "%4d", v);
    return std::string(buf);
  };
  const std::string pad(9, ' ');
  std::string rule = pad + "+";
  for (int i = 0; i < m; ++i) rule += "----";
  rule += "-+\n";

  std::string out;
  out += pad + " ";
  for (int pit = m; pit >= 1; --pit) out += label(pit);
  out += "   north pits\n" + rule;
  out += "  North  |";
  for (int pit = m; pit >= 1; --pit) out += cell(Side::North, pit);
  out += " |\n";
  char stores[96];
  std::snprintf(stores, sizeof stores, "%7d  |%*s |  %d\n", p.store_of(Side::North), 4 * m, "", p.store_of(Side::South));
  out += stores;
  out += "  South  |";
  for (int pit = 1; pit <= m; ++pit) out += cell(Side::South, pit);
  out += " |\n" + rule + pad + " ";
  for (int pit = 1; pit <= m; ++pit) out += label(pit);
  out += "   south pits\n";
  out += std::string(p.to_move == Side::South ? "South" : "North") + " to move\n";
  return out;
}

}  // namespace mancala
