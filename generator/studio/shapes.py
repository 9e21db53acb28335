"""The studio on any tile geometry (``generator.model.geometry``): the facts its page draws a side from.

Glossary
--------
facts    what the side editor draws from (``facts``): the tile's corners and each end's point (a tile of
         circumradius 1, y down), the ends' names, how many turns a side has and whether its trails pair.
"""

from __future__ import annotations

from typing import Any

from generator.model.geometry import TileGeometry


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
