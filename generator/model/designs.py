"""Every side and every design of a geometry, by brute force over partitions or perfect matchings.

A side of ``trails = "any"`` is a set partition of the ends (Bell numbers: 15 for 4 ends, 203 for 6,
4,140 for 8); one of ``"pairs"`` is a perfect matching (``(2k - 1)!!``: 105 for 8 ends, 10,395 for
12). A design is a side up to rotation; ``designs`` lists their canonical forms, sorted.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from math import prod

from generator.errors import TrailwrightError
from generator.model.geometry import TileGeometry
from generator.model.tiles import Side

MOST_SIDES = 20_000  # sides listed in memory: hex/2/pairs has 10,395, square/2/any 4,140, hex/2/any 4,213,597


def bell(n: int) -> int:
    """How many partitions a set of ``n`` ends has (the Bell number; the Bell triangle)."""
    row = [1]
    for _ in range(n - 1):
        nxt = [row[-1]]
        for value in row:
            nxt.append(nxt[-1] + value)
        row = nxt
    return row[-1]


def side_count(geometry: TileGeometry) -> int:
    """How many sides ``geometry`` has, counted without listing them: partitions or perfect matchings."""
    if geometry.trails == "any":
        return bell(geometry.ends)
    return prod(range(geometry.ends - 1, 0, -2))  # (ends - 1)!!


def partitions(items: list[int]) -> Iterator[list[list[int]]]:
    """Every partition of ``items`` into non-empty blocks."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for p in partitions(rest):
        yield [[first]] + p
        for i in range(len(p)):
            yield p[:i] + [[first] + p[i]] + p[i + 1 :]


def matchings(items: list[int]) -> Iterator[list[list[int]]]:
    """Every perfect matching of ``items`` (an even number of them) into pairs."""
    if not items:
        yield []
        return
    first = items[0]
    for k in range(1, len(items)):
        rest = items[1:k] + items[k + 1 :]
        for m in matchings(rest):
            yield [[first, items[k]]] + m


@cache
def sides(geometry: TileGeometry) -> tuple[Side, ...]:
    """Every side of ``geometry``, sorted; past ``MOST_SIDES`` a one-line refusal (listing them would not end)."""
    count = side_count(geometry)
    if count > MOST_SIDES:
        raise TrailwrightError(
            f"tiles: {geometry}: {count:,} possible sides, too many to list (at most {MOST_SIDES:,}): searching, "
            "numbering or sampling designs needs the list. Use paired trails or one end an edge, or bring your "
            "own tile set: score, render, preview, publish and playtest take it"
        )
    split = matchings if geometry.trails == "pairs" else partitions
    return tuple(sorted(Side.of(p, geometry) for p in split(list(range(geometry.ends)))))


@cache
def designs(geometry: TileGeometry) -> tuple[Side, ...]:
    """Every design of ``geometry`` as its canonical side, sorted."""
    return tuple(sorted({side.canonical for side in sides(geometry)}))
