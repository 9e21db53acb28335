"""A bridge's deck as geometry: its painted polygon, its box with the gap, and whether two boxes meet or a box
covers a trail's points (a separating axis between convex quadrilaterals). ``sidesearch`` keeps decks apart with
these, and ``proof`` reads a drawing back with the painted ``deck``."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from generator.render.proof import deck
from generator.render.shapes import Bridge, deck_length, deck_width


def deck_polygon(bridge: Bridge, width: float):
    """A bridge's deck as painted (``tiles._bridge``'s ``deck`` polygon), without its gap."""
    return deck(bridge.centre, bridge.angle, deck_length(width, bridge) / 2, deck_width(width) / 2)


@lru_cache(maxsize=65536)
def deck_box(bridge: Bridge, width: float, grow: float = 0.0) -> np.ndarray:
    """The four corners of a bridge's deck with its gap (tile units), grown by ``grow`` on every side (the
    caller's to read, never to change: it is cached)."""
    half_l = deck_length(width, bridge) / 2 + grow
    half_w = deck_width(width) / 2 + 0.16 * width + grow
    c, s = math.cos(bridge.angle), math.sin(bridge.angle)
    frame = np.array([[c, s], [-s, c]])
    local = np.array([[-half_l, -half_w], [half_l, -half_w], [half_l, half_w], [-half_l, half_w]])
    box = local @ frame + np.asarray(bridge.centre)
    box.setflags(write=False)
    return box


def _reach(box: np.ndarray, bridge: Bridge) -> float:
    """How far a box's corners lie from its bridge's centre: boxes whose centres are further apart than the sum
    cannot meet."""
    return math.dist(tuple(box[0]), bridge.centre)


def _apart(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two convex quadrilaterals are apart (a separating axis among their edges' normals)."""
    for box in (a, b):
        for k in range(4):
            edge = box[(k + 1) % 4] - box[k]
            axis = np.array([-edge[1], edge[0]])
            pa, pb = a @ axis, b @ axis
            if pa.max() <= pb.min() or pb.max() <= pa.min():
                return True
    return False


def _covers(box: np.ndarray, pts: np.ndarray) -> bool:
    """Whether any of ``pts`` lies inside ``box`` (a convex quadrilateral, corners in order)."""
    inside = np.ones(len(pts), bool)
    for k in range(4):
        edge = box[(k + 1) % 4] - box[k]
        inside &= (pts - box[k]) @ np.array([-edge[1], edge[0]]) * _turn_sign(box) >= 0
    return bool(inside.any())


def _turn_sign(box: np.ndarray) -> float:
    (x0, y0), (x1, y1), (x2, y2) = box[0], box[1], box[2]
    return 1.0 if (x1 - x0) * (y2 - y1) - (y1 - y0) * (x2 - x1) > 0 else -1.0
