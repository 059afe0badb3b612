// The brute-force oracle.  See oracle.hpp: written from the rule texts, with
// absolute sides and seed-by-seed sowing loops; it does not use the engine.
#include "oracle/oracle.hpp"

#include <algorithm>
#include <climits>
#include <deque>
#include <functional>
#include <map>
#include <stdexcept>
#include <unordered_map>

namespace oracle {
namespace {

// ---------------------------------------------------------------- helpers

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::string current;
  for (char c : text) {
    if (c == sep) {
      out.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  out.push_back(current);
  return out;
}

int parse_count(const std::string& token) {
  if (token.empty() || token.size() > 5) throw std::invalid_argument("bad number '" + token + "'");
  for (char c : token)
    if (c < '0' || c > '9') throw std::invalid_argument("bad number '" + token + "'");
  if (token.size() > 1 && token[0] == '0') throw std::invalid_argument("leading zero in '" + token + "'");
  return std::stoi(token);
}

int sum(const std::vector<int>& row) {
  int total = 0;
  for (int seeds : row) total += seeds;
  return total;
}

std::vector<int>& row_of(Board& b, bool south) { return south ? b.south : b.north; }
const std::vector<int>& row_of(const Board& b, bool south) { return south ? b.south : b.north; }
const std::vector<bool>& burnt_of(const Board& b, bool south) { return south ? b.south_burnt : b.north_burnt; }
int& store_of(Board& b, bool south) { return south ? b.south_store : b.north_store; }
int store_of(const Board& b, bool south) { return south ? b.south_store : b.north_store; }

// A place seeds can be sown into, seen from the player who is moving.
enum Where { kMine, kMyStore, kTheirs };
struct Spot {
  Where where;
  int pit;  // 0-based pit index on that row (unused for the store)
  bool operator==(const Spot&) const = default;
};

int& seeds_at(Board& b, bool mover_south, Spot s) {
  if (s.where == kMyStore) return store_of(b, mover_south);
  return row_of(b, s.where == kMine ? mover_south : !mover_south)[s.pit];
}

bool burnt_at(const Board& b, bool mover_south, Spot s) {
  if (s.where == kMyStore) return false;
  return burnt_of(b, s.where == kMine ? mover_south : !mover_south)[s.pit];
}

// Kalah cycle: my pits, my store, their pits, (never their store), my pits...
Spot next_with_store(Spot s, int m) {
  if (s.where == kMine) return s.pit + 1 < m ? Spot{kMine, s.pit + 1} : Spot{kMyStore, 0};
  if (s.where == kMyStore) return Spot{kTheirs, 0};
  return s.pit + 1 < m ? Spot{kTheirs, s.pit + 1} : Spot{kMine, 0};
}

// Oware cycle: houses only.
Spot next_house(Spot s, int m) {
  if (s.where == kMine) return s.pit + 1 < m ? Spot{kMine, s.pit + 1} : Spot{kTheirs, 0};
  return s.pit + 1 < m ? Spot{kTheirs, s.pit + 1} : Spot{kMine, 0};
}

// The opposite of 0-based pit i on one side is 0-based pit m-1-i on the other
// (South pit i faces North pit m+1-i, 1-based).
int opposite(int pit0, int m) { return m - 1 - pit0; }

void sweep(Board& b) {
  b.south_store += sum(b.south);
  b.north_store += sum(b.north);
  for (int& seeds : b.south) seeds = 0;
  for (int& seeds : b.north) seeds = 0;
}

void check_rules(const Rules& r) {
  if (r.game != "kalah" && r.game != "brainking" && r.game != "oware" && r.game != "congkak")
    throw std::invalid_argument("unknown game '" + r.game + "'");
  if (r.grand_slam != "no-capture" && r.grand_slam != "forbidden" && r.grand_slam != "capture-all")
    throw std::invalid_argument("unknown grand slam rule '" + r.grand_slam + "'");
}

// ---------------------------------------------------------------- oware

struct OwareTry {
  Board after;                  // after the sowing, before any capture
  std::vector<int> capture;     // 0-based opponent pits the move would capture
  bool grand_slam = false;      // the capture would take every seed on the opponent's row
  bool feeds = false;           // the opponent's row holds seeds after the sowing
};

OwareTry oware_try(const Board& b, int pit) {
  OwareTry t;
  t.after = b;
  const bool me = b.south_to_move;
  const int m = b.m;
  std::vector<int>& mine = row_of(t.after, me);
  int seeds = mine[pit - 1];
  mine[pit - 1] = 0;
  const Spot origin{kMine, pit - 1};
  Spot s = origin;
  while (seeds > 0) {
    s = next_house(s, m);
    if (s == origin) continue;  // the origin house is skipped every time round
    seeds_at(t.after, me, s) += 1;
    --seeds;
  }
  const std::vector<int>& theirs = row_of(t.after, !me);
  if (s.where == kTheirs) {
    for (int p = s.pit; p >= 0 && (theirs[p] == 2 || theirs[p] == 3); --p) t.capture.push_back(p);
  }
  int captured = 0;
  for (int p : t.capture) captured += theirs[p];
  t.grand_slam = captured > 0 && captured == sum(theirs);
  t.feeds = sum(theirs) > 0;
  return t;
}

// Moves that are legal before the grand-slam rule: non-empty, and feeding if
// the opponent's row is empty.
std::vector<int> oware_basic_moves(const Board& b) {
  std::vector<int> moves;
  const std::vector<int>& mine = row_of(b, b.south_to_move);
  const bool must_feed = sum(row_of(b, !b.south_to_move)) == 0;
  for (int pit = 1; pit <= b.m; ++pit) {
    if (mine[pit - 1] == 0) continue;
    if (must_feed && !oware_try(b, pit).feeds) continue;
    moves.push_back(pit);
  }
  return moves;
}

std::vector<int> oware_moves(const Rules& r, const Board& b) {
  std::vector<int> moves = oware_basic_moves(b);
  if (r.grand_slam != "forbidden") return moves;
  std::vector<int> not_slams;
  for (int pit : moves)
    if (!oware_try(b, pit).grand_slam) not_slams.push_back(pit);
  if (not_slams.empty()) return moves;  // every move is a grand slam: all legal, none captures
  return not_slams;
}

// ---------------------------------------------------------------- keys

std::string key(const Board& b) {
  std::string k;
  auto put = [&k](int v) {
    k += static_cast<char>(v & 0xff);
    k += static_cast<char>((v >> 8) & 0xff);
  };
  put(b.m);
  for (int i = 0; i < b.m; ++i) put(b.south_burnt[i] ? 0xffff : b.south[i]);
  for (int i = 0; i < b.m; ++i) put(b.north_burnt[i] ? 0xffff : b.north[i]);
  put(b.south_store);
  put(b.north_store);
  put(b.south_to_move ? 1 : 0);
  return k;
}

int negamax(const Rules& r, const Board& b, std::unordered_map<std::string, int>& memo, std::size_t max_states) {
  if (terminal(r, b)) return final_value(b);
  const std::string k = key(b);
  auto found = memo.find(k);
  if (found != memo.end()) return found->second;
  int best = INT_MIN;
  for (int pit : legal_moves(r, b)) {
    bool extra = false, over = false;
    Board child = play(r, b, pit, extra, over);
    int v = negamax(r, child, memo, max_states);
    int mine = child.south_to_move == b.south_to_move ? v : -v;
    best = std::max(best, mine);
  }
  if (best == INT_MIN) throw std::logic_error("oracle: non-terminal position without moves: " + format(b));
  memo.emplace(k, best);
  if (memo.size() > max_states) throw std::runtime_error("oracle: too many positions");
  return best;
}

// Oware can cycle.  Endless play splits the board evenly, so a play that
// never ends is worth its store difference once the last capture is made.
// Stores only ever grow and only captures (and the final sweep) change them,
// so the positions fall into layers by seeds in both stores together: a move
// either stays in its layer (no capture; both stores unchanged) or goes to a
// higher layer (capture) or ends the game.  The layers are solved from the
// highest down, each by Jacobi value iteration with the exact values of the
// higher layers:
//   v_0(p) = store difference (mover minus opponent) for non-terminal p,
//            the final value for terminal p;
//   v_{h+1}(p) = max over moves of -v_h(child).
// Within one layer v_h is the h-ply game "leave the layer, or be paid the
// store difference after h plies", which settles after at most (layer size
// + 1) rounds at the value of the endless game.  (One iteration over all
// positions at once need not settle: a capture seen near the horizon through
// a not yet settled child makes values oscillate, e.g. from the Oware 2x4
// start.)
std::vector<std::pair<Board, int>> oware_values(const Rules& r, const Board& start_board, std::size_t max_states) {
  std::vector<Board> boards;
  // Enumerate the reachable positions breadth-first; index = discovery order.
  std::unordered_map<std::string, int> index;
  std::deque<Board> frontier;
  std::vector<int> child_begin;
  std::vector<int> children;
  std::vector<char> is_terminal;
  std::vector<int> stored;  // seeds in both stores together: the layer
  std::vector<int> v;

  index.emplace(key(start_board), 0);
  frontier.push_back(start_board);
  while (!frontier.empty()) {
    Board b = frontier.front();
    frontier.pop_front();
    boards.push_back(b);
    child_begin.push_back(static_cast<int>(children.size()));
    stored.push_back(b.south_store + b.north_store);
    if (terminal(r, b)) {
      is_terminal.push_back(1);
      v.push_back(final_value(b));
      continue;
    }
    is_terminal.push_back(0);
    v.push_back(store_of(b, b.south_to_move) - store_of(b, !b.south_to_move));
    for (int pit : legal_moves(r, b)) {
      bool extra = false, over = false;
      Board child = play(r, b, pit, extra, over);
      if (extra) throw std::logic_error("oracle: extra turn in oware");
      if (child.south_store < b.south_store || child.north_store < b.north_store)
        throw std::logic_error("oracle: a store shrank in oware");
      auto [it, inserted] = index.emplace(key(child), static_cast<int>(index.size()));
      if (inserted) {
        if (index.size() > max_states) throw std::runtime_error("oracle: too many oware positions");
        frontier.push_back(child);
      }
      children.push_back(it->second);
    }
  }
  child_begin.push_back(static_cast<int>(children.size()));

  // Layers, highest first.
  std::map<int, std::vector<int>, std::greater<int>> layers;
  for (std::size_t p = 0; p < v.size(); ++p) layers[stored[p]].push_back(static_cast<int>(p));

  std::vector<int> next(v.size());
  for (const auto& [layer, members] : layers) {
    for (std::size_t iteration = 0;; ++iteration) {
      if (iteration > members.size() + 1)
        throw std::logic_error("oracle: oware value iteration does not settle in layer " + std::to_string(layer));
      bool changed = false;
      for (int p : members) {
        if (is_terminal[p]) {
          next[p] = v[p];
          continue;
        }
        int best = INT_MIN;
        for (int c = child_begin[p]; c < child_begin[p + 1]; ++c) {
          const int child = children[c];
          if (stored[child] < layer) throw std::logic_error("oracle: oware move into a lower layer");
          best = std::max(best, -v[child]);
        }
        next[p] = best;
        if (best != v[p]) changed = true;
      }
      for (int p : members) v[p] = next[p];  // synchronous within the layer
      if (!changed) break;
    }
  }
  std::vector<std::pair<Board, int>> out;
  for (std::size_t p = 0; p < v.size(); ++p) out.emplace_back(boards[p], v[p]);
  return out;
}

void perft_walk(const Rules& r, const Board& b, int level, int depth, std::vector<std::uint64_t>& counts) {
  for (int pit : legal_moves(r, b)) {
    ++counts[level];
    if (level + 1 < depth) {
      bool extra = false, over = false;
      Board child = play(r, b, pit, extra, over);
      perft_walk(r, child, level + 1, depth, counts);
    }
  }
}

}  // namespace

// ---------------------------------------------------------------- notation

Board parse(const std::string& text) {
  std::vector<std::string> parts = split(text, ' ');
  if (parts.size() != 3) throw std::invalid_argument("expected '<rows> <stores> <side>': " + text);
  std::vector<std::string> rows = split(parts[0], '/');
  if (rows.size() != 2) throw std::invalid_argument("expected '<south row>/<north row>': " + text);
  std::vector<std::string> south = split(rows[0], ',');
  std::vector<std::string> north = split(rows[1], ',');
  if (south.size() != north.size()) throw std::invalid_argument("rows of different length: " + text);
  Board b;
  b.m = static_cast<int>(south.size());
  for (const std::string& token : south) {
    b.south_burnt.push_back(token == "x");
    b.south.push_back(token == "x" ? 0 : parse_count(token));
  }
  for (const std::string& token : north) {
    b.north_burnt.push_back(token == "x");
    b.north.push_back(token == "x" ? 0 : parse_count(token));
  }
  std::vector<std::string> stores = split(parts[1], '-');
  if (stores.size() != 2) throw std::invalid_argument("expected '<south store>-<north store>': " + text);
  b.south_store = parse_count(stores[0]);
  b.north_store = parse_count(stores[1]);
  if (parts[2] == "s")
    b.south_to_move = true;
  else if (parts[2] == "n")
    b.south_to_move = false;
  else
    throw std::invalid_argument("side to move must be s or n: " + text);
  return b;
}

std::string format(const Board& b) {
  std::string out;
  for (int i = 0; i < b.m; ++i) {
    if (i > 0) out += ',';
    out += b.south_burnt[i] ? std::string("x") : std::to_string(b.south[i]);
  }
  out += '/';
  for (int i = 0; i < b.m; ++i) {
    if (i > 0) out += ',';
    out += b.north_burnt[i] ? std::string("x") : std::to_string(b.north[i]);
  }
  out += ' ' + std::to_string(b.south_store) + '-' + std::to_string(b.north_store) + ' ';
  out += b.south_to_move ? 's' : 'n';
  return out;
}

Board start(int m, int n) {
  Board b;
  b.m = m;
  b.south.assign(m, n);
  b.north.assign(m, n);
  b.south_burnt.assign(m, false);
  b.north_burnt.assign(m, false);
  return b;
}

int total_seeds(const Board& b) { return sum(b.south) + sum(b.north) + b.south_store + b.north_store; }

// ---------------------------------------------------------------- rules

bool terminal(const Rules& r, const Board& b) {
  check_rules(r);
  if (r.game == "oware") return oware_moves(r, b).empty();
  if (r.game == "brainking") return sum(row_of(b, b.south_to_move)) == 0;
  return sum(b.south) == 0 || sum(b.north) == 0;  // kalah, congkak
}

std::vector<int> legal_moves(const Rules& r, const Board& b) {
  check_rules(r);
  if (r.game == "oware") return oware_moves(r, b);
  std::vector<int> moves;
  if (terminal(r, b)) return moves;
  const std::vector<int>& mine = row_of(b, b.south_to_move);
  const std::vector<bool>& burnt = burnt_of(b, b.south_to_move);
  for (int pit = 1; pit <= b.m; ++pit)
    if (!burnt[pit - 1] && mine[pit - 1] > 0) moves.push_back(pit);
  return moves;
}

Board play(const Rules& r, const Board& b, int pit, bool& extra_turn, bool& game_over) {
  std::vector<int> legal = legal_moves(r, b);
  if (std::find(legal.begin(), legal.end(), pit) == legal.end())
    throw std::invalid_argument("oracle: illegal move " + std::to_string(pit) + " in " + format(b));

  const int m = b.m;
  const bool me = b.south_to_move;
  Board c = b;
  bool extra = false;
  bool over = false;

  if (r.game == "kalah" || r.game == "brainking") {
    std::vector<int>& mine = row_of(c, me);
    std::vector<int>& theirs = row_of(c, !me);
    int seeds = mine[pit - 1];
    mine[pit - 1] = 0;
    Spot s{kMine, pit - 1};
    while (seeds > 0) {
      s = next_with_store(s, m);
      seeds_at(c, me, s) += 1;
      --seeds;
    }
    if (s.where == kMyStore) {
      extra = true;
    } else if (s.where == kMine && mine[s.pit] == 1) {  // the house was empty before the last seed
      int& opp = theirs[opposite(s.pit, m)];
      if (r.game == "kalah") {
        if (opp > 0 || r.empty_capture) {
          store_of(c, me) += mine[s.pit] + opp;
          mine[s.pit] = 0;
          opp = 0;
        }
      } else {  // brainking: only the opposite seeds; the capturing seed stays
        store_of(c, me) += opp;
        opp = 0;
      }
    }
    if (r.game == "kalah") {
      over = sum(c.south) == 0 || sum(c.north) == 0;
    } else {
      const bool next_player = extra ? me : !me;
      over = sum(row_of(c, next_player)) == 0;
    }
  } else if (r.game == "oware") {
    OwareTry t = oware_try(b, pit);
    c = t.after;
    bool do_capture = !t.capture.empty();
    if (t.grand_slam) do_capture = r.grand_slam == "capture-all";  // no-capture / forbidden: nothing
    if (do_capture) {
      std::vector<int>& theirs = row_of(c, !me);
      for (int p : t.capture) {
        store_of(c, me) += theirs[p];
        theirs[p] = 0;
      }
    }
    Board next = c;
    next.south_to_move = !me;
    over = oware_moves(r, next).empty();
  } else {  // congkak: relay sowing around the Kalah cycle, skipping burnt holes
    std::vector<int>& theirs = row_of(c, !me);
    int seeds = row_of(c, me)[pit - 1];
    row_of(c, me)[pit - 1] = 0;
    Spot s{kMine, pit - 1};
    long steps = 0;
    while (true) {
      while (seeds > 0) {
        do {
          s = next_with_store(s, m);
        } while (burnt_at(c, me, s));
        seeds_at(c, me, s) += 1;
        --seeds;
        if (++steps > 100'000'000) throw std::logic_error("oracle: endless congkak relay");
      }
      if (s.where == kMyStore) {
        extra = true;
        break;
      }
      int& here = seeds_at(c, me, s);
      if (here >= 2) {  // occupied before the last seed: lift and keep sowing
        seeds = here;
        here = 0;
        continue;
      }
      if (s.where == kMine) {  // empty own hole
        int& opp = theirs[opposite(s.pit, m)];
        if (!r.needs_opposite || opp > 0) {
          store_of(c, me) += here + opp;
          here = 0;
          opp = 0;
        }
      }
      break;  // empty hole on either row: the turn ends
    }
    over = sum(c.south) == 0 || sum(c.north) == 0;
  }

  if (over) {
    sweep(c);
    extra = false;
  }
  if (!extra) c.south_to_move = !c.south_to_move;
  extra_turn = extra;
  game_over = over;
  return c;
}

int final_value(const Board& b) {
  const bool me = b.south_to_move;
  return (store_of(b, me) + sum(row_of(b, me))) - (store_of(b, !me) + sum(row_of(b, !me)));
}

std::vector<std::uint64_t> perft(const Rules& r, const Board& b, int depth) {
  std::vector<std::uint64_t> counts(depth > 0 ? depth : 0, 0);
  if (depth > 0) perft_walk(r, b, 0, depth, counts);
  return counts;
}

std::vector<std::pair<Board, int>> reachable_values(const Rules& r, const Board& b, std::size_t max_states) {
  check_rules(r);
  if (r.game == "oware") return oware_values(r, b, max_states);
  // Every reachable position, breadth-first, then one shared memo.
  std::unordered_map<std::string, int> seen{{key(b), 0}};
  std::vector<Board> boards{b};
  for (std::size_t i = 0; i < boards.size(); ++i) {
    if (terminal(r, boards[i])) continue;
    for (int pit : legal_moves(r, boards[i])) {
      bool extra = false, over = false;
      Board child = play(r, boards[i], pit, extra, over);
      if (seen.emplace(key(child), int(boards.size())).second) {
        if (boards.size() >= max_states) throw std::runtime_error("oracle: too many positions");
        boards.push_back(child);
      }
    }
  }
  std::unordered_map<std::string, int> memo;
  std::vector<std::pair<Board, int>> out;
  for (const Board& x : boards) out.emplace_back(x, terminal(r, x) ? final_value(x) : negamax(r, x, memo, max_states));
  return out;
}

int value(const Rules& r, const Board& b, std::size_t max_states) {
  check_rules(r);
  if (r.game == "oware") return oware_values(r, b, max_states).front().second;
  std::unordered_map<std::string, int> memo;
  return negamax(r, b, memo, max_states);
}

}  // namespace oracle
