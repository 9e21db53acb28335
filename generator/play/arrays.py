"""A board, rules and tile set compiled to the arrays the ``fast`` engine reads (``Geo``)."""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from generator.scoring.tables import tile_tables

Geo = namedtuple("Geo", "T kind a b conn ldoor_a ldoor_b nldoors next_to nnext ends hazard hazard_to sld "
                        "params")
# params: slots, landmarks, start, goal, required mask, die, cap, stub_blocks, turn allowed,
#         next to pawn, sixths, under pawn
SLOTS, MARKS, START, GOAL, REQUIRED, DIE, CAP, STUB, TURN_OK, NEXT_TO, SIXTHS, UNDER = range(12)


def compile_geometry(geo, rules, tiles) -> Geo:
    """The reference ``Geometry`` and the tile set as the arrays the kernel reads."""
    n, m = geo.slots, len(geo.landmarks)
    kind, a, b, conn = (np.zeros((n, 6), np.int64) for _ in range(4))
    for (s, e), door in geo.across.items():
        if door[0] == "slot":
            kind[s, e], a[s, e], b[s, e], conn[s, e] = 1, door[1], door[2], door[3]
        else:
            kind[s, e], a[s, e] = 2, door[1]
    width = max(len(d) for d in geo.landmark_doors)
    ldoor_a, ldoor_b = np.zeros((m, width), np.int64), np.zeros((m, width), np.int64)
    for k, doors in enumerate(geo.landmark_doors):
        for j, door in enumerate(doors):
            ldoor_a[k, j], ldoor_b[k, j] = door[1], door[2]
    next_to = np.zeros((n + m, max(len(x) for x in geo.next_to)), np.int64)
    for place, slots in enumerate(geo.next_to):
        next_to[place, : len(slots)] = sorted(slots)
    hazard = np.zeros((m, rules.die + 1), np.bool_)
    for k, rolls in enumerate(geo.hazard_rolls):
        hazard[k, 0] = bool(rolls)
        for r in rolls:
            hazard[k, r] = True
    t = rules.turning
    # a tuple of ints, not an array: reading a number from it costs no reference counting in the kernel
    params = tuple(int(v) for v in (n, m, geo.start, geo.goal, sum(1 << k for k in geo.required), rules.die,
                                    rules.round_cap, rules.stub_blocks, t.allowed, t.next_to_pawn, t.sixths,
                                    t.under_pawn))
    return Geo(tile_tables(tiles).astype(np.int64), kind, a, b, conn, ldoor_a, ldoor_b,
               np.array([len(d) for d in geo.landmark_doors], np.int64), next_to,
               np.array([len(x) for x in geo.next_to], np.int64), np.array(geo.ends_move, np.bool_), hazard,
               np.array(geo.hazard_to, np.int64), np.array(geo.slot_landmark_distance, np.int64), params)
