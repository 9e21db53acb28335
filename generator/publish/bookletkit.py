"""A kit's rules booklet: what its templates see (``booklet_context``), the templates rendered in the kit's
language, and the two PDFs (reading order, and imposed for saddle stitching)."""

from __future__ import annotations

import io

from generator import __version__
from generator.play import default_rules
from generator.play.pictures import BAR_COLOUR
from generator.publish import booklet as bk
from generator.publish.art import ArtCache, printed_faces
from generator.publish.impose import impose_booklet
from generator.publish.pdf import DocInfo
from generator.publish.rulesbook import rules_context
from generator.publish.settings import PublishSettings, booklet_papers
from generator.publish.sources import Sources, provenance, source_name, theme_record
from generator.render.raster import px, render_pixels, svg_size_mm

THUMB_DPI = 200
THUMB_WIDTH_MM = 32.0  # the largest a thumbnail is drawn in the booklet


def _where(sides: list[tuple[str, str]]) -> str:
    return ", ".join(f"{t}{'F' if f == 'front' else 'B'}" for t, f in sides)


def references(board_name: str) -> dict | None:
    """The scores the designer's page compares with on this board (``references.toml``), or None."""
    from importlib import resources

    from generator.inputs import load_toml

    return load_toml(resources.files("generator.publish") / "references.toml", "generator/publish/references.toml").get(
        board_name
    )


def booklet_context(src: Sources, settings: PublishSettings) -> dict:
    """Everything the booklet templates may show, as plain data."""
    ts, board, say = src.tileset, src.board, src.language.name
    rules = rules_context(src.rules or default_rules(board), board, src.language)
    catalogue = _catalogue(ts)
    bridged = [
        {"tile": t.id, "face": f, "crossings": t.face(f).min_crossings}
        for t in ts
        for f in printed_faces(ts)
        if t.face(f).min_crossings
    ]
    return {
        "game": {"title": settings.title, "players": rules["players"]["text"]},
        "rules": rules,
        "play": _play(src),
        "tiles": {
            "count": len(ts),
            "sides": len(ts.sides()),
            "designs": len(catalogue),
            "bridge_sides": ts.bridges,
            "bridges": ts.crossings,
            "dup_score": ts.dup_score,
            "stubs": sum(len(s.stubs) for s in ts.sides()),
            **tile_words(ts.geometry),
        },
        "board": {
            "name": src.language.board_title(board),
            "slots": board.tile_count,
            "landmarks": [say(lm.name) for lm in board.landmarks],
            "connectors": len(board.connectors),
            "wide_landmarks": [say(lm.name) for lm in board.landmarks if len(lm.hexes) > 1],  # a project's older
            # templates loop over these names; the shipped ones word each group of one shape once (``wide_groups``)
            "wide_groups": wide_groups(board, say),
            "one_disc": True,  # every board draws a landmark of many cells as one disc (``render.board``)
        },
        "catalogue": catalogue,
        "catalogue_bridges": bridged[:8],
        "figures": src.figures.__dict__,
        "reference": references(src.board.name),
        "made": _made(src, settings),
    }


def wide_groups(board, say) -> list[dict]:
    """The landmarks of more than one cell, grouped by their number of cells (one paragraph a group): each group's
    printed names and its cells."""
    groups: dict[int, list[str]] = {}
    for lm in board.landmarks:
        if len(lm.hexes) > 1:
            groups.setdefault(len(lm.hexes), []).append(say(lm.name))
    return [{"names": names, "cells": cells} for cells, names in sorted(groups.items())]


def _play(src: Sources) -> dict | None:
    """The play figures the templates see, the players and the engine by the names the language prints."""
    if src.play is None:
        return None
    play, say = src.play.context(), src.language.name
    return {
        **play,
        "policy": ",".join(say(p, "players") for p in play["policy"].split(",")),
        "engine": say(play["engine"], "engines"),
    }


SIDES = {4: ("four-sided", "quarter", "three quarters"), 6: ("six-sided", "sixth", "five sixths")}
SHAPE_WORDS = {"hex": "hexagonal", "square": "square"}


def tile_words(geometry) -> dict:
    """How the booklet words the tiles' geometry: their shape and sides, the die that turns them, their trails."""
    sides, step, most = SIDES[geometry.edges]
    return {
        "shape": SHAPE_WORDS[geometry.shape],
        "sided": "double-sided" if geometry.faces == 2 else "single-sided",
        "faces": geometry.faces,
        "edges": geometry.edges,
        "ends_per_edge": geometry.ends_per_edge,
        "paired": geometry.trails == "pairs",
        "die": f"a {sides} die",
        "die_sides": sides,
        "step": step,
        "most": most,
    }


def _catalogue(ts) -> list[dict]:
    """Every design on the tiles, the most used first: its number, where it is, its trails and crossings."""
    groups: dict = {}
    for tile in ts:
        for face in printed_faces(ts):
            groups.setdefault(tile.face(face).canonical, []).append((tile.id, face))
    return [
        {
            "number": n,
            "tile": sides[0][0],
            "face": sides[0][1],
            "count": len(sides),
            "where": _where(sides),
            "sides": [{"tile": t, "face": f} for t, f in sides],
            "trails": len(design.trails),
            "crossings": design.min_crossings,
        }
        for n, (design, sides) in enumerate(sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])), start=1)
    ]


def _made(src: Sources, settings: PublishSettings) -> dict:
    """What made the kit: the version, the source, the print settings and the theme with its credits."""
    return {
        "version": __version__,
        "source": source_name(src),
        "settings": src.language.say(
            "settings",
            tile=src.language.numbers.short(src.tile_width_mm),
            bleed=src.language.numbers.short(settings.bleed_mm),
            dpi=settings.dpi,
        ),
        "theme": theme_record(src).get("name"),
        "credits": theme_record(src).get("credits", []),
    }


def rendered_templates(src: Sources, settings: PublishSettings) -> str:
    """The booklet's templates rendered with the kit's context, in its language."""
    return bk.render_markup(src.templates, booklet_context(src, settings), src.language.numbers)


def booklet_text(src: Sources, settings: PublishSettings) -> str:
    """The booklet's templates rendered, and checked to parse (done first, so template errors come early)."""
    markup = rendered_templates(src, settings)
    bk.parse_markup(markup, src.templates)
    return markup


def booklet_markup(src: Sources, settings: PublishSettings):
    """The booklet's templates rendered and parsed."""
    return bk.parse_markup(booklet_text(src, settings), src.templates)


def cover_art(src: Sources) -> tuple | None:
    """The theme's cover picture drawn at the booklet's resolution, and its height / width; None without one."""
    from reportlab.lib.utils import ImageReader

    from generator.render.theme import COVER_MM

    art = src.style.art if src.style is not None else None
    if art is None or art.cover is None:
        return None
    svg, height_mm = art.cover.picture(COVER_MM[0])
    width_px = px(COVER_MM[0], THUMB_DPI)
    return ImageReader(render_pixels(svg, width_px, round(width_px * height_mm / COVER_MM[0]))), height_mm / COVER_MM[0]


def accented(histogram_svg: str, look) -> str:
    """The play histogram with its bars in the booklet's accent colour (the theme's, where it sets one)."""
    return histogram_svg.replace(f'fill="{BAR_COLOUR}"', f'fill="{look.hex("accent")}"')


def pair_names(src: Sources) -> tuple[tuple[str, float], ...]:
    """The figures' landmark pairs ("Hut-Well") by the names the language prints."""
    board, say = src.board, src.language.name
    printed = {
        f"{board.landmarks[a].name}-{board.landmarks[b].name}": f"{say(board.landmarks[a].name)}-"
        f"{say(board.landmarks[b].name)}"
        for a, b in board.landmark_pairs()
    }
    return tuple((printed.get(name, name), value) for name, value in src.figures.pairs)


PAGES_A_SHEET = 4  # a saddle-stitched sheet: two pages a side


def page_count(pdf: bytes) -> int:
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(pdf)).pages)


COMPACT = (1.0, 0.94, 0.88)  # how tight each try sets the text: leading and spacing, as a share of the look's


def fewest_sheets(reading_pdf) -> bytes:
    """The booklet (``reading_pdf(tight)``) on the fewest sheets: each section on a page of its own in the look's
    spacing, unless that leaves the last sheet part empty; then the sections run on, with the leading and spacing
    tightened a step at a time (``COMPACT``), and the first that saves a sheet is kept (the French booklet's tenth
    page held one line, and cost a third sheet with two blank pages). A try stops as soon as it runs past the pages
    that would save a sheet (``reading_pdf(tight, flow, max_pages)`` raises ``TooManyPages``)."""
    pages = reading_pdf(COMPACT[0])
    count = page_count(pages)
    sheets = -(-count // PAGES_A_SHEET)
    if count % PAGES_A_SHEET == 0:
        return pages
    for tight in COMPACT:
        try:
            tighter = reading_pdf(tight, flow=True, max_pages=(sheets - 1) * PAGES_A_SHEET)
        except bk.TooManyPages:
            continue
        if -(-page_count(tighter) // PAGES_A_SHEET) < sheets:
            return tighter
    return pages


def tightened(look, tight: float):
    """``look`` with every style's leading and spacing ``tight`` times the look's (1: the look itself)."""
    if tight == 1.0:
        return look
    from dataclasses import replace

    styles = tuple(
        (name, replace(s, leading=max(s.size, s.leading * tight), space_before=s.space_before * tight,
                       space_after=s.space_after * tight))
        for name, s in look.styles
    )  # fmt: skip
    return replace(look, styles=styles)


def make_booklet(
    src: Sources, settings: PublishSettings, art: ArtCache, board_svg: str, root=None
) -> tuple[bytes, bytes]:
    """``rules.pdf`` (reading order) and ``rules-booklet.pdf`` (imposed for saddle stitching)."""
    root = booklet_markup(src, settings) if root is None else root
    by_id = {t.id: t for t in src.tileset}

    def thumb(tile_id: str, face: str):
        if tile_id not in by_id or face not in printed_faces(src.tileset):
            raise KeyError(tile_id)
        return art.thumb(by_id[tile_id], face, px(THUMB_WIDTH_MM, THUMB_DPI))

    bw, bh = svg_size_mm(board_svg)
    from reportlab.lib.utils import ImageReader

    small_w = px(110.0, THUMB_DPI)  # wide enough for any booklet page
    small_board = ImageReader(render_pixels(board_svg, small_w, round(small_w * bh / bw)))
    cover = tuple(thumb(t.id, f) for t in src.tileset for f in printed_faces(src.tileset))
    pictures: tuple = ()
    look = bk.themed_look(src.style)
    if src.play is not None:  # the game-length histogram, drawn at the booklet's width in its accent colour
        svg = accented(src.play.histogram_svg, look)
        hw, hh = svg_size_mm(svg)
        pictures = (("histogram", ImageReader(render_pixels(svg, small_w, round(small_w * hh / hw))), hh / hw),)
    resources = bk.Resources(
        thumb,
        small_board,
        (bw, bh),
        pair_names(src),
        cover,
        pictures,
        src.language.numbers,
        cover_art(src),
        art.outline,
    )
    paper, sheet = booklet_papers(settings)
    frame_width = paper.width_mm - 26.0
    info = DocInfo(f"{settings.title}: rules", provenance(src, settings), f"trailwright {__version__}")
    images = bk.EncodedImages()  # every trial layout draws the same images: each is compressed once

    def reading_pdf(tight: float, flow: bool = False, max_pages: int | None = None) -> bytes:
        tighter = tightened(look, tight)
        story = bk.build_story(root, resources, frame_width, src.templates, tighter, flow)
        return bk.booklet_pdf(story, paper, info, settings.title, src.templates, tighter, images, max_pages)

    reading = fewest_sheets(reading_pdf)
    imposed = impose_booklet(
        reading,
        sheet,
        {
            "/Title": f"{settings.title}: rules booklet (saddle stitch)",
            "/Creator": f"trailwright {__version__}",
            "/Producer": "trailwright (reportlab, pypdf)",
            "/Subject": info.subject,
        },
    )
    return reading, imposed
