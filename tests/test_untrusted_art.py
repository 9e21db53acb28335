"""A designer's art is data, never code (issue 22's gate): hostile SVG refused in one line naming the file and the
element, safe SVG kept drawable, raster art checked for decompression bombs and print resolution."""

from __future__ import annotations

import pytest

from generator.errors import TrailwrightError
from generator.render.untrusted import raster_dpi, safe_svg

SAFE = (
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">'
    '<defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>'
    '<rect width="10" height="10" fill="url(#g)" style="stroke: url(#g)"/><use xlink:href="#g"/>'
    '<image href="art/reed.png" width="5" height="5"/><text>Brücke</text></svg>'
)


def wrap(inner: str) -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">{inner}</svg>'


def test_safe_art_is_kept_and_still_draws(tmp_path):
    import cairosvg

    (tmp_path / "art").mkdir()
    out = safe_svg(SAFE, "bridge.svg", tmp_path)
    assert "linearGradient" in out and "Brücke" in out
    cairosvg.svg2png(bytestring=safe_svg(SAFE.replace('<image href="art/reed.png" width="5" height="5"/>', ""), "b"))


@pytest.mark.parametrize(
    ("svg", "says"),
    [
        (wrap("<script>alert(1)</script>"), "<script>: a <script> element is not allowed"),
        (wrap('<rect onload="alert(1)"/>'), "<rect>: the event attribute 'onload'"),
        (wrap('<a href="#x"><rect/></a>'), "<a>: a <a> element is not allowed"),
        (wrap("<foreignObject><div/></foreignObject>"), "<foreignObject>: a <foreignObject> element"),
        (wrap('<set attributeName="href" to="javascript:alert(1)"/>'), "<set>: a <set> element"),
        (wrap('<use xlink:href="http://evil.example/x.svg#a"/>'), "<use>: the reference 'http://evil"),
        (wrap('<use href="file:///etc/passwd"/>'), "<use>: the reference 'file:///etc/passwd'"),
        (wrap('<image href="javascript:alert(1)"/>'), "<image>: the reference 'javascript:alert(1)'"),
        (wrap('<image href="/etc/passwd"/>'), "<image>: the reference '/etc/passwd'"),
        (wrap('<image href="../../secret.png"/>'), "<image>: '../../secret.png' leads outside the theme's folder"),
        (wrap('<rect style="fill: url(http://evil.example/p.png)"/>'), "<rect>: the reference 'http://evil"),
        (wrap("<style>@import url(x.css);</style>"), "<style>: CSS @import is not allowed"),
        (wrap("<rect fill=\"url('https://evil.example')\"/>"), "<rect>: the reference 'https://evil"),
        ('<html xmlns="http://www.w3.org/1999/xhtml"/>', "<html> is not an <svg> document"),
        ("<svg", "not well-formed XML"),
        (
            '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>'
            '<svg xmlns="http://www.w3.org/2000/svg">&lol2;</svg>',
            "DTDs and entities are not allowed",
        ),
        (
            '<?xml version="1.0"?><!DOCTYPE svg SYSTEM "http://evil.example/x.dtd"><svg xmlns="http://www.w3.org/2000/svg"/>',
            "DTDs and entities are not allowed",
        ),
        (wrap("<g>" * 70 + "</g>" * 70), "nested deeper than 64 levels"),
        (wrap('<g xml:base="http://evil.example/"><image href="a.png"/></g>'), "<g>: xml:base is not allowed"),
        (
            wrap('<defs><g id="a"><rect/></g><g id="b"><use href="#a"/><use href="#a"/></g></defs><use href="#b"/>'),
            "<use>: #b holds a <use> itself",
        ),
        (wrap("<rect/>" * 50_001), "more than 50,000 elements"),
    ],
)
def test_hostile_svg_is_refused_in_one_line_naming_the_file_and_element(tmp_path, svg, says):
    with pytest.raises(TrailwrightError) as err:
        safe_svg(svg, "theme/bridge.svg", tmp_path)
    assert says in str(err.value) and str(err.value).startswith("theme/bridge.svg") and "\n" not in str(err.value)


def test_raster_art_is_checked_for_bombs_and_print_resolution(tmp_path):
    from PIL import Image

    good, low, poor = tmp_path / "good.png", tmp_path / "low.png", tmp_path / "poor.png"
    Image.new("RGB", (600, 600)).save(good)  # 50.8 mm at 300 dpi
    Image.new("RGB", (400, 400)).save(low)  # 200 dpi
    Image.new("RGB", (200, 200)).save(poor)  # 100 dpi
    assert raster_dpi(good, 50.8, 50.8) == (pytest.approx(300), None)
    dpi, warning = raster_dpi(low, 50.8, 50.8)
    assert dpi == pytest.approx(200) and "200 dpi" in warning and str(low) in warning
    with pytest.raises(TrailwrightError, match="100 dpi at 50.8 x 50.8 mm, at least 150 needed"):
        raster_dpi(poor, 50.8, 50.8)
    bomb = tmp_path / "bomb.png"
    Image.new("1", (20_000, 20_000)).save(bomb)  # 400 million pixels in a small file
    with pytest.raises(TrailwrightError, match="too many pixels to decode safely"):
        raster_dpi(bomb, 50, 50)
    (tmp_path / "fake.png").write_bytes(b"not an image")
    with pytest.raises(TrailwrightError, match="not an image Pillow reads"):
        raster_dpi(tmp_path / "fake.png", 50, 50)
