"""``trailwright optimize``: outputs and their meta block, resume, interrupt, and one-line errors."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.cli import main
from generator.model import read_meta, read_tileset

QUICK = [
    "--generations",
    "30",
    "--samples",
    "300",
    "--max-samples",
    "1500",
    "--rescore",
    "3000",
    "--chains",
    "1",
    "--quiet",
]


@pytest.mark.usefixtures("dask_scheduler")
def test_writes_tileset_history_plot_and_checkpoint(tmp_path):
    out = tmp_path / "set.json"
    assert main(["optimize", *QUICK, "--seed", "4", "--out", str(out)]) == 0
    tiles = read_tileset(out)
    assert len(tiles) == 20
    meta = read_meta(out)
    assert meta["made_by"] == "trailwright optimize" and meta["seed"] == 4
    assert meta["settings"]["strategy"] == "anneal" and meta["settings"]["generations"] == 30
    assert meta["settings"]["objective"]["bridges_weight"] == -0.05
    assert meta["score"]["samples"] == 3000 and meta["score"]["bridges"] == tiles.bridges
    rows = list(csv.DictReader((tmp_path / "set-history.csv").open()))
    best = [float(r["best_fitness"]) for r in rows]
    assert len(rows) >= 2 and rows[-1]["generation"] == "30"
    assert best[-1] == pytest.approx(meta["search"]["search_fitness"], abs=1e-3)  # the history ends at the winner
    assert (tmp_path / "set-history.svg").read_text().lstrip().startswith("<?xml")
    assert (tmp_path / "set.checkpoint").stat().st_size > 0
    first = out.read_bytes()
    assert main(["optimize", *QUICK, "--seed", "4", "--out", str(out)]) == 0
    assert out.read_bytes() == first  # same seed and generations: the same bytes


@pytest.mark.usefixtures("dask_scheduler")
def test_cooperating_chains_on_a_scheduler_record_their_exchanges(tmp_path):
    out = tmp_path / "together.json"
    args = ["optimize", *QUICK[:-3], "--chains", "3", "--exchanges", "2", "--seed", "2", "--quiet", "--out", str(out)]
    assert main(args) == 0
    meta = read_meta(out)
    assert meta["settings"]["exchanges"] == 2 and meta["settings"]["chains"] == 3
    assert meta["search"]["migrations"] > 0 and meta["search"]["generations"] == [30, 30, 30]
    first = out.read_bytes()
    assert main(args) == 0 and out.read_bytes() == first  # same seed, chains and generations: the same bytes


@pytest.mark.slow
@pytest.mark.usefixtures("dask_scheduler")
def test_the_polish_reports_what_it_changed(tmp_path, capsys):
    out = tmp_path / "polished.json"
    shown = [a for a in QUICK if a != "--quiet"]
    assert main(["optimize", *shown, "--generations", "5", "--seed", "3", "--polish", "1500", "--out", str(out)]) == 0
    meta = read_meta(out)
    steps = meta["search"]["polish"]
    assert meta["settings"]["polish"] == 1500 and steps  # five generations leave clear gains to take
    assert all(s["gain"] > 2 * s["gain_se"] and s["change"].startswith("tile ") for s in steps)
    assert meta["score"]["fitness"] > meta["search"]["search_fitness"] - 0.5
    # while it works, the command says so: each round as it begins, each step as it is taken, then the re-score
    said = [line for line in capsys.readouterr().err.splitlines() if line.startswith(("polish", "re-scoring"))]
    rounds = [line for line in said if line.startswith("polish round")]
    took = [line for line in said if line.startswith("polish: took tile ")]
    assert rounds[0] == "polish round 1: screening every neighbour on 1,500 layouts" and len(took) == len(steps)
    assert len(rounds) <= min(len(steps) + 1, 8) and said[-1] == "re-scoring the winner on 3,000 fresh layouts"
    plot = (tmp_path / "polished-history.svg").read_text()
    assert f"re-scored on fresh layouts after {len(steps)} polish step" in plot  # the chains' lines do not show it


@pytest.mark.usefixtures("dask_scheduler")
def test_init_pin_and_objective(tmp_path, random20):
    taste = tmp_path / "taste.toml"
    taste.write_text('max_trails = 6\n[pair_targets]\n"Well-Hut" = 0.99\n')
    out = tmp_path / "mine.json"
    init = Path(__file__).resolve().parent.parent / "examples" / "random-20.json"
    assert (
        main(
            [
                "optimize",
                *QUICK,
                "--init",
                str(init),
                "--pin",
                "1,3",
                "--pin",
                "5",
                "--objective",
                str(taste),
                "--out",
                str(out),
            ]
        )
        == 0
    )
    tiles = {t.id: t for t in read_tileset(out)}
    for tile_id in ("1", "3", "5"):
        assert tiles[tile_id] == next(t for t in random20 if t.id == tile_id)
    meta = read_meta(out)
    assert meta["settings"]["pinned"] == ["1", "3", "5"] and meta["settings"]["init"] == str(init)
    assert meta["settings"]["objective"]["pair_targets"] == [["Hut-Well", 0.99]]


def _wait_until_it_catches_sigterm(proc, limit: float = 60.0) -> None:
    """Wait until the process has its SIGTERM handler (Linux: the SigCgt mask in /proc)."""
    status = Path(f"/proc/{proc.pid}/status")
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and proc.poll() is None:
        caught = next((line.split()[1] for line in status.read_text().splitlines() if line.startswith("SigCgt")), "0")
        if int(caught, 16) & (1 << (signal.SIGTERM - 1)):
            return
        time.sleep(0.05)
    raise AssertionError("the optimizer never installed its SIGTERM handler")


def _wait_for_progress(checkpoint: Path, proc, limit: float = 240.0) -> None:
    """Wait until the run's checkpoint shows a chain under way (or the run ends)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and proc.poll() is None:
        chains = json.loads(checkpoint.read_text())["chains"] if checkpoint.exists() else []
        if any(c and c["generation"] > 0 for c in chains):
            return
        time.sleep(0.2)
    raise AssertionError("the run showed no progress")


@pytest.mark.slow
def test_resume_continues_to_the_same_result(tmp_path, reap, dask_client):
    """SIGTERM part-way writes the best so far (the tile set and its re-score, the checkpoint, the history); then
    --resume: the same tile set and score as one uninterrupted run. The interrupted run is a process of its own on
    its own local cluster; the whole run and the resumed one run on the session's."""
    # some 4 s of search (early rejection makes a generation quick): the signal lands after the first checkpoint
    # (0.5 s in), well before the end
    budget = [
        "--generations",
        "20000",
        "--samples",
        "300",
        "--max-samples",
        "1500",
        "--rescore",
        "3000",
        "--chains",
        "1",
        "--workers",
        "1",
        "--seed",
        "6",
        "--quiet",
        "--checkpoint-every",
        "0.5",
    ]
    whole, part = tmp_path / "whole.json", tmp_path / "part.json"
    here = ["--scheduler", dask_client.scheduler.address]
    assert main(["optimize", *budget, *here, "--out", str(whole)]) == 0
    exe = Path(sys.executable).with_name("trailwright")
    proc = reap(subprocess.Popen([str(exe), "optimize", *budget, "--out", str(part)], stderr=subprocess.PIPE))
    _wait_until_it_catches_sigterm(proc)
    _wait_for_progress(tmp_path / "part.checkpoint", proc)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 128 + signal.SIGTERM  # interrupted: not the status of a finished run
    assert "stopped early (SIGTERM)" in proc.stderr.read().decode().strip().splitlines()[-1]
    stopped_at = read_meta(part)["search"]["generations"][0]
    assert 0 < stopped_at < 20000  # really interrupted
    # the best so far is written, with its re-score, checkpoint and history (on worker processes of its own)
    assert len(read_tileset(part)) == 20 and read_meta(part)["score"]["samples"] == 3000
    assert os.path.getsize(tmp_path / "part-history.csv") > 0
    assert main(["optimize", "--resume", str(tmp_path / "part.checkpoint"), *here, "--quiet"]) == 0  # writes part.json
    assert read_meta(part)["search"]["generations"] == [20000]
    assert read_tileset(part) == read_tileset(whole)
    assert read_meta(part)["score"] == read_meta(whole)["score"]


@pytest.mark.usefixtures("dask_scheduler")
def test_resume_may_set_a_new_budget(tmp_path):
    quick = QUICK[QUICK.index("--samples") :]
    first = tmp_path / "first.json"
    assert main(["optimize", *quick, "--generations", "20", "--seed", "6", "--out", str(first)]) == 0
    assert main(["optimize", "--resume", str(tmp_path / "first.checkpoint"), "--generations", "50", "--quiet"]) == 0
    assert read_meta(first)["search"]["generations"] == [50]


@pytest.mark.parametrize(
    "args,message",
    [
        (["--init", "missing.json"], "missing.json: cannot read"),
        (["--init", "{bad}"], "malformed JSON"),
        (["--init", "{small}"], "has 2 tiles but board 'classic' has 20 slots"),
        (["--objective", "{badtoml}"], "unknown key 'bridge_weight'"),
        (["--objective", "{target}"], "'Hut-Moon' is not a landmark pair"),
        (["--init", "{example}", "--pin", "99"], "--pin '99': no tile with that id"),
        (["--pin", "1"], "need --init"),
        (["--strategy", "pool", "--preset", "article"], "preset 'article' is for strategy 'ga'"),
        (["--resume", "{bad}"], "not a trailwright checkpoint"),
        (["--resume", "{bad}", "--seed", "2"], "--seed cannot change a resumed run"),
        (["--resume", "{bad}", "--board", "hexagon37"], "--board cannot change a resumed run"),
        (["--objective", "{onetrail}"], "one.toml: the objective's forbid and max_trails leave fewer than two designs"),
        (["--generations", "10", "--migrate", "5"], "--migrate needs a time budget"),
        (["--exchanges", "3"], "--exchanges needs at least 2 chains to cooperate"),
        (["--resume", "{bad}", "--chains", "3"], "--chains cannot change a resumed run"),
        (["--resume", "{bad}", "--exchanges", "3"], "--exchanges cannot change a resumed run"),
        (["--objective", "{play}", "--polish", "1000"], "--polish judges static fitness only and cannot polish for"),
        (["--time", "5", "--objective", "{play}", "--polish-share", "0.2"], "--polish-share judges static fitness"),
        (["--generations", "5", "--polish-share", "0.2"], "--polish-share needs a time budget"),
        (
            ["--generations", "1", "--max-samples", "10000000000"],
            "--max-samples 10,000,000,000 is more than 10,000,000",
        ),
        (["--generations", "1", "--rescore", "100000000000"], "--rescore 100,000,000,000 is more than 100,000,000"),
        (["--generations", "1", "--polish", "10000000000"], "--polish 10,000,000,000 is more than 1,000,000"),
        (["--generations", "1", "--chains", "100000000"], "--chains 100,000,000 is more than 1,024"),
        (["--generations", "1", "--workers", "100000"], "--workers 100,000 local worker processes; from 1 to 256"),
    ],
)
@pytest.mark.usefixtures("dask_scheduler")
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, args, message):
    files = {
        "bad": tmp_path / "bad.json",
        "small": tmp_path / "small.json",
        "badtoml": tmp_path / "w.toml",
        "target": tmp_path / "t.toml",
        "onetrail": tmp_path / "one.toml",
        "play": tmp_path / "play.toml",
        "example": Path(__file__).resolve().parent.parent / "examples" / "random-20.json",
    }
    files["bad"].write_text("{not json")
    files["small"].write_text(
        json.dumps(
            {
                "tiles": [
                    {
                        "id": "a",
                        "front": [["N", "NE", "SE", "S", "SW", "NW"]],
                        "back": [["N", "NE", "SE", "S", "SW", "NW"]],
                    },
                    {
                        "id": "b",
                        "front": [["N", "NE", "SE", "S", "SW", "NW"]],
                        "back": [["N", "NE", "SE", "S", "SW", "NW"]],
                    },
                ]
            }
        )
    )
    files["badtoml"].write_text("bridge_weight = -1\n")
    files["target"].write_text('[pair_targets]\n"Hut-Moon" = 0.5\n')
    files["onetrail"].write_text("max_trails = 1\n")
    files["play"].write_text("[play]\nmedian_rounds = 12\n")
    args = [a.format(**files) for a in args]
    out = tmp_path / "out.json"
    quick = [] if "--resume" in args else QUICK  # a resumed run takes no settings
    assert main(["optimize", *quick, *args, "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and err.startswith("trailwright: error:") and "\n" not in err
    assert not out.exists()


@pytest.mark.parametrize("value", ["0.95", "nan", "-0.1"])
def test_a_polish_share_is_a_share_of_the_time(value, capsys):
    with pytest.raises(SystemExit) as exit:
        main(["optimize", "--polish-share", value])
    assert exit.value.code == 2
    assert capsys.readouterr().err.endswith(f"argument --polish-share: {value} must be a number from 0 to 0.9\n")


@pytest.mark.parametrize("value", ["inf", "nan", "0", "-1"])
def test_a_time_is_a_finite_number_of_seconds(value, capsys):
    with pytest.raises(SystemExit) as exit:
        main(["optimize", "--time", value])
    assert exit.value.code == 2
    assert capsys.readouterr().err.endswith(f"argument --time: {value} must be a number above 0 and at most 1e+09\n")


@pytest.mark.slow
def test_the_default_chains_are_the_cores_this_process_may_use(monkeypatch):
    import generator.scoring.stream as stream
    from generator.cli import build_parser
    from generator.cli.optimize import _setup

    monkeypatch.setattr(stream.os, "sched_getaffinity", lambda pid: {0, 1, 2}, raising=False)
    monkeypatch.delenv("TRAILWRIGHT_SCHEDULER", raising=False)
    _, config, chains, _, _ = _setup(build_parser("optimize").parse_args(["optimize", "--time", "60"]))
    assert config.chains == len(chains) == 3
    _, config, chains, _, _ = _setup(build_parser("optimize").parse_args(["optimize", "--time", "1"]))
    assert config.chains == len(chains) == 1  # on threads of the command's process
    _, config, _, _, _ = _setup(build_parser("optimize").parse_args(["optimize", "--time", "1", "--workers", "5"]))
    assert config.chains == 5


@pytest.mark.slow
@pytest.mark.heavy
def test_a_time_budget_is_wall_time_from_the_commands_start(tmp_path):
    """``--time T`` ends within T seconds and a little (the interpreter's own start and exit) of wall time: its own
    Dask cluster's start-up, the choice of the winner, the polish and the re-score all inside the budget."""
    env = {k: v for k, v in os.environ.items() if k != "TRAILWRIGHT_SCHEDULER"}  # its own local cluster
    command = [sys.executable, "-m", "generator.cli", "optimize", "--time", "20", "--quiet"]
    began = time.perf_counter()
    subprocess.run([*command, "--out", str(tmp_path / "t.json")], env=env, check=True, capture_output=True)
    took = time.perf_counter() - began
    assert took <= 20 + 3, f"--time 20 took {took:.1f} s"
    meta = read_meta(tmp_path / "t.json")
    assert meta["search"]["polish"] is not None and meta["score"]["samples"] == 1_000_000


def test_a_commands_start_is_when_its_process_started():
    """``--time`` counts from the process's start: never before it (psutil's start time put it up to a second early,
    the boot time being in whole seconds), and never after the command's own imports."""
    probe = "import time; from generator.cli import _age; print(_age())"
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True)
    wall = time.perf_counter() - began
    assert 0.0 < float(done.stdout) < wall


def test_a_command_line_process_freezes_what_it_holds_before_its_exit():
    """The interpreter's exit then skips collecting it (up to a second of an optimize's wall time); a caller's own
    ``main(argv)`` leaves its process as it was."""
    probe = (
        "import gc, sys; from generator.cli import main\n"
        "sys.argv = ['trailwright', 'optimize', '--board', 'no-such-board', '--time', '5']\n"
        "print(main(['optimize', '--board', 'no-such-board']), gc.get_freeze_count() == 0)\n"
        "print(main(), gc.get_freeze_count() > 0)"
    )
    done = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True)
    assert done.stdout.split() == ["2", "True", "2", "True"]
