"""What a PDF page draws, read from its content stream: strokes with their true widths and inks,
image placements with their clip paths, the inks of fills and text, and the fonts. In points.

A small interpreter of the PDF graphics operators (q Q cm w, path building and painting, clip,
colour, Do into images and forms); it ignores what a preflight does not ask about (text
positions, shading geometry, dashes).

Glossary
--------
ink kind   "rgb", "cmyk", "gray", "spot:NAME" (a Separation), "devicen", "icc-rgb", "icc-cmyk",
           "indexed", "lab", "pattern": what a colour is specified in.
stroke     a painted outline: its points on the page, its width after the CTM, its ink kind.
placement  an image drawn: the page box it fills, its clip polygon (when one was set) and its ink kind.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from pypdf.generic import ContentStream

Point = tuple[float, float]
Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_PAINT = {
    b"S": (True, False),
    b"s": (True, False),
    b"f": (False, True),
    b"F": (False, True),
    b"f*": (False, True),
    b"B": (True, True),
    b"B*": (True, True),
    b"b": (True, True),
    b"b*": (True, True),
    b"n": (False, False),
}
_DEVICE = {"/DeviceRGB": "rgb", "/DeviceCMYK": "cmyk", "/DeviceGray": "gray", "/Pattern": "pattern"}
_DEVICE_COLOUR = {b"RG": "rgb", b"rg": "rgb", b"K": "cmyk", b"k": "cmyk", b"G": "gray", b"g": "gray"}


def _matrix(values) -> Matrix:
    """Six numbers as a matrix; a malformed one (any other count) is the identity, as a viewer ignores it."""
    numbers = [float(v) for v in values]
    if len(numbers) != 6:
        return (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    a, b, c, d, e, f = numbers
    return (a, b, c, d, e, f)


def _mul(a: Matrix, b: Matrix) -> Matrix:
    """``a`` then ``b`` (PDF's row-vector convention: a point p goes to p·a·b)."""
    return (
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4],
        a[4] * b[1] + a[5] * b[3] + b[5],
    )


def _apply(m: Matrix, x: float, y: float) -> Point:
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def ink_kind(space, resources) -> str:
    """The ink kind of a colour space: a name, a resource name or an array."""
    space = space.get_object() if hasattr(space, "get_object") else space
    if isinstance(space, str) and space in _DEVICE:
        return _DEVICE[space]
    if isinstance(space, str):
        named = (resources or {}).get("/ColorSpace", {})
        named = named.get_object() if hasattr(named, "get_object") else named
        return ink_kind(named[space], resources) if space in named else "unknown"
    family = str(space[0])
    if family == "/Separation":
        return f"spot:{str(space[1]).lstrip('/')}"
    if family == "/DeviceN":
        return "devicen"
    if family == "/ICCBased":
        n = space[1].get_object().get("/N", 3)
        return {1: "gray", 3: "icc-rgb", 4: "icc-cmyk"}.get(int(n), "icc")
    if family in ("/Indexed", "/I"):
        return "indexed:" + ink_kind(space[1], resources)
    return family.lstrip("/").lower()


@dataclass(frozen=True)
class Stroke:
    points: tuple[Point, ...]
    width_pt: float
    ink: str


@dataclass(frozen=True)
class Placement:
    corners: tuple[Point, ...]
    clip: tuple[Point, ...] | None
    ink: str
    pixels: tuple[int, int]


@dataclass
class PageScan:
    """Everything a preflight asks of a page."""

    strokes: list[Stroke] = field(default_factory=list)
    placements: list[Placement] = field(default_factory=list)
    inks: set[str] = field(default_factory=set)  # every ink kind painted with, strokes, fills, text and images
    fonts: dict[str, object] = field(default_factory=dict)  # font name -> font dictionary
    transparency: bool = False


@dataclass
class _State:
    ctm: Matrix = IDENTITY
    width: float = 1.0
    stroke_ink: str = "gray"
    fill_ink: str = "gray"
    clip: tuple[Point, ...] | None = None

    def copy(self) -> _State:
        return _State(self.ctm, self.width, self.stroke_ink, self.fill_ink, self.clip)


def scan_page(page, reader) -> PageScan:
    """Scan one pypdf page (and the forms it draws)."""
    out = PageScan()
    contents = page.get_contents()
    if contents is not None:
        _run(ContentStream(contents, reader).operations, page.get("/Resources") or {}, _State(), out, reader, 0)
    return out


def _scale(m: Matrix) -> float:
    return math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))


def _run(ops, resources, state: _State, out: PageScan, reader, depth: int) -> None:
    """Interpret content-stream operators from ``state``, adding what they draw to ``out`` (forms ``depth`` deep)."""
    resources = resources.get_object() if hasattr(resources, "get_object") else resources
    stack: list[_State] = []
    path: list[list[Point]] = []
    pending_clip = False
    for operands, op in ops:
        if op == b"q":
            stack.append(state.copy())
        elif op == b"Q" and stack:
            state = stack.pop()
        elif op == b"cm":
            state.ctm = _mul(_matrix(operands), state.ctm)
        elif op == b"w":
            state.width = float(operands[0])
        elif op in (b"m", b"l", b"c", b"v", b"y", b"re"):
            _build_path(op, operands, state.ctm, path)
        elif op in (b"W", b"W*"):
            pending_clip = True
        elif op in _PAINT:
            _paint(op, path, pending_clip, state, out)
            path, pending_clip = [], False
        elif op in _DEVICE_COLOUR or op in (b"CS", b"cs"):
            _set_ink(op, operands, state, resources)
        elif op in (b"Tj", b"TJ", b"'", b'"', b"Tf", b"gs"):
            _text_or_graphics_state(op, operands, state, out, resources)
        elif op == b"Do":
            _draw(resources, operands[0], state, out, reader, depth)


def _build_path(op: bytes, operands, ctm: Matrix, path: list[list[Point]]) -> None:
    """Add a path operator's point (a move starts a subpath) or a rectangle's closed subpath to ``path``."""
    if op == b"re":
        x, y, w, h = (float(v) for v in operands)
        path.append([_apply(ctm, px, py) for px, py in ((x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y))])
        return
    point = _apply(ctm, float(operands[-2]), float(operands[-1]))
    if op == b"m" or not path:
        path.append([point])
    else:
        path[-1].append(point)


def _paint(op: bytes, path: list[list[Point]], pending_clip: bool, state: _State, out: PageScan) -> None:
    """Paint ``path``: its strokes and the inks used into ``out``, and the clip it sets when one is pending."""
    stroke, fill = _PAINT[op]
    if stroke:
        width = state.width * _scale(state.ctm)
        out.strokes += [Stroke(tuple(sub), width, state.stroke_ink) for sub in path if len(sub) > 1]
        out.inks.add(state.stroke_ink)
    if fill:
        out.inks.add(state.fill_ink)
    if pending_clip and path:
        state.clip = tuple(p for sub in path for p in sub)


def _set_ink(op: bytes, operands, state: _State, resources) -> None:
    """Set the stroke ink (upper-case operators) or the fill ink (lower-case) from a device colour or a space."""
    kind = _DEVICE_COLOUR[op] if op in _DEVICE_COLOUR else ink_kind(operands[0], resources)
    if op.isupper():
        state.stroke_ink = kind
    else:
        state.fill_ink = kind


def _text_or_graphics_state(op: bytes, operands, state: _State, out: PageScan, resources) -> None:
    """Note what text shows (its fill ink), a font chosen, or a graphics state's transparency, in ``out``."""
    if op in (b"Tj", b"TJ", b"'", b'"'):
        out.inks.add(state.fill_ink)
    elif op == b"Tf":
        fonts = resources.get("/Font", {})
        fonts = fonts.get_object() if hasattr(fonts, "get_object") else fonts
        if operands[0] in fonts:
            out.fonts[str(operands[0])] = fonts[operands[0]].get_object()
    else:  # gs
        ext = resources.get("/ExtGState", {}).get_object().get(operands[0], {}).get_object()
        if ext.get("/SMask", "/None") != "/None" or float(ext.get("/CA", 1)) < 1 or float(ext.get("/ca", 1)) < 1:
            out.transparency = True


def _draw(resources, name, state: _State, out: PageScan, reader, depth: int) -> None:
    xobjects = resources.get("/XObject", {})
    xobjects = xobjects.get_object() if hasattr(xobjects, "get_object") else xobjects
    if name not in xobjects:
        return
    xobj = xobjects[name].get_object()
    if xobj.get("/Subtype") == "/Image":
        corners = tuple(_apply(state.ctm, x, y) for x, y in ((0, 0), (1, 0), (1, 1), (0, 1)))
        ink = "mask" if xobj.get("/ImageMask") else ink_kind(xobj.get("/ColorSpace", "/DeviceGray"), resources)
        if "/SMask" in xobj:
            out.transparency = True
        out.placements.append(Placement(corners, state.clip, ink, (int(xobj["/Width"]), int(xobj["/Height"]))))
        out.inks.add(ink)
    elif xobj.get("/Subtype") == "/Form" and depth < 8:
        if "/Group" in xobj and xobj["/Group"].get("/S") == "/Transparency":
            out.transparency = True
        inner = state.copy()
        if "/Matrix" in xobj:
            inner.ctm = _mul(_matrix(xobj["/Matrix"]), inner.ctm)
        _run(ContentStream(xobj, reader).operations, xobj.get("/Resources") or resources, inner, out, reader, depth + 1)
