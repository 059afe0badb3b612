"""Tests of the Python module `mancala` (apps/python/).

The values are checked against a plain-Python Kalah and BrainKing of this
file's own, written from the rule texts (README, "Rulesets"; the comments of
engine/include/mancala/rules.hpp), not from the engine's code: sowing one
seed at a time around a list of slots, and an exhaustive memoized minimax.
The table tests build a small table directory with the `mancala` binary
(MANCALA_BIN) in a temporary directory.

Run by ctest (python_bindings) with PYTHONPATH set to the build's python/
directory:  python3 -m unittest -v test_mancala
"""

import _thread
import copy
import functools
import json
import os
import pathlib
import pickle
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import mancala

sys.setrecursionlimit(10000)

SOUTH, NORTH = 0, 1


# --------------------------------------------------------------------------
# The reference rules.
#
# A position is (rows, stores, to_move): rows[side] is that side's pits in
# its own sowing order (pit 1 first, farthest from its store), stores[side]
# its store; everything absolute, South = 0, North = 1.
#
# Kalah: the mover lifts every seed of one of their non-empty pits and sows
# them one by one counter-clockwise from the next pit: their own pits towards
# their store, their store, the opponent's pits, their own pits again, ...,
# never the opponent's store.  A last seed in the own store earns another
# move.  A last seed in an own pit that was empty captures: that seed and the
# seeds of the opposite pit (own pit i faces the opponent's pit m + 1 - i)
# go to the mover's store; under the standard rule only when the opposite pit
# holds seeds, with empty_capture always (the lone seed then goes to the
# store by itself).  The game is over as soon as either row is empty after a
# move: every pit is emptied into its owner's store, and the turn passes
# (a move that ends the game earns no extra turn).
#
# BrainKing: the same sowing; a last seed in an own empty pit takes only the
# seeds of the opposite pit (the capturing seed stays where it is); the game
# is over when the player to move has no seeds (then the other row goes to
# its owner), and a move that ends it passes the turn.
#
# A position that is over when it is given is scored the same way: each row
# to its owner.  The value of a position is the final store difference,
# player to move minus opponent, under perfect play.
# --------------------------------------------------------------------------


class Reference:
    def __init__(self, game, empty_capture=False):
        assert game in ("kalah", "brainking")
        self.game = game
        self.empty_capture = empty_capture

    def is_terminal(self, pos):
        rows, _, mover = pos
        if self.game == "kalah":
            return sum(rows[0]) == 0 or sum(rows[1]) == 0
        return sum(rows[mover]) == 0

    def legal(self, pos):
        if self.is_terminal(pos):
            return []
        rows, _, mover = pos
        return [i for i, seeds in enumerate(rows[mover]) if seeds > 0]

    def play(self, pos, pit):
        """The position after the mover plays pit index `pit` (0-based)."""
        rows, stores, mover = pos
        rows = [list(rows[0]), list(rows[1])]
        stores = list(stores)
        opp = 1 - mover
        m = len(rows[0])
        cycle = [("pit", mover, i) for i in range(m)] + [("store", mover, None)] + [("pit", opp, i) for i in range(m)]
        hand = rows[mover][pit]
        assert hand > 0
        rows[mover][pit] = 0
        at = pit
        while hand:
            at = (at + 1) % len(cycle)
            kind, side, i = cycle[at]
            if kind == "store":
                stores[side] += 1
            else:
                rows[side][i] += 1
            hand -= 1
        kind, side, last = cycle[at]
        extra = kind == "store"
        if kind == "pit" and side == mover and rows[mover][last] == 1:
            facing = m - 1 - last
            if self.game == "kalah":
                if self.empty_capture or rows[opp][facing] > 0:
                    stores[mover] += rows[opp][facing] + 1
                    rows[opp][facing] = 0
                    rows[mover][last] = 0
            else:
                stores[mover] += rows[opp][facing]
                rows[opp][facing] = 0
        to_move = mover if extra else opp
        if self.game == "kalah":
            over = sum(rows[0]) == 0 or sum(rows[1]) == 0
        else:
            over = sum(rows[to_move]) == 0
        if over:
            for side in (SOUTH, NORTH):
                stores[side] += sum(rows[side])
                rows[side] = [0] * m
            to_move = opp
        return (tuple(rows[0]), tuple(rows[1])), tuple(stores), to_move

    @staticmethod
    def final_difference(pos):
        """Each row to its owner: store difference for the player to move."""
        rows, stores, mover = pos
        opp = 1 - mover
        return stores[mover] + sum(rows[mover]) - stores[opp] - sum(rows[opp])

    @functools.lru_cache(maxsize=None)
    def value(self, pos):
        if self.is_terminal(pos):
            return self.final_difference(pos)
        return max(self.move_value(pos, pit) for pit in self.legal(pos))

    def move_value(self, pos, pit):
        child = self.play(pos, pit)
        v = self.value(child)
        return v if child[2] == pos[2] else -v

    def reachable(self, pos):
        seen = {pos}
        todo = [pos]
        while todo:
            p = todo.pop()
            for pit in self.legal(p):
                c = self.play(p, pit)
                if c not in seen:
                    seen.add(c)
                    todo.append(c)
        return seen


def start(m, n):
    return ((n,) * m, (n,) * m), (0, 0), SOUTH


def positions_of(ref, m, n, count=None, seed=0):
    """Positions reachable from the start of an m x n board: every one
    (count None), or `count` distinct ones met by random playouts."""
    if count is None:
        return sorted(ref.reachable(start(m, n)))
    rng = random.Random(seed)
    found = {}
    while len(found) < count:
        pos = start(m, n)
        found[pos] = None
        while ref.legal(pos):
            pos = ref.play(pos, rng.choice(ref.legal(pos)))
            found[pos] = None
    return list(found)[:count]


def notation(pos):
    rows, stores, mover = pos
    return "{}/{} {}-{} {}".format(
        ",".join(map(str, rows[0])), ",".join(map(str, rows[1])), stores[0], stores[1], "sn"[mover])


def parse(text):
    board, st, side = text.split(" ")
    south, north = board.split("/")
    s, n = st.split("-")
    return ((tuple(map(int, south.split(","))), tuple(map(int, north.split(",")))), (int(s), int(n)),
            SOUTH if side == "s" else NORTH)


def sign(x):
    return (x > 0) - (x < 0)


def result_of(v):
    return "win" if v > 0 else "loss" if v < 0 else "draw"


# The rulesets checked against the reference: (Game arguments, Reference).
RULESETS = [
    (dict(game="kalah"), Reference("kalah")),
    (dict(game="kalah", empty_capture=True), Reference("kalah", empty_capture=True)),
    (dict(game="brainking"), Reference("brainking")),
]

# Small solves: one thread is enough, and a small transposition table.
FAST = dict(threads=1, tt_mb=4)


class ReferenceSelfTest(unittest.TestCase):
    """The reference itself, on hand-worked positions."""

    def test_hand_worked_moves(self):
        kalah = Reference("kalah")
        # South pit 3 of 3 with 1 seed: into the store, extra turn.
        self.assertEqual(kalah.play(parse("0,1,1/1,1,1 0-0 s"), 2), parse("0,1,0/1,1,1 1-0 s"))
        # South pit 1 with 1 seed into empty pit 2 facing north pit 2 (2 seeds): capture 3.
        self.assertEqual(kalah.play(parse("1,0,1/1,2,1 0-0 s"), 0), parse("0,0,1/1,0,1 3-0 n"))
        # The same facing an empty pit: no capture in standard Kalah, the lone seed with empty capture.
        self.assertEqual(kalah.play(parse("1,0,1/1,0,1 0-0 s"), 0), parse("0,1,1/1,0,1 0-0 n"))
        self.assertEqual(Reference("kalah", True).play(parse("1,0,1/1,0,1 0-0 s"), 0), parse("0,0,1/1,0,1 1-0 n"))
        # A lap of 8 seeds on 3 pits skips North's store and comes back.
        self.assertEqual(kalah.play(parse("8,0,0/0,0,1 0-0 s"), 0), parse("1,2,1/1,1,2 1-0 n"))
        # Emptying a row ends the game: sweep, the turn passes (no extra turn).
        self.assertEqual(kalah.play(parse("0,0,1/2,0,0 0-0 s"), 2), parse("0,0,0/0,0,0 1-2 n"))
        # BrainKing: the capturing seed stays.
        brainking = Reference("brainking")
        self.assertEqual(brainking.play(parse("1,0,1/1,2,1 0-0 s"), 0), parse("0,1,1/1,0,1 2-0 n"))
        # BrainKing ends only when the player to move has no seeds: an extra turn with seeds goes on
        # (North's row is empty), an extra turn without ends the game (and passes the turn).
        self.assertFalse(brainking.is_terminal(parse("0,1,1/0,0,0 0-5 s")))
        self.assertTrue(kalah.is_terminal(parse("0,1,1/0,0,0 0-5 s")))
        self.assertEqual(brainking.play(parse("0,1,1/0,0,0 0-5 s"), 2), parse("0,1,0/0,0,0 1-5 s"))
        self.assertEqual(brainking.play(parse("0,0,1/0,1,0 0-0 s"), 2), parse("0,0,0/0,0,0 1-1 n"))

    def test_hand_worked_values(self):
        kalah = Reference("kalah")
        self.assertEqual(kalah.value(parse("0,0,0/1,2,0 3-1 s")), 3 - 4)
        # South's only move, pit 3, ends in the store and empties South's row: the game is over, 1-1.
        self.assertEqual(kalah.value(parse("0,0,1/0,0,1 0-0 s")), 0)
        # Forced: pit 3 sows South's store and North's pit 1, South's row is empty: 1-2.
        self.assertEqual(kalah.value(parse("0,0,2/1,0,0 0-0 s")), -1)
        # Pit 1 (no capture: North's pit 2 is empty), North's pit 3 ends it: 2-1; pit 3
        # (extra turn), pit 1, North's pit 3: 2-1 as well.
        self.assertEqual(kalah.move_value(parse("1,0,1/0,0,1 0-0 s"), 0), 1)
        self.assertEqual(kalah.move_value(parse("1,0,1/0,0,1 0-0 s"), 2), 1)


class GameTest(unittest.TestCase):
    def test_defaults_and_shape(self):
        g = mancala.Game()
        self.assertEqual((g.name, g.pits_per_side, g.seeds_per_pit, g.ruleset), ("kalah", 6, 4, "kalah"))
        self.assertEqual(mancala.Game("congkak").pits_per_side, 7)
        self.assertEqual(mancala.Game("congkak").seeds_per_pit, 7)
        g = mancala.Game("kalah", pits=4, seeds=3, empty_capture=True)
        self.assertEqual(g.ruleset, "kalah+empty-capture")
        self.assertEqual(g.num_players(), 2)
        self.assertEqual(g.num_distinct_actions(), 4)
        self.assertEqual(g.observation_tensor_shape(), [10])
        self.assertEqual((g.min_utility(), g.max_utility(), g.utility_sum()), (-1.0, 1.0, 0.0))
        self.assertEqual(str(g), "mancala.Game('kalah', pits=4, seeds=3, empty_capture=True)")
        self.assertEqual(eval(repr(g), {"mancala": mancala}), g)
        self.assertEqual(str(g.new_initial_state()), "3,3,3,3/3,3,3,3 0-0 s")
        self.assertEqual(mancala.Game("oware", grand_slam="forbidden").ruleset, "oware+grand-slam=forbidden")
        self.assertEqual(mancala.Game("oware", grand_slam="capture-all").ruleset, "oware+grand-slam=capture-all")
        self.assertEqual(mancala.Game("congkak", capture="needs-opposite").ruleset, "congkak+capture=needs-opposite")
        self.assertEqual(mancala.Game("congkak+capture=needs-opposite", pits=3, seeds=2),
                         mancala.Game("congkak", pits=3, seeds=2, capture="needs-opposite"))
        self.assertEqual(mancala.Game("brainking").ruleset, "brainking")
        self.assertEqual(set(mancala.GAMES), {"kalah", "brainking", "oware", "congkak"})

    def test_bad_games(self):
        with self.assertRaisesRegex(ValueError, "unknown game 'chess'"):
            mancala.Game("chess")
        with self.assertRaisesRegex(ValueError, "empty_capture applies only to kalah"):
            mancala.Game("oware", empty_capture=True)
        with self.assertRaisesRegex(ValueError, "grand_slam applies only to oware"):
            mancala.Game("kalah", grand_slam="forbidden")
        with self.assertRaisesRegex(ValueError, "unknown grand-slam rule 'sometimes'"):
            mancala.Game("oware", grand_slam="sometimes")
        with self.assertRaisesRegex(ValueError, "capture applies only to congkak"):
            mancala.Game("kalah", capture="always")
        with self.assertRaisesRegex(ValueError, "unknown capture rule"):
            mancala.Game("congkak", capture="never")
        with self.assertRaisesRegex(ValueError, "pits per side must be between 1 and 16"):
            mancala.Game("kalah", pits=17)
        with self.assertRaisesRegex(ValueError, "more than the engine's limit of 255"):
            mancala.Game("kalah", pits=16, seeds=8)
        with self.assertRaisesRegex(ValueError, "seeds per pit must not be negative"):
            mancala.Game("kalah", seeds=-1)

    def test_bad_positions(self):
        g = mancala.Game("kalah", pits=3, seeds=3)
        with self.assertRaisesRegex(ValueError, "malformed position"):
            g.new_state("3,3,3/3,3,3 0-0")
        with self.assertRaisesRegex(ValueError, "leading zero"):
            g.new_state("03,3,3/3,3,3 0-0 s")
        with self.assertRaisesRegex(ValueError, "has 4 pits a side; the game has 3"):
            g.new_state("3,3,3,3/3,3,3,3 0-0 s")
        with self.assertRaisesRegex(ValueError, "burnt holes .* only in congkak"):
            g.new_state("x,3,3/3,3,3 0-0 s")

    def test_pickle_and_hash(self):
        g = mancala.Game("oware", pits=3, seeds=2, grand_slam="forbidden")
        self.assertEqual(pickle.loads(pickle.dumps(g)), g)
        self.assertEqual(hash(g), hash(mancala.Game("oware", pits=3, seeds=2, grand_slam="forbidden")))
        self.assertNotEqual(g, mancala.Game("oware", pits=3, seeds=2))


class StateAgainstReferenceTest(unittest.TestCase):
    """Every position reachable on small boards, move by move, against the reference rules."""

    def check_position(self, game, ref, pos):
        s = game.new_state(notation(pos))
        self.assertEqual(str(s), notation(pos))
        self.assertEqual(game.new_state(str(s)), s)
        terminal = ref.is_terminal(pos)
        self.assertEqual(s.is_terminal(), terminal, notation(pos))
        self.assertEqual(s.to_move, pos[2])
        self.assertEqual(s.current_player(), mancala.TERMINAL_PLAYER_ID if terminal else pos[2])
        legal = ref.legal(pos)
        self.assertEqual(s.legal_actions(), legal, notation(pos))
        self.assertEqual(s.legal_actions_mask(), [int(a in legal) for a in range(s.pits_per_side)])
        self.assertEqual(s.legal_actions(1 - pos[2]), [])
        if terminal:
            d = ref.final_difference(pos) * (1 if pos[2] == SOUTH else -1)  # South's
            self.assertEqual(s.returns(), [float(sign(d)), float(-sign(d))], notation(pos))
        else:
            self.assertEqual(s.returns(), [0.0, 0.0])
        rows, stores, _ = pos
        for player in (SOUTH, NORTH):
            expect = list(rows[player]) + list(rows[1 - player]) + [stores[player], stores[1 - player]]
            self.assertEqual(s.observation_tensor(player), [float(x) for x in expect])
        observer = SOUTH if terminal else pos[2]
        self.assertEqual(s.observation_tensor(), s.observation_tensor(observer))
        self.assertEqual(s.store_difference(), stores[pos[2]] - stores[1 - pos[2]])
        self.assertEqual(s.store_difference(NORTH), stores[NORTH] - stores[SOUTH])
        for a in legal:
            c = s.child(a)
            self.assertEqual(str(c), notation(ref.play(pos, a)), "{} action {}".format(notation(pos), a))
            self.assertEqual(c.history(), [a])
        self.assertEqual(str(s), notation(pos))  # child() left s alone
        self.assertEqual(s.history(), [])

    def test_every_reachable_position(self):
        # Every position of the small boards, those of random playouts on the larger.
        for kwargs, ref in RULESETS:
            for m, n, count in ((2, 4, None), (3, 2, None), (3, 3, 1500), (4, 2, 1000), (5, 2, 500)):
                with self.subTest(ruleset=kwargs, pits=m, seeds=n):
                    game = mancala.Game(pits=m, seeds=n, **kwargs)
                    positions = positions_of(ref, m, n, count)
                    self.assertGreater(len(positions), 100)
                    for pos in positions:
                        self.check_position(game, ref, pos)

    def test_hand_worked_positions(self):
        # The reference's hand-worked positions (ReferenceSelfTest), and some given over.
        texts = ["0,1,1/1,1,1 0-0 s", "1,0,1/1,2,1 0-0 s", "1,0,1/1,0,1 0-0 s", "8,0,0/0,0,1 0-0 s",
                 "0,0,1/2,0,0 0-0 s", "0,1,1/0,0,0 0-5 s", "0,0,1/0,1,0 0-0 s", "0,0,2/1,0,0 0-0 s",
                 "1,0,1/0,0,1 0-0 s", "0,0,0/1,2,0 3-1 s", "0,0,0/1,2,0 3-1 n", "0,0,0/0,0,0 4-4 n",
                 "13,0,0/0,0,0 0-0 s", "0,0,0/0,0,14 0-0 n"]
        for kwargs, ref in RULESETS:
            game = mancala.Game(pits=3, **kwargs)
            for text in texts:
                with self.subTest(ruleset=game.ruleset, position=text):
                    self.check_position(game, ref, parse(text))

    def test_random_playouts(self):
        rng = random.Random(20240611)
        for kwargs, ref in RULESETS:
            game = mancala.Game(pits=4, seeds=3, **kwargs)
            for _ in range(40):
                s = game.new_initial_state()
                pos = start(4, 3)
                played = []
                while not s.is_terminal():
                    self.assertEqual(s.current_player(), pos[2])
                    before = s.clone()
                    a = rng.choice(s.legal_actions())
                    self.assertEqual(s.action_to_string(a), "{}{}".format("sn"[pos[2]], a + 1))
                    s.apply_action(a)
                    played.append(a)
                    pos = ref.play(pos, a)
                    self.assertEqual(str(s), notation(pos))
                    self.assertEqual(game.new_state(str(s)), s)
                    self.assertEqual(s.history(), played)
                    self.assertEqual(before.history(), played[:-1])  # the clone is independent
                    self.assertNotEqual(str(before), str(s))
                    self.assertEqual(copy.deepcopy(s), s)
                self.assertEqual(s.current_player(), mancala.TERMINAL_PLAYER_ID)
                self.assertEqual(s.legal_actions(), [])
                south = pos[1][SOUTH] - pos[1][NORTH]
                self.assertEqual(s.returns(), [float(sign(south)), float(-sign(south))])
                self.assertEqual(s.player_return(NORTH), float(-sign(south)))
                self.assertEqual(s.observation_tensor(), s.observation_tensor(SOUTH))
                self.assertEqual(sum(s.observation_tensor()), 24.0)
                self.assertEqual(s.move_number(), len(played))
                with self.assertRaisesRegex(ValueError, "game is over"):
                    s.apply_action(0)

    def test_illegal_actions(self):
        s = mancala.Game("kalah", pits=3, seeds=3).new_state("0,3,3/3,3,3 0-0 s")
        with self.assertRaisesRegex(ValueError, "action 0: move 1 is illegal: pit 1 is empty"):
            s.apply_action(0)
        with self.assertRaisesRegex(ValueError, "action 3 is out of range 0..2"):
            s.apply_action(3)
        with self.assertRaisesRegex(ValueError, "out of range"):
            s.apply_action(-1)
        with self.assertRaisesRegex(ValueError, "player must be 0"):
            s.observation_tensor(2)
        self.assertEqual(str(s), "0,3,3/3,3,3 0-0 s")
        self.assertEqual(s.history(), [])

    def test_state_pickle_and_hash(self):
        g = mancala.Game("kalah", pits=3, seeds=2)
        s = g.new_initial_state().child(1).child(0)
        t = pickle.loads(pickle.dumps(s))
        self.assertEqual((str(t), t.history(), t.get_game()), (str(s), s.history(), g))
        self.assertEqual(hash(t), hash(s))
        self.assertEqual(len({s, t, g.new_initial_state()}), 2)
        self.assertIs(s.get_game(), s.game)

    def test_bad_state_pickles_are_refused(self):
        # A pickle is input: its parts are checked and named.  A history of
        # actions no game has (99, -5) was once taken as it was, and parts of
        # the wrong type raised pybind11's RuntimeError.
        g = mancala.Game("kalah", pits=3, seeds=2)
        for bad, why in [
            ((g, "2,2,2/2,2,2 0-0 s", [0, 0, 99, -5]), "history action 99"),
            ((g, "2,2,2/2,2,2 0-0 s", [3]), "history action 3"),
            (("kalah", "2,2,2/2,2,2 0-0 s", []), "not \\(mancala.Game"),
            ((g, "2,2,2/2,2,2 0-0 s", "abc"), "not \\(mancala.Game"),
            ((g, "2,2,2/2,2,2 0-0 s", [2**40]), "not \\(mancala.Game"),
            ((g, 5, []), "not \\(mancala.Game"),
            ((g, "2,2,2/2,2,2 0-0 s"), "not \\(game, position, history\\)"),
        ]:
            with self.subTest(bad=bad):
                with self.assertRaisesRegex(ValueError, "bad pickled mancala.State: " + why):
                    mancala.State.__new__(mancala.State).__setstate__(bad)  # what pickle.loads calls
        self.assertEqual(pickle.loads(pickle.dumps(g.new_initial_state().child(2))).history(), [2])

    def test_uninitialised_instances_are_refused(self):
        # Cls.__new__(Cls) makes an instance with no C++ value (pickle does
        # this before __setstate__).  Its methods once read uninitialised
        # memory: legal_actions() crashed the interpreter, str() printed
        # garbage.  Every method and property now raises TypeError first, and
        # so does passing such an instance as an argument.
        g = mancala.Game("kalah", pits=3, seeds=2)
        tried = 0
        for cls in (mancala.Game, mancala.State, mancala.Tables, mancala.SolveResult, mancala.ProbeResult):
            names = [n for n in dir(cls) if not n.startswith("__")]
            names += [n for n in ("__repr__", "__str__", "__hash__", "__getstate__") if n in vars(cls)]
            for name in names:
                with self.subTest(cls=cls.__name__, name=name):
                    bare = cls.__new__(cls)
                    for args in [(), (0,), (0, 0), ("1,1,1/1,1,1 0-0 s",)]:
                        try:
                            attr = getattr(bare, name)
                            if callable(attr):
                                attr(*args)
                        except TypeError as e:
                            if "incompatible function arguments" in str(e):
                                continue  # not this method's arguments: try the next
                            self.assertRegex(str(e), "^uninitialised mancala." + cls.__name__ + ": made by ")
                            tried += 1
                            break
                        self.fail("no TypeError")
                    else:
                        self.fail("no arguments fit")
        self.assertGreater(tried, 50)
        bare = mancala.State.__new__(mancala.State)
        for call in [lambda: mancala.solve(bare), lambda: mancala.analyze(bare),
                     lambda: g.new_initial_state() == bare,
                     lambda: mancala.solve(g.new_initial_state(), tables=mancala.Tables.__new__(mancala.Tables))]:
            with self.assertRaisesRegex(TypeError, "^uninitialised mancala.(State|Tables)"):
                call()

    def test_a_draw_returns_positive_zeros(self):
        # [0.0, 0.0], not [0.0, -0.0] (equal, but "-0.0" in JSON or print).
        s = mancala.Game("kalah", pits=3, seeds=0).new_initial_state()
        self.assertTrue(s.is_terminal())
        self.assertEqual(json.dumps(s.returns()), "[0.0, 0.0]")


class SolveAgainstReferenceTest(unittest.TestCase):
    def test_solve_and_analyze(self):
        for kwargs, ref in RULESETS:
            for m, n in ((2, 4), (3, 2), (3, 3), (4, 1)):
                game = mancala.Game(pits=m, seeds=n, **kwargs)
                for pos in positions_of(ref, m, n, 40, seed=7):
                    with self.subTest(ruleset=game.ruleset, position=notation(pos)):
                        s = game.new_state(notation(pos))
                        r = mancala.solve(s, **FAST)
                        v = ref.value(pos)
                        self.assertEqual(r.value, v)
                        self.assertEqual(r.result, result_of(v))
                        self.assertEqual(r.board_value, v - s.store_difference())
                        moves = mancala.analyze(s, **FAST)
                        expect = {a: ref.move_value(pos, a) for a in ref.legal(pos)}
                        self.assertEqual(dict(moves), expect)
                        self.assertEqual([value for _, value in moves], sorted(expect.values(), reverse=True))
                        if ref.is_terminal(pos):
                            self.assertIsNone(r.best_move)
                            self.assertIsNone(r.best_action)
                            self.assertEqual((r.pv, moves), ([], []))
                            continue
                        self.assertEqual(r.best_action + 1, r.best_move)
                        self.assertEqual(expect[r.best_action], v)
                        self.assertEqual(r.pv[0], r.best_move)
                        self.assertEqual(r.pv_actions, [p - 1 for p in r.pv])
                        # The principal variation is a line of best moves that ends the game.
                        line, p = s.clone(), pos
                        for pit in r.pv:
                            self.assertEqual(ref.move_value(p, pit - 1),
                                             ref.value(p), "pv {} at {}".format(r.pv, notation(p)))
                            line.apply_action(pit - 1)
                            p = ref.play(p, pit - 1)
                        self.assertTrue(line.is_terminal())
                        self.assertEqual(r.nodes > 0, True)

    def test_finished_position_typed_in(self):
        s = mancala.Game("kalah", pits=3, seeds=3).new_state("0,0,0/1,2,0 3-1 s")
        self.assertTrue(s.is_terminal())
        self.assertEqual(s.returns(), [-1.0, 1.0])
        r = mancala.solve(s, **FAST)
        self.assertEqual((r.value, r.result, r.best_move, r.pv), (-1, "loss", None, []))
        self.assertEqual(mancala.analyze(s, **FAST), [])

    def test_threads_do_not_change_values(self):
        for m, n in ((3, 3), (4, 3)):
            s = mancala.Game("kalah", pits=m, seeds=n).new_initial_state()
            one = mancala.solve(s, threads=1, tt_mb=8)
            self.assertEqual(mancala.solve(s, threads=2, tt_mb=8).value, one.value)
            self.assertEqual(mancala.solve(s).value, one.value)  # threads=0: every core
            self.assertEqual([v for _, v in mancala.analyze(s, threads=2, tt_mb=8)],
                             [v for _, v in mancala.analyze(s, threads=1, tt_mb=8)])
        self.assertGreaterEqual(mancala.solve(s).threads, 1)
        self.assertEqual(mancala.solve(s, threads=2, tt_mb=8).threads, 2)
        self.assertEqual(one.threads, 1)
        self.assertEqual(mancala.solve(mancala.Game("kalah", pits=3, seeds=3).new_initial_state(), threads=2).value,
                         Reference("kalah").value(start(3, 3)))

    def test_more_threads_than_cores(self):
        # As with the command line's --threads: they all run, and TBB says nothing on stderr.
        threads = 2 * (os.cpu_count() or 1) + 1
        code = ("import mancala; s = mancala.Game('kalah', pits=3, seeds=3).new_initial_state(); "
                "r = mancala.solve(s, threads={}, tt_mb=8); print(r.value, r.threads)".format(threads))
        out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
        self.assertEqual(out.stdout.split(), [str(Reference("kalah").value(start(3, 3))), str(threads)])
        self.assertEqual(out.stderr, "")

    def test_move_order(self):
        # The result names the order searched; that order given back searches
        # the same nodes; another order finds the same values with other nodes;
        # a bad one is a ValueError naming the problem.
        for game in (mancala.Game("kalah", pits=4, seeds=3), mancala.Game("kalah", pits=4, seeds=3, empty_capture=True),
                     mancala.Game("brainking", pits=4, seeds=3)):
            s = game.new_initial_state()
            tuned = mancala.solve(s, **FAST)
            self.assertEqual(len(tuned.move_order.split(",")), 16)
            same = mancala.solve(s, move_order=tuned.move_order, **FAST)
            self.assertEqual((same.nodes, same.value, same.move_order), (tuned.nodes, tuned.value, tuned.move_order))
            flat = ",".join(["0"] * 16)
            other = mancala.solve(s, move_order=flat, **FAST)
            self.assertEqual((other.value, other.move_order), (tuned.value, flat))
            self.assertNotEqual(other.nodes, tuned.nodes)
            self.assertEqual(mancala.analyze(s, move_order=flat, **FAST), mancala.analyze(s, **FAST))
        s = mancala.Game("kalah", pits=3, seeds=2).new_initial_state()
        with self.assertRaisesRegex(ValueError, "3 weights, expected 16"):
            mancala.solve(s, move_order="1,2,3")
        with self.assertRaisesRegex(ValueError, r"level_fail_low.per_pit = 5000 is outside \[-4096, 4096\]"):
            mancala.solve(s, move_order="0,0,0,5000," + ",".join(["0"] * 12))
        with self.assertRaisesRegex(ValueError, "move order"):
            mancala.analyze(s, move_order="tuned")
        with self.assertRaises(TypeError):
            mancala.solve(s, move_order=[0] * 16)

    def test_bad_solve_arguments(self):
        s = mancala.Game("kalah", pits=3, seeds=2).new_initial_state()
        with self.assertRaisesRegex(ValueError, "threads must be between 0 and 1024"):
            mancala.solve(s, threads=-1)
        with self.assertRaisesRegex(ValueError, "tt_mb must be between 1"):
            mancala.solve(s, tt_mb=0)
        with self.assertRaises(TypeError):
            mancala.solve(s, tables=42)
        with self.assertRaises(TypeError):
            mancala.solve("3,3,3/3,3,3 0-0 s")

    def test_other_rulesets_are_consistent(self):
        # No reference for these here (tests/oracle/ has one for the C++
        # suites): each value is its best move's, and moves replay.
        for game, position in ((mancala.Game("oware", pits=3, seeds=2), None),
                               (mancala.Game("oware", pits=3, seeds=2, grand_slam="forbidden"), None),
                               (mancala.Game("oware", pits=3, seeds=2, grand_slam="capture-all"), None),
                               (mancala.Game("congkak", pits=3, seeds=2), None),
                               (mancala.Game("congkak", pits=4, seeds=2, capture="needs-opposite"), "x,2,2,2/2,2,x,2 0-0 n")):
            with self.subTest(ruleset=game.ruleset, position=position):
                s = game.new_state(position) if position else game.new_initial_state()
                r = mancala.solve(s, **FAST)
                moves = mancala.analyze(s, **FAST)
                self.assertEqual(moves[0][1], r.value)
                self.assertEqual(sorted(a for a, _ in moves), s.legal_actions())
                for a, v in moves:
                    c = s.child(a)
                    cv = mancala.solve(c, **FAST).value
                    self.assertEqual(v, cv if c.to_move == s.to_move else -cv)

    def test_burnt_holes(self):
        g = mancala.Game("congkak", pits=4, seeds=2)
        s = g.new_state("x,2,2,2/2,2,x,2 0-0 s")
        self.assertEqual(str(s), "x,2,2,2/2,2,x,2 0-0 s")
        self.assertEqual(s.legal_actions(), [1, 2, 3])
        self.assertEqual(s.observation_tensor(), [0.0, 2.0, 2.0, 2.0, 2.0, 2.0, 0.0, 2.0, 0.0, 0.0])
        with self.assertRaisesRegex(ValueError, "pit 1 is burnt"):
            s.apply_action(0)
        self.assertIn("x", str(s.child(1)))

    def test_keyboard_interrupt_stops_a_solve(self):
        # Kalah(6,4) takes far longer than this test may run.
        # Python's own SIGINT handler, also when this process started with
        # SIGINT ignored (a background job of a non-interactive shell).
        s = mancala.Game("kalah", pits=6, seeds=4).new_initial_state()
        previous = signal.signal(signal.SIGINT, signal.default_int_handler)
        timer = threading.Timer(0.5, _thread.interrupt_main)
        t0 = time.monotonic()
        timer.start()
        try:
            with self.assertRaises(KeyboardInterrupt):
                mancala.solve(s, threads=1, tt_mb=16)
        finally:
            timer.cancel()
            signal.signal(signal.SIGINT, previous)
        self.assertLess(time.monotonic() - t0, 30)


@unittest.skipUnless(os.environ.get("MANCALA_BIN"), "MANCALA_BIN (the mancala binary) is not set")
class TablesTest(unittest.TestCase):
    MAX_SEEDS = 8

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="mancala-python-")
        cls.dir = os.path.join(cls.tmp, "kalah3")
        subprocess.run([os.environ["MANCALA_BIN"], "build", "--game", "kalah", "--pits", "3", "--max-seeds",
                        str(cls.MAX_SEEDS), "--out", cls.dir, "--quiet", "--threads", "1"],
                       check=True, stdout=subprocess.DEVNULL)
        cls.tables = mancala.Tables(cls.dir)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_header(self):
        t = self.tables
        self.assertEqual((t.ruleset, t.pits_per_side, t.max_seeds), ("kalah", 3, self.MAX_SEEDS))
        self.assertEqual(mancala.Tables(pathlib.Path(self.dir)).max_seeds, self.MAX_SEEDS)
        self.assertEqual(t.game(), mancala.Game("kalah", pits=3, seeds=1))
        self.assertEqual(t.game(seeds=4).seeds_per_pit, 4)
        self.assertEqual(os.fspath(t.path), self.dir)

    def test_probes_against_reference(self):
        ref = Reference("kalah")
        rng = random.Random(99)
        game = self.tables.game()
        for _ in range(300):
            seeds = rng.randint(0, self.MAX_SEEDS)
            board = [0] * 6
            for _ in range(seeds):
                board[rng.randrange(6)] += 1
            pos = ((tuple(board[:3]), tuple(board[3:])), (rng.randint(0, 5), rng.randint(0, 5)), rng.randint(0, 1))
            with self.subTest(position=notation(pos)):
                text = notation(pos)
                r = self.tables.probe(text)
                v = ref.value(pos)
                self.assertEqual((r.value, r.result), (v, result_of(v)))
                self.assertEqual(self.tables.probe(game.new_state(text)).value, v)
                legal = ref.legal(pos)
                self.assertEqual(r.moves, [(a + 1, ref.move_value(pos, a)) for a in legal])
                if legal:
                    best = min(a for a in legal if ref.move_value(pos, a) == v)
                    self.assertEqual((r.best_move, r.best_action), (best + 1, best))
                else:
                    self.assertEqual((r.best_move, r.best_action, r.moves), (None, None, []))

    def test_solve_with_tables(self):
        ref = Reference("kalah")
        game = mancala.Game("kalah", pits=3, seeds=3)  # 18 seeds: the search runs above the tables
        for pos in positions_of(ref, 3, 3, 30, seed=5):
            s = game.new_state(notation(pos))
            v = ref.value(pos)
            r = mancala.solve(s, tables=self.dir, **FAST)
            self.assertEqual(r.value, v, notation(pos))
            self.assertEqual(r.level_tables, self.MAX_SEEDS)  # the tables were used
            self.assertEqual(mancala.solve(s, tables=self.tables, **FAST).value, v)
            self.assertEqual(mancala.solve(s, tables=pathlib.Path(self.dir), **FAST).value, v)
            self.assertEqual(dict(mancala.analyze(s, tables=self.dir, **FAST)),
                             {a: ref.move_value(pos, a) for a in ref.legal(pos)})
            # The levels copied into memory or read from the files: the same search.
            for mode in ("yes", "no"):
                m = mancala.solve(s, tables=self.dir, tables_in_memory=mode, **FAST)
                self.assertEqual((m.value, m.nodes), (v, r.nodes), (notation(pos), mode))
                self.assertEqual(dict(mancala.analyze(s, tables=self.dir, tables_in_memory=mode, **FAST)),
                                 {a: ref.move_value(pos, a) for a in ref.legal(pos)})

    def test_errors(self):
        s = mancala.Game("kalah", pits=3, seeds=3).new_initial_state()
        for call in (mancala.solve, mancala.analyze):
            with self.assertRaisesRegex(ValueError, "tables_in_memory must be 'auto', 'yes' or 'no', got 'maybe'"):
                call(s, tables=self.dir, tables_in_memory="maybe", **FAST)
        with self.assertRaisesRegex(ValueError, "9 seeds on the board; the tables reach 8"):
            self.tables.probe("3,3,3/0,0,0 0-0 s")
        with self.assertRaisesRegex(ValueError, "4 pits a side; the tables are for 3"):
            self.tables.probe("1,0,0,0/0,0,0,1 0-0 s")
        with self.assertRaisesRegex(ValueError, "malformed position"):
            self.tables.probe("1,0,0/0,0,1")
        with self.assertRaisesRegex(ValueError, "ruleset brainking is not the tables' kalah"):
            self.tables.probe(mancala.Game("brainking", pits=3, seeds=1).new_initial_state())
        s = mancala.Game("kalah", pits=3, seeds=1, empty_capture=True).new_initial_state()
        with self.assertRaisesRegex(ValueError, "built for ruleset 'kalah', not 'kalah\\+empty-capture'"):
            mancala.solve(s, tables=self.dir, **FAST)
        with self.assertRaises(ValueError):
            mancala.solve(mancala.Game("kalah", pits=4, seeds=1).new_initial_state(), tables=self.dir, **FAST)
        missing = os.path.join(self.tmp, "missing")
        with self.assertRaises(FileNotFoundError) as caught:
            mancala.Tables(missing)
        self.assertRegex(str(caught.exception), "table directory .*missing does not exist")
        # The same error whichever call is given the missing directory.
        for call in (lambda: mancala.solve(s, tables=missing, **FAST), lambda: mancala.analyze(s, tables=missing, **FAST)):
            with self.assertRaisesRegex(FileNotFoundError, "table directory .*missing does not exist"):
                call()
        empty = os.path.join(self.tmp, "empty")
        os.mkdir(empty)
        with self.assertRaisesRegex(ValueError, "holds no level files"):
            mancala.Tables(empty)
        # A level file corrupted after the tables were opened: found on its first probe.
        corrupt = os.path.join(self.tmp, "corrupt")
        shutil.copytree(self.dir, corrupt)
        tables = mancala.Tables(corrupt)
        level = os.path.join(corrupt, "level_008.mtb")
        with open(level, "r+b") as f:
            f.seek(-1, os.SEEK_END)
            last = f.read(1)
            f.seek(-1, os.SEEK_END)
            f.write(bytes([last[0] ^ 1]))
        self.assertEqual(tables.probe("1,0,0/0,0,1 0-0 s").value, self.tables.probe("1,0,0/0,0,1 0-0 s").value)
        with self.assertRaisesRegex(OSError, "level_008.mtb: block 0 checksum mismatch"):
            tables.probe("3,3,1/1,0,0 0-0 s")
        afile = os.path.join(self.tmp, "a-file")
        open(afile, "w").close()
        for call in (lambda: mancala.Tables(afile), lambda: mancala.solve(s, tables=afile, **FAST)):
            with self.assertRaisesRegex(NotADirectoryError, "a-file is not a directory"):
                call()
        # Paths as Python's own functions take them: bytes and os.PathLike
        # work, a NUL is open()'s ValueError (it was a TypeError of
        # mismatched arguments), another type os.fspath's TypeError.
        self.assertEqual(mancala.Tables(os.fsencode(self.dir)).max_seeds, self.tables.max_seeds)
        self.assertEqual(mancala.Tables(pathlib.Path(self.dir)).max_seeds, self.tables.max_seeds)
        for bad in [self.dir + "\0x", os.fsencode(self.dir) + b"\0", pathlib.Path(self.dir + "\0")]:
            with self.subTest(path=bad):
                with self.assertRaisesRegex(ValueError, "^embedded null byte$"):
                    mancala.Tables(bad)
                with self.assertRaisesRegex(ValueError, "^embedded null byte$"):
                    mancala.solve(s, tables=bad, **FAST)
        with self.assertRaisesRegex(TypeError, "os.PathLike"):
            mancala.Tables(5)


class ModuleTest(unittest.TestCase):
    def test_version(self):
        self.assertRegex(mancala.__version__, r"^\d+\.\d+\.\d+$")
        self.assertRegex(mancala.commit, r"^([0-9a-f]{12}(\+dirty)?|unknown)$")
        if os.environ.get("MANCALA_BIN"):
            out = subprocess.run([os.environ["MANCALA_BIN"], "--version"], check=True, capture_output=True, text=True)
            self.assertIn(mancala.__version__, out.stdout)

    def test_conventions_documented(self):
        doc = mancala.__doc__
        for words in ("0 is South", "pit a + 1", "TERMINAL_PLAYER_ID", "Observation tensor", "ValueError"):
            self.assertIn(words, doc)
        self.assertEqual((mancala.SOUTH, mancala.NORTH, mancala.TERMINAL_PLAYER_ID), (0, 1, -4))
        self.assertTrue(re.search(r"observer's pits", mancala.State.observation_tensor.__doc__))


if __name__ == "__main__":
    unittest.main()
