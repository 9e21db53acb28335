"""The objective: the one place that knows the fitness formula, its weights, and a designer's rules.

    fitness = static part                          # Objective.static
                bridges_weight * bridges            # sides whose trails cross
              + dup_weight * dup_score              # sum over designs of copies squared
              + fully_connected_weight * fully_connected
            + mean over layouts of the per-layout part   # Objective.per_layout
                extra_edges_weight * extra_edges + pair_weight * landmark pairs joined
            + target penalty                       # Objective.target_penalty
                target_weight * sum over targeted pairs of |P(pair joined) - target|
            + extra                                # an optional later term (see ``Objective.fitness``)

Every caller (the scorer, the search's evaluators, the local check) measures its numbers and
passes them in; none writes the formula out again.

The defaults are the article's weights. The rules limit the search (``trailwright optimize``):

forbid        designs (sides up to rotation) the search never puts on a tile, each named by its ends: the classic
              game's edges (``N``, ``NE`` ...), a square's (``N E S W``), or with two ends an edge ``N1``, ``N2`` ...
              (``NAMED_TILES``: the names say which tiles; ``Objective.on`` checks they are the board's).
max_trails    the most trails a side may have (4, as in the article's 2-bit genome).
pair_targets  landmark pairs (``"Hut-Well"``) with the probability the designer wants them joined.
pinned        ids of tiles the search keeps as the start set has them (the studio's pins; ``--pin`` adds more).
size_aware    the terms that grow with the board scaled to the classic board's 40 sides (``CLASSIC_SIDES``), so
              the article's weights mean on a board of 91 or 217 tiles what they mean on the classic one:
              bridges, fully connected tiles and extra edges times 40 / sides, the duplicate score (a sum of
              squares) times (40 / sides) squared. On the classic board it is the article's fitness exactly.
              ``sides`` is the board's (``Objective.on``); the default is the article's, unscaled.

Objective files are TOML with these same keys at the top level, for example::

    pair_weight = 1.0
    max_trails = 3
    pinned = ["t01", "t07"]
    forbid = [[["N", "NE", "SE", "S", "SW", "NW"]]]   # a list of sides, each a list of trails
    [pair_targets]
    "Hut-Lair" = 0.5
    [play]                       # how the game should play (see docs/play-optimize.md)
    median_rounds = 15
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from generator.errors import TrailwrightError
from generator.inputs import Number, Whole, check_keys, load_toml
from generator.model.geometry import TileGeometry
from generator.scoring.play_target import PlayTarget, play_target_from_dict

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
    max_trails: int = 4  # ARTICLE_MAX_TRAILS
    forbid: tuple[Design, ...] = ()
    pair_targets: tuple[tuple[str, float], ...] = ()
    pinned: tuple[str, ...] = ()
    size_aware: bool = False
    sides: int = 40  # the board's sides (tiles times faces): set by ``on``, read only with size_aware
    play: PlayTarget | None = None  # a target for how the game plays ([play], see scoring/play_target.py)

    def allows(self, side) -> bool:
        """Whether a side obeys the rules: not a forbidden design, not too many trails."""
        return len(side.trails) <= self.max_trails and side.canonical.trails not in self.forbid

    def on(self, board) -> Objective:
        """This objective for ``board``: its side count (faces times tiles), which a size-aware objective scales
        by. On another geometry than the classic game's, the article genome's default limit of 4 trails a side
        is lifted (a paired hex side has six); a lower ``max_trails`` from an objective file still applies."""
        g = board.geometry
        for design in self.forbid:
            _check_forbidden(design, g)
        limit = self.max_trails
        if not g.is_classic and limit == ARTICLE_MAX_TRAILS:
            limit = max(limit, g.ends)
        return replace(self, sides=g.faces * board.tile_count, max_trails=limit)

    def static(self, bridges: int, dup_score: int, fully_connected: int) -> float:
        """The part of the fitness that does not depend on layouts."""
        if not self.size_aware:
            return (
                self.bridges_weight * bridges
                + self.dup_weight * dup_score
                + self.fully_connected_weight * fully_connected
            )
        k = term_scales(self.size_aware, self.sides)
        return (
            k["bridges_weight"] * self.bridges_weight * bridges
            + k["dup_weight"] * self.dup_weight * dup_score
            + k["fully_connected_weight"] * self.fully_connected_weight * fully_connected
        )

    def per_layout(self, extra_edges, pairs_joined):
        """The per-layout part of each layout (numbers or arrays); the fitness takes its mean."""
        if not self.size_aware:
            return self.extra_edges_weight * extra_edges + self.pair_weight * pairs_joined
        k = term_scales(self.size_aware, self.sides)["extra_edges_weight"]
        return k * self.extra_edges_weight * extra_edges + self.pair_weight * pairs_joined

    def target_penalty(self, pair_prob: Mapping[str, float]) -> float:
        """``target_weight`` times the summed distance of each targeted pair from its target."""
        return self.target_weight * sum(abs(pair_prob[name] - p) for name, p in self.pair_targets)

    def fitness(
        self, static: float, layout_mean: float, pair_prob: Mapping[str, float] | None = None, extra: float = 0.0
    ) -> float:
        """The fitness from its parts: ``static()``, the mean of ``per_layout()``, the targeted pairs' rates.

        ``extra`` is the seam for an optional further term measured elsewhere (e.g. a game
        simulator's verdict on candidates whose ``static + layout_mean`` passes a bar): the
        evaluator that measures it passes it in here, so no other caller changes.
        """
        if self.pair_targets and pair_prob is None:
            raise ValueError("this objective targets landmark pairs: pass their rates (pair_prob)")
        penalty = self.target_penalty(pair_prob) if self.pair_targets and pair_prob is not None else 0.0
        return float(static + layout_mean + penalty + extra)

    def settings(self) -> dict[str, Any]:
        """The weights and rules as plain JSON-ready data (recorded in every output; ``[play]`` as its table)."""
        data = asdict(self)
        if self.play is not None:
            data["play"] = self.play.to_dict()
        return data


ARTICLE = Objective()
ARTICLE_MAX_TRAILS = ARTICLE.max_trails  # the article's 2-bit genome holds at most 4 trails a side
CLASSIC_SIDES = 40  # the classic board's 20 tiles, two sides each


def term_scales(size_aware: bool, sides: int) -> dict[str, float]:
    """What each weight is multiplied by (see ``size_aware`` in the module docstring): 1 for the article's."""
    k = CLASSIC_SIDES / sides if size_aware else 1.0
    return {
        "bridges_weight": k,
        "dup_weight": k * k,
        "fully_connected_weight": k,
        "extra_edges_weight": k,
        "pair_weight": 1.0,
    }


# the tiles a forbidden side's end names name, by their ends (the classic game's first: its names win a tie); a
# side's design up to rotation depends on its shape and ends alone, and ``Objective.on`` checks the board's trails
NAMED_TILES = {
    g.ends: g
    for g in (
        TileGeometry(),
        TileGeometry("square"),
        TileGeometry("square", 2),
        TileGeometry("hex", 2, "pairs"),
    )
}


def _forbidden(side: Any) -> Design:
    """A forbidden side's design, read with the end names of the tiles that have the most of its names."""
    from generator.model import Side

    names = [n for t in side for n in t] if isinstance(side, list) and all(isinstance(t, list) for t in side) else []
    g = max(NAMED_TILES.values(), key=lambda g: sum(name in g.end_names for name in names))
    return Side.from_names(side, g).canonical.trails


def _check_forbidden(design: Design, g: TileGeometry) -> None:
    """A one-line refusal when a forbidden design is no side of ``g``'s tiles."""
    from generator.model import Side

    ends = sum(map(len, design))
    named = str(Side(design, NAMED_TILES[ends])) if ends in NAMED_TILES else repr(design)
    if ends != g.ends:
        raise TrailwrightError(f"forbid: {named} is a side of {ends} ends, and this board's tiles have {g.ends} ({g})")
    try:
        Side.of(design, g)
    except TrailwrightError as err:
        raise TrailwrightError(f"forbid: {named}: {err}") from None


MOST_ENDS = 12  # a tile's ends at most (hex, two an edge): a side has no more trails
_WEIGHT = Number(-1e6, 1e6)  # finite and bounded: a fitness stays a finite number
_WEIGHTS = (
    "bridges_weight",
    "dup_weight",
    "fully_connected_weight",
    "extra_edges_weight",
    "pair_weight",
    "target_weight",
)


def objective_from_dict(data: dict[str, Any]) -> Objective:
    """Validate parsed TOML and build an objective; errors name the key and value."""
    check_keys(data, {f.name for f in fields(Objective)})
    values: dict[str, Any] = {}
    for key in _WEIGHTS:
        if key in data:
            values[key] = _WEIGHT(data[key], key)
    if "max_trails" in data:
        values["max_trails"] = Whole(1, MOST_ENDS)(data["max_trails"], "max_trails")
    if "forbid" in data:
        raw = data["forbid"]
        if not isinstance(raw, list):
            raise TrailwrightError(f"forbid = {raw!r} is not a list of sides")
        designs = []
        for i, side in enumerate(raw):
            try:
                designs.append(_forbidden(side))
            except TrailwrightError as err:
                raise TrailwrightError(f"forbid[{i}] = {side!r}: {err}") from None
        values["forbid"] = tuple(sorted(set(designs)))
    for key in ("size_aware",):
        if key in data:
            if not isinstance(data[key], bool):
                raise TrailwrightError(f"{key} = {data[key]!r} is not true or false")
            values[key] = data[key]
    if "sides" in data:  # a record's (checkpoint, output meta); ``on`` sets it from the board
        values["sides"] = Whole(2, 100_000)(data["sides"], "sides")
    if "pinned" in data:
        raw = data["pinned"]
        if not isinstance(raw, list | tuple) or not all(isinstance(t, str) and 1 <= len(t) <= 64 for t in raw):
            raise TrailwrightError(f"pinned = {str(raw)[:60]} is not a list of tile ids")
        values["pinned"] = tuple(dict.fromkeys(raw))
    if "pair_targets" in data:
        raw = data["pair_targets"]
        if not isinstance(raw, dict):
            raise TrailwrightError(f"pair_targets = {raw!r} is not a table of pair = probability")
        targets = []
        for name, p in raw.items():
            targets.append((name, Number(0.0, 1.0)(p, f"pair_targets.{name}")))
        values["pair_targets"] = tuple(targets)
    if data.get("play") is not None:  # None: a checkpoint's record of an objective without [play]
        values["play"] = play_target_from_dict(data["play"])
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
        raise TrailwrightError(
            f"pair_targets: {objective.pair_targets[0][0]!r}: this board has no landmark pairs "
            "(it needs at least two landmarks)",
            source,
        )
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
