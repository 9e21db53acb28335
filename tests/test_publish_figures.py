"""publish takes the designer's figures from the tile set's meta block (written by optimize) and scores
only when they are absent, malformed, or for other tiles, another board or another objective."""

import json
from dataclasses import replace

import pytest

import generator.scoring
from generator.board import load_board
from generator.cli import main
from generator.cli.publish import figures
from generator.model import dumps_tileset, read_meta, read_tileset
from generator.publish.settings import load_settings
from generator.scoring import score
from generator.scoring.figures import figures_from_meta, figures_from_score, score_record
from tests.test_publish_standin import ROOT

SETTINGS = replace(load_settings(), score_samples=400)


@pytest.fixture(scope="module")
def recorded():
    """random-20 on the classic board, its score recorded as optimize records it."""
    tileset, board = read_tileset(ROOT / "examples" / "random-20.json"), load_board("classic")
    report = score(tileset, board, samples=2000, seed=9)
    meta = {
        "settings": {"objective": json.loads(json.dumps(report.objective))},
        "score": score_record(report, report.fitness, tileset, board),
    }
    return tileset, board, report, meta


@pytest.fixture
def count_scoring(monkeypatch):
    calls = []
    real = generator.scoring.score

    def counting(*args, **kw):
        calls.append(kw.get("samples"))
        return real(*args, **kw)

    monkeypatch.setattr(generator.scoring, "score", counting)
    return calls


def _write(tmp_path, tileset, meta):
    path = tmp_path / "set.json"
    path.write_text(dumps_tileset(tileset, meta))
    return str(path)


def test_recorded_figures_are_used_without_scoring(tmp_path, recorded, count_scoring, capsys):
    tileset, board, report, meta = recorded
    got = figures(_write(tmp_path, tileset, meta), tileset, board, SETTINGS)
    assert count_scoring == []
    assert got.samples == 2000 and got.seed == 9
    assert got.fitness == pytest.approx(report.fitness, abs=1e-6)
    assert dict(got.pairs) == pytest.approx(report.pair_prob, abs=1e-6) and list(dict(got.pairs)) == board.pair_names()
    assert got.pairs_joined == pytest.approx(figures_from_score(report).pairs_joined, abs=1e-6)
    assert "figures from the tile set's meta block (2,000 layouts, seed 9)" in capsys.readouterr().out


def _other_objective(meta):
    meta["settings"]["objective"]["pair_weight"] = 2.0


def _tamper_pairs(meta):
    meta["score"]["pair_prob"]["Exit-Hut"] = 1.5


@pytest.mark.parametrize(
    "change, why",
    [
        (lambda meta: meta.clear(), "records no figures"),
        (lambda meta: meta["score"].pop("pair_prob"), "records no figures"),
        (lambda meta: meta["score"].update(board_sha256="0" * 64), "another board"),
        (_other_objective, "another objective"),
        (lambda meta: meta["settings"].pop("objective"), "another objective"),
        (_tamper_pairs, "malformed"),
        (lambda meta: meta["score"].update(samples=True), "malformed"),
        (lambda meta: meta["score"].update(fitness=float("nan")), "malformed"),
    ],
)
def test_absent_or_mismatched_figures_are_scored_again(tmp_path, recorded, count_scoring, capsys, change, why):
    tileset, board, _, meta = recorded
    meta = json.loads(json.dumps(meta))
    change(meta)
    got = figures(_write(tmp_path, tileset, meta), tileset, board, SETTINGS)
    assert count_scoring == [400] and got.samples == 400
    assert why in capsys.readouterr().out


def test_figures_for_other_tiles_are_not_used(recorded):
    tileset, board, _, meta = recorded
    swapped = type(tileset)(
        (replace(tileset.tiles[0], front=tileset.tiles[0].back, back=tileset.tiles[0].front), *tileset.tiles[1:])
    )
    assert figures_from_meta(meta, swapped, board) == (None, "the recorded figures are for other tiles")


@pytest.mark.usefixtures("dask_scheduler")  # the session's cluster: no local one started for a 5-generation run
def test_what_optimize_writes_publish_reads(tmp_path):
    out = tmp_path / "set.json"
    assert (
        main(
            [
                "optimize",
                "--generations",
                "5",
                "--samples",
                "200",
                "--max-samples",
                "400",
                "--rescore",
                "1500",
                "--workers",
                "1",
                "--quiet",
                "--seed",
                "3",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    found, why = figures_from_meta(read_meta(out), read_tileset(out), load_board("classic"))
    assert found is not None, why
    assert found.samples == 1500 and found.fitness == read_meta(out)["score"]["fitness"]


@pytest.mark.parametrize("board", ["square-jungle", "hexagon37"])
@pytest.mark.usefixtures("dask_scheduler")
def test_what_optimize_writes_publish_reads_on_other_boards(tmp_path, board):
    out = tmp_path / "set.json"
    flags = ["--generations", "2", "--samples", "200", "--max-samples", "400", "--rescore", "1500"]
    argv = ["optimize", "--board", board, *flags, "--workers", "1", "--quiet", "--seed", "3", "--out", str(out)]
    assert main(argv) == 0
    found, why = figures_from_meta(read_meta(out), read_tileset(out), load_board(board))
    assert found is not None, why  # the objective as optimize records it for the board: its sides, its trail limit
