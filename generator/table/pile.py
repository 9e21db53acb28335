"""The play table's draw pile: the tiles shuffled, each with a coin toss and a die roll, from a seed.

The browser page (``play.js``) runs the same steps in JavaScript, so a test (or a remote
player) can predict every tile the page lays for a seed.

Glossary
--------
mulberry32  the PRNG: 32-bit state, ``next()`` in [0, 1) (Tommy Ettinger's mulberry32).
pile        the tiles in the order they are laid: Fisher–Yates on ``0..n-1`` drawing
            ``j = floor(next() * (i + 1))`` for ``i = n-1 .. 1``; then, for each tile in pile
            order, a coin (``next() < 0.5``: the back shows) and a die (``floor(next() * 6)``
            sixths clockwise, the booklet's "pips above one"). On another geometry (``turns`` edges,
            ``faces`` 1 or 2) the die is ``floor(next() * turns)`` steps of one edge, and a single-sided
            tile draws no coin: it always shows its front. The classic pile is ``faces=2, turns=6``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

MASK = 0xFFFFFFFF
MAX_SEED = MASK  # seeds are unsigned 32-bit integers


def _imul(a: int, b: int) -> int:
    """JavaScript's ``Math.imul`` on unsigned 32-bit patterns."""
    return (a * b) & MASK


def mulberry32(seed: int) -> Callable[[], float]:
    """A PRNG identical to ``mulberry32`` in ``play.js``: each call returns a float in [0, 1)."""
    state = seed & MASK

    def next_float() -> float:
        nonlocal state
        state = (state + 0x6D2B79F5) & MASK
        t = _imul(state ^ (state >> 15), state | 1)
        t = ((t + _imul(t ^ (t >> 7), t | 61)) & MASK) ^ t
        return ((t ^ (t >> 14)) & MASK) / 4294967296

    return next_float


@dataclass(frozen=True)
class Draw:
    """One tile off the pile: which tile (index in the tile set), which face up, how many sixths turned."""

    tile: int
    face: str
    rot: int


def draw_pile(n: int, seed: int, faces: int = 2, turns: int = 6) -> list[Draw]:
    """The ``n`` tiles in the order the play table lays them for ``seed``, with face and rotation (in steps of one
    edge, of ``turns``); single-sided tiles (``faces=1``) always show their front."""
    rand = mulberry32(seed)
    order = list(range(n))
    for i in range(n - 1, 0, -1):
        j = int(rand() * (i + 1))
        order[i], order[j] = order[j], order[i]
    draws = []
    for t in order:
        face = "back" if faces == 2 and rand() < 0.5 else "front"
        draws.append(Draw(t, face, int(rand() * turns)))
    return draws
