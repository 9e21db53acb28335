"""Rooms of a hosted game: seats, bots and the match, with every change recorded before it is shown.

Glossary
--------
game spec    what every room of one host plays: a tile set, a board and rules (``GameSpec``); recorded
             as data in each room's row, so a record replays without the files it came from.
seat         a player's place at the table: a person's name and the hash of the seat token that person
             holds (a reconnecting player presents it and gets the seat back), or a bot's policy.
owner key    given to whoever creates the room: it may fill empty seats with bots.
bots         the simulator's explorer or greedy players, thinking in the fast engine (``play.fastbot``). The owner
             may seat one in an empty seat or hand it a person's seat; when a person lets a turn time out, an
             explorer plays that turn for them (``stand_in``). Both are recorded and in the feed.
bot guesses  a bot that must guess draws from the room's own stream (seeded from the room's seed), never
             from the game's: the recorded actions alone replay the game exactly.

The server (``server.py``) translates HTTP and websocket messages into these calls; this module never sees
either. Every error here is a ``RoomError`` with a one-line reason.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from generator.board import Board
from generator.board.board import board_data, board_from_dict
from generator.errors import shown
from generator.host.store import RoomRecord, Store, digest
from generator.model import TileSet
from generator.model.tileset_io import tileset_from_dict, tileset_to_dict
from generator.play.fastbot import FastBots
from generator.play.game import geometry
from generator.play.match import IllegalMove, Match
from generator.play.policies import POLICIES
from generator.play.rng import game_rng
from generator.play.rules import Rules, check_rules, rules_from_dict, rules_to_dict

BOTS = ("explorer", "greedy")  # the policies that may fill a seat (they keep every rule)
MAX_NAME = 40


class RoomError(ValueError):
    """A request a room refuses (one line)."""


@dataclass(frozen=True)
class GameSpec:
    """What a host's rooms play."""

    tiles: TileSet
    board: Board
    rules: Rules

    @cached_property
    def bots(self) -> FastBots:
        """The bots' thinking, compiled (built once per spec, on the first bot's move)."""
        return FastBots(self.tiles, self.board, self.rules)

    def record(self, players: int, seed: int) -> dict[str, Any]:
        """The room row's game: everything a replay needs, as data."""
        return {
            "tileset": tileset_to_dict(self.tiles),
            "board": board_data(self.board),
            "rules": rules_to_dict(self.rules),
            "players": players,
            "seed": seed,
        }

    @staticmethod
    def from_record(game: dict[str, Any]) -> GameSpec:
        """The spec a room row recorded."""
        board = board_from_dict(game["board"])
        return GameSpec(tileset_from_dict(game["tileset"]), board, check_rules(rules_from_dict(game["rules"]), board))


@dataclass
class Seat:
    """A person (name and seat-token hash) or a bot (its policy)."""

    name: str
    token: str | None = None
    bot: str | None = None


def clean_name(name: Any) -> str:
    """A player's name: text, trimmed, 1 to ``MAX_NAME`` characters, no control characters."""
    if not isinstance(name, str):
        raise RoomError("a name is text")
    name = " ".join("".join(c for c in name if c.isprintable()).split())
    if not 1 <= len(name) <= MAX_NAME:
        raise RoomError(f"a name has 1 to {MAX_NAME} characters")
    return name


@dataclass
class Room:
    """One room: its match, seats and owner (see the module glossary)."""

    id: str
    spec: GameSpec
    players: int
    seed: int
    owner: str  # the owner key's hash
    store: Store | None = None
    seats: list[Seat | None] = field(default_factory=list)
    feed: list[tuple] = field(default_factory=list)  # (seat, event) of every game event so far
    last: tuple | None = None  # (seat, action) of the latest action
    notes: list[tuple] = field(default_factory=list)  # (actions so far, seat, event) of each room event (``_note``)

    def __post_init__(self) -> None:
        self.seats = [None] * self.players
        geo = geometry(self.spec.board, self.spec.rules)
        self.match = Match(self.spec.tiles, geo, self.spec.rules, self.players, self.seed)
        self.guesses = game_rng(self.seed ^ 0x5EED, 1)

    # --- recorded changes ------------------------------------------------------------------------

    def _record(self, kind: str, data: dict[str, Any]) -> None:
        if self.store is not None:
            self.store.append(self.id, kind, data)

    def sit(self, name: Any, seat: Any = None) -> tuple[int, str]:
        """A person takes a seat (the first free one, or ``seat``): (seat, the seat token to keep)."""
        name = clean_name(name)
        free = [i for i, s in enumerate(self.seats) if s is None]
        if seat is None:
            if not free:
                raise RoomError("every seat is taken")
            seat = free[0]
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in range(self.players):
            raise RoomError(f"no seat {shown(seat, 20)}: seats are 0 to {self.players - 1}")
        if self.seats[seat] is not None:
            raise RoomError(f"seat {seat} is taken")
        token = secrets.token_urlsafe(24)
        self._record("seat", {"seat": seat, "name": name, "token": digest(token)})
        self.seats[seat] = Seat(name, digest(token))
        return seat, token

    def add_bot(self, seat: Any, policy: Any, owner_key: Any) -> None:
        """The owner fills a seat with a bot: an empty one, or a person's (handed to the bot for the rest of the
        game: the person's seat token holds it no more)."""
        if not isinstance(owner_key, str) or digest(owner_key) != self.owner:
            raise RoomError("only the room's owner may add bots")
        if not isinstance(policy, str) or policy not in BOTS:
            raise RoomError(f"bots play {' or '.join(BOTS)}, not {shown(policy)}")
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in range(self.players):
            raise RoomError(f"no seat {shown(seat, 20)}: seats are 0 to {self.players - 1}")
        held = self.seats[seat]
        if held is not None and held.bot is not None:
            raise RoomError(f"seat {seat} is a bot's already")
        if held is not None and self.match.over:
            raise RoomError("the game is over")
        self._record("bot", {"seat": seat, "policy": policy, **({"handed": held.name} if held else {})})
        self._bot_seat(seat, policy, handed=held is not None)

    def _bot_seat(self, seat: int, policy: str, handed: bool) -> None:
        self.seats[seat] = Seat(f"{policy} bot {seat + 1}", bot=policy)  # two bots of a kind: two names
        if handed:
            self._note(seat, ("handed", policy))

    def _note(self, seat: int, event: tuple) -> None:
        """A room event that is no game action (a seat handed to a bot, a turn a bot played for a person), in the
        feed at its place among the actions (``notes``: the replay puts it there too)."""
        self.notes.append((len(self.match.actions), seat, event))
        self.feed.append((seat, event))

    def stand_in(self, seat: int) -> None:
        """The person in ``seat`` let the turn time out: a bot plays the rest of this turn (recorded)."""
        self._record("timeout", {"seat": seat})
        self._note(seat, ("timeout",))

    def seat_of(self, token: Any) -> int | None:
        """The seat a seat token holds (None: no seat of this room)."""
        if not isinstance(token, str) or not token:
            return None
        hashed = digest(token)
        return next((i for i, s in enumerate(self.seats) if s is not None and s.token == hashed), None)

    def act(self, token: Any, action: Any) -> list[tuple]:
        """The holder of seat ``token`` does ``action`` (a list); recorded, then returned as game events."""
        seat = self.seat_of(token)
        if seat is None:
            raise RoomError("that token holds no seat in this room")
        return self.act_for(seat, action)

    def act_for(self, seat: int, action: Any) -> list[tuple]:
        """Seat ``seat`` does ``action`` (the caller has checked that it holds the seat)."""
        if self.match.over:
            raise RoomError("the game is over")
        if None in self.seats:
            raise RoomError("waiting for every seat to be filled")
        if seat != self.match.current:
            raise RoomError(f"it is seat {self.match.current}'s turn")
        if not isinstance(action, list) or not 1 <= len(action) <= 3:
            raise RoomError('an action is a list such as ["roll"] or ["step", 0]')
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in action[1:]):
            raise RoomError("an action's numbers are whole numbers")
        move = tuple(action)
        if move not in self.match.legal():
            raise RoomError(self.match.why_not(move))
        recorder = self.match.table.recorder
        mark = (len(recorder.rounds), len(recorder.events))
        self.match.act(move)  # legal: it cannot fail, so what is recorded next is what happened
        caused = _events_since(recorder, mark)
        self._record("act", {"seat": seat, "action": list(move), "events": [list(e) for e in caused]})
        self.feed += [(seat, e) for e in caused]
        self.last = (seat, move)
        return caused

    def bot_move(self, stand_in: str | None = None) -> list[tuple] | None:
        """One action of the bot whose turn it is, or of the ``stand_in`` policy for a person's turn (None: it is no
        bot's turn, or the game is over)."""
        action = self.bot_action(stand_in)
        return None if action is None else self.act_for(self.match.current, list(action))

    def bot_action(self, stand_in: str | None = None) -> tuple | None:
        """What ``bot_move`` would do, thought out but not done (the room is not changed but for the bots' guesses)."""
        if self.match.over or None in self.seats:
            return None
        seat = self.seats[self.match.current]
        name = None if seat is None else seat.bot or stand_in
        if name is None:
            return None
        policy = POLICIES[name]
        action = self.spec.bots.next_action(self.match, policy, self.guesses)
        if action not in self.match.legal():  # never seen (tests/test_fastbot.py): the reference engine decides
            action = self.match.next_action(policy, self.guesses)
        return action

    # --- restored from the record ------------------------------------------------------------------

    @staticmethod
    def restore(record: RoomRecord, store: Store | None = None) -> Room:
        """The room its record makes: the same seats, and the match replayed action by action."""
        game = record.game
        room = Room(record.id, GameSpec.from_record(game), game["players"], game["seed"], record.owner)
        for n, (kind, data) in enumerate(record.events):
            try:
                if kind == "seat":
                    room.seats[data["seat"]] = Seat(data["name"], data["token"])
                elif kind == "bot":
                    room._bot_seat(data["seat"], data["policy"], handed="handed" in data)
                elif kind == "timeout":
                    room._note(data["seat"], ("timeout",))
                elif kind == "act":
                    room.act_for(data["seat"], data["action"])
            except (RoomError, IllegalMove, KeyError, IndexError, TypeError) as err:
                raise RoomError(f"room {record.id}, event {n}: {err}") from None
        room.store = store
        return room


def _events_since(recorder, mark: tuple[int, int]) -> list[tuple]:
    """The game events recorded since ``mark`` (rounds closed, events of the open round)."""
    rounds, events = mark
    if len(recorder.rounds) == rounds:
        return list(recorder.events[events:])
    closed = [e for r in recorder.rounds[rounds:] for e in r.events]
    return closed[events:] + list(recorder.events)
