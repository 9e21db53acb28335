"""The game server soaked (``bench_soak``): ``games`` games over ``rooms`` rooms at a time on one ``trailwright host``
process, on loopback only. Each room is a lane that plays one game after another: a person takes seat 0 and plays
a random legal action (one person in ten leaves after a few actions: the turn timeout, 1 s here, has a stand-in
play the rest of their turns), explorer bots the other seats; a flooder sends junk into one room of every ten.
Reported: the server's memory and open files after the warm-up and at each quarter's end (by games ended), p50/p95/
p99 of each message kind by quarter (room made, seat taken, action answered), and how many recorded games replay.
Targets (issue 53): memory and open files within 10 % of the warm-up's; p99 < 100 ms in every quarter; every
finished game replays. Bounded: a lane stops at ``timeout`` seconds, and the server is always stopped.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from benchmarks.soaking import Quarters, open_files, rss_mb

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "bench-soak-host-token"
FLAT = 0.10  # memory and open files may grow this much after the warm-up


def _make_room(port: int, seed: int) -> tuple[str, str]:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/rooms",
        data=json.dumps({"players": 3, "seed": seed}).encode(),
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"},
        method="POST",
    )
    made = json.loads(urllib.request.urlopen(req, timeout=30).read())
    return made["room"], made["owner"]


async def _game(port: int, seed: int, leaves: bool, record) -> str:
    """One game to its end (or the person's leaving); the room's id."""
    from websockets.asyncio.client import connect

    began = time.perf_counter()
    room, owner = await asyncio.to_thread(_make_room, port, seed)
    record("room made", time.perf_counter() - began)
    rng = random.Random(seed)
    async with connect(f"ws://127.0.0.1:{port}/ws/{room}", max_size=2**22) as ws:
        sent = time.perf_counter()
        await ws.send(json.dumps({"type": "sit", "name": "person", "seat": 0}))
        token, acted, waiting = None, 0, None
        async for text in ws:
            m = json.loads(text)
            if m["type"] == "seated":
                record("seat taken", time.perf_counter() - sent)
                token = m["token"]
                for seat in (1, 2):
                    await ws.send(json.dumps({"type": "bot", "seat": seat, "policy": "explorer", "owner": owner}))
                continue
            if m["type"] != "state":
                continue
            if waiting is not None and m["actions"] > waiting:
                record("action answered", time.perf_counter() - sent)
                waiting = None
            if m["over"] or (leaves and acted >= 5):
                return room  # a person who leaves: the turn timeout plays on for them
            if token and m.get("you") == 0 and m["current"] == 0 and m["legal"] and waiting is None:
                await asyncio.sleep(0.05)  # a quick person
                waiting, sent = m["actions"], time.perf_counter()
                await ws.send(json.dumps({"type": "act", "token": token, "action": rng.choice(m["legal"])}))
                acted += 1
    return room


async def _flood(port: int, room: str, stop: asyncio.Event) -> None:
    from websockets.asyncio.client import connect

    async with connect(f"ws://127.0.0.1:{port}/ws/{room}", max_size=2**22) as ws:

        async def drain() -> None:  # the refusals read as they come, so nothing backs up
            async for _ in ws:
                pass

        reader = asyncio.ensure_future(drain())
        while not stop.is_set():
            await ws.send('{"type": "act", "token": "forged", "action": [')
            await asyncio.sleep(0.01)
        reader.cancel()


async def _lanes(port: int, games: int, rooms: int, seed: int, pid: int, quarters: Quarters, timeout: float):
    ended: list[str] = []
    errors: list[str] = []
    counter = iter(range(games))

    def record(kind: str, seconds: float) -> None:
        quarters.add(len(ended), kind, seconds)

    async def lane(k: int) -> None:
        await asyncio.sleep(0.1 * k)  # people arrive over the first seconds, not all in one instant
        for n in counter:
            try:
                ended.append(await _game(port, seed + n, n % 10 == 3, record))
            except Exception as err:  # noqa: BLE001 - any failure of a game is a finding, and the lane goes on
                errors.append(f"game {n}: {type(err).__name__}: {str(err)[:100]}")
            if len(ended) == max(1, games // 20):
                quarters.warm_mb, quarters.warm_files = rss_mb(pid), open_files(pid)
            quarters.sample(len(ended) - 1, rss_mb(pid), open_files(pid))

    stop = asyncio.Event()
    flood_rooms = [(await asyncio.to_thread(_make_room, port, 99_000 + k))[0] for k in range(max(1, rooms // 10))]
    floods = asyncio.ensure_future(asyncio.gather(*(_flood(port, r, stop) for r in flood_rooms)))
    try:
        await asyncio.wait_for(asyncio.gather(*(lane(k) for k in range(rooms))), timeout)
    except TimeoutError:
        errors.append(f"stopped after {timeout:g} s with {len(ended)} of {games} games ended")
    stop.set()
    await asyncio.wait_for(floods, 10)
    return ended, errors


def host_soak(games: int, rooms: int, port: int, seed: int, timeout: float = 1800.0) -> tuple[list, bool]:
    """The host's weeks, compressed; its table rows and whether every target held."""
    from generator.host.records import export_line, replay_line, rooms_of
    from tests.host_helpers import running

    quarters = Quarters(games)
    quarters.warm_files = 0
    exe = Path(sys.executable).with_name("trailwright")
    with tempfile.TemporaryDirectory(prefix="trailwright-soak-host-") as folder:
        db = Path(folder) / "games.db"
        cmd = [str(exe), "host", str(ROOT / "examples" / "best-known.json"), "--db", str(db), "--port", str(port)]
        cmd += ["--token", TOKEN, "--max-rooms", str(2 * rooms + 20), "--max-per-address", str(4 * rooms + 50)]
        cmd += ["--rate", str(20 * rooms + 100), "--turn-timeout", "1", "--bot-delay", "0.02"]
        with running(cmd, f"http://127.0.0.1:{port}/?token={TOKEN}") as proc:
            ended, errors = asyncio.run(_lanes(port, games, rooms, seed, proc.pid, quarters, timeout))
        lines = [json.loads(json.dumps(export_line(g, r))) for g, r in rooms_of(db)]
    finished = [line for line in lines if line["over"]]
    replayed = sum(1 for line in finished if replay_line(line))
    rows, ok = quarters.rows("host", errors, limit_ms=100.0)
    grew = max(quarters.memory[1:]) / max(quarters.warm_mb, 1e-9) - 1
    files = max(quarters.files[1:]) / max(quarters.warm_files, 1) - 1
    rows[0] = (rows[0][0], rows[0][1], f"≤ {FLAT:.0%} over the warm-up", grew <= FLAT)
    rows.insert(
        1,
        (
            "host: open files after the warm-up; at each quarter's end",
            f"{quarters.warm_files}; " + " ".join(map(str, quarters.files)),
            f"≤ {FLAT:.0%} over",
            files <= FLAT,
        ),
    )
    rows.insert(
        0,
        (
            "host: games ended, finished games that replay",
            f"{len(ended):,}, {replayed} / {len(finished)}",
            "all",
            len(ended) == games and replayed == len(finished),
        ),
    )
    return rows, ok and all(r[3] for r in rows[:3])
