"""Boards and tile sets compiled to small integer arrays for the scoring kernels.

Vertex numbering inside one layout: trail ``t`` of the tile in slot ``s`` is ``E*s + t``;
landmark ``k`` is ``E*slots + k``, where ``E`` is the number of ends a tile has (6 in the classic
game). A board's joins name tile edges; here each becomes one join per end of the edge, end ``p``
of the one side meeting end ``m - 1 - p`` of the other (its mirror end, ``m`` ends an edge).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from generator.board import Board, LandmarkEnd
from generator.errors import TrailwrightError
from generator.model import TileSet
from generator.model.geometry import CLASSIC, TileGeometry

MAX_LANDMARKS = 11  # 55 pairs fit in one 64-bit mask


@dataclass(frozen=True)
class BoardArrays:
    """A board as unsigned arrays for the kernel.

    An end is ``E*slot + end`` for an end of a slot's tile, or ``E*slots + m`` for landmark ``m``
    (``E = ends``: 6 in the classic game, with 6 rotations and 2 faces).
    Join ``j`` meets ends ``ends_a[j]`` and ``ends_b[j]``. The first ``attach`` joins each reach
    a place (a slot or a landmark) that no earlier join touches, at end ``b``: there, ``b``'s trail
    is still a tree of one vertex. The other joins follow in the board's order (slot by slot).
    Each row of ``same_ends`` holds the
    two ends of one join, the two ends of an earlier join between the same two places
    (together they may be a duplicate edge), and 1 if it is the last such row of that join,
    else 0: a join is a duplicate once if any of its rows match. Rows of a join are adjacent.
    Landmark pair ``p`` is ``pair_a[p]``, ``pair_b[p]``.
    """

    slots: int
    landmarks: int
    ends_a: np.ndarray
    ends_b: np.ndarray
    attach: int
    same_ends: np.ndarray
    pair_a: np.ndarray
    pair_b: np.ndarray
    ends: int = 6
    rotations: int = 6
    faces: int = 2

    @property
    def turns(self) -> int:
        """How many ways a tile can lie in a slot: a face and a rotation (``rotations * face + rot``)."""
        return self.faces * self.rotations


def board_arrays(board: Board) -> BoardArrays:
    """Compile a board's joins into arrays."""
    if len(board.landmarks) > MAX_LANDMARKS:
        raise TrailwrightError(
            f"{len(board.landmarks)} landmarks; at most {MAX_LANDMARKS} (the scorer tracks every "
            "pair of landmarks in one 64-bit mask)",
            board.label,
        )
    n = len(board.slots)
    g = board.geometry
    if g.ends * n + len(board.landmarks) > 2**16:
        raise TrailwrightError(f"too large ({n} slots)", board.label)

    def end(e, p: int) -> int:
        if isinstance(e, LandmarkEnd):
            return g.ends * n + e.landmark
        return g.ends * e.slot + g.end_at(e.direction, p)

    def place(e) -> tuple:
        return ("landmark", e.landmark) if isinstance(e, LandmarkEnd) else ("slot", e.slot)

    joins = [
        EndJoin(end(j.a, p), end(j.b, g.meeting(p)), place(j.a), place(j.b))
        for j in board.joins()
        for p in range(g.ends_per_edge)
    ]
    same = []
    between: dict[frozenset, list] = {}  # the joins so far between each two places (one place: itself)
    for j in joins:
        earlier = between.setdefault(frozenset((j.place_a, j.place_b)), [])
        last = len(earlier) - 1
        same += [(j.a, j.b, k.a, k.b, int(n == last)) for n, k in enumerate(earlier)]
        earlier.append(j)
    pairs = board.landmark_pairs()
    ordered, attach = attach_first([tuple(j) for j in joins])
    u16 = lambda xs: np.asarray(xs, dtype=np.uint16)  # noqa: E731
    return BoardArrays(
        slots=n,
        landmarks=len(board.landmarks),
        ends_a=u16([a for a, _ in ordered]),
        ends_b=u16([b for _, b in ordered]),
        attach=attach,
        same_ends=u16(same).reshape(-1, 5),
        pair_a=u16([a for a, _ in pairs]),
        pair_b=u16([b for _, b in pairs]),
        ends=g.ends,
        rotations=g.rotations,
        faces=g.faces,
    )


class EndJoin(NamedTuple):
    """One join of two ends (numbered as in ``BoardArrays``) and the places they belong to."""

    a: int
    b: int
    place_a: tuple
    place_b: tuple


def attach_first(joins: list[tuple]) -> tuple[list[tuple[int, int]], int]:
    """Joins ``(end_a, end_b, place_a, place_b)`` as end pairs: first those that reach an untouched place.

    Going through the joins in order, a join whose place at one end no earlier join touched
    (and which joins two places) is put first, turned so that this end is ``b``; the rest keep
    their order. Returns the pairs and how many come first. Moving those forward keeps each one's
    place untouched before it, since only the joins before it in the board's order come earlier.
    """
    seen: set = set()
    first, rest = [], []
    for a, b, place_a, place_b in joins:
        if place_a != place_b and place_b not in seen:
            first.append((a, b))
        elif place_a != place_b and place_a not in seen:
            first.append((b, a))
        else:
            rest.append((a, b))
        seen |= {place_a, place_b}
    return first + rest, len(first)


def turned(geometry: TileGeometry = CLASSIC) -> np.ndarray:
    """``[rot, end]``: the unturned end that shows at ``end`` once a side is turned ``rot`` edges."""
    ends, step = geometry.ends, geometry.ends_per_edge
    return (np.arange(ends)[None, :] - step * np.arange(geometry.rotations)[:, None]) % ends


TURNED = turned()  # [rot, d]: the unturned direction at d (the classic game)


def side_table(sides) -> np.ndarray:
    """``table[rot, d]``: the trail index leaving through ``d`` once a side is turned ``rot``."""
    g = sides.geometry
    return np.array([sides.trail_of(d) for d in range(g.ends)], dtype=np.int8)[turned(g)]


def tile_tables(tileset: TileSet) -> np.ndarray:
    """``table[tile, face, rot, d]`` for every tile; face 0 is the front, 1 the back (one face when single-sided)."""
    g = tileset.geometry
    faces = (lambda t: (t.front, t.back)) if g.faces == 2 else (lambda t: (t.front,))
    trails = [[side.trail_of(d) for d in range(g.ends)] for t in tileset for side in faces(t)]
    return np.array(trails, dtype=np.int8).reshape(len(tileset), g.faces, g.ends)[:, :, turned(g)]


def check_size(tileset: TileSet, board: Board, source: str | None = None) -> None:
    """A clear error when the tile set does not fill the board exactly, or has other tiles than the board's."""
    if tileset.geometry != board.geometry:
        raise TrailwrightError(
            f"has {tileset.geometry} but {board.label} takes {board.geometry}", source or tileset.source
        )
    if len(tileset) != board.tile_count:
        raise TrailwrightError(
            f"has {len(tileset)} tiles but {board.label} has {board.tile_count} slots", source or tileset.source
        )
