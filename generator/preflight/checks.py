"""Preflight rules: each reads one file (or a page of it) and returns findings. Lengths in mm, line widths in pt.

Glossary
--------
target    what a file is for, which sets the colour rule: "home" (print-and-play, RGB), "vtt"
          (virtual tabletop, RGB, at most 4096 px), "manufacturer" (per-face art for a profile,
          RGB) or "factory" (CMYK PDF/X). Found from the folder (``factory/``, ``manufacturer/``,
          ``tabletop/``, ``play/``), unless given.
finding   one result: the file, the page (or none), what was checked, what was measured, what
          was expected, and whether it passed.
bleed     on a page with a TrimBox, how far the BleedBox reaches past it (least of four sides).
mark      a short straight stroke (at most 15 mm, at most 1 pt, not a spot colour): a crop or
          trim mark. It must stay outside the bleed: outside every tile's clipped image and
          outside the BleedBox.
"""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.preflight.finding import Finding
from generator.preflight.scan import PageScan, scan_page
from generator.preflight.shapes import die_shape, sheet_cuts, sheet_subject
from generator.publish.settings import MIN_LINE_PT, Profile, load_paper, paper_names
from generator.units import PT_PER_MM

MIN_BLEED_MM = 3.0
VTT_MAX_PX = 4096
SIZE_TOLERANCE_MM = 0.05
MARK_MAX_MM = 15.0
RGB_INKS = ("rgb", "icc-rgb", "indexed:rgb", "indexed:icc-rgb")
CMYK_INKS = ("cmyk", "icc-cmyk", "indexed:cmyk")
TARGETS = ("home", "vtt", "manufacturer", "factory")


@dataclass(frozen=True)
class Context:
    """What a file is checked against: its target and the manufacturer profile."""

    target: str
    profile: Profile


def target_of(path: Path) -> str:
    """The target a file's folder implies."""
    parts = set(path.parts)
    if "factory" in parts:
        return "factory"
    if "manufacturer" in parts:
        return "manufacturer"
    if parts & {"tabletop", "play"}:
        return "vtt"
    return "home"


def _mm(v: float) -> float:
    return v / PT_PER_MM


def _box(page, name: str) -> tuple[float, ...] | None:
    """A page box in mm, or None when the page does not set it."""
    if name not in page:
        return None
    return tuple(_mm(float(v)) for v in page[name])


def check_pdf(path: Path, data: bytes, ctx: Context) -> list[Finding]:
    """Every rule for one PDF."""
    from pypdf import PdfReader

    name = str(path)
    try:
        reader = PdfReader(io.BytesIO(data))
        pages = list(reader.pages)
    except Exception as err:  # noqa: BLE001 - any unreadable PDF is one finding, not a traceback
        return [Finding(name, None, "readable PDF", f"unreadable ({type(err).__name__})", "a valid PDF", False)]
    found = []
    if ctx.target == "factory":
        found += _pdfx(name, reader)
    subject = sheet_subject(reader) if path.name.startswith("tiles-") else ""
    for number, page in enumerate(pages, start=1):
        try:
            scan = scan_page(page, reader)
            found += _page(name, number, page, scan, ctx, path.name)
            found += sheet_cuts(name, number, scan, subject) if subject else []
        except Exception as err:  # noqa: BLE001 - a page we cannot read is one finding, not a traceback
            found.append(
                Finding(
                    name,
                    number,
                    "readable page",
                    f"unreadable ({type(err).__name__})",
                    "a page whose content and resources parse",
                    False,
                )
            )
    return found


def _pdfx(name: str, reader) -> list[Finding]:
    version = (reader.metadata or {}).get("/GTS_PDFXVersion")
    intents = reader.trailer["/Root"].get("/OutputIntents")
    return [
        Finding(
            name,
            None,
            "PDF/X version key",
            str(version or "none"),
            "GTS_PDFXVersion (PDF/X-1a, -3 or -4)",
            bool(version),
        ),
        Finding(
            name,
            None,
            "OutputIntent",
            "present" if intents else "none",
            "a GTS_PDFX OutputIntent with a CMYK profile",
            bool(intents),
        ),
    ]


def _page(name: str, number: int, page, scan: PageScan, ctx: Context, filename: str) -> list[Finding]:
    found = [_line_widths(name, number, scan), _fonts(name, number, scan), *_colours(name, number, scan, ctx)]
    found += _boxes(name, number, page, scan, ctx, filename)
    found += _marks(name, number, page, scan)
    if "dieline" in filename or (ctx.target == "factory" and "tiles" in filename):
        cut = [s for s in scan.strokes if s.ink == "spot:CutContour"]
        found.append(
            Finding(
                name,
                number,
                "die line as spot colour",
                f"{len(cut)} CutContour strokes" + (f", {min(s.width_pt for s in cut):.2f} pt" if cut else ""),
                "a stroke in the Separation CutContour, at least 0.25 pt",
                bool(cut) and min(s.width_pt for s in cut) >= MIN_LINE_PT - 1e-3,
            )
        )
        found.append(die_shape(name, number, scan, ctx.profile))
    return found


def _line_widths(name: str, number: int, scan: PageScan) -> Finding:
    thinnest = min((s.width_pt for s in scan.strokes), default=None)
    measured = "no lines" if thinnest is None else f"thinnest {thinnest:.3f} pt"
    return Finding(
        name,
        number,
        "line width",
        measured,
        f"at least {MIN_LINE_PT} pt",
        thinnest is None or thinnest >= MIN_LINE_PT - 1e-3,
    )


def _fonts(name: str, number: int, scan: PageScan) -> Finding:
    missing = []
    font: Any
    for font_name, font in scan.fonts.items():
        if font.get("/Subtype") == "/Type3":
            continue
        descriptor = font.get("/FontDescriptor")
        if descriptor is None and "/DescendantFonts" in font:
            descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
        descriptor = descriptor.get_object() if descriptor is not None else {}
        if not any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")):
            missing.append(str(font.get("/BaseFont", font_name)).lstrip("/"))
    measured = f"not embedded: {', '.join(sorted(missing))}" if missing else f"{len(scan.fonts)} fonts, all embedded"
    return Finding(name, number, "fonts embedded", measured, "every font embedded", not missing)


def _colours(name: str, number: int, scan: PageScan, ctx: Context) -> list[Finding]:
    inks = sorted(scan.inks)
    if ctx.target == "factory":
        bad = [i for i in inks if i in RGB_INKS or i.startswith("icc")]
        found = [
            Finding(
                name,
                number,
                "colour space",
                ", ".join(inks) or "none",
                "CMYK, grey and spot colours only (factory)",
                not bad,
            )
        ]
        found.append(
            Finding(
                name,
                number,
                "transparency",
                "present" if scan.transparency else "none",
                "none (PDF/X-1a and -3 forbid it)",
                not scan.transparency,
            )
        )
        return found
    bad = [i for i in inks if i in CMYK_INKS]
    return [
        Finding(
            name,
            number,
            "colour space",
            ", ".join(inks) or "none",
            f"RGB, grey and spot colours ({ctx.target}: CMYK prints dull or will not load)",
            not bad,
        )
    ]


def _boxes(name: str, number: int, page, scan: PageScan, ctx: Context, filename: str) -> list[Finding]:
    w, h = _mm(float(page.mediabox.width)), _mm(float(page.mediabox.height))  # the MediaBox may be inherited
    trim, bleed = _box(page, "/TrimBox"), _box(page, "/BleedBox")
    found = []
    is_tile = ctx.target == "manufacturer" or (ctx.target == "factory" and "spot:CutContour" in scan.inks)
    if ctx.target in ("manufacturer", "factory"):
        found.append(
            Finding(
                name,
                number,
                "TrimBox and BleedBox",
                "set" if trim and bleed else "missing",
                "both set",
                bool(trim and bleed),
            )
        )
    if is_tile:
        cw, ch = ctx.profile.canvas_mm
        found.append(
            Finding(
                name,
                number,
                "page size",
                f"{w:.2f} × {h:.2f} mm",
                f"{cw:.2f} × {ch:.2f} mm ({ctx.profile.name} canvas)",
                abs(w - cw) <= SIZE_TOLERANCE_MM and abs(h - ch) <= SIZE_TOLERANCE_MM,
            )
        )
        if trim:
            tw = trim[2] - trim[0]
            found.append(
                Finding(
                    name,
                    number,
                    "tile size",
                    f"{tw:.2f} mm trim width",
                    f"{ctx.profile.trim_width_mm:.2f} mm ({ctx.profile.name})",
                    abs(tw - ctx.profile.trim_width_mm) <= SIZE_TOLERANCE_MM,
                )
            )
    if trim and bleed:
        least = min(trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3])
        need = max(MIN_BLEED_MM, ctx.profile.bleed_mm) if is_tile else MIN_BLEED_MM
        found.append(Finding(name, number, "bleed", f"{least:.2f} mm", f"at least {need:.2f} mm", least >= need - 0.01))
    elif ctx.target == "home":
        found.append(_paper_size(name, number, w, h, filename))
    return found


def _paper_size(name: str, number: int, w: float, h: float, filename: str) -> Finding:
    sizes = {p: load_paper(p) for p in paper_names()}
    match = next(
        (
            p
            for p, paper in sizes.items()
            if {round(w, 1), round(h, 1)} == {round(paper.width_mm, 1), round(paper.height_mm, 1)}
        ),
        None,
    )
    cut = re.search(r"(\d+)x(\d+)mm", filename)
    if match is None and cut and {round(w), round(h)} == {int(cut.group(1)), int(cut.group(2))}:
        match = f"{cut.group(1)} × {cut.group(2)} mm as named"
    return Finding(
        name,
        number,
        "page size",
        f"{w:.1f} × {h:.1f} mm ({match or 'no known paper'})",
        "a known paper (papers.toml) or the size the file name gives",
        match is not None,
    )


def _marks(name: str, number: int, page, scan: PageScan) -> list[Finding]:
    """On tile sheets every short straight stroke is a mark and must miss every tile's clipped image; on a
    page with a TrimBox, a short stroke reaching out past the BleedBox is a mark and must not enter it."""
    from shapely.geometry import LineString, Point, Polygon, box

    short = [
        s
        for s in scan.strokes
        if len(s.points) == 2
        and not s.ink.startswith("spot:")
        and s.width_pt <= 1.0
        and math.dist(*s.points) <= MARK_MAX_MM * PT_PER_MM
    ]
    checks = []  # (mark, region it must stay out of)
    tile_sheet = name.rsplit("/", 1)[-1].startswith("tiles-")  # every clip on a tile sheet is a tile's bleed
    hexes = [Polygon(p.clip) for p in scan.placements if p.clip and (tile_sheet or len(set(p.clip)) > 4)]
    checks += [(m, r) for m in short for r in hexes]
    trim, bleed = _box(page, "/TrimBox"), _box(page, "/BleedBox")
    if trim and bleed:
        region = box(*(v * PT_PER_MM for v in bleed))
        checks += [(m, region) for m in short if any(not region.contains(Point(p)) for p in m.points)]
    if not checks:
        return []
    inside = {id(m) for m, r in checks if LineString(m.points).intersection(r.buffer(-0.03)).length > 0.03}
    marks = {id(m) for m, _ in checks}
    return [
        Finding(
            name,
            number,
            "crop marks outside the bleed",
            f"{len(inside)} of {len(marks)} marks inside",
            "every mark outside the bleed",
            not inside,
        )
    ]


def check_png(path: Path, data: bytes, ctx: Context) -> list[Finding]:
    """Pixel size, resolution and colour of a PNG against its target."""
    from PIL import Image

    name = str(path)
    try:
        image = Image.open(io.BytesIO(data))
        image.load()
    except Exception as err:  # noqa: BLE001 - any unreadable image is one finding
        return [Finding(name, None, "readable PNG", f"unreadable ({type(err).__name__})", "a valid PNG", False)]
    w, h = image.size
    dpi = image.info.get("dpi")
    found = [
        Finding(
            name, None, "colour space", image.mode, "RGB or RGBA (PNGs are never CMYK)", image.mode in ("RGB", "RGBA")
        )
    ]
    if ctx.target == "manufacturer":
        p = ctx.profile
        found.append(
            Finding(
                name,
                None,
                "pixel size",
                f"{w} × {h} px",
                f"{p.pixel_width} × {p.pixel_height} px ({p.name})",
                (w, h) == (p.pixel_width, p.pixel_height),
            )
        )
        found.append(
            Finding(
                name,
                None,
                "resolution",
                f"{dpi[0]:.0f} dpi" if dpi else "none recorded",
                f"{p.dpi} dpi",
                dpi is not None and abs(dpi[0] - p.dpi) < 0.5 and abs(dpi[1] - p.dpi) < 0.5,
            )
        )
        tagged = "srgb" in image.info or "icc_profile" in image.info
        found.append(
            Finding(name, None, "sRGB tag", "present" if tagged else "none", "an sRGB chunk or ICC profile", tagged)
        )
    if ctx.target == "vtt":
        found.append(
            Finding(
                name, None, "pixel size", f"{w} × {h} px", f"at most {VTT_MAX_PX} px a side", max(w, h) <= VTT_MAX_PX
            )
        )
    return found


def check_tile_sizes(pdf_subjects: dict[str, str], profile: Profile) -> list[Finding]:
    """The tile size the kit's sheets record (``tile N mm``) against the manufacturer profile's trim width."""
    found = []
    for name, subject in sorted(pdf_subjects.items()):
        match = re.search(r"; tile ([0-9.]+) mm;", subject)
        if match:
            size = float(match.group(1))
            found.append(
                Finding(
                    name,
                    None,
                    "tile size vs manufacturer profile",
                    f"{size:g} mm",
                    f"{profile.trim_width_mm:g} mm ({profile.name})",
                    abs(size - profile.trim_width_mm) <= SIZE_TOLERANCE_MM,
                )
            )
    return found
