"""The search space: a tile set as a design number for each face of each tile.

The score of a tile set does not depend on how each side is turned, which face is called the
front, or the order of the tiles (layouts flip, turn and shuffle them uniformly), so the search
works on designs. A side with at most 4 trails is one of 39 designs, 43 without that limit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from generator.board import Board
from generator.errors import TrailwrightError
from generator.model import Side, Tile, TileSet
from generator.scoring.objective import Objective
from generator.scoring.tables import side_table


class SettingError(TrailwrightError):
    """A bad setting of a run, naming the setting (``pinned``, ``budget``, ...); the CLI names its flag."""

    def __init__(self, setting: str, message: str):
        self.setting, self.detail = setting, message
        super().__init__(f"{setting}: {message}")


Classes = np.ndarray  # int16[tiles, 2]: the design number of each face of each tile


def _partitions(items: list[int]):
    """Every partition of ``items`` into non-empty blocks."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for p in _partitions(rest):
        yield [[first]] + p
        for i in range(len(p)):
            yield p[:i] + [[first] + p[i]] + p[i + 1 :]


DESIGNS: tuple[Side, ...] = tuple(sorted({Side.of(p).canonical for p in _partitions(list(range(6)))}))
DESIGN_INDEX = {side: i for i, side in enumerate(DESIGNS)}
DESIGN_TABLES = np.stack([side_table(side) for side in DESIGNS]).astype(np.int8)  # [design, rot, dir]
NEEDS_BRIDGE = np.array([side.needs_bridge for side in DESIGNS], dtype=np.int64)
ONE_TRAIL = np.array([side.fully_connected for side in DESIGNS], dtype=bool)


def design_of(side: Side) -> int:
    """The design number of a side."""
    return DESIGN_INDEX[side.canonical]


@dataclass(frozen=True)
class Problem:
    """What one optimisation searches: the board, the objective, the tiles kept and the start."""

    board: Board
    objective: Objective
    start: TileSet  # the --init tile set, or a random one
    pinned: tuple[int, ...]  # indices of tiles that never change
    allowed: tuple[int, ...]  # design numbers a move may choose

    @property
    def tiles(self) -> int:
        return len(self.start)

    @property
    def free(self) -> tuple[int, ...]:
        """Indices of the tiles the search may change."""
        return tuple(t for t in range(self.tiles) if t not in self.pinned)


def allowed_designs(objective: Objective) -> tuple[int, ...]:
    """The design numbers the objective's rules allow."""
    allowed = tuple(i for i, side in enumerate(DESIGNS) if objective.allows(side))
    if len(allowed) < 2:
        raise TrailwrightError("the objective's forbid and max_trails leave fewer than two designs to choose from")
    return allowed


def random_tileset(count: int, allowed: tuple[int, ...], rng: np.random.Generator) -> TileSet:
    """``count`` tiles with designs drawn uniformly from ``allowed``, numbered "1", "2", ..."""
    picks = rng.choice(np.asarray(allowed), size=(count, 2))
    return TileSet(tuple(Tile(str(t + 1), DESIGNS[a], DESIGNS[b]) for t, (a, b) in enumerate(picks)))


def make_problem(board: Board, objective: Objective, start: TileSet, pinned: tuple[str, ...] = ()) -> Problem:
    """Check the start against the board and the rules, and name the pinned tiles (``pinned`` and the
    objective's) by index."""
    if len(start) != board.tile_count:
        raise TrailwrightError(
            f"has {len(start)} tiles but {board.label} has {board.tile_count} slots", start.source or "the start"
        )
    ids = [t.id for t in start]
    index = []
    for tile_id in dict.fromkeys((*pinned, *objective.pinned)):
        if tile_id not in ids:
            raise SettingError("pinned", f"{tile_id!r}: no tile with that id (ids: {', '.join(ids)})")
        index.append(ids.index(tile_id))
    allowed = allowed_designs(objective)
    for t, tile in enumerate(start):
        for face, side in (("front", tile.front), ("back", tile.back)):
            if not objective.allows(side) and t in index:
                raise TrailwrightError(f"pinned tile {tile.id!r} {face} ({side}) breaks the objective's rules")
    return Problem(board, objective.on(board), start, tuple(sorted(set(index))), allowed)


def classes_of(tiles: TileSet) -> Classes:
    """A tile set as designs: a row per tile, its front's and back's design numbers."""
    return np.array([[design_of(t.front), design_of(t.back)] for t in tiles], dtype=np.int16)


def start_classes(problem: Problem, rng: np.random.Generator) -> Classes:
    """The start as designs; a free side that breaks the rules is replaced by an allowed one."""
    classes = classes_of(problem.start)
    allowed = set(problem.allowed)
    for t in problem.free:
        for f in range(2):
            if int(classes[t, f]) not in allowed:
                classes[t, f] = rng.choice(problem.allowed)
    return classes


def key(classes: Classes) -> bytes:
    """The cache key: equal for sets equal up to turns, flips and tile order (like ``TileSet.key``)."""
    pairs = np.sort(classes, axis=1)
    order = np.lexsort((pairs[:, 1], pairs[:, 0]))
    return pairs[order].astype(np.int8).tobytes()


def to_tileset(problem: Problem, classes: Classes) -> TileSet:
    """The tile set: each side as drawn in the start when its design is unchanged, else canonical."""
    tiles = []
    for t, tile in enumerate(problem.start):
        sides = []
        for f, side in enumerate((tile.front, tile.back)):
            sides.append(side if design_of(side) == int(classes[t, f]) else DESIGNS[int(classes[t, f])])
        tiles.append(Tile(tile.id, sides[0], sides[1]))
    return TileSet(tuple(tiles))


def static_counts(classes: Classes) -> tuple[int, int, int]:
    """(bridge sides, dupScore, fully connected tiles) of a set of designs."""
    bridges = int(NEEDS_BRIDGE[classes].sum())
    dup = int((np.bincount(classes.ravel(), minlength=len(DESIGNS)) ** 2).sum())
    fully = int(ONE_TRAIL[classes].any(axis=1).sum())
    return bridges, dup, fully
