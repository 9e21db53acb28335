"""A designer's own art read as data, never as code: SVG parsed without entities, DTDs or the network, then
*rebuilt* from an allow-list of elements, attributes and CSS properties (``render.artcss``), its references bounded.

This is the one gate for every SVG a theme brings (grounds, textures, bridges, decorations, landmarks, the cover).
Nothing is copied through unseen: the output is written anew from what passed, and anything not on a list is one
``TrailwrightError`` naming the file and the element or attribute, which the command line turns into exit status 2.
Raster art, files and the time to draw are bounded in ``render.artlimits``.

Glossary
--------
drawing    the elements of ``ELEMENTS``: shapes, paths, text, groups, definitions, gradients, patterns, clips, masks,
           filters and images, each with its own attributes (``ATTRIBUTES``) and the presentation properties.
           ``title``, ``desc`` and ``metadata`` are left out. Scripts, foreign objects, animation, links,
           ``switch``, event attributes, other namespaces (an editor's) and ``overflow`` are refused, and so are
           markers: cairo draws a large marker outside the clip of the art's box.
numbers    every length, coordinate, ``viewBox``, ``transform`` and path is plain numbers, finite and at most
           ``artcss.LARGEST``: ``inf`` and ``nan`` are refused; a ``viewBox`` is at least ``SMALLEST`` wide and high.
reference  an ``href`` and a CSS ``url()`` name an element of the same file (``#id``). An ``<image>`` may also name a
           PNG or JPEG in the theme's folder or carry one inline (``data:image/png;base64,...``); either is
           decoded under ``artlimits``' bounds and written anew inline.
prefix     every id and class of the art renamed ``prefix + name`` (the file's), with every reference to it, so two
           pieces never share one and a ``<style>`` sheet reaches only the art's own elements.
limits     at most ``MAX_BYTES`` of text, ``MAX_ELEMENTS`` elements and ``MAX_DEPTH`` levels of nesting; references
           form no cycle, chain at most ``MAX_CHAIN`` deep (a pattern filled with a pattern filled with ...), and
           drawing every reference out (a ``<use>`` of a group of ``<use>``) makes at most ``MAX_ELEMENTS``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from generator.errors import TrailwrightError
from generator.render import artcss
from generator.render.artlimits import (
    PRINT_DPI,
    PictureBudget,
    image_info,
    inline_raster,
    raster_dpi,
    stays_inside,
    theme_file,
)

SVG, XLINK = "http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"
XML = "http://www.w3.org/XML/1998/namespace"
MAX_BYTES = 4_000_000
MAX_ELEMENTS = 50_000
MAX_DEPTH = 64
MAX_CHAIN = 4
SMALLEST = 1e-6  # a viewBox's least width and height: smaller ones scale the drawing past cairo's range
LEFT_OUT = frozenset(("title", "desc", "metadata"))
_BOX, _PLACE = "x y width height", "viewBox preserveAspectRatio"
_FE = f"{_BOX} result in in2"
ATTRIBUTES = {
    "svg": f"{_BOX} {_PLACE} version",
    "g": "",
    "defs": "",
    "symbol": f"{_BOX} {_PLACE} refX refY",
    "use": f"{_BOX} href",
    "path": "d pathLength",
    "rect": f"{_BOX} rx ry pathLength",
    "circle": "cx cy r pathLength",
    "ellipse": "cx cy rx ry pathLength",
    "line": "x1 y1 x2 y2 pathLength",
    "polyline": "points pathLength",
    "polygon": "points pathLength",
    "text": "x y dx dy rotate textLength lengthAdjust space",
    "tspan": "x y dx dy rotate textLength lengthAdjust",
    "textPath": "href startOffset method spacing",
    "linearGradient": "x1 y1 x2 y2 gradientUnits gradientTransform spreadMethod href",
    "radialGradient": "cx cy r fx fy fr gradientUnits gradientTransform spreadMethod href",
    "stop": "offset",
    "pattern": f"{_BOX} {_PLACE} patternUnits patternContentUnits patternTransform href",
    "clipPath": "clipPathUnits",
    "mask": f"{_BOX} maskUnits maskContentUnits",
    "image": f"{_BOX} preserveAspectRatio href",
    "style": "type",
    "filter": f"{_BOX} filterUnits primitiveUnits",
    "feBlend": f"{_FE} mode",
    "feColorMatrix": f"{_FE} type values",
    "feComponentTransfer": _FE,
    "feComposite": f"{_FE} operator k1 k2 k3 k4",
    "feFlood": _FE,
    "feGaussianBlur": f"{_FE} stdDeviation edgeMode",
    "feMerge": _FE,
    "feMergeNode": "in",
    "feMorphology": f"{_FE} operator radius",
    "feOffset": f"{_FE} dx dy",
    "feDropShadow": f"{_FE} dx dy stdDeviation",
    **{f"feFunc{c}": "type tableValues slope intercept amplitude exponent offset" for c in "RGBA"},
}
ELEMENTS = frozenset(ATTRIBUTES)
TEXT = frozenset(("text", "tspan", "textPath"))  # elements whose text is drawn
_COMMON = frozenset(("id", "class", "style", "transform"))
_NUMBER = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
_LENGTHS = re.compile(
    rf"\s*{_NUMBER}(?:px|mm|cm|in|pt|pc|em|ex|%)?(?:(?:\s*,\s*|\s+){_NUMBER}(?:px|mm|cm|in|pt|pc|em|ex|%)?)*\s*"
)
_PATH = re.compile(r"[MmZzLlHhVvCcSsQqTtAa0-9eE.,+\-\s]*")
_TRANSFORM = re.compile(rf"\s*(?:(?:matrix|translate|scale|rotate|skewX|skewY)\s*\((?:\s*{_NUMBER}\s*,?)*\)[\s,]*)*")
_WORDS = re.compile(r"\s*-?[A-Za-z][\w-]{0,40}(?:\s+-?[A-Za-z][\w-]{0,40}){0,3}\s*")
_KINDS = {
    "d": _PATH,
    "points": _PATH,
    "transform": _TRANSFORM,
    "gradientTransform": _TRANSFORM,
    "patternTransform": _TRANSFORM,
    "version": re.compile(r"\d\.\d"),
    "id": re.compile(r"[A-Za-z_][\w.-]{0,80}"),
    "class": re.compile(r"\s*[A-Za-z_][\w-]{0,80}(?:\s+[A-Za-z_][\w-]{0,80}){0,15}\s*"),
    "space": re.compile(r"default|preserve"),
    "type": re.compile(r"text/css|[a-zA-Z]{1,20}"),
}
_WORDY = frozenset(
    [
        "preserveAspectRatio",
        "gradientUnits",
        "spreadMethod",
        "patternUnits",
        "patternContentUnits",
        "clipPathUnits",
        "maskUnits",
        "maskContentUnits",
        "filterUnits",
        "primitiveUnits",
        "lengthAdjust",
        "method",
        "spacing",
        "mode",
        "operator",
        "edgeMode",
        "result",
        "in",
        "in2",
    ]
)

ET.register_namespace("", SVG)
ET.register_namespace("xlink", XLINK)


def _local(name: str) -> str:
    return name.rsplit("}", 1)[-1]


def _name(key: str, where: str) -> str:
    """An attribute's plain name: SVG's own, ``xlink:href`` (as ``href``) or ``xml:space``; any other namespace (an
    editor's, ``xml:base``) refused."""
    if not key.startswith("{"):
        return key
    space, name = key[1:].split("}", 1)
    if (space, name) in ((XLINK, "href"), (XML, "space")):
        return name
    raise TrailwrightError(f"the attribute {name!r} of another namespace ({space[:50]}) is not allowed", where)


def _numbers(text: str, where: str) -> None:
    for match in re.finditer(_NUMBER, text):
        artcss.number(float(match.group()), match.group(), where)


def _view_box(text: str, where: str) -> str:
    parts = text.replace(",", " ").split()
    if len(parts) != 4 or not all(re.fullmatch(_NUMBER, p) for p in parts):
        raise TrailwrightError(f"viewBox {text[:40]!r} is not four plain numbers", where)
    _numbers(text, where)
    if float(parts[2]) < SMALLEST or float(parts[3]) < SMALLEST:
        raise TrailwrightError(f"viewBox {text[:40]!r} has no area (width and height at least {SMALLEST:g})", where)
    return " ".join(parts)


class _Rebuild:
    """One SVG document rebuilt from the allow-list (see the module glossary)."""

    def __init__(self, source: str, folder: Path | None, prefix: str):
        self.source, self.folder, self.prefix = source, folder, prefix
        self.count = 0
        self.pictures = PictureBudget()  # every picture of the file, in all
        self.refs: dict[int, list[str]] = {}  # id(rebuilt element) -> the ids it refers to

    def attribute(self, element: str, key: str, text: str, where: str, refs: list[str]) -> str:
        """One attribute's value, checked by its kind and written anew."""
        if key in artcss.PROPERTIES:  # the property is named by artcss
            return artcss.attribute(key, text, where, self.prefix, refs)
        where = f"{where} {key}"
        if key == "href":
            if element == "image" and not text.strip().startswith("#"):
                return self.image(text.strip(), where)
            return artcss.fragment(text, where, self.prefix, refs)
        if key == "style":
            return artcss.declarations(text, where, self.prefix, refs)
        if key == "viewBox":
            return _view_box(text, where)
        if key == "id":
            if not _KINDS["id"].fullmatch(text):
                raise TrailwrightError(f"the id {text[:40]!r} is not a plain name", where)
            return self.prefix + text
        if key == "class":
            if not _KINDS["class"].fullmatch(text):
                raise TrailwrightError(f"the class {text[:40]!r} is not plain names", where)
            return " ".join(self.prefix + c for c in text.split())
        pattern = _WORDS if key in _WORDY else _KINDS.get(key, _LENGTHS)
        if not pattern.fullmatch(text):
            raise TrailwrightError(f"{text[:40]!r} is not an allowed value", where)
        _numbers(text, where)
        return text.strip()

    def image(self, value: str, where: str) -> str:
        """An ``<image>``'s picture: inline, or a file of the theme's folder, decoded and written anew inline."""
        if value.startswith("data:"):
            return inline_raster(value, where, self.pictures)
        if self.folder is None or not re.fullmatch(r"[\w.-]+(/[\w.-]+)*\.(png|jpe?g)", value, re.I):
            raise TrailwrightError(
                f"the reference {value[:60]!r} leaves the file (only #id, or an image in the theme)", where
            )
        if not stays_inside(self.folder, value):
            raise TrailwrightError(f"{value[:60]!r} leads outside the theme's folder", where)
        return inline_raster(theme_file(self.folder, value, where, "an image"), where, self.pictures)

    def element(self, node: ET.Element, depth: int) -> ET.Element | None:
        """``node`` rebuilt with its children, or None for an element left out (``LEFT_OUT``)."""
        tag = node.tag if isinstance(node.tag, str) else "?"
        name = _local(tag)
        where = f"{self.source}: <{name}>"
        self.count += 1
        if self.count > MAX_ELEMENTS:
            raise TrailwrightError(f"more than {MAX_ELEMENTS:,} elements", self.source)
        if depth > MAX_DEPTH:
            raise TrailwrightError(f"nested deeper than {MAX_DEPTH} levels", where)
        if tag not in (f"{{{SVG}}}{name}", name):  # SVG's namespace, or none (a bare file): rebuilt in SVG's
            raise TrailwrightError("not an SVG drawing element (another namespace)", where)
        if name in LEFT_OUT:
            return None
        if name not in ELEMENTS:
            raise TrailwrightError(f"a <{name}> element is not allowed (only drawing: see docs/themes.md)", where)
        allowed = _COMMON | set(ATTRIBUTES[name].split()) | artcss.PROPERTIES
        out, refs = ET.Element(f"{{{SVG}}}{name}"), list[str]()
        for key, text in node.attrib.items():
            plain = _name(key, where)
            if plain.lower().startswith("on"):
                raise TrailwrightError(f"the event attribute {plain!r} is not allowed", where)
            if plain not in allowed:
                raise TrailwrightError(f"the attribute {plain!r} is not allowed on <{name}>", where)
            written = f"{{{XML}}}space" if plain == "space" else plain
            out.set(written, self.attribute(name, plain, text, where, refs))
        if name == "style":
            out.text = artcss.sheet(node.text or "", where, self.prefix, ELEMENTS, refs)
            if len(node):
                raise TrailwrightError("a <style> holds only CSS text", where)
            self.refs[id(out)] = refs
            return out
        if name in TEXT:
            out.text = node.text
        for child in node:
            built = self.element(child, depth + 1)
            if built is not None:
                built.tail = child.tail if name in TEXT else None
                out.append(built)
        self.refs[id(out)] = refs
        return out


def _bounded(root: ET.Element, refs: dict[int, list[str]], source: str, prefix: str) -> None:
    """The references of the rebuilt ``root``: each to an element of the file, no cycle, chains at most
    ``MAX_CHAIN`` deep, and everything drawn out at most ``MAX_ELEMENTS`` elements (see the glossary)."""
    ids: dict[str, ET.Element] = {}
    for e in root.iter():
        key = e.get("id")
        if key is not None:
            if key in ids:
                raise TrailwrightError(f"the id {key[len(prefix) :]!r} is used twice", source)
            ids[key] = e
    for e in root.iter():
        for target in refs.get(id(e), ()):
            if target not in ids:
                raise TrailwrightError(
                    f"<{_local(e.tag)}>: #{target[len(prefix) :][:40]} names no element of the file", source
                )
    size: dict[str, int] = {}
    depth: dict[str, int] = {}
    visiting: set[str] = set()

    def cost(key: str | None, node: ET.Element, level: int) -> tuple[int, int]:
        """(elements drawn out, reference chain depth) of ``node`` reached through ``level`` references: iterative
        over its subtree, recursive over references at most ``MAX_CHAIN`` deep."""
        if key is not None and key in size:
            if level + depth[key] > MAX_CHAIN:
                raise TrailwrightError(
                    f"references chained more than {MAX_CHAIN} deep (at #{key[len(prefix) :][:40]})", source
                )
            return size[key], depth[key]
        if level > MAX_CHAIN:
            raise TrailwrightError(
                f"references chained more than {MAX_CHAIN} deep (at #{str(key)[len(prefix) :][:40]})", source
            )
        if key is not None:
            visiting.add(key)
        total, deepest = 0, 0
        for e in node.iter():
            total += 1
            for target in refs.get(id(e), ()):
                if target in visiting:
                    raise TrailwrightError(
                        f"#{target[len(prefix) :][:40]} refers to itself (a reference cycle)", source
                    )
                more, chain = cost(target, ids[target], level + 1)
                total, deepest = total + more, max(deepest, chain + 1)
                if total > MAX_ELEMENTS:
                    raise TrailwrightError(f"its references draw more than {MAX_ELEMENTS:,} elements", source)
        if key is not None:
            visiting.discard(key)
            size[key], depth[key] = total, deepest
        return total, deepest

    cost(None, root, 0)


def safe_svg(text: str | bytes, source: str, folder: Path | None = None, prefix: str = "") -> str:
    """``text`` rebuilt as a safe SVG document (see the module glossary), its ids and classes renamed
    ``prefix + name``; or a one-line ``TrailwrightError`` naming ``source`` and the element."""
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
    build = _Rebuild(source, folder, prefix)
    rebuilt = build.element(root, 1)
    assert rebuilt is not None
    _bounded(rebuilt, build.refs, source, prefix)
    return ET.tostring(rebuilt, encoding="unicode")


__all__ = ["ELEMENTS", "PRINT_DPI", "SVG", "XLINK", "image_info", "raster_dpi", "safe_svg", "stays_inside"]
