"""A designer's own art read as data, never as code: SVG parsed without entities, DTDs or the network and reduced to
drawing; raster images decoded under Pillow's decompression-bomb limit and checked for their print resolution.

This is the gate for every file a theme brings (issue 22's themes build on it). Each refusal is one line naming
the file and the element (``TrailwrightError``), which the command line turns into exit status 2.

Glossary
--------
drawing    the SVG elements and attributes that draw: shapes, paths, text, groups, definitions, gradients,
           patterns, clips, masks, filters and images. Scripts, foreign objects, animation and event attributes
           are refused, whatever they hold.
reference  an ``href`` (or ``xlink:href``) and a CSS ``url()``: to an element of the same file (``#id``), to an
           image inside the theme's folder (a relative path that stays inside it), or an inline PNG or JPEG
           (``data:image/png;base64,...``). Anything else (``http:``, ``file:``, ``javascript:``, an absolute
           path, ``..`` out of the folder, CSS ``@import``) is refused.
limits     at most ``MAX_BYTES`` of text, ``MAX_ELEMENTS`` elements and ``MAX_DEPTH`` levels of nesting, and no
           ``<use>`` of an element that holds a ``<use>`` (reuse of reuse multiplies the drawing without end).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from generator.errors import TrailwrightError
from generator.units import MM_PER_IN

SVG, XLINK = "http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"
MAX_BYTES = 4_000_000
MAX_ELEMENTS = 50_000
MAX_DEPTH = 64
PRINT_DPI, LEAST_DPI = 300, 150  # a warning below the first, an error below the second

_NAMES = (
    "svg g defs symbol use path rect circle ellipse line polyline polygon text tspan textPath title desc metadata "
    "linearGradient radialGradient stop pattern clipPath mask marker image style filter feBlend feColorMatrix "
    "feComponentTransfer feComposite feFlood feGaussianBlur feMerge feMergeNode feMorphology feOffset "
    "feDropShadow feFuncR feFuncG feFuncB feFuncA switch"
)
DRAWING = frozenset(_NAMES.split())
_URL = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.I | re.S)
_DATA = re.compile(r"data:image/(png|jpeg);base64,[A-Za-z0-9+/=\s]+", re.I)

ET.register_namespace("", SVG)
ET.register_namespace("xlink", XLINK)


def _local(name: str) -> str:
    return name.rsplit("}", 1)[-1]


def stays_inside(folder: Path, name: str) -> bool:
    """Whether ``folder / name`` resolves inside ``folder`` (no ``..``, absolute part or link leads out)."""
    root = folder.resolve()
    return (root / name).resolve().is_relative_to(root)


def _reference(value: str, folder: Path | None, where: str, image: bool) -> None:
    """Refuse a reference that leaves the file, or the theme's folder for an image (see the glossary)."""
    value = value.strip()
    if value.startswith("#"):
        return
    if image and _DATA.fullmatch(value):
        return
    if image and folder is not None and re.fullmatch(r"[\w./ -]+", value) and not value.startswith("/"):
        if stays_inside(folder, value):
            return
        raise TrailwrightError(f"{value[:60]!r} leads outside the theme's folder", where)
    raise TrailwrightError(f"the reference {value[:60]!r} leaves the file (only #id, or an image in the theme)", where)


def _style(text: str, folder: Path | None, where: str) -> None:
    if "@import" in text.lower():
        raise TrailwrightError("CSS @import is not allowed", where)
    if "expression(" in text.lower() or "javascript:" in text.lower():
        raise TrailwrightError("script in CSS is not allowed", where)
    for match in _URL.finditer(text):
        _reference(match.group(2), folder, where, image=True)


def _check(element: ET.Element, folder: Path | None, source: str, depth: int, count: list[int]) -> None:
    name = _local(element.tag) if isinstance(element.tag, str) else "?"
    where = f"{source}: <{name}>"
    count[0] += 1
    if count[0] > MAX_ELEMENTS:
        raise TrailwrightError(f"more than {MAX_ELEMENTS:,} elements", source)
    if depth > MAX_DEPTH:
        raise TrailwrightError(f"nested deeper than {MAX_DEPTH} levels", where)
    if not isinstance(element.tag, str) or element.tag.split("}", 1)[0] not in ("{" + SVG, name):
        raise TrailwrightError("not an SVG drawing element", where)
    if name not in DRAWING:
        raise TrailwrightError(f"a <{name}> element is not allowed (scripts, foreign objects, animation)", where)
    for key, value in element.attrib.items():
        attribute = _local(key)
        if attribute.lower().startswith("on"):
            raise TrailwrightError(f"the event attribute {attribute!r} is not allowed", where)
        if attribute == "base":  # xml:base would move every relative reference elsewhere
            raise TrailwrightError("xml:base is not allowed", where)
        if attribute == "href":
            _reference(value, folder, where, image=name == "image")
        elif attribute == "style" or "url(" in value.lower():
            _style(value, folder, where)
    if name == "style":
        _style(element.text or "", folder, where)
    for child in element:
        _check(child, folder, source, depth + 1, count)


def safe_svg(text: str | bytes, source: str, folder: Path | None = None) -> str:
    """``text`` as a checked SVG document (see the module glossary), or a one-line ``TrailwrightError``."""
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import fromstring

    data = text.encode("utf-8") if isinstance(text, str) else text
    if len(data) > MAX_BYTES:
        raise TrailwrightError(f"{len(data):,} bytes, at most {MAX_BYTES:,}", source)
    try:
        root = fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as err:
        raise TrailwrightError(f"{type(err).__name__}: DTDs and entities are not allowed", source) from None
    except ET.ParseError as err:
        raise TrailwrightError(f"not well-formed XML ({err})", source) from None
    if _local(root.tag) != "svg":
        raise TrailwrightError(f"<{_local(root.tag)}> is not an <svg> document", source)
    _check(root, folder, source, 1, [0])
    _no_reuse_of_reuse(root, source)
    return ET.tostring(root, encoding="unicode")


def _no_reuse_of_reuse(root: ET.Element, source: str) -> None:
    """Refuse a ``<use>`` of an element that holds a ``<use>``: reuse of reuse multiplies without end (the SVG
    "billion laughs")."""
    holders = {
        e.get("id")
        for e in root.iter()
        if e.get("id") and any(isinstance(d.tag, str) and _local(d.tag) == "use" for d in e.iter())
    }
    for e in root.iter():
        if isinstance(e.tag, str) and _local(e.tag) == "use":
            target = (e.get("href") or e.get(f"{{{XLINK}}}href") or "").strip().lstrip("#")
            if target in holders:
                raise TrailwrightError(f"<use>: #{target[:40]} holds a <use> itself (reuse of reuse)", source)


def image_info(path: Path) -> tuple[int, int, str]:
    """An image's width, height (pixels) and format, decoded under Pillow's decompression-bomb limit; a file that
    is too large or not an image is a one-line ``TrailwrightError``."""
    import warnings

    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as image:
                width, height, kind = image.size[0], image.size[1], str(image.format)
                image.verify()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise TrailwrightError(
            f"too many pixels to decode safely (over {Image.MAX_IMAGE_PIXELS:,})", str(path)
        ) from None
    except (OSError, SyntaxError, ValueError) as err:
        raise TrailwrightError(f"not an image Pillow reads ({str(err).splitlines()[0][:80]})", str(path)) from None
    return width, height, kind


def raster_dpi(path: Path, width_mm: float, height_mm: float) -> tuple[float, str | None]:
    """The effective resolution of an image printed ``width_mm`` by ``height_mm`` (the lower of the two axes),
    and a warning below ``PRINT_DPI``; below ``LEAST_DPI``, or an image too large to decode safely, a
    one-line ``TrailwrightError``."""
    width, height, _ = image_info(path)
    dpi = min(width / (width_mm / MM_PER_IN), height / (height_mm / MM_PER_IN))
    if dpi < LEAST_DPI:
        raise TrailwrightError(
            f"{dpi:.0f} dpi at {width_mm:g} x {height_mm:g} mm, at least {LEAST_DPI} needed", str(path)
        )
    warning = (
        f"{path}: {dpi:.0f} dpi at {width_mm:g} x {height_mm:g} mm, {PRINT_DPI} wanted" if dpi < PRINT_DPI else None
    )
    return dpi, warning
