"""People against the simulation: the recorded games of one game spec read by the simulator's measures, beside
the simulated explorers' values on the same tile set and rules, and where people differ.

Glossary (every interval and test is ``generator.stats``')
--------
human game   a recorded room whose game is over and which has at least one person seated.
sample       one side's games, each figure read game by game as (num, den): the figure is sum(num) / sum(den)
             (turns trapped over the people's turns; a per-game value has den = 1). Games are the units:
             turns within a game are not independent.
figure       one number both sides have, of one kind: a share (turning a tile, trapped, pips lost, drama:
             Wilson), a count (hazard entries a seat, lead changes a game: exact Poisson) or a mean (rounds,
             settled share, legal actions a turn: Student's t), each with its 95 % interval on both sides.
differs      the figure's Welch test rejects "people play as the explorers do" after Holm's correction over
             the report's figures: by chance, a report of people who do play like explorers says "differs"
             of any figure in at most 5 % of reports.
worth        the smallest gap a designer would act on (a round a game, 5 points of turns...). A figure that
             does not differ says how many more games would show a gap of its observed size, or of ``worth``
             when the observed gap is smaller ("about 12 more games would show a 10-point gap in turning"),
             or that a gap of ``worth`` would have shown already.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from generator import stats
from generator.host.rooms import Room
from generator.play.measures import GameMeasures, game_measures, games_of_rows
from generator.play.reference import TALLY_FIELDS

Sample = dict[str, tuple[np.ndarray, np.ndarray]]  # figure name -> (num, den), one entry a game


@dataclass(frozen=True)
class Kind:
    """One figure's name, kind (``stats.SHARE``, ``COUNT`` or ``MEAN``), words, worth, and whether it is said in %."""

    name: str
    kind: str
    phrase: str  # "turn a tile on {} of turns"
    worth: float
    percent: bool
    within: tuple[float, float] = (0.0, math.inf)  # the values it can take


FIGURES = (
    Kind("rounds", stats.MEAN, "play {} rounds a game", 1.0, False),
    Kind("turning a tile", stats.SHARE, "turn a tile on {} of turns", 0.05, True),
    Kind("trapped", stats.SHARE, "begin {} of turns trapped", 0.05, True),
    Kind("pips lost", stats.SHARE, "lose {} of their pips", 0.05, True),
    Kind("hazard entries", stats.COUNT, "enter a hazard {} times a game each", 0.1, False),
    Kind("lead changes", stats.COUNT, "see the lead change {} times a game", 0.25, False),
    Kind("drama", stats.SHARE, "see the winner come from behind in {} of games", 0.1, True),
    Kind("settled share", stats.MEAN, "have the winner settled for {} of a game", 0.1, True, (0.0, 1.0)),
    Kind("legal actions", stats.MEAN, "have {} legal actions a turn", 0.5, False),
)


@dataclass(frozen=True)
class Figure:
    """One figure for people and for the simulated explorers, the test between them, and what more games would
    tell."""

    kind: Kind
    people: stats.Estimate | None
    explorers: stats.Estimate | None
    p: float | None  # the Welch test's p-value; None: too few games to test
    p_holm: float | None  # after Holm's correction over the report's figures
    gap: float  # the gap ``more`` refers to
    more: int | None  # more people's games that would show ``gap``; 0: it would have shown; None: cannot say

    name = property(lambda self: self.kind.name)

    @property
    def differs(self) -> bool:
        """Whether the corrected test rejects (module glossary)."""
        return self.p_holm is not None and self.p_holm <= stats.ALPHA

    def show(self, v: float, digits: int = 0) -> str:
        """A value as the figure says it (``digits`` after the point of a percentage)."""
        return f"{v:.{digits}%}" if self.kind.percent else f"{v:.2f}"

    def said(self) -> str:
        """The difference in words."""
        if self.people is None or self.explorers is None:
            return ""
        mine, theirs = self.show(self.people.value), self.show(self.explorers.value)
        return f"people {self.kind.phrase.format(mine)}, explorers {theirs}"

    def tell(self) -> str:
        """What more games would tell, in words ("" when the figure differs or nothing can be said)."""
        gap = f"a {self.gap * 100:.0f}-point gap" if self.kind.percent else f"a gap of {self.gap:.{_digits(self.gap)}f}"
        if self.differs or self.people is None or self.explorers is None:
            return ""
        if self.more is None:
            return f"{self.name}: the simulated games are too few to show {gap}; simulate more"
        if self.more == 0:
            return f"{self.name}: {gap} would likely have shown in these {self.people.games} games"
        return f"about {self.more} more game{'s' * (self.more > 1)} would show {gap} in {self.name}"


def _digits(x: float) -> int:
    """Digits after the point that show ``x`` to two significant figures (none from 10 up)."""
    return 0 if x >= 10 else max(0, 1 - math.floor(math.log10(x))) if x > 0 else 2


def sample(
    rounds: Sequence[float] | np.ndarray, tallies: np.ndarray, seats: Sequence[int], each: Sequence[GameMeasures]
) -> Sample:
    """One side's sample, one entry a game: its rounds, its tallies summed over the counted seats (games x
    ``TALLY_FIELDS``), how many seats were counted, and its readings (the lead ones over finished games only: an
    unfinished game counts 0 of 0)."""
    t = {f: np.asarray(tallies[:, i], float) for i, f in enumerate(TALLY_FIELDS)}
    done = np.array([m.finished for m in each], float)
    return {
        "rounds": (np.asarray(rounds, float), np.ones(len(rounds))),
        "turning a tile": (t["turning_turns"], t["turns"]),
        "trapped": (t["trapped_turns"], t["turns"]),
        "pips lost": (t["steps_lost"], t["pips"]),
        "hazard entries": (t["lair_entries"], np.asarray(seats, float)),
        "lead changes": (done * [m.lead_changes for m in each], done),
        "drama": (done * [m.drama for m in each], done),
        "settled share": (done * [m.settled_share for m in each], done),
        "legal actions": (
            np.array([sum(m.seat_actions) for m in each], float),
            np.array([sum(m.seat_turns) for m in each], float),
        ),
    }


def cut(s: Sample, lo: int, hi: int) -> Sample:
    """Games ``lo`` to ``hi`` of a sample."""
    return {name: (num[lo:hi], den[lo:hi]) for name, (num, den) in s.items()}


def people_sample(rooms: Sequence[Room]) -> Sample:
    """The sample of human games (tallies of the people's seats only; the game's measures of every seat)."""
    from generator.play.game import geometry

    spec = rooms[0].spec
    geo = geometry(spec.board, spec.rules)
    tallies, seats, each = [], [], []
    for room in rooms:
        mine = [i for i, s in enumerate(room.seats) if s is not None and s.bot is None]
        tallies.append([sum(getattr(room.match.table.tallies[i], f) for i in mine) for f in TALLY_FIELDS])
        seats.append(len(mine))
        log = room.match.log(tuple("human" if s is None or s.bot is None else s.bot for s in room.seats))
        each.append(game_measures(log, geo, spec.rules, spec.tiles, count_choices=True))
    table = np.asarray(tallies, float).reshape(len(rooms), len(TALLY_FIELDS))
    return sample([r.match.round for r in rooms], table, seats, each)


def simulated_sample(tiles, board, rules, players: int, games: int, seed: int, policy: str = "explorer") -> Sample:
    """``games`` games of ``players`` seats of ``policy`` from ``seed``, every seat counted."""
    from generator.play.simulate import play
    from generator.scoring.stream import available_cores

    threads = available_cores()
    raw = play(tiles, board, rules, (policy,) * players, games, seed, log=True, threads=threads)
    assert raw.rows is not None and raw.offsets is not None
    each = games_of_rows(raw.rows, raw.offsets, raw.winners, players, board, rules, tiles, True, threads)
    return sample(raw.rounds, raw.tallies.sum(axis=1), [players] * games, each)


def compare_samples(people: Sample, explorers: Sample) -> list[Figure]:
    """Every figure of both samples, tested, the tests corrected together (Holm), and what more games would tell."""
    rows = []
    for k in FIGURES:
        (pn, pd), (en, ed) = people[k.name], explorers[k.name]
        mine, theirs = (stats.estimate(n, d, k.kind, within=k.within) for n, d in ((pn, pd), (en, ed)))
        rows.append((k, mine, theirs, stats.welch(pn, pd, en, ed)))
    adjusted = stats.holm_adjusted([p for *_, p in rows])
    tests = sum(p is not None for *_, p in rows) or len(rows)
    out = []
    for (k, mine, theirs, p), p_holm in zip(rows, adjusted, strict=True):
        gap, more = k.worth, None
        if mine is not None and theirs is not None:
            gap = max(k.worth, abs(mine.value - theirs.value))
            unit = max((u for u in (_unit(*people[k.name]), _unit(*explorers[k.name])) if u == u), default=math.nan)
            needed = stats.games_needed(gap, unit, theirs.se**2, tests)
            more = None if needed is None else max(0, needed - mine.games)
            if more == 0 and gap > k.worth:  # the observed gap, not shown by these games: a few more may
                more = 1
        out.append(Figure(k, mine, theirs, p, p_holm, gap, more))
    return out


def _unit(num: np.ndarray, den: np.ndarray) -> float:
    """The variance one game adds (NaN with fewer than two games)."""
    return stats.unit_variance(num, den) if len(num) > 1 and den.sum() > 0 else math.nan


def compare(rooms: Sequence[Room], games: int = 2000, seed: int = 0) -> tuple[list[Figure], int]:
    """The figures of ``rooms`` (human games of one spec) beside ``games`` simulated explorer games; and how many
    games the people played."""
    spec = rooms[0].spec
    sim = simulated_sample(spec.tiles, spec.board, spec.rules, rooms[0].players, games, seed)
    return compare_samples(people_sample(rooms), sim), len(rooms)


def human_games(rooms: Sequence[Room]) -> list[Room]:
    """The finished rooms with a person seated."""
    return [r for r in rooms if r.match.over and any(s is not None and s.bot is None for s in r.seats)]
