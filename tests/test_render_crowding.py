"""No classic side is drawn more crowded by the one renderer than by the classic renderer it replaced: per design,
the decks keep at least their old gap, trails that do not cross keep at least their old air, and no turn is tighter
than it was (the figures the classic renderer drew are in ``golden/classic-crowding.json``;
``docs/images/classic-before-after.png`` shows both drawings)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from shapely.geometry import LineString, Polygon

from generator.board.geometry import rotate
from generator.model import pair_crossings
from generator.model.designs import designs
from generator.model.geometry import CLASSIC
from generator.render import load_style
from generator.render.curves import sample
from generator.render.side import layout_side

BEFORE = json.loads((Path(__file__).parent / "golden" / "classic-crowding.json").read_text())["designs"]
WIDTH = round(2 * load_style().trail_width, 6)


def _deck(layout, b) -> Polygon:
    hl, hw = layout.deck_length(b) / 2, layout.deck_width() / 2
    corners = ((-hl, -hw), (hl, -hw), (hl, hw), (-hl, hw))
    return Polygon([(b.centre[0] + x, b.centre[1] + y) for x, y in (rotate(p, b.angle) for p in corners)])


def _radius(curve) -> float:
    """The tightest radius along a cubic (finite differences on 200 samples)."""
    p = sample(curve, 200)
    d1 = np.gradient(p, axis=0)
    d2 = np.gradient(d1, axis=0)
    bend = np.abs(d1[:, 0] * d2[:, 1] - d1[:, 1] * d2[:, 0])[2:-2] / (np.linalg.norm(d1, axis=1) ** 3)[2:-2]
    return float(1 / bend.max()) if bend.max() > 1e-9 else math.inf


def figures(side) -> tuple[float, float, float]:
    """(least deck gap, least air between trails that do not cross, tightest turn radius) of a drawn side."""
    layout = layout_side(side, WIDTH)
    decks = [_deck(layout, b) for b in layout.bridges]
    gap = min((a.distance(b) for i, a in enumerate(decks) for b in decks[i + 1 :]), default=math.inf)
    lines = [LineString(np.vstack([sample(c, 64) for c in shape.curves])) for shape in layout.shapes]
    air = min(
        (
            lines[i].distance(lines[j]) - WIDTH
            for i in range(len(lines))
            for j in range(i + 1, len(lines))
            if pair_crossings(side.trails[i], side.trails[j]) == 0
        ),
        default=math.inf,
    )
    turn = min((_radius(c) for shape in layout.shapes if len(shape.trail) > 1 for c in shape.curves), default=math.inf)
    return gap, air, turn


def test_the_golden_figures_cover_every_classic_design():
    assert sorted(BEFORE) == sorted(str(s) for s in designs(CLASSIC))


@pytest.mark.parametrize("side", designs(CLASSIC), ids=str)
def test_no_classic_side_is_drawn_more_crowded_than_before(side):
    gap, air, turn = figures(side)
    old_gap, old_air, old_turn = BEFORE[str(side)]
    assert gap >= old_gap - 1e-3, f"{side}: decks {gap:.4f} apart, were {old_gap}"
    assert air >= old_air - 1e-3, f"{side}: trails {air:.4f} apart, were {old_air}"
    assert turn >= old_turn - 1e-3, f"{side}: a turn of radius {turn:.4f}, was {old_turn}"
