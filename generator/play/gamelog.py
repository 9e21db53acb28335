"""One game-log format for every game, simulated or played by people: what happened, round by round.

Glossary
--------
place    a number for where a pawn stands: trail ``t`` of the tile in slot ``s`` is ``E*s + t`` (the
         trail numbered as on the tile's unturned face), landmark ``k`` is ``E*slots + k``, ``E`` the
         tiles' ends (6 on the classic tiles); the fast engine's numbering.
ticked   a bit mask of the required landmarks a player has visited (bit ``k`` for landmark ``k``).
round    ``rounds[0]`` is the set-up (every pawn on the start, nothing laid); ``rounds[t]`` holds the
         players who took a turn in round ``t`` in turn order, the events in the order they happened,
         then every pawn's place and ticked mask as the round ends (the winner's turn ends the game
         and its round).
event    a tuple ``(kind, player, *values)``:
         ``("roll", p, pips)``, ``("step", p, place)`` for each step's arrival,
         ``("lay", p, slot, tile, face, rot)`` when stepping into an empty slot lays a tile (tile
         index in the tile set, face 0 front, turned ``rot`` sixths), ``("turn", p, slot, sixths)``
         instead of a roll, ``("chase", p, place)`` when a hazard sends the pawn away,
         ``("win", p)``.

A log is plain data (``to_dict``/``from_dict`` for JSON Lines) and holds enough to replay the laid
tiles at every round, so ``generator.play.measures`` reads human and simulated games alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

FORMAT = "trailwright-gamelog/1"

Event = tuple


@dataclass(frozen=True)
class Round:
    """One round: who took a turn, the events, then every pawn's place and ticked mask at its end."""

    played: tuple[int, ...]
    events: tuple[Event, ...]
    places: tuple[int, ...]
    ticked: tuple[int, ...]


@dataclass(frozen=True)
class GameLog:
    """A whole game: the seats' players, the rounds from the set-up on, and the winner (-1: the cap)."""

    seats: tuple[str, ...]
    slots: int
    rounds: tuple[Round, ...]
    winner: int

    @property
    def players(self) -> int:
        """How many seats."""
        return len(self.seats)

    @property
    def length(self) -> int:
        """T: the round the game was won in, or the last round played."""
        return len(self.rounds) - 1

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: events as lists."""
        return {
            "format": FORMAT,
            "seats": list(self.seats),
            "slots": self.slots,
            "winner": self.winner,
            "rounds": [
                {
                    "played": list(r.played),
                    "events": [list(e) for e in r.events],
                    "places": list(r.places),
                    "ticked": list(r.ticked),
                }
                for r in self.rounds
            ],
        }

    @staticmethod
    def from_dict(data: dict[str, Any]) -> GameLog:
        """The log ``to_dict`` wrote (checked shallowly: the recorder is trusted, a human log is checked
        where it is read)."""
        if data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} log")
        rounds = tuple(
            Round(tuple(r["played"]), tuple(tuple(e) for e in r["events"]), tuple(r["places"]), tuple(r["ticked"]))
            for r in data["rounds"]
        )
        return GameLog(tuple(data["seats"]), int(data["slots"]), rounds, int(data["winner"]))


def place_number(place: tuple, slots: int, ends: int = 6) -> int:
    """A reference-engine place (``("trail", s, t)`` or ``("landmark", k)``) as the fast engine's number: trail
    ``t`` of slot ``s`` is ``E s + t``, landmark ``k`` is ``E slots + k`` (``E = ends``, a tile's ends)."""
    return ends * place[1] + place[2] if place[0] == "trail" else ends * slots + place[1]


def place_of(number: int, slots: int, ends: int = 6) -> tuple:
    """The reference-engine place a number stands for (the inverse of ``place_number``)."""
    return ("landmark", number - ends * slots) if number >= ends * slots else ("trail", number // ends, number % ends)


@dataclass
class Recorder:
    """Collects a game's events as they happen; ``end_round`` closes a round with the pawns' places."""

    slots: int
    ends: int = 6  # a tile's ends: the places' stride
    played: list = field(default_factory=list)
    events: list = field(default_factory=list)
    rounds: list = field(default_factory=list)

    def place(self, place: tuple) -> int:
        """A reference-engine place as a number (``place_number``)."""
        return place_number(place, self.slots, self.ends)

    def begin_turn(self, player: int) -> None:
        """Player ``player`` takes a turn."""
        self.played.append(player)

    def add(self, kind: str, player: int, *values: int) -> None:
        """Record one event."""
        self.events.append((kind, player, *(int(v) for v in values)))

    def end_round(self, pawns, visited, required: frozenset) -> None:
        """Close the round: every pawn's place and ticked mask."""
        ticked = tuple(sum(1 << k for k in v if k in required) for v in visited)
        self.rounds.append(Round(tuple(self.played), tuple(self.events), tuple(self.place(p) for p in pawns), ticked))
        self.played, self.events = [], []

    def log(self, seats: tuple[str, ...], winner: int) -> GameLog:
        """The finished game."""
        return GameLog(seats, self.slots, tuple(self.rounds), winner)
