"""The ``fast`` engine: the reference engine's game, move for move, compiled with numba.

Every rule, policy and random draw here mirrors ``game``, ``policies`` and ``reference`` in the
same order, so a seed plays the same game in both (``tests/test_play_engines.py`` compares their
move traces). Places are numbers: trail ``t`` of slot ``s`` is ``6*s + t``, landmark ``k`` is
``6*slots + k``; a door is (kind, a, b, by connector) with kind 1 = slot ``a`` entered through
edge ``b``, kind 2 = landmark ``a``. Ranks are single numbers (tier, kind, score -> 10**6, 10**5, 1).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from generator.play.arrays import CAP, DIE, GOAL, MARKS, NEXT_TO, REQUIRED, SIXTHS, SLOTS, START, STUB, TURN_OK, UNDER
from generator.play.rng import draw

NO_RANK = np.int64(1) << 62


@njit(cache=True, inline="always")
def _place(g, pos):
    n = g.params[SLOTS]
    return pos // 6 if pos < 6 * n else pos - 5 * n


@njit(cache=True, inline="always")
def _doors(g, te, pos, dk, da, db, dc):
    """Fill the door arrays for a pawn at ``pos``; returns how many. ``te[6*s + e]`` is the trail at edge e."""
    return _doors_of(g.kind, g.a, g.b, g.conn, g.ldoor_a, g.ldoor_b, g.nldoors, te, pos, dk, da, db, dc)


@njit(cache=True, inline="always")
def _doors_of(kind, a, b, conn, ldoor_a, ldoor_b, nldoors, te, pos, dk, da, db, dc):
    """``_doors`` on the geometry's arrays (taken out of ``g`` once, outside hot loops)."""
    n = kind.shape[0]
    count = 0
    if pos >= 6 * n:
        k = pos - 6 * n
        for j in range(nldoors[k]):
            dk[count], da[count], db[count], dc[count] = 1, ldoor_a[k, j], ldoor_b[k, j], 0
            count += 1
        return count
    s, t = pos // 6, pos % 6
    for e in range(6):
        if te[6 * s + e] == t and kind[s, e] != 0:
            dk[count], da[count], db[count], dc[count] = kind[s, e], a[s, e], b[s, e], conn[s, e]
            count += 1
    return count


@njit(cache=True, inline="always")
def _needed(g, visited):
    left = g.params[REQUIRED] & ~visited
    return left if left != 0 else np.int64(1) << g.params[GOAL]


@njit(cache=True)
def _plan(g, te, src, visited, avoid, informed, any_way, w):
    """Breadth-first plan (see ``policies.plan``): (first door or -1, rank); ``any_way`` stops at the first."""
    seen, qpos, qdist, qfirst, stamp, dk, da, db, dc = w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8]
    n, m = g.params[SLOTS], g.params[MARKS]
    kind, a, b, conn, ldoor_a, ldoor_b, nldoors = g.kind, g.a, g.b, g.conn, g.ldoor_a, g.ldoor_b, g.nldoors
    ends, hazard, sld = g.ends, g.hazard, g.sld
    stamp[0] += 1
    mark = stamp[0]
    needed = _needed(g, visited)
    seen[src] = mark
    head, tail = 0, 1
    qpos[0], qdist[0], qfirst[0] = src, 0, -1
    best_door, best_rank = -1, NO_RANK
    while head < tail:
        pos, dist, first = qpos[head], qdist[head], qfirst[head]
        head += 1
        count = _doors_of(kind, a, b, conn, ldoor_a, ldoor_b, nldoors, te, pos, dk, da, db, dc)
        for i in range(count):
            via = i if first < 0 else first
            if dk[i] == 2:
                k = da[i]
                if (needed >> k) & 1:
                    return via, np.int64(dist + 1)
                if avoid and (ends[k] or hazard[k, 0]):
                    continue
                nxt = 6 * n + k
            else:
                s = da[i]
                if te[6 * s] < 0:
                    if any_way:
                        return via, np.int64(0)
                    promise = 0
                    if informed:
                        promise = 1 << 30
                        for k in range(m):
                            if (needed >> k) & 1 and sld[s, k] < promise:
                                promise = sld[s, k]
                    rank = np.int64(100_000 + dist + 1 + promise)
                    if rank < best_rank:
                        best_door, best_rank = via, rank
                    continue
                nxt = 6 * s + te[6 * s + db[i]]
            if seen[nxt] != mark:
                seen[nxt] = mark
                qpos[tail], qdist[tail], qfirst[tail] = nxt, dist + 1, via
                tail += 1
    return best_door, best_rank


@njit(cache=True, inline="always")
def _way_out(g, te, src, visited, w):
    return _plan(g, te, src, visited, False, False, True, w)[0] >= 0


@njit(cache=True)
def _label(g, st, w):
    """Label the known graph's components (every landmark passable): whether each touches an empty slot,
    and which landmarks it reaches. Same answers as ``_way_out`` from any of its places, in one pass."""
    tile, te = st[0], st[9]
    qpos, dk, da, db, dc, comp, cfront, cmarks = w[1], w[5], w[6], w[7], w[8], w[9], w[10], w[11]
    kind, a, b, conn, ldoor_a, ldoor_b, nldoors = g.kind, g.a, g.b, g.conn, g.ldoor_a, g.ldoor_b, g.nldoors
    n = g.params[SLOTS]
    size = 6 * n + g.params[MARKS]
    comp[:] = -1
    count = 0
    for start in range(size):
        if comp[start] >= 0:
            continue
        if start < 6 * n:
            s = start // 6
            if tile[s] < 0:
                continue
            exists = False
            for e in range(6):
                exists |= te[6 * s + e] == start % 6
            if not exists:
                continue
        comp[start], cfront[count], cmarks[count] = count, 0, 0
        head, tail = 0, 1
        qpos[0] = start
        while head < tail:
            pos = qpos[head]
            head += 1
            for i in range(_doors_of(kind, a, b, conn, ldoor_a, ldoor_b, nldoors, te, pos, dk, da, db, dc)):
                if dk[i] == 2:
                    cmarks[count] |= np.int64(1) << da[i]
                    nxt = 6 * n + da[i]
                elif tile[da[i]] < 0:
                    cfront[count] = 1
                    continue
                else:
                    nxt = 6 * da[i] + te[6 * da[i] + db[i]]
                if comp[nxt] < 0:
                    comp[nxt] = count
                    qpos[tail] = nxt
                    tail += 1
        count += 1
    st[10][0] = 1


@njit(cache=True, inline="always")
def _way_out_now(g, st, p, w):
    """``_way_out`` for player ``p`` from the component labels (relabelled when a tile was laid or turned)."""
    if st[10][0] == 0:
        _label(g, st, w)
    c = w[9][st[3][p]]
    return w[10][c] != 0 or (w[11][c] & _needed(g, st[4][p])) != 0


@njit(cache=True, inline="always")
def _touches(st, w, s, p):
    """Whether a trail of slot ``s`` lies in player ``p``'s component (labels current). A turn of a tile
    that does not cannot change what ``p`` reaches, so the search skips it (same answers, less work)."""
    c = w[9][st[3][p]]
    for t in range(6):
        if w[9][6 * s + t] == c:
            return True
    return False


@njit(cache=True, inline="always")
def _set_rot(g, st, s, r):
    """Lay or turn: the tile in slot ``s`` now lies turned ``r`` sixths; its edges' trails follow."""
    tile, face, rot, te = st[0], st[1], st[2], st[9]
    st[10][0] = 0  # the component labels are stale
    rot[s] = r
    for e in range(6):
        te[6 * s + e] = g.T[tile[s], face[s], r, e]


@njit(cache=True, inline="always")
def _turns_allowed(g, tile, pawns, p, out):
    """Fill ``out`` with turnable slots next to player ``p`` (ascending); returns how many."""
    if not g.params[TURN_OK]:
        return 0
    n = g.params[SLOTS]
    place = _place(g, pawns[p])
    count = 0
    total = g.nnext[place] if g.params[NEXT_TO] else n
    for j in range(total):
        s = g.next_to[place, j] if g.params[NEXT_TO] else j
        if tile[s] < 0:
            continue
        under = False
        if not g.params[UNDER]:
            for q in range(pawns.shape[0]):
                if pawns[q] < 6 * n and pawns[q] // 6 == s:
                    under = True
        if not under:
            out[count] = s
            count += 1
    return count


@njit(cache=True)
def _explorer_rank(g, te, src, visited, w):
    door, rank = _plan(g, te, src, visited, True, True, False, w)
    if door >= 0:
        return rank
    door, rank = _plan(g, te, src, visited, False, True, False, w)
    if door >= 0:
        return 1_000_000 + rank
    return NO_RANK


@njit(cache=True)
def _choose_turn(g, policy, st, p, rng, w, cand, trapped):
    """The policy's ``turn``: returns (slot, sixths) or (-1, 0) to roll. ``trapped``: no way out now."""
    tile, face, rot, pawns, visited, when, who, how, last, te = st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7], st[8], st[9]
    six = g.params[SIXTHS]
    if policy == 0:
        count = _doors(g, te, pawns[p], w[5], w[6], w[7], w[8])
        if count > 0:
            return -1, 0
        c = _turns_allowed(g, tile, pawns, p, cand)
        if c == 0:
            return -1, 0
        s = cand[draw(rng, c)]
        return s, six if draw(rng, 2) == 0 else -six
    if not trapped:
        return -1, 0
    c = _turns_allowed(g, tile, pawns, p, cand)
    best_s, best_d, best_rank = -1, 0, NO_RANK
    labelled = st[10][0]
    for j in range(2 * c):
        s, d = cand[j // 2], six if j % 2 == 0 else -six
        if policy == 1 and who[s] >= 0 and who[s] != p and when[s] > last[p] and how[s] == -d:
            continue
        if not _touches(st, w, s, p):
            continue
        _set_rot(g, st, s, (rot[s] + d + 6) % 6)
        if policy == 1:
            rank = _explorer_rank(g, te, pawns[p], visited[p], w)
        else:
            rank = 0 if _way_out(g, te, pawns[p], visited[p], w) else NO_RANK
        _set_rot(g, st, s, (rot[s] - d + 6) % 6)
        st[10][0] = labelled  # the same tiles as before the trial turn
        if rank < best_rank:
            best_s, best_d, best_rank = s, d, rank
            if policy == 2:
                break
    return best_s, best_d


@njit(cache=True, inline="always")
def _choose_step(g, policy, st, p, rng, w, count):
    pawns, visited, te = st[3], st[4], st[9]
    if policy == 1:
        door, _ = _plan(g, te, pawns[p], visited[p], True, True, False, w)
        if door < 0:
            door, _ = _plan(g, te, pawns[p], visited[p], False, True, False, w)
        if door >= 0:
            return door
    elif policy == 2:
        door, _ = _plan(g, te, pawns[p], visited[p], False, False, False, w)
        if door >= 0:
            return door
    return draw(rng, count)


@njit(cache=True, inline="always")
def _note(trace, value):
    trace[0] = trace[0] * np.uint64(1_000_003) + np.uint64(value + 1)


@njit(cache=True, inline="always")
def _step(g, st, pile, top, p, kind, a, b, conn, rng, tally):
    """Move player ``p`` through a door (see ``Table.step``); True when the move ends."""
    tile, face, rot, pawns, visited = st[0], st[1], st[2], st[3], st[4]
    n = g.params[SLOTS]
    if kind == 1:
        tally[p, 6] += conn
        fresh = tile[a] < 0
        if fresh:
            f = draw(rng, 2)
            r = draw(rng, 6)
            tile[a], face[a] = pile[top[0]], f
            _set_rot(g, st, a, r)
            top[0] += 1
        t = st[9][6 * a + b]
        if fresh and g.params[STUB]:
            exits = 0
            for e in range(6):
                exits += g.T[tile[a], face[a], rot[a], e] == t
            if exits == 1:
                return True
        pawns[p] = 6 * a + t
        return False
    k = a
    pawns[p] = 6 * n + k
    required = g.params[REQUIRED]
    if (required >> k) & 1:
        visited[p] |= np.int64(1) << k
    if k == g.params[GOAL] and (required & ~visited[p]) == 0:
        return True
    if g.hazard[k, 0]:
        tally[p, 4] += 1
        if g.hazard[k, draw(rng, g.params[DIE]) + 1]:
            tally[p, 5] += 1
            pawns[p] = 6 * n + g.hazard_to[k]
            return True
    return g.ends[k]


@njit(cache=True, inline="always")
def _check_trapped(g, st, p, place, w, cand, tally, heat):
    """Count a turn begun with no way out (and stuck: no single turn opens one); True when trapped."""
    tile, rot, pawns, visited, te = st[0], st[2], st[3], st[4], st[9]
    if _way_out_now(g, st, p, w):
        return False
    tally[p, 7] += 1
    heat[1, place] += 1
    c = _turns_allowed(g, tile, pawns, p, cand)
    six = g.params[SIXTHS]
    for j in range(2 * c):
        s, d = cand[j // 2], six if j % 2 == 0 else -six
        if not _touches(st, w, s, p):
            continue
        _set_rot(g, st, s, (rot[s] + d + 6) % 6)
        opened = _way_out(g, te, pawns[p], visited[p], w)
        _set_rot(g, st, s, (rot[s] - d + 6) % 6)
        st[10][0] = 1  # labelled just above by _way_out_now, and the tiles are back as they were
        if opened:
            return True
    tally[p, 8] += 1
    return True


@njit(cache=True)
def _play_turn(g, policy, st, pile, top, clock, p, rng, w, cand, door, tally, heat, trace):
    """One turn of player ``p`` (see ``reference.play_turn``); True when ``p`` has won."""
    tile, face, rot, pawns, visited, when, who, how, last, te = st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7], st[8], st[9]
    n = g.params[SLOTS]
    tally[p, 0] += 1
    place = _place(g, pawns[p])
    first = -1  # the planner's first step, planned before the roll (the roll changes nothing it sees)
    if policy == 1:
        first = _plan(g, te, pawns[p], visited[p], True, True, False, w)[0]
    elif policy == 2:
        first = _plan(g, te, pawns[p], visited[p], False, False, False, w)[0]
    trapped = first < 0 and _check_trapped(g, st, p, place, w, cand, tally, heat)
    s, d = _choose_turn(g, policy, st, p, rng, w, cand, trapped)
    dk, da, db, dc = door
    if s >= 0:
        tally[p, 1] += 1
        heat[0, place] += 1
        _set_rot(g, st, s, (rot[s] + d + 6) % 6)
        when[s], who[s], how[s] = clock, p, d
        _note(trace, 1000 + 10 * s + (d + 6) % 6)
    elif _doors(g, te, pawns[p], dk, da, db, dc) > 0:
        roll = draw(rng, g.params[DIE]) + 1
        tally[p, 3] += roll
        for used in range(roll):
            count = _doors(g, te, pawns[p], dk, da, db, dc)
            i = first if used == 0 and first >= 0 else _choose_step(g, policy, st, p, rng, w, count)
            count = _doors(g, te, pawns[p], dk, da, db, dc)
            ended = _step(g, st, pile, top, p, dk[i], da[i], db[i], dc[i], rng, tally)
            _note(trace, 10_000 * p + _place(g, pawns[p]))
            if ended:
                lost = roll - used - 1
                tally[p, 2] += lost
                heat[2, _place(g, pawns[p])] += lost
                break
    last[p] = clock
    return pawns[p] == 6 * n + g.params[GOAL] and (g.params[REQUIRED] & ~visited[p]) == 0


@njit(cache=True, nogil=True)
def play_games(g, policies, states, rounds, winners, tallies, heat, laid, traces):
    """Play one game per row of ``states`` (each a fresh generator state); results fill the arrays.

    ``heat`` (kinds x places) is summed over the games; the other arrays have a row per game.
    """
    n, m = g.params[SLOTS], g.params[MARKS]
    players = policies.shape[0]
    ntiles = g.T.shape[0]
    size = 6 * n + m
    w = (np.zeros(size, np.int64), np.zeros(size, np.int64), np.zeros(size, np.int64), np.zeros(size, np.int64),
         np.zeros(1, np.int64), np.zeros(8 + g.ldoor_a.shape[1], np.int64), np.zeros(8 + g.ldoor_a.shape[1], np.int64),
         np.zeros(8 + g.ldoor_a.shape[1], np.int64), np.zeros(8 + g.ldoor_a.shape[1], np.int64),
         np.zeros(size, np.int64), np.zeros(size, np.int64), np.zeros(size, np.int64))
    door = (np.zeros(8 + g.ldoor_a.shape[1], np.int64), np.zeros(8 + g.ldoor_a.shape[1], np.int64),
            np.zeros(8 + g.ldoor_a.shape[1], np.int64), np.zeros(8 + g.ldoor_a.shape[1], np.int64))
    cand = np.zeros(n, np.int64)
    trace = np.zeros(1, np.uint64)
    top = np.zeros(1, np.int64)
    pile = np.zeros(ntiles, np.int64)
    for game in range(states.shape[0]):
        rng = states[game].copy()
        for i in range(ntiles):
            pile[i] = i
        for i in range(ntiles - 1, 0, -1):
            j = draw(rng, i + 1)
            pile[i], pile[j] = pile[j], pile[i]
        st = (np.full(n, -1, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
              np.full(players, 6 * n + g.params[START], np.int64), np.zeros(players, np.int64),
              np.full(n, -1, np.int64), np.full(n, -1, np.int64), np.zeros(n, np.int64), np.full(players, -1, np.int64),
              np.full(6 * n, -1, np.int64), np.zeros(1, np.int64))
        top[0] = 0
        trace[0] = 0
        winner, played = -1, g.params[CAP]
        clock = 0
        for rnd in range(1, g.params[CAP] + 1):
            for p in range(players):
                won = _play_turn(g, policies[p], st, pile, top, clock, p, rng, w, cand, door, tallies[game], heat,
                                 trace)
                clock += 1
                if won:
                    winner, played = p, rnd
                    break
            if winner >= 0:
                break
        rounds[game], winners[game], laid[game], traces[game] = played, winner, top[0], trace[0]

