"""A trivial stand-in for the layout stage's art, and a kit built from it, for the publish tests."""

import math
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from generator.board import load_board
from generator.model import read_tileset
from generator.publish.booklet import TEMPLATES
from generator.publish.kit import publish_kit
from generator.publish.language import ENGLISH
from generator.publish.settings import load_settings
from generator.publish.sources import Sources
from generator.scoring.figures import Figures

ROOT = Path(__file__).resolve().parent.parent
TILE_MM = 63.5


def standin_side(tile, face, bleed_mm=0.0, width_mm=TILE_MM, labels=True):
    """A tinted hexagon grown by the bleed, a spoke per exit and the tile id, per the render contract."""
    w, h, b = width_mm, width_mm * math.sqrt(3) / 2, bleed_mm
    r = w / 2 + 2 * b / math.sqrt(3)
    hexagon = " ".join(
        f"{r * math.cos(math.radians(60 * k)):.3f},{r * math.sin(math.radians(60 * k)):.3f}" for k in range(6)
    )
    tint = "#e8dcc0" if face == "front" else "#c9d8e4"
    spokes = "".join(
        f'<line x1="0" y1="0" x2="{h / 2 * math.sin(math.radians(60 * d)):.3f}" '
        f'y2="{-h / 2 * math.cos(math.radians(60 * d)):.3f}" stroke="#553" stroke-width="4"/>'
        for trail in tile.face(face).trails
        for d in trail
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w + 2 * b}mm" height="{h + 2 * b}mm" '
        f'viewBox="{-w / 2 - b} {-h / 2 - b} {w + 2 * b} {h + 2 * b}">'
        f'<polygon points="{hexagon}" fill="{tint}"/>{spokes}'
        + (f'<text x="0" y="{h / 4}" font-size="6" text-anchor="middle">{tile.id} {face}</text>' if labels else "")
        + "</svg>"
    )


def standin_art_for_width(width_mm, labels=True):
    """Side art at ``width_mm``, as the kit asks for it."""
    return lambda tile, face, bleed: standin_side(tile, face, bleed, width_mm, labels)


def standin_board(width_mm=360.0, height_mm=380.0):
    """A board-sized stand-in: a tinted field with a grid, its root size in mm."""
    lines = "".join(
        f'<line x1="{x}" y1="0" x2="{x}" y2="{height_mm}" stroke="#876" stroke-width="0.5"/>'
        for x in range(0, int(width_mm), 20)
    )
    lines += "".join(
        f'<line x1="0" y1="{y}" x2="{width_mm}" y2="{y}" stroke="#876" stroke-width="0.5"/>'
        for y in range(0, int(height_mm), 20)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width_mm}mm" height="{height_mm}mm" '
        f'viewBox="0 0 {width_mm} {height_mm}"><rect width="{width_mm}" height="{height_mm}" fill="#dfe8d0"/>'
        f'{lines}<circle cx="{width_mm / 2}" cy="{height_mm / 2}" r="40" fill="#a54"/></svg>'
    )


FIGURES = Figures(
    fitness=10.5,
    fitness_se=0.01,
    pairs_joined=0.93,
    extra_edges=9.5,
    samples=1000,
    seed=1,
    pairs=(("Hut-Well", 0.97), ("Hut-Exit", 0.88), ("Well-Lair", 0.91)),
)


def standin_sources(templates=TEMPLATES, language=ENGLISH):
    """Sources for the random-20 example on the classic board, drawn by the stand-in, its booklet in
    ``language``."""
    tileset = read_tileset(ROOT / "examples" / "random-20.json")
    return Sources(
        tileset,
        load_board("classic"),
        standin_art_for_width,
        TILE_MM,
        standin_board(),
        FIGURES,
        "examples/random-20.json",
        Path(templates),
        language=language,
    )


@lru_cache(maxsize=4)
def standin_kit(cut_lines=False):
    """The whole kit for the stand-in sources (built once per test session)."""
    return publish_kit(standin_sources(), replace(load_settings(), cut_lines=cut_lines))
