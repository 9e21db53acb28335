"""A theme's files (issue 41): only regular files inside the folder are opened, theme.toml included; raster grounds
bounded in bytes and pixels; each piece of art drawn within a time bound; shipped theme names win over folders."""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest
from PIL import Image

from generator.errors import TrailwrightError
from generator.render import artlimits, load_style
from generator.render.style import is_theme
from tests.test_themes import RED, svg, theme
from tests.test_untrusted_art import png


def refused(folder: Path) -> str:
    with pytest.raises(TrailwrightError) as err:
        load_style(folder)
    assert "\n" not in str(err.value)
    return str(err.value)


def test_a_fifo_named_as_art_is_refused_without_waiting_on_it(tmp_path):
    folder = theme(tmp_path, bridge=svg(RED))
    (folder / "bridge.svg").unlink()
    os.mkfifo(folder / "bridge.svg")  # open() on it would wait for a writer for ever
    assert refused(folder).endswith("art.bridge: 'bridge.svg' is not a regular file (a FIFO, device or folder)")


def test_theme_toml_and_art_linked_out_of_the_folder_are_refused(tmp_path):
    folder = theme(tmp_path, bridge=svg(RED))
    (folder / "theme.toml").unlink()
    (folder / "theme.toml").symlink_to("/etc/passwd")
    assert refused(folder) == f"{folder}/theme.toml: 'theme.toml' leads outside the theme's folder (a link or '..')"
    (folder / "theme.toml").unlink()
    (folder / "theme.toml").write_text('[art]\nbridge = "bridge.svg"\n')
    (folder / "bridge.svg").unlink()
    (folder / "bridge.svg").symlink_to("/dev/zero")
    assert "art.bridge: 'bridge.svg' leads outside the theme's folder" in refused(folder)
    (folder / "bridge.svg").unlink()
    (folder / "real.svg").write_text(svg(RED))
    (folder / "bridge.svg").symlink_to(folder / "real.svg")  # a link that stays inside is fine
    assert load_style(folder).art.bridge is not None
    (folder / "theme.toml").unlink()
    (folder / "theme.toml").mkdir()
    assert refused(folder).endswith("'theme.toml' is not a regular file (a FIFO, device or folder)")


def test_a_raster_ground_is_bounded_in_bytes_before_it_is_read(tmp_path):
    folder = theme(tmp_path, '[art]\nfront = "sand.png"\n')
    out = io.BytesIO()
    Image.new("RGB", (1000, 866), (220, 200, 150)).save(out, format="PNG")
    head, tail = out.getvalue()[:-12], out.getvalue()[-12:]
    chunk = png(1, 1, extra=b"\0" * 60 * 2**20)[33:-12]  # a 60 MB private chunk, as in the audit's 63 MB ground
    (folder / "sand.png").write_bytes(head + chunk + tail)
    (folder / "theme.toml").write_text('[art]\nfront = "sand.png"\n')
    assert refused(folder).endswith("the picture 'sand.png' is larger than 33,554,432 bytes")
    (folder / "sand.png").write_bytes(png(12_000, 12_000))  # 144 million pixels: refused from the header
    assert "12,000 × 12,000 px is too many pixels to decode safely" in refused(folder)


@pytest.mark.slow
def test_a_9000_pixel_ground_is_downscaled_with_a_line_saying_so(tmp_path):
    folder = theme(tmp_path, '[art]\nfront = "sand.png"\n')
    Image.new("L", (9000, 9000), 200).save(folder / "sand.png")
    (folder / "theme.toml").write_text('[art]\nfront = "sand.png"\n')
    art = load_style(folder).art
    assert art.front.view[2] < 2000 and any("downscaled to" in w and "(600 dpi)" in w for w in art.warnings)


def test_art_that_draws_too_long_is_refused_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr(artlimits, "DRAW_SECONDS", 1e-4)
    artlimits._DRAWN.clear()
    folder = theme(tmp_path, bridge=svg('<g><circle r="3" fill="#123"/></g>' * 50))
    assert refused(folder).endswith("bridge.svg: drawing it takes longer than 0.0001 s: simplify the art")


def test_art_the_drawing_cannot_finish_is_refused_in_one_line_naming_why(tmp_path):
    folder = theme(tmp_path, bridge=svg('<rect width="1" height="1" transform="scale(1e-300)"/>'))
    assert refused(folder).endswith(
        "bridge.svg: the art cannot be drawn (CairoError: cairo returned "
        "CAIRO_STATUS_INVALID_MATRIX: b'invalid matrix (not invertible)')"
    )


def test_art_is_drawn_in_time_at_the_scale_it_covers_its_box_not_only_at_its_own_aspect(tmp_path):
    """The audit of the fix: a ground 1000 units wide and 1 high, with text 300 units high, drew at its own aspect
    (1 px a unit) and was accepted; cut to cover the tile it is 1000 times larger, and tabletop stopped on a cairo
    FreeType traceback. Drawn stretched to a square, each axis as fine as where it covers a box, it is refused."""
    text = svg('<text y="1" font-size="300" fill="#f00">W</text>', "0 0 1000 1")
    (tmp_path / "g").mkdir()
    folder = theme(tmp_path / "g", front=text)
    assert "front.svg: the art cannot be drawn (CairoError: cairo returned CAIRO_STATUS_FREETYPE_ERROR" in refused(
        folder
    )


def test_a_drawing_of_the_kit_that_cairo_cannot_finish_is_one_line_not_a_traceback():
    """In a process of its own: a FreeType error leaves cairo's shared font state broken for the rest of the process
    (later text in the same font fails too), so the test must not draw it in the test runner's."""
    import subprocess
    import sys

    code = (
        "from generator.errors import TrailwrightError\n"
        "from generator.render.raster import render_pixels\n"
        'huge = \'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1">'
        '<text y="1" font-size="900000">W</text></svg>\'\n'
        "try:\n    render_pixels(huge, 100, 100)\nexcept TrailwrightError as err:\n    print(err)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("a picture of 100 × 100 px: the art cannot be drawn (CairoError: ")
    assert out.stdout.count("\n") == 1


def test_a_shipped_theme_name_wins_over_a_folder_of_that_name_unless_written_as_a_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "river").mkdir()
    (tmp_path / "river" / "theme.toml").write_text('[theme]\nname = "Impostor"\n')
    assert load_style("river").art.name == "River" and load_style("river").art.folder == "river"
    mine = load_style("./river").art
    assert mine.name == "Impostor" and mine.folder == str(tmp_path / "river") and len(mine.digest) == 64
    by_path = load_style(str(tmp_path / "river")).art
    assert (by_path.folder, by_path.digest) == (mine.folder, mine.digest) and is_theme("./river") and is_theme("river")
    record = load_style("./river").to_dict()["theme"]
    assert record["folder"] == str(tmp_path / "river") and record["sha256"] == mine.digest
    assert "sha256" not in load_style("river").to_dict()["theme"]
    (tmp_path / "river" / "theme.toml").write_text('[theme]\nname = "Changed"\n')
    assert load_style("./river").art.digest != mine.digest


def test_a_style_sheet_in_bridge_art_restyles_only_the_art_never_the_tiles_trails(tmp_path):
    from shapely.geometry import Point
    from shapely.ops import unary_union

    from generator.model import Tile
    from generator.render import render_side
    from tests.test_themes import BRIDGED, _pixels_mm, _red_mask, drawn

    sheet = "<style>.a, .a path, #b{stroke:#f00!important;fill:#f00!important;stroke-width:9}</style>"
    art = svg(f'{sheet}<g class="a"><path id="b" d="M-99 -99H99V99H-99Z"/><rect width="9" height="9"/></g>')
    style = load_style(theme(tmp_path, bridge=art))
    side = BRIDGED[0]
    text = render_side(Tile("7", side, side), "front", style, label=False)
    for rules in re.findall(r"<style>(.*?)</style>", text):
        assert all("tw-bridge-svg-" in s for s in rules.split("{")[0].split(","))
    _, decks, _, _ = drawn(text)
    red, width_px = _red_mask(text, 8)
    near = unary_union(decks).buffer(0.3)
    assert red.any() and all(near.contains(Point(p)) for p in _pixels_mm(red, width_px, style))


def test_a_settings_file_names_a_shipped_theme_or_a_folder_beside_it_written_as_a_path(tmp_path):
    from generator.project import theme_beside

    (tmp_path / "river").mkdir()
    (tmp_path / "dunes").mkdir()
    assert theme_beside("river", tmp_path) == "river"  # the shipped one, though a folder of that name is beside
    assert theme_beside("./river", tmp_path) == str(tmp_path / "river")
    assert theme_beside("dunes", tmp_path) == str(tmp_path / "dunes")
    with pytest.raises(TrailwrightError, match="theme = 'nowhere': no such folder beside it"):
        theme_beside("nowhere", tmp_path, "settings.toml")


@pytest.mark.slow
def test_the_play_table_in_a_theme_with_sheets_and_pictures_refers_to_nothing_outside_the_page(tmp_path):
    import base64

    from generator.cli import main
    from tests.conftest import EXAMPLES

    out = io.BytesIO()
    Image.new("RGB", (8, 8), (30, 120, 60)).save(out, format="PNG")
    picture = "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()
    sheet = "<style>.a{stroke:#f0f!important;fill:url(#g)}</style>"
    gradient = '<linearGradient id="g"><stop offset="0" stop-color="#0f0"/></linearGradient>'
    art = svg(
        f'{sheet}{gradient}<rect class="a" width="10" height="10"/><image href="{picture}" width="5" height="5"/>'
    )
    folder = theme(tmp_path, bridge=art, trail=art)
    args = ["publish", str(EXAMPLES / "best-known.json"), "--theme", str(folder), "--only", "play"]
    assert main([*args, "--out", str(tmp_path / "kit")]) == 0
    page = (tmp_path / "kit" / "play" / "index.html").read_text()
    page = re.sub(r"<script>.*?</script>", "", page, flags=re.S)  # the page's own code; the art is in its SVG
    assert ".tw-bridge-svg-a{stroke:#f0f;fill:url(#tw-bridge-svg-g)}" in page and "data:image/png;base64," in page
    assert not re.findall(r'(?:href|src)="(?!#|data:image/png;base64,|data:,")', page)  # data:, the page's icon
    assert not re.findall(r"url\((?!['\"]?#)", page) and "@import" not in page and "!important" not in page
    assert set(re.findall(r"[a-z]+://[^\"\s)]*", page)) == {"http://www.w3.org/2000/svg"}


def test_a_theme_digest_reads_the_art_files_only_never_git_or_other_files(tmp_path, monkeypatch):
    folder = tmp_path / "mine"
    (folder / "art").mkdir(parents=True)
    (folder / "theme.toml").write_text('[theme]\nname = "Mine"\n')
    (folder / "art" / "tile.svg").write_text(svg(RED))
    before = artlimits.folder_digest(folder)
    (folder / ".git" / "objects").mkdir(parents=True)
    (folder / ".git" / "objects" / "pack.toml").write_bytes(b"x" * 100)  # an art suffix, in a hidden folder
    (folder / "notes.txt").write_text("a designer's notes")
    (folder / ".hidden.svg").write_text(svg(RED))
    opened: list[str] = []
    real = artlimits.theme_file
    monkeypatch.setattr(
        artlimits, "theme_file", lambda root, name, *a, **k: opened.append(name) or real(root, name, *a, **k)
    )
    assert artlimits.folder_digest(folder) == before  # none of them counts
    assert sorted(opened) == ["art/tile.svg", "theme.toml"]  # and none is read
    (folder / "art" / "tile.svg").write_text(svg("#00ff00"))
    assert artlimits.folder_digest(folder) != before  # the art does


def test_the_drawing_child_cannot_allocate_past_its_memory_bound():
    import subprocess
    import sys

    code = (
        "from generator.render.artlimits import _bound_memory\n"
        "_bound_memory(200 * 2**20)\n"
        "try:\n    block = bytearray(600 * 2**20)\nexcept MemoryError:\n    print('refused')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout == "refused\n", out.stderr
