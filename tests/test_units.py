"""Units and the hexagon, stated once: every stage converts with ``generator.units`` and draws one hexagon."""

import ast
import math
from pathlib import Path

import pytest

from generator.board.geometry import hexagon_corners, rotate
from generator.publish.outline import hex_corners
from generator.render import svg
from generator.units import MM_PER_IN, MM_PER_PT, PT_PER_MM

PACKAGE = Path(__file__).resolve().parent.parent / "generator"


def test_conversions_agree():
    assert MM_PER_IN == 25.4 and pytest.approx(25.4) == MM_PER_PT * 72 and pytest.approx(1) == MM_PER_PT * PT_PER_MM


def test_no_module_restates_a_unit():
    """No literal 25.4 (mm per inch) and no 72 / 25.4 pair anywhere but ``generator/units.py``."""
    for path in PACKAGE.rglob("*.py"):
        if path.name == "units.py":
            continue
        literals = [n.value for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.Constant)]
        assert 25.4 not in literals, path


def test_one_hexagon_and_one_rotation():
    assert svg.hexagon_points is hexagon_corners
    assert hex_corners(1.0, 2.0, 10.0) == hexagon_corners(5.0, (1.0, 2.0))
    corners = hexagon_corners(2.0)
    assert corners[0] == (2.0, 0.0) and all(math.hypot(*c) == pytest.approx(2.0) for c in corners)
    assert all(rotate(corners[k], math.radians(60)) == pytest.approx(corners[(k + 1) % 6]) for k in range(6))
    sources = {p: p.read_text() for p in PACKAGE.rglob("*.py")}
    for name in ("c * p[0] - s * p[1]", "math.cos(math.radians(60 * k))"):
        assert [p.name for p, text in sources.items() if name in text] == ["geometry.py"], name
