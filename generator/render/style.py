"""The look of the art as data: a TOML style loaded into a frozen dataclass.

Glossary
--------
style file  TOML with the tables ``[tile] [trail] [bridge] [label] [board] [preview]``; a user's
            file overrides any keys of the default style (``style.toml`` beside this module).
field       ``<table>_<key>`` in ``Style``, e.g. ``[tile] width_mm`` is ``Style.tile_width_mm``.
pt          thin lines are in points (1/72 in), never thinner than ``MIN_LINE_PT``.
fraction    ``trail.width`` is a fraction of the tile's width, so the art scales with the tile.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace
from importlib import resources
from pathlib import Path
from typing import Any

from generator.errors import TrailwrightError
from generator.inputs import is_number, load_toml, parse_toml
from generator.project import builtin_theme
from generator.render.artlimits import folder_digest, theme_file
from generator.render.theme import THEME_FILE, THEME_TABLES, ThemeArt, theme_art
from generator.units import MM_PER_PT

MIN_LINE_PT = 0.25
TRAIL_WIDTH_RANGE = (0.06, 0.105)  # every side design is checked to draw at both ends
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


@dataclass(frozen=True)
class Style:
    """Colours, widths and fonts of the tiles, the board and previews (lengths in mm unless named)."""

    tile_width_mm: float
    tile_front_ground: str
    tile_back_ground: str
    tile_back_mark: bool
    tile_mark_colour: str
    tile_texture: bool
    tile_texture_colour: str
    trail_width: float
    trail_fill: str
    trail_edge: str
    trail_edge_pt: float
    trail_stub_end: str
    bridge_deck: str
    bridge_rail: str
    bridge_rail_pt: float
    bridge_plank_pt: float
    bridge_shadow: str
    bridge_shadow_opacity: float
    label_show: bool
    label_font_family: str
    label_font_size_pt: float
    label_colour: str
    board_ground: str
    board_wall: str
    board_wall_edge: str
    board_slot: str
    board_slot_edge: str
    board_slot_edge_pt: float
    board_landmark: str
    board_landmark_edge: str
    board_connector_ground: str
    board_label_colour: str
    board_font_size_pt: float
    preview_highlight: tuple[str, ...]
    preview_unreached_opacity: float
    art: ThemeArt | None = None  # a theme's art (render.theme); None: the built-in look
    labels: tuple[
        str, ...
    ] = ()  # a language's labels ("{tile} recto", "{tile}R", "{tile} verso", "{tile}V"); () English

    @property
    def tile_height_mm(self) -> float:
        """Across the flats at the cut: width * sqrt(3) / 2."""
        return self.tile_width_mm * 3**0.5 / 2

    @property
    def trail_width_mm(self) -> float:
        """The drawn width of every trail, verges included."""
        return self.trail_width * self.tile_width_mm

    def ground(self, face: str) -> str:
        """The ground colour of a ``"front"`` or ``"back"`` side."""
        return self.tile_front_ground if face == "front" else self.tile_back_ground

    def to_dict(self) -> dict:
        """The style as TOML-shaped tables (for recording in outputs)."""
        out: dict[str, dict] = {}
        if self.art is not None:
            out["theme"] = {"name": self.art.name, "folder": self.art.folder, "credits": list(self.art.credits)}
            if self.art.digest:
                out["theme"]["sha256"] = self.art.digest
        for f in _style_fields():
            table, key = f.name.split("_", 1)
            value = getattr(self, f.name)
            out.setdefault(table, {})[key] = list(value) if isinstance(value, tuple) else value
        return out


def _style_fields():
    """The style's keys (every field but the theme's art)."""
    return [f for f in fields(Style) if f.name not in ("art", "labels")]


def _colour(v: Any) -> bool:
    return isinstance(v, str) and bool(_COLOUR.match(v))


def _number(lo: float, hi: float):
    return lambda v: is_number(v) and lo <= v <= hi


_LINE = _number(MIN_LINE_PT, 10.0)
_RULES: dict[str, tuple[Any, str]] = {
    "tile_width_mm": (_number(15.0, 300.0), "a width in mm from 15 to 300"),
    "trail_width": (
        _number(*TRAIL_WIDTH_RANGE),
        f"a fraction of the tile width from {TRAIL_WIDTH_RANGE[0]} to {TRAIL_WIDTH_RANGE[1]}",
    ),
    "bridge_shadow_opacity": (_number(0.0, 1.0), "a number from 0 to 1"),
    "preview_unreached_opacity": (_number(0.0, 1.0), "a number from 0 to 1"),
    "label_font_size_pt": (_number(3.0, 30.0), "a size in pt from 3 to 30"),
    "board_font_size_pt": (_number(3.0, 60.0), "a size in pt from 3 to 60"),
    "label_font_family": (
        lambda v: isinstance(v, str) and bool(v.strip()) and "<" not in v and '"' not in v,
        "a CSS font family list",
    ),
    "preview_highlight": (
        lambda v: isinstance(v, list) and bool(v) and all(_colour(c) for c in v),
        'a non-empty list of colours like "#d1495b"',
    ),
}


def _rule(name: str, default: Any) -> tuple[Any, str]:
    if name in _RULES:
        return _RULES[name]
    if name.endswith("_pt"):
        return _LINE, f"a line width in pt of at least {MIN_LINE_PT}"
    if isinstance(default, bool):
        return (lambda v: isinstance(v, bool)), "true or false"
    return _colour, 'a colour like "#6b4a2b"'


def is_theme(path: str | Path | None) -> bool:
    """Whether ``path`` names a theme: a shipped theme's name (which wins over a folder of that name unless the
    argument is written as a path, ``./river``), or a folder (an empty name is never one)."""
    if path is None or not str(path).strip():
        return False
    return builtin_theme(path) or Path(path).is_dir()


def style_path(path: str | Path | None) -> str | Path | None:
    """``path`` as given, or the folder of the built-in theme it names (``river``)."""
    if builtin_theme(path):
        return Path(str(resources.files("generator").joinpath("themes", str(path))))
    return path


MAX_TOML_BYTES = 2**20  # a theme.toml


def _read(path: str | Path | None) -> tuple[str, dict]:
    if path is None:
        source = "the default style"
        return source, load_toml(resources.files("generator.render").joinpath("style.toml"), source)
    if is_theme(path):  # a theme: its theme.toml, a regular file inside the folder
        theme = Path(path) / THEME_FILE
        if not theme.exists() and not theme.is_symlink():
            raise TrailwrightError(f"a theme folder needs a {THEME_FILE}", str(path))
        data = theme_file(Path(path), THEME_FILE, str(theme), "the theme file", MAX_TOML_BYTES)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise TrailwrightError("not UTF-8 text", str(theme)) from None
        return str(theme), parse_toml(text, str(theme))
    return str(path), load_toml(path)


def _flatten(source: str, data: dict, known: dict[str, Any]) -> dict[str, Any]:
    tables = sorted({name.split("_", 1)[0] for name in known})
    out = {}
    for table, values in data.items():
        if table not in tables:
            raise TrailwrightError(f"unknown table [{table}] (expected one of {', '.join(tables)})", source)
        if not isinstance(values, dict):
            raise TrailwrightError(f"{table} must be a table [{table}]", source)
        for key, value in values.items():
            name = f"{table}_{key}"
            if name not in known:
                keys = ", ".join(n.split("_", 1)[1] for n in known if n.startswith(table + "_"))
                raise TrailwrightError(f"unknown key {table}.{key} (expected one of {keys})", source)
            out[name] = value
    return out


def load_style(path: str | Path | None = None) -> Style:
    """The default style, with the keys of the TOML file at ``path`` (if any) overriding it; ``path`` may be a
    theme's folder (``render.theme``), whose ``theme.toml`` overrides the style and brings its art."""
    names = {f.name: None for f in _style_fields()}
    default_source, data = _read(None)
    defaults = _flatten(default_source, data, names)
    values, origin = dict(defaults), dict.fromkeys(defaults, default_source)
    given = path
    art, theme, path = None, None, style_path(path)
    if path is not None:
        source, data = _read(path)
        theme = {k: data.pop(k) for k in THEME_TABLES if k in data} if is_theme(path) else None
        overrides = _flatten(source, data, names)
        values.update(overrides)
        origin.update(dict.fromkeys(overrides, source))
    for name in names:
        if name not in values:  # pragma: no cover - the shipped style names every key
            raise TrailwrightError(f"missing key {name}", default_source)
        check, expected = _rule(name, defaults[name])
        if not check(values[name]):
            table, key = name.split("_", 1)
            raise TrailwrightError(f"{table}.{key} = {values[name]!r}: expected {expected}", origin[name])
    _check_together(values, origin)
    values["preview_highlight"] = tuple(values["preview_highlight"])
    if path is not None and theme is not None:  # the art last: a raster ground is checked at the tile's size
        side_mm = (values["tile_width_mm"], values["tile_width_mm"] * 3**0.5 / 2)
        art = theme_art(Path(path), theme, source, side_mm)
        shipped = builtin_theme(given)  # recorded by name; else by absolute path and content hash
        folder = str(given) if shipped else str(Path(path).resolve())
        art = replace(art, folder=folder, digest="" if shipped else folder_digest(Path(path)))
    return Style(**values, art=art)


def _check_together(values: dict[str, Any], origin: dict[str, str]) -> None:
    """Keys that are fine alone but not together: every derived line at least ``MIN_LINE_PT``.

    The trail's sand is its drawn width less a verge on each side (on tiles, the board and
    previews); its dead-end bar is a third of its width.
    """
    trail_pt = values["trail_width"] * values["tile_width_mm"] / MM_PER_PT
    derived = [
        (
            trail_pt - 2 * values["trail_edge_pt"],
            "the trail's inner fill",
            ("tile_width_mm", "trail_width", "trail_edge_pt"),
        ),
        (0.34 * trail_pt, "the dead end's bar", ("tile_width_mm", "trail_width")),
    ]
    for width, what, names in derived:
        if width < MIN_LINE_PT - 1e-9:
            given = ", ".join(f"{n.split('_', 1)[0]}.{n.split('_', 1)[1]} = {values[n]!r}" for n in names)
            sources = [origin[n] for n in names]
            source = next((s for s in sources if s != "the default style"), sources[0])
            raise TrailwrightError(
                f"{given} make {what} {width:.3f} pt wide: expected at least {MIN_LINE_PT} pt", source
            )
