"""The ``fast`` engine's table and its players' choices, compiled with numba: the doors a pawn may take, a tile
laid or turned, the turns a player may make, and what each policy chooses (a step, a trial turn). The engine's game
(``fast``), its bots (``fastbot``) and its measures (``fastmeasures``) share them.

The arrays are the engine's (see ``fast``): ``G`` the geometry, ``S`` one game's state, ``W`` work buffers, ``R``
the random state. Every function here mirrors ``game`` and ``policies`` draw for draw.
"""

from __future__ import annotations

import numpy as np

from generator.jitcache import njit
from generator.play.arrays import (
    CONN,
    DIE,
    DW,
    KIND,
    LDA,
    LDB,
    LOW,
    LW,
    NEXT,
    NEXT_TO,
    NLD,
    NNEXT,
    NW,
    PLACE,
    ROTS,
    S_DOORS,
    S_FACE,
    S_HOW,
    S_LABELLED,
    S_LAST,
    S_NEAR,
    S_PAWN,
    S_PLAYERS,
    S_ROT,
    S_TE,
    S_TILE,
    S_TOP,
    S_VISITED,
    S_WHEN,
    S_WHO,
    SIXTHS,
    SLOTS,
    START,
    TURN_OK,
    UNDER,
    W_CAND,
    W_DOOR,
    A,
    B,
    E,
    T,
)
from generator.play.rng import draw
from generator.play.routes import (
    DOOR_MASK,
    DOOR_SHIFT,
    JIT,
    NO,
    NO_RANK,
    YES,
    explorer_rank,
    label,
    needs,
    plan,
    touches,
    way_out,
    way_out_now,
)


@njit(inline="always", **JIT)
def slot_of(G, pos):
    """The slot of a trail's place, or ``slots + k`` for landmark ``k``."""
    return G[G[PLACE] + pos]


@njit(inline="always", **JIT)
def doors(G, S, W, pos):
    """Fill the door buffer (four rows of ``DW``: kind, a, b, conn) for a pawn at ``pos``; returns how many."""
    n, dw, o, ends = G[SLOTS], G[DW], G[W_DOOR], G[E]
    count = np.int64(0)  # not a literal 0: numba would compile draw() for it, a second signature
    if pos >= ends * n:
        k = pos - ends * n
        for j in range(G[G[NLD] + k]):
            c = k * G[LW] + j
            W[o + count], W[o + dw + count], W[o + 2 * dw + count], W[o + 3 * dw + count] = (
                1,
                G[G[LDA] + c],
                G[G[LDB] + c],
                0,
            )
            count += 1
        return count
    packed, low = S[G[S_DOORS] + pos], G[LOW]
    mask, first = packed & DOOR_MASK, packed >> DOOR_SHIFT
    while mask != 0:  # the trail's ends with something across, lowest first
        c = first + G[low + mask]
        mask &= mask - 1
        W[o + count], W[o + dw + count], W[o + 2 * dw + count], W[o + 3 * dw + count] = (
            G[G[KIND] + c],
            G[G[A] + c],
            G[G[B] + c],
            G[G[CONN] + c],
        )
        count += 1
    return count


@njit(**JIT)
def set_rot(G, S, s, r):
    """Lay or turn: the tile in slot ``s`` now lies turned ``r`` steps; its ends' trails follow."""
    S[G[S_LABELLED]] = 0  # the component labels are stale
    S[G[S_ROT] + s] = r
    tile, face, te, doors, ends = S[G[S_TILE] + s], S[G[S_FACE] + s], G[S_TE], G[S_DOORS], G[E]
    first, table = ends * s, G[T] + ((tile * 2 + face) * G[ROTS] + r) * ends  # this face's row turned ``r``
    for t in range(ends):
        S[doors + first + t] = first << DOOR_SHIFT  # the slot's first end, then the mask of doors
    for e in range(ends):
        t = G[table + e]
        S[te + first + e] = t
        if G[G[KIND] + first + e] != 0:
            S[doors + first + t] |= 1 << e  # the trail's ends with something across


@njit(inline="always", **JIT)
def turn_by(G, S, s, d):
    r, rots = S[G[S_ROT] + s] + d, G[ROTS]
    while r >= rots:  # no division: the rules turn by a few steps either way
        r -= rots
    while r < 0:
        r += rots
    set_rot(G, S, s, r)


@njit(**JIT)
def turns_allowed(G, S, W, p):
    """Fill the candidate buffer with turnable slots next to player ``p`` (ascending); returns how many."""
    if not G[TURN_OK]:
        return 0
    n, pawn, cand, ends = G[SLOTS], G[S_PAWN], G[W_CAND], G[E]
    place = slot_of(G, S[pawn + p])
    count = 0
    total = G[G[NNEXT] + place] if G[NEXT_TO] else n
    for j in range(total):
        s = G[G[NEXT] + place * G[NW] + j] if G[NEXT_TO] else j
        if S[G[S_TILE] + s] < 0:
            continue
        under = False
        if not G[UNDER]:
            for q in range(S[G[S_PLAYERS]]):
                if S[pawn + q] < ends * n and slot_of(G, S[pawn + q]) == s:
                    under = True
        if not under:
            W[cand + count] = s
            count += 1
    return count


@njit(**JIT)
def choose_turn(G, S, W, R, policy, p, bar, start):
    """The policy's ``turn`` when it may turn (random: no door here; the others: trapped, or the explorer
    knowing only empty slots): (slot, sixths) of the best trial turn ranked below ``bar``, or (-1, 0) to roll.
    Trials before ``start`` are known to open no way (``_count_trapped``).

    Trapped, a trial skips tiles outside the pawn's component (its turn cannot open a way). Before a
    trial no needed landmark is in reach (while avoiding, for the explorer), so a route a turn opens
    passes through the turned tile: the explorer skips tiles whose fewest doors to a needed landmark
    (plus one to get there) cannot beat the best rank so far, and searches only as far as that rank
    reaches."""
    six, cand = G[SIXTHS], G[W_CAND]
    if policy == 0:
        c = turns_allowed(G, S, W, p)
        if c == 0:
            return -1, 0
        s = W[cand + draw(R, c)]
        return s, six if draw(R, np.int64(2)) == 0 else -six
    c = turns_allowed(G, S, W, p)
    best_s, best_d, best_rank = -1, 0, bar
    trapped = bar == NO_RANK
    if trapped and S[G[S_LABELLED]] == 0:
        label(G, S, W)  # for touches
    labelled = S[G[S_LABELLED]]
    when, who, how = G[S_WHEN], G[S_WHO], G[S_HOW]
    near, pawn = G[S_NEAR] + p * G[SLOTS], S[G[S_PAWN] + p]
    on = slot_of(G, pawn) if pawn < G[E] * G[SLOTS] else -1  # the slot under the pawn
    for j in range(start, 2 * c):
        s, d = W[cand + j // 2], six if j % 2 == 0 else -six
        if S[who + s] >= 0 and S[who + s] != p and S[when + s] > S[G[S_LAST] + p] and S[how + s] == -d:
            continue
        if trapped and not touches(G, S, W, s, p):
            continue
        if policy == 1 and S[near + s] + (s != on) >= best_rank:
            continue  # no route through this tile reaches a needed landmark in fewer doors than best_rank
        turn_by(G, S, s, d)
        if policy == 1:
            rank = explorer_rank(G, S, W, p, best_rank)
        else:
            rank = 0 if way_out(G, S, W, p) else NO_RANK
        turn_by(G, S, s, -d)
        S[G[S_LABELLED]] = labelled  # the same tiles as before the trial turn
        if rank < best_rank:
            best_s, best_d, best_rank = s, d, rank
            if policy == 2:
                break
    return best_s, best_d


@njit(inline="always", **JIT)
def planned(G, S, W, policy, p):
    """The explorer's (tier 0, then tier 1 ranked from 10**6) or the greedy player's planned first door
    and its rank; -1 when it knows no way out, at once when the component labels are current and say so."""
    if S[G[S_LABELLED]] != 0 and not way_out_now(G, S, W, p):
        return -1, NO_RANK
    if policy == 2:
        return plan(G, S, W, p, NO, NO, NO, NO_RANK)
    door, rank = plan(G, S, W, p, YES, YES, NO, NO_RANK)
    if door >= 0:
        return door, rank
    door, rank = plan(G, S, W, p, NO, YES, NO, NO_RANK)
    return door, rank + 1_000_000


@njit(inline="always", **JIT)
def turn_bar(G, policy, trapped, rank):
    """The rank a trial turn of the explorer (1) or the greedy player (2) must beat, given its planned route's
    ``rank``: any way out (NO_RANK) when it knows none; for the explorer who knows only empty slots, a route to
    a needed landmark within half a roll; -1 when it does not look for a turn at all."""
    if trapped:
        return NO_RANK
    if policy == 1 and rank % 1_000_000 >= 100_000:
        return (G[DIE] + 1) // 2 + 1  # it knows only empty slots: a turn must clearly open a better way
    return np.int64(-1)


@njit(inline="always", **JIT)
def choose_step(G, S, W, R, policy, p, count):
    if policy != 0:
        door = planned(G, S, W, policy, p)[0]
        if door >= 0:
            return door
    return draw(R, count)


@njit(**JIT)
def clear(G, S, players):
    """No tile laid, every pawn on the start having visited nothing."""
    n = G[SLOTS]
    for s in range(n):
        S[G[S_TILE] + s], S[G[S_FACE] + s], S[G[S_ROT] + s] = -1, 0, 0
        S[G[S_WHEN] + s], S[G[S_WHO] + s], S[G[S_HOW] + s] = -1, -1, 0
    for i in range(G[E] * n):
        S[G[S_TE] + i], S[G[S_DOORS] + i] = -1, 0
    for q in range(players):
        S[G[S_PAWN] + q], S[G[S_VISITED] + q], S[G[S_LAST] + q] = G[E] * n + G[START], 0, -1
        needs(G, S, q)
    S[G[S_LABELLED]], S[G[S_TOP]], S[G[S_PLAYERS]] = 0, 0, players
