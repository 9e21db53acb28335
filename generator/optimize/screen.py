"""The polish's screen by holes: every neighbour of a set judged at once, on each layout, over the moved tiles'
rotations (``scoring.holes``, on every geometry whose holes apply).

A neighbour changes one side (tile t's face f gets design d) or swaps two sides' designs. On a layout that
shows the changed face, its difference is the hole values of tile t with the new design and with the old one,
each the mean over the rotations t could lie at, so it varies far less than one turn's difference, and every
neighbour of every tile comes from the same twenty holes. A swap whose two faces both show is judged as the sum
of its two one-side differences (the two tiles' interaction is left out); the confirmation that follows scores
each candidate exactly, on fresh layouts, so the screen only has to rank.

The screen's layouts come in pieces of ``PIECE`` from their own seeds; a worker screens every ``parts``-th
piece and the pieces' sums are added in order, so the result is the same for any number of workers.
"""

from __future__ import annotations

import time

import numpy as np

from generator.jitcache import njit
from generator.model import TileSet
from generator.optimize.check import Neighbour, neighbours
from generator.optimize.space import Problem, classes_of
from generator.scoring import kernel
from generator.scoring.holes import Holes, exact_for, unavailable
from generator.scoring.layouts import derived_seed
from generator.scoring.tables import board_arrays

PIECE = 8_192  # layouts of one piece of a screen
ROWS = 256  # layouts filled at a time within a piece (the hole values of ROWS layouts are kept)


def applies(problem: Problem) -> bool:
    """Whether a screen by holes judges this problem: a fitness whose layout part is a mean of each layout's
    extra edges and joined pairs (no targeted pairs, no play) on a board where holes are exact, of tiles whose
    holes the tables hold (``holes.unavailable``)."""
    o = problem.objective
    if o.pair_targets or o.play is not None or unavailable(problem.board.geometry) is not None:
        return False
    return exact_for(board_arrays(problem.board))


def _moves(problem: Problem, classes: np.ndarray) -> tuple[list, tuple[np.ndarray, ...]]:
    """The neighbours in ``check.neighbours`` order, and them as arrays: ``single[t, f, d]`` numbers the one-side
    changes (-1: none), then each swap's tiles, faces and designs."""
    moves = list(neighbours(problem, classes))
    single = np.full((*classes.shape, len(problem.space.designs)), -1, dtype=np.int64)
    swaps = []
    for k, changes in enumerate(moves):
        if len(changes) == 1:
            ((t, f, d),) = changes
            single[t, f, d] = k
        else:
            (t, f, _), (u, g, _) = changes
            swaps.append((k, t, f, u, g, classes[t, f], classes[u, g]))
    table = np.array(swaps, dtype=np.int64).reshape(-1, 7)
    return moves, (single, table)


@njit(cache=True, nogil=True)
def _add(values, shown, count, classes, single, swaps, sums, squares):
    """Add each neighbour's difference on the first ``count`` layouts of ``values`` (and its square) to its sums.

    ``shown[i, t]``: the face tile t shows on layout i; ``swaps[j]``: (neighbour, t, f, u, g, design of t's f,
    design of u's g)."""
    tiles = values.shape[1]
    for i in range(count):
        for t in range(tiles):
            f = shown[i, t]
            before = values[i, t, classes[t, f]]
            for d in range(values.shape[2]):
                k = single[t, f, d]
                if k >= 0:
                    x = values[i, t, d] - before
                    sums[k] += x
                    squares[k] += x * x
        for j in range(swaps.shape[0]):
            k, t, f, u, g, dt, du = swaps[j]
            x = 0.0
            if shown[i, t] == f:
                x += values[i, t, du] - values[i, t, dt]
            if shown[i, u] == g:
                x += values[i, u, dt] - values[i, u, du]
            sums[k] += x
            squares[k] += x * x


def pieces(samples: int) -> list[int]:
    """The sizes of a screen's pieces."""
    return [min(PIECE, samples - start) for start in range(0, samples, PIECE)]


def screen_part(
    problem: Problem, tileset: TileSet, samples: int, seed: int, part: int, parts: int, until: float | None = None
):
    """One worker's share of a screen of ``samples`` layouts: [(piece, sums, squares)] for every ``parts``-th
    piece from the ``part``-th; None when the ``time.time()`` ``until`` passes first."""
    board, designs = board_arrays(problem.board), problem.space.tables
    holes = Holes(board, designs)
    classes = classes_of(tileset)
    moves, (single, swaps) = _moves(problem, classes)
    table = designs[classes]
    weights = (problem.objective.per_layout(1.0, 0.0), problem.objective.per_layout(0.0, 1.0))
    values = np.empty((ROWS, board.slots, len(designs)))
    out = []
    for piece, size in list(enumerate(pieces(samples)))[part::parts]:
        perm, flip, rot = kernel.board_layouts(board, size, derived_seed(seed, piece))
        bank = kernel.Bank(board, perm, flip, rot)
        slot_of = kernel.slots_of(perm)
        shown = np.take_along_axis(flip, slot_of, axis=1).astype(np.int64)
        sums, squares = np.zeros(len(moves)), np.zeros(len(moves))
        for start in range(0, size, ROWS):
            if until is not None and time.time() > until:
                return None
            rows = np.arange(start, min(start + ROWS, size), dtype=np.int64)
            holes.values(table, bank.perm, bank.turn, slot_of, rows, weights, values)
            _add(values, shown[rows], len(rows), classes.astype(np.int64), single, swaps, sums, squares)
        out.append((piece, sums, squares))
    return out


def screened(problem: Problem, tileset: TileSet, samples: int, shares: list) -> list[Neighbour]:
    """Every neighbour with its screened gain (static terms exact) and that gain's standard error, from the
    workers' ``screen_part`` shares, added in piece order."""
    classes = classes_of(tileset)
    moves, _ = _moves(problem, classes)
    sums, squares = np.zeros(len(moves)), np.zeros(len(moves))
    for _, s, q in sorted((p for share in shares for p in share), key=lambda p: p[0]):
        sums += s
        squares += q
    mean = sums / samples
    se = np.sqrt(np.maximum(squares / samples - mean**2, 0.0) / max(samples - 1, 1))
    o, counts = problem.objective, problem.space.static_counts
    static = o.static(*counts(classes))
    found = []
    for changes, gain, error in zip(moves, mean, se, strict=True):
        child = classes.copy()
        for t, f, d in changes:
            child[t, f] = d
        found.append(Neighbour(tuple(changes), float(gain + o.static(*counts(child)) - static), float(error)))
    return found
