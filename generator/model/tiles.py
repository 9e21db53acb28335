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
from generator.model.crossings import side_crossings
from generator.model.geometry import CLASSIC, TileGeometry

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
    """How many runs of ``a``'s exits alternate with runs of ``b``'s around the tile.

    Ends are numbered in their clockwise order round the tile (on every geometry), so the runs
    are read off the sorted ends of the two trails.
    """
    labels = [0 if d in a else 1 for d in sorted((*a, *b))]
    changes = sum(labels[i] != labels[i - 1] for i in range(len(labels)))
    return changes // 2


def trails_cross(a: Trail, b: Trail) -> bool:
    """Whether two disjoint trails interleave (a, b, a, b clockwise) and so must cross."""
    return _blocks(a, b) >= 2


def pair_crossings(a: Trail, b: Trail) -> int:
    """The fewest crossings a drawing of two disjoint trails inside a convex tile needs.

    Runs of ``k`` blocks each (a, b, a, b, ... round the outline) need ``k - 1`` crossings; two
    paired trails (chords) cross once exactly when their ends interleave.
    """
    return max(_blocks(a, b) - 1, 0)


def _article_conflicts(t1: Trail, t2: Trail) -> bool:
    """The article's ``conflicts``: each trail has an exit strictly inside the other's span."""
    return any(min(t1) < d < max(t1) for d in t2) and any(min(t2) < d < max(t2) for d in t1)


def _end_words(geometry: TileGeometry) -> tuple[str, str]:
    """How errors name an end and its plural (``TileGeometry.end_word``): "direction" and "six directions" on the
    classic game, "end" and "8 ends" on a square of two ends an edge."""
    word = geometry.end_word
    return word, ("six directions" if geometry.is_classic else f"{geometry.ends} {word}s")


@dataclass(frozen=True, order=True)
class Side:
    """One face of a tile: a partition of the tile's ends into trails, sorted.

    The ends are those of ``geometry`` (the classic game's six directions unless told); with
    ``trails = "pairs"`` every trail joins exactly two ends.
    """

    trails: tuple[Trail, ...]
    geometry: TileGeometry = CLASSIC

    @classmethod
    def of(cls, trails: Iterable[Iterable[Direction]], geometry: TileGeometry = CLASSIC) -> Side:
        """A side from any iterables of end ints, checked and sorted."""
        sorted_trails = tuple(sorted(tuple(sorted(t)) for t in trails))
        flat = [d for t in sorted_trails for d in t]
        ends = geometry.ends
        if not sorted_trails or any(not t for t in sorted_trails):
            raise TrailwrightError(f"a side needs {_end_words(geometry)[1]} in non-empty trails")
        for d in flat:
            if not isinstance(d, int) or not 0 <= d < ends:
                raise TrailwrightError(f"{_end_words(geometry)[0]} {d!r} is not one of 0..{ends - 1}")
        if len(flat) != ends or len(set(flat)) != ends:
            word, names = _end_words(geometry)[0], geometry.end_names
            repeated = sorted({d for d in flat if flat.count(d) > 1})
            if repeated:
                raise TrailwrightError(f"{word} {', '.join(names[d] for d in repeated)} repeated")
            missing = [names[d] for d in range(ends) if d not in flat]
            raise TrailwrightError(f"{word} {', '.join(missing)} missing")
        if geometry.trails == "pairs":
            odd = next((t for t in sorted_trails if len(t) != 2), None)
            if odd is not None:
                trail = "-".join(geometry.end_names[d] for d in odd)
                has = "one end" if len(odd) == 1 else f"{len(odd)} ends"
                raise TrailwrightError(f"trail {trail} has {has}; on these tiles every trail joins two ends")
        return cls(sorted_trails, geometry)

    @classmethod
    def _unchecked(cls, trails: Iterable[Iterable[Direction]], geometry: TileGeometry) -> Side:
        """A side from the ends of a valid side moved one to one (turned or mirrored): sorted, not checked."""
        return cls(tuple(sorted(tuple(sorted(t)) for t in trails)), geometry)

    @classmethod
    def from_names(cls, trails: Sequence[Sequence[str]], geometry: TileGeometry = CLASSIC) -> Side:
        """A side from end names, e.g. ``[["N", "S"], ["NE"], ...]`` (``N1``, ``N2``, ... with two ends an edge)."""
        word, _ = _end_words(geometry)
        index = {name: i for i, name in enumerate(geometry.end_names)}
        if not isinstance(trails, (list, tuple)) or not trails:
            raise TrailwrightError("a side must be a non-empty list of trails")
        parsed = []
        for trail in trails:
            if not isinstance(trail, (list, tuple)):
                raise TrailwrightError(f"trail {trail!r} must be a list of {word} names")
            if not trail:
                raise TrailwrightError("empty trail")
            for name in trail:
                if not isinstance(name, str) or name not in index:
                    raise TrailwrightError(f"unknown {word} {name!r} (expected one of {' '.join(geometry.end_names)})")
            parsed.append([index[name] for name in trail])
        return cls.of(parsed, geometry)

    def names(self) -> list[list[str]]:
        """The trails as lists of end names, for JSON."""
        names = self.geometry.end_names
        return [[names[d] for d in t] for t in self.trails]

    def __str__(self) -> str:
        names = self.geometry.end_names
        return " | ".join("-".join(names[d] for d in t) for t in self.trails)

    def rotated(self, steps: int = 1) -> Side:
        """This side turned clockwise by ``steps`` edges (sixths of a turn on a hexagon)."""
        g = self.geometry
        return Side._unchecked(((g.turned(d, steps) for d in t) for t in self.trails), g)

    def mirrored(self) -> Side:
        """The mirror image about the vertical axis (a different design, in general)."""
        g = self.geometry
        return Side._unchecked(((g.mirror_end(d) for d in t) for t in self.trails), g)

    @cached_property
    def canonical(self) -> Side:
        """The smallest of the tile's rotations: equal for sides of the same design."""
        return min(self.rotated(k) for k in range(self.geometry.rotations))

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

    @cached_property
    def min_crossings(self) -> int:
        """The fewest bridges a drawing of this side needs: the sum over pairs of trails, raised where trails
        that branch cannot suit every neighbour at once (``generator.model.crossings``)."""
        return side_crossings(self.trails)

    @property
    def fully_connected(self) -> bool:
        """Whether the side is a single trail through every end (the article's banned design)."""
        return len(self.trails) == 1


@dataclass(frozen=True)
class Tile:
    """A tile. A single-sided tile (``faces = 1``) has its front as its back: it is never flipped."""

    id: str
    front: Side
    back: Side

    @classmethod
    def single(cls, tile_id: str, front: Side) -> Tile:
        """A single-sided tile."""
        return cls(tile_id, front, front)

    @property
    def geometry(self) -> TileGeometry:
        """The tile's geometry (its front's)."""
        return self.front.geometry

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
        mixed = next((t for t in self.tiles for s in (t.front, t.back) if s.geometry != self.geometry), None)
        if mixed is not None:
            raise TrailwrightError(f"tile {mixed.id!r} has a side of another geometry than the set's ({self.geometry})")
        if self.geometry.faces == 1:
            two = next((t for t in self.tiles if t.back != t.front), None)
            if two is not None:
                raise TrailwrightError(f"tile {two.id!r} has two different faces, but these tiles are single-sided")

    @property
    def geometry(self) -> TileGeometry:
        """The geometry every side of the set shares (the classic game's for an empty set)."""
        return self.tiles[0].geometry if self.tiles else CLASSIC

    def __len__(self) -> int:
        return len(self.tiles)

    def __iter__(self):
        return iter(self.tiles)

    def sides(self) -> list[Side]:
        """All fronts, then all backs (the article's order); only the fronts of single-sided tiles."""
        backs = [t.back for t in self.tiles] if self.geometry.faces == 2 else []
        return [t.front for t in self.tiles] + backs

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
