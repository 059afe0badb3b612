// The search's move order (solver/src/move_sorter.hpp): the sorting network
// sorts like std::sort, and the order score keeps the documented priorities,
// with each ruleset's weights.
// The order never decides a value, so the solver's oracle tests cannot see a
// mistake in it; these tests can.
#include "move_sorter.hpp"

#include "mancala/error.hpp"
#include "mancala/solver/move_order.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace {

using mancala::kMaxPitsPerSide;
using mancala::kMaxSeeds;
using mancala::solver::detail::kBrainKingOrder;
using mancala::solver::detail::kDefaultOrder;
using mancala::solver::detail::kEmptyCaptureOrder;
using mancala::solver::detail::kStandardKalahOrder;
using mancala::solver::detail::MoveSorter;
using mancala::solver::NodeWeights;
using mancala::solver::detail::OrderChild;
using mancala::solver::OrderNode;
using mancala::solver::OrderWeights;

// Every sequence of n keys drawn from n values: every permutation of n
// distinct keys and every pattern of ties among them.  Stops at the first
// fatal failure, so that a broken network reports one sequence.
void for_each_sequence(int n, const std::function<void(const std::vector<int>&)>& f) {
  std::vector<int> digits(std::size_t(n), 0);
  while (!::testing::Test::HasFatalFailure()) {
    f(digits);
    int i = 0;
    while (i < n && ++digits[std::size_t(i)] == n) digits[std::size_t(i++)] = 0;
    if (i == n) return;
  }
}

TEST(MoveSorter, NetworkSortsEveryPermutationAndTiePatternLikeStdSort) {
  // Small keys, and keys spread over the 64 bits (the search's keys use 37).
  for (const std::uint64_t scale : {std::uint64_t(1), std::uint64_t(0x0123456789ABull)}) {
    for (int n = 1; n <= 6; ++n) {
      int sequences = 0;
      for_each_sequence(n, [&](const std::vector<int>& digits) {
        std::uint64_t keys[kMaxPitsPerSide];
        std::vector<std::uint64_t> expected;
        for (int i = 0; i < n; ++i) {
          keys[i] = std::uint64_t(digits[std::size_t(i)] + 1) * scale;
          expected.push_back(keys[i]);
        }
        std::sort(expected.begin(), expected.end(), std::greater<>());
        MoveSorter::sort_keys(keys, n);
        ASSERT_EQ(std::vector<std::uint64_t>(keys, keys + n), expected) << "n = " << n << ", sequence " << sequences;
        ++sequences;
      });
    }
  }
}

TEST(MoveSorter, MoreThanSixKeysSortLikeStdSort) {
  std::uint64_t x = 12345;
  for (int n = 7; n <= kMaxPitsPerSide; ++n)
    for (int trial = 0; trial < 200; ++trial) {
      std::uint64_t keys[kMaxPitsPerSide];
      for (int i = 0; i < n; ++i) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        keys[i] = (x >> 33) % 8;  // ties too
      }
      std::vector<std::uint64_t> expected(keys, keys + n);
      std::sort(expected.begin(), expected.end(), std::greater<>());
      MoveSorter::sort_keys(keys, n);
      ASSERT_EQ(std::vector<std::uint64_t>(keys, keys + n), expected);
    }
}

// The sequence sort() must give: highest order first, of equal orders the
// higher index first.
std::vector<int> expected_sequence(const std::vector<int>& order) {
  std::vector<int> seq;
  for (int i = 0; i < int(order.size()); ++i) seq.push_back(i);
  std::sort(seq.begin(), seq.end(), [&](int a, int b) {
    return order[std::size_t(a)] != order[std::size_t(b)] ? order[std::size_t(a)] > order[std::size_t(b)] : a > b;
  });
  return seq;
}

std::vector<int> sorted_sequence(const std::vector<int>& order) {
  std::uint8_t label[kMaxPitsPerSide], seq[kMaxPitsPerSide];
  for (std::size_t i = 0; i < order.size(); ++i) label[i] = std::uint8_t(i);
  MoveSorter::sort(order.data(), label, int(order.size()), seq);
  return std::vector<int>(seq, seq + order.size());
}

// The heaviest weights of a reply and a seed of material in any order.
constexpr int kMostPerReply = 32;
constexpr int kMostPerSeedOfMaterial = 6;
// The extremes of the orders the search can produce.
constexpr int kLowest = -kMaxSeeds * MoveSorter::kPerSeedOfGain - kMostPerReply * kMaxPitsPerSide -
                        kMostPerSeedOfMaterial * kMaxSeeds;
constexpr int kHighest = MoveSorter::kExact + kMaxSeeds * MoveSorter::kPerSeedOfGain + kMaxPitsPerSide;

TEST(MoveSorter, SortGivesIndexesByOrderThenIndex) {
  for (int n = 1; n <= 6; ++n)
    for_each_sequence(n, [&](const std::vector<int>& digits) {
      for (const int spread : {1, 1000, (kHighest - kLowest) / 6}) {
        std::vector<int> order;
        for (const int d : digits) order.push_back(kLowest + d * spread);
        ASSERT_EQ(sorted_sequence(order), expected_sequence(order));
      }
    });
  for (int n = 7; n <= kMaxPitsPerSide; ++n) {
    std::vector<int> order;
    for (int i = 0; i < n; ++i) order.push_back(i % 3 == 0 ? kHighest : kLowest + 7 * i);
    EXPECT_EQ(sorted_sequence(order), expected_sequence(order));
  }
}

// The children's indices ride along as labels (the search skips the staged
// child, so they need not be 0..n-1): the sequence is the labels, in the
// order's sequence.
TEST(MoveSorter, SortGivesTheLabelsInTheOrdersSequence) {
  const std::uint8_t labels[] = {0, 2, 3, 5, 9};
  for (int n = 1; n <= 5; ++n)
    for_each_sequence(n, [&](const std::vector<int>& digits) {
      std::vector<int> order;
      for (const int d : digits) order.push_back(kLowest + d * 1000);
      std::uint8_t seq[kMaxPitsPerSide];
      MoveSorter::sort(order.data(), labels, n, seq);
      const std::vector<int> by_position = expected_sequence(order);
      for (int i = 0; i < n; ++i) ASSERT_EQ(seq[i], labels[by_position[std::size_t(i)]]);
    });
}

// A plain unknown child, to be varied one input at a time.
OrderChild plain(int pit, int gain = 0) {
  return {.pit = pit, .exact = false, .exact_value = 0, .extra_turn = false, .gain = gain, .replies = 0,
          .material = 0};
}
OrderChild exact(int pit, int value) {
  OrderChild c = plain(pit);
  c.exact = true;
  c.exact_value = value;
  return c;
}
// The unknown child that every term favours.
OrderChild best_unknown() {
  OrderChild c = plain(kMaxPitsPerSide - 1, kMaxSeeds);
  c.extra_turn = true;
  c.material = kMaxSeeds;
  return c;
}
// The one that every term disfavours (at pit 0).
OrderChild worst_unknown() {
  OrderChild c = plain(0, -kMaxSeeds);
  c.replies = kMaxPitsPerSide;
  c.material = -kMaxSeeds;
  return c;
}

constexpr OrderNode kNodes[] = {{false, false}, {false, true}, {true, false}, {true, true}};
const OrderWeights* const kOrders[] = {&kDefaultOrder, &kEmptyCaptureOrder, &kStandardKalahOrder, &kBrainKingOrder};

// Every kind of node of every ruleset's order.
void for_each_kind(const std::function<void(const OrderWeights&, const OrderNode&, const NodeWeights&)>& f) {
  for (const OrderWeights* order : kOrders)
    for (const OrderNode& node : kNodes) f(*order, node, order->at(node));
}

TEST(MoveSorter, TheWeightsStayWithinTheTestsBounds) {
  for_each_kind([](const OrderWeights&, const OrderNode&, const NodeWeights& w) {
    EXPECT_LE(w.per_reply, kMostPerReply);
    EXPECT_LE(w.per_seed_of_material, kMostPerSeedOfMaterial);
    EXPECT_GE(w.per_reply, 0);
    EXPECT_GE(w.per_seed_of_material, 0);
    EXPECT_GE(w.per_pit, 0);
    EXPECT_GT(w.extra_turn, 0);
  });
}

TEST(MoveSorter, EachRulesetHasItsOrder) {
  using mancala::KalahRules;
  using mancala::solver::detail::order_weights;
  EXPECT_EQ(&order_weights<KalahRules<true>>(), &kEmptyCaptureOrder);
  EXPECT_EQ(&order_weights<KalahRules<false>>(), &kStandardKalahOrder);
  EXPECT_EQ(&order_weights<mancala::BrainKingRules>(), &kBrainKingOrder);
  EXPECT_EQ(&order_weights<mancala::OwareRules<mancala::GrandSlam::NoCapture>>(), &kDefaultOrder);
  EXPECT_EQ(&order_weights<mancala::CongkakRules<mancala::CongkakCapture::Always>>(), &kDefaultOrder);
}

TEST(MoveSorter, TheWeightsFollowTheNodesKind) {
  for (const OrderWeights* order : kOrders) {
    EXPECT_EQ(&order->at({false, false}), &order->level_fail_low);
    EXPECT_EQ(&order->at({false, true}), &order->level_cut);
    EXPECT_EQ(&order->at({true, false}), &order->behind_fail_low);
    EXPECT_EQ(&order->at({true, true}), &order->behind_cut);
  }
}

TEST(MoveSorter, AnExactChildComesBeforeAnyUnknownOne) {
  for_each_kind([](const OrderWeights&, const OrderNode&, const NodeWeights& w) {
    EXPECT_GT(MoveSorter::order(w, exact(0, -kMaxSeeds)), MoveSorter::order(w, best_unknown()));
  });
}

TEST(MoveSorter, ExactChildrenComeBestFirstThenNearestTheStore) {
  for_each_kind([](const OrderWeights&, const OrderNode&, const NodeWeights& w) {
    for (int v = -kMaxSeeds; v < kMaxSeeds; ++v)
      EXPECT_GT(MoveSorter::order(w, exact(0, v + 1)), MoveSorter::order(w, exact(kMaxPitsPerSide - 1, v)));
    EXPECT_GT(MoveSorter::order(w, exact(3, 5)), MoveSorter::order(w, exact(2, 5)));
    // Nothing but the value and the pit counts for a child of known value.
    OrderChild dressed = exact(2, 5);
    dressed.extra_turn = true;
    dressed.gain = 9;
    dressed.replies = 4;
    dressed.material = 7;
    EXPECT_EQ(MoveSorter::order(w, dressed), MoveSorter::order(w, exact(2, 5)));
  });
}

// An extra turn adds its weight, and nothing else changes (no replies are
// counted after it, whatever the child's).
TEST(MoveSorter, AnExtraTurnAddsItsWeight) {
  for_each_kind([](const OrderWeights&, const OrderNode&, const NodeWeights& w) {
    OrderChild extra = plain(3, 2), other = plain(3, 2);
    extra.extra_turn = true;
    extra.material = other.material = 5;
    EXPECT_EQ(MoveSorter::order(w, extra) - MoveSorter::order(w, other), w.extra_turn);
    extra.replies = 4;
    EXPECT_EQ(MoveSorter::order(w, extra) - MoveSorter::order(w, other), w.extra_turn);
  });
}

// The default order (Oware, Congkak): an extra turn first, at any gain.
TEST(MoveSorter, ByDefaultAnExtraTurnComesBeforeAPlainMove) {
  for (const OrderNode& node : kNodes) {
    const NodeWeights& w = kDefaultOrder.at(node);
    for (int gain = -kMaxSeeds; gain <= kMaxSeeds; gain += 5) {
      OrderChild extra = worst_unknown();
      extra.extra_turn = true;
      extra.gain = gain;
      OrderChild other = best_unknown();
      other.extra_turn = false;
      other.gain = gain;
      EXPECT_GT(MoveSorter::order(w, extra), MoveSorter::order(w, other)) << "equal gain " << gain;
      other.gain = kMaxSeeds;
      EXPECT_GT(MoveSorter::order(w, extra), MoveSorter::order(w, other)) << "gain " << gain << " against the most";
    }
  }
}

// An extra turn weighs `seeds` seeds of gain at weights w: it beats a plain
// move of that many seeds more than its own gain, ties with one seed more
// (the pit then decides) and loses to two.
void expect_extra_turn_weighs(const NodeWeights& w, int seeds) {
  OrderChild extra = plain(2, 1);
  extra.extra_turn = true;
  EXPECT_GT(MoveSorter::order(w, extra), MoveSorter::order(w, plain(2, seeds))) << seeds << " seeds";
  EXPECT_EQ(MoveSorter::order(w, extra), MoveSorter::order(w, plain(2, 1 + seeds))) << seeds << " seeds";
  EXPECT_LT(MoveSorter::order(w, extra), MoveSorter::order(w, plain(2, 2 + seeds))) << seeds << " seeds";
}

// Empty-capture Kalah: an extra turn weighs 4 seeds of gain at nodes
// expected to fail low and 6 at nodes expected to cut off.
TEST(MoveSorter, WithEmptyCaptureAnExtraTurnWeighsAFewSeedsOfGain) {
  for (const OrderNode& node : kNodes) expect_extra_turn_weighs(kEmptyCaptureOrder.at(node), node.expect_cut ? 6 : 4);
}

// Standard Kalah: an extra turn weighs 6 seeds of gain, but 4 for a player
// behind at a node expected to fail low.
TEST(MoveSorter, InStandardKalahAnExtraTurnWeighsAFewSeedsOfGain) {
  for (const OrderNode& node : kNodes)
    expect_extra_turn_weighs(kStandardKalahOrder.at(node), node.behind && !node.expect_cut ? 4 : 6);
}

// BrainKing: an extra turn weighs 4 seeds of gain, 3 at a level player's
// cut nodes, and comes first at any gain for a player behind at a cut node.
TEST(MoveSorter, InBrainKingAnExtraTurnWeighsAFewSeedsOfGainButOne) {
  for (const OrderNode& node : kNodes) {
    const NodeWeights& w = kBrainKingOrder.at(node);
    if (node.behind && node.expect_cut) {
      OrderChild extra = plain(2, 1);
      extra.extra_turn = true;
      EXPECT_GT(MoveSorter::order(w, extra), MoveSorter::order(w, plain(2, kMaxSeeds)));
    } else {
      expect_extra_turn_weighs(w, node.expect_cut ? 3 : 4);
    }
  }
}

// On boards of up to 8 pits a side (the empty-capture order's pit weight,
// an eighth of a seed, would let pit 8 and up outweigh a seed).
TEST(MoveSorter, MoreGainComesFirstWhateverThePit) {
  for_each_kind([](const OrderWeights&, const OrderNode&, const NodeWeights& w) {
    for (const bool extra_turn : {false, true})
      for (int gain = -10; gain < 10; ++gain) {
        OrderChild more = plain(0, gain + 1), less = plain(7, gain);
        more.extra_turn = less.extra_turn = extra_turn;
        EXPECT_GT(MoveSorter::order(w, more), MoveSorter::order(w, less));
      }
  });
}

// Where replies count: by default for a player behind only; with empty
// capture everywhere (at a level player's cut nodes as a tie-break: two
// replies fewer outweigh a pit, less than a seed);
// in standard Kalah everywhere, most for a player behind at a node expected
// to fail low, least for one behind at a node expected to cut off; in
// BrainKing at nodes expected to fail low and for a player behind.
TEST(MoveSorter, RepliesCountWhereTheOrderSays) {
  for (const OrderNode& node : kNodes) {
    EXPECT_EQ(MoveSorter::counts_replies(kDefaultOrder.at(node), false, false), node.behind);
    EXPECT_TRUE(MoveSorter::counts_replies(kEmptyCaptureOrder.at(node), false, false));
    EXPECT_TRUE(MoveSorter::counts_replies(kStandardKalahOrder.at(node), false, false));
    EXPECT_LE(kStandardKalahOrder.at(node).per_reply, kStandardKalahOrder.behind_fail_low.per_reply);
    EXPECT_GE(kStandardKalahOrder.at(node).per_reply, kStandardKalahOrder.behind_cut.per_reply);
    EXPECT_EQ(MoveSorter::counts_replies(kBrainKingOrder.at(node), false, false), node.behind || !node.expect_cut);
  }
  // At empty capture's level cut nodes, a tie-break: on boards of up to 8
  // pits a side, every reply left together weighs less than a seed of
  // gain, and two fewer more than a pit.
  EXPECT_LT(kEmptyCaptureOrder.level_cut.per_reply * 8, MoveSorter::kPerSeedOfGain);
  EXPECT_GT(kEmptyCaptureOrder.level_cut.per_reply * 2, kEmptyCaptureOrder.level_cut.per_pit);
}

TEST(MoveSorter, WhereRepliesCountTheFewestComeFirst) {
  for_each_kind([](const OrderWeights&, const OrderNode&, const NodeWeights& w) {
    const bool counted = MoveSorter::counts_replies(w, false, false);
    EXPECT_EQ(counted, w.per_reply != 0);
    // Each reply takes its weight off, whatever the pit.
    for (const int pit : {0, 3, kMaxPitsPerSide - 1}) {
      OrderChild fewer = plain(pit, 2), more = plain(pit, 2);
      fewer.replies = 2;
      more.replies = 5;
      EXPECT_EQ(MoveSorter::order(w, fewer) > MoveSorter::order(w, more), counted);
      EXPECT_EQ(MoveSorter::order(w, fewer) - MoveSorter::order(w, more), 3 * w.per_reply);
      EXPECT_EQ(MoveSorter::order(w, fewer) - MoveSorter::order(w, plain(pit, 2)), -2 * w.per_reply);
    }
    // Where they count, two replies fewer outweigh the neighbouring pit.
    OrderChild fewer = plain(4, 2), more = plain(5, 2);
    fewer.replies = 1;
    more.replies = 3;
    EXPECT_EQ(MoveSorter::order(w, fewer) > MoveSorter::order(w, more), counted);
    // After an extra turn the mover, not the opponent, replies; a known value needs none.
    EXPECT_FALSE(MoveSorter::counts_replies(w, false, true));
    EXPECT_FALSE(MoveSorter::counts_replies(w, true, false));
  });
}

// Where material counts: by default for a player behind and at nodes
// expected to fail low; with empty capture the same kinds, more heavily at
// the nodes expected to fail low; in standard Kalah and BrainKing see below.
TEST(MoveSorter, MaterialCountsWhereTheOrderSays) {
  for (const OrderNode& node : kNodes) {
    const bool weighed = node.behind || !node.expect_cut;
    EXPECT_EQ(MoveSorter::weighs_material(kDefaultOrder.at(node), false), weighed);
    EXPECT_EQ(MoveSorter::weighs_material(kEmptyCaptureOrder.at(node), false), weighed);
    // Standard Kalah: every kind but a player behind at a node expected to cut off.
    EXPECT_EQ(MoveSorter::weighs_material(kStandardKalahOrder.at(node), false), !(node.behind && node.expect_cut));
    // BrainKing: a level player at a node expected to fail low, a player behind at one expected to cut off.
    EXPECT_EQ(MoveSorter::weighs_material(kBrainKingOrder.at(node), false), node.behind == node.expect_cut);
  }
  EXPECT_GT(kEmptyCaptureOrder.level_fail_low.per_seed_of_material, kDefaultOrder.level_fail_low.per_seed_of_material);
}

TEST(MoveSorter, WhereMaterialCountsMoreComesFirst) {
  for_each_kind([](const OrderWeights&, const OrderNode&, const NodeWeights& w) {
    OrderChild richer = plain(2, 1), poorer = plain(3, 1);
    richer.material = 4;
    poorer.material = 2;
    const bool weighed = MoveSorter::weighs_material(w, false);
    EXPECT_EQ(weighed, w.per_seed_of_material != 0);
    EXPECT_FALSE(MoveSorter::weighs_material(w, true));
    // Weighed, it outweighs the neighbouring pit; otherwise the pit decides.
    EXPECT_EQ(MoveSorter::order(w, richer) > MoveSorter::order(w, poorer), weighed);
    EXPECT_EQ(MoveSorter::order(w, richer) - MoveSorter::order(w, plain(2, 1)), w.per_seed_of_material * 4);
  });
}

TEST(MoveSorter, MaterialIsTheMoversRowAgainstTheOpponents) {
  mancala::Position child;
  child.pits_per_side = 3;
  // The child's mover has 1 + 2 + 3 = 6, the other row 4 + 5 = 9.
  const int pits[] = {1, 2, 3, 4, 0, 5};
  for (int i = 0; i < 6; ++i) child.pits[std::size_t(i)] = std::uint8_t(pits[i]);
  EXPECT_EQ(MoveSorter::material(child, true, 15), 6 - 9);   // the node's mover moves again
  EXPECT_EQ(MoveSorter::material(child, false, 15), 9 - 6);  // the opponent is the child's mover
}

// Otherwise the pit nearest the store comes first: by its weight, or, where
// the pit weighs nothing, by the sort's order of equal scores.
TEST(MoveSorter, OtherwiseThePitNearestTheStoreComesFirst) {
  for_each_kind([](const OrderWeights&, const OrderNode&, const NodeWeights& w) {
    for (int pit = 0; pit + 1 < kMaxPitsPerSide; ++pit)
      EXPECT_EQ(MoveSorter::order(w, plain(pit + 1, 3)) - MoveSorter::order(w, plain(pit, 3)), w.per_pit);
    std::vector<int> order;
    for (int pit = 0; pit < 6; ++pit) order.push_back(MoveSorter::order(w, plain(pit, 3)));
    EXPECT_EQ(sorted_sequence(order), (std::vector<int>{5, 4, 3, 2, 1, 0}));
  });
}

TEST(MoveSorter, CountsMoves) {
  EXPECT_EQ(MoveSorter::count_moves(0), 0);
  EXPECT_EQ(MoveSorter::count_moves(0b1011), 3);
  EXPECT_EQ(MoveSorter::count_moves(0xFFFF), 16);
  for (mancala::MoveMask m = 0; m < (1u << 16); m += 37) EXPECT_EQ(MoveSorter::count_moves(m), std::popcount(m));
}


// The public face of the orders (mancala/solver/move_order.hpp): each
// ruleset's tuned order is its compiled one; the text form gives back the
// weights it names, in its documented order; a bad text or weight is an
// InputError naming the problem.
namespace move_order {

using mancala::InputError;
using mancala::Ruleset;
using mancala::solver::check_move_order;
using mancala::solver::format_move_order;
using mancala::solver::parse_move_order;
using mancala::solver::tuned_move_order;

bool same(const OrderWeights& a, const OrderWeights& b) { return format_move_order(a) == format_move_order(b); }

TEST(MoveOrder, EachRulesetsTunedOrderIsItsCompiledOne) {
  using mancala::Game;
  EXPECT_EQ(&tuned_move_order(Ruleset{.game = Game::Kalah, .empty_capture = true}), &kEmptyCaptureOrder);
  EXPECT_EQ(&tuned_move_order(Ruleset{.game = Game::Kalah}), &kStandardKalahOrder);
  EXPECT_EQ(&tuned_move_order(Ruleset{.game = Game::BrainKing}), &kBrainKingOrder);
  EXPECT_EQ(&tuned_move_order(Ruleset{.game = Game::Oware}), &kDefaultOrder);
  EXPECT_EQ(&tuned_move_order(Ruleset{.game = Game::Congkak}), &kDefaultOrder);
}

TEST(MoveOrder, TheTextFormRoundTripsEveryOrder) {
  for (const OrderWeights* order : kOrders) {
    const std::string text = format_move_order(*order);
    EXPECT_TRUE(same(parse_move_order(text), *order)) << text;
  }
}

TEST(MoveOrder, TheTextFormNamesTheKindsAndWeightsInItsOrder) {
  const OrderWeights w = parse_move_order("1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16");
  for (const auto& [n, want] : {std::pair{w.level_fail_low, 1}, {w.level_cut, 5}, {w.behind_fail_low, 9}, {w.behind_cut, 13}}) {
    EXPECT_EQ(n.extra_turn, want);
    EXPECT_EQ(n.per_reply, want + 1);
    EXPECT_EQ(n.per_seed_of_material, want + 2);
    EXPECT_EQ(n.per_pit, want + 3);
  }
  EXPECT_EQ(format_move_order(w), "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16");
}

TEST(MoveOrder, TheBoundsAreAcceptedAndOneBeyondIsNot) {
  const std::string most = "65536,4096,4096,4096,65536,-4096,-4096,-4096,0,4096,-4096,4096,0,0,0,0";
  EXPECT_EQ(format_move_order(parse_move_order(most)), most);
  for (const char* bad : {"65537,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0", "0,0,0,0,-1,0,0,0,0,0,0,0,0,0,0,0",
                          "0,0,0,0,0,4097,0,0,0,0,0,0,0,0,0,0", "0,0,0,0,0,0,-4097,0,0,0,0,0,0,0,0,0",
                          "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,4097"})
    EXPECT_THROW(parse_move_order(bad), InputError) << bad;
  OrderWeights w = kDefaultOrder;
  w.behind_cut.per_pit = -4097;
  try {
    check_move_order(w);
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("behind_cut.per_pit = -4097"), std::string::npos) << e.what();
  }
}

TEST(MoveOrder, MalformedTextIsRefused) {
  for (const char* bad : {"", "1", "1,2,3", "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1", "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1",
                          "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,", ",1,1,1,1,1,1,1,1,1,1,1,1,1,1,1", "1,1,1,1,1,1,1,,1,1,1,1,1,1,1,1",
                          "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,x", "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1.5", " 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1",
                          "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1 ", "+1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1", "tuned",
                          "01,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1", "1,1,1,1,1,-0,1,1,1,1,1,1,1,1,1,1", "1,1,1,1,1,-,1,1,1,1,1,1,1,1,1,1",
                          "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,-01", "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,--1",
                          "99999999999,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1"})
    EXPECT_THROW(parse_move_order(bad), InputError) << "'" << bad << "'";
}

}  // namespace move_order

}  // namespace
