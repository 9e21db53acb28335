"""The layout stage: tile sides, the board and maze previews as SVG (units: mm).

- ``style``     the look as TOML data (``load_style``)
- ``side``      where trails, junctions, stubs and bridges go on a side of any geometry, in tile units
                (``layout_side``; its shapes are ``shapes``', searched by ``sidesearch``, proved by ``proof``)
- ``tiles``     one tile side as print-ready SVG (``render_side``), painted by ``paint``, labelled by ``labels``
- ``board``     the board at the tiles' scale (``render_board``)
- ``preview``   random layouts of a tile set on its board (``render_preview``, ``render_sheet``)
- ``raster``    SVG drawn to pixels and PNG (``render_pixels``), and a style's side art (``layout_art``), for the
                print kit and the virtual tables
"""

from generator.render.board import render_board
from generator.render.preview import render_preview, render_sheet
from generator.render.shapes import SideLayout
from generator.render.side import layout_side
from generator.render.style import Style, load_style
from generator.render.tiles import render_side, side_layout

__all__ = [
    "Style",
    "load_style",
    "render_side",
    "render_board",
    "render_preview",
    "render_sheet",
    "SideLayout",
    "layout_side",
    "side_layout",
]
