"""Bots that think in the ``fast`` engine: a match's table copied into the fast engine's arrays, and the fast
engine's own choice of tile turn and step.

A server's bots play many turns while people wait; the reference engine's explorer spends milliseconds
on a turn of a big board, the compiled one microseconds. The rules stay the reference engine's: the
match (``match.Match``) still checks and makes every move, only the choice is compiled, and it is the
choice the reference policy makes in the same state with the same random stream
(``tests/test_fastbot.py`` compares them action by action).
"""

from __future__ import annotations

import numpy as np

from generator.board import Board
from generator.jitcache import njit
from generator.model import TileSet
from generator.play.arrays import (
    S_FACE,
    S_HOW,
    S_LAST,
    S_PAWN,
    S_SIZE,
    S_TILE,
    S_VISITED,
    S_WHEN,
    S_WHO,
    SLOTS,
    W_SIZE,
    game_arrays,
)
from generator.play.fast import TRACE
from generator.play.fastchoices import choose_step, choose_turn, clear, doors, planned, set_rot, turn_bar
from generator.play.gamelog import place_number
from generator.play.match import Action, Match
from generator.play.policies import Policy
from generator.play.routes import needs
from generator.play.rules import Rules

ROLL, TURN, STEP = 0, 1, 2


@njit(cache=True)
def choose(G, S, W, R, policy, p, pips):
    """What ``policy`` (1 explorer, 2 greedy) does now as player ``p`` with ``pips`` left to walk: (STEP, door,
    0), (TURN, slot, sixths), or (ROLL, 0, 0) to roll (or pass, when no trail leads out)."""
    if pips:
        return STEP, choose_step(G, S, W, R, policy, p, doors(G, S, W, S[G[S_PAWN] + p])), 0
    first, rank = planned(G, S, W, policy, p)
    bar = turn_bar(G, policy, first < 0, rank)
    if bar >= 0:
        s, d = choose_turn(G, S, W, R, policy, p, bar, np.int64(0))  # a literal 0 would compile it again
        if s >= 0:
            return TURN, s, d
    return ROLL, 0, 0


class FastBots:
    """The compiled players of one tile set, board and rules (see the module docstring)."""

    def __init__(self, tiles: TileSet, board: Board, rules: Rules):
        self.G = game_arrays(tiles, board, rules)
        self.S = np.zeros(self.G[S_SIZE], np.int64)
        self.W = np.zeros(self.G[W_SIZE], np.int64)
        self.R = np.zeros(TRACE + 1, np.uint64)

    def next_action(self, match: Match, policy: Policy, rng=None) -> Action:
        """``match.next_action(policy, rng)``, thought in the fast engine (``rng`` advances as it would)."""
        if policy.code == 0:
            return match.next_action(policy, rng)  # the random player thinks in no time either way
        rng = match.table.rng if rng is None else rng
        self._load(match)
        self.R[:TRACE] = rng
        kind, a, b = choose(self.G, self.S, self.W, self.R, policy.code, match.current, match.pips)
        rng[:] = self.R[:TRACE]
        if kind == STEP:
            return ("step", int(a))
        if kind == TURN:
            return ("turn", int(a), int(b))
        return ("roll",) if match.doors() else ("pass",)

    def _load(self, match: Match) -> None:
        """The match's table as the fast engine's state: laid tiles, recent turns, pawns and visits."""
        G, S, table = self.G, self.S, match.table
        n = int(G[SLOTS])
        clear(G, S, table.players)
        for slot, (tile, face, rot) in table.laid.items():
            S[G[S_TILE] + slot], S[G[S_FACE] + slot] = tile, face
            set_rot(G, S, slot, rot)
        for slot, (when, who, how) in table.turned_at.items():
            S[G[S_WHEN] + slot], S[G[S_WHO] + slot], S[G[S_HOW] + slot] = when, who, how
        for q in range(table.players):
            S[G[S_PAWN] + q] = place_number(table.pawns[q], n, match.geo.tile.ends)
            S[G[S_VISITED] + q] = sum(1 << k for k in table.visited[q])
            S[G[S_LAST] + q] = table.last_turn[q]
            needs(G, S, q)
