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

QUICK = ["--generations", "30", "--samples", "300", "--max-samples", "1500", "--rescore", "3000", "--workers", "1",
         "--quiet"]


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
    assert rows and float(rows[-1]["best_fitness"]) >= float(rows[0]["best_fitness"]) - 0.5
    assert (tmp_path / "set-history.svg").read_text().lstrip().startswith("<?xml")
    assert (tmp_path / "set.checkpoint").stat().st_size > 0
    first = out.read_bytes()
    assert main(["optimize", *QUICK, "--seed", "4", "--out", str(out)]) == 0
    assert out.read_bytes() == first  # same seed and generations: the same bytes


def test_init_pin_and_objective(tmp_path, random20):
    taste = tmp_path / "taste.toml"
    taste.write_text("max_trails = 6\n[pair_targets]\n\"Well-Hut\" = 0.99\n")
    out = tmp_path / "mine.json"
    init = Path(__file__).resolve().parent.parent / "examples" / "random-20.json"
    assert main(["optimize", *QUICK, "--init", str(init), "--pin", "1,3", "--pin", "5", "--objective", str(taste),
                 "--out", str(out)]) == 0
    tiles = {t.id: t for t in read_tileset(out)}
    for tile_id in ("1", "3", "5"):
        assert tiles[tile_id] == next(t for t in random20 if t.id == tile_id)
    meta = read_meta(out)
    assert meta["settings"]["pinned"] == ["1", "3", "5"] and meta["settings"]["init"] == str(init)
    assert meta["settings"]["objective"]["pair_targets"] == [["Hut-Well", 0.99]]


def test_resume_continues_to_the_same_result(tmp_path):
    whole = tmp_path / "whole.json"
    assert main(["optimize", *QUICK, "--seed", "6", "--out", str(whole)]) == 0
    # a finished run's checkpoint resumes to the same tile set
    again = tmp_path / "again.json"
    assert main(["optimize", "--resume", str(tmp_path / "whole.checkpoint"), "--quiet", "--out", str(again)]) == 0
    assert read_tileset(again) == read_tileset(whole)


@pytest.mark.parametrize("args,message", [
    (["--init", "missing.json"], "missing.json: cannot read"),
    (["--init", "{bad}"], "malformed JSON"),
    (["--init", "{small}"], "has 2 tiles but board 'classic' has 20 slots"),
    (["--objective", "{badtoml}"], "unknown key 'bridge_weight'"),
    (["--objective", "{target}"], "'Hut-Moon' is not a landmark pair"),
    (["--init", "{example}", "--pin", "99"], "--pin '99': no tile with that id"),
    (["--pin", "1"], "--pin needs --init"),
    (["--strategy", "pool", "--preset", "article"], "preset 'article' is for strategy 'ga'"),
    (["--resume", "{bad}"], "not a trailwright checkpoint"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, args, message):
    files = {
        "bad": tmp_path / "bad.json", "small": tmp_path / "small.json", "badtoml": tmp_path / "w.toml",
        "target": tmp_path / "t.toml",
        "example": Path(__file__).resolve().parent.parent / "examples" / "random-20.json",
    }
    files["bad"].write_text("{not json")
    files["small"].write_text(json.dumps({"tiles": [
        {"id": "a", "front": [["N", "NE", "SE", "S", "SW", "NW"]], "back": [["N", "NE", "SE", "S", "SW", "NW"]]},
        {"id": "b", "front": [["N", "NE", "SE", "S", "SW", "NW"]], "back": [["N", "NE", "SE", "S", "SW", "NW"]]}]}))
    files["badtoml"].write_text("bridge_weight = -1\n")
    files["target"].write_text('[pair_targets]\n"Hut-Moon" = 0.5\n')
    args = [a.format(**files) for a in args]
    out = tmp_path / "out.json"
    assert main(["optimize", *QUICK, *args, "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and err.startswith("trailwright: error:") and "\n" not in err
    assert not out.exists()


@pytest.mark.slow
def test_sigterm_writes_the_best_so_far(tmp_path):
    out = tmp_path / "stopped.json"
    exe = Path(sys.executable).with_name("trailwright")
    proc = subprocess.Popen([str(exe), "optimize", "--time", "60", "--workers", "2", "--rescore", "3000",
                             "--out", str(out), "--quiet"], stderr=subprocess.PIPE)
    time.sleep(6)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 0
    meta = read_meta(out)
    assert len(read_tileset(out)) == 20 and meta["score"]["fitness"] > 9.0
    assert (tmp_path / "stopped.checkpoint").exists()
    assert os.path.getsize(tmp_path / "stopped-history.csv") > 0
