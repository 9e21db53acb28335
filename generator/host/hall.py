"""The game server's hall: the rooms one host serves, their limits, bots, turn timers and warm-up.

Glossary
--------
hall          everything one host serves (``Hall``): the game spec and its art, the rooms, the store,
              the host token (it makes rooms) and the limits.
host token    kept in the games file and printed when the server starts, as Jupyter prints its token: the
              lobby page and the room API need it. A room's id is its invite (unguessable); a seat token acts
              for one seat.
message       a websocket text frame of JSON (``generator.host.sockets``).
in memory     the rooms being played. A finished room, and one nobody has visited or moved in for
              ``idle_minutes``, is put away (its record stays) and restored from the record on its next visit;
              only unfinished rooms count against ``Limits.rooms``.
room lock     one per room: a change to a room (a message, a bot's move) holds it, so a bot thinking in a worker
              thread and a player's message never change the room at once. The event loop never thinks: bots
              and replays are worked out in worker threads, so one room's work never holds up another's; a bot
              thinks at most ``Limits.bot_seconds`` over an action, then takes the first legal one.
warming up    the bots' compiled kernels are built (or read from numba's cache) in a worker thread when the
              server starts; until they are ready, ``/api/health`` and every state say ``warming``, and bots
              wait for them rather than compile in a room.
turn timeout  a person who has not acted for ``Limits.turn_timeout`` seconds on their turn has the rest of that
              turn played by an explorer bot (recorded: ``timeout``); their next action is theirs again.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any

from generator.host.rooms import GameSpec, Room, RoomError, Seat
from generator.host.store import Store, digest
from generator.host.views import (
    feed_lines,
    replay_frames,
    shared_state,
    state,
    state_text,
)
from generator.render.board import render_board
from generator.table.scene import TableArt, layout_table_art
from generator.web.guard import REFUSALS

log = logging.getLogger("trailwright.host")
ROOM_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
REPLAYS = 64  # replays kept built (the most recently asked for)
WARM_ACTIONS = 40  # a warm-up game's length: every kernel a bot's turn and step use


@dataclass(frozen=True)
class Limits:
    """How much one host takes, and how long it waits."""

    rooms: int = 200  # unfinished rooms
    connections_per_address: int = 32
    message_bytes: int = 4096
    messages_per_second: float = 10.0
    message_burst: float = 40.0
    turn_timeout: float = 120.0  # seconds a person may take over one action of their turn
    idle_minutes: float = 60.0  # a room nobody visits or moves in is put away after this
    keep_finished: bool = False  # the studio keeps its few playtests in memory, finished or not
    bot_seconds: float = 5.0  # the longest a bot may think over one action (then it takes the first legal one)


class Hall:
    """The rooms one host serves, the unfinished ones restored from its store when it starts."""

    def __init__(self, spec: GameSpec, art: TableArt, store: Store, token: str, limits: Limits, bot_delay: float):
        self.spec, self.art, self.store, self.token = spec, art, store, token
        self.limits, self.bot_delay = limits, bot_delay
        self.rooms: dict[str, Room] = {}
        self.clients: dict[str, set] = {}  # per room id, its ``sockets.Client``s
        self.addresses: dict[str, int] = {}
        self.bots: dict[str, asyncio.Task] = {}
        self.timers: dict[str, asyncio.Task] = {}
        self.overdue: dict[str, asyncio.Future] = {}  # per room id, a bot's thinking past ``bot_seconds``, if any
        self.feeds: dict[str, list[str]] = {}
        self.arts: dict[str, TableArt] = {}  # per room id, the art of its game
        self.locks: dict[str, asyncio.Lock] = {}
        self.touched: dict[str, float] = {}
        self.replays: OrderedDict[str, tuple[int, bytes]] = OrderedDict()
        self.ready, self._warming, self._creating = threading.Event(), threading.Lock(), threading.Lock()
        self.done = store.finished()  # the finished rooms' ids
        self.open_rooms = 0
        for room_id in store.ids():
            if room_id not in self.done:
                self.open_rooms += 1
            if room_id not in self.done or limits.keep_finished:
                self.keep(Room.restore(store.room(room_id), store))  # type: ignore[arg-type]

    # --- rooms in memory ---------------------------------------------------------------------------

    def keep(self, room: Room) -> Room:
        """``room`` in memory (a finished one is marked so in the store)."""
        self.rooms[room.id] = room
        self.clients.setdefault(room.id, set())
        self.touched[room.id] = time.monotonic()
        self.note_over(room)
        return room

    def note_over(self, room: Room) -> None:
        """Once ``room``'s game is over: marked finished, and no longer counted against the room limit."""
        if room.match.over and room.id not in self.done:
            self.store.finish(room.id)
            self.done.add(room.id)
            self.open_rooms -= 1

    def lock(self, room_id: str) -> asyncio.Lock:
        """The room lock of ``room_id`` (see the module glossary)."""
        return self.locks.setdefault(room_id, asyncio.Lock())

    async def find(self, room_id: str) -> Room | None:
        """The room ``room_id``, restored from its record (in a worker thread) when it was put away."""
        if not ROOM_ID.fullmatch(room_id):
            return None
        room = self.rooms.get(room_id)
        if room is None:
            async with self.lock(room_id):
                room = self.rooms.get(room_id)
                record = None if room is not None else self.store.room(room_id)
                if record is None and room is None:
                    return None
                if room is None:
                    room = self.keep(await asyncio.to_thread(Room.restore, record, self.store))  # type: ignore[arg-type]
                    self.kick_bots(room)
                    self.watch_turn(room)
        self.touched[room_id] = time.monotonic()
        return room

    def put_away(self, now: float | None = None, only: str | None = None) -> list[str]:
        """Rooms nobody is connected to that are finished, or idle for ``idle_minutes``, leave memory (``only``: that
        room alone, as its last client leaves)."""
        now = time.monotonic() if now is None else now
        gone = []
        rooms = self.rooms.items() if only is None else [(only, self.rooms[only])] if only in self.rooms else []
        for room_id, room in list(rooms):
            idle = now - self.touched.get(room_id, now) >= 60 * self.limits.idle_minutes
            over = room.match.over and not self.limits.keep_finished
            bot, lock = self.bots.get(room_id), self.locks.get(room_id)
            moving = bot is not None and not bot.done() and bot is not asyncio.current_task()
            busy = moving or (lock is not None and lock.locked())  # a move under way
            if self.clients.get(room_id) or busy or not (over or idle):
                continue
            for tasks in (self.bots, self.timers):
                task = tasks.pop(room_id, None)
                if task is not None:
                    task.cancel()
            for table in (self.rooms, self.clients, self.feeds, self.arts, self.touched, self.locks):
                table.pop(room_id, None)
            gone.append(room_id)
        return gone

    def create(self, players: Any, seed: Any = None, spec: GameSpec | None = None) -> tuple[Room, str]:
        """A new room for ``players`` (the rules' range) and its owner key; it plays ``spec`` (default: the
        host's game)."""
        spec = spec or self.spec
        rules = spec.rules
        if (
            not isinstance(players, int)
            or isinstance(players, bool)
            or not rules.players_min <= players <= rules.players_max
        ):
            raise RoomError(f"players: a whole number from {rules.players_min} to {rules.players_max}")
        if seed is None:
            seed = secrets.randbits(32)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**32:
            raise RoomError("seed: a whole number from 0 to 2**32 - 1")
        with self._creating:  # called from worker threads (the room's record is a disk write)
            if self.open_rooms >= self.limits.rooms:
                raise RoomError(f"this host holds at most {self.limits.rooms} unfinished rooms")
            room_id, owner = secrets.token_urlsafe(16), secrets.token_urlsafe(24)
            self.store.create(room_id, spec.record(players, seed), digest(owner))
            self.open_rooms += 1
            return self.keep(Room(room_id, spec, players, seed, digest(owner), self.store)), owner

    # --- what clients see ----------------------------------------------------------------------------

    def art_of(self, room: Room) -> TableArt:
        """The art of ``room``'s game: the host's, or the same look drawn for a room of another tile set, board or
        rules (a studio's playtest of an edit, a record from an earlier tile set)."""
        art = self.arts.get(room.id)
        if art is None:
            spec = room.spec
            arts = (self.art, *self.arts.values())
            same = [a for a in arts if (a.tileset, a.board, a.game) == (spec.tiles, spec.board, spec.rules)]
            if same:
                art = same[0]
            else:
                style, title, made = self.art.style, self.art.title, self.art.provenance
                if spec.board.geometry != self.art.board.geometry:  # another geometry's art (``layout_table_art``)
                    art = layout_table_art(spec.tiles, spec.board, style, title, made, spec.rules)
                else:
                    board = self.art.board_svg if spec.board == self.art.board else render_board(spec.board, style)
                    art = replace(self.art, tileset=spec.tiles, board=spec.board, board_svg=board, rules=spec.rules)
            self.arts[room.id] = art
        return art

    async def broadcast(self, room: Room) -> None:
        """Every client of ``room`` gets the state it may see (sent after the change is recorded)."""
        art = self.art_of(room)
        shared = json.dumps({**shared_state(room, art, self.lines(room)), "warming": not self.ready.is_set()})
        for client in list(self.clients.get(room.id, ())):
            if client.seat is not None and room.seats[client.seat].token is None:
                client.seat = None  # the owner handed the seat to a bot
            try:
                await client.ws.send_text(state_text(shared, room, art, client.seat))
            except Exception:  # a closed socket: it is dropped, the others carry on
                self.clients[room.id].discard(client)

    def lines(self, room: Room) -> list[str]:
        """The room's feed in words, kept up to date (each event described once)."""
        return feed_lines(room, self.art_of(room), self.feeds.setdefault(room.id, []))

    def state(self, room: Room, seat: int | None) -> dict:
        """What the holder of ``seat`` sees of ``room``."""
        return {**state(room, self.art_of(room), seat, self.lines(room)), "warming": not self.ready.is_set()}

    async def changed(self, room: Room) -> None:
        """After a change to ``room``: everyone told, the game's end noted, the bots and the turn timer started."""
        self.touched[room.id] = time.monotonic()
        self.note_over(room)
        await self.broadcast(room)
        self.kick_bots(room)
        self.watch_turn(room)

    async def replay(self, room: Room) -> bytes:
        """The room's replay as JSON, built in a worker thread once per state of the game and kept."""
        key = len(room.match.actions)
        cached = self.replays.get(room.id)
        if cached is None or cached[0] != key:
            async with self.lock(room.id):
                key, cached = len(room.match.actions), self.replays.get(room.id)
                if cached is None or cached[0] != key:
                    art = self.art_of(room)
                    body = await asyncio.to_thread(lambda: json.dumps({"frames": replay_frames(room, art)}).encode())
                    cached = self.replays[room.id] = (key, body)
                    while len(self.replays) > REPLAYS:
                        self.replays.popitem(last=False)
        self.replays.move_to_end(room.id)
        return cached[1]

    # --- bots, the turn timer and the warm-up --------------------------------------------------------

    def warm(self) -> None:
        """Build the bots' kernels (a short game of bots, thrown away); ``ready`` once done, whatever happens."""
        with self._warming:
            if self.ready.is_set():
                return
            try:
                room = Room("warm-up", self.spec, self.spec.rules.players_min, 0, "")
                room.seats = [Seat("bot", bot=("explorer", "greedy")[i % 2]) for i in range(room.players)]
                for _ in range(WARM_ACTIONS):
                    if room.bot_move() is None:
                        break
            except Exception:  # a bot's move will say it again, in its room
                log.exception("warming the bots up failed")
            finally:
                self.ready.set()

    def kick_bots(self, room: Room) -> None:
        """Let the bots of ``room`` move, one action each ``bot_delay`` seconds, until a person's turn."""
        task = self.bots.get(room.id)
        if task is None or task.done():
            self.bots[room.id] = asyncio.get_running_loop().create_task(self._bots(room))

    async def _bots(self, room: Room) -> None:
        try:
            ended = await self._bot_loop(room)
        except Exception:  # never silently: the room's next change starts its bots again
            log.exception("the bots of room %s stopped", room.id)
            return
        if ended and self.rooms.get(room.id) is room:
            self.put_away(only=room.id)  # a game the bots ended, nobody watching: the room leaves memory

    async def _bot_loop(self, room: Room) -> bool:
        """The bots' moves until a person's turn; whether they ended the game."""
        moves = 0
        while True:
            await asyncio.sleep(self.bot_delay)
            if not self.ready.is_set():
                await asyncio.to_thread(self.warm)
            async with self.lock(room.id):
                moved = await self.bot_act(room)
            if not moved:
                return moves > 0 and room.match.over
            moves += 1
            await self.changed(room)

    async def bot_act(self, room: Room, stand_in: str | None = None) -> bool:
        """One bot action in ``room`` (its lock held): thought out in a worker thread for at most ``bot_seconds``,
        else the first legal action, so that a room never waits on a bot for longer; whether one was taken. A thread
        cannot be stopped: while one thinks past its bound, the room's bots take the first legal action without
        starting another, so a room holds one worker thread at most, however long a bot thinks."""
        late = self.overdue.get(room.id)
        if late is not None and late.done():
            del self.overdue[room.id]
            late = None
        action = None
        if late is None:
            job = asyncio.ensure_future(asyncio.to_thread(room.bot_action, stand_in))
            try:
                action = await asyncio.wait_for(asyncio.shield(job), self.limits.bot_seconds)
            except TimeoutError:
                job.add_done_callback(lambda j: j.cancelled() or j.exception())  # its answer comes too late: dropped
                self.overdue[room.id] = job
                log.warning(
                    "a bot in room %s thought for over %g s: it takes the first legal action",
                    room.id,
                    self.limits.bot_seconds,
                )
                late = job
        if late is not None:
            legal = [] if room.match.over else room.match.legal()
            action = legal[0] if legal and None not in room.seats else None
        if action is None:
            return False
        room.act_for(room.match.current, list(action))
        return True

    def watch_turn(self, room: Room) -> None:
        """Start the turn timer of ``room`` afresh when it is a person's turn (see the module glossary)."""
        old = self.timers.pop(room.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if room.match.over or None in room.seats or room.seats[room.match.current].bot:  # type: ignore[union-attr]
            return
        mark = (room.match.current, len(room.match.actions))
        self.timers[room.id] = asyncio.get_running_loop().create_task(self._timeout(room, mark))

    async def _timeout(self, room: Room, mark: tuple[int, int]) -> None:
        await asyncio.sleep(self.limits.turn_timeout)
        if not self.ready.is_set():
            await asyncio.to_thread(self.warm)
        seat = mark[0]
        async with self.lock(room.id):
            if (room.match.current, len(room.match.actions)) != mark or room.match.over:
                return
            room.stand_in(seat)
        await self.broadcast(room)
        while True:  # the rest of the turn, unless the person acts again first
            async with self.lock(room.id):
                if room.match.over or room.match.current != seat or len(room.match.actions) != mark[1]:
                    break
                await self.bot_act(room, "explorer")
                mark = (seat, len(room.match.actions))
            self.note_over(room)
            await self.broadcast(room)
            await asyncio.sleep(self.bot_delay)
        self.timers.pop(room.id, None)
        await self.changed(room)

    async def sweep(self) -> None:
        """Put rooms away (``put_away``) and say the refusal log's summaries, every minute at most, for ever."""
        while True:
            await asyncio.sleep(min(60.0, max(0.05, 15 * self.limits.idle_minutes)))
            self.put_away()
            REFUSALS.flush()  # the summary lines of clients who went quiet
