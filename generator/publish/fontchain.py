"""Text that never loses a glyph: every string a PDF prints is set with a fallback chain of fonts, and each run of
characters in the first font of the chain that has them.

Glossary
--------
family   a font and its bold, italic and bold italic faces, named by its normal face (``Sans``, ``Serif``, a theme's
         ``tw-text-...``). ``register_family`` records which faces a family really has: a theme's text font without
         a bold file has no bold, and a bold run falls back to the next family that has one.
chain    the families a text is set in, first choice first: the theme's font (where there is one), the booklet's
         own font for that text, the built-in DejaVu families, then a CJK font where the system has one
         (``CJK_FILES``, registered only when a character needs it).
run      the longest stretch of a text set in one face (a space stays in the run it is in, where that face has it).
"""

from __future__ import annotations

import html
import re
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from reportlab import rl_config
from reportlab.lib.fonts import ps2tt, tt2ps
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
_FACES = {  # family face -> DejaVu files, nearest first, then reportlab's Vera face as the last resort
    "Sans": (("DejaVuSans.ttf",), "Vera.ttf"),
    "Sans-Bold": (("DejaVuSans-Bold.ttf", "DejaVuSans.ttf"), "VeraBd.ttf"),
    "Sans-Oblique": (("DejaVuSans-Oblique.ttf", "DejaVuSans.ttf"), "VeraIt.ttf"),
    "Sans-BoldOblique": (("DejaVuSans-BoldOblique.ttf", "DejaVuSans-Bold.ttf"), "VeraBI.ttf"),
    "Serif": (("DejaVuSerif.ttf", "DejaVuSans.ttf"), "Vera.ttf"),
    "Serif-Bold": (("DejaVuSerif-Bold.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf"), "VeraBd.ttf"),
    "Serif-Italic": (("DejaVuSerif-Italic.ttf", "DejaVuSans-Oblique.ttf", "DejaVuSerif.ttf"), "VeraIt.ttf"),
    "Serif-BoldItalic": (
        ("DejaVuSerif-BoldItalic.ttf", "DejaVuSans-BoldOblique.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSerif-Italic.ttf"),
        "VeraBI.ttf",
    ),
    "Condensed": (("DejaVuSansCondensed.ttf", "DejaVuSans.ttf"), "Vera.ttf"),
    "Condensed-Bold": (
        ("DejaVuSansCondensed-Bold.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansCondensed.ttf"),
        "VeraBd.ttf",
    ),
}


def font_files(dejavu: Path = DEJAVU) -> dict[str, Path]:
    """Each face's font file: its DejaVu file, else the nearest DejaVu face present, else reportlab's Vera."""
    import reportlab

    vera = Path(reportlab.__file__).parent / "fonts"
    files = {}
    for face, (candidates, fallback) in _FACES.items():
        found = next((dejavu / name for name in candidates if (dejavu / name).exists()), None)
        files[face] = found or vera / fallback
    return files


@lru_cache(maxsize=1)
def register_fonts() -> dict[str, Path]:
    """Register the embedded fonts face by face (see ``font_files``); returns each face's file."""
    files = font_files()
    for face, path in files.items():
        pdfmetrics.registerFont(TTFont(face, str(path)))
    pdfmetrics.registerFontFamily(
        "Serif", normal="Serif", bold="Serif-Bold", italic="Serif-Italic", boldItalic="Serif-BoldItalic"
    )
    pdfmetrics.registerFontFamily(
        "Sans", normal="Sans", bold="Sans-Bold", italic="Sans-Oblique", boldItalic="Sans-BoldOblique"
    )
    rl_config.defaultGraphicsFontName = "Sans"  # charts start in an embedded font, not Helvetica
    rl_config.canvas_basefontname = "Sans"
    return files


CJK = "CJK"  # the chain's last family: the first of CJK_FILES present, registered when a character needs it
CJK_FILES = (Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),)  # Debian's fonts-droid-fallback
BUILT_IN = ("Sans", "Serif")  # DejaVu, embedded: the families every chain falls back to, then CJK
NNBSP, NBSP = "\u202f", "\u00a0"  # reportlab breaks lines at U+202F; U+00A0 it keeps whole ("4 000 000")
Style = tuple[bool, bool]  # (bold, italic)

_VARIANTS: dict[str, dict[Style, str]] = {}  # family -> the faces it really has, by (bold, italic)
_LOCK = threading.RLock()  # publish draws documents on threads: fonts are registered one at a time


def register_family(normal: str, bold: str = "", italic: str = "", bold_italic: str = "") -> None:
    """Record a family's real faces and register it with reportlab (a missing face maps to the nearest it has, so
    reportlab never fails; the chain never picks it for a run that asks for it)."""
    faces = {(False, False): normal, (True, False): bold, (False, True): italic, (True, True): bold_italic}
    with _LOCK:
        _VARIANTS[normal] = {k: v for k, v in faces.items() if v}
        pdfmetrics.registerFontFamily(
            normal,
            normal=normal,
            bold=bold or normal,
            italic=italic or normal,
            boldItalic=bold_italic or bold or italic or normal,
        )


def family_of(face: str) -> tuple[str, bool, bool]:
    """The family a registered face belongs to, and whether it is bold and italic."""
    _built_in()
    for family, faces in list(_VARIANTS.items()):
        for (bold, italic), name in faces.items():
            if name == face:
                return family, bold, italic
    return face, False, False


@lru_cache(maxsize=1)
def _built_in() -> None:
    with _LOCK:
        register_fonts()
        register_family("Serif", "Serif-Bold", "Serif-Italic", "Serif-BoldItalic")
        register_family("Sans", "Sans-Bold", "Sans-Oblique", "Sans-BoldOblique")


@lru_cache(maxsize=1)
def cjk_face() -> str | None:
    """The CJK family's face, registered on first use; None where the system has no CJK font."""

    with _LOCK:
        for path in CJK_FILES:
            if path.is_file():
                pdfmetrics.registerFont(TTFont(CJK, str(path)))
                register_family(CJK)
                return CJK
    return None


def _faces(family: str) -> dict[Style, str]:
    return _VARIANTS.get(family, {(False, False): family})


def _cmap(face: str) -> dict:
    return pdfmetrics.getFont(face).face.charToGlyph


def _has(face: str, ch: str) -> bool:
    return ord(ch) in _cmap(face)


@dataclass(frozen=True)
class Chain:
    """The families a text is set in, first choice first (``chain`` builds one)."""

    families: tuple[str, ...]
    style: Style = (False, False)  # the first face's own bold and italic: what a text is set in unless told

    def _present(self):
        for family in self.families:
            if family != CJK or cjk_face() is not None:
                yield family

    def face(self, ch: str, style: Style | None = None) -> str | None:
        """The face for ``ch``: the first family whose face for ``style`` has it, else the first family with the
        glyph in any face (a CJK character in a bold run, say); None when no font in the chain has it."""
        style = self.style if style is None else style
        for family in self._present():
            name = _faces(family).get(style)
            if name is not None and _has(name, ch):
                return name
        for family in self._present():
            for name in _faces(family).values():
                if _has(name, ch):
                    return name
        return None

    def first(self, style: Style | None = None) -> str:
        """The first family's face for ``style`` (its nearest where it lacks one): where a lost glyph is drawn."""
        family, style = self.families[0], self.style if style is None else style
        return tt2ps(family, *style) if family in _VARIANTS else family

    def runs(self, text: str, style: Style | None = None) -> list[tuple[str, str]]:
        """``text`` cut into (face, characters) runs."""
        out: list[tuple[str, str]] = []
        for ch in text:
            if out and (ch.isspace() or not ch.isprintable()) and _has(out[-1][0], ch):
                face = out[-1][0]
            else:
                face = self.face(ch, style) or self.first(style)
            if out and out[-1][0] == face:
                out[-1] = (face, out[-1][1] + ch)
            else:
                out.append((face, ch))
        return out

    def width(self, text: str, size: float, style: Style | None = None) -> float:
        """The width of ``text`` in points at ``size``, run by run."""
        return sum(pdfmetrics.stringWidth(run, face, size) for face, run in self.runs(text, style))

    def missing(self, text: str) -> list[str]:
        """The characters of ``text`` that no font of the chain has, in any face (they would print as boxes)."""
        return sorted({ch for ch in text if ch.isprintable() and not ch.isspace() and self.face(ch) is None})

    def covering(self, text: str) -> str:
        """The first face of the chain that has every character of ``text`` (for a string drawn in one font, such
        as a chart's number); else the face of its first character."""
        for family in self._present():
            name = _faces(family).get(self.style) or _faces(family)[(False, False)]
            if all(_has(name, ch) for ch in text if not ch.isspace()):
                return name
        return self.face(text[:1]) or self.first() if text else self.first()


def chain(*faces: str) -> Chain:
    """The chain of ``faces``' families (a face's own family first), then DejaVu, then CJK; each family once. A
    text is set in the first face's bold and italic unless told otherwise."""
    _built_in()
    families: list[str] = []
    for name in (*(family_of(face)[0] for face in faces if face), *BUILT_IN, CJK):
        if name not in families:
            families.append(name)
    return Chain(tuple(families), style_of(faces[0]) if faces and faces[0] else (False, False))


def style_of(face: str) -> Style:
    """Whether a face is bold and italic, as its family records it."""
    _, bold, italic = family_of(face)
    return bold, italic


# --- paragraph markup -------------------------------------------------------------------------------------------

_TAG = re.compile(r"(<[^>]*>)")
_STYLE_TAGS = {"b": 0, "strong": 0, "i": 1, "em": 1}


def _native(face: str, style: Style) -> str | None:
    """The face reportlab itself picks for text of ``style`` in a paragraph whose font is ``face``."""
    try:
        family, bold, italic = ps2tt(face)
        return tt2ps(family, bold | style[0], italic | style[1])
    except ValueError:
        return None


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def set_markup(markup: str, fonts: Chain, face: str) -> str:
    """Reportlab paragraph markup (``<b>``, ``<i>``, ``<font>``, entities) for a paragraph in ``face``, each run of
    its text in the chain's first font that has it: a run reportlab would not set in that font itself is wrapped
    in ``<font face="...">``. U+202F becomes U+00A0, which reportlab never breaks a line at."""
    own = style_of(face)
    depth = [0, 0]
    out = []
    for part in _TAG.split(markup):
        if part.startswith("<"):
            name = part.strip("</>").split(maxsplit=1)[0].lower() if part.strip("</>") else ""
            if name in _STYLE_TAGS and not part.endswith("/>"):
                depth[_STYLE_TAGS[name]] += -1 if part.startswith("</") else 1
            out.append(part)
            continue
        text = html.unescape(part).replace(NNBSP, NBSP)
        style = (own[0] or depth[0] > 0, own[1] or depth[1] > 0)
        asked = (depth[0] > 0, depth[1] > 0)
        for run_face, run in fonts.runs(text, style):
            escaped = _escape(run)
            out.append(escaped if run_face == _native(face, asked) else f'<font face="{run_face}">{escaped}</font>')
    return "".join(out)


def draw(canvas, x: float, y: float, text: str, fonts: Chain, size: float, anchor: str = "start") -> float:
    """``text`` on a reportlab canvas at (x, y) points, run by run, from its start, end or middle (``anchor``);
    returns its width. A run in the canvas's current font and size sets no font (``set_font`` does so first)."""
    runs = fonts.runs(text)
    width = sum(pdfmetrics.stringWidth(run, face, size) for face, run in runs)
    x -= {"start": 0.0, "middle": width / 2, "end": width}[anchor]
    for face, run in runs:
        if (canvas._fontname, canvas._fontsize) != (face, size):
            canvas.setFont(face, size)
        canvas.drawString(x, y, run)
        x += pdfmetrics.stringWidth(run, face, size)
    return width


def set_font(canvas, text: str, fonts: Chain, size: float) -> None:
    """Set the canvas's font to the face ``text`` starts in (as a canvas's own ``setFont`` before drawing)."""
    canvas.setFont(fonts.runs(text[:1] or " ")[0][0], size)


def strings(x: float, y: float, text: str, fonts: Chain, size: float, anchor: str = "start", **attrs):
    """``text`` as reportlab graphics ``String``s run by run (a chart's label), in a ``Group``."""
    from reportlab.graphics.shapes import Group, String

    runs = fonts.runs(text)
    width = sum(pdfmetrics.stringWidth(run, face, size) for face, run in runs)
    x -= {"start": 0.0, "middle": width / 2, "end": width}[anchor]
    group = Group()
    for face, run in runs:
        group.add(String(x, y, run, fontName=face, fontSize=size, **attrs))
        x += pdfmetrics.stringWidth(run, face, size)
    return group


def glyph_warning(text: str, where: str, fonts: Chain) -> str | None:
    """One line naming the text and every character no font of the chain has, or None."""
    missing = fonts.missing(text)
    if not missing:
        return None
    named = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in missing[:12]) + (" ..." if len(missing) > 12 else "")
    words = sorted({w for w in text.split() if any(ch in w for ch in missing)})
    shown = " ".join(words[:3])[:60]
    return f"{where}: no font ({', '.join(fonts.families)}) has a glyph for {named} in {shown!r}; it prints as a box"
