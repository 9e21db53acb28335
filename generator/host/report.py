"""People against the simulation: the recorded games of one game spec read by the simulator's measures, beside
the simulated explorers' values on the same tile set and rules, and where people differ.

Glossary
--------
human game   a recorded room whose game is over and which has at least one person seated.
figure       one number both sides have: per game (rounds, hazard entries), a share of the people's turns
             (turning a tile instead of rolling, trapped, pips lost), or a game-quality measure. Each has a
             95 % interval (value ± 1.96 standard errors).
difference   a figure whose two intervals do not overlap, said in words: "people turn a tile on 31 % of
             turns, explorers on 9 %".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from generator.host.rooms import Room
from generator.play.measures import Measure, mean_of, measures, ratio_of
from generator.play.simulate import simulate
from generator.scoring.stream import available_cores

Z95 = 1.96
FEWEST = 3  # games people must have played before a difference is claimed


@dataclass(frozen=True)
class Figure:
    """One figure for people and for the simulated explorers: (value, standard error) each, and how to say it."""

    name: str
    people: tuple[float, float]
    explorers: tuple[float, float]
    share: bool  # a share (said in %), else a number per game or turn
    phrase: str  # "turn a tile on {} of turns"
    games: int = 0  # the people's games

    @property
    def differs(self) -> bool:
        """Whether the two 95 % intervals miss each other (never said of fewer than ``FEWEST`` games)."""
        (a, sa), (b, sb) = self.people, self.explorers
        return self.games >= FEWEST and abs(a - b) > Z95 * (sa + sb)

    def said(self) -> str:
        """The difference in words."""
        fmt = (lambda v: f"{v:.0%}") if self.share else (lambda v: f"{v:.2f}")
        return f"people {self.phrase.format(fmt(self.people[0]))}, explorers {fmt(self.explorers[0])}"


def _ratio(num: np.ndarray, den: np.ndarray) -> tuple[float, float]:
    """sum(num) / sum(den) over games and its error (``measures.ratio_of``); (0, 0) when nothing was counted."""
    return _m(ratio_of(num, den), empty=(0.0, 0.0))


def _mean(values: Sequence[float]) -> tuple[float, float]:
    return _m(mean_of(values))


def _tallies(rooms: Sequence[Room], humans_only: bool) -> dict[str, np.ndarray]:
    """Per game, the tally fields summed over its (human) seats."""
    fields = ("turns", "turning_turns", "trapped_turns", "steps_lost", "pips", "lair_entries")
    out: dict[str, list[float]] = {f: [] for f in (*fields, "seats")}
    for room in rooms:
        seats = [i for i, s in enumerate(room.seats) if s is not None and (s.bot is None or not humans_only)]
        for f in fields:
            out[f].append(sum(getattr(room.match.table.tallies[i], f) for i in seats))
        out["seats"].append(len(seats))
    return {f: np.asarray(v, float) for f, v in out.items()}


def _m(m: Measure | None, empty: tuple[float, float] = (float("nan"), 0.0)) -> tuple[float, float]:
    return (m.value, m.se) if m is not None else empty


def compare(rooms: Sequence[Room], games: int = 2000, seed: int = 0) -> tuple[list[Figure], int]:
    """The figures of ``rooms`` (human games of one spec) beside ``games`` simulated explorer games; and how many
    games the people played."""
    spec, players = rooms[0].spec, rooms[0].players
    logs = [r.match.log(tuple("human" if s is None or s.bot is None else s.bot for s in r.seats)) for r in rooms]
    people = measures(logs, spec.board, spec.rules, spec.tiles, count_choices=True)
    sim = simulate(
        spec.tiles,
        spec.board,
        spec.rules,
        players,
        games,
        ("explorer",),
        seed,
        measured=games,
        threads=available_cores(),
    )
    assert sim.quality is not None
    mine = _tallies(rooms, humans_only=True)
    rounds = [r.match.round for r in rooms]
    figures = [
        Figure("rounds", _mean(rounds), (sim.rounds_mean, _se_rounds(sim)), False, "play {} rounds a game"),
        Figure(
            "turning a tile",
            _ratio(mine["turning_turns"], mine["turns"]),
            _binomial(sim.turning_share, sim.turns),
            True,
            "turn a tile on {} of turns",
        ),
        Figure(
            "trapped",
            _ratio(mine["trapped_turns"], mine["turns"]),
            _binomial(sim.trapped_share, sim.turns),
            True,
            "begin {} of turns trapped",
        ),
        Figure(
            "pips lost",
            _ratio(mine["steps_lost"], mine["pips"]),
            _binomial(sim.pips_lost_share, sim.pips),
            True,
            "lose {} of their pips",
        ),
        Figure(
            "hazard entries",
            _ratio(mine["lair_entries"], mine["seats"]),
            (sim.lair_entries / players, 0.0),
            False,
            "enter a hazard {} times a game each",
        ),
    ]
    q = sim.quality
    for name, ours, theirs, share, phrase in (
        ("lead changes", people.lead_changes, q.lead_changes, False, "see the lead change {} times a game"),
        ("drama", people.drama, q.drama, True, "see the winner come from behind in {} of games"),
        ("settled share", people.settled_share, q.settled_share, True, "have the winner settled for {} of a game"),
        ("legal actions", people.actions, q.actions, False, "have {} legal actions a turn"),
    ):
        figures.append(Figure(name, _m(ours), _m(theirs), share, phrase))
    return [replace(f, games=len(rooms)) for f in figures], len(rooms)


def _binomial(share: float, n: int) -> tuple[float, float]:
    return share, math.sqrt(share * (1 - share) / n) if n else 0.0


def _se_rounds(report) -> float:
    rounds = np.asarray(report.rounds, float)
    return float(rounds.std(ddof=1) / math.sqrt(len(rounds))) if len(rounds) > 1 else 0.0


def human_games(rooms: Sequence[Room]) -> list[Room]:
    """The finished rooms with a person seated."""
    return [r for r in rooms if r.match.over and any(s is not None and s.bot is None for s in r.seats)]
