"""The ``fast`` engine: the reference engine's game, move for move, compiled with numba.

Every rule, policy and random draw here mirrors ``game``, ``policies`` and ``reference`` in the
same order, so a seed plays the same game in both (``tests/test_play_engines.py`` compares their
move traces); the route finding is in ``routes``, the table and the players' choices in
``fastchoices``. Places are numbers: trail ``t`` of slot ``s`` is ``E*s + t``, landmark ``k`` is
``E*slots + k`` (``E`` a tile's ends, ``arrays.E``: 6 on the classic tiles); a step's door is
(kind, a, b, by connector) with kind 1 = slot ``a`` entered at end ``b``, kind 2 = landmark ``a``.

Every function reads four flat arrays: ``G`` the geometry (its header says where each table and
field lies, see ``arrays``), ``S`` one game's state, ``W`` work buffers, ``R`` the random state
(four words) and the move trace (the fifth). Nothing is allocated or taken out of a tuple after a
game batch starts, so every function but ``play_games`` is compiled without numba's reference
counting (``routes.JIT``), which would cost two atomic operations per array per call.
"""

from __future__ import annotations

import numpy as np

from generator.jitcache import njit
from generator.play.arrays import (
    CAP,
    DIE,
    DW,
    ENDS,
    FLIP,
    GOAL,
    HAZARD,
    HAZARD_TO,
    HW,
    REQUIRED,
    ROTS,
    S_FACE,
    S_HOW,
    S_LABELLED,
    S_LAST,
    S_PAWN,
    S_PILE,
    S_SIZE,
    S_TE,
    S_TILE,
    S_TOP,
    S_VISITED,
    S_WHEN,
    S_WHO,
    SIXTHS,
    SLOTS,
    STUB,
    W_CAND,
    W_DOOR,
    W_SIZE,
    E,
)
from generator.play.fastchoices import (
    choose_step,
    choose_turn,
    clear,
    doors,
    planned,
    set_rot,
    slot_of,
    turn_bar,
    turn_by,
    turns_allowed,
)
from generator.play.logrows import BEGIN, CHASE, END, LAY, ROLL, ROW, STEP, TURN, WIN, most_rows
from generator.play.rng import draw
from generator.play.routes import (
    JIT,
    NO_RANK,
    label,
    needs,
    touches,
    way_out,
    way_out_now,
)
from generator.scoring.kernel import _seed_state

TRACE = 4  # R[TRACE]: the move trace, after the generator's four words


@njit(inline="always", **JIT)
def _note(R, value):
    R[TRACE] = R[TRACE] * np.uint64(1_000_003) + np.uint64(value + 1)


@njit(inline="always", **JIT)
def _log(L, kind, p, a, b, c, d):
    """Append one row to the compact game log ``L`` (``gamelog.ROW`` numbers; ``L[0]`` counts the rows);
    an empty ``L`` logs nothing."""
    if L.shape[0] == 0:
        return
    i = 1 + L[0] * ROW
    L[i], L[i + 1], L[i + 2], L[i + 3], L[i + 4], L[i + 5] = kind, p, a, b, c, d
    L[0] += 1


@njit(**JIT)
def _step(G, S, R, tally, p, kind, a, b, conn, L):
    """Move player ``p`` through a door (see ``Table.step``); True when the move ends."""
    n, pawn, top, ends = G[SLOTS], G[S_PAWN] + p, G[S_TOP], G[E]
    if kind == 1:
        tally[p, 6] += conn
        fresh = S[G[S_TILE] + a] < 0
        if fresh:
            f = draw(R, np.int64(2)) if G[FLIP] else np.int64(0)
            r = draw(R, G[ROTS])
            S[G[S_TILE] + a], S[G[S_FACE] + a] = S[G[S_PILE] + S[top]], f
            set_rot(G, S, a, r)
            S[top] += 1
            _log(L, LAY, p, a, S[G[S_TILE] + a], f, r)
        t = S[G[S_TE] + ends * a + b]
        if fresh and G[STUB]:
            exits = 0
            for e in range(ends):
                exits += S[G[S_TE] + ends * a + e] == t
            if exits == 1:
                return True
        S[pawn] = ends * a + t
        _log(L, STEP, p, S[pawn], 0, 0, 0)
        return False
    k = a
    S[pawn] = ends * n + k
    _log(L, STEP, p, S[pawn], 0, 0, 0)
    required, visited = G[REQUIRED], G[S_VISITED] + p
    if (required >> k) & 1 and not (S[visited] >> k) & 1:
        S[visited] |= np.int64(1) << k
        needs(G, S, p)
    if k == G[GOAL] and (required & ~S[visited]) == 0:
        return True
    hazard = G[HAZARD] + k * G[HW]
    if G[hazard]:
        tally[p, 4] += 1
        if G[hazard + draw(R, G[DIE]) + 1]:
            tally[p, 5] += 1
            S[pawn] = ends * n + G[G[HAZARD_TO] + k]
            _log(L, CHASE, p, S[pawn], 0, 0, 0)
            return True
    return G[G[ENDS] + k] != 0


@njit(**JIT)
def _count_trapped(G, S, W, p, place, tally, heat):
    """Count a turn begun with no way out, and stuck when no single turn opens one; returns the index of
    the first trial turn that opens one (twice the turnable tiles when none does)."""
    tally[p, 7] += 1
    heat[1, place] += 1
    if S[G[S_LABELLED]] == 0:
        label(G, S, W)  # for touches
    c = turns_allowed(G, S, W, p)
    six, cand = G[SIXTHS], G[W_CAND]
    for j in range(2 * c):
        s, d = W[cand + j // 2], six if j % 2 == 0 else -six
        if not touches(G, S, W, s, p):
            continue
        turn_by(G, S, s, d)
        opened = way_out(G, S, W, p)
        turn_by(G, S, s, -d)
        S[G[S_LABELLED]] = 1  # the tiles are back as they were
        if opened:
            return j
    tally[p, 8] += 1
    return 2 * c


@njit(**JIT)
def _play_turn(G, S, W, R, policy, clock, p, tally, heat, L):
    """One turn of player ``p`` (see ``reference.play_turn``); True when ``p`` has won."""
    n, pawn, o, dw = G[SLOTS], G[S_PAWN] + p, G[W_DOOR], G[DW]
    tally[p, 0] += 1
    _log(L, BEGIN, p, 0, 0, 0, 0)
    place = slot_of(G, S[pawn])
    # the planner's first step, planned before the roll (it changes nothing seen); a planner that
    # finds no target at all means no way out
    first, rank = -1, NO_RANK
    if policy == 0:
        trapped = not way_out_now(G, S, W, p)
    else:
        first, rank = planned(G, S, W, policy, p)
        trapped = first < 0
    opens = _count_trapped(G, S, W, p, place, tally, heat) if trapped else 0  # trials before it open nothing
    here = doors(G, S, W, S[pawn])
    bar = NO_RANK if policy == 0 else turn_bar(G, policy, trapped, rank)
    may = here == 0 if policy == 0 else bar >= 0
    s, d = choose_turn(G, S, W, R, policy, p, bar, opens) if may else (-1, 0)
    if s >= 0:
        tally[p, 1] += 1
        heat[0, place] += 1
        turn_by(G, S, s, d)
        S[G[S_WHEN] + s], S[G[S_WHO] + s], S[G[S_HOW] + s] = clock, p, d
        _note(R, 1000 + 10 * s + (d + G[ROTS]) % G[ROTS])
        _log(L, TURN, p, s, d, 0, 0)
    elif here > 0:
        roll = draw(R, G[DIE]) + 1
        tally[p, 3] += roll
        _log(L, ROLL, p, roll, 0, 0, 0)
        for used in range(roll):
            count = doors(G, S, W, S[pawn])
            i = first if used == 0 and first >= 0 else choose_step(G, S, W, R, policy, p, count)
            ended = _step(G, S, R, tally, p, W[o + i], W[o + dw + i], W[o + 2 * dw + i], W[o + 3 * dw + i], L)
            _note(R, 10_000 * p + slot_of(G, S[pawn]))
            if ended:
                lost = roll - used - 1
                tally[p, 2] += lost
                heat[2, slot_of(G, S[pawn])] += lost
                break
    S[G[S_LAST] + p] = clock
    return S[pawn] == G[E] * n + G[GOAL] and (G[REQUIRED] & ~S[G[S_VISITED] + p]) == 0


@njit(**JIT)
def _new_game(G, S, R, players):
    """A fresh table: the pile shuffled by ``R``, pawns on the start, no tile laid."""
    ntiles, pile = S.shape[0] - G[S_PILE], G[S_PILE]
    for i in range(ntiles):
        S[pile + i] = i
    for i in range(ntiles - 1, 0, -1):
        j = draw(R, i + 1)
        S[pile + i], S[pile + j] = S[pile + j], S[pile + i]
    clear(G, S, players)


@njit(**JIT)
def _end_round(G, S, L, players):
    for q in range(players):
        _log(L, END, q, S[G[S_PAWN] + q], S[G[S_VISITED] + q], 0, 0)


@njit(**JIT)
def _play_game(G, S, W, R, policies, tally, heat, L):
    """One game from the generator state in ``R``: (winner or -1, rounds played); its rows appended to ``L``."""
    players = policies.shape[0]
    _new_game(G, S, R, players)
    _end_round(G, S, L, players)  # round 0, the set-up
    clock = np.int64(0)  # not a literal 0: numba would compile _play_turn for it too
    for rnd in range(1, G[CAP] + 1):
        for p in range(players):
            won = _play_turn(G, S, W, R, policies[p], clock, p, tally, heat, L)
            clock += 1
            if won:
                _log(L, WIN, p, 0, 0, 0, 0)
                _end_round(G, S, L, players)
                return p, rnd
        _end_round(G, S, L, players)
    return -1, G[CAP]


@njit(cache=True, nogil=True)
def play_games(G, policies, first_seed, rounds, winners, tallies, heat, laid, traces, L, offsets, start):
    """Play games ``start``, ``start + 1``, ... of a batch, one per row of ``rounds``; game ``i`` from generator
    seed ``first_seed + i`` (``rng.game_seed`` of the batch's first game, plus ``i``); results fill the arrays.

    ``heat`` (kinds x places) is summed over the games; the other arrays have a row per game. With a
    non-empty log buffer ``L``, game ``i``'s rows are ``offsets[i]`` to ``offsets[i + 1]``, and the batch
    stops early, returning the next game's index, when ``L`` has no room for one more game of
    ``gamelog.most_rows`` rows.
    """
    S = np.zeros(G[S_SIZE], np.int64)
    W = np.zeros(G[W_SIZE], np.int64)
    R = np.zeros(TRACE + 1, np.uint64)
    room = most_rows(G[CAP], policies.shape[0], G[DIE])
    for game in range(start, rounds.shape[0]):
        if L.shape[0] > 0:
            if (L.shape[0] - 1) // ROW - L[0] < room:
                return game
            offsets[game] = L[0]
        R[:TRACE] = _seed_state(first_seed + np.uint64(game))  # allocates: kept out of the compiled game
        R[TRACE] = 0
        winners[game], rounds[game] = _play_game(G, S, W, R, policies, tallies[game], heat, L)
        laid[game], traces[game] = S[G[S_TOP]], R[TRACE]
        if L.shape[0] > 0:
            offsets[game + 1] = L[0]
    return rounds.shape[0]
