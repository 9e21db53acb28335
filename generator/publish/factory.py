"""Factory files: every tile face and the board as CMYK PDF/X (see ``pdfx``), die line on top.

Glossary
--------
tiles.pdf   one page per face at the manufacturer profile's canvas, TrimBox and BleedBox set, the art
            in vector and the die line above it in the spot colour CutContour (0.25 pt).
board.pdf   the board in vector, its art run past the trim by the bleed, trim marks outside it.
"""

from __future__ import annotations

import io

from generator import __version__
from generator.model import TileSet
from generator.publish.art import ArtCache, printed_faces
from generator.publish.manufacturer import draw_die
from generator.publish.pdf import MARK_CMYK, DocInfo, new_canvas, pt
from generator.publish.pdfx import PDFX_VERSION, press_profile, to_pdfx
from generator.publish.placement import Placement, place_images
from generator.publish.settings import Paper, Profile, PublishSettings
from generator.publish.vector import bled_svg, draw_trim_marks, pdf_meta, svg_pdf, underlay
from generator.render.raster import svg_size_mm

SLUG_MM = 8.0  # room outside the bleed for the trim marks


def tiles_source(tileset: TileSet, art: ArtCache, profile: Profile, info: DocInfo) -> bytes:
    """The RGB source of ``tiles.pdf``: a page per face, the die line over the art.

    The art is the manufacturer's 300 dpi raster, not vector: its bridge shadows are transparent, which
    PDF/X-3 forbids, and ghostscript flattening such a page also flattens the CutContour spot away."""
    cw, ch = profile.canvas_mm
    buffer = io.BytesIO()
    c = new_canvas(buffer, Paper("canvas", profile.title, cw, ch), info)
    sides = [(tile, face) for tile in tileset for face in printed_faces(tileset)]
    canvas = ((0.0, 0.0), (cw, 0.0), (cw, ch), (0.0, ch))
    for _ in sides:
        draw_die(c, profile)
        c.showPage()
    c.save()
    return place_images(
        buffer.getvalue(), [[Placement(art.packed(tile, face), 0.0, 0.0, cw, ch, canvas)] for tile, face in sides]
    )


def board_source(board_svg: str, settings: PublishSettings, info: DocInfo) -> bytes:
    """The RGB source of ``board.pdf``: the board with its bleed, trim marks in the slug around it."""
    w, h = svg_size_mm(board_svg)
    b, edge = settings.bleed_mm, settings.bleed_mm + SLUG_MM
    buffer = io.BytesIO()
    c = new_canvas(buffer, Paper("board", "board", w + 2 * edge, h + 2 * edge), info)
    c.setTrimBox([pt(edge), pt(edge), pt(edge + w), pt(edge + h)])
    c.setBleedBox([pt(edge - b), pt(edge - b), pt(edge + w + b), pt(edge + h + b)])
    draw_trim_marks(c, edge, edge, w, h, settings, MARK_CMYK)
    c.showPage()
    c.save()
    art = svg_pdf(bled_svg(board_svg, w, h, b))
    return underlay(buffer.getvalue(), {0: [(art, edge - b, edge - b)]}, pdf_meta(info))


def factory_files(
    tileset: TileSet, art: ArtCache, profile: Profile, board_svg: str, settings: PublishSettings, provenance: str
) -> dict[str, bytes]:
    """``tiles.pdf``, ``board.pdf`` and a README, the PDFs converted to CMYK PDF/X."""
    press = press_profile()
    made = f"trailwright {__version__}"
    tiles = DocInfo(f"{settings.title}: tiles for {profile.title}", provenance, made)
    board = DocInfo(f"{settings.title}: the board", provenance, made)
    w, h = svg_size_mm(board_svg)
    faces = "front then back" if tileset.geometry.faces == 2 else "single-sided: fronts only"
    box = f"{profile.trim_width_mm:.2f} mm " + ("corner to corner" if profile.outline.exact_hex else "wide")
    readme = (
        f"Factory files for {settings.title}, {PDFX_VERSION}, CMYK, made by ghostscript.\n"
        f"OutputIntent: {press.condition}, identifier {press.identifier} ({press.registry}); the ICC profile is "
        f"embedded.\n\n"
        f"tiles.pdf  one page per face ({len(tileset)} tiles, {faces}), {profile.title}:\n"
        f"  page = the {profile.pixel_width} x {profile.pixel_height} px canvas at {profile.dpi} dpi; TrimBox = the "
        f"cut {profile.outline.name}'s box ({box}); BleedBox = TrimBox + "
        f"{profile.bleed_mm:.2f} mm.\n"
        f"  The art is a {profile.dpi} dpi raster (the PNGs' pixels); the die line is vector, on top of it:\n"
        f"  a 0.25 pt stroke in the spot colour CutContour.\n"
        f"board.pdf  the board in vector, {w:.1f} x {h:.1f} mm trimmed, art {settings.bleed_mm:g} mm past the "
        f"trim (BleedBox), trim marks outside it.\n\n"
        f"Inks: C, M, Y, K and CutContour only. Fonts embedded.\n\n{provenance}\n"
    )
    return {
        "factory/tiles.pdf": to_pdfx(tiles_source(tileset, art, profile, tiles), tiles.title, press),
        "factory/board.pdf": to_pdfx(board_source(board_svg, settings, board), board.title, press),
        "factory/README.txt": readme.encode("utf-8"),
    }
