"""A game driven one action at a time: the step interface people and the simulator's players share.

Glossary
--------
action   what the player whose turn it is does next: ``("roll",)``, ``("turn", slot, sixths)`` or, when no
         trail leads out of its place, ``("pass",)`` at the start of a turn; then ``("step", door)`` for
         each pip, ``door`` an index into the doors of the pawn's place (``Table.doors``, the engines'
         shared order).
legal    the actions the rules allow now (``Match.legal``); any other is refused with a one-line reason.
         A turn may not undo the turn another player made since the mover's last turn. A turn whose
         only action is to pass passes by itself.

A ``Match`` plays the reference engine's own moves (``reference.begin_turn``, ``roll``, ``take_step``,
...), which ``reference.play_turn`` also uses, so a match driven by a policy is move for move the
simulator's game (``tests/test_match.py``), and the fast engine's. It draws every die, coin and tile
from game ``game`` of seed ``seed``: the same actions always give the same game, so a match is
restored by replaying its actions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from generator.model import TileSet
from generator.play import reference as ref
from generator.play.game import Geometry, new_table
from generator.play.gamelog import GameLog, Recorder
from generator.play.policies import Policy
from generator.play.rng import game_rng
from generator.play.rules import Rules

Action = tuple


class IllegalMove(ValueError):
    """An action the rules do not allow now (its message is one line, the reason)."""


@dataclass
class Match:
    """One game in progress (see the module docstring)."""

    tiles: TileSet
    geo: Geometry
    rules: Rules
    players: int
    seed: int
    game: int = 0

    def __post_init__(self) -> None:
        self.table = new_table(self.geo, self.rules, self.tiles, self.players, game_rng(self.seed, self.game))
        self.table.heat = np.zeros((len(ref.HEAT_KINDS), self.geo.slots + len(self.geo.landmarks)), dtype=np.int64)
        self.table.recorder = Recorder(self.geo.slots, self.geo.tile.ends)
        self.table.recorder.end_round(self.table.pawns, self.table.visited, self.geo.required)
        self.actions: list[Action] = []
        self.current, self.round, self.pips, self.winner, self.over = 0, 1, 0, -1, False
        ref.begin_turn(self.table, 0)
        self._pass_empty_turns()

    # --- what the rules allow ----------------------------------------------------------------

    def turns(self) -> list[tuple[int, int]]:
        """The tile turns the current player may make now (none once it has rolled)."""
        if self.over or self.pips:
            return []
        p, table = self.current, self.table
        return [(s, d) for s, d in table.turns_allowed(p) if not table.undoes(p, s, d)]

    def doors(self) -> list:
        """The doors of the current player's place."""
        return [] if self.over else self.table.doors(self.table.pawns[self.current])

    def legal(self) -> list[Action]:
        """Every action the rules allow now."""
        if self.over:
            return []
        if self.pips:
            return [("step", i) for i in range(len(self.doors()))]
        return [("roll",) if self.doors() else ("pass",)] + [("turn", s, d) for s, d in self.turns()]

    # --- doing it ------------------------------------------------------------------------------

    def act(self, action: Action) -> None:
        """Do ``action`` for the current player; ``IllegalMove`` (nothing changes) when the rules forbid it."""
        action = tuple(action)
        if action not in self.legal():
            raise IllegalMove(self.why_not(action))
        self.actions.append(action)
        p, table = self.current, self.table
        if action[0] == "roll":
            self.pips = ref.roll(table, p)
            return
        if action[0] == "pass":
            pass
        elif action[0] == "turn":
            ref.turn_instead(table, p, action[1], action[2])
        else:
            ended = ref.take_step(table, p, action[1], self.pips)
            self.pips = 0 if ended else self.pips - 1
            if self.pips:
                return
        self._next_turn()

    def why_not(self, action: Action) -> str:
        """The one-line reason ``action`` is not legal now."""
        if self.over:
            return "the game is over"
        kind = action[0] if action else None
        if kind not in ("roll", "turn", "step", "pass"):
            return f"unknown action {kind!r} (roll, turn, step or pass)"
        if self.pips and kind != "step":
            return f"you rolled: walk your {self.pips} pips left (step)"
        if not self.pips and kind == "step":
            return "roll the die or turn a tile first"
        if kind == "roll":
            return "no trail leads out of your place: turn a tile or pass"
        if kind == "pass":
            return "a trail leads out of your place: roll or turn a tile"
        if kind == "step":
            return f"no such door: choose one of {len(self.doors())}"
        return "that tile may not be turned that way now (not next to you, under a pawn, or undoing a turn)"

    def next_action(self, policy: Policy, rng=None) -> Action:
        """The action ``policy`` takes now: at a turn's start its turn choice, else roll (or pass); while walking
        its next step. A policy that guesses draws from ``rng`` (default: the game's own stream, as the
        simulator does; a server's bots pass their own so that the recorded actions replay the game)."""
        p, table = self.current, self.table
        rng = table.rng if rng is None else rng
        if self.pips:
            return ("step", policy.step(table, p, self.pips, rng))
        choice = policy.turn(table, p, rng)
        if choice is not None:
            return ("turn", *choice)
        return ("roll",) if self.doors() else ("pass",)

    def play(self, policy: Policy, rng=None) -> None:
        """The current player's whole turn, as ``policy`` plays it (the simulator's choices, in its order)."""
        p = self.current
        self.act(self.next_action(policy, rng))
        while not self.over and self.current == p and self.pips:
            self.act(self.next_action(policy, rng))

    def _next_turn(self) -> None:
        """End the current turn and begin the next, passing every turn whose only action is to pass."""
        while True:
            p, table = self.current, self.table
            self.pips = 0
            if ref.end_turn(table, p):
                table.recorder.add("win", p)
                table.recorder.end_round(table.pawns, table.visited, self.geo.required)
                self.winner, self.over = p, True
                return
            self.current = (p + 1) % self.players
            if self.current == 0:
                table.recorder.end_round(table.pawns, table.visited, self.geo.required)
                self.round += 1
                if self.round > self.rules.round_cap:
                    self.over = True
                    return
            ref.begin_turn(table, self.current)
            if self.legal() != [("pass",)]:
                return

    def _pass_empty_turns(self) -> None:
        if self.legal() == [("pass",)]:
            self._next_turn()

    # --- what it was ----------------------------------------------------------------------------

    def log(self, seats: tuple[str, ...]) -> GameLog:
        """The game so far as a log (rounds closed so far; the winner once it is won)."""
        return self.table.recorder.log(seats, self.winner)


def replay(tiles: TileSet, geo: Geometry, rules: Rules, players: int, seed: int, game: int, actions) -> Match:
    """The match the recorded ``actions`` make from game ``game`` of ``seed`` (``IllegalMove`` names the first
    action the rules refuse)."""
    match = Match(tiles, geo, rules, players, seed, game)
    for i, action in enumerate(actions):
        try:
            match.act(tuple(action))
        except IllegalMove as err:
            raise IllegalMove(f"action {i} {list(action)}: {err}") from None
    return match
