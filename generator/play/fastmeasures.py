"""The game-quality measures of compact game logs (``logrows``), compiled: ``measures``' numbers, fast.

The replay lays and turns the logged tiles on the ``fast`` engine's state array and moves the pawns
as the log says; at each round's end it ranks the players by progress exactly as
``measures.progress`` does (the same breadth-first ``plan``), and at each turn's start, when asked,
it counts the choices the explorer's own evaluation sees. ``tests/test_measures.py`` proves the two
implementations give the same numbers on the same logs.
"""

from __future__ import annotations

import numpy as np

from generator.jitcache import njit
from generator.play.arrays import (
    CAP,
    DW,
    REQUIRED,
    S_FACE,
    S_PAWN,
    S_PROMISE,
    S_SIZE,
    S_TE,
    S_TILE,
    S_VISITED,
    SIXTHS,
    SLOTS,
    W_CAND,
    W_DOOR,
    W_SIZE,
    E,
)
from generator.play.fastchoices import clear, doors, set_rot, turn_by, turns_allowed
from generator.play.logrows import BEGIN, CHASE, END, LAY, STEP, TURN
from generator.play.routes import JIT, NO, NO_RANK, explorer_rank, needed_mask, needs, plan

# the columns of a game's row of readings
FINISHED, LENGTH, LEAD_CHANGES, DRAMA, SETTLED_AT, TURNS, IDLE = range(7)
COLUMNS = 7
# the columns of a seat's row: turns, choices summed over them, legal actions summed over them
SEAT_TURNS, CHOICES, ACTIONS = range(3)
FAR = np.int64(1) << 31  # an unknown route's length in a progress key


@njit(inline="always", **JIT)
def _popcount(x):
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@njit(**JIT)
def _progress_key(G, S, W, p):
    """progress(p) as one number: required landmarks ticked, then minus the steps to the nearest needed one."""
    n, here = G[SLOTS], S[G[S_PAWN] + p]
    visited = S[G[S_VISITED] + p]
    d = FAR
    if here >= G[E] * n and (needed_mask(G, visited) >> (here - G[E] * n)) & 1:
        d = np.int64(0)
    else:
        door, rank = plan(G, S, W, p, NO, NO, NO, NO_RANK)
        if door >= 0 and rank < 100_000:
            d = rank
    return _popcount(visited & G[REQUIRED]) * (np.int64(1) << 32) - d


@njit(**JIT)
def _leaders(G, S, W, players):
    """The players of the highest progress, as a bit mask."""
    best, mask = np.int64(-1) << 62, 0
    for q in range(players):
        key = _progress_key(G, S, W, q)
        if key > best:
            best, mask = key, 1 << q
        elif key == best:
            mask |= 1 << q
    return mask


@njit(**JIT)
def _value_after_step(G, S, W, p, kind, a, b):
    """The explorer's value of stepping through one door: 1 + its rank from behind it (an empty slot as
    the planner ranks it)."""
    n, pawn = G[SLOTS], G[S_PAWN] + p
    if kind == 1 and S[G[S_TILE] + a] < 0:
        return np.int64(100_001) + S[G[S_PROMISE] + p * n + a]
    if kind == 2 and (needed_mask(G, S[G[S_VISITED] + p]) >> a) & 1:
        return np.int64(1)
    here = S[pawn]
    ends = G[E]
    S[pawn] = ends * a + S[G[S_TE] + ends * a + b] if kind == 1 else ends * n + a
    rank = explorer_rank(G, S, W, p, NO_RANK)
    S[pawn] = here
    return rank + 1 if rank < NO_RANK else NO_RANK


@njit(**JIT)
def choices(G, S, W, V, p):
    """(choices, legal actions) at the start of player ``p``'s turn: the actions are each door out of its
    place and each tile turn the rules allow; the choices are those the explorer values within one step
    of the best (every one, when none leads anywhere). ``V`` holds the values."""
    needs(G, S, p)
    o, dw, cand, six = G[W_DOOR], G[DW], G[W_CAND], G[SIXTHS]
    count = doors(G, S, W, S[G[S_PAWN] + p])
    for i in range(count):
        V[i] = _value_after_step(G, S, W, p, W[o + i], W[o + dw + i], W[o + 2 * dw + i])
    for j in range(2 * turns_allowed(G, S, W, p)):
        s = W[cand + j // 2]
        turn_by(G, S, s, six if j % 2 == 0 else -six)
        V[count] = explorer_rank(G, S, W, p, NO_RANK)
        turn_by(G, S, s, -six if j % 2 == 0 else six)
        count += 1
    best = NO_RANK
    for i in range(count):
        best = min(best, V[i])
    near = 0
    for i in range(count):
        near += V[i] <= best + 1 or best == NO_RANK
    return near, count


@njit(**JIT)
def _replay(G, S, W, V, rows, lo, hi, players, winner, lead, game, seats):
    """Replay one game's rows; fill ``game`` (its readings) and ``seats`` (per seat; choices when
    ``seats`` has the room for them). Returns -1, or the row of a move the state forbids."""
    clear(G, S, players)
    t, moved, turns, stepped = 0, 0, 0, False
    for i in range(lo, hi):
        # as int64: the rows' own int32 would compile every engine function they reach a second time
        kind, p, a, b = np.int64(rows[i, 0]), np.int64(rows[i, 1]), np.int64(rows[i, 2]), np.int64(rows[i, 3])
        c, d = np.int64(rows[i, 4]), np.int64(rows[i, 5])
        if kind == BEGIN:
            turns += 1
            stepped = False
            seats[p, SEAT_TURNS] += 1
            if seats.shape[1] > CHOICES:
                near, count = choices(G, S, W, V, p)
                seats[p, CHOICES] += near
                seats[p, ACTIONS] += count
        elif kind == STEP or kind == CHASE:  # noqa: SIM109 (numba)
            moved += kind == STEP and not stepped
            stepped = stepped or kind == STEP
            S[G[S_PAWN] + p] = a
            trails = G[E] * G[SLOTS]
            if a >= trails and (G[REQUIRED] >> (a - trails)) & 1:
                S[G[S_VISITED] + p] |= np.int64(1) << (a - trails)
        elif kind == LAY:
            S[G[S_TILE] + a], S[G[S_FACE] + a] = b, c
            set_rot(G, S, a, d)
        elif kind == TURN:
            if S[G[S_TILE] + a] < 0:
                return i  # a turn of an empty slot
            turn_by(G, S, a, b)
        elif kind == END:
            S[G[S_PAWN] + p], S[G[S_VISITED] + p] = a, b
            if p == players - 1:
                lead[t] = _leaders(G, S, W, players)
                t += 1
    _read_game(lead, t - 1, winner, game)
    game[TURNS], game[IDLE] = turns, turns - moved
    return -1


@njit(**JIT)
def _read_game(lead, T, winner, game):
    """A game's lead changes, drama and settled round from its leaders per round."""
    game[FINISHED], game[LENGTH] = winner >= 0, T
    changes, last = 0, -1
    for t in range(T + 1):
        if _popcount(lead[t]) == 1:
            who = 0
            while (lead[t] >> who) & 1 == 0:
                who += 1
            changes += last >= 0 and who != last
            last = who
    game[LEAD_CHANGES] = changes
    if winner >= 0:
        game[DRAMA] = (lead[(2 * T + 2) // 3] >> winner) & 1 == 0
        at = T + 1
        while at > 0 and (lead[at - 1] >> winner) & 1:
            at -= 1
        game[SETTLED_AT] = at


@njit(cache=True, nogil=True)
def measure_rows(G, rows, offsets, winners, players, games, seats):
    """Read every game of ``rows`` (game g's rows are ``offsets[g]`` to ``offsets[g + 1]``, its winning seat
    ``winners[g]`` or -1): ``games`` gets a
    row of ``COLUMNS`` per game and ``seats`` (games x players x 1 or 3) the turns, and the choices when it
    has three columns. Returns -1, or the first row of a move the state forbids (the rows' numbers are
    checked by ``logrows.check_rows`` first)."""
    S = np.zeros(G[S_SIZE], np.int64)
    W = np.zeros(G[W_SIZE], np.int64)
    V = np.zeros(4 * G[DW] + 2 * G[SLOTS], np.int64)
    lead = np.zeros(G[CAP] + 2, np.int64)
    for g in range(offsets.shape[0] - 1):
        bad = _replay(G, S, W, V, rows, offsets[g], offsets[g + 1], players, winners[g], lead, games[g], seats[g])
        if bad >= 0:
            return bad
    return -1
