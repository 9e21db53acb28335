"""The whole print-and-play kit as data: every output file's relative path and bytes.

Nothing here touches the filesystem except reading the booklet templates; the CLI writes the
result once every file has been made, swapping the whole kit in at one instant
(``generator.fileio.write_folder``), so a failed or killed run leaves the previous kit as it was.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from generator import __version__
from generator.board import Board
from generator.fileio import dumps_json
from generator.model import FACES, TileSet
from generator.play import Rules, default_rules
from generator.publish import booklet as bk
from generator.publish.art import ArtCache, SideArt, px, render_pixels
from generator.publish.boardsheets import BoardArt, board_large_pdf, board_tiled_pdf, svg_size_mm
from generator.publish.impose import impose_booklet
from generator.publish.layout import TileMarks, plan_duplex, plan_foldover
from generator.publish.manufacturer import ArtForWidth, manufacturer_files, profile_art, zip_bytes
from generator.publish.pdf import DocInfo
from generator.publish.playpage import PlayFigures
from generator.publish.rulesbook import rules_context
from generator.publish.settings import PublishSettings, load_paper, load_profile
from generator.publish.sheets import sheets_pdf
from generator.scoring.figures import Figures, tileset_digest

KIT_FOLDERS = ("print", "manufacturer")  # a kit's top-level folders: publish replaces these, keeps the rest
THUMB_DPI = 200
THUMB_WIDTH_MM = 32.0  # the largest a thumbnail is drawn in the booklet


@dataclass(frozen=True)
class Sources:
    """What the kit is made from: the model, the art, and where they came from."""

    tileset: TileSet
    board: Board
    art_for_width: ArtForWidth
    tile_width_mm: float
    board_svg: str
    figures: Figures
    source: str
    templates: Path
    rules: Rules | None = None  # the game the booklet words (None: the default rules for the board)
    play: PlayFigures | None = None  # a playtest of the default player count for the designer's page


def provenance(src: Sources, settings: PublishSettings) -> str:
    """One line recording how the kit was made: version, tile set digest, board, settings."""
    digest = tileset_digest(src.tileset)[:12]
    return (f"trailwright {__version__}; tile set {src.source} (sha256 {digest}); board {src.board.name}; "
            f"tile {src.tile_width_mm:g} mm; settings {dumps_json(settings.__dict__, sort_keys=True)}")


def _where(sides: list[tuple[str, str]]) -> str:
    return ", ".join(f"{t}{'F' if f == 'front' else 'B'}" for t, f in sides)


def booklet_context(src: Sources, settings: PublishSettings) -> dict:
    """Everything the booklet templates may show, as plain data."""
    ts, board = src.tileset, src.board
    rules = rules_context(src.rules or default_rules(board), board)
    groups: dict = {}
    for tile in ts:
        for face in FACES:
            groups.setdefault(tile.face(face).canonical, []).append((tile.id, face))
    catalogue = [
        {"number": n, "tile": sides[0][0], "face": sides[0][1], "count": len(sides), "where": _where(sides),
         "sides": [{"tile": t, "face": f} for t, f in sides],
         "trails": len(design.trails), "crossings": design.min_crossings}
        for n, (design, sides) in enumerate(sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])), start=1)
    ]
    bridged = [{"tile": t.id, "face": f, "crossings": t.face(f).min_crossings}
               for t in ts for f in FACES if t.face(f).min_crossings]
    return {
        "game": {"title": settings.title, "players": rules["players"]["text"]},
        "rules": rules,
        "play": src.play.context() if src.play else None,
        "tiles": {"count": len(ts), "sides": 2 * len(ts), "designs": len(groups), "bridge_sides": ts.bridges,
                  "bridges": ts.crossings, "dup_score": ts.dup_score,
                  "stubs": sum(len(s.stubs) for s in ts.sides())},
        "board": {"name": board.title or board.name, "slots": board.tile_count,
                  "landmarks": [lm.name for lm in board.landmarks], "connectors": len(board.connectors),
                  "wide_landmarks": [lm.name for lm in board.landmarks if len(lm.hexes) > 1]},
        "catalogue": catalogue,
        "catalogue_bridges": bridged[:8],
        "figures": src.figures.__dict__,
        "made": {"version": __version__, "source": src.source,
                 "settings": f"Tiles {src.tile_width_mm:g} mm, bleed {settings.bleed_mm:g} mm, "
                             f"art at {settings.dpi} dpi."},
    }


def booklet_markup(src: Sources, settings: PublishSettings):
    """The booklet's templates rendered and parsed (done first, so template errors come early)."""
    markup = bk.render_markup(src.templates, booklet_context(src, settings))
    return bk.parse_markup(markup, src.templates)


def make_booklet(src: Sources, settings: PublishSettings, art: ArtCache, board_svg: str, root=None
                 ) -> tuple[bytes, bytes]:
    """``rules.pdf`` (reading order) and ``rules-booklet.pdf`` (imposed for saddle stitching)."""
    root = booklet_markup(src, settings) if root is None else root
    by_id = {t.id: t for t in src.tileset}

    def thumb(tile_id: str, face: str):
        if tile_id not in by_id or face not in FACES:
            raise KeyError(tile_id)
        return art.thumb(by_id[tile_id], face, px(THUMB_WIDTH_MM, THUMB_DPI))

    bw, bh = svg_size_mm(board_svg)
    from reportlab.lib.utils import ImageReader

    small_w = px(110.0, THUMB_DPI)  # wide enough for any booklet page
    small_board = ImageReader(render_pixels(board_svg, small_w, round(small_w * bh / bw)))
    cover = tuple(thumb(t.id, f) for t in src.tileset for f in FACES)
    pictures = ()
    if src.play is not None:  # the game-length histogram, drawn at the booklet's width
        hw, hh = svg_size_mm(src.play.histogram_svg)
        pictures = (("histogram", ImageReader(render_pixels(src.play.histogram_svg, small_w, round(small_w * hh / hw))),
                     hh / hw),)
    resources = bk.Resources(thumb, small_board, (bw, bh), src.figures.pairs, cover, pictures)
    paper = load_paper(settings.booklet_paper)
    frame_width = paper.width_mm - 26.0
    story = bk.build_story(root, resources, frame_width, src.templates)
    info = DocInfo(f"{settings.title}: rules", provenance(src, settings), f"trailwright {__version__}")
    reading = bk.booklet_pdf(story, paper, info, settings.title, src.templates)
    imposed = impose_booklet(reading, load_paper(settings.imposition_paper),
                             {"/Title": f"{settings.title}: rules booklet (saddle stitch)",
                              "/Creator": f"trailwright {__version__}", "/Producer": "trailwright (reportlab, pypdf)",
                              "/Subject": info.subject})
    return reading, imposed


def publish_kit(src: Sources, settings: PublishSettings, progress: Callable[[str], None] = lambda s: None,
                workers: int = 1) -> dict[str, bytes]:
    """Every file of the kit, by path relative to the output folder (documents built on ``workers`` threads;
    the bytes do not depend on how many)."""
    prov = provenance(src, settings)
    made_with = f"trailwright {__version__}"
    markup = booklet_markup(src, settings)
    profile = load_profile(settings.profile)
    side_art = src.art_for_width(src.tile_width_mm)
    art = ArtCache.covering(side_art, src.tile_width_mm, settings.dpi, settings.bleed_mm)
    same = abs(profile.trim_width_mm - src.tile_width_mm) < 1e-6 and profile.dpi == settings.dpi
    maker_art = profile_art(side_art if same else src.art_for_width(profile.trim_width_mm), profile)
    fw, fh = maker_art.frame_mm
    if same and fw >= art.frame_mm[0] - 1e-6 and fh >= art.frame_mm[1] - 1e-6:
        art = maker_art  # one rendering per side serves the sheets, the booklet and the manufacturer
    marks = TileMarks.of(src.tile_width_mm, settings)
    n = len(src.tileset)
    plans = {(name, kind): planner(n, load_paper(name), marks, settings)  # a tile too big fails here, early
             for name in settings.papers for kind, planner in (("duplex", plan_duplex), ("foldover", plan_foldover))}
    sides = [(tile, face) for tile in src.tileset for face in FACES]

    def sheets(name: str, kind: str) -> bytes:
        paper = load_paper(name)
        info = DocInfo(f"{settings.title}: tiles, {paper.title} {kind}", prov, made_with)
        return sheets_pdf(plans[name, kind], src.tileset, art, settings, info)

    def boards(name: str, board_art: BoardArt) -> dict[str, bytes]:
        paper = load_paper(name)
        info = DocInfo(f"{settings.title}: the board", prov, made_with)
        sheet, large = board_large_pdf(board_art, paper, settings, info)
        _, tiled = board_tiled_pdf(board_art, paper, settings, info)
        return {f"print/board-{sheet.name}.pdf": large, f"print/board-{name}-tiled.pdf": tiled}

    def booklet() -> dict[str, bytes]:
        reading, imposed = make_booklet(src, settings, art, src.board_svg, markup)
        return {"print/rules.pdf": reading, "print/rules-booklet.pdf": imposed}

    def maker(mapper) -> dict[str, bytes]:
        made = manufacturer_files(src.tileset, maker_art, profile, prov, mapper)
        files = {f"manufacturer/{profile.name}/{name}": data for name, data in made.items()}
        files[f"manufacturer/{profile.name}.zip"] = zip_bytes(made, profile.name)
        return files

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        progress(f"drawing {len(sides)} tile sides and the board")
        board_job = pool.submit(BoardArt.of, src.board_svg, settings.board_dpi)
        list(pool.map(lambda side: art.packed(*side), sides))
        if maker_art is not art:
            list(pool.map(lambda side: maker_art.pixels(*side), sides))
        board_art = board_job.result()
        progress("laying out the tile sheets, the board, the rules booklet and the manufacturer files")
        files = maker(pool.map)  # the faces are encoded on every worker, before the documents queue up
        jobs = [pool.submit(lambda k=key: {f"print/tiles-{k[0]}-{k[1]}.pdf": sheets(*k)}) for key in plans]
        jobs += [pool.submit(boards, name, board_art) for name in settings.papers]
        jobs += [pool.submit(booklet)]
        for job in jobs:
            files.update(job.result())
    return dict(sorted(files.items()))


def layout_sources(tileset: TileSet, board: Board, style, figures: Figures, source: str, templates: Path,
                   rules: Rules | None = None, play=None) -> Sources:
    """Sources drawn by the layout stage (``generator.render``) in ``style``."""
    from dataclasses import replace

    from generator.publish.art import layout_art
    from generator.render.board import render_board

    def art_for_width(width_mm: float) -> SideArt:
        return layout_art(style if width_mm == style.tile_width_mm else replace(style, tile_width_mm=width_mm))

    return Sources(tileset, board, art_for_width, style.tile_width_mm, render_board(board, style), figures, source,
                   templates, rules, play)
