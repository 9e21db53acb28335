"""Recorded games: exported as JSON Lines, proven complete by replaying them in the reference engine, and read
by the same measures as the simulator's games.

Glossary
--------
export line  one JSON object per room that has a game: its id, the game spec (tile set, board, rules as
             data), players and seed, the seats (names, or bots), the actions in order, whether the game is
             over and its winner, and its game log (``trailwright-gamelog/1``).
replays      ``replay_line`` plays a line's actions from its seed in the reference engine (``match.replay``):
             the final tiles, pawns and log must be the recorded ones.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from generator.host.rooms import GameSpec, Room
from generator.host.store import FORMAT, open_existing
from generator.play.game import geometry
from generator.play.gamelog import GameLog
from generator.play.match import Match, replay

EXPORT_FORMAT = "trailwright-game/1"


def rooms_of(path: str | Path) -> Iterator[tuple[dict[str, Any], Room]]:
    """Every recorded room of the games file ``path`` (its game record and the room it replays to)."""
    store = open_existing(path)
    try:
        for record in store.rooms():
            yield record.game, Room.restore(record)
    finally:
        store.close()


def export_line(game: dict[str, Any], room: Room) -> dict[str, Any]:
    """A room as one export line (see the module glossary)."""
    seats = [None if s is None else ({"bot": s.bot} if s.bot else {"name": s.name}) for s in room.seats]
    return {
        "format": EXPORT_FORMAT,
        "store": FORMAT,
        "room": room.id,
        "game": game,
        "seats": seats,
        "actions": [list(a) for a in room.match.actions],
        "over": room.match.over,
        "winner": room.match.winner,
        "log": room.match.log(seat_labels(room)).to_dict(),
    }


def seat_labels(room: Room) -> tuple[str, ...]:
    """A log's seat labels: the bot's policy, or ``human``."""
    return tuple("empty" if s is None else s.bot or "human" for s in room.seats)


def replay_line(line: dict[str, Any]) -> Match:
    """The match a line's actions make in the reference engine; ``ValueError`` when it is not the recorded one."""
    spec = GameSpec.from_record(line["game"])
    geo = geometry(spec.board, spec.rules)
    match = replay(spec.tiles, geo, spec.rules, line["game"]["players"], line["game"]["seed"], 0, line["actions"])
    log = match.log(tuple(GameLog.from_dict(line["log"]).seats))
    if log.to_dict() != line["log"] or match.winner != line["winner"] or match.over != line["over"]:
        raise ValueError(f"room {line['room']}: its actions do not replay to the recorded game")
    return match
