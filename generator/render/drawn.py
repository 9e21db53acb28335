"""Each design's drawing kept on disk once it is searched, for every later process of the same renderer.

The search (``sidesearch``) takes a fraction of a second a design, and seconds on the busiest paired hex sides;
a kit, a studio's first maze or a play table of hex-pairs tiles searches dozens of designs, and every new process
searched them again. A drawing depends on nothing but the design, the trail width and the code that draws it, so
each is kept as JSON in one folder per renderer: ``user_cache_dir("trailwright")/drawings/<stamp>/``, or under
``TRAILWRIGHT_DRAWINGS`` when set (``off``: nothing is kept or read).

Glossary
--------
stamp   a hash of the version and of the source of every module a drawing is made by (``SOURCES``): an edit of
        any of them is a new folder, so a drawing is never read by other code than the code that searched it.
entry   one design's drawing at one width: its shapes and bridges, exactly (floats written as ``repr`` writes
        them, which reads back to the same float). An entry that does not read back as a drawing of its design,
        with its trails and its bridge count, is searched again and written anew. The cache only saves time:
        a folder that cannot be written is no error, and each entry is written whole (``fileio.write_atomic``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from pathlib import Path

from generator.fileio import write_atomic
from generator.model import Side
from generator.render.curves import Curve
from generator.render.shapes import Bridge, SideLayout, TrailShape

ENV = "TRAILWRIGHT_DRAWINGS"
OFF = "off"
_RENDER = Path(__file__).resolve().parent
SOURCES = (
    "shapes.py",
    "sidesearch.py",
    "candidate.py",
    "decks.py",
    "proof.py",
    "curves.py",
    "side.py",
    "drawn.py",
)  # what a drawing is made by


@functools.cache
def stamp() -> str:
    """The renderer's stamp: the version and the source of ``SOURCES`` and of ``generator.model``."""
    from generator import __version__

    digest = hashlib.sha256(__version__.encode())
    files = [_RENDER / name for name in SOURCES] + sorted((_RENDER.parent / "model").glob("*.py"))
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def folder() -> Path | None:
    """Where this renderer's drawings are kept (None: the cache is off)."""
    chosen = os.environ.get(ENV, "")
    if chosen.lower() == OFF:
        return None
    if chosen:
        return Path(chosen) / stamp()
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("trailwright")) / "drawings" / stamp()


def _path(root: Path, side: Side, width: float) -> Path:
    g = side.geometry
    kind = f"{g.shape}-{g.ends_per_edge}-{g.trails}-w{width!r}"
    return root / kind / ("_".join("-".join(map(str, t)) for t in side.trails) + ".json")


def _point(p) -> tuple[float, float]:
    x, y = p
    return (float(x), float(y))


def _shape_json(s: TrailShape) -> dict:
    return {
        "trail": list(s.trail),
        "curves": [[list(_point(p)) for p in c] for c in s.curves],
        "bar": None if s.bar is None else [list(_point(p)) for p in s.bar],
        "junction": None if s.junction is None else list(_point(s.junction)),
        "hub": None if s.hub is None else list(_point(s.hub)),
    }


def _curve(c) -> Curve:
    p0, p1, p2, p3 = (_point(p) for p in c)  # exactly four points, or the entry does not read back
    return (p0, p1, p2, p3)


def _shape(d: dict) -> TrailShape:
    def opt(p):
        return None if p is None else _point(p)

    bar = d["bar"]
    return TrailShape(
        tuple(int(e) for e in d["trail"]),
        tuple(_curve(c) for c in d["curves"]),
        None if bar is None else (_point(bar[0]), _point(bar[1])),
        opt(d["junction"]),
        opt(d["hub"]),
    )


def _bridge_json(b: Bridge) -> dict:
    return {
        "centre": list(_point(b.centre)),
        "angle": float(b.angle),
        "upper": int(b.upper),
        "lower": int(b.lower),
        "crossing_angle": float(b.crossing_angle),
    }


def _bridge(d: dict) -> Bridge:
    return Bridge(_point(d["centre"]), float(d["angle"]), int(d["upper"]), int(d["lower"]), float(d["crossing_angle"]))


def load(side: Side, width: float) -> SideLayout | None:
    """The kept drawing of design ``side`` at ``width`` (None: none kept, or not one that reads back whole)."""
    root = folder()
    if root is None:
        return None
    try:
        data = json.loads(_path(root, side, width).read_text(encoding="utf-8"))
        shapes = tuple(_shape(s) for s in data["shapes"])
        bridges = tuple(_bridge(b) for b in data["bridges"])
        layout = SideLayout(side, shapes, bridges, width, bool(data["crowded"]))
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None
    if tuple(s.trail for s in shapes) != side.trails or len(bridges) != side.min_crossings:
        return None
    return layout


def keep(layout: SideLayout) -> None:
    """Keep ``layout`` for later processes (a folder that cannot be written keeps nothing)."""
    root = folder()
    if root is None:
        return
    data = {
        "shapes": [_shape_json(s) for s in layout.shapes],
        "bridges": [_bridge_json(b) for b in layout.bridges],
        "crowded": layout.crowded,
    }
    path = _path(root, layout.side, layout.width)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, json.dumps(data, separators=(",", ":")))
    except Exception:  # a read-only or full disk: the drawing is searched again next time, nothing else changes
        pass
