"""The whole print-and-play kit as data: every output file's relative path and bytes.

Nothing here touches the filesystem except reading the booklet templates; the CLI writes the
result once every file has been made, swapping the whole kit in at one instant
(``generator.fileio.write_folder``), so a failed or killed run leaves the previous kit as it was.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from generator import __version__
from generator.errors import TrailwrightError
from generator.fileio import dumps_json
from generator.publish import booklet as bk
from generator.publish.art import ArtCache, printed_faces
from generator.publish.boardsheets import BoardArt, board_large_pdf, board_tiled_pdf, fitting_dpi
from generator.publish.booklet.styles import chains, missing_faces, name_chain
from generator.publish.bookletkit import booklet_text, make_booklet
from generator.publish.fontchain import glyph_warning
from generator.publish.layout import DoesNotFit, TileMarks, plan_duplex, plan_foldover, plan_single
from generator.publish.manufacturer import manufacturer_files, profile_art, zip_bytes
from generator.publish.outline import Outline
from generator.publish.pdf import DocInfo
from generator.publish.settings import Profile, PublishSettings, load_paper, load_profile
from generator.publish.sheets import sheets_pdf
from generator.publish.sources import Sources, provenance, theme_record, title_font
from generator.render.artlimits import art_budget
from generator.render.raster import MAX_PIXELS
from generator.scoring.figures import tileset_digest

# a kit's top-level folders and files: publish replaces these as a whole (the documents not chosen this time
# are gone with the rest of the old kit), and keeps everything else in the output folder
KIT_FOLDERS = ("print", "manufacturer", "tiles", "factory", "tabletop", "play", "kit.json")

if TYPE_CHECKING:
    pass


Builder = Callable[["Kit"], dict[str, bytes]]


@dataclass(frozen=True)
class Kit:
    """What every document builder is given: the sources, the settings and the art they share."""

    src: Sources
    settings: PublishSettings
    profile: Profile
    art: ArtCache  # the tile sheets' and the booklet's pixels
    maker_art: ArtCache  # the manufacturer's pixels (``art`` itself when the sizes agree)
    provenance: str
    map: Callable  # ``map`` or an executor's, for a document's independent parts
    warn: Callable[[str], None]

    @property
    def made_with(self) -> str:
        """What made the files."""
        return f"trailwright {__version__}"

    def info(self, title: str) -> DocInfo:
        """A PDF's title, with the kit's provenance as its subject, and the face of the game's name."""
        words = tuple(sorted(self.src.language.group("sheets").items()))
        return DocInfo(f"{self.settings.title}: {title}", self.provenance, self.made_with, title_font(self.src), words)

    def each(self, parts: Mapping[str, Callable[[], dict[str, bytes]]]) -> dict[str, bytes]:
        """Every part's files; a part that does not fit its paper is skipped with a warning naming it."""

        def attempt(label: str) -> dict[str, bytes]:
            try:
                return parts[label]()
            except DoesNotFit as err:
                self.warn(f"skipped {label}: {err}")
                return {}

        files: dict[str, bytes] = {}
        for made in self.map(attempt, list(parts)):
            files.update(made)
        return files


def sheet_kinds(geometry) -> dict[str, Callable]:
    """The tile sheets a kit of ``geometry``'s tiles prints, by kind: duplex and fold-over for double-sided
    tiles; one single-sided sheet of fronts for single-sided tiles (nothing behind them to register or fold)."""
    if geometry.faces == 1:
        return {"single": plan_single}
    return {"duplex": plan_duplex, "foldover": plan_foldover}


def build_sheets(kit: Kit) -> dict[str, bytes]:
    """Duplex and fold-over tile sheets on every print-and-play paper (fronts only for single-sided tiles)."""
    geometry = kit.src.tileset.geometry
    marks = TileMarks.of(kit.src.tile_width_mm, kit.settings, geometry)
    n = len(kit.src.tileset)
    if geometry.faces == 1:
        kit.warn("skipped the duplex and fold-over sheets: single-sided tiles have no backs to print behind them")

    def sheets(name: str, kind: str, planner) -> dict[str, bytes]:
        paper = load_paper(name)
        plan = planner(n, paper, marks, kit.settings)
        info = kit.info(f"tiles, {paper.title} {kind}")
        return {f"print/tiles-{name}-{kind}.pdf": sheets_pdf(plan, kit.src.tileset, kit.art, kit.settings, info)}

    return kit.each(
        {
            f"print/tiles-{name}-{kind}.pdf": partial(sheets, name, kind, planner)
            for name in kit.settings.papers
            for kind, planner in sheet_kinds(geometry).items()
        }
    )


def build_board(kit: Kit) -> dict[str, bytes]:
    """The board on one large sheet and tiled over small ones, for every print-and-play paper."""
    dpi = fitting_dpi(kit.src.board_svg, kit.settings.board_dpi)
    if dpi < kit.settings.board_dpi:
        kit.warn(
            f"the tiled board is drawn at {dpi} dpi, not board_dpi = {kit.settings.board_dpi}: a board this large "
            f"would pass {MAX_PIXELS:,} pixels"
        )
    board_art = BoardArt.of(kit.src.board_svg, dpi)  # the tiled board's pixels
    info = kit.info("the board")

    def large(name: str) -> dict[str, bytes]:
        sheet, pdf = board_large_pdf(kit.src.board_svg, load_paper(name), kit.settings, info)
        return {f"print/board-{sheet.name}.pdf": pdf}

    def tiled(name: str) -> dict[str, bytes]:
        return {f"print/board-{name}-tiled.pdf": board_tiled_pdf(board_art, load_paper(name), kit.settings, info)[1]}

    parts = {}
    for name in kit.settings.papers:
        parts[f"the board on a large sheet for {name}"] = partial(large, name)
        parts[f"print/board-{name}-tiled.pdf"] = partial(tiled, name)
    return kit.each(parts)


def build_booklet(kit: Kit) -> dict[str, bytes]:
    """The rules in reading order and imposed for saddle stitching."""
    reading, imposed = make_booklet(kit.src, kit.settings, kit.art, kit.src.board_svg)
    return {"print/rules.pdf": reading, "print/rules-booklet.pdf": imposed}


def build_manufacturer(kit: Kit) -> dict[str, bytes]:
    """Per-face art for the manufacturer profile, its die line and manifest, and the lot zipped."""
    made = manufacturer_files(kit.src.tileset, kit.maker_art, kit.profile, kit.provenance, kit.map)
    files = {f"manufacturer/{kit.profile.name}/{name}": data for name, data in made.items()}
    files[f"manufacturer/{kit.profile.name}.zip"] = zip_bytes(made, kit.profile.name)
    return files


def build_factory(kit: Kit) -> dict[str, bytes]:
    """CMYK PDF/X for a punchboard factory: every face with its die line, and the board with bleed and marks."""
    from generator.publish.factory import factory_files

    return factory_files(kit.src.tileset, kit.maker_art, kit.profile, kit.src.board_svg, kit.settings, kit.provenance)


def build_tiles(kit: Kit) -> dict[str, bytes]:
    """The layout stage's SVGs, as ``trailwright render`` writes them: every side at its cut, and the board."""
    from generator.model.ids import id_width, side_file_name

    art = kit.src.art_for_width(kit.src.tile_width_mm)
    width = id_width(t.id for t in kit.src.tileset)
    files = {
        f"tiles/{side_file_name(tile.id, face, width)}": art(tile, face, 0.0).encode("utf-8")
        for tile in kit.src.tileset
        for face in printed_faces(kit.src.tileset)
    }
    files["tiles/board.svg"] = kit.src.board_svg.encode("utf-8")
    return files


def table_art(kit: Kit):
    """What the virtual tables are drawn from: the kit's own side art and board, in its style."""
    from dataclasses import replace

    from generator.render.style import load_style
    from generator.table import TableArt

    src = kit.src
    style = src.style or load_style(None)
    if abs(style.tile_width_mm - src.tile_width_mm) > 1e-9:
        style = replace(style, tile_width_mm=src.tile_width_mm)
    return TableArt(
        src.tileset,
        src.board,
        style,
        src.art_for_width(src.tile_width_mm),
        src.board_svg,
        kit.settings.title,
        kit.provenance,
        src.rules,
        src.language.table_words(src.board.geometry),
        src.language.code,
    )


def build_tabletop(kit: Kit) -> dict[str, bytes]:
    """A Tabletop Simulator saved object with its images and a README (``tabletop/``)."""
    from generator.table import tabletop_files

    if not kit.src.asset_url:
        kit.warn("skipped tabletop: no URL for its images (publish from the command line, or give --asset-url)")
        return {}
    return tabletop_files(table_art(kit), kit.src.asset_url)


def build_play(kit: Kit) -> dict[str, bytes]:
    """The browser play table, one self-contained page (``play/index.html``), shuffled by the settings' seed."""
    from generator.table import play_files

    return play_files(table_art(kit), kit.settings.seed)


# The documents ``publish`` can make, by name (``--only``, ``--skip`` and the ``documents`` setting name them).
DOCUMENTS: dict[str, Builder] = {
    "tiles": build_tiles,
    "sheets": build_sheets,
    "board": build_board,
    "booklet": build_booklet,
    "manufacturer": build_manufacturer,
    "factory": build_factory,
    "tabletop": build_tabletop,
    "play": build_play,
}
NEEDS_ART = {"sheets", "booklet"}  # documents drawn from the sheets' pixels
PROFILED = {"manufacturer", "factory"}  # documents cut to the manufacturer profile's size


def check_profile_size(profile: Profile, tile_width_mm: float, documents, shape: str = "hex") -> None:
    """The profile's die cuts the tiles the style draws, or an error saying how to make them agree."""
    if profile.shape != shape:
        raise TrailwrightError(
            f"profile {profile.name} cuts {profile.outline.name} tiles but these tiles are {Outline(shape).name}s: "
            f"choose a profile for them (profiles.toml), or --skip {','.join(sorted(documents))}"
        )
    if abs(profile.trim_width_mm - tile_width_mm) > 0.01:
        raise TrailwrightError(
            f"profile {profile.name} cuts {profile.trim_width_mm:g} mm tiles but the style draws {tile_width_mm:g} mm "
            f"tiles: set width_mm = {profile.trim_width_mm:g} in the style's [tile] table, choose a profile for "
            f"{tile_width_mm:g} mm tiles, or --skip {','.join(sorted(documents))}"
        )


def select_documents(names, documents: dict[str, Builder] = DOCUMENTS) -> tuple[str, ...]:
    """The named documents in registry order; an unknown name is an error listing the known ones."""
    unknown = sorted(set(names) - set(documents))
    if unknown:
        raise TrailwrightError(f"unknown document {unknown[0]!r} (known: {', '.join(documents)})")
    if not names:
        raise TrailwrightError(f"no documents chosen (known: {', '.join(documents)})")
    return tuple(name for name in documents if name in set(names))


def font_warnings(src: Sources, settings: PublishSettings, booklet: bool) -> list[str]:
    """A line for each text with a character no font of its chain has (the theme's, DejaVu, CJK), and one where a
    theme's text font comes without bold or italic faces."""
    look = bk.themed_look(src.style)
    texts = [(settings.title, f"title {settings.title!r}", name_chain(look))]
    if booklet:
        body = booklet_text(src, settings).replace(settings.title, "")
        texts.append((re.sub(r"<[^>]*>", " ", body), "the rules booklet", chains(look)["body"]))
    lines = [line for text, where, fonts in texts if (line := glyph_warning(text, where, fonts))]
    lacking = missing_faces(src.style) if booklet else None
    return lines + ([lacking] if lacking else [])


def publish_kit(
    src: Sources,
    settings: PublishSettings,
    progress: Callable[[str], None] = lambda s: None,
    workers: int = 1,
    warn: Callable[[str], None] = lambda s: None,
    documents: dict[str, Builder] = DOCUMENTS,
) -> dict[str, bytes]:
    """The files of every document ``settings.documents`` names, by path relative to the output folder.

    Documents are built on ``workers`` threads (the bytes do not depend on how many); one that cannot
    fit its paper is skipped with a ``warn`` naming it, and the rest are made."""
    chosen = select_documents(settings.documents, documents)
    for message in font_warnings(src, settings, "booklet" in chosen):  # template errors, too, come before drawing
        warn(message)
    profile = load_profile(settings.profile)
    if PROFILED & set(chosen):
        check_profile_size(profile, src.tile_width_mm, PROFILED & set(chosen), src.tileset.geometry.shape)
    side_art = src.art_for_width(src.tile_width_mm)
    outline = Outline.of(src.tileset.geometry)
    art = ArtCache.covering(side_art, src.tile_width_mm, settings.dpi, settings.bleed_mm, outline)
    maker_art = profile_art(src.art_for_width(src.tile_width_mm, False) if settings.production else side_art, profile)
    fw, fh = maker_art.frame_mm
    if (
        not settings.production
        and profile.dpi == settings.dpi
        and fw >= art.frame_mm[0] - 1e-6
        and fh >= art.frame_mm[1] - 1e-6
    ):
        art = maker_art  # one rendering per side serves the sheets, the booklet and the manufacturer
    sides = [(tile, face) for tile in src.tileset for face in printed_faces(src.tileset)]
    files: dict[str, bytes] = {}
    with (
        art_budget(settings.art_seconds),
        ThreadPoolExecutor(max_workers=max(1, workers)) as pool,
        ThreadPoolExecutor(max_workers=max(1, len(chosen))) as outer,
    ):
        kit = Kit(src, settings, profile, art, maker_art, provenance(src, settings), pool.map, warn)
        if NEEDS_ART & set(chosen):
            progress(f"drawing {len(sides)} tile sides")
            list(pool.map(lambda side: art.packed(*side), sides))
        progress(f"making {', '.join(chosen)}")
        # each document on its own thread; their parts share the pool, which never waits on anything
        for made in [outer.submit(documents[name], kit) for name in chosen]:
            files.update(made.result())
    if not files:
        raise TrailwrightError(f"nothing was made: every part of {', '.join(chosen)} was skipped")
    files["kit.json"] = kit_manifest(src, settings, chosen, files)
    return dict(sorted(files.items()))


def kit_manifest(src: Sources, settings: PublishSettings, chosen, files: dict[str, bytes]) -> bytes:
    """``kit.json``: the tile set (path and digest), board, settings and documents that made the kit, and every
    file's digest, so a kit is never mistaken for another tile set's (an older ``tileset.json`` beside it)."""
    record = {
        "format": "trailwright-kit/1",
        "made_with": f"trailwright {__version__}",
        "tileset": {"source": src.source, "sha256": tileset_digest(src.tileset)},
        "board": src.board.name,
        "tile_width_mm": src.tile_width_mm,
        "documents": list(chosen),
        "settings": settings.__dict__,
        **({"theme": theme_record(src)} if theme_record(src) else {}),
        "files": {name: hashlib.sha256(data).hexdigest() for name, data in sorted(files.items())},
    }
    return (dumps_json(record, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")
