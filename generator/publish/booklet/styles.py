"""The booklet's look as data: page margins, colours and paragraph styles from ``booklet.toml``.

Loaded into frozen values and checked with messages naming the file, the key and the value;
``paragraph_styles`` turns them into reportlab's styles at the last moment.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from reportlab.lib.colors import Color
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle

from generator.errors import TrailwrightError
from generator.inputs import Number, OneOf, check_keys, check_table, load_toml, read_bytes
from generator.publish.fontchain import Chain, chain, register_family, register_fonts
from generator.publish.settings import _packaged

ALIGN = {"left": TA_LEFT, "centre": TA_CENTER, "right": TA_RIGHT, "justify": TA_JUSTIFY}
COLOURS = ("ink", "soft", "accent", "tint", "rule")
STYLES = (
    "body",
    "h1",
    "h2",
    "small",
    "caption",
    "grouplabel",
    "cell",
    "cellhead",
    "note",
    "title",
    "subtitle",
    "centred",
)  # every style the blocks use


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
    name_font: str = "Sans"  # the game's name in the page footers (a theme's title font)

    def colour(self, name: str) -> Color:
        """A named colour as reportlab's ``Color``."""
        return Color(*dict(self.colours)[name])

    def hex(self, name: str) -> str:
        """A named colour as ``#rrggbb`` (for paragraph markup)."""
        return "#" + "".join(f"{round(255 * c):02x}" for c in dict(self.colours)[name])


@dataclass(frozen=True)
class RGB:
    """A colour as [red, green, blue], each from 0 to 1 (returned as a tuple)."""

    def __call__(self, value, where: str, source: str | None = None) -> tuple[float, float, float]:
        if not isinstance(value, list) or len(value) != 3:
            raise TrailwrightError(f"{where}: {value!r} is not [red, green, blue]", source)
        red, green, blue = (Number(0, 1)(c, f"{where}[{i + 1}]", source) for i, c in enumerate(value))
        return (red, green, blue)


PAGE = {key: Number(0, 100) for key in ("margin_x_mm", "margin_top_mm", "margin_bottom_mm")}


def _style_schema() -> dict:
    return {
        "font": OneOf(tuple(register_fonts())),
        "size": Number(1, 200),
        "leading": Number(1, 300),
        "colour": OneOf(COLOURS),
        "align": OneOf(tuple(ALIGN)),
        "space_before": Number(0, 200),
        "space_after": Number(0, 200),
    }


def _required(table: dict, keys, where: str, source: str) -> None:
    missing = [key for key in keys if key not in table]
    if missing:
        raise TrailwrightError(f"{where}: missing {missing[0]!r}", source)


def look_from_dict(data: dict, source: str) -> Look:
    """Validate a parsed ``booklet.toml``: every key known, every value of the right kind and range."""
    check_keys(data, ("page", "colours", "styles"), "", source)
    page = check_table(data.get("page", {}), PAGE, "page", source)
    _required(page, PAGE, "page", source)
    colours = check_table(data.get("colours", {}), {name: RGB() for name in COLOURS}, "colours", source)
    _required(colours, COLOURS, "colours", source)
    styles = check_keys(data.get("styles", {}), STYLES, "styles", source)
    _required(styles, STYLES, "styles", source)
    schema = _style_schema()
    body = check_table(styles["body"], schema, "styles.body", source)
    _required(body, schema, "styles.body", source)
    made = tuple(
        (name, TextStyle(**{**body, **check_table(styles[name], schema, f"styles.{name}", source)})) for name in STYLES
    )
    return Look(
        page["margin_x_mm"],
        page["margin_top_mm"],
        page["margin_bottom_mm"],
        tuple((name, colours[name]) for name in COLOURS),
        made,
    )


def load_look(path: str | Path | None = None) -> Look:
    """The packaged ``booklet.toml``, or another file with the same keys."""
    source, data = _packaged("booklet.toml") if path is None else (str(path), load_toml(path))
    return look_from_dict(data, source)


TITLE_STYLES = ("title", "h1", "h2")  # what a theme's title font sets; its text font sets the rest


def theme_font(path: str, role: str) -> str:
    """Register the font file at ``path`` with reportlab (once) under a name from its bytes (an OpenType font
    with PostScript outlines converted to TrueType ones, ``publish.fonts``); the name, or a one-line error
    naming the file (a file that is no font, say)."""
    import hashlib
    import io
    import struct

    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFError, TTFont

    from generator.publish.fonts import truetype

    data = read_bytes(path, str(path), f"the {role} font")
    name = f"tw-{role}-{hashlib.sha256(data).hexdigest()[:12]}"
    if name not in pdfmetrics.getRegisteredFontNames():
        try:
            pdfmetrics.registerFont(TTFont(name, io.BytesIO(truetype(data))))  # CFF outlines converted first
        except (TTFError, ValueError, KeyError, OSError, struct.error) as err:
            raise TrailwrightError(f"not a TrueType or OpenType font reportlab can embed ({err})", path) from None
    return name


TEXT_FACES = ("text_bold", "text_italic", "text_bold_italic")  # a theme's text font's other faces, each optional


def theme_fonts(style) -> dict[str, str]:
    """A theme's ``[fonts]`` for the pages registered with reportlab: role (``title``, ``text``, and the text's
    ``text_bold``, ``text_italic``, ``text_bold_italic``) -> font name (the ``label`` font is drawn as outlines in
    the tiles' art); empty without a theme. The text font's family has the faces the theme gives it: a bold or
    italic run falls back along the chain (``publish.fontchain``) where it has none."""
    art = style.art if style is not None else None
    if art is None:
        return {}
    fonts = {role: theme_font(path, role) for role, path in art.fonts if role != "label"}
    if "title" in fonts:
        register_family(fonts["title"])
    if "text" in fonts:
        register_family(fonts["text"], *(fonts.get(face, "") for face in TEXT_FACES))
    return fonts


def missing_faces(style) -> str | None:
    """The one line saying which of bold and italic a theme's text font lacks (the booklet sets those runs in
    the next font of the chain), or None."""
    art = style.art if style is not None else None
    if art is None or "text" not in dict(art.fonts):
        return None
    given = dict(art.fonts)
    lacking = [face for face in TEXT_FACES if face not in given]
    if not lacking:
        return None
    return (
        f"{art.source}: fonts.text has no {', '.join('fonts.' + f for f in lacking)}: the booklet sets those "
        "runs in the next font of the chain (DejaVu)"
    )


def chains(look: Look) -> dict[str, Chain]:
    """Each paragraph style's font chain: its font, the packaged look's font for it, DejaVu, CJK."""
    packaged = dict(load_look().styles)
    return {name: chain(s.font, packaged[name].font) for name, s in look.styles}


def name_chain(look: Look) -> Chain:
    """The chain the game's name is drawn in (the footers)."""
    return chain(look.name_font, "Sans-Bold")


def themed_look(style) -> Look:
    """The packaged look with a theme's ``[booklet]`` colours and ``[fonts]`` (an unknown colour is an error naming
    the theme's file); without a theme, the packaged look."""
    look = load_look()
    art = style.art if style is not None else None
    if art is None:
        return look
    given = dict(art.booklet)
    for name in given:
        if name not in COLOURS:
            raise TrailwrightError(f"booklet.{name}: not a booklet colour ({', '.join(COLOURS)})", art.source)
    rgb = {n: (int(v[1:3], 16) / 255, int(v[3:5], 16) / 255, int(v[5:7], 16) / 255) for n, v in given.items()}
    fonts = theme_fonts(style)

    def font(name: str, current: str) -> str:
        return fonts.get("title" if name in TITLE_STYLES else "text", current)

    return replace(
        look,
        colours=tuple((n, rgb.get(n, c)) for n, c in look.colours),
        styles=tuple((n, replace(t, font=font(n, t.font))) for n, t in look.styles),
        name_font=fonts.get("title", look.name_font),
    )


def paragraph_styles(look: Look) -> dict[str, ParagraphStyle]:
    """Reportlab paragraph styles, by name."""
    register_fonts()
    return {
        name: ParagraphStyle(
            name,
            fontName=s.font,
            fontSize=s.size,
            leading=s.leading,
            textColor=look.colour(s.colour),
            alignment=ALIGN[s.align],
            spaceBefore=s.space_before,
            spaceAfter=s.space_after,
        )
        for name, s in look.styles
    }
