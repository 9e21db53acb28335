"""Hex tiles as plain immutable values.

Glossary
--------
direction  one of the six edges of a flat-topped hexagon, clockwise from the top:
           N NE SE S SW NW, stored as the ints 0..5.
trail      a sorted tuple of directions joined on a tile side. A one-direction trail is a
           dead-end stub. Every direction of a side belongs to exactly one trail.
side       a partition of the six directions into trails (one face of a tile).
design     a side up to rotation: two sides are the same design when one is a rotation of
           the other. Mirror images differ, since a printed tile cannot be mirrored.
canonical  the smallest of the six rotations of a side (the article's ``normalize``).
cross      two trails cross when their exits interleave around the hexagon (a, b, a, b).
tile       an id with a front and a back side.
tile set   the tiles of one game, with unique ids.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations

from generator.errors import TrailwrightError

DIRECTIONS = ("N", "NE", "SE", "S", "SW", "NW")
N, NE, SE, S, SW, NW = range(6)
DIRECTION_INDEX = {name: i for i, name in enumerate(DIRECTIONS)}
FACES = ("front", "back")

Direction = int
Trail = tuple[Direction, ...]


def opposite(d: Direction) -> Direction:
    """The direction facing ``d`` across a shared edge."""
    return (d + 3) % 6


def mirror(d: Direction) -> Direction:
    """The direction ``d`` seen from the other face after a flip about the vertical axis."""
    return (6 - d) % 6


def _blocks(a: Trail, b: Trail) -> int:
    """How many runs of ``a``'s exits alternate with runs of ``b``'s around the hexagon."""
    labels = [0 if d in a else 1 for d in range(6) if d in a or d in b]
    changes = sum(labels[i] != labels[i - 1] for i in range(len(labels)))
    return changes // 2


def trails_cross(a: Trail, b: Trail) -> bool:
    """Whether two disjoint trails interleave (a, b, a, b clockwise) and so must cross."""
    return _blocks(a, b) >= 2


def pair_crossings(a: Trail, b: Trail) -> int:
    """The fewest crossings a drawing of two disjoint trails inside a hexagon needs."""
    return max(_blocks(a, b) - 1, 0)


def _article_conflicts(t1: Trail, t2: Trail) -> bool:
    """The article's ``conflicts``: each trail has an exit strictly inside the other's span."""
    return any(min(t1) < d < max(t1) for d in t2) and any(min(t2) < d < max(t2) for d in t1)


@dataclass(frozen=True, order=True)
class Side:
    """One face of a tile: a partition of the six directions into trails, sorted."""

    trails: tuple[Trail, ...]

    @classmethod
    def of(cls, trails: Iterable[Iterable[Direction]]) -> Side:
        """A side from any iterables of direction ints, checked and sorted."""
        sorted_trails = tuple(sorted(tuple(sorted(t)) for t in trails))
        flat = [d for t in sorted_trails for d in t]
        if not sorted_trails or any(not t for t in sorted_trails):
            raise TrailwrightError("a side needs six directions in non-empty trails")
        for d in flat:
            if not isinstance(d, int) or not 0 <= d < 6:
                raise TrailwrightError(f"direction {d!r} is not one of 0..5")
        repeated = sorted({DIRECTIONS[d] for d in flat if flat.count(d) > 1}, key=DIRECTION_INDEX.__getitem__)
        if repeated:
            raise TrailwrightError(f"direction {', '.join(repeated)} repeated")
        missing = [DIRECTIONS[d] for d in range(6) if d not in flat]
        if missing:
            raise TrailwrightError(f"direction {', '.join(missing)} missing")
        return cls(sorted_trails)

    @classmethod
    def from_names(cls, trails: Sequence[Sequence[str]]) -> Side:
        """A side from direction names, e.g. ``[["N", "S"], ["NE"], ...]``."""
        if not isinstance(trails, (list, tuple)) or not trails:
            raise TrailwrightError("a side must be a non-empty list of trails")
        parsed = []
        for trail in trails:
            if not isinstance(trail, (list, tuple)):
                raise TrailwrightError(f"trail {trail!r} must be a list of direction names")
            if not trail:
                raise TrailwrightError("empty trail")
            for name in trail:
                if not isinstance(name, str) or name not in DIRECTION_INDEX:
                    raise TrailwrightError(f"unknown direction {name!r} (expected one of {' '.join(DIRECTIONS)})")
            parsed.append([DIRECTION_INDEX[name] for name in trail])
        return cls.of(parsed)

    def names(self) -> list[list[str]]:
        """The trails as lists of direction names, for JSON."""
        return [[DIRECTIONS[d] for d in t] for t in self.trails]

    def __str__(self) -> str:
        return " | ".join("-".join(DIRECTIONS[d] for d in t) for t in self.trails)

    def rotated(self, steps: int = 1) -> Side:
        """This side turned clockwise by ``steps`` sixths of a turn."""
        return Side.of(((d + steps) % 6 for d in t) for t in self.trails)

    def mirrored(self) -> Side:
        """The mirror image about the vertical axis (a different design, in general)."""
        return Side.of((mirror(d) for d in t) for t in self.trails)

    @cached_property
    def canonical(self) -> Side:
        """The smallest of the six rotations: equal for sides of the same design."""
        return min(self.rotated(k) for k in range(6))

    def same_design(self, other: Side) -> bool:
        """Whether ``other`` is a rotation of this side."""
        return self.canonical == other.canonical

    def trail_of(self, d: Direction) -> int:
        """The index of the trail that leaves through direction ``d``."""
        for i, t in enumerate(self.trails):
            if d in t:
                return i
        raise ValueError(d)  # unreachable for a valid side

    @property
    def stubs(self) -> tuple[Trail, ...]:
        """The dead-end trails (one exit each)."""
        return tuple(t for t in self.trails if len(t) == 1)

    @property
    def needs_bridge(self) -> bool:
        """The article's ``needsBridge``: some two trails of this side cross."""
        return any(_article_conflicts(a, b) for a, b in combinations(self.trails, 2))

    @property
    def crossing_pairs(self) -> tuple[tuple[int, int], ...]:
        """Index pairs of trails that cross."""
        return tuple((i, j) for (i, a), (j, b) in combinations(enumerate(self.trails), 2) if trails_cross(a, b))

    @property
    def min_crossings(self) -> int:
        """The fewest bridges a drawing of this side needs (summed over pairs of trails)."""
        return sum(pair_crossings(a, b) for a, b in combinations(self.trails, 2))

    @property
    def fully_connected(self) -> bool:
        """Whether the side is a single six-exit trail (the article's banned design)."""
        return len(self.trails) == 1


@dataclass(frozen=True)
class Tile:
    """A double-sided tile."""

    id: str
    front: Side
    back: Side

    def face(self, name: str) -> Side:
        """The side called ``"front"`` or ``"back"``."""
        return {"front": self.front, "back": self.back}[name]

    def flipped(self) -> Tile:
        """The tile turned over: the back shows."""
        return Tile(self.id, self.back, self.front)

    def rotated(self, steps: int = 1) -> Tile:
        """The tile turned clockwise as seen from the front (the back turns the other way)."""
        return Tile(self.id, self.front.rotated(steps), self.back.rotated(-steps))

    def canonical(self) -> Tile:
        """Both sides in canonical form."""
        return Tile(self.id, self.front.canonical, self.back.canonical)


@dataclass(frozen=True)
class TileSet:
    """The tiles of a game, in order, with unique ids."""

    tiles: tuple[Tile, ...]
    source: str = field(default="", compare=False, repr=False)  # the file as the user named it; not identity

    def __post_init__(self):
        seen = set()
        for tile in self.tiles:
            if tile.id in seen:
                raise TrailwrightError(f"duplicate tile id {tile.id!r}")
            seen.add(tile.id)

    def __len__(self) -> int:
        return len(self.tiles)

    def __iter__(self):
        return iter(self.tiles)

    def sides(self) -> list[Side]:
        """All fronts, then all backs (the article's order)."""
        return [t.front for t in self.tiles] + [t.back for t in self.tiles]

    def design_counts(self) -> Counter:
        """How many of the sides show each design (keyed by canonical side)."""
        return Counter(side.canonical for side in self.sides())

    @property
    def bridges(self) -> int:
        """The article's ``numBridges``: sides whose trails cross."""
        return sum(side.needs_bridge for side in self.sides())

    @property
    def crossings(self) -> int:
        """Bridges drawn over the whole set (minimum crossings summed over sides)."""
        return sum(side.min_crossings for side in self.sides())

    @property
    def dup_score(self) -> int:
        """The article's ``dupScore``: the sum over designs of (copies) squared."""
        return sum(c * c for c in self.design_counts().values())

    @property
    def fully_connected(self) -> int:
        """The article's ``numFullyConnected``: tiles with a one-trail side."""
        return sum(t.front.fully_connected or t.back.fully_connected for t in self.tiles)

    def canonical(self) -> TileSet:
        """Every side in canonical form."""
        return TileSet(tuple(t.canonical() for t in self.tiles))

    def key(self) -> tuple:
        """A hashable key, equal for sets that differ only in rotations, flips and tile order."""
        return tuple(sorted(tuple(sorted((t.front.canonical.trails, t.back.canonical.trails))) for t in self.tiles))
