"""The game server as a real process on loopback: killed with SIGKILL mid-game, restarted, and nothing a client
saw acknowledged is lost. Bounded in moves and seconds; the server is always stopped."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.host_helpers import free_port, post_room, server

pytestmark = pytest.mark.slow


def latest(ws, token: str) -> dict:
    ws.send(json.dumps({"type": "hello", "token": token, "id": "now"}))
    for _ in range(5000):
        m = json.loads(ws.recv(timeout=10))
        if m.get("re") == "now":
            assert m["type"] == "state", m
            return m
    raise AssertionError("no reply")


def play_until(ws, token: str, seat: int, enough) -> dict:
    """Play the person's seat (its first legal action) until ``enough(state)``; returns the last state seen."""
    state = latest(ws, token)
    for _ in range(3000):
        if enough(state) or state["over"]:
            return state
        if state["current"] == seat and state["legal"]:
            ws.send(json.dumps({"type": "act", "token": token, "action": state["legal"][0]}))
        time.sleep(0.15)  # within the server's 10 messages a second
        state = latest(ws, token)
    raise AssertionError("the game did not move")


def test_a_killed_server_resumes_every_room_at_its_last_recorded_move(tmp_path):
    from websockets.sync.client import connect

    db, port = tmp_path / "games.db", free_port()
    with server(db, port) as proc:
        made = post_room(port)
        url = f"ws://127.0.0.1:{port}/ws/{made['room']}"
        with connect(url, open_timeout=10) as ws:
            ws.send(json.dumps({"type": "sit", "name": "Ann"}))
            seated = next(m for m in (json.loads(ws.recv(timeout=10)) for _ in range(50)) if m["type"] == "seated")
            for seat in (1, 2):
                ws.send(json.dumps({"type": "bot", "seat": seat, "policy": "explorer", "owner": made["owner"]}))
            seen = play_until(ws, seated["token"], seated["seat"], lambda s: s["actions"] >= 25)
            os.kill(proc.pid, signal.SIGKILL)  # mid-game, right after an acknowledged state
            proc.wait(timeout=10)
    assert not seen["over"] and seen["actions"] >= 25
    with server(db, port), connect(f"ws://127.0.0.1:{port}/ws/{made['room']}", open_timeout=10) as ws:
        back = latest(ws, seated["token"])
        assert back["you"] == seated["seat"]  # the seat token still holds its seat
        assert back["actions"] >= seen["actions"]  # nothing acknowledged was lost
        frames = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rooms/{made['room']}/replay").read())
        then = frames["frames"][seen["actions"]]
        assert then["laid"] == seen["laid"] and then["pawns"] == seen["pawns"]
        final = play_until(ws, seated["token"], seated["seat"], lambda s: s["over"])
    assert final["over"]
    out = subprocess.run(
        [str(Path(sys.executable).with_name("trailwright")), "games", "export", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    from generator.host.records import replay_line

    [line] = [json.loads(x) for x in out.stdout.splitlines()]
    assert line["over"] and replay_line(line).winner == final["winner"]


def get(port: int, path: str, headers: dict[str, str] | None = None) -> int:
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers or {})
    try:
        return urllib.request.urlopen(req, timeout=10).status
    except urllib.error.HTTPError as err:
        return err.code


def test_a_new_forwarded_for_on_each_request_does_not_split_the_limits(tmp_path):
    """uvicorn runs with its proxy headers off: a client at 127.0.0.1 (where a proxy connects from) that names
    another X-Forwarded-For each time still has one budget, unless 127.0.0.1 is a --trust-proxy."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    port = free_port()
    with server(tmp_path / "games.db", port, extra=("--max-per-address", "4")):
        made = post_room(port)
        with contextlib.ExitStack() as stack:
            first = []
            for i in range(8):
                ws = stack.enter_context(
                    connect(
                        f"ws://127.0.0.1:{port}/ws/{made['room']}",
                        additional_headers={"X-Forwarded-For": f"10.2.0.{i}"},
                        open_timeout=10,
                    )
                )
                try:
                    first.append(json.loads(ws.recv(timeout=10))["type"])
                except ConnectionClosed as err:
                    first.append(f"{err.rcvd.code} {err.rcvd.reason}")
        assert first[:4] == ["state"] * 4 and all(f.startswith("4429 too many connections") for f in first[4:])
        codes = [get(port, "/api/health", {"X-Forwarded-For": f"10.1.{i // 250}.{i % 250}"}) for i in range(90)]
        assert 429 in codes
    time.sleep(1)
    with server(tmp_path / "games.db", port, extra=("--trust-proxy", "127.0.0.1")):
        codes = [get(port, "/api/health", {"X-Forwarded-For": f"spoofed, 10.1.0.{i}"}) for i in range(90)]
        assert set(codes) == {200}  # each player behind the trusted proxy has their own budget


@pytest.mark.heavy
def test_a_cold_numba_cache_warms_up_in_the_background_while_the_rooms_answer(tmp_path):
    """A fresh install's first bot compiles the fast engine: the server does it in a worker thread when it
    starts, says it is warming up, and every room answers within a second meanwhile."""
    from websockets.sync.client import connect

    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "empty-numba-cache")}
    port = free_port()
    with server(tmp_path / "games.db", port, env=env):
        made, other = post_room(port, players=2), post_room(port, players=2)
        with connect(f"ws://127.0.0.1:{port}/ws/{made['room']}", open_timeout=10) as ws:
            for seat in (0, 1):
                ws.send(json.dumps({"type": "bot", "seat": seat, "policy": "explorer", "owner": made["owner"]}))
            slowest, warming_seen, deadline = 0.0, False, time.monotonic() + 400
            while time.monotonic() < deadline:
                start = time.monotonic()
                health = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=10).read())
                assert get(port, f"/api/rooms/{other['room']}") == 200
                slowest = max(slowest, time.monotonic() - start)
                warming_seen = warming_seen or health["warming"]
                if not health["warming"]:
                    break
                time.sleep(0.2)
            assert slowest < 1.0 and not health["warming"]
            moved = latest_state(ws, lambda m: m["actions"] > 0)
            assert moved["actions"] > 0 and not moved["warming"]
    assert warming_seen  # the cache was cold: there was a warm-up to wait for


def latest_state(ws, enough) -> dict:
    for _ in range(5000):
        m = json.loads(ws.recv(timeout=60))
        if m["type"] == "state" and enough(m):
            return m
    raise AssertionError("no such state")
