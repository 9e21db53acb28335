"""The objective's ``[play]`` table: a target for how the game plays, and its penalty on the fitness.

Glossary
--------
play target   a target median game length (rounds until someone wins) for ``players`` players of
              ``policy``: a band of ``tolerance`` rounds either side costs nothing, each round
              beyond it costs ``weight``; a cap on the share of games unfinished at the rules' round
              cap; a bound on the seat advantage (the best seat's win rate above 1/n). Over a cap or
              bound costs ``limit_weight`` per unit of share.
centre        the mean of the middle fifth of a bank's game lengths (40th to 60th percentile): the
              median, smoothed, so that a search sees small steps; reports give the median.
play penalty  the term (never positive) the target adds to the fitness (``Objective.fitness``'s extra).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from generator.errors import TrailwrightError
from generator.inputs import MAX_SEED, Number, OneOf, Whole, check_table
from generator.players import POLICY_NAMES

PLAY_SEED = 15  # the game bank's seed unless the [play] table names one (kept apart from layout seeds)


@dataclass(frozen=True)
class PlayTarget:
    """The objective's ``[play]`` table (see the module glossary)."""

    median_rounds: float
    players: int = 3
    weight: float = -5.0  # fitness per round the bank's centre lies outside the tolerance band
    tolerance: float = 0.0  # rounds either side of the target that cost nothing (static fitness decides there)
    max_unfinished: float = 0.02
    max_seat_advantage: float = 1.0  # 1.0: no bound
    limit_weight: float = -20.0  # fitness per unit share over the cap or the bound
    games: int = 200
    policy: str = "explorer"
    seed: int = PLAY_SEED


def _schema() -> dict:
    """The ``[play]`` table's keys and their checks (the policies are the play engine's)."""
    return {
        "median_rounds": Number(1, 10_000),
        "players": Whole(2, 4),
        "weight": Number(-1e6, 0),
        "tolerance": Number(0, 100),
        "max_unfinished": Number(0, 1),
        "max_seat_advantage": Number(0, 1),
        "limit_weight": Number(-1e6, 0),
        "games": Whole(10, 100_000),
        "policy": OneOf(POLICY_NAMES),
        "seed": Whole(0, MAX_SEED),
    }


def play_target_from_dict(data) -> PlayTarget:
    """Validate a parsed ``[play]`` table (the input layer's checks); errors name the key and value."""
    values = check_table(data, _schema(), "play")
    if "median_rounds" not in values:
        raise TrailwrightError("play: needs median_rounds, the target median game length in rounds")
    return PlayTarget(**values)


@dataclass(frozen=True)
class PlayScore:
    """A tile set's game bank: median and centre of the game lengths, unfinished share, seat advantage."""

    median: float
    centre: float
    unfinished: float
    seat_advantage: float
    penalty: float


def summarise_games(target: PlayTarget, rounds: np.ndarray, winners: np.ndarray) -> PlayScore:
    """The play score of one bank: ``rounds`` per game (the cap when unfinished), ``winners`` (-1: none)."""
    ordered = np.sort(np.asarray(rounds, dtype=np.float64))
    n = len(ordered)
    centre = float(ordered[int(0.4 * n) : max(int(0.6 * n), int(0.4 * n) + 1)].mean())
    unfinished = float(np.mean(np.asarray(winners) < 0))
    wins = np.bincount(np.asarray(winners)[np.asarray(winners) >= 0], minlength=target.players)
    seat = float(wins.max() / n - 1 / target.players) if n else 0.0
    penalty = (
        target.weight * max(0.0, abs(centre - target.median_rounds) - target.tolerance)
        + target.limit_weight * max(0.0, unfinished - target.max_unfinished)
        + target.limit_weight * max(0.0, seat - target.max_seat_advantage)
    )
    return PlayScore(float(np.median(ordered)), centre, unfinished, seat, float(penalty))
