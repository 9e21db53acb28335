"""Every hosted game, recorded in SQLite before anyone is told of it.

Glossary
--------
room row    a room's id, the game it plays (tile set, board and rules as data, players, seed) and a hash of
            its owner key: everything a replay needs, so a record never depends on files elsewhere.
finished    the rooms whose game is over: a server restores and keeps in memory only the others.
event row   ``(room, n, kind, data)``, numbered from 0 in each room: ``seat`` (a name takes a seat, with the
            hash of its seat token), ``bot`` (a bot fills a seat; ``handed``: the person it replaces), ``act``
            (the seat's action and the game events it caused), ``timeout`` (the seat's person let the turn time
            out: the ``act`` rows that follow are a bot's). A room's state is its room row plus its events
            replayed in order.
host token  kept in ``meta`` (``host_token``), so the lobby link a host printed outlives a restart; whoever can
            read the games file can make rooms.
durability  WAL journal, ``synchronous = NORMAL``: a commit has reached the operating system before
            ``append`` returns, so killing the server (even ``kill -9``) loses nothing acknowledged; a power
            cut may lose the last moments (``--durable`` syncs every commit to the disk).
"""

from __future__ import annotations

import functools
import hashlib
import json
import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")
FORMAT = "trailwright-games/1"
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY, n INTEGER NOT NULL UNIQUE, game TEXT NOT NULL, owner TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    room TEXT NOT NULL REFERENCES rooms(id), n INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL,
    PRIMARY KEY (room, n)
);
CREATE TABLE IF NOT EXISTS finished (room TEXT PRIMARY KEY REFERENCES rooms(id));
"""


def _locked(method: Callable[P, R]) -> Callable[P, R]:
    """``method`` holding the store's lock: the server's event loop and a worker thread (a studio call) never
    interleave two transactions on the one connection."""

    @functools.wraps(method)
    def locked(*args: P.args, **kwargs: P.kwargs) -> R:
        with args[0].lock:  # type: ignore[attr-defined]
            return method(*args, **kwargs)

    return locked


def digest(secret: str) -> str:
    """What is stored of a token: its SHA-256 (a leaked database holds no usable token)."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class RoomRecord:
    """A room as recorded: its id, the game's data and its events in order."""

    id: str
    game: dict[str, Any]
    owner: str
    events: tuple[tuple[str, dict[str, Any]], ...]


class Store:
    """The SQLite file of a host (one connection, used from the server's event loop); ``read_only`` for export and
    reports, which never write to the file they read (nor turn it to WAL)."""

    def __init__(self, path: str | Path, durable: bool = False, read_only: bool = False):
        self.path, self.lock = str(path), threading.RLock()
        if read_only:
            uri = Path(path).resolve().as_uri() + "?mode=ro"
            self.db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        else:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)  # one event loop
        tables = {name for (name,) in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if (tables or read_only) and "meta" not in tables:  # never add our tables to someone else's database
            held = f"it holds {', '.join(sorted(tables))}" if tables else "it is empty"
            raise ValueError(f"not a {FORMAT} file ({held})")
        if not read_only:
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute(f"PRAGMA synchronous = {'FULL' if durable else 'NORMAL'}")
            self.db.executescript(SCHEMA)
        found = self.db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        if found is None and not read_only:
            self.db.execute("INSERT INTO meta VALUES ('format', ?)", (FORMAT,))
        elif found is None or found[0] != FORMAT:
            raise ValueError(f"a {found[0] if found else 'formatless'} file, not {FORMAT}")
        self.counts = dict(self.db.execute("SELECT room, COUNT(*) FROM events GROUP BY room").fetchall())

    @_locked
    def create(self, room: str, game: dict[str, Any], owner_hash: str) -> None:
        """Record a new room."""
        n = self.db.execute("SELECT COALESCE(MAX(n), -1) + 1 FROM rooms").fetchone()[0]
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("INSERT INTO rooms VALUES (?, ?, ?, ?)", (room, n, json.dumps(game), owner_hash))
        self.counts[room] = 0

    @_locked
    def append(self, room: str, kind: str, data: dict[str, Any]) -> int:
        """Record one event of ``room``; returns its number. It is committed when this returns."""
        n = self.counts[room]
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("INSERT INTO events VALUES (?, ?, ?, ?)", (room, n, kind, json.dumps(data)))
        self.counts[room] = n + 1
        return n

    def rooms(self) -> Iterator[RoomRecord]:
        """Every room with its events, in the order they were created."""
        for room in self.ids():
            found = self.room(room)
            if found is not None:
                yield found

    @_locked
    def room(self, room: str) -> RoomRecord | None:
        """One room with its events (None: no such room)."""
        row = self.db.execute("SELECT game, owner FROM rooms WHERE id = ?", (room,)).fetchone()
        if row is None:
            return None
        events = self.db.execute("SELECT kind, data FROM events WHERE room = ? ORDER BY n", (room,)).fetchall()
        return RoomRecord(room, json.loads(row[0]), row[1], tuple((k, json.loads(d)) for k, d in events))

    @_locked
    def ids(self) -> list[str]:
        """Every room's id, in the order they were created."""
        return [r for (r,) in self.db.execute("SELECT id FROM rooms ORDER BY n")]

    @_locked
    def finish(self, room: str) -> None:
        """Mark ``room``'s game over (its record stays; the server no longer keeps it in memory)."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("INSERT OR IGNORE INTO finished VALUES (?)", (room,))

    @_locked
    def finished(self) -> set[str]:
        """The rooms whose game is over (as marked by ``finish``)."""
        return {r for (r,) in self.db.execute("SELECT room FROM finished")}

    @_locked
    def host_token(self, make, new: bool = False) -> str:
        """The host token kept in the file (``make()`` makes one when there is none, or when ``new``)."""
        found = self.db.execute("SELECT value FROM meta WHERE key = 'host_token'").fetchone()
        if found is not None and not new:
            return found[0]
        token = make()
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('host_token', ?)", (token,))
        return token

    def close(self) -> None:
        """Close the file."""
        self.db.close()


def open_existing(path: str | Path) -> Store:
    """A store that must already exist (for export and reports): a missing file is an error, not a new one."""
    if not Path(path).is_file():
        raise FileNotFoundError(f"{path}: no such games file")
    return Store(path, read_only=True)
