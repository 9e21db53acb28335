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
bounds        ``min_<measure>`` and ``max_<measure>`` on the game-quality measures (``MEASURED``, defined
              in ``generator.play.measures``): over a bound costs ``bound_weight`` per unit of the
              measure (steep: a drama 0.05 short costs 5 points, more than most trade-offs gain).
              The luck share is read from a second bank: one explorer among ``rival`` players, its
              seat rotating.
play penalty  the term (never positive) the target adds to the fitness (``Objective.fitness``'s extra).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

import numpy as np

from generator.errors import TrailwrightError
from generator.inputs import MAX_SEED, Number, OneOf, Whole, check_table
from generator.players import POLICY_NAMES

PLAY_SEED = 15  # the game bank's seed unless the [play] table names one (kept apart from layout seeds)


# the measures a [play] table may bound (min_<name>, max_<name>): their values are a share, a count per
# game or per turn, and a share; each has a standard error
MEASURED = ("lead_changes", "drama", "settled_share", "luck_share", "choices", "downtime")


@dataclass(frozen=True)
class PlayTarget:
    """The objective's ``[play]`` table (see the module glossary)."""

    median_rounds: float | None = None  # None: no target on the length, only the caps and bounds
    players: int = 3
    weight: float = -5.0  # fitness per round the bank's centre lies outside the tolerance band
    tolerance: float = 0.0  # rounds either side of the target that cost nothing (static fitness decides there)
    max_unfinished: float = 0.02
    max_seat_advantage: float = 1.0  # 1.0: no bound
    limit_weight: float = -20.0  # fitness per unit share over the cap or the bound
    bound_weight: float = -100.0  # fitness per unit a measure lies outside its min_/max_ bounds
    bound_margin: float = 2.0  # standard errors a bound is judged to its safe side (see bound_penalty)
    games: int = 200
    policy: str = "explorer"
    seed: int = PLAY_SEED
    bounds: tuple[tuple[str, float | None, float | None], ...] = ()  # (measure, low, high), None: unbounded
    rival: str = "greedy"  # the luck share's weaker players

    def to_dict(self) -> dict:
        """The ``[play]`` table that reads back as this target (its bounds as ``min_``/``max_`` keys)."""
        data = {k: v for k, v in asdict(self).items() if k != "bounds" and v is not None}
        for name, low, high in self.bounds:
            data.update({f"{side}_{name}": v for side, v in (("min", low), ("max", high)) if v is not None})
        return data

    @property
    def measured(self) -> frozenset[str]:
        """The measures the bounds need."""
        return frozenset(name for name, _, _ in self.bounds)


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
        "bound_weight": Number(-1e6, 0),
        "bound_margin": Number(0, 10),
        "games": Whole(10, 100_000),
        "policy": OneOf(POLICY_NAMES),
        "seed": Whole(0, MAX_SEED),
        "rival": OneOf(POLICY_NAMES),
        **{f"{side}_{name}": Number(0, 1000) for name in MEASURED for side in ("min", "max")},
    }


def play_target_from_dict(data) -> PlayTarget:
    """Validate a parsed ``[play]`` table (the input layer's checks); errors name the key and value."""
    values = check_table(data, _schema(), "play")
    bounds = []
    for name in MEASURED:
        low, high = values.pop(f"min_{name}", None), values.pop(f"max_{name}", None)
        if low is not None and high is not None and low > high:
            raise TrailwrightError(f"play: min_{name} = {low:g} is above max_{name} = {high:g}")
        if low is not None or high is not None:
            bounds.append((name, low, high))
    if "median_rounds" not in values and not bounds:
        raise TrailwrightError(
            "play: needs median_rounds (the target median game length in rounds) or a bound such as min_drama"
        )
    return PlayTarget(**values, bounds=tuple(bounds))


@dataclass(frozen=True)
class PlayScore:
    """A tile set's game bank: median and centre of the game lengths, unfinished share, seat advantage."""

    median: float
    centre: float
    unfinished: float
    seat_advantage: float
    penalty: float
    measured: dict[str, float | None] = field(default_factory=dict)  # the bounded measures' values
    measured_se: dict[str, float | None] = field(default_factory=dict)  # ... and their standard errors


Reading = tuple[float, float] | None  # a measure's (value, standard error); None when no game measures it


def bound_penalty(target: PlayTarget, measured: dict[str, Reading]) -> float:
    """``bound_weight`` per unit a measure lies outside its bounds, the measure taken ``bound_margin`` standard
    errors to the bound's safe side (a search that meets a bound only by its bank's luck would miss it on fresh
    games); an unmeasurable one costs nothing."""
    total = 0.0
    for name, low, high in target.bounds:
        reading = measured.get(name)
        if reading is None:
            continue
        value, se = reading[0], target.bound_margin * reading[1]
        if low is not None:  # judged to the safe side, so fresh games meet it too
            total += max(0.0, low - (value - se))
        if high is not None:
            total += max(0.0, value + se - high)
    return target.bound_weight * total


def summarise_games(
    target: PlayTarget, rounds: np.ndarray, winners: np.ndarray, measured: dict[str, Reading] | None = None
) -> PlayScore:
    """The play score of one bank: ``rounds`` per game (the cap when unfinished), ``winners`` (-1: none), and the
    bounded measures' values."""
    ordered = np.sort(np.asarray(rounds, dtype=np.float64))
    n = len(ordered)
    centre = float(ordered[int(0.4 * n) : max(int(0.6 * n), int(0.4 * n) + 1)].mean())
    unfinished = float(np.mean(np.asarray(winners) < 0))
    wins = np.bincount(np.asarray(winners)[np.asarray(winners) >= 0], minlength=target.players)
    seat = float(wins.max() / n - 1 / target.players) if n else 0.0
    measured = measured or {}
    length = 0.0 if target.median_rounds is None else abs(centre - target.median_rounds)
    penalty = (
        target.weight * max(0.0, length - target.tolerance)
        + target.limit_weight * max(0.0, unfinished - target.max_unfinished)
        + target.limit_weight * max(0.0, seat - target.max_seat_advantage)
        + bound_penalty(target, measured)
    )
    values = {name: None if r is None else r[0] for name, r in measured.items()}
    errors = {name: None if r is None else r[1] for name, r in measured.items()}
    return PlayScore(float(np.median(ordered)), centre, unfinished, seat, float(penalty), values, errors)


def bound_verdicts(target: PlayTarget, score: PlayScore) -> dict[str, str]:
    """Each bounded measure on a bank of games: "met" or "outside" where its test against the nearer bound (the
    normal law: thousands of games) rejects "it lies on the bound" after Holm's correction over the bounds; else
    "not shown either way" (or "not measured")."""
    from generator import stats

    tests: dict[str, tuple[float, bool]] = {}  # name -> (p-value, inside)
    for name, low, high in target.bounds:
        value, se = score.measured.get(name), score.measured_se.get(name)
        if value is None or se is None:
            continue
        bound = low if high is None or (low is not None and abs(value - low) < abs(value - high)) else high
        assert bound is not None
        inside = (low is None or value >= low) and (high is None or value <= high)
        z = abs(value - bound) / se if se > 0 else (0.0 if value == bound else math.inf)
        tests[name] = (float(min(1.0, 2 * stats.t_sf(z, math.inf))), inside)
    shown = dict(zip(tests, stats.holm([p for p, _ in tests.values()]), strict=True))
    return {
        name: "not measured"
        if name not in tests
        else ("met" if tests[name][1] else "outside")
        if shown[name]
        else "not shown either way"
        for name, _, _ in target.bounds
    }
