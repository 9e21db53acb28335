"""Checkpoints that cannot run code, schedulers that cannot be reached, and a real cluster losing a worker."""

from __future__ import annotations

import json
import os
import pickle
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.cli import main
from generator.model import read_meta, read_tileset

QUICK = [
    "--generations",
    "20",
    "--samples",
    "300",
    "--max-samples",
    "1500",
    "--rescore",
    "3000",
    "--chains",
    "2",
    "--seed",
    "5",
    "--quiet",
]


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory, dask_client):
    """A real checkpoint of a quick two-chain run, as parsed JSON."""
    folder = tmp_path_factory.mktemp("ck")
    os.environ["TRAILWRIGHT_SCHEDULER"] = dask_client.scheduler.address
    try:
        assert main(["optimize", *QUICK, "--out", str(folder / "run.json")]) == 0
    finally:
        del os.environ["TRAILWRIGHT_SCHEDULER"]
    return json.loads((folder / "run.checkpoint").read_text())


class Pwned:
    def __reduce__(self):
        return (os.system, (f"touch {Path(os.environ.get('PWN_MARK', '/nonexistent/x'))}",))


def _board(name):
    from generator.board import load_board
    from generator.optimize.checkpoint import board_data

    return board_data(load_board(name))


def _set(data, path, value):
    *head, last = path
    for key in head:
        data = data[key]
    data[last] = value


HOSTILE = {
    "truncated": (lambda d: json.dumps(d)[: len(json.dumps(d)) // 2], "truncated, or not JSON"),
    "pickle": (lambda d: pickle.dumps(Pwned()), "not a trailwright checkpoint"),
    "other version": (lambda d: _set(d, ["version"], "0.0.1"), "written by trailwright '0.0.1'"),
    "other board": (lambda d: _set(d, ["problem", "board"], _board("hexagon37")), "has 37 slots"),
    "designs for another board": (
        lambda d: _set(d, ["chains", 0, "state", "current", "classes"], [[1, 2]] * 37),
        "designs for 37 tiles, but board 'classic' has 20 slots",
    ),
    "design out of range": (
        lambda d: _set(d, ["chains", 1, "state", "best", "classes", 3], [1, 99]),
        "design number outside 0..42",
    ),
    "favoured design not allowed": (
        lambda d: _set(d, ["chains", 0, "state", "favoured"], [0, 99]),
        "state.favoured is not a list of two or more distinct allowed designs",
    ),
    "one favoured design": (lambda d: _set(d, ["chains", 0, "state", "favoured"], [3]), "state.favoured is not"),
    "favoured truth values": (lambda d: _set(d, ["chains", 0, "state", "favoured"], [True, 2]), "state.favoured is"),
    "fitness not a number": (lambda d: _set(d, ["chains", 0, "state", "current", "fitness"], "high"), "not a valid"),
    "random state": (lambda d: _set(d, ["chains", 0, "rng_state"], {"bit_generator": "os.system"}), "not a valid"),
    "cache key": (lambda d: _set(d, ["chains", 0, "search_state", "cache"], {"zz": 1.0}), "cache entry"),
    "negative chains": (lambda d: _set(d, ["config", "chains"], -3), "config.chains = -3"),
    "unknown strategy": (lambda d: _set(d, ["config", "strategy"], "__import__"), "unknown strategy"),
    "extra key": (lambda d: _set(d, ["chains", 0, "evil"], 1), "not a valid"),
    "deep nesting": (lambda d: "[" * 100_000 + "]" * 100_000, "not a trailwright checkpoint"),
    "not an object": (lambda d: "[1, 2, 3]", "not a trailwright checkpoint"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_bad_checkpoint_is_one_line_exit_2_and_nothing_runs(case, checkpoint, tmp_path, capsys, monkeypatch):
    mark = tmp_path / "pwned"
    monkeypatch.setenv("PWN_MARK", str(mark))
    change, message = HOSTILE[case]
    data = json.loads(json.dumps(checkpoint))
    made = change(data)
    path = tmp_path / "bad.checkpoint"
    if isinstance(made, bytes):
        path.write_bytes(made)
    else:
        path.write_text(made if isinstance(made, str) else json.dumps(data))
    capsys.readouterr()
    assert main(["optimize", "--resume", str(path), "--scheduler", "tcp://127.0.0.1:9", "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"trailwright: error: {path}:") and "\n" not in err and message in err, err
    assert not mark.exists() and not (tmp_path / "bad.json").exists()  # nothing ran, nothing written


def test_the_checkpoint_is_json_data_and_round_trips(checkpoint, tmp_path):
    from generator.optimize.checkpoint import checkpoint_text, read_checkpoint

    path = tmp_path / "ok.checkpoint"
    path.write_text(json.dumps(checkpoint))
    resume = read_checkpoint(path)
    assert [c.generation for c in resume.chains] == [20, 20] and resume.config.chains == 2
    again = json.loads(checkpoint_text(resume.problem, resume.config, resume.chains, resume.init, resume.migrants))
    assert again == checkpoint


@pytest.mark.parametrize("how", ["flag", "environment"])
def test_an_unreachable_scheduler_is_one_line_naming_it(how, tmp_path, capsys, monkeypatch):
    from generator.optimize import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1)
    address = "tcp://127.0.0.1:9"
    args = ["optimize", *QUICK, "--out", str(tmp_path / "x.json")]
    if how == "flag":
        args += ["--scheduler", address]
    else:
        monkeypatch.setenv("TRAILWRIGHT_SCHEDULER", address)
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"trailwright: error: cannot reach the Dask scheduler at {address}") and "\n" not in err
    assert not (tmp_path / "x.json").exists()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(predicate, limit: float, what: str) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.mark.slow
def test_a_real_cluster_loses_a_worker_and_the_run_completes_with_the_same_result(tmp_path, dask_client):
    """`dask scheduler` and two `dask worker`s on 127.0.0.1; kill -9 one mid-run; the chain resumes elsewhere."""
    bin_dir = Path(sys.executable).parent
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs = [
        subprocess.Popen(
            [
                str(bin_dir / "dask"),
                "scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--dashboard-address",
                ":0",
            ],
            stderr=subprocess.DEVNULL,
        )
    ]
    try:
        for _ in range(2):
            procs.append(
                subprocess.Popen(
                    [
                        str(bin_dir / "dask"),
                        "worker",
                        address,
                        "--nthreads",
                        "1",
                        "--no-nanny",
                        "--host",
                        "127.0.0.1",
                        "--dashboard-address",
                        ":0",
                    ],
                    stderr=subprocess.DEVNULL,
                )
            )
        from distributed import Client

        with Client(address, timeout=60) as probe:
            probe.wait_for_workers(2, timeout=120)
        args = [
            "optimize",
            "--generations",
            "20000",
            "--samples",
            "300",
            "--max-samples",
            "1500",
            "--rescore",
            "3000",
            "--chains",
            "2",
            "--seed",
            "9",
            "--quiet",
            "--checkpoint-every",
            "0.5",
        ]
        out = tmp_path / "cluster.json"
        run = subprocess.Popen(
            [str(bin_dir / "trailwright"), *args, "--scheduler", address, "--out", str(out)], stderr=subprocess.PIPE
        )

        def snapshots_taken() -> bool:
            path = tmp_path / "cluster.checkpoint"
            chains = json.loads(path.read_text())["chains"] if path.exists() else []
            return run.poll() is not None or any(c and 0 < c["generation"] < 20000 for c in chains)

        _wait_for(snapshots_taken, 240, "a checkpoint with a chain under way")  # so the kill lands mid-run
        assert run.poll() is None, "the run ended before a worker could be killed"
        procs[2].send_signal(signal.SIGKILL)
        assert run.wait(timeout=600) == 0, run.stderr.read().decode()
        assert read_meta(out)["search"]["generations"] == [20000, 20000]
        # the same run, uninterrupted, on another cluster (in-process): the same tile set and score
        whole = tmp_path / "whole.json"
        assert main([*args, "--scheduler", dask_client.scheduler.address, "--out", str(whole)]) == 0
        assert read_tileset(out) == read_tileset(whole)
        assert read_meta(out)["score"] == read_meta(whole)["score"]
    finally:
        for p in reversed(procs):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    p.kill()


def _inherited() -> bool:
    from generator.optimize import cluster

    return hasattr(cluster, "_set_in_the_parent")


def _watchers() -> dict:
    import dask

    from generator.optimize.cluster import QUIET

    return {key: dask.config.get(key) for key in QUIET}


def test_the_local_cluster_spawns_its_workers_and_never_forks_a_threaded_process(monkeypatch, dask_client):
    """A fork copies every lock another thread holds (here: the in-process cluster's), so a worker could hang at
    its start; a spawned worker starts from nothing, so it cannot see what the parent set. It runs without Dask's
    profiler and with its slow watchers (``cluster.QUIET``), as the cluster was made."""
    import dask

    from generator.optimize import cluster

    monkeypatch.setattr(cluster, "_set_in_the_parent", True, raising=False)
    loud = {  # Dask's defaults, here over the session cluster's settings
        "distributed.worker.profile.enabled": True,
        "distributed.admin.system-monitor.interval": "500ms",
        "distributed.admin.tick.interval": "20ms",
    }
    with dask.config.set(loud), cluster.connect(None, 1) as client:
        assert client.submit(_inherited, pure=False).result(timeout=60) is False
        assert client.submit(_watchers, pure=False).result(timeout=60) == cluster.QUIET
