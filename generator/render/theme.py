"""Themes: a designer's own art for the tiles, read as data and placed where it cannot break the maze.

A theme is a folder holding ``theme.toml`` and its art. ``theme.toml`` has the style file's tables
(``[tile] [trail] [bridge] [label] [board] [preview]``, any keys of them) and tables of its own:

    [theme]
    name = "River"
    credits = ["Water, stones and reeds: drawn for Trailwright, CC0"]

    [art]                     # SVG files in the folder, each checked by render.untrusted
    front = "sand.svg"        # the front's ground, cut to the hexagon (SVG, or PNG/JPEG of 300 dpi at print size)
    back = "shingle.svg"      # the back's ground
    trail = "water.svg"       # a texture repeated along every trail, inside its verges
    bridge = "stones.svg"     # drawn into each bridge's deck, stretched to it and cut to it
    dead_end = "cap.svg"      # drawn over each dead end's stop bar, cut to the bar
    decorations = ["reed.svg", "stone.svg"]   # small art on the ground, in place of the grass tufts
    back_mark = "logo.svg"    # in each corner of every back, in place of the moons (tile.back_mark = true)
    wall = "bricks.svg"       # a texture filling the board's wall hexes
    connector = "planks.svg"  # a texture along the board's printed trails (default: the trail texture)
    cover = "cover.svg"       # the booklet cover's picture, in place of the mosaic (SVG, or PNG/JPEG)

    [landmarks]               # an illustration for each landmark, by its name on the board
    Well = "well.svg"

    [booklet]                 # the rules booklet's colours (ink, soft, accent, tint, rule)
    accent = "#2d4f66"

    [fonts]                   # TrueType-outline fonts embedded in the PDFs: the title and headings, the rest
    title = "MyDisplay.ttf"

Glossary
--------
art         one checked SVG file: its drawing (the children of its ``<svg>``), its ``viewBox``, and its
            ids prefixed with the file's name so two pieces never share an id.
placed      art drawn as a nested ``<svg>`` with its own viewport, inside a clip path of the box it is placed in
            (a bridge's deck, a decoration's spot, the tile): whatever the file draws or says, nothing shows
            outside that box. So art too big for its place is cut, never drawn over an exit or a trail.
"""

from __future__ import annotations

import hashlib
import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from generator.errors import TrailwrightError
from generator.render.artlimits import bounded_draw, image_info, printed_raster, regular_inside, theme_file
from generator.render.outlines import check_font
from generator.render.svg import hexagon_points, num, points
from generator.render.untrusted import MAX_BYTES, SMALLEST, SVG, safe_svg, stays_inside

THEME_FILE = "theme.toml"
THEME_TABLES = ("theme", "art", "landmarks", "booklet", "fonts")  # its own tables; the rest are the style's
FONT_ROLES = ("title", "text", "text_bold", "text_italic", "text_bold_italic", "label")  # headings; the rest; labels
RASTER, PICTURE = "png|jpg|jpeg", "svg|png|jpg|jpeg"  # the file kinds of raster art, and of art that may be either
ART_KEYS = ("front", "back", "trail", "bridge", "back_mark", "dead_end", "wall", "connector", "cover")
COVER_MM = (122.0, 118.0)  # the booklet cover's picture box at most (a raster cover is checked at this size)
MAX_DECORATIONS = 8
MAX_LANDMARKS = 64
LANDMARK_DISC, LANDMARK_ART = 0.44, 1.1  # a landmark's disc on the board (tile radii), its art's box (disc radii)


@dataclass(frozen=True)
class Art:
    """One checked SVG file, ready to place (see the glossary)."""

    name: str
    body: str
    view: tuple[float, float, float, float]

    def placed(self, x: float, y: float, width: float, height: float, fit: str = "none") -> str:
        """The art in the box (x, y, width, height) mm, cut to it by a clip path of the box (its id made from the
        art and the box, so the same placement is the same text); ``fit`` is SVG's ``preserveAspectRatio``."""
        box = f'x="{num(x)}" y="{num(y)}" width="{num(width)}" height="{num(height)}"'
        clip = "tw-box-" + hashlib.sha256(f"{self.name}|{box}".encode()).hexdigest()[:12]
        return (
            f'<clipPath id="{clip}"><rect {box}/></clipPath><g clip-path="url(#{clip})">'
            f'<svg {box} viewBox="{" ".join(f"{v:.9g}" for v in self.view)}" preserveAspectRatio="{fit}" '
            f'overflow="hidden">{self.body}</svg></g>'
        )

    def stretched(self) -> str:
        """The art alone stretched to a square (``preserveAspectRatio="none"``): each axis drawn as finely as where
        the art is stretched or cut to cover a box of that size, for the time-bound drawing."""
        head = f'<svg xmlns="{SVG}" width="100mm" height="100mm" viewBox="0 0 100 100">'
        return f"{head}{self.placed(0, 0, 100, 100)}</svg>"

    def picture(self, width_mm: float) -> tuple[str, float]:
        """The art alone as an SVG document ``width_mm`` wide at its own aspect, and its height in mm."""
        height = width_mm * self.view[3] / self.view[2]
        size = f'width="{num(width_mm)}mm" height="{num(height)}mm" viewBox="0 0 {num(width_mm)} {num(height)}"'
        return f'<svg xmlns="{SVG}" {size}>{self.placed(0, 0, width_mm, height)}</svg>', height


@dataclass(frozen=True)
class ThemeArt:
    """A theme's name, credits and art (any piece may be absent)."""

    name: str
    folder: str
    credits: tuple[str, ...] = ()
    front: Art | None = None
    back: Art | None = None
    trail: Art | None = None
    bridge: Art | None = None
    back_mark: Art | None = None
    dead_end: Art | None = None
    wall: Art | None = None
    connector: Art | None = None
    cover: Art | None = None
    ground_repeat_mm: float = 0.0  # the grounds repeated in tiles this wide (mm); 0: each stretched over the side
    decorations: tuple[Art, ...] = ()
    landmarks: tuple[tuple[str, Art], ...] = ()  # (landmark name, its illustration on the board)
    warnings: tuple[str, ...] = ()  # raster art below print resolution (300 dpi), one line each
    rasters: tuple[tuple[str, float, str], ...] = ()  # (file, effective dpi, printed size "W x H mm") of raster art
    booklet: tuple[tuple[str, str], ...] = ()  # the booklet's colours by name ("accent", "#2d4f66"), for publish
    source: str = ""  # the theme file, for errors found where the art is used
    fonts: tuple[tuple[str, str], ...] = ()  # (a role of FONT_ROLES, a TTF/OTF file's path): the PDFs, the labels
    digest: str = ""  # a theme folder's content hash (artlimits.folder_digest); empty for a shipped theme

    @property
    def label_font(self) -> str | None:
        """The font the tiles' labels are drawn in, as outlines: the ``label`` font, else the ``text`` font."""
        fonts = dict(self.fonts)
        return fonts.get("label") or fonts.get("text")

    def landmark(self, name: str) -> Art | None:
        """The illustration of the landmark called ``name``, if the theme has one."""
        return next((art for n, art in self.landmarks if n == name), None)

    def strangers(self, board) -> list[str]:
        """The landmarks this theme draws that ``board`` does not have (a typo, or a theme for another board)."""
        names = {lm.name for lm in board.landmarks}
        return [name for name, _ in self.landmarks if name not in names]

    def ground(self, face: str) -> Art | None:
        """The ground art of a ``"front"`` or ``"back"`` side."""
        return self.front if face == "front" else self.back


def _view(root: ET.Element, source: str) -> tuple[float, float, float, float]:
    box = root.get("viewBox")
    if box is None:
        try:
            width, height = (float(re.sub(r"[a-z%]+$", "", root.get(k, ""))) for k in ("width", "height"))
        except ValueError:
            raise TrailwrightError("<svg> needs a viewBox (or a plain width and height)", source) from None
        if not (math.isfinite(width) and math.isfinite(height) and width >= SMALLEST and height >= SMALLEST):
            raise TrailwrightError(f"<svg> width and height must be finite and at least {SMALLEST:g}", source)
        return 0.0, 0.0, width, height
    try:
        x, y, w, h = (float(v) for v in box.replace(",", " ").split())
    except ValueError:
        raise TrailwrightError(f"<svg> viewBox {box[:40]!r} is not four numbers", source) from None
    if not all(map(math.isfinite, (x, y, w, h))) or w <= 0 or h <= 0:
        raise TrailwrightError(f"<svg> viewBox {box[:40]!r} has no area", source)
    return x, y, w, h


def _inside(folder: Path, name, source: str, kinds: str) -> Path:
    """The file ``name`` inside ``folder``: a relative path of plain names ending in one of ``kinds``."""
    pattern = rf"[\w.-]+(/[\w.-]+)*\.({kinds})"
    if not isinstance(name, str) or not re.fullmatch(pattern, name, re.I) or ".." in name.split("/"):
        what = " or ".join(f".{k}" for k in kinds.split("|"))
        raise TrailwrightError(f"{str(name)[:60]!r} must be a {what} file inside the theme's folder", source)
    if not stays_inside(folder, name):
        raise TrailwrightError(f"{name!r} leads outside the theme's folder", source)
    regular_inside(folder, name, source, "the font" if "ttf" in kinds else "the art")  # no FIFO, device or folder
    return folder / name


def _font(folder: Path, name, source: str) -> str:
    """A font file inside ``folder`` whose glyph outlines can be read (a one-line error naming it otherwise)."""
    path = str(_inside(folder, name, source, "ttf|otf"))
    check_font(path)
    return path


def load_art(folder: Path, name: str, source: str) -> Art:
    """The SVG file ``name`` inside ``folder``, rebuilt from the allow-list (``untrusted.safe_svg``, its ids and
    classes prefixed with the file's name); ``theme_art`` then draws it once within the time bound."""
    path = _inside(folder, name, source, "svg")
    data = theme_file(folder, name, str(path), "the art", MAX_BYTES)
    text = safe_svg(data, str(path), folder, "tw-" + re.sub(r"\W", "-", name) + "-")
    root = ET.fromstring(text)
    view = _view(root, str(path))
    body = "".join(ET.tostring(child, encoding="unicode") for child in root).replace(f' xmlns="{SVG}"', "")
    return Art(name, body, view)


def load_raster(folder: Path, name: str, source: str, size_mm: tuple[float, float]) -> tuple[Art, float, str | None]:
    """A PNG or JPEG ground inside ``folder``, decoded safely and checked for its resolution when it covers
    ``size_mm`` (``artlimits.printed_raster``: an error below 150 dpi, downscaled above 600), as art, its dpi and
    the warning below 300 dpi or for the downscaling."""
    path = _inside(folder, name, source, RASTER)
    uri, width, height, dpi, warning = printed_raster(
        theme_file(folder, name, str(path), "the picture"), str(path), size_mm
    )
    body = f'<image width="{width}" height="{height}" href="{uri}"/>'
    return Art(name, body, (0.0, 0.0, float(width), float(height))), dpi, warning


def _picture(folder: Path, name, source: str, size_mm: tuple[float, float]) -> tuple[Art, float | None, str | None]:
    """A ground, cover or landmark: SVG, or a PNG or JPEG checked at its printed size (its dpi; None for SVG)."""
    if _inside(folder, name, source, PICTURE).suffix.lower() == ".svg":
        return load_art(folder, name, source), None, None
    return load_raster(folder, name, source, size_mm)


def _printed(folder: Path, name, source: str, side_mm: tuple[float, float], repeat: float) -> tuple[float, float]:
    """The size a ground prints at: the side's, or one repeat of it (``repeat`` mm wide, at the image's aspect;
    an SVG, which has no resolution to check, square)."""
    if not repeat:
        return side_mm
    path = _inside(folder, name, source, PICTURE)
    if path.suffix.lower() == ".svg":
        return repeat, repeat
    width, height, _ = image_info(theme_file(folder, name, str(path), "the picture"), str(path))
    return repeat, repeat * height / width


def ground_layer(art: ThemeArt, face: str, box: tuple[float, float, float, float]) -> str:
    """The side's ground art over ``box`` (x, y, width, height mm), cut to the hexagon (``#tw-cut``): stretched
    to cover it, or repeated in tiles ``ground_repeat_mm`` wide; empty when the theme has none for ``face``."""
    piece = art.ground(face)
    if piece is None:
        return ""
    if not art.ground_repeat_mm:
        return f'<g clip-path="url(#tw-cut)">{piece.placed(*box, "xMidYMid slice")}</g>'
    w = art.ground_repeat_mm
    tiles = pattern("tw-ground", piece, w, w * piece.view[3] / piece.view[2])
    x, y, bw, bh = box
    return (
        f'<defs>{tiles}</defs><rect x="{num(x)}" y="{num(y)}" width="{num(bw)}" height="{num(bh)}" '
        'fill="url(#tw-ground)" clip-path="url(#tw-cut)"/>'
    )


def _named(source: str, key: str | tuple[str, str]) -> str:
    """Where a piece of art is named, for its errors: ``theme.toml: art.front``, ``theme.toml: landmarks.Hut``."""
    return f"{source}: landmarks.{key[1]}" if isinstance(key, tuple) else f"{source}: art.{key}"


def _checked(folder: Path, data: dict, source: str) -> tuple[str, list, list, float]:
    """The theme file's tables checked for shape, one line naming the key at the first problem; returns the
    theme's name, credits, decorations and ground repeat."""
    about, art, marks = data.get("theme", {}), data.get("art", {}), data.get("landmarks", {})
    fonts = data.get("fonts", {})
    if not isinstance(fonts, dict) or set(fonts) - set(FONT_ROLES):
        raise TrailwrightError(f"fonts must be a table of {', '.join(FONT_ROLES)} = a .ttf or .otf file", source)
    booklet = data.get("booklet", {})
    if not isinstance(booklet, dict) or not all(
        isinstance(v, str) and re.fullmatch(r"#[0-9a-fA-F]{6}", v) for v in booklet.values()
    ):
        raise TrailwrightError('booklet must be a table of colours like accent = "#2d4f66"', source)
    if not isinstance(marks, dict) or len(marks) > MAX_LANDMARKS:
        raise TrailwrightError(f"landmarks must be a table of at most {MAX_LANDMARKS} names = art files", source)
    for table, known in (("theme", ("name", "credits")), ("art", (*ART_KEYS, "decorations", "ground_repeat_mm"))):
        value = data.get(table, {})
        if not isinstance(value, dict):
            raise TrailwrightError(f"{table} must be a table [{table}]", source)
        for key in value:
            if key not in known:
                raise TrailwrightError(f"unknown key {table}.{key} (expected one of {', '.join(known)})", source)
    name, credits = about.get("name", folder.name), about.get("credits", [])
    if not isinstance(name, str) or not name.strip() or len(name) > 80:
        raise TrailwrightError(f"theme.name = {str(name)[:40]!r}: expected a name of 1 to 80 characters", source)
    if not isinstance(credits, list) or not all(isinstance(c, str) and len(c) <= 300 for c in credits):
        raise TrailwrightError("theme.credits: expected a list of lines (at most 300 characters each)", source)
    decorations = art.get("decorations", [])
    if not isinstance(decorations, list) or len(decorations) > MAX_DECORATIONS:
        raise TrailwrightError(f"art.decorations: expected a list of at most {MAX_DECORATIONS} .svg files", source)
    repeat = art.get("ground_repeat_mm", 0)
    if isinstance(repeat, bool) or not isinstance(repeat, (int, float)) or not (repeat == 0 or 2 <= repeat <= 300):
        raise TrailwrightError(
            f"art.ground_repeat_mm = {repeat!r}: expected 0 (stretched) or a width in mm from 2 to 300", source
        )
    return name.strip(), credits, decorations, float(repeat)


def theme_art(folder: Path, data: dict, source: str, side_mm: tuple[float, float]) -> ThemeArt:
    """The ``[theme]``, ``[art]`` and ``[landmarks]`` tables of a theme file, their art loaded from ``folder``
    (a raster ground checked for its resolution on a side of ``side_mm``)."""
    name, credits, decorations, repeat = _checked(folder, data, source)
    art, marks, fonts = data.get("art", {}), data.get("landmarks", {}), data.get("fonts", {})
    mark = LANDMARK_ART * (LANDMARK_DISC * side_mm[0] / 2)  # the printed size of a landmark's art, square
    files = {key: art[key] for key in ("front", "back", "cover") if key in art}
    files.update({("landmark", mark_name): file for mark_name, file in sorted(marks.items())})
    sizes = {
        key: _printed(folder, art[key], _named(source, key), side_mm, repeat) for key in ("front", "back") if key in art
    }
    sizes.update({"cover": COVER_MM, **{key: (mark, mark) for key in files if isinstance(key, tuple)}})
    pictures = {key: _picture(folder, file, _named(source, key), sizes[key]) for key, file in files.items()}
    pieces = {
        key: load_art(folder, art[key], _named(source, key)) for key in ART_KEYS if key in art and key not in pictures
    }
    svgs = [p for p in (*pieces.values(), *(p for p, _, _ in pictures.values())) if p.name.lower().endswith(".svg")]
    drawn = {p.name: p for p in (*svgs, *(load_art(folder, d, _named(source, "decorations")) for d in decorations))}
    bounded_draw([(p.stretched(), (0.0, 0.0, 1.0, 1.0), str(folder / p.name)) for p in drawn.values()])
    return ThemeArt(
        name,
        folder.name,
        tuple(credits),
        warnings=tuple(w for _, _, w in pictures.values() if w),
        rasters=tuple(
            (str(folder / files[key]), dpi, f"{sizes[key][0]:g} x {sizes[key][1]:.4g} mm")
            for key, (_, dpi, _) in pictures.items()
            if dpi is not None
        ),
        **{key: piece for key, (piece, _, _) in pictures.items() if isinstance(key, str)},
        decorations=tuple(drawn[d] for d in decorations),
        landmarks=tuple((key[1], piece) for key, (piece, _, _) in pictures.items() if isinstance(key, tuple)),
        booklet=tuple(sorted(data.get("booklet", {}).items())),
        ground_repeat_mm=repeat,
        fonts=tuple(
            (role, _font(folder, fonts[role], f"{source}: fonts.{role}")) for role in FONT_ROLES if role in fonts
        ),
        source=source,
        digest="",  # set by render.style for a folder (a shipped theme is recorded by its name)
        **pieces,
    )


def pattern(pattern_id: str, art: Art, width: float, height: float | None = None) -> str:
    """``art`` repeated in tiles ``width`` by ``height`` mm (square by default), as the pattern ``#pattern_id``
    (for ``fill`` or ``stroke``)."""
    height = width if height is None else height
    return (
        f'<pattern id="{pattern_id}" patternUnits="userSpaceOnUse" width="{num(width)}" height="{num(height)}">'
        f"{art.placed(0, 0, width, height)}</pattern>"
    )


def side_defs(art: ThemeArt, grown: float, trail_mm: float, outline: str | None = None) -> str:
    """A side's shared theme pieces: the cut (``#tw-cut``, the hexagon grown by the bleed, ``grown`` mm to a
    corner, or another tile's ``outline`` points), which clips the ground art, and the trail texture's pattern
    (``#tw-trail``)."""
    cut = points(hexagon_points(grown)) if outline is None else outline
    defs = [f'<clipPath id="tw-cut"><polygon points="{cut}"/></clipPath>']
    if art.trail is not None:
        defs.append(pattern("tw-trail", art.trail, 2 * trail_mm))
    return f"<defs>{''.join(defs)}</defs>"


def board_defs(art: ThemeArt, trail_mm: float, hex_mm: float) -> str:
    """The board's theme patterns: the wall's (``#tw-wall``, a hex wide) and the printed trails'
    (``#tw-connector``: the connector art, else the trail texture)."""
    defs = [pattern("tw-wall", art.wall, hex_mm)] if art.wall is not None else []
    texture = art.connector or art.trail
    if texture is not None:
        defs.append(pattern("tw-connector", texture, 2 * trail_mm))
    return f"<defs>{''.join(defs)}</defs>" if defs else ""


def decorations(spots, pieces: tuple[Art, ...], half_mm: float, scale: float) -> str:
    """The pieces in turn on ``spots`` (tile units), each cut to a square ``2 * half_mm`` wide on its spot."""
    r = half_mm
    return "".join(
        pieces[k % len(pieces)].placed(scale * x - r, scale * y - r, 2 * r, 2 * r, "xMidYMid meet")
        for k, (x, y) in enumerate(spots)
    )


__all__ = [
    "ART_KEYS",
    "Art",
    "COVER_MM",
    "THEME_FILE",
    "THEME_TABLES",
    "ThemeArt",
    "board_defs",
    "decorations",
    "ground_layer",
    "load_art",
    "pattern",
    "side_defs",
    "theme_art",
]
