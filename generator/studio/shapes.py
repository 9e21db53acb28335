"""The studio on any tile geometry (``generator.model.geometry``): the facts its page draws a side from, and what it
cannot do yet on other tiles, each in one line.

Glossary
--------
facts    what the side editor draws from (``facts``): the tile's corners and each end's point (a tile of
         circumradius 1, y down), the ends' names, how many turns a side has and whether its trails pair.
limit    a part of the studio that takes the classic game's tiles only so far (``limits``): its one line, which
         the page shows in place of the part and the part's calls answer with (a 400).
"""

from __future__ import annotations

from typing import Any

from generator.model.geometry import TileGeometry

# the parts written for the classic game's tiles alone
CLASSIC_ONLY = {
    "board": "the board editor paints hex boards only so far: edit board.toml by hand (docs/geometry.md)",
    "search": "the studio's search runs the classic game's tiles only so far: run `trailwright optimize --board` "
    "on these tiles (docs/geometry.md)",
    "forbid": "forbidding a design: objective.toml names forbidden sides by the classic game's edges only so far",
    # the studio draws its maze with the classic renderer's preview sheet (``render_sheet``)
    "maze": "the random maze is drawn for the classic game's tiles only so far here: run `trailwright preview` "
    "on these tiles",
}


def facts(g: TileGeometry) -> dict[str, Any]:
    """What the page draws a side of ``g`` from."""
    return {
        "shape": g.shape,
        "ends": g.ends,
        "endsPerEdge": g.ends_per_edge,
        "trails": g.trails,
        "faces": g.faces,
        "turns": g.rotations,
        "corners": [[round(x, 5), round(y, 5)] for x, y in g.corners()],
        "endPoints": [[round(x, 5), round(y, 5)] for x, y in map(g.end_point, range(g.ends))],
        "endNames": list(g.end_names),
    }


def limits(g: TileGeometry) -> dict[str, str]:
    """What the studio cannot do on tiles of ``g`` yet, by part: one line each (none on the classic game's)."""
    return {} if g.is_classic else dict(CLASSIC_ONLY)
