"""A designer's art is data, never code (issues 22 and 41): SVG rebuilt from an allow-list, hostile SVG refused in one
line naming the file and the element, CSS read by a tokenizer and scoped to the art, references and rasters bounded,
and art placed anywhere never paints outside its box."""

from __future__ import annotations

import base64
import io
import re
import struct
import zlib

import pytest

from generator.errors import TrailwrightError
from generator.render.artlimits import inline_raster, printed_raster, raster_dpi
from generator.render.untrusted import safe_svg

SAFE = (
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">'
    '<defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>'
    "<style>.reed{fill:#3a5;stroke:url(#g)!important} #g stop, .reed path{opacity:.5}</style>"
    '<rect class="reed" width="10" height="10" fill="url(#g)" style="stroke: url(#g)"/><use xlink:href="#r"/>'
    '<circle id="r" r="1"/><image href="art/reed.png" width="5" height="5"/><text>Brücke</text>'
    "<title>kept out</title></svg>"
)


def wrap(inner: str, view: str = "0 0 10 10") -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="{view}">'
        f"{inner}</svg>"
    )


def png(width: int, height: int, extra: bytes = b"") -> bytes:
    """A PNG whose header says ``width`` × ``height`` (its pixels need not be there) and an extra chunk."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    head = chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
    rows = zlib.compress(b"\0" * (width + 1) * min(height, 4))
    return (
        b"\x89PNG\r\n\x1a\n"
        + head
        + (chunk(b"prVt", extra) if extra else b"")
        + chunk(b"IDAT", rows)
        + chunk(b"IEND", b"")
    )


def test_safe_art_is_rebuilt_prefixed_and_still_draws(tmp_path):
    import cairosvg
    from PIL import Image

    (tmp_path / "art").mkdir()
    Image.new("RGB", (8, 8), (20, 90, 40)).save(tmp_path / "art" / "reed.png")
    out = safe_svg(SAFE, "bridge.svg", tmp_path, prefix="tw-b-")
    assert "linearGradient" in out and "Brücke" in out and "kept out" not in out
    assert 'id="tw-b-g"' in out and 'class="tw-b-reed"' in out and "url(#tw-b-g)" in out and 'href="#tw-b-r"' in out
    assert ".tw-b-reed{fill:#3a5;stroke:url(#tw-b-g)}#tw-b-g stop,.tw-b-reed path{opacity:.5}" in out  # no !important
    assert "reed.png" not in out and 'href="data:image/png;base64,' in out  # the file carried inside, written anew
    cairosvg.svg2png(bytestring=out.encode())


@pytest.mark.parametrize(
    ("svg", "says"),
    [
        (wrap("<script>alert(1)</script>"), "<script>: a <script> element is not allowed"),
        (wrap('<rect onload="alert(1)"/>'), "<rect>: the event attribute 'onload'"),
        (wrap('<a href="#x"><rect/></a>'), "<a>: a <a> element is not allowed"),
        (wrap("<foreignObject><div/></foreignObject>"), "<foreignObject>: a <foreignObject> element"),
        (wrap('<set attributeName="href" to="javascript:alert(1)"/>'), "<set>: a <set> element"),
        (wrap("<switch><rect/></switch>"), "<switch>: a <switch> element"),
        (wrap('<use xlink:href="http://evil.example/x.svg#a"/>'), "<use> href: the reference 'http://evil"),
        (wrap('<use href="file:///etc/passwd"/>'), "<use> href: the reference 'file:///etc/passwd'"),
        (wrap('<image href="javascript:alert(1)"/>'), "<image> href: the reference 'javascript:alert(1)'"),
        (wrap('<image href="/etc/passwd"/>'), "<image> href: the reference '/etc/passwd'"),
        (wrap('<image href="../../secret.png"/>'), "<image> href: '../../secret.png' leads outside the theme's folder"),
        (
            wrap('<rect style="fill: url(http://evil.example/p.png)"/>'),
            "<rect> style: fill: the reference 'http://evil",
        ),
        (wrap("<style>@import url(x.css);</style>"), "<style>: CSS @import is not allowed"),
        (wrap("<rect fill=\"url('https://evil.example')\"/>"), "<rect>: fill: the reference 'https://evil"),
        (
            wrap('<rect rx="3" inkscape:label="x" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"/>'),
            "<rect>: the attribute 'label' of another namespace",
        ),
        (wrap('<rect d="M0 0"/>'), "<rect>: the attribute 'd' is not allowed on <rect>"),
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
        (wrap('<g xml:base="http://evil.example/"><image href="a.png"/></g>'), "<g>: the attribute 'base' of another"),
        (wrap("<rect/>" * 50_001), "more than 50,000 elements"),
        # the audit of issue 41: art that escaped its box, restyled the trails or reached the network
        (
            wrap('<style>svg{overflow:visible}</style><rect width="999" height="999" fill="red"/>'),
            "<style>: the CSS property 'overflow' is not allowed",
        ),
        (wrap("<style>.a{overflow:visible}</style>"), "<style>: the CSS property 'overflow' is not allowed"),
        (wrap('<svg overflow="visible"/>'), "<svg>: the attribute 'overflow' is not allowed on <svg>"),
        (wrap('<rect style="overflow:visible"/>'), "<rect> style: the CSS property 'overflow' is not allowed"),
        (wrap("<style>path,line{stroke:#f0f!important}</style>"), "<style>: the CSS selector 'path' must name one"),
        (wrap("<style>.a path, svg path{stroke:#f0f}</style>"), "the CSS selector 'svg path' must name one"),
        (wrap("<style>.a ~ path{fill:red}</style>"), "the CSS selector part '~' is not allowed"),
        (wrap("<style>.a > path{fill:red}</style>"), "the CSS selector part '>' is not allowed"),
        (wrap("<style>:not(.a){fill:red}</style>"), "the CSS selector part ':' is not allowed"),
        (wrap("<style>*{fill:red}</style>"), "the CSS selector part '*' is not allowed"),
        (wrap("<style>[class]{fill:red}</style>"), "the CSS selector part '[class]' is not allowed"),
        (wrap('<style>@\\69mport "http://evil.example/a.css";</style>'), "<style>: CSS @import is not allowed"),
        (wrap("<style>@font-face{src:url(http://evil.example/f)}</style>"), "CSS @font-face is not allowed"),
        (wrap('<rect style="fill:\\75rl(http://evil.example/a.png)"/>'), "fill: the reference 'http://evil"),
        (wrap('<rect style="f\\69ll:\\75rl(http://evil.example/a.png)"/>'), "fill: the reference 'http://evil"),
        (wrap("<style>.a{fill:\\75rl(http://evil.example/a.png)}</style>"), "fill: the reference 'http://evil"),
        (wrap('<rect style="fill:image-set(&quot;http://evil.example&quot; 1x)"/>'), "fill: 'image-set("),
        (wrap('<rect fill="image-set(&quot;http://evil.example&quot; 1x)"/>'), "<rect>: fill: 'image-set("),
        (wrap('<rect style="background:url(#a)"/>'), "the CSS property 'background' is not allowed"),
        (wrap('<rect style="stroke-width:url(#a)"/>'), "stroke-width: url() is not allowed here"),
        (wrap('<rect fill="var(--x)"/>'), "fill: 'var("),
        (wrap('<rect fill="rgb(attr(x))"/>'), "fill: rgb() of anything but numbers"),
        (wrap('<rect fill="url(#nowhere)"/>'), "#nowhere names no element of the file"),
        (wrap('<rect style="fill:' + "(" * 100_000 + '"/>'), "<rect> style: CSS nested more than 16 brackets deep"),
        (wrap('<rect fill="' + "[" * 100_000 + '"/>'), "<rect>: fill: CSS nested more than 16 brackets deep"),
        (wrap("<style>.a{" + "{" * 100_000 + "}</style>"), "<style>: CSS nested more than 16 brackets deep"),
        # bounded drawing
        (wrap("", "0 0 inf inf"), "<svg> viewBox: viewBox '0 0 inf inf' is not four plain numbers"),
        (wrap("", "0 0 nan 10"), "<svg> viewBox: viewBox '0 0 nan 10' is not four plain numbers"),
        (wrap("", "0 0 0 10"), "viewBox '0 0 0 10' has no area"),
        (wrap('<svg viewBox="0 0 1e-300 1"/>'), "<svg> viewBox: viewBox '0 0 1e-300 1' has no area"),
        (wrap('<rect width="1e999" height="1"/>'), "<rect> width: the number '1e999' is not finite"),
        (wrap('<rect width="inf" height="1"/>'), "<rect> width: 'inf' is not an allowed value"),
        (wrap('<path d="M0 0L1e400 0"/>'), "<path> d: the number '1e400' is not finite"),
        (wrap('<rect transform="scale(nan)"/>'), "<rect> transform: 'scale(nan)' is not an allowed value"),
        (wrap('<rect style="stroke-width:1e999"/>'), "stroke-width: the number '1e999' is not finite"),
        (
            wrap('<pattern id="p" width="1" height="1"><rect width="1" height="1" fill="url(#p)"/></pattern>'),
            "#p refers to itself (a reference cycle)",
        ),
        (
            wrap(
                '<pattern id="a" width="1" height="1"><rect fill="url(#b)"/></pattern>'
                '<pattern id="b" width="1" height="1"><rect fill="url(#a)"/></pattern><rect fill="url(#a)"/>'
            ),
            "refers to itself (a reference cycle)",
        ),
        (
            wrap(
                "".join(
                    f'<pattern id="p{i}" width="1" height="1"><rect width="1" height="1" fill="url(#p{i + 1})"/>'
                    "</pattern>"
                    for i in range(8)
                )
                + '<pattern id="p8"/><rect width="9" height="9" fill="url(#p0)"/>'
            ),
            "references chained more than 4 deep",
        ),
        (
            wrap(
                '<defs><g id="a">'
                + "<rect/>" * 100
                + "</g>"
                + "".join(
                    f'<g id="u{i}">' + f'<use href="#{"a" if i == 0 else f"u{i - 1}"}"/>' * 10 + "</g>"
                    for i in range(3)
                )
                + '</defs><use href="#u2"/>'
            ),
            "its references draw more than 50,000 elements",
        ),
        (wrap('<rect id="a"/><rect id="a"/>'), "the id 'a' is used twice"),
        # the audit of the fix: cairo drew a large marker outside the clip of its box (a bridge's red marker on the
        # ground beside the deck at 240 and 500 px), so markers are off the allow-list, as element and as property
        (
            wrap(
                '<marker id="m" markerWidth="1000000" markerHeight="1000000" viewBox="0 0 1 1"><rect width="1" '
                'height="1" fill="red"/></marker><path d="M0 0L9 9" stroke="#000" marker-start="url(#m)"/>'
            ),
            "<marker>: a <marker> element is not allowed",
        ),
        (wrap('<path d="M0 0L9 9" marker-end="url(#m)"/><g id="m"/>'), "the attribute 'marker-end' is not allowed"),
        (wrap('<path d="M0 0L9 9" style="marker-mid:url(#m)"/><g id="m"/>'), "the CSS property 'marker-mid' is not"),
    ],
)
def test_hostile_svg_is_refused_in_one_line_naming_the_file_and_element(tmp_path, svg, says):
    with pytest.raises(TrailwrightError) as err:
        safe_svg(svg, "theme/bridge.svg", tmp_path)
    assert says in str(err.value) and str(err.value).startswith("theme/bridge.svg") and "\n" not in str(err.value)


def test_the_pictures_of_one_file_are_bounded_in_all_each_counted_every_time_it_is_named(tmp_path):
    """The audit of the fix: 300 ``<image href="pic.png">`` of one 4 MB picture were each decoded and written
    inline (1.7 GB, still running at 60 s); now the file's pictures together are bounded before the next decoding."""
    from PIL import Image

    Image.new("RGB", (1000, 1000), (200, 10, 10)).save(tmp_path / "pic.png")  # 1 M pixels, a small file
    safe_svg(wrap('<image href="pic.png" width="1" height="1"/>' * 16), "b.svg", tmp_path)  # 16 M pixels in all
    with pytest.raises(TrailwrightError, match=r"^b.svg: <image> href: the file's pictures have more than 16,000,000"):
        safe_svg(wrap('<image href="pic.png" width="1" height="1"/>' * 17), "b.svg", tmp_path)
    inline = "data:image/png;base64," + base64.b64encode((tmp_path / "pic.png").read_bytes()).decode()
    with pytest.raises(TrailwrightError, match=r"pixels in all"):
        safe_svg(wrap(f'<image href="{inline}" width="1" height="1"/>' * 17), "b.svg", tmp_path)


def test_inline_rasters_are_bounded_from_their_header_and_written_anew():
    from PIL import Image

    huge = "data:image/png;base64," + base64.b64encode(png(30_000, 30_000)).decode()
    with pytest.raises(TrailwrightError, match=r"^b.svg: <image> href: .*too many pixels to decode safely"):
        safe_svg(wrap(f'<image href="{huge}" width="1" height="1"/>'), "b.svg")
    wide = "data:image/png;base64," + base64.b64encode(png(5000, 4000)).decode()  # 20 M pixels: over 16 M
    with pytest.raises(TrailwrightError, match=r"5,000 × 4,000 px is too many pixels to decode safely"):
        inline_raster(wide, "b.svg")
    out = io.BytesIO()
    Image.new("RGB", (40, 30), (200, 10, 10)).save(out, format="PNG")
    bloated = out.getvalue()[:-12] + png(1, 1, extra=b"x" * 2_000_000)[33:-12] + out.getvalue()[-12:]
    uri = inline_raster("data:image/png;base64," + base64.b64encode(bloated).decode(), "b.svg")
    data = base64.b64decode(uri.split(",", 1)[1])
    assert len(bloated) > 2_000_000 and len(data) < 2_000 and b"prVt" not in data  # the chunk does not travel on
    assert Image.open(io.BytesIO(data)).size == (40, 30)
    for bad in ("data:text/html;base64,PHNjcmlwdD4=", "data:image/svg+xml;base64,PHN2Zy8+", "data:image/png;base64,!!"):
        with pytest.raises(TrailwrightError):
            inline_raster(bad, "b.svg")


def test_raster_art_is_checked_for_bombs_print_resolution_and_downscaled_when_far_finer(tmp_path):
    from PIL import Image

    def made(width: int, mode: str = "RGB") -> bytes:
        out = io.BytesIO()
        Image.new(mode, (width, width)).save(out, format="PNG")
        return out.getvalue()

    assert raster_dpi(made(600), "good.png", 50.8, 50.8) == (pytest.approx(300), None)  # 50.8 mm at 300 dpi
    dpi, warning = raster_dpi(made(400), "low.png", 50.8, 50.8)
    assert dpi == pytest.approx(200) and "200 dpi" in warning and "low.png" in warning
    with pytest.raises(TrailwrightError, match="100 dpi at 50.8 x 50.8 mm, at least 150 needed"):
        raster_dpi(made(200), "poor.png", 50.8, 50.8)
    with pytest.raises(TrailwrightError, match="too many pixels to decode safely"):
        raster_dpi(png(20_000, 20_000), "bomb.png", 50, 50)  # 400 million pixels, refused from the header
    with pytest.raises(TrailwrightError, match="not a PNG or JPEG image Pillow reads"):
        raster_dpi(b"not an image", "fake.png", 50, 50)
    uri, width, height, dpi, warning = printed_raster(made(3000, "L"), "fine.png", (50.8, 50.8))  # 1500 dpi
    assert (width, height, dpi) == (1200, 1200, 600) and "downscaled to 1200 × 1200 px (600 dpi)" in warning


def test_art_placed_never_paints_outside_its_box_whatever_it_draws(tmp_path):
    from generator.render import load_style
    from tests.test_themes import theme

    loud = '<rect x="-500" y="-500" width="1000" height="1000" fill="#ff0000"/><svg x="-99" width="999" height="9"/>'
    folder = theme(tmp_path, bridge=wrap(loud + '<style>.a{fill:#f0f}</style><path class="a" d="M-9 -9H99V99z"/>'))
    art = load_style(folder).art.bridge
    _assert_inside(art, 3.0, 4.0, 10.0, 6.0)


def _assert_inside(art, x: float, y: float, width: float, height: float) -> None:
    """``art`` placed in the box (x, y, width, height) of a 20 × 20 canvas, drawn at 8 px a unit: nothing painted
    more than a pixel outside the box."""
    import cairosvg
    import numpy as np
    from PIL import Image

    head = '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160" viewBox="0 0 20 20">'
    canvas = f"{head}{art.placed(x, y, width, height)}</svg>"
    pixels = np.asarray(Image.open(io.BytesIO(cairosvg.svg2png(bytestring=canvas.encode()))).convert("RGBA"))
    painted = pixels[..., 3] > 0
    outside = np.ones_like(painted)
    outside[int(8 * y) - 1 : int(8 * (y + height)) + 1, int(8 * x) - 1 : int(8 * (x + width)) + 1] = False
    assert not (painted & outside).any()


HOSTILE = [
    'fill="url(http://evil.example/a)"',
    'style="fill:\\75rl(http://evil.example/a)"',
    'style="overflow:visible"',
    'overflow="visible"',
    'width="inf"',
    'href="http://evil.example/x"',
    'style="fill:image-set(&quot;http://evil.example&quot; 1x)"',
    'transform="scale(1e999)"',
    'onload="x()"',
]
STYLES = [
    "svg{overflow:visible}",
    "path,line{stroke:#f0f!important}",
    '@\\69mport "http://evil.example/a.css";',
    ".a{fill:#0f0!important}",
    ".a rect{stroke:url(#g);stroke-width:40}",
    "#g stop{stop-color:#0f0}",
]


def _svg_strategy():
    from hypothesis import strategies as st

    number = st.integers(-60, 60).map(str)
    shapes = st.one_of(
        st.builds(
            lambda x, y, w, h: f'<rect x="{x}" y="{y}" width="{abs(int(w))}" height="{abs(int(h))}"',
            number,
            number,
            number,
            number,
        ),
        st.builds(lambda x, y, r: f'<circle cx="{x}" cy="{y}" r="{abs(int(r))}"', number, number, number),
        st.builds(lambda a, b, c, d: f'<path d="M{a} {b}L{c} {d}L{b} {a}Z"', number, number, number, number),
    )
    benign = st.sampled_from(
        [
            'fill="#ff0000"',
            'class="a"',
            'fill="url(#g)"',
            'stroke="#00f" stroke-width="30"',
            'transform="rotate(30)"',
            'style="fill:red;stroke:url(#g)"',
            'filter="url(#f)"',
        ]
    )
    extras = st.one_of(benign, benign, benign, benign, benign, st.sampled_from(HOSTILE))
    element = st.builds(lambda s, e: f"{s} {' '.join(e)}/>", shapes, st.lists(extras, max_size=2, unique=True))
    rules = st.one_of(st.sampled_from(STYLES[3:]), st.sampled_from(STYLES[3:]), st.sampled_from(STYLES))
    sheet = st.lists(rules, max_size=2).map(lambda r: f"<style>{''.join(r)}</style>" if r else "")
    group = st.lists(element, min_size=1, max_size=4).map(lambda e: f'<g class="a">{"".join(e)}</g>')
    defs = (
        '<defs><linearGradient id="g"><stop offset="0" stop-color="#f00"/></linearGradient>'
        '<filter id="f"><feGaussianBlur stdDeviation="3"/></filter></defs>'
    )
    return st.builds(
        lambda s, g, e: wrap(defs + s + g + "".join(e), "-5 -5 30 30"), sheet, group, st.lists(element, max_size=3)
    )


def test_property_rebuilt_art_never_refers_out_of_the_file_and_never_paints_outside_its_box(tmp_path):
    from hypothesis import HealthCheck, given, settings

    from generator.render.theme import Art

    @settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(_svg_strategy())
    def check(text: str) -> None:
        try:
            out = safe_svg(text, "art.svg", tmp_path, prefix="tw-p-")
        except TrailwrightError as err:
            assert str(err).startswith("art.svg") and "\n" not in str(err)
            return
        for value in re.findall(r'href="([^"]*)"', out):
            assert value.startswith(("#tw-p-", "data:image/png;base64,", "data:image/jpeg;base64,"))
        assert all(url.startswith("#tw-p-") for url in re.findall(r"url\(([^)]*)\)", out))
        assert "@" not in out and "overflow" not in out and "important" not in out and "\\" not in out
        for rules in re.findall(r"<style>(.*?)</style>", out):
            assert all(".tw-p-" in s or "#tw-p-" in s for s in re.findall(r"([^{}]*)\{", rules) for s in s.split(","))
        body = out[out.index(">") + 1 : out.rindex("</svg>")].replace(' xmlns="http://www.w3.org/2000/svg"', "")
        _assert_inside(Art("art.svg", body, (-5.0, -5.0, 30.0, 30.0)), 5.0, 6.0, 8.0, 7.0)

    check()
