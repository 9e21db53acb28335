"""Route finding for the ``fast`` engine: the policies' breadth-first plans, compiled with numba.

The same searches as ``policies.plan`` and ``policies.way_out`` over the flat arrays of ``arrays``
(``G`` the geometry, ``S`` one game's state, ``W`` work buffers; see ``fast``), in the same order,
so they choose the same doors. Places are numbers: trail ``t`` of slot ``s`` is ``E*s + t``,
landmark ``k`` is ``E*slots + k`` (``E`` a tile's ends, 6 on the classic tiles). A packed door is
``(slot << SHIFT) + end`` entering a slot (``8*slot + edge`` on the classic tiles), ``-1 - k``
entering landmark ``k``. Ranks are single numbers (tier, kind, score -> 10**6, 10**5, 1); lower is
better, ``NO_RANK`` is no route.
"""

from __future__ import annotations

import numpy as np

from generator.jitcache import njit
from generator.play.arrays import (
    DOOR,
    GOAL,
    HOPS,
    LDOOR,
    LOW,
    LW,
    MARKS,
    NLD,
    NTRAILS,
    PAD,
    PLACE,
    POP,
    REQUIRED,
    S_DOORS,
    S_FACE,
    S_LABELLED,
    S_NEAR,
    S_PAWN,
    S_PROMISE,
    S_TE,
    S_TILE,
    S_VISITED,
    SHIFT,
    SHUN,
    SLD,
    SLOTS,
    W_CFRONT,
    W_CMARKS,
    W_COMP,
    W_QINFO,
    W_QPOS,
    W_SEEN,
    W_STAMP,
    E,
)

NO_RANK = np.int64(1) << 62
# plan's flags as numpy booleans: a literal True or False would compile plan once per combination of its flags
# (numba specialises a compiled callee on its literal arguments), four copies where one does
NO, YES = np.bool_(False), np.bool_(True)


def _without_refcounts() -> dict:
    """numba's private ``_nrt=False`` (no reference counting: the engine allocates nothing) where this numba has it.

    It is not public API, so a numba without it compiles the engine with reference counting
    (about a tenth slower) instead of failing.
    """
    try:
        from numba.core.cpu import CPUTargetOptions
    except ImportError:
        return {}
    return {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}


JIT = {"cache": True, **_without_refcounts()}  # the options of every compiled function of the play engine


@njit(inline="always", **JIT)
def needed_mask(G, visited):
    """The landmarks (a bit each) a player who has visited ``visited`` heads for: the required ones
    left, else the goal."""
    left = G[REQUIRED] & ~visited
    return left if left != 0 else np.int64(1) << G[GOAL]


@njit(inline="always", **JIT)
def door_walk(G, S, pos):
    """The doors of place ``pos`` as the planner walks them: (where its packed doors start, the trail's
    door-end mask or 0 on a landmark, how many doors). A packed door is ``(slot << SHIFT) + end`` entering
    a slot, ``-1 - k`` entering landmark ``k`` (``arrays.DOOR``, ``arrays.LDOOR``)."""
    ends = G[E]
    trails = ends * G[SLOTS]
    if pos >= trails:
        return G[LDOOR] + (pos - trails) * G[LW], 0, G[G[NLD] + pos - trails]
    mask = S[G[S_DOORS] + pos]
    return G[DOOR] + ends * G[G[PLACE] + pos], mask, G[G[POP] + mask]


@njit(inline="always", **JIT)
def next_door(G, base, mask, i):
    """Door ``i`` of a ``door_walk``, and the mask left: a trail's doors by their edges' set bits, lowest first."""
    if mask == 0:
        return G[base + i], mask
    return G[base + G[G[LOW] + mask]], mask & (mask - 1)


@njit(**JIT)
def plan(G, S, W, p, avoid, informed, any_way, limit):
    """Breadth-first plan for player ``p`` (see ``policies.plan``): (first door or -1, rank);
    ``any_way`` stops at the first target.

    The answer is exact when its rank is below ``limit``; otherwise it is some answer ranked at or
    above ``limit``, or none: the search stops before routes that long (a trial turn's bar). Queue
    entries are a place and ``dist << 16 | first door + 1``."""
    n, ends, shun = G[SLOTS], G[E], G[SHUN]
    trails, shift, pad = ends * n, G[SHIFT], G[PAD]
    te, seen, qpos, qinfo = G[S_TE], G[W_SEEN], G[W_QPOS], G[W_QINFO]
    promise = G[S_PROMISE] + p * n
    W[G[W_STAMP]] += 1
    mark = W[G[W_STAMP]]
    src = S[G[S_PAWN] + p]
    needed = needed_mask(G, S[G[S_VISITED] + p])
    W[seen + src] = mark
    W[qpos], W[qinfo] = src, 0
    head, tail = 0, 1
    best_door, best_rank = -1, NO_RANK
    while head < tail:
        pos, info = W[qpos + head], W[qinfo + head]
        dist = info >> 16
        if dist + 1 >= limit:
            break  # every route from here on ranks at or above the limit
        head += 1
        first = (info & 0xFFFF) - 1
        base, mask, count = door_walk(G, S, pos)
        for i in range(count):
            code, mask = next_door(G, base, mask, i)
            via = i if first < 0 else first
            if code < 0:
                k = -1 - code
                if (needed >> k) & 1:
                    return via, np.int64(dist + 1)
                if avoid and G[shun + k] != 0:
                    continue
                nxt = trails + k
            else:
                da = code >> shift
                t = S[te + code - pad * da]  # te[E * da + end], -1 in an empty slot
                if t < 0:
                    if any_way:
                        return via, np.int64(0)
                    rank = np.int64(100_000 + dist + 1 + (S[promise + da] if informed else 0))
                    if rank < best_rank:
                        best_door, best_rank = via, rank
                    continue
                nxt = ends * da + t
            if W[seen + nxt] != mark:
                W[seen + nxt] = mark
                W[qpos + tail], W[qinfo + tail] = nxt, (dist + 1) << 16 | (via + 1)
                tail += 1
    return best_door, best_rank


@njit(inline="always", **JIT)
def way_out(G, S, W, p):
    return plan(G, S, W, p, NO, NO, YES, NO_RANK)[0] >= 0


@njit(**JIT)
def label(G, S, W):
    """Label the known graph's components (every landmark passable): whether each touches an empty slot,
    and which landmarks it reaches. Same answers as ``way_out`` from any of its places, in one pass."""
    ends, ntrails, shift, pad = G[E], G[NTRAILS], G[SHIFT], G[PAD]
    trails = ends * G[SLOTS]
    te, tile, qpos, comp, cfront, cmarks = G[S_TE], G[S_TILE], G[W_QPOS], G[W_COMP], G[W_CFRONT], G[W_CMARKS]
    size = trails + G[MARKS]
    for i in range(size):
        W[comp + i] = -1
    count = 0
    s, t = 0, -1  # start's slot and trail
    for start in range(size):
        t += 1
        if t == ends:
            s, t = s + 1, 0
        if W[comp + start] >= 0:
            continue
        if start < trails and (S[tile + s] < 0 or t >= G[ntrails + 2 * S[tile + s] + S[G[S_FACE] + s]]):
            continue  # no tile, or no such trail on it
        W[comp + start], W[cfront + count], W[cmarks + count] = count, 0, 0
        head, tail = 0, 1
        W[qpos] = start
        while head < tail:
            pos = W[qpos + head]
            head += 1
            base, mask, total = door_walk(G, S, pos)
            for i in range(total):
                code, mask = next_door(G, base, mask, i)
                if code < 0:
                    W[cmarks + count] |= np.int64(1) << (-1 - code)
                    nxt = trails - 1 - code
                else:
                    da = code >> shift
                    if S[tile + da] < 0:
                        W[cfront + count] = 1
                        continue
                    nxt = ends * da + S[te + code - pad * da]
                if W[comp + nxt] < 0:
                    W[comp + nxt] = count
                    W[qpos + tail] = nxt
                    tail += 1
        count += 1
    S[G[S_LABELLED]] = 1


@njit(inline="always", **JIT)
def way_out_now(G, S, W, p):
    """``way_out`` for player ``p`` from the component labels (relabelled when a tile was laid or turned)."""
    if S[G[S_LABELLED]] == 0:
        label(G, S, W)
    c = W[G[W_COMP] + S[G[S_PAWN] + p]]
    return W[G[W_CFRONT] + c] != 0 or (W[G[W_CMARKS] + c] & needed_mask(G, S[G[S_VISITED] + p])) != 0


@njit(inline="always", **JIT)
def touches(G, S, W, s, p):
    """Whether a trail of slot ``s`` lies in player ``p``'s component (labels current). A turn of a tile
    that does not cannot change what ``p`` reaches, so the search skips it (same answers, less work)."""
    comp, ends = G[W_COMP], G[E]
    c = W[comp + S[G[S_PAWN] + p]]
    for t in range(ends):  # noqa: SIM110 - compiled by numba, which has no any() over a generator
        if W[comp + ends * s + t] == c:
            return True
    return False


@njit(**JIT)
def explorer_rank(G, S, W, p, limit):
    """The explorer's rank (tier 0 avoiding, then tier 1), exact when below ``limit``."""
    door, rank = plan(G, S, W, p, YES, YES, NO, limit)
    if door >= 0:
        return rank
    if limit <= 1_000_000:
        return NO_RANK  # a tier-1 rank could not beat the limit
    door, rank = plan(G, S, W, p, NO, YES, NO, limit - 1_000_000)
    if door >= 0:
        return 1_000_000 + rank
    return NO_RANK


@njit(**JIT)
def needs(G, S, p):
    """Player ``p``'s rows for the landmarks it needs, per slot: the promise (steps to the nearest cell) and
    the fewest doors to one (``arrays.HOPS``)."""
    n, m, sld, hops = G[SLOTS], G[MARKS], G[SLD], G[HOPS]
    promise, near = G[S_PROMISE] + p * n, G[S_NEAR] + p * n
    needed = needed_mask(G, S[G[S_VISITED] + p])
    for s in range(n):
        best, fewest = 1 << 30, 1 << 30
        for k in range(m):
            if (needed >> k) & 1:
                best, fewest = min(best, G[sld + s * m + k]), min(fewest, G[hops + s * m + k])
        S[promise + s], S[near + s] = best, fewest
