"""Long-lived processes, soaked: a designer's day in one studio process, and weeks of games on one game server, on
loopback only, bounded in count and time, and always stopped.

The studio (``--actions``, 2,000): a scripted day in one ``trailwright studio`` process on a fresh project themed with
River and titled with a glyph no font has (so every publish draws a theme and warns of text it cannot set). The mix,
by weight: side edits (a turn or a swap kept; a join, split or copy tried and taken back; a refused one is an expected
refusal), the page's reads after each (state, games), undo and redo, saves, board paints and saves, a side's picture
and the maze, playtests, and every ``--search-every`` actions a 5 s search, accepted or discarded in turn, and every
``--publish-every`` a publish of the kit. Reported: the studio process's memory after the warm-up (the first 5 %) and
at the end of each quarter, p50/p95/p99 of each action kind by quarter, and every error. Targets (issue 53): memory
growth from the first quarter's end to the last's ≤ 50 MB; no quarter's p95 over 1.5× the first quarter's (the kinds
with at least 20 samples a quarter); no error but the expected refusals; every saved file loads.

The host (``--games``, 1,000 over ``--rooms``, 50): see ``benchmarks.soak_host``.

``--smoke`` runs both at their smallest (seconds): the benchmark itself cannot rot.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from benchmarks import print_rows
from benchmarks.soak_host import host_soak
from benchmarks.soaking import Quarters, rss_mb

ROOT = Path(__file__).resolve().parent.parent
SMOKE = ["--smoke"]  # a studio's short day and a few games on a host
TOKEN = "bench-soak-token"
HEADERS = {"x-trailwright-token": TOKEN, "x-trailwright": "1", "content-type": "application/json"}
WEIGHTS = {"edit": 28, "try": 14, "undo": 5, "redo": 3, "save": 4, "paint": 4, "board-save": 2, "side": 6, "maze": 3}
WEIGHTS |= {"playtest": 1, "read": 0}
EXPECTED = (400, 409, 422)  # an edit that breaks a rule, an undo with nothing to undo, a board that does not load


class Studio:
    """The studio process's API, timed call by call."""

    def __init__(self, port: int):
        self.base = f"http://127.0.0.1:{port}"

    def call(self, path: str, body: dict | None = None, timeout: float = 120) -> tuple[int, bytes]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, headers=HEADERS)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as err:
            return err.code, err.read()

    def wait(self, job: str, deadline: float) -> dict:
        while time.monotonic() < deadline:
            state = json.loads(self.call(f"/api/{job}/state")[1])
            if state["state"] not in ("running", "stopping"):
                return state
            time.sleep(0.2)
        raise RuntimeError(f"the {job} did not end in time")


def _edit(rng: random.Random, state: dict, ops: tuple[str, ...]) -> dict:
    tiles, faces = len(state["tiles"]), state["faces"]
    ends = state["geometry"]["ends"]
    op = rng.choice(ops)
    body = {"op": op, "tile": rng.randrange(tiles), "face": rng.choice(faces)}
    if op in ("join", "split"):
        body |= {"a": rng.randrange(ends), "b": rng.randrange(ends)}
    elif op == "rotate":
        body |= {"sixths": rng.randrange(1, 4), "steps": rng.randrange(1, 4)}
    else:
        body |= {"to_tile": rng.randrange(tiles), "to_face": rng.choice(faces)}
    return body


def _action(kind: str, studio: Studio, rng: random.Random, state: dict, board: dict) -> int:
    """One action of ``kind``; its HTTP status (the jobs: of their start, then waited for)."""
    if kind in ("edit", "try"):
        # an edit that keeps the set's quality (a turn or a swap), or one tried and taken back, as a designer
        # does: a day of random joins and splits kept would make a random set, whose games play ever longer
        ops = ("rotate", "swap") if kind == "edit" else ("join", "split", "copy")
        status, _ = studio.call("/api/edit", _edit(rng, state, ops))
        studio.call("/api/state")  # the page reads the figures, then the games
        studio.call("/api/games")
        if kind == "try" and status == 200:
            studio.call("/api/undo", {})
            studio.call("/api/state")
        return status
    if kind in ("undo", "redo", "save"):
        return studio.call(f"/api/{kind}", {"overwrite": True} if kind == "save" else {})[0]
    if kind == "paint":
        cell = rng.choice(board["landmarks"])  # painted again as it is: the draft changes nothing, the path runs
        return studio.call("/api/board/paint", {"hex": cell["hex"], "kind": "landmark", "name": cell["label"]})[0]
    if kind == "board-save":
        return studio.call("/api/board/save", {"confirm": True})[0]
    if kind == "side":
        return studio.call(f"/side/{rng.randrange(len(state['tiles']))}/{rng.choice(state['faces'])}.svg")[0]
    if kind == "maze":
        return studio.call(f"/maze.svg?seed={rng.randrange(2**32)}")[0]
    if kind == "playtest":
        return studio.call("/api/playtest", {"policy": "explorer"})[0]
    raise ValueError(kind)


def _job(kind: str, studio: Studio, n: int) -> tuple[int, str]:
    """A search (5 s, then accepted or discarded in turn) or a publish, waited for; (status, error)."""
    if kind == "search":
        status, body = studio.call("/api/search/start", {"seconds": 5, "seed": n})
        if status != 200:
            return status, body.decode()[:200]
        state = studio.wait("search", time.monotonic() + 120)
        if state["state"] != "done":
            return 500, state.get("error", "")
        return studio.call(f"/api/search/{'accept' if n % 2 else 'discard'}", {})[0], ""
    studio.call("/api/save", {"overwrite": True})  # publish reads the saved files
    status, body = studio.call("/api/publish/start", {})
    if status != 200:
        return status, body.decode()[:200]
    state = studio.wait("publish", time.monotonic() + 600)
    return (200, "") if state["state"] == "done" else (500, state.get("error", ""))


def _stopped(proc) -> float:
    """Ctrl-C to the studio: the seconds until its process ended (its search cluster closed)."""
    import signal

    began = time.monotonic()
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=60)
    return time.monotonic() - began


def _project(folder: Path) -> Path:
    from generator.cli import main as cli

    project = folder / "p"
    if cli(["new", str(project)]) != 0:
        raise SystemExit("trailwright new failed")
    settings = project / "settings.toml"
    text = settings.read_text() if settings.exists() else ""
    lines = [line for line in text.splitlines() if line.split("=")[0].strip() not in ("title", "theme", "documents")]
    lines = [
        'title = "Trails \\U00013000 of the day"',
        'theme = "river"',
        'documents = ["tiles", "sheets", "booklet"]',
    ] + lines
    settings.write_text("\n".join(lines) + "\n")
    return project


def studio_soak(actions: int, search_every: int, publish_every: int, port: int, seed: int) -> tuple[list, bool]:
    """The studio's day; its table rows and whether every target held."""
    from generator.studio.session import Studio as Project  # every saved file loads as the studio reads it
    from tests.host_helpers import running

    rng = random.Random(seed)
    kinds, weights = zip(*[(k, w) for k, w in WEIGHTS.items() if w], strict=True)
    quarters = Quarters(actions)
    errors: list[str] = []
    refused = 0
    with tempfile.TemporaryDirectory(prefix="trailwright-soak-studio-") as folder:
        project = _project(Path(folder))
        exe = Path(sys.executable).with_name("trailwright")
        cmd = [str(exe), "studio", str(project), "--no-browser", "--port", str(port), "--token", TOKEN]
        with running(cmd, f"http://127.0.0.1:{port}/api/watch", HEADERS) as proc:
            studio = Studio(port)
            deadline = time.monotonic() + 600
            while (state := json.loads(studio.call("/api/state")[1]))["figures"] is None:
                if time.monotonic() > deadline:
                    raise SystemExit("the studio did not warm up")
                time.sleep(0.5)
            cells = json.loads(studio.call("/api/board/state")[1])["cells"]
            board = {"landmarks": [c for c in cells if c["kind"] == "landmark"]}
            for n in range(actions):
                kind = (
                    "search"
                    if search_every and n % search_every == search_every // 2
                    else "publish"
                    if publish_every and n % publish_every == publish_every - 1
                    else rng.choices(kinds, weights)[0]
                )
                began = time.perf_counter()
                if kind in ("search", "publish"):
                    status, why = _job(kind, studio, n)
                else:
                    status, why = _action(kind, studio, rng, state, board), ""
                quarters.add(n, kind, time.perf_counter() - began)
                if status in EXPECTED and kind not in ("search", "publish", "side", "maze", "playtest"):
                    refused += 1
                elif status >= 300:
                    errors.append(f"{kind}: {status} {why}".strip())
                if n == max(1, actions // 20):
                    quarters.warm_mb = rss_mb(proc.pid)
                quarters.sample(n, rss_mb(proc.pid))
                if kind in ("edit", "try", "undo", "redo", "search"):
                    state = json.loads(studio.call("/api/state")[1])
            stop_s = _stopped(proc)
        try:
            Project(project)
        except Exception as err:  # noqa: BLE001 - any failure to load is the finding
            errors.append(f"the saved project does not load: {err}")
    rows, ok = quarters.rows("studio", errors)
    rows.insert(0, ("studio: actions, expected refusals", f"{actions:,}, {refused:,}", "", True))
    rows.append(("studio: Ctrl-C after the day, to the process's end, s", f"{stop_s:.2f}", "< 2", stop_s < 2.0))
    return rows, ok and stop_s < 2.0


def main(argv: list[str]) -> int:
    """Soak both servers and print; exit status 1 when a target is missed."""
    parser = argparse.ArgumentParser(prog="bench_soak")
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--search-every", type=int, default=100)
    parser.add_argument("--publish-every", type=int, default=500)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--port", type=int, default=8931)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=("studio", "host"), default=None)
    parser.add_argument("--smoke", action="store_true", help="the smallest soak: seconds, not minutes")
    args, _ = parser.parse_known_args(argv)
    if args.smoke:
        args.actions, args.search_every, args.publish_every, args.games, args.rooms = 40, 40, 0, 8, 4
    sys.path.insert(0, str(ROOT))
    rows, ok = [], True
    if args.only in (None, "studio"):
        more, fine = studio_soak(args.actions, args.search_every, args.publish_every, args.port, args.seed)
        rows, ok = rows + more, ok and fine
    if args.only in (None, "host"):
        more, fine = host_soak(args.games, args.rooms, args.port + 1, args.seed)
        rows, ok = rows + more, ok and fine
    print_rows(f"loopback, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}", rows)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
