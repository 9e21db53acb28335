"""The game server as a real process on loopback: killed with SIGKILL mid-game, restarted, and nothing a client
saw acknowledged is lost. Bounded in moves and seconds; the server is always stopped."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
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
