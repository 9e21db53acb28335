"""The game server under load, on loopback only: ``--rooms`` rooms of 4 bot clients over real websockets, each
game played to its end by the clients (explorers thinking in a local mirror of the match), then every
recorded game replayed from the export. Each client waits ``--think`` seconds before an action (0.5 by
default: a quick bot; people take longer); ``--think 0`` plays every game flat out, which measures how many
moves a second the server takes rather than how quickly a move reaches the table.

Griefers (issue 40), a set per 10 rooms (at least one): a **flooder** sending junk text frames far past its
message budget into an honest room, a **binary-frame sender** in another, and a **seat-hogger** that makes a
2-seat room, takes seat 0, tries a second seat on the same connection, lets the owner seat a bot in seat 1 and
then never moves (the server's ``--turn-timeout``, 1 s here, has a bot play each of its turns). The honest
clients' latencies are the ones measured; the hoggers' rooms must end and replay like the others.

Targets (issues 21 and 40): every honest client sees a move within 100 ms on loopback (reported as p50 and p99
over every client's receipt of every move), every game (the hoggers' too) ends and its log replays, and the
griefers get refusals, never a dropped connection. Bounded: a game that has not ended after ``--timeout``
seconds fails the run, and the server is always stopped.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from benchmarks import print_rows

# the smallest size that runs every step end to end, in seconds (``python -m benchmarks --smoke``)
SMOKE = ["--rooms", "1", "--think", "0.1", "--timeout", "120"]

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "bench-host-token"


def _peak_kb(pid: int) -> int:
    """The process's peak resident memory (Linux), in KiB; 0 when unknown."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _cpu_s(pid: int) -> float:
    """The process's user + system CPU seconds (Linux); 0 when unknown."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def _server(db: Path, port: int, rooms: int):
    """The host on ``port`` with room for the load (the tests' ``running``: started, then always stopped)."""
    from tests.host_helpers import running

    exe = Path(sys.executable).with_name("trailwright")
    cmd = [str(exe), "host", str(ROOT / "examples" / "best-known.json"), "--db", str(db), "--port", str(port)]
    cmd += ["--token", TOKEN, "--max-rooms", str(rooms + 10), "--max-per-address", str(4 * rooms + 50)]
    cmd += ["--rate", str(10 * rooms + 100)]  # every client is on this one loopback address
    cmd += ["--turn-timeout", "1"]  # the seat-hoggers' turns
    return running(cmd, f"http://127.0.0.1:{port}/?token={TOKEN}")


def _room(port: int, seed: int, players: int = 4, owner: bool = False):
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/rooms",
        data=json.dumps({"players": players, "seed": seed}).encode(),
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"},
        method="POST",
    )
    made = json.loads(urllib.request.urlopen(req, timeout=10).read())
    return (made["room"], made["owner"]) if owner else made["room"]


async def _flooder(port, room, stop, refused, binary=False):
    """Junk frames into an honest room as fast as the loop lets it, until ``stop``; counts the refusals."""
    from websockets.asyncio.client import connect

    async with connect(f"ws://127.0.0.1:{port}/ws/{room}", max_size=2**22) as ws:

        async def read():
            async for text in ws:
                if json.loads(text)["type"] == "error":
                    refused[binary] = refused.get(binary, 0) + 1

        reader = asyncio.ensure_future(read())
        while not stop.is_set():
            await ws.send(b"\x00\x01 binary" if binary else '{"type": "act", "token": "forged", "action": [')
            await asyncio.sleep(0.002 if not binary else 0.05)
        reader.cancel()


async def _hogger(port, seed, stop, hogged):
    """A 2-seat room: seat 0 held and never played, a second seat tried on the same connection."""
    from websockets.asyncio.client import connect

    room, owner = _room(port, seed, players=2, owner=True)
    hogged.append((room, seed))
    async with connect(f"ws://127.0.0.1:{port}/ws/{room}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "sit", "name": "hogger"}))
        await ws.send(json.dumps({"type": "sit", "name": "hogger again"}))
        await ws.send(json.dumps({"type": "bot", "seat": 1, "policy": "explorer", "owner": owner}))
        async for text in ws:
            m = json.loads(text)
            if m["type"] == "error" and "one seat a connection" in m["error"]:
                hogged.append("refused a second seat")
            if m["type"] == "state" and m["over"]:
                return


async def _client(port, room, seed, seat_no, spec, sent, latencies, done, think):
    """One bot client: takes a seat, mirrors the match from the broadcasts, plays its seat as an explorer."""
    from websockets.asyncio.client import connect

    from generator.play.game import geometry
    from generator.play.match import Match
    from generator.play.policies import POLICIES
    from generator.play.rng import game_rng

    mirror = Match(spec.tiles, geometry(spec.board, spec.rules), spec.rules, 4, seed)
    guesses = game_rng(seed + 1000 * seat_no, 7)
    async with connect(f"ws://127.0.0.1:{port}/ws/{room}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "sit", "name": f"bot {seat_no}", "seat": seat_no}))
        token, pending = None, -1  # pending: the move count an action was sent at (sent once)
        async for text in ws:
            m = json.loads(text)
            if m["type"] == "seated":
                token = m["token"]
                await ws.send(json.dumps({"type": "hello", "token": token}))
                continue
            if m["type"] == "error":
                if not m["error"].startswith("too many messages"):
                    raise RuntimeError(m["error"])
                await asyncio.sleep(1.0)  # over the server's message rate (flat out on few rooms): ask again
                pending = -1
                await ws.send(json.dumps({"type": "hello", "token": token}))
                continue
            if m["type"] != "state":
                continue
            while len(mirror.actions) < m["actions"]:
                if len(mirror.actions) + 1 != m["actions"]:
                    raise RuntimeError("a client missed a move")
                mirror.act(tuple(m["last"][1]))
                key = (room, m["actions"])
                if key in sent:
                    latencies.append(time.perf_counter() - sent[key])
            if m["over"]:
                done.add((room, seat_no))
                return
            if token and m["you"] == seat_no and m["legal"] and mirror.current == seat_no and pending < m["actions"]:
                pending = m["actions"]
                action = list(mirror.next_action(POLICIES["explorer"], guesses))
                await asyncio.sleep(think)  # a bot's pace (people are slower)
                sent[(room, m["actions"] + 1)] = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "token": token, "action": action}))


async def _load(port, rooms, spec, timeout, think):
    sent, latencies, done = {}, [], set()
    ids = [(_room(port, 1000 + i), 1000 + i) for i in range(rooms)]
    tasks = [_client(port, room, seed, s, spec, sent, latencies, done, think) for room, seed in ids for s in range(4)]
    stop, refused, hogged = asyncio.Event(), {}, []
    sets = max(1, rooms // 10)
    griefers = [_flooder(port, ids[(3 * k) % rooms][0], stop, refused) for k in range(sets)]
    griefers += [_flooder(port, ids[(3 * k + 1) % rooms][0], stop, refused, binary=True) for k in range(sets)]
    hoggers = [_hogger(port, 5000 + k, stop, hogged) for k in range(sets)]
    grief = asyncio.ensure_future(asyncio.gather(*griefers))
    try:
        await asyncio.wait_for(asyncio.gather(*tasks, *hoggers), timeout)
    except TimeoutError:  # the games not over by then fail the run in its table (and the server is stopped)
        print(f"  stopped after --timeout {timeout:g} s: {len(done) // 4} of {rooms} games over", flush=True)
    stop.set()
    await asyncio.wait_for(grief, 10)
    hog_rooms = [h for h in hogged if isinstance(h, tuple)]
    grief_seen = (refused.get(False, 0), refused.get(True, 0), len(hogged) - len(hog_rooms), sets)
    return ids + hog_rooms, latencies, done, grief_seen


def main(argv: list[str]) -> int:
    """Run the load and print; exit status 1 when a target is missed."""
    parser = argparse.ArgumentParser(prog="bench_host")
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--port", type=int, default=8911)
    parser.add_argument(
        "--think", type=float, default=0.5, help="seconds a client waits before each action (0: every game flat out)"
    )
    args, _ = parser.parse_known_args(argv)
    sys.path.insert(0, str(ROOT))
    from generator.cli.host import spec_and_art
    from generator.host.records import export_line, replay_line, rooms_of

    spec, _ = spec_and_art(str(ROOT / "examples" / "best-known.json"), "classic", None)
    with tempfile.TemporaryDirectory(prefix="trailwright-bench-host-") as folder:
        db = Path(folder) / "games.db"
        with _server(db, args.port, args.rooms) as proc:
            began = time.perf_counter()
            ids, latencies, done, grief = asyncio.run(_load(args.port, args.rooms, spec, args.timeout, args.think))
            wall = time.perf_counter() - began
            peak, server_cpu = _peak_kb(proc.pid), _cpu_s(proc.pid)
        lines = [json.loads(json.dumps(export_line(g, r))) for g, r in rooms_of(db)]
        replayed = sum(1 for line in lines if line["over"] and replay_line(line))
    latencies.sort()
    p50 = latencies[len(latencies) // 2] * 1000 if latencies else float("nan")
    p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))] * 1000 if latencies else float("nan")
    moves = sum(len(line["actions"]) for line in lines)
    honest = len(ids) - grief[3]
    rows = [
        (
            "rooms of 4 bot clients, each game to its end",
            f"{len(done) // 4} / {honest}",
            "all",
            len(done) == 4 * honest,
        ),
        (
            "griefer sets (flooder, binary sender, seat-hogger): refusals to the flood, to binary frames; "
            "second seats refused",
            f"{grief[3]}: {grief[0]:,}, {grief[1]:,}; {grief[2]}",
            "each > 0",
            min(grief[0], grief[1]) > 0 and grief[2] == grief[3],
        ),
        ("moves played, wall s", f"{moves:,} in {wall:.1f} s", "", True),
        ("move sent to each client seeing it, p50 ms", f"{p50:.1f}", "", True),
        ("  p99 ms", f"{p99:.1f}", "< 100", p99 < 100),
        ("server peak memory, MiB", f"{peak / 1024:.0f}", "", True),
        ("server CPU s (the rest of the wall time: the clients, in this process)", f"{server_cpu:.1f}", "", True),
        ("recorded games that replay exactly", f"{replayed} / {len(ids)}", "all", replayed == len(ids)),
    ]
    return print_rows(
        f"loopback, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; "
        f"clients think {args.think:g} s a move",
        rows,
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
