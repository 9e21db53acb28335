"""The one random-number generator both play engines draw from, so they play the same games.

It is the scoring kernel's xoshiro256** (seeded through splitmix64), compiled once with numba:
the plain Python ``reference`` engine calls these same compiled functions, the ``fast`` engine
calls them inside its loop. Game ``g`` of a run with seed ``s`` starts from seed ``s * 2**32 + g``,
so any game of a run can be replayed alone. Every draw takes one 64-bit word and maps its high
32 bits to ``[0, k)`` by multiply-shift (bias below ``k / 2**32``).
"""

from __future__ import annotations

import numpy as np

from generator.jitcache import njit
from generator.scoring.kernel import _bounded, _next, _seed_state

_MASK64 = (1 << 64) - 1


def game_seed(seed: int, game: int) -> int:
    """The generator seed of game ``game`` of a run seeded ``seed``."""
    return ((seed << 32) + game) & _MASK64


def game_rng(seed: int, game: int) -> np.ndarray:
    """A fresh generator state (four uint64 words) for one game."""
    return _seed_state(np.uint64(game_seed(seed, game)))


@njit(cache=True)
def draw(state, k):
    """A uniform whole number in ``[0, k)``; advances ``state``."""
    return np.int64(_bounded(_next(state) >> np.uint64(32), k))
