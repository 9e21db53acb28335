"""The compact game log: a ``GameLog`` as rows of six numbers, which the ``fast`` engine writes and the
compiled measures read.

A row is ``(kind, player, a, b, c, d)``; the kinds are the log's events (see ``gamelog``) plus
``BEGIN`` (the player takes a turn) and ``END`` (one row per player closing a round: ``a`` the place,
``b`` the ticked mask). A game's rows are round 0's ``END`` rows, then each round's turns and events
and its ``END`` rows. ``to_rows`` and ``from_rows`` convert exactly, both ways.
"""

from __future__ import annotations

import numpy as np

from generator.jitcache import njit
from generator.model.geometry import CLASSIC, TileGeometry
from generator.play.gamelog import GameLog, Round

ROW = 6
ROW_TYPE = np.int32  # a place, a mask of landmarks or a tile number fits; half the memory of int64
BEGIN, ROLL, STEP, LAY, TURN, CHASE, WIN, END = range(8)
KINDS = ("begin", "roll", "step", "lay", "turn", "chase", "win", "end")
CODE = {name: code for code, name in enumerate(KINDS)}


@njit(cache=True)
def most_rows(cap, players, die):
    """The most rows one game can write: its set-up, then per round and player a turn's begin, roll, a lay
    and a step (or a step and a chase) per pip, the win, and the round's end."""
    return players + cap * players * (2 * die + 4)


def to_rows(log: GameLog) -> np.ndarray:
    """``log`` as an (rows, 6) int64 array."""
    rows: list[tuple[int, ...]] = []

    def close(r: Round) -> None:
        rows.extend(
            (END, q, place, ticked, 0, 0) for q, (place, ticked) in enumerate(zip(r.places, r.ticked, strict=True))
        )

    close(log.rounds[0])
    for r in log.rounds[1:]:
        turns = iter(r.played)  # a round's players are distinct, and a turn's events are its player's
        current = None
        for event in r.events:
            while event[0] != "win" and event[1] != current:
                current = next(turns)
                rows.append((BEGIN, current, 0, 0, 0, 0))
            if event[0] == "win":
                rows.extend((BEGIN, q, 0, 0, 0, 0) for q in turns)
            rows.append(_padded(event))
        rows.extend((BEGIN, q, 0, 0, 0, 0) for q in turns)
        close(r)
    return np.array(rows, ROW_TYPE).reshape(-1, ROW)


def _padded(event) -> tuple[int, ...]:
    kind, p, *values = event
    return (CODE[kind], p, *values, *(0,) * (4 - len(values)))


def from_rows(rows: np.ndarray, seats: tuple[str, ...], slots: int, winner: int) -> GameLog:
    """The ``GameLog`` of one game's rows."""
    players, width = len(seats), {"roll": 1, "step": 1, "lay": 4, "turn": 2, "chase": 1, "win": 0}
    rounds: list[Round] = []
    played: list[int] = []
    events: list[tuple] = []
    ends: list[tuple[int, int]] = []
    for kind, p, *values in rows.tolist():
        if kind == BEGIN:
            played.append(p)
        elif kind == END:
            ends.append((values[0], values[1]))
            if len(ends) == players:
                places, ticked = zip(*ends, strict=True)
                rounds.append(Round(tuple(played), tuple(events), places, ticked))
                played, events, ends = [], [], []
        else:
            name = KINDS[kind]
            events.append((name, p, *values[: width[name]]))
    return GameLog(seats, slots, tuple(rounds), winner)


def check_rows(
    rows: np.ndarray,
    offsets: np.ndarray,
    players: int,
    slots: int,
    tiles: int,
    marks: int,
    cap: int,
    geometry: TileGeometry = CLASSIC,
) -> None:
    """Raise ``ValueError`` naming the first game and row whose numbers lie outside the board (its tiles'
    ``geometry``: ends, rotations, faces), the tile set or the seats (a compiled replay reads every number as an
    index, so a log from elsewhere is checked first)."""
    rows = np.asarray(rows)
    if rows.ndim != 2 or rows.shape[1] != ROW:
        raise ValueError(f"a compact log has rows of {ROW} numbers, not shape {rows.shape}")
    offsets = np.asarray(offsets)
    if offsets.ndim != 1 or len(offsets) < 1 or offsets[0] != 0 or np.any(np.diff(offsets) < 0):
        raise ValueError("the game offsets must start at 0 and never fall")
    if offsets[-1] > len(rows):
        raise ValueError(f"the game offsets reach row {offsets[-1]} of {len(rows)}")
    kind, p, a, b, c, d = (rows[: offsets[-1], i].astype(np.int64) for i in range(ROW))
    places, masks, turns = geometry.ends * slots + marks, (1 << marks) - 1, geometry.rotations
    bad = (kind < 0) | (kind >= len(KINDS)) | (p < 0) | (p >= players)
    bad |= ((kind == STEP) | (kind == CHASE) | (kind == END)) & ((a < 0) | (a >= places))
    bad |= (kind == END) & ((b < 0) | (b > masks))
    bad |= ((kind == LAY) | (kind == TURN)) & ((a < 0) | (a >= slots))
    bad |= (kind == LAY) & ((b < 0) | (b >= tiles) | (c < 0) | (c >= geometry.faces) | (d < 0) | (d >= turns))
    bad |= (kind == TURN) & ((b <= -turns) | (b >= turns))
    if bad.any():
        row = int(np.argmax(bad))
        game = int(np.searchsorted(offsets, row, side="right")) - 1
        raise ValueError(f"game {game}, row {row - offsets[game]}: {rows[row].tolist()} is not a move on this board")
    ends = np.add.reduceat((kind == END).astype(np.int64), offsets[:-1]) if len(offsets) > 1 else np.zeros(0)
    counts = np.diff(offsets)
    short = (counts == 0) | (ends % players != 0) | (ends < players)
    if short.any():
        raise ValueError(f"game {int(np.argmax(short))} does not close its rounds with one end row per player")
    long = ends > (cap + 1) * players
    if long.any():
        raise ValueError(f"game {int(np.argmax(long))} has more rounds than the rules' cap of {cap}")
