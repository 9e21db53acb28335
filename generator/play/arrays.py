"""A board, rules and tile set compiled to the one flat array the ``fast`` engine reads.

The kernel's hot loops read numbers from a few plain arrays (geometry, game state, work buffers)
and never take an array out of a tuple: every array taken out of a tuple or passed on costs numba
two atomic reference counts, which used to be two thirds of the engine's time. The geometry array
begins with a header of numbers (the rules' numbers, then where each table starts in it, and where
each field lies in the state and work arrays); the names below index that header.

The tiles' geometry is numbers in the header too: ``E`` ends a tile (6 on the classic tiles: trail
``t`` of slot ``s`` is place ``E*s + t``, slot ``s``'s end ``e`` is entry ``E*s + e`` of the per-end
tables), ``ROTS`` rotations (the turn die), ``FLIP`` whether a laid tile's face is drawn by coin,
``SHIFT`` and ``PAD`` for packed doors (``arrays.DOOR``: ``(slot << SHIFT) + end``, ``PAD = 2**SHIFT - E``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import networkx as nx
import numpy as np

from generator.board import Board
from generator.model import TileSet
from generator.play.game import geometry
from generator.play.rules import Rules
from generator.scoring.tables import tile_tables

HEADER = (
    # the rules' numbers
    "SLOTS MARKS START GOAL REQUIRED DIE CAP STUB TURN_OK NEXT_TO SIXTHS UNDER "
    # the tiles' geometry: ends, rotations, a coin for the face, packed doors' shift and padding
    "E ROTS FLIP SHIFT PAD "
    # table widths, then where each table starts in the geometry array
    "LW NW HW T KIND A B CONN LDA LDB NLD NEXT NNEXT ENDS HAZARD HAZARD_TO SLD HOPS DOOR LDOOR SHUN NTRAILS LOW POP "
    "PLACE "
    # where each field lies in the state array (MAX_PLAYERS wide for the players' fields)
    "S_TILE S_FACE S_ROT S_WHEN S_WHO S_HOW S_TE S_DOORS S_PAWN S_VISITED S_PROMISE S_NEAR S_LAST S_LABELLED S_TOP "
    "S_PLAYERS "
    "S_PILE S_SIZE "
    # where each buffer lies in the work array; DW: room for one place's doors
    "W_SEEN W_QPOS W_QINFO W_COMP W_CFRONT W_CMARKS W_STAMP W_DOOR W_CAND W_SIZE DW"
).split()
(
    SLOTS,
    MARKS,
    START,
    GOAL,
    REQUIRED,
    DIE,
    CAP,
    STUB,
    TURN_OK,
    NEXT_TO,
    SIXTHS,
    UNDER,
    E,
    ROTS,
    FLIP,
    SHIFT,
    PAD,
    LW,
    NW,
    HW,
    T,
    KIND,
    A,
    B,
    CONN,
    LDA,
    LDB,
    NLD,
    NEXT,
    NNEXT,
    ENDS,
    HAZARD,
    HAZARD_TO,
    SLD,
    HOPS,
    DOOR,
    LDOOR,
    SHUN,
    NTRAILS,
    LOW,
    POP,
    PLACE,
    S_TILE,
    S_FACE,
    S_ROT,
    S_WHEN,
    S_WHO,
    S_HOW,
    S_TE,
    S_DOORS,
    S_PAWN,
    S_VISITED,
    S_PROMISE,
    S_NEAR,
    S_LAST,
    S_LABELLED,
    S_TOP,
    S_PLAYERS,
    S_PILE,
    S_SIZE,
    W_SEEN,
    W_QPOS,
    W_QINFO,
    W_COMP,
    W_CFRONT,
    W_CMARKS,
    W_STAMP,
    W_DOOR,
    W_CAND,
    W_SIZE,
    DW,
) = range(len(HEADER))
MAX_PLAYERS = 4


def _layout(start: int, fields: list[tuple[str, int]]) -> tuple[dict[str, int], int]:
    """Consecutive fields from ``start``: each name's offset, and the end."""
    where = {}
    for name, size in fields:
        where[name] = start
        start += size
    return where, start


def _hops(geo) -> np.ndarray:
    """``hops[slot, k]``: the fewest doors from a trail of the slot to landmark ``k``, every slot laid and every
    landmark open (a lower bound on any route's length; the explorer's trial turns skip tiles too far)."""
    n, m = geo.slots, len(geo.landmarks)
    graph = nx.DiGraph()  # slots 0..n-1, then landmarks n..n+m-1
    graph.add_nodes_from(range(n + m))
    graph.add_edges_from((s, door[1] if door[0] == "slot" else n + door[1]) for (s, _), door in geo.across.items())
    graph.add_edges_from((n + k, door[1]) for k, doors in enumerate(geo.landmark_doors) for door in doors)
    hops = np.full((n, m), n + m, np.int64)  # n + m: no route at all
    for s in range(n):
        for place, length in nx.single_source_shortest_path_length(graph, s).items():
            if place >= n:
                hops[s, place - n] = length
    return hops


def _shift(ends: int) -> int:
    """The packed doors' shift: the fewest bits that hold an end (3 on the classic tiles)."""
    return max(3, (ends - 1).bit_length())


def _planner_tables(geo, kind, a, b, ldoor_a, ldoor_b, table) -> list[tuple[str, Any]]:
    """The route finder's own tables: packed doors (slot ``a`` entered at end ``b`` is ``(a << SHIFT) + b``,
    ``8*a + b`` on the classic tiles, landmark ``k`` is ``-1 - k``; walls are never read, a trail's door mask
    leaves them out), the landmarks the explorer steps around, each tile face's trail count, and bit tricks for
    masks of a tile's ends, places' slots (or ``slots + k`` for landmark ``k``)."""
    n, m, ends = geo.slots, len(geo.landmarks), geo.tile.ends
    sh = _shift(ends)
    door = [(a[c] << sh) + b[c] if kind[c] == 1 else -1 - a[c] for c in range(len(kind))]
    shun = [geo.ends_move[k] or bool(geo.hazard_rolls[k]) for k in range(m)]
    ntrails = table[:, :, 0, :].max(axis=2) + 1  # trails are numbered from 0
    low = [(x & -x).bit_length() - 1 for x in range(1 << ends)]  # the lowest set bit
    pop = [bin(x).count("1") for x in range(1 << ends)]
    place = [s for s in range(n) for _ in range(ends)] + [n + k for k in range(m)]
    return [
        ("DOOR", door),
        ("LDOOR", (ldoor_a << sh) + ldoor_b),
        ("SHUN", shun),
        ("NTRAILS", ntrails),
        ("LOW", low),
        ("POP", pop),
        ("PLACE", place),
    ]


def compile_geometry(geo, rules, tiles, hops: np.ndarray) -> np.ndarray:
    """The reference ``Geometry``, the rules, the tile set and ``_hops(geo)`` as one int64 array (header,
    then tables)."""
    n, m, g = geo.slots, len(geo.landmarks), geo.tile
    tables = _geometry_tables(geo, rules, tiles, hops)
    lw, nw = (np.shape(t)[1] for name, t in tables if name in ("LDA", "NEXT"))
    at, _ = _layout(len(HEADER), [(name, np.size(t)) for name, t in tables])
    state, s_size = _layout(0, _state_fields(n, len(tiles), g.ends))
    work, w_size = _layout(0, _work_fields(g.ends * n + m, g.ends + lw, n))
    t = rules.turning
    header = dict(
        SLOTS=n,
        MARKS=m,
        START=geo.start,
        GOAL=geo.goal,
        REQUIRED=sum(1 << k for k in geo.required),
        DIE=rules.die,
        CAP=rules.round_cap,
        STUB=rules.stub_blocks,
        TURN_OK=t.allowed,
        NEXT_TO=t.next_to_pawn,
        SIXTHS=t.steps,
        UNDER=t.under_pawn,
        E=g.ends,
        ROTS=g.rotations,
        FLIP=g.faces == 2,
        SHIFT=_shift(g.ends),
        PAD=(1 << _shift(g.ends)) - g.ends,
        LW=lw,
        NW=nw,
        HW=rules.die + 1,
        S_SIZE=s_size,
        W_SIZE=w_size,
        DW=g.ends + lw,
        **at,
        **state,
        **work,
    )
    head = np.array([int(header[name]) for name in HEADER], np.int64)
    return np.concatenate([head] + [np.asarray(t, np.int64).ravel() for _, t in tables])


def _geometry_tables(geo, rules, tiles, hops: np.ndarray) -> list[tuple[str, Any]]:
    """The geometry array's tables, in order, each with the name the header gives its start."""
    n, m, ends = geo.slots, len(geo.landmarks), geo.tile.ends
    kind, a, b, conn = ([0] * (ends * n) for _ in range(4))  # per slot and end (E*s + e): the door across
    for (s, e), door in geo.across.items():
        c = ends * s + e
        if door[0] == "slot":
            kind[c], a[c], b[c], conn[c] = 1, door[1], door[2], door[3]
        else:
            kind[c], a[c] = 2, door[1]
    lw = max(len(d) for d in geo.landmark_doors)
    ldoor_a, ldoor_b = np.zeros((m, lw), np.int64), np.zeros((m, lw), np.int64)
    for k, doors in enumerate(geo.landmark_doors):
        for j, door in enumerate(doors):
            ldoor_a[k, j], ldoor_b[k, j] = door[1], door[2]
    next_to = np.zeros((n + m, max(len(x) for x in geo.next_to)), np.int64)
    for place, slots in enumerate(geo.next_to):
        next_to[place, : len(slots)] = sorted(slots)
    hazard = np.zeros((m, rules.die + 1), np.int64)  # [k, 0]: a hazard; [k, r]: roll r chases
    for k, rolls in enumerate(geo.hazard_rolls):
        hazard[k, 0] = bool(rolls)
        for r in rolls:
            if r <= rules.die:  # rules built in code may list a roll the die never shows
                hazard[k, r] = 1
    table = tile_tables(tiles).astype(np.int64)
    if table.shape[1] == 1:  # single-sided: the face is always 0, a second copy keeps every index ``2*tile + face``
        table = np.concatenate([table, table], axis=1)
    assert table.shape[1:] == (2, geo.tile.rotations, ends)
    return [
        ("T", table),
        ("KIND", kind),
        ("A", a),
        ("B", b),
        ("CONN", conn),
        ("LDA", ldoor_a),
        ("LDB", ldoor_b),
        ("NLD", np.array([len(d) for d in geo.landmark_doors])),
        ("NEXT", next_to),
        ("NNEXT", np.array([len(x) for x in geo.next_to])),
        ("ENDS", np.array(geo.ends_move)),
        ("HAZARD", hazard),
        ("HAZARD_TO", np.array(geo.hazard_to)),
        ("SLD", np.array(geo.slot_landmark_distance)),
        ("HOPS", hops),
        *_planner_tables(geo, kind, a, b, ldoor_a, ldoor_b, table),
    ]


def _state_fields(n: int, tiles: int, ends: int) -> list[tuple[str, int]]:
    """The game state's fields and sizes: per slot, per slot end (``S_DOORS``: per trail place, packed as
    ``routes.DOOR_SHIFT`` says), per player, then the draw pile."""
    per_slot = [(name, n) for name in ("S_TILE", "S_FACE", "S_ROT", "S_WHEN", "S_WHO", "S_HOW")]
    per_edge = [("S_TE", ends * n), ("S_DOORS", ends * n)]
    per_player = [("S_PAWN", MAX_PLAYERS), ("S_VISITED", MAX_PLAYERS)]
    per_player += [("S_PROMISE", MAX_PLAYERS * n), ("S_NEAR", MAX_PLAYERS * n), ("S_LAST", MAX_PLAYERS)]
    single = [("S_LABELLED", 1), ("S_TOP", 1), ("S_PLAYERS", 1)]
    return per_slot + per_edge + per_player + single + [("S_PILE", tiles)]


def _work_fields(places: int, door_width: int, n: int) -> list[tuple[str, int]]:
    """The work buffers: one entry per place (slot ends, then landmarks), one place's doors, slot candidates."""
    per_place = [(name, places) for name in ("W_SEEN", "W_QPOS", "W_QINFO", "W_COMP", "W_CFRONT", "W_CMARKS")]
    return per_place + [("W_STAMP", 1), ("W_DOOR", 4 * door_width), ("W_CAND", n)]


def _board_tables(board: Board, rules: Rules):
    """The reference ``geometry`` and ``_hops`` (the first reads every join of the board, the second
    walks the board from every slot)."""
    geo = geometry(board, rules)
    return geo, _hops(geo)


def _build(tiles: TileSet, board: Board, rules: Rules, board_tables=_board_tables) -> np.ndarray:
    geo, hops = board_tables(board, rules)
    arrays = compile_geometry(geo, rules, tiles, hops)
    arrays.flags.writeable = False
    return arrays


_remembered_board_tables = lru_cache(maxsize=8)(_board_tables)


@lru_cache(maxsize=64)
def _remembered(tiles: TileSet, board: Board, rules: Rules) -> np.ndarray:
    return _build(tiles, board, rules, _remembered_board_tables)


def game_arrays(tiles: TileSet, board: Board, rules: Rules) -> np.ndarray:
    """``compile_geometry`` for a tile set on a board under rules, read-only, built once per three (a
    batch of games then pays no set-up when the same game is played again, as a benchmark or a search
    does)."""
    try:
        return _remembered(tiles, board, rules)
    except TypeError:  # not hashable (a list inside rules made in code): built afresh
        return _build(tiles, board, rules)
