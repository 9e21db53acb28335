"""Manufacturer files: per face a PNG at the profile's exact raster and a vector PDF, a die line,
a manifest and a zip of the lot.

Glossary
--------
canvas     the profile's raster (e.g. 825 × 750 px at 300 dpi): the die's outline (a hexagon, a square) at
           its centre, its art grown into a larger outline that reaches each edge of the canvas; the
           corners beyond it stay white.
trim box   the cut outline's bounding box; bleed box: the trim box grown by the profile's bleed.
die line   the cut contour alone, a thin stroke in the spot colour ``CutContour``.
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Callable

import cairosvg
from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, FloatObject, NameObject

from generator import __version__
from generator.model import TileSet
from generator.model.ids import id_width, side_file_name
from generator.publish.art import ArtCache, printed_faces
from generator.publish.impose import reproducible
from generator.publish.pdf import DIELINE, DocInfo, new_canvas, pt
from generator.publish.settings import Paper, Profile
from generator.render.artlimits import CAIRO_LOCK, drawing
from generator.render.raster import SideArt, png_bytes
from generator.units import MM_PER_IN

ArtForWidth = Callable[..., SideArt]  # (tile width in mm, labels: bool = True) -> side art at that width
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def cover_bleed(profile: Profile) -> float:
    """The bleed to ask the art for so its outline reaches every edge of the canvas (the canvas corners
    outside it stay white), never less than the profile's."""
    cw, ch = profile.canvas_mm
    w, h = profile.trim_width_mm, profile.outline.height(profile.trim_width_mm)
    return round(max(profile.bleed_mm, (cw - w) / 2, (ch - h) / 2) + 0.5, 3)


def _boxes(profile: Profile) -> tuple[list[float], list[float]]:
    cw, ch = profile.canvas_mm
    w, h = profile.trim_width_mm, profile.outline.height(profile.trim_width_mm)
    trim = [pt((cw - w) / 2), pt((ch - h) / 2), pt((cw + w) / 2), pt((ch + h) / 2)]
    b = pt(profile.bleed_mm)
    bleed = [max(0.0, trim[0] - b), max(0.0, trim[1] - b), min(pt(cw), trim[2] + b), min(pt(ch), trim[3] + b)]
    return trim, bleed


def vector_pdf(svg: str, profile: Profile, info: dict[str, str]) -> bytes:
    """The framed art as a one-page vector PDF (cairosvg) with TrimBox and BleedBox set."""
    with CAIRO_LOCK, drawing("a manufacturer's vector PDF"):
        raw = cairosvg.svg2pdf(bytestring=svg.encode("utf-8"))
    reader = PdfReader(io.BytesIO(raw))
    writer = PdfWriter(clone_from=reader)
    trim, bleed = _boxes(profile)
    for page in writer.pages:
        page[NameObject("/TrimBox")] = ArrayObject(FloatObject(round(v, 4)) for v in trim)
        page[NameObject("/BleedBox")] = ArrayObject(FloatObject(round(v, 4)) for v in bleed)
    return reproducible(writer, info)


def draw_die(c, profile: Profile) -> None:
    """The page's boxes, and the cut outline as a 0.25 pt stroke in the spot colour CutContour."""
    cw, ch = profile.canvas_mm
    trim, bleed = _boxes(profile)
    c.setTrimBox(trim)
    c.setBleedBox(bleed)
    c.saveState()
    c.setStrokeColor(DIELINE)
    c.setLineWidth(0.25)
    corners = profile.outline.corners(cw / 2, ch / 2, profile.trim_width_mm)
    path = c.beginPath()
    path.moveTo(pt(corners[0][0]), pt(corners[0][1]))
    for x, y in corners[1:]:
        path.lineTo(pt(x), pt(y))
    path.close()
    c.drawPath(path, stroke=1, fill=0)
    c.restoreState()


def dieline_pdf(profile: Profile, info: DocInfo) -> bytes:
    """The cut outline alone, a 0.25 pt stroke in the spot colour CutContour, boxes set."""
    cw, ch = profile.canvas_mm
    buffer = io.BytesIO()
    c = new_canvas(buffer, Paper("canvas", profile.title, cw, ch), info)
    draw_die(c, profile)
    c.showPage()
    c.save()
    return buffer.getvalue()


def profile_art(art: SideArt, profile: Profile) -> ArtCache:
    """Side art through the profile's canvas: exactly its pixels, asked for bleed to every edge."""
    frame = (profile.pixel_width, profile.pixel_height)
    return ArtCache(art, profile.trim_width_mm, profile.dpi, frame, cover_bleed(profile), profile.outline)


def manufacturer_files(
    tileset: TileSet, art: ArtCache, profile: Profile, provenance: str, mapper=map
) -> dict[str, bytes]:
    """Every file for the manufacturer, by name: PNGs, vector PDFs, die line, manifest, README.

    ``mapper`` is ``map`` or an executor's ``map``, to encode the faces in parallel."""
    cw, ch = profile.canvas_mm
    width = id_width(t.id for t in tileset)
    files: dict[str, bytes] = {}
    rows = []
    sides = [(tile, face) for tile in tileset for face in printed_faces(tileset)]

    def face_files(side) -> tuple[bytes, bytes]:
        tile, face = side
        meta = {
            "/Title": f"tile {tile.id} {face}",
            "/Creator": f"trailwright {__version__}",
            "/Producer": "trailwright (cairosvg, pypdf)",
            "/Subject": provenance,
        }
        text = {"Title": f"tile {tile.id} {face}", "Software": f"trailwright {__version__}", "Comment": provenance}
        return png_bytes(art.pixels(tile, face), profile.dpi, text), vector_pdf(art.svg(tile, face), profile, meta)

    for (tile, face), (png, pdf) in zip(sides, mapper(face_files, sides), strict=True):
        base = side_file_name(tile.id, face, width, suffix="")
        files[f"{base}.png"], files[f"{base}.pdf"] = png, pdf
        rows += [(f"{base}.png", tile.id, face, 1), (f"{base}.pdf", tile.id, face, 1)]
    files["dieline.pdf"] = dieline_pdf(
        profile, DocInfo(f"{profile.title}: die line", provenance, f"trailwright {__version__}")
    )
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["file", "tile", "face", "quantity"])
    writer.writerows(rows)
    files["manifest.csv"] = text.getvalue().encode("utf-8")
    w_in, h_in = cw / MM_PER_IN, ch / MM_PER_IN
    files["README.txt"] = (
        f"{profile.title}\n"
        f"Canvas {profile.pixel_width} x {profile.pixel_height} px at {profile.dpi} dpi ({w_in:.3f} x {h_in:.3f} in),"
        f" bleed included.\n"
        f"Die line: {die_words(profile)}, centred;\n"
        f"dieline.pdf holds it alone as a 0.25 pt stroke in the spot colour CutContour.\n"
        f"Bleed {profile.bleed_mm:.2f} mm past the die line at least; safe zone {profile.safe_mm:.2f} mm inside it.\n"
        f"Per face: a PNG (sRGB, dpi recorded) and a vector PDF with TrimBox and BleedBox.\n"
        f"manifest.csv lists every file with its tile, face and quantity.\n\n{provenance}\n"
    ).encode()
    return files


def die_words(profile: Profile) -> str:
    """The die line in words: its shape and size."""
    w, outline = profile.trim_width_mm, profile.outline
    if outline.exact_hex:
        return (
            f"a flat-topped regular hexagon {w:.2f} mm ({w / MM_PER_IN:.3f} in) corner to corner, "
            f"{outline.height(w):.2f} mm across the flats"
        )
    return f"a {outline.name} {w:.2f} mm ({w / MM_PER_IN:.3f} in) wide, {outline.height(w):.2f} mm high"


def zip_bytes(files: dict[str, bytes], folder: str) -> bytes:
    """A reproducible zip of ``files`` under ``folder/``: sorted names, fixed dates."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name in sorted(files):
            info = zipfile.ZipInfo(f"{folder}/{name}", date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, files[name])
    return out.getvalue()
