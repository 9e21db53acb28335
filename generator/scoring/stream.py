"""Scoring many layouts in constant memory, on several threads, with the same numbers as one pass.

The layouts of a seed are one xoshiro256** stream: layout ``i`` uses words ``i*n .. i*n+n-1``
of it (``n`` slots: ``n // 2`` words for the shuffle, ``(n + 1) // 2`` for the turns). The
stream is cut into chunks of ``CHUNK`` layouts; a chunk's first state is found by jumping
ahead (xoshiro's state update is linear over GF(2), so ``k`` steps are one 256x256 bit
matrix). Each chunk adds integer counts (a histogram of the two per-layout terms and each
landmark pair's hits), so neither the thread count, nor which thread takes which chunk, nor
the chunk size changes a single number: the split is fixed by the seed alone.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from generator.scoring import kernel
from generator.scoring.tables import BoardArrays

CHUNK = 1 << 16  # layouts per task: about 25 ms of work, so progress and threads stay smooth
MIN_PARALLEL_CHUNKS = 4  # below this, jumping ahead (about 0.1 s) costs more than threads save
_MASK64 = (1 << 64) - 1


@dataclass(frozen=True)
class Counts:
    """Integer statistics of scored layouts, the same size whatever their number.

    ``hist[extra, joined]`` counts layouts by their extra edges and joined pairs;
    ``hits[p]`` counts the layouts in which landmark pair ``p`` is joined.
    """

    samples: int
    hist: np.ndarray
    hits: np.ndarray

    @classmethod
    def empty(cls, board: BoardArrays) -> Counts:
        """No layouts yet, for ``board``."""
        pairs = len(board.pair_a)
        return cls(0, np.zeros((len(board.ends_a) + 1, pairs + 1), np.int64), np.zeros(pairs, np.int64))

    @classmethod
    def of(cls, board: BoardArrays, extra, mask, joined) -> Counts:
        """The counts of per-layout arrays (as ``layout_scores`` returns them)."""
        counts = cls.empty(board)
        np.add.at(counts.hist, (np.asarray(extra, np.int64), np.asarray(joined, np.int64)), 1)
        mask = np.asarray(mask, np.uint64)
        for p in range(len(counts.hits)):
            counts.hits[p] = np.count_nonzero(mask & np.uint64(1 << p))
        return cls(len(mask), counts.hist, counts.hits)

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.samples + other.samples, self.hist + other.hist, self.hits + other.hits)


# --- jumping ahead in xoshiro256** ---------------------------------------------------------


def _step(words: list[int]) -> list[int]:
    """One xoshiro256** state update (the output is not needed), on Python integers."""
    s0, s1, s2, s3 = words
    t = (s1 << 17) & _MASK64
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = ((s3 << 45) | (s3 >> 19)) & _MASK64
    return [s0, s1, s2, s3]


def _bits(words: np.ndarray) -> np.ndarray:
    """The 256 bits of states ``words[..., 4]`` (bit ``64*word + b``), as booleans ``[..., 256]``."""
    shifted = words[..., :, None] >> np.arange(64, dtype=np.uint64)
    return (shifted & np.uint64(1)).astype(bool).reshape(*words.shape[:-1], 256)


def _apply(columns: np.ndarray, states: np.ndarray) -> np.ndarray:
    """A GF(2) linear map given by the images of the 256 unit states, applied to ``states[..., 4]``."""
    chosen = np.where(_bits(states)[..., None], columns, np.uint64(0))
    return np.bitwise_xor.reduce(chosen, axis=-2)


def jump(steps: int) -> np.ndarray:
    """``steps`` state updates as one linear map: the images of the 256 unit states, ``[256, 4]`` words."""
    one = np.zeros((256, 4), np.uint64)
    for j in range(256):
        words = [0, 0, 0, 0]
        words[j // 64] = 1 << (j % 64)
        one[j] = _step(words)
    result = np.zeros((256, 4), np.uint64)
    result[np.arange(256), np.arange(256) // 64] = np.uint64(1) << (np.arange(256) % 64).astype(np.uint64)
    while steps:  # square and multiply: at most 2 log2(steps) compositions of 256x256 bits
        if steps & 1:
            result = _apply(one, result)
        one = _apply(one, one)
        steps >>= 1
    return result


def chunk_states(seed: int, slots: int, chunks: int, chunk: int = CHUNK):
    """The xoshiro state at the first layout of each chunk of the seed's stream."""
    state = kernel.seed_state(seed)
    yield state
    if chunks > 1:
        ahead = jump(chunk * slots)  # after the first chunk is handed out: they overlap
        for _ in range(chunks - 1):
            state = _apply(ahead, state)
            yield state


# --- counting ------------------------------------------------------------------------------


def available_cores() -> int:
    """The cores this process may run on (every core, unless an affinity mask says fewer)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def accumulate(
    table: np.ndarray,
    board: BoardArrays,
    count: int,
    seed: int,
    threads: int = 1,
    progress: Callable[[int], None] | None = None,
    chunk: int = CHUNK,
) -> Counts:
    """Counts of ``count`` layouts drawn from ``seed`` (the very layouts ``sample_layouts`` draws).

    ``threads`` score chunks at once (one thread, or a few chunks, simply go through the stream
    in order); ``progress(done)`` is told the layouts done after each chunk.
    """
    chunks = -(-count // chunk)
    sizes = [min(chunk, count - c * chunk) for c in range(chunks)]
    total = Counts.empty(board)

    def one(state: np.ndarray, size: int) -> Counts:
        counts = Counts.empty(board)
        kernel.accumulate_chunk(table, board, size, state, counts.hist, counts.hits)
        return Counts(size, counts.hist, counts.hits)

    def add(counts: Counts) -> None:
        nonlocal total
        total += counts
        if progress:
            progress(total.samples)

    if threads <= 1 or chunks < MIN_PARALLEL_CHUNKS:
        state = kernel.seed_state(seed)
        for size in sizes:
            add(one(state, size))  # the state moves on to the next chunk's first layout
        return total
    with ThreadPoolExecutor(threads) as pool:
        pending: list = []
        for state, size in zip(chunk_states(seed, board.slots, chunks, chunk), sizes, strict=True):
            pending.append(pool.submit(one, state.copy(), size))
            while len(pending) > 2 * threads:  # a few chunks queued per thread, results in order
                add(pending.pop(0).result())
        while pending:
            add(pending.pop(0).result())
    return total
