"""The booklet's look as data: page margins, colours and paragraph styles from ``booklet.toml``.

Loaded into frozen values and checked with messages naming the file, the key and the value;
``paragraph_styles`` turns them into reportlab's styles at the last moment.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from pathlib import Path

from reportlab.lib.colors import Color
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle

from generator.errors import TrailwrightError
from generator.publish.pdf import register_fonts
from generator.publish.settings import _check_keys, _packaged, _read_toml

ALIGN = {"left": TA_LEFT, "centre": TA_CENTER, "right": TA_RIGHT, "justify": TA_JUSTIFY}
COLOURS = ("ink", "soft", "accent", "tint", "rule")
STYLES = ("body", "h1", "h2", "small", "caption", "grouplabel", "cell", "cellhead", "note", "title", "subtitle",
          "centred")  # every style the blocks use


@dataclass(frozen=True)
class TextStyle:
    """One paragraph style; sizes in points."""

    font: str
    size: float
    leading: float
    colour: str
    align: str
    space_before: float
    space_after: float


@dataclass(frozen=True)
class Look:
    """The booklet's page margins (mm), colours (name -> RGB from 0 to 1) and paragraph styles."""

    margin_x_mm: float
    margin_top_mm: float
    margin_bottom_mm: float
    colours: tuple[tuple[str, tuple[float, float, float]], ...]
    styles: tuple[tuple[str, TextStyle], ...]

    def colour(self, name: str) -> Color:
        """A named colour as reportlab's ``Color``."""
        return Color(*dict(self.colours)[name])

    def hex(self, name: str) -> str:
        """A named colour as ``#rrggbb`` (for paragraph markup)."""
        return "#" + "".join(f"{round(255 * c):02x}" for c in dict(self.colours)[name])


def _positive(value, key: str, where: str, source: str, zero: bool = False) -> float:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and \
        (value >= 0 if zero else value > 0) and value < 1000
    if not ok:
        kind = "non-negative" if zero else "positive"
        raise TrailwrightError(f"{where}{key} = {value!r} must be a {kind} number under 1000", source)
    return float(value)


def _colours(table, source: str) -> tuple:
    if not isinstance(table, dict):
        raise TrailwrightError(f"[colours] must be a table, not {table!r}", source)
    _check_keys(table, set(COLOURS), "[colours] ", source)
    out = []
    for name in COLOURS:
        rgb = table.get(name)
        if not (isinstance(rgb, list) and len(rgb) == 3 and all(
                isinstance(c, (int, float)) and not isinstance(c, bool) and 0 <= c <= 1 for c in rgb)):
            raise TrailwrightError(f"[colours] {name} = {rgb!r} must be [red, green, blue], each from 0 to 1", source)
        out.append((name, tuple(float(c) for c in rgb)))
    return tuple(out)


def _style(name: str, table, base: dict, source: str) -> TextStyle:
    where = f"[styles.{name}] "
    if not isinstance(table, dict):
        raise TrailwrightError(f"[styles] {name} = {table!r} must be a table", source)
    keys = {f.name for f in fields(TextStyle)}
    _check_keys(table, keys, where, source)
    values = {**base, **table}
    missing = sorted(keys - set(values))
    if missing:
        raise TrailwrightError(f"{where}missing key {missing[0]!r}", source)
    fonts = register_fonts()
    if values["font"] not in fonts:
        raise TrailwrightError(f"{where}font = {values['font']!r} is not one of {', '.join(fonts)}", source)
    if values["colour"] not in COLOURS:
        raise TrailwrightError(f"{where}colour = {values['colour']!r} is not one of {', '.join(COLOURS)}", source)
    if values["align"] not in ALIGN:
        raise TrailwrightError(f"{where}align = {values['align']!r} is not one of {', '.join(ALIGN)}", source)
    return TextStyle(values["font"], _positive(values["size"], "size", where, source),
                     _positive(values["leading"], "leading", where, source), values["colour"], values["align"],
                     _positive(values["space_before"], "space_before", where, source, zero=True),
                     _positive(values["space_after"], "space_after", where, source, zero=True))


def look_from_dict(data: dict, source: str) -> Look:
    """Validate a parsed ``booklet.toml``: every key known, every value of the right kind and range."""
    _check_keys(data, {"page", "colours", "styles"}, "", source)
    page = data.get("page", {})
    if not isinstance(page, dict):
        raise TrailwrightError(f"[page] must be a table, not {page!r}", source)
    _check_keys(page, {"margin_x_mm", "margin_top_mm", "margin_bottom_mm"}, "[page] ", source)
    margins = [_positive(page.get(k), k, "[page] ", source) for k in ("margin_x_mm", "margin_top_mm",
                                                                      "margin_bottom_mm")]
    styles = data.get("styles", {})
    if not isinstance(styles, dict):
        raise TrailwrightError(f"[styles] must be a table, not {styles!r}", source)
    _check_keys(styles, set(STYLES), "[styles] ", source)
    missing = [name for name in STYLES if name not in styles]
    if missing:
        raise TrailwrightError(f"[styles.{missing[0]}] is missing", source)
    body = _style("body", styles["body"], {}, source)
    base = {f.name: getattr(body, f.name) for f in fields(TextStyle)}
    made = tuple((name, body if name == "body" else _style(name, styles[name], base, source)) for name in STYLES)
    return Look(*margins, _colours(data.get("colours"), source), made)


def load_look(path: str | Path | None = None) -> Look:
    """The packaged ``booklet.toml``, or another file with the same keys."""
    if path is None:
        source, data = _packaged("booklet.toml")
    else:
        source = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise TrailwrightError(f"cannot read: {getattr(err, 'strerror', None) or err}", source) from None
        data = _read_toml(source, text)
    return look_from_dict(data, source)


def paragraph_styles(look: Look) -> dict[str, ParagraphStyle]:
    """Reportlab paragraph styles, by name."""
    register_fonts()
    return {name: ParagraphStyle(name, fontName=s.font, fontSize=s.size, leading=s.leading,
                                 textColor=look.colour(s.colour), alignment=ALIGN[s.align],
                                 spaceBefore=s.space_before, spaceAfter=s.space_after)
            for name, s in look.styles}
