"""Boards and tile sets compiled to small integer arrays for the scoring kernels.

Vertex numbering inside one layout: trail ``t`` of the tile in slot ``s`` is ``6*s + t``;
landmark ``k`` is ``6*slots + k``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from generator.board import Board, LandmarkEnd, SlotSide
from generator.errors import TrailwrightError
from generator.model import TileSet

MAX_LANDMARKS = 11  # 55 pairs fit in one 64-bit mask


@dataclass(frozen=True)
class BoardArrays:
    """A board as arrays: join ``j`` meets side ``a_dir[j]`` of slot ``a_slot[j]`` with
    side ``b_dir[j]`` of slot ``b_slot[j]``, or with landmark vertex ``b_fixed[j]`` (when >= 0)."""

    slots: int
    landmarks: int
    a_slot: np.ndarray
    a_dir: np.ndarray
    b_slot: np.ndarray
    b_dir: np.ndarray
    b_fixed: np.ndarray
    same_ends: np.ndarray  # rows (j, k), k < j: joins whose ends lie on the same two places
    pair_a: np.ndarray
    pair_b: np.ndarray


def board_arrays(board: Board) -> BoardArrays:
    """Compile a board's joins into arrays."""
    if len(board.landmarks) > MAX_LANDMARKS:
        raise TrailwrightError(f"board {board.name!r} has {len(board.landmarks)} landmarks; at most {MAX_LANDMARKS}")
    joins = board.joins()
    n = len(board.slots)
    a_slot, a_dir, b_slot, b_dir, b_fixed, places = [], [], [], [], [], []
    for j in joins:
        a_slot.append(j.a.slot)
        a_dir.append(j.a.direction)
        if isinstance(j.b, SlotSide):
            b_slot.append(j.b.slot)
            b_dir.append(j.b.direction)
            b_fixed.append(-1)
            places.append(frozenset({("slot", j.a.slot), ("slot", j.b.slot)}))
        else:
            assert isinstance(j.b, LandmarkEnd)
            b_slot.append(0)
            b_dir.append(0)
            b_fixed.append(6 * n + j.b.landmark)
            places.append(frozenset({("slot", j.a.slot), ("landmark", j.b.landmark)}))
    same = [(j, k) for j in range(len(joins)) for k in range(j) if places[j] == places[k]]
    pairs = board.landmark_pairs()
    as_array = lambda xs, dt=np.int32: np.asarray(xs, dtype=dt)  # noqa: E731
    return BoardArrays(
        slots=n,
        landmarks=len(board.landmarks),
        a_slot=as_array(a_slot),
        a_dir=as_array(a_dir),
        b_slot=as_array(b_slot),
        b_dir=as_array(b_dir),
        b_fixed=as_array(b_fixed),
        same_ends=np.asarray(same, dtype=np.int32).reshape(-1, 2),
        pair_a=as_array([6 * n + a for a, _ in pairs]),
        pair_b=as_array([6 * n + b for _, b in pairs]),
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
