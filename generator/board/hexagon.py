"""Hexagon boards of any radius, as board-file TOML: the built-in ``hexagon91`` (radius 5) and ``hexagon217``
(radius 8) are this module's output, word for word (``tests/test_board.py`` checks it).

A board of radius ``R`` holds every hex within ``R`` steps of its centre: ``3R(R + 1) + 1`` slots, numbered
column by column. Its six landmarks stand on the rim, one beside each corner (each faces two rim slots), and six
printed connectors sit half way along the sides, each joining the two rim slots it touches.

    python -m generator.board.hexagon 5 > generator/board/boards/hexagon91.toml
"""

from __future__ import annotations

import sys

from generator.board.geometry import cube, neighbour, offset

NAMES = ("Gate", "Tower", "Mill", "Grove", "Shrine", "Cave")
# cube directions, counter-clockwise with y down: a ring is walked from corner k along direction k + 2
_CUBE = ((1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1))


def _ring(radius: int, centre: tuple[int, int]) -> list[tuple[int, int]]:
    """The hexes ``radius`` steps from the centre, in order round the ring, from the corner in direction 4."""
    x, z = centre[0] + _CUBE[4][0] * radius, centre[1] + _CUBE[4][2] * radius
    out = []
    for k in range(6):
        dx, _, dz = _CUBE[k]
        for _ in range(radius):
            out.append(offset(x, z))
            x, z = x + dx, z + dz
    return out


def hexagon_toml(radius: int) -> str:
    """The board file of the hexagon of ``radius`` (see the module docstring)."""
    centre = cube((radius, radius))
    slots = sorted(
        offset(centre[0] + dx, centre[1] + dz)
        for dx in range(-radius, radius + 1)
        for dz in range(max(-radius, -dx - radius), min(radius, -dx + radius) + 1)
    )
    rim = _ring(radius + 1, centre)
    side = radius + 1
    landmarks = [rim[k * side + 1] for k in range(6)]
    connectors = [rim[k * side + 1 + (side + 1) // 2] for k in range(6)]
    lines = [
        f"# A hexagon of {len(slots)} slots (radius {radius}), six landmarks on the rim and six printed connectors.",
        f"# Made by: python -m generator.board.hexagon {radius}",
        'format = "hexmaze-board/1"',
        f'name = "hexagon{len(slots)}"',
        f'title = "Hexagon of {len(slots)} tiles"',
        "",
        "slots = [",
    ]
    for q in sorted({q for q, _ in slots}):
        lines.append("  " + " ".join(f"[{a}, {b}]," for a, b in slots if a == q))
    lines.append("]")
    for name, (q, r) in zip(NAMES, landmarks, strict=True):
        lines += ["", "[[landmark]]", f'name = "{name}"', f"hexes = [[{q}, {r}]]"]
    slot_set = set(slots)
    for q, r in connectors:
        touching = sorted(h for d in range(6) if (h := neighbour((q, r), d)) in slot_set)
        joins = ", ".join(f"[{a}, {b}]" for a, b in touching)
        lines += ["", "[[connector]]", f"hex = [{q}, {r}]", f"joins = [{joins}]"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(hexagon_toml(int(sys.argv[1])))
