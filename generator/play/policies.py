"""Players (policies) for the reference engine: one signature, chosen by name.

A policy answers two questions, each with the game's ``rng``:

- ``turn(table, p, rng)``: ``(slot, sixths)`` to turn a tile instead of rolling, or None to roll;
- ``step(table, p, steps_left, rng)``: the index of the door to step through (``table.doors``).

``random``    steps uniformly among the doors (going back included) and uses every step; turns a
              tile (uniform among the turnable tiles, then a fair coin for the way) only when it
              has no door at all.
``explorer``  sees only laid tiles. Each step it walks the shortest known route to a landmark it
              still needs; failing that, toward the empty slot with the best promise (steps to it
              plus cells from it to the nearest landmark it needs). It keeps clear of landmarks it
              does not need that would end its move, and of hazards, unless no other way exists.
              When it knows no way at all, it turns the tile that opens the best one; when it knows
              only empty slots, it turns a tile that opens a route to a needed landmark within half
              a roll (never undoing a turn another player made since its own last turn). If no
              turn helps and it knows no way, it rolls and wanders (uniform steps).
``greedy``    rushes: the shortest known route to a needed landmark or the nearest empty slot,
              without the explorer's care (landmarks, hazards, promise, courtesy); when it knows
              no way it turns the first tile (in slot order) whose turn opens one, else wanders.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from generator.errors import TrailwrightError
from generator.play.game import Table
from generator.play.rng import draw
from generator.players import POLICY_NAMES


@dataclass(frozen=True)
class Plan:
    """The first door of the best route found, and its rank (lower is better)."""

    door: int
    rank: tuple


def plan(table: Table, p: int, avoid: bool, informed: bool) -> Plan | None:
    """Breadth-first over the laid tiles from player ``p``: a needed landmark, else the best empty slot.

    With ``avoid``, landmarks ``p`` does not need that end a move or are hazards are not walked
    through. With ``informed``, an empty slot's rank adds the steps (cells) from it to the nearest needed
    landmark; otherwise the nearest empty slot wins. Ties go to the door found first.
    """
    geo, needed = table.geo, table.needed(p)
    source = table.pawns[p]
    seen: set[tuple] = {source}
    queue: deque[tuple[tuple, int, int]] = deque([(source, 0, -1)])
    best = None
    while queue:
        place, dist, first = queue.popleft()
        for i, door in enumerate(table.doors(place)):
            via = i if first < 0 else first
            if door[0] == "landmark":
                k = door[1]
                if k in needed:
                    return Plan(via, (0, dist + 1))
                if avoid and (geo.ends_move[k] or geo.hazard_rolls[k]):
                    continue
                nxt: tuple = ("landmark", k)
            else:
                _, slot, end, _ = door
                if slot not in table.laid:
                    promise = min(geo.slot_landmark_distance[slot][k] for k in needed) if informed else 0
                    rank = (1, dist + 1 + promise)
                    if best is None or rank < best.rank:
                        best = Plan(via, rank)
                    continue
                nxt = ("trail", slot, table.trail_at(slot, end))
            if nxt not in seen:
                seen.add(nxt)
                queue.append((nxt, dist + 1, via))
    return best


def way_out(table: Table, p: int) -> bool:
    """Whether player ``p`` knows any way to a needed landmark or an empty slot."""
    return plan(table, p, avoid=False, informed=False) is not None


def opens_way(table: Table, p: int, slot: int, sixths: int, rank: Callable) -> Any:
    """``rank(table, p)`` with the tile in ``slot`` turned by ``sixths`` (the table is left as it was)."""
    table.rotate(slot, sixths)
    try:
        return rank(table, p)
    finally:
        table.rotate(slot, -sixths)


def random_turn(table: Table, p: int, rng) -> tuple[int, int] | None:
    """A turnable tile chosen uniformly, then the way by a fair coin; None when no tile may turn."""
    allowed = table.turns_allowed(p)
    if not allowed:
        return None
    slots = sorted({s for s, _ in allowed})
    slot = slots[draw(rng, len(slots))]
    sixths = table.rules.turning.steps
    return slot, sixths if draw(rng, 2) == 0 else -sixths


def random_turn_policy(table: Table, p: int, rng):
    return random_turn(table, p, rng) if not table.doors(table.pawns[p]) else None


def random_step(table: Table, p: int, steps_left: int, rng) -> int:
    return draw(rng, len(table.doors(table.pawns[p])))


def explorer_rank(table: Table, p: int):
    """The explorer's rank of its best route: (tier, kind, score), lower is better; None when it knows none."""
    for tier, avoid in enumerate((True, False)):
        found = plan(table, p, avoid=avoid, informed=True)
        if found is not None:
            return (tier,) + found.rank
    return None


def explorer_turn(table: Table, p: int, rng):
    """Trapped: the turn that opens the best way. Knowing only empty slots: a turn that clearly opens
    a better way, a route to a needed landmark within half a roll. Otherwise roll."""
    current = explorer_rank(table, p)
    if current is not None and current[1] == 0:
        return None  # it knows a route to a landmark it needs
    best = None
    best_rank: tuple | None = None if current is None else (0, 0, (table.rules.die + 1) // 2 + 1)
    for slot, sixths in table.turns_allowed(p):
        if table.undoes(p, slot, sixths):
            continue
        rank = opens_way(table, p, slot, sixths, explorer_rank)
        if rank is not None and (best_rank is None or rank < best_rank):
            best, best_rank = (slot, sixths), rank
    return best


def explorer_step(table: Table, p: int, steps_left: int, rng) -> int:
    found = plan(table, p, avoid=True, informed=True) or plan(table, p, avoid=False, informed=True)
    return found.door if found is not None else random_step(table, p, steps_left, rng)


def greedy_turn(table: Table, p: int, rng):
    if way_out(table, p):
        return None
    for slot, sixths in table.turns_allowed(p):
        if not table.undoes(p, slot, sixths) and opens_way(table, p, slot, sixths, way_out):
            return slot, sixths
    return None


def greedy_step(table: Table, p: int, steps_left: int, rng) -> int:
    found = plan(table, p, avoid=False, informed=False)
    return found.door if found is not None else random_step(table, p, steps_left, rng)


@dataclass(frozen=True)
class Policy:
    """A player: ``turn`` and ``step`` share one signature across policies; ``code`` is the fast engine's."""

    name: str
    code: int
    turn: Callable
    step: Callable


_PLAYS = {  # each name's turn and step; its code (the fast engine's) is its place in POLICY_NAMES
    "random": (random_turn_policy, random_step),
    "explorer": (explorer_turn, explorer_step),
    "greedy": (greedy_turn, greedy_step),
}
POLICIES = {name: Policy(name, code, *_PLAYS[name]) for code, name in enumerate(POLICY_NAMES)}


def get_policy(name: str) -> Policy:
    """The policy called ``name``; an unknown name is a one-line error listing the known ones."""
    if name not in POLICIES:
        raise TrailwrightError(f"unknown policy {name!r} (known: {', '.join(POLICIES)})")
    return POLICIES[name]
