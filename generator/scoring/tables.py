"""Boards and tile sets compiled to small integer arrays for the scoring kernels.

Vertex numbering inside one layout: trail ``t`` of the tile in slot ``s`` is ``6*s + t``;
landmark ``k`` is ``6*slots + k``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from generator.board import Board
from generator.errors import TrailwrightError
from generator.model import TileSet

MAX_LANDMARKS = 11  # 55 pairs fit in one 64-bit mask


@dataclass(frozen=True)
class BoardArrays:
    """A board as unsigned arrays for the kernel.

    Slot-to-slot join ``j`` meets side ``a_dir[j]`` of slot ``a_slot[j]`` with side
    ``b_dir[j]`` of slot ``b_slot[j]``. Landmark join ``k`` (numbered after them) meets side
    ``l_dir[k]`` of slot ``l_slot[k]`` with vertex ``l_vertex[k]``. ``same_ends`` rows
    ``(j, k)``, ``k < j``, are joins between the same two places (possible duplicate edges).
    Landmark pair ``p`` is landmarks ``pair_a[p]`` and ``pair_b[p]``.
    """

    slots: int
    landmarks: int
    a_slot: np.ndarray
    a_dir: np.ndarray
    b_slot: np.ndarray
    b_dir: np.ndarray
    l_slot: np.ndarray
    l_dir: np.ndarray
    l_vertex: np.ndarray
    same_ends: np.ndarray
    pair_a: np.ndarray
    pair_b: np.ndarray


def board_arrays(board: Board) -> BoardArrays:
    """Compile a board's joins into arrays."""
    if len(board.landmarks) > MAX_LANDMARKS:
        raise TrailwrightError(f"board {board.name!r} has {len(board.landmarks)} landmarks; at most {MAX_LANDMARKS}")
    n = len(board.slots)
    if 6 * n + len(board.landmarks) > 2**16:
        raise TrailwrightError(f"board {board.name!r} is too large ({n} slots)")
    between_slots = board.connections()
    to_landmarks = board.landmark_joins()
    places = [frozenset({("slot", j.a.slot), ("slot", j.b.slot)}) for j in between_slots] + [
        frozenset({("slot", j.a.slot), ("landmark", j.b.landmark)}) for j in to_landmarks
    ]
    same = [(j, k) for j in range(len(places)) for k in range(j) if places[j] == places[k]]
    pairs = board.landmark_pairs()
    u32 = lambda xs: np.asarray(xs, dtype=np.uint32)  # noqa: E731
    return BoardArrays(
        slots=n,
        landmarks=len(board.landmarks),
        a_slot=u32([j.a.slot for j in between_slots]),
        a_dir=u32([j.a.direction for j in between_slots]),
        b_slot=u32([j.b.slot for j in between_slots]),
        b_dir=u32([j.b.direction for j in between_slots]),
        l_slot=u32([j.a.slot for j in to_landmarks]),
        l_dir=u32([j.a.direction for j in to_landmarks]),
        l_vertex=u32([6 * n + j.b.landmark for j in to_landmarks]),
        same_ends=np.asarray(same, dtype=np.int64).reshape(-1, 2),
        pair_a=u32([a for a, _ in pairs]),
        pair_b=u32([b for _, b in pairs]),
    )


def side_table(sides) -> np.ndarray:
    """``table[rot, d]``: the trail index leaving through ``d`` once a side is turned ``rot``."""
    table = np.empty((6, 6), dtype=np.int8)
    for rot in range(6):
        for d in range(6):
            table[rot, d] = sides.trail_of((d - rot) % 6)
    return table


def tile_tables(tileset: TileSet) -> np.ndarray:
    """``table[tile, face, rot, d]`` for every tile; face 0 is the front, 1 the back."""
    return np.stack([np.stack([side_table(t.front), side_table(t.back)]) for t in tileset]).astype(np.int8)


def check_size(tileset: TileSet, board: Board, source: str | None = None) -> None:
    """A clear error when the tile set does not fill the board exactly."""
    if len(tileset) != board.tile_count:
        raise TrailwrightError(
            f"has {len(tileset)} tiles but board {board.name!r} has {board.tile_count} slots", source
        )
