"""Preflight rules on the tiles' shape and size: a die line is the profile's outline at its exact size, and on a
tile sheet every tile's crop marks sit on the lines of a cut outline exactly as wide as the kit says. In mm.

Glossary
--------
tile width  the kit's tile width: what a tile sheet's PDF subject records (``; tile 50 mm;``), with the bleed
            its settings record (``"bleed_mm": 3.0``).
cut         a tile's cut outline (``generator.publish.outline``): a flat-topped hexagon or a square, centred on
            its clipped art.
corner's marks
            the two crop marks a corner has, one on the line of each edge that meets there, starting past the
            corner and outside the bleed.
block       squares laid edge to edge (``publish.layout``'s shared cuts): two clips that share a side share a cut
            there, the bleed is only round the block's edge, and each cut line has a mark at both of its ends,
            on its line, outside the block.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from generator.model.geometry import SHAPES
from generator.preflight.finding import Finding
from generator.preflight.scan import PageScan
from generator.publish.outline import Outline
from generator.publish.settings import Profile
from generator.units import PT_PER_MM

LINE_TOLERANCE_MM = 0.05  # how far a mark's ends may lie off its edge's line
SIZE_TOLERANCE_MM = 0.05


def die_shape(name: str, number: int, scan: PageScan, profile: Profile):
    """The CutContour strokes, taken together, as the profile's outline: its corners, width and height."""

    points = {(round(x / PT_PER_MM, 2), round(y / PT_PER_MM, 2)) for s in scan.strokes for x, y in s.points
              if s.ink == "spot:CutContour"}  # fmt: skip
    outline = profile.outline
    w, h = profile.trim_width_mm, outline.height(profile.trim_width_mm)
    if points:
        xs, ys = [x for x, _ in points], [y for _, y in points]
        mw, mh = max(xs) - min(xs), max(ys) - min(ys)
        measured = f"{len(points)} corners, {mw:.2f} × {mh:.2f} mm"
        ok = len(points) == len(outline.unit) and abs(mw - w) <= SIZE_TOLERANCE_MM and abs(mh - h) <= SIZE_TOLERANCE_MM
    else:
        measured, ok = "no die line", False
    expected = f"a {outline.name}: {len(outline.unit)} corners, {w:.2f} × {h:.2f} mm ({profile.name})"
    return Finding(name, number, "die line's shape and size", measured, expected, ok)


def sheet_subject(reader) -> str:
    """A PDF's subject (a kit's PDFs record how they were made there), or empty."""
    try:
        metadata: Any = reader.metadata or {}
        return str(metadata.get("/Subject", ""))
    except Exception:  # noqa: BLE001 - unreadable metadata: no subject, the sheet's other checks still run
        return ""


def recorded_size(subject: str) -> tuple[float, dict] | None:
    """The tile width (mm) and the settings a tile sheet's PDF subject records, or None."""
    tile = re.search(r"; tile ([0-9.]+) mm;", subject)
    settings = re.search(r"; settings (\{.*\})$", subject)
    if tile is None or settings is None:
        return None
    try:
        recorded = json.loads(settings.group(1))
    except ValueError:
        return None
    keys = ("bleed_mm", "mark_offset_mm", "mark_length_mm")
    if not isinstance(recorded, dict) or not all(isinstance(recorded.get(k), (int, float)) for k in keys):
        return None
    return float(tile.group(1)), recorded


def _marked(corner, neighbours, marks, reach: float) -> bool:
    """Whether ``corner`` has a mark on the line of each of its edges (towards ``neighbours``), outside the cut."""
    for other in neighbours:
        ux, uy = corner[0] - other[0], corner[1] - other[1]
        norm = math.hypot(ux, uy)
        ux, uy = ux / norm, uy / norm

        def on_line(p, ux=ux, uy=uy) -> bool:
            dx, dy = p[0] - corner[0], p[1] - corner[1]
            along = dx * ux + dy * uy
            return abs(dx * uy - dy * ux) <= LINE_TOLERANCE_MM and 0 < along <= reach

        if not any(on_line(a) and on_line(b) for a, b in marks):
            return False
    return True


def sheet_cuts(name: str, number: int, scan: PageScan, subject: str):
    """On a tile sheet: every tile's clipped art is centred on a cut outline (a hexagon or a square) exactly as
    wide as the subject records, and each of the outline's corners has its two crop marks on the edges' lines."""

    size = recorded_size(subject)
    clips = [p.clip for p in scan.placements if p.clip]
    if size is None or not clips:
        return []
    width, settings = size
    bleed = settings["bleed_mm"]
    marks = [tuple((x / PT_PER_MM, y / PT_PER_MM) for x, y in s.points) for s in scan.strokes if len(s.points) == 2]
    # a mark ends within this of its corner: it starts (bleed + offset) / sin(corner's angle) past it, the angle
    # at least 60 degrees (sin > 0.85); a neighbour's mark on the same line lies farther
    reach = (bleed + settings["mark_offset_mm"]) / 0.85 + settings["mark_length_mm"] + 0.1
    shapes = {shape: Outline(shape) for shape in SHAPES}
    cut: dict[str, int] = {}
    boxes = [_box(clip) for clip in clips]
    if any(_shares(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :]):  # squares with shared cuts
        for block in _blocks(boxes):
            fitted = "square" if _block_cut(block, width, bleed, marks, reach) else "none"
            cut[fitted] = cut.get(fitted, 0) + len(block)
        clips = []
    for clip in clips:
        xs, ys = [x / PT_PER_MM for x, _ in clip], [y / PT_PER_MM for _, y in clip]
        cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        fitted = next(
            (
                shape
                for shape, outline in shapes.items()
                if abs(max(xs) - min(xs) - width - 2 * bleed) <= SIZE_TOLERANCE_MM
                and abs(max(ys) - min(ys) - outline.height(width) - 2 * bleed) <= SIZE_TOLERANCE_MM
                and _every_corner_marked(outline.corners(cx, cy, width), marks, reach)
            ),
            "none",
        )
        cut[fitted] = cut.get(fitted, 0) + 1
    found = ", ".join(f"{n} {s}" for s, n in sorted(cut.items()))
    expected = f"every tile's art on a {width:g} mm hexagon or square, its crop marks on the cut's edges"
    return [Finding(name, number, "tiles' cut size and crop marks", found, expected, "none" not in cut)]


def _every_corner_marked(corners, marks, reach: float) -> bool:
    n = len(corners)
    return all(_marked(c, (corners[k - 1], corners[(k + 1) % n]), marks, reach) for k, c in enumerate(corners))


Box = tuple[float, float, float, float]


def _box(clip) -> Box:
    """A clip's bounding box in mm (x0, y0, x1, y1)."""
    xs, ys = [x / PT_PER_MM for x, _ in clip], [y / PT_PER_MM for _, y in clip]
    return min(xs), min(ys), max(xs), max(ys)


def _touch(a: Box, b: Box) -> tuple[bool, bool, bool, bool]:
    """Whether ``b`` lies against ``a``'s left, bottom, right and top side, along a stretch of it."""
    close = lambda u, v: abs(u - v) <= SIZE_TOLERANCE_MM  # noqa: E731
    along_y = min(a[3], b[3]) - max(a[1], b[1]) > SIZE_TOLERANCE_MM
    along_x = min(a[2], b[2]) - max(a[0], b[0]) > SIZE_TOLERANCE_MM
    return (
        close(b[2], a[0]) and along_y,
        close(b[3], a[1]) and along_x,
        close(b[0], a[2]) and along_y,
        close(b[1], a[3]) and along_x,
    )


def _shares(a: Box, b: Box) -> bool:
    return any(_touch(a, b))


def _blocks(boxes: list[Box]) -> list[list[Box]]:
    """The boxes grouped into blocks: joined where they share a side."""
    blocks: list[list[Box]] = []
    for b in boxes:
        joined = [k for k, block in enumerate(blocks) if any(_shares(b, o) for o in block)]
        merged = [b] + [o for k in joined for o in blocks[k]]
        blocks = [block for k, block in enumerate(blocks) if k not in joined] + [merged]
    return blocks


def _block_cut(block: list[Box], width: float, bleed: float, marks, reach: float) -> bool:
    """Whether every tile of a block is a square ``width`` wide once the bleed is taken off its open sides, and
    every cut line of the block has a crop mark at both ends, on its line, outside the block."""
    cuts = []
    for a in block:
        shared = [any(_touch(a, b)[k] for b in block if b is not a) for k in range(4)]
        x0, y0, x1, y1 = (v + (0.0 if shared[k] else bleed) * (1 if k < 2 else -1) for k, v in enumerate(a))
        if abs(x1 - x0 - width) > SIZE_TOLERANCE_MM or abs(y1 - y0 - width) > SIZE_TOLERANCE_MM:
            return False
        cuts.append((x0, y0, x1, y1))
    low, high = min(c[1] for c in cuts), max(c[3] for c in cuts)
    left, right = min(c[0] for c in cuts), max(c[2] for c in cuts)
    xs = {round(v, 2) for c in cuts for v in (c[0], c[2])}
    ys = {round(v, 2) for c in cuts for v in (c[1], c[3])}
    vertical = all(_mark(marks, x, high, 1, True, reach) and _mark(marks, x, low, -1, True, reach) for x in xs)
    across = all(_mark(marks, y, right, 1, False, reach) and _mark(marks, y, left, -1, False, reach) for y in ys)
    return vertical and across


def _mark(marks, line: float, edge: float, away: int, vertical: bool, reach: float) -> bool:
    """Whether a mark lies on the cut line ``x = line`` (``vertical``) or ``y = line``, past ``edge`` on the side
    ``away`` points to, within ``reach``."""
    for a, b in marks:
        on = [p[0] if vertical else p[1] for p in (a, b)]
        past = [(p[1] if vertical else p[0]) - edge for p in (a, b)]
        if all(abs(v - line) <= LINE_TOLERANCE_MM for v in on) and all(0 < d * away <= reach for d in past):
            return True
    return False
