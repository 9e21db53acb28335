"""The search space: a tile set as a design number for each face of each tile.

The score of a tile set does not depend on how each side is turned, which face is called the
front, or the order of the tiles (layouts flip, turn and shuffle them uniformly), so the search
works on designs. Each tile geometry has its own designs (``generator.model.designs``), held with
their turn tables in a ``Space``: the classic game's 43 (39 with at most 4 trails), square/1/any's
7, Tsuro's 35, hex/2/pairs' 1,799. A candidate is ``Classes``: a row per tile, a design number per
face (one column on single-sided tiles).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from generator.board import Board
from generator.errors import TrailwrightError
from generator.model import Side, Tile, TileSet
from generator.model.designs import designs
from generator.model.geometry import CLASSIC, TileGeometry
from generator.scoring.objective import Objective
from generator.scoring.tables import side_table


class SettingError(TrailwrightError):
    """A bad setting of a run, naming the setting (``pinned``, ``budget``, ...); the CLI names its flag."""

    def __init__(self, setting: str, message: str):
        self.setting, self.detail = setting, message
        super().__init__(f"{setting}: {message}")


Classes = np.ndarray  # int16[tiles, faces]: the design number of each face of each tile
MAX_DESIGNS = 20_000  # design tables held in memory: hex/2/pairs has 1,799, square/2/any 1,084


class Space:
    """The designs of one tile geometry, their turn tables and what the static terms read of them."""

    def __init__(self, geometry: TileGeometry):
        self.geometry = geometry
        self.designs: tuple[Side, ...] = designs(geometry)
        if len(self.designs) > MAX_DESIGNS:
            raise TrailwrightError(f"{len(self.designs):,} designs: the search holds at most {MAX_DESIGNS:,}")
        self.index = {side: i for i, side in enumerate(self.designs)}
        self.tables = np.stack([side_table(side) for side in self.designs]).astype(np.int8)  # [design, rot, end]
        self.needs_bridge = np.array([side.needs_bridge for side in self.designs], dtype=np.int64)
        self.one_trail = np.array([side.fully_connected for side in self.designs], dtype=bool)
        # a cache key holds a design number in one byte while they fit, else two
        self.key_dtype = np.dtype(np.int8 if len(self.designs) <= 127 else np.int16)

    def __reduce__(self):  # a Dask task carries the geometry; each process builds its space once
        return space_of, (self.geometry,)

    @property
    def faces(self) -> int:
        return self.geometry.faces

    def design_of(self, side: Side) -> int:
        """The design number of a side."""
        return self.index[side.canonical]

    def faces_of(self, tile: Tile) -> tuple[Side, ...]:
        """The sides of a tile the search designs: front and back, or the front alone when single-sided."""
        return (tile.front, tile.back)[: self.faces]

    def tile(self, tile_id: str, sides) -> Tile:
        """A tile of these sides (one per face)."""
        return Tile(tile_id, sides[0], sides[-1])

    def classes_of(self, tiles: TileSet) -> Classes:
        """A tile set as designs: a row per tile, each face's design number."""
        return np.array([[self.design_of(s) for s in self.faces_of(t)] for t in tiles], dtype=np.int16)

    def key(self, classes: Classes) -> bytes:
        """The cache key: equal for sets equal up to turns, flips and tile order (like ``TileSet.key``)."""
        pairs = np.sort(classes, axis=1)
        order = np.lexsort(pairs.T[::-1])
        return pairs[order].astype(self.key_dtype).tobytes()

    def key_chars(self, tiles: int) -> int:
        """The length of a key of ``tiles`` tiles written in hex (a checkpoint's cache)."""
        return 2 * self.key_dtype.itemsize * self.faces * tiles

    def static_counts(self, classes: Classes) -> tuple[int, int, int]:
        """(bridge sides, dupScore, fully connected tiles) of a set of designs."""
        bridges = int(self.needs_bridge[classes].sum())
        dup = int((np.bincount(classes.ravel(), minlength=len(self.designs)) ** 2).sum())
        fully = int(self.one_trail[classes].any(axis=1).sum())
        return bridges, dup, fully


@cache
def space_of(geometry: TileGeometry) -> Space:
    """The search space of ``geometry`` (built once per process)."""
    return Space(geometry)


CLASSIC_SPACE = space_of(CLASSIC)
# the classic game's, by their long-standing names
DESIGNS: tuple[Side, ...] = CLASSIC_SPACE.designs
DESIGN_INDEX = CLASSIC_SPACE.index
DESIGN_TABLES = CLASSIC_SPACE.tables  # [design, rot, dir]
NEEDS_BRIDGE = CLASSIC_SPACE.needs_bridge
ONE_TRAIL = CLASSIC_SPACE.one_trail


def design_of(side: Side) -> int:
    """The design number of a side (of its own geometry's designs)."""
    return space_of(side.geometry).design_of(side)


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
    def space(self) -> Space:
        """The designs of the board's tile geometry."""
        return space_of(self.board.geometry)

    @property
    def faces(self) -> int:
        """The faces of a tile the search designs (columns of ``Classes``)."""
        return self.board.geometry.faces

    @property
    def free(self) -> tuple[int, ...]:
        """Indices of the tiles the search may change."""
        return tuple(t for t in range(self.tiles) if t not in self.pinned)


def allowed_designs(objective: Objective, geometry: TileGeometry = CLASSIC) -> tuple[int, ...]:
    """The design numbers of ``geometry`` the objective's rules allow."""
    allowed = tuple(i for i, side in enumerate(space_of(geometry).designs) if objective.allows(side))
    if len(allowed) < 2:
        raise TrailwrightError("the objective's forbid and max_trails leave fewer than two designs to choose from")
    return allowed


def random_tileset(
    count: int, allowed: tuple[int, ...], rng: np.random.Generator, geometry: TileGeometry = CLASSIC
) -> TileSet:
    """``count`` tiles with designs of ``geometry`` drawn uniformly from ``allowed``, numbered "1", "2", ..."""
    space = space_of(geometry)
    picks = rng.choice(np.asarray(allowed), size=(count, space.faces))
    d = space.designs
    return TileSet(tuple(space.tile(str(t + 1), [d[a] for a in row]) for t, row in enumerate(picks)))


def make_problem(board: Board, objective: Objective, start: TileSet, pinned: tuple[str, ...] = ()) -> Problem:
    """Check the start against the board and the rules, and name the pinned tiles (``pinned`` and the
    objective's) by index."""
    if len(start) != board.tile_count:
        raise TrailwrightError(
            f"has {len(start)} tiles but {board.label} has {board.tile_count} slots", start.source or "the start"
        )
    if start.geometry != board.geometry:
        raise TrailwrightError(
            f"is a tile set of {start.geometry}, but {board.label} has {board.geometry}", start.source or "the start"
        )
    ids = [t.id for t in start]
    index = []
    for tile_id in dict.fromkeys((*pinned, *objective.pinned)):
        if tile_id not in ids:
            raise SettingError("pinned", f"{tile_id!r}: no tile with that id (ids: {', '.join(ids)})")
        index.append(ids.index(tile_id))
    objective = objective.on(board)
    allowed = allowed_designs(objective, board.geometry)
    space = space_of(board.geometry)
    for t, tile in enumerate(start):
        for face, side in zip(("front", "back"), space.faces_of(tile), strict=False):
            if not objective.allows(side) and t in index:
                raise TrailwrightError(f"pinned tile {tile.id!r} {face} ({side}) breaks the objective's rules")
    return Problem(board, objective, start, tuple(sorted(set(index))), allowed)


def classes_of(tiles: TileSet) -> Classes:
    """A tile set as designs: a row per tile, each face's design number (front and back on double-sided tiles)."""
    return space_of(tiles.geometry).classes_of(tiles)


def start_classes(problem: Problem, rng: np.random.Generator) -> Classes:
    """The start as designs; a free side that breaks the rules is replaced by an allowed one."""
    classes = problem.space.classes_of(problem.start)
    allowed = set(problem.allowed)
    for t in problem.free:
        for f in range(problem.faces):
            if int(classes[t, f]) not in allowed:
                classes[t, f] = rng.choice(problem.allowed)
    return classes


def key(classes: Classes, space: Space = CLASSIC_SPACE) -> bytes:
    """The cache key of ``classes`` (``Space.key``)."""
    return space.key(classes)


def to_tileset(problem: Problem, classes: Classes) -> TileSet:
    """The tile set: each side as drawn in the start when its design is unchanged, else canonical."""
    space = problem.space
    tiles = []
    for t, tile in enumerate(problem.start):
        sides = []
        for f, side in enumerate(space.faces_of(tile)):
            design = int(classes[t, f])
            sides.append(side if space.design_of(side) == design else space.designs[design])
        tiles.append(space.tile(tile.id, sides))
    return TileSet(tuple(tiles))


def static_counts(classes: Classes, space: Space = CLASSIC_SPACE) -> tuple[int, int, int]:
    """(bridge sides, dupScore, fully connected tiles) of a set of designs (``Space.static_counts``)."""
    return space.static_counts(classes)
