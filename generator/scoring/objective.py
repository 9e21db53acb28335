"""The objective: the weights of each term of the article's fitness, and a designer's rules.

    fitness = bridges_weight * bridges            # sides whose trails cross
            + dup_weight * dup_score              # sum over designs of copies squared
            + fully_connected_weight * fully_connected
            + mean over layouts of (extra_edges_weight * extra_edges
                                    + pair_weight * landmark pairs joined)
            + target_weight * sum over targeted pairs of |P(pair joined) - target|

The defaults are the article's weights. The rules limit the search (``trailwright optimize``):

forbid        designs (sides up to rotation) the search never puts on a tile.
max_trails    the most trails a side may have (4, as in the article's 2-bit genome).
pair_targets  landmark pairs (``"Hut-Well"``) with the probability the designer wants them joined.

Objective files are TOML with these same keys at the top level, for example::

    pair_weight = 1.0
    max_trails = 3
    forbid = [[["N", "NE", "SE", "S", "SW", "NW"]]]   # a list of sides, each a list of trails
    [pair_targets]
    "Hut-Lair" = 0.5
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from generator.errors import TrailwrightError
from generator.inputs import Number, Whole, check_keys, load_toml

Design = tuple[tuple[int, ...], ...]  # a canonical side's trails


@dataclass(frozen=True)
class Objective:
    """Weights of the fitness terms (the defaults are the article's ``scoreTiles``) and the rules."""

    bridges_weight: float = -0.05
    dup_weight: float = -0.02
    fully_connected_weight: float = -1.0
    extra_edges_weight: float = -0.1
    pair_weight: float = 1.0
    target_weight: float = -10.0
    max_trails: int = 4
    forbid: tuple[Design, ...] = ()
    pair_targets: tuple[tuple[str, float], ...] = ()

    def allows(self, side) -> bool:
        """Whether a side obeys the rules: not a forbidden design, not too many trails."""
        return len(side.trails) <= self.max_trails and side.canonical.trails not in self.forbid

    def target_penalty(self, pair_prob: dict[str, float]) -> float:
        """``target_weight`` times the summed distance of each targeted pair from its target."""
        return self.target_weight * sum(abs(pair_prob[name] - p) for name, p in self.pair_targets)


ARTICLE = Objective()

_WEIGHT = Number(-1e6, 1e6)  # finite and bounded: a fitness stays a finite number
_WEIGHTS = ("bridges_weight", "dup_weight", "fully_connected_weight", "extra_edges_weight", "pair_weight",
            "target_weight")


def objective_from_dict(data: dict[str, Any]) -> Objective:
    """Validate parsed TOML and build an objective; errors name the key and value."""
    from generator.model import Side

    check_keys(data, {f.name for f in fields(Objective)})
    values: dict[str, Any] = {}
    for key in _WEIGHTS:
        if key in data:
            values[key] = _WEIGHT(data[key], key)
    if "max_trails" in data:
        values["max_trails"] = Whole(1, 6)(data["max_trails"], "max_trails")
    if "forbid" in data:
        raw = data["forbid"]
        if not isinstance(raw, list):
            raise TrailwrightError(f"forbid = {raw!r} is not a list of sides")
        designs = []
        for i, side in enumerate(raw):
            try:
                designs.append(Side.from_names(side).canonical.trails)
            except TrailwrightError as err:
                raise TrailwrightError(f"forbid[{i}] = {side!r}: {err}") from None
        values["forbid"] = tuple(sorted(set(designs)))
    if "pair_targets" in data:
        raw = data["pair_targets"]
        if not isinstance(raw, dict):
            raise TrailwrightError(f"pair_targets = {raw!r} is not a table of pair = probability")
        targets = []
        for name, p in raw.items():
            targets.append((name, Number(0.0, 1.0)(p, f"pair_targets.{name}")))
        values["pair_targets"] = tuple(targets)
    return Objective(**values)


def load_objective(path: str | Path) -> Objective:
    """Load an objective TOML file; errors are one line naming the file, key and value."""
    data = load_toml(path)
    try:
        return objective_from_dict(data)
    except TrailwrightError as err:
        raise err.within(str(path)) from None


def resolve_targets(objective: Objective, pair_names: list[str], source: str = "objective") -> Objective:
    """The objective with each targeted pair named as the board names it ("Well-Hut" -> "Hut-Well")."""
    if objective.pair_targets and not pair_names:
        raise TrailwrightError(f"pair_targets: {objective.pair_targets[0][0]!r}: this board has no landmark pairs "
                               "(it needs at least two landmarks)", source)
    lookup = {}
    for name in pair_names:
        a, b = name.split("-", 1)
        lookup[name] = name
        lookup[f"{b}-{a}"] = name
    resolved = []
    for name, p in objective.pair_targets:
        if name not in lookup:
            raise TrailwrightError(
                f"pair_targets: {name!r} is not a landmark pair of this board (e.g. {pair_names[0]!r})", source
            )
        resolved.append((lookup[name], p))
    return replace(objective, pair_targets=tuple(resolved))
