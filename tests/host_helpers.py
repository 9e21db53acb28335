"""A real ``trailwright host`` process on loopback for tests: started on a free port, always stopped."""

from __future__ import annotations

import contextlib
import json
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from tests.conftest import EXAMPLES

TOKEN = "process-test-token"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def server(db: Path, port: int, bot_delay: float = 0.02, extra: tuple[str, ...] = (), env: dict | None = None):
    """``trailwright host`` on ``port`` (with the ``extra`` options, in the environment ``env``) until the block ends
    (then SIGINT, and SIGKILL if it lingers)."""
    exe = Path(sys.executable).with_name("trailwright")
    cmd = [str(exe), "host", str(EXAMPLES / "best-known.json"), "--db", str(db), "--port", str(port)]
    with running(
        [*cmd, "--token", TOKEN, "--bot-delay", str(bot_delay), *extra],
        f"http://127.0.0.1:{port}/?token={TOKEN}",
        env=env,
    ) as p:
        yield p


def post_room(port: int, players: int = 3, seed: int = 21) -> dict:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/rooms",
        data=json.dumps({"players": players, "seed": seed}).encode(),
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"},
        method="POST",
    )
    return json.loads(urllib.request.urlopen(req, timeout=10).read())


@contextlib.contextmanager
def running(cmd: list[str], ready_url: str, headers: dict[str, str] | None = None, env: dict | None = None):
    """A server process until the block ends: waits until ``ready_url`` answers, then SIGINT (SIGKILL if it
    lingers). The benchmarks start their servers with it too."""
    with tempfile.TemporaryFile() as log:  # not a pipe: a chatty server never blocks on a full one
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log, env=env)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    urllib.request.urlopen(urllib.request.Request(ready_url, headers=headers or {}), timeout=2).read()
                    break
                except OSError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        log.seek(0)
                        raise AssertionError(f"the server did not start: {log.read().decode()[-2000:]}") from None
                    time.sleep(0.2)
            yield proc
        finally:
            stop(proc)


def stop(proc: subprocess.Popen) -> None:
    """Stop a server as Ctrl-C does; kill it if it has not ended in 10 s."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def wait_for(predicate, seconds: float = 20.0):
    """``predicate()``'s first true value, asked every tenth of a second (an AssertionError after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = predicate()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError("the page did not get there in time")
