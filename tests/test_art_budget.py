"""A run's whole drawing time has one budget (``art_seconds``): past it, the next drawing is refused in one line,
and the publish writes nothing."""

from __future__ import annotations

import time

import pytest

from generator.cli import main
from generator.errors import TrailwrightError
from generator.render.artlimits import art_budget, drawing
from tests.conftest import EXAMPLES


def test_drawings_count_against_the_run_budget_and_the_one_past_it_is_refused():
    with art_budget(0.05) as clock:
        with drawing("the first picture"):
            time.sleep(0.03)
        with drawing("the second picture"):  # 0.03 s spent of 0.05: it may start
            time.sleep(0.03)
        assert clock.spent == pytest.approx(0.06, abs=0.02)
        with pytest.raises(TrailwrightError, match=r"art_seconds = 0\.05") as err, drawing("the third picture"):
            pass
        assert "the third picture" in str(err.value)
    with drawing("a drawing outside any run"):  # no budget: never refused
        pass


def test_a_publish_past_its_art_budget_stops_in_one_line_and_writes_nothing(tmp_path, capsys):
    settings = tmp_path / "s.toml"
    settings.write_text("art_seconds = 1.0\ndpi = 1200\n")
    out = tmp_path / "kit"
    code = main(
        [
            "publish",
            str(EXAMPLES / "best-known.json"),
            "--settings",
            str(settings),
            "--only",
            "sheets",
            "--out",
            str(out),
        ]
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "art_seconds = 1" in err[0], err
    assert not out.exists()
