"""One size: ``render`` and ``preview`` draw a tile at the size ``publish`` prints it, from one place
(``publish.settings.tile_width_mm``), and the kit's ``tiles/`` are what ``render`` draws, byte for byte."""

from __future__ import annotations

import re

import pytest

from generator.cli import main
from tests.conftest import EXAMPLES

SIZE = re.compile(r'<svg [^>]*width="([0-9.]+)mm" height="([0-9.]+)mm"')


@pytest.mark.parametrize(("board", "mm"), [("square-jungle", 50.0), ("classic", 63.5)])
def test_render_draws_the_tiles_the_kit_prints(board, mm, tmp_path, capsys):
    tiles = EXAMPLES / ("best-known.json" if board == "classic" else f"optimized-{board}.json")
    assert main(["render", str(tiles), "--board", board, "--out", str(tmp_path / "r")]) == 0
    assert main(["publish", str(tiles), "--board", board, "--only", "tiles", "--out", str(tmp_path / "k")]) == 0
    drawn = sorted(p.name for p in (tmp_path / "r").iterdir())
    assert drawn == sorted(p.name for p in (tmp_path / "k" / "tiles").iterdir())
    for name in drawn:
        assert (tmp_path / "r" / name).read_bytes() == (tmp_path / "k" / "tiles" / name).read_bytes(), name
    side = next(n for n in drawn if n.startswith("tile-"))
    width, height = map(float, SIZE.match((tmp_path / "r" / side).read_text()).groups())
    assert width == pytest.approx(mm) and (height == pytest.approx(mm) if board != "classic" else True)


def test_a_square_projects_render_follows_its_profile(tmp_path):
    project = tmp_path / "p"
    assert main(["new", str(project), "--board", "square-jungle"]) == 0
    settings = project / "settings.toml"
    settings.write_text(settings.read_text().replace('profile = "square-50mm"', 'profile = "square-2in"'))
    assert main(["render", str(project), "--out", str(tmp_path / "r")]) == 0
    side = (tmp_path / "r" / "tile-01-front.svg").read_text()
    assert SIZE.match(side).groups() == ("50.8", "50.8")  # the profile the kit is cut to, 2 in
