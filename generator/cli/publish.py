"""``trailwright publish``: the print-and-play kit, the rules booklet and manufacturer files."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from generator.cli.calibrate import add_back_offset_option
from generator.cli.options import (
    HelpFormatter,
    add_board_option,
    add_style_option,
    add_tileset_argument,
    flag_value,
    load_style_option,
    threads_int,
    warn_strangers,
)


def default_templates() -> Path:
    """The booklet templates shipped in the package; never a folder that happens to be in the current one
    (``--templates DIR`` names another)."""
    from generator.publish.booklet import TEMPLATES

    return TEMPLATES


def name_list(text: str) -> tuple[str, ...]:
    """An argparse type for ``a,b,c``: names, none empty."""
    names = tuple(n.strip() for n in text.split(","))
    if not all(names):
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of names")
    return names


def chosen_documents(settings_documents, only, skip, target: str = "home", source: str = "settings") -> tuple[str, ...]:
    """The settings' documents, or ``--only``'s, with ``factory`` for ``--for factory``, without ``--skip``'s."""
    from generator.errors import TrailwrightError
    from generator.publish.kit import select_documents

    extra = ("factory",) if target == "factory" else ()
    if only:
        with flag_value("--only"):
            base = select_documents((*only, *extra))
    else:
        try:
            base = select_documents((*settings_documents, *extra))
        except TrailwrightError as err:
            raise TrailwrightError(f"documents: {err}", source) from None
    skip = skip or ()
    with flag_value("--skip"):
        select_documents(skip or base)  # a misspelt --skip is an error, not a no-op
    names = tuple(n for n in base if n not in skip)
    if not names:
        raise TrailwrightError("leaves no documents to make", "--skip")
    return names


def register(sub) -> None:
    """Add the ``publish`` subcommand, its options in three groups as ``--help`` shows them."""
    p = sub.add_parser(
        "publish",
        help="lay out the print-and-play kit, the rules booklet and manufacturer files",
        description="Render a tile set and its board and publish everything into OUT: print/ (duplex and "
        "fold-over tile sheets, the board, the rules), manufacturer/ (per-face art, die line, "
        "manifest, zip), tabletop/ (a Tabletop Simulator saved object) and play/ (a browser play "
        "table).",
        formatter_class=HelpFormatter,
    )
    add_tileset_argument(p)
    _game_options(p.add_argument_group("the game and its look"))
    _document_options(p.add_argument_group("which documents, on what"))
    g = p.add_argument_group("where and how fast")
    g.add_argument("--out", metavar="DIR", default="output", help="output folder")
    g.add_argument(
        "--workers",
        type=threads_int,
        default=None,
        metavar="N",
        help="threads that build documents at once (1 to 256; default: the cores this process may use, at most 4; "
        "the bytes do not depend on it)",
    )
    p.set_defaults(run=run)


def _game_options(g) -> None:
    add_board_option(g)
    g.add_argument(
        "--rules",
        metavar="FILE",
        default=None,
        help="the game's rules TOML the booklet words (default: generator/play/rules.toml)",
    )
    add_style_option(g, "layout style")
    g.add_argument(
        "--settings",
        metavar="FILE",
        default=None,
        help="a publish settings TOML (default: generator/publish/publish.toml)",
    )
    g.add_argument(
        "--templates",
        metavar="DIR",
        default=None,
        help="a folder of rules booklet templates (default: the package's own, "
        "templates/, or a project's own); they run sandboxed",
    )
    g.add_argument("--title", default=None, help="the game's name (default: from settings)")
    g.add_argument(
        "--lang",
        metavar="CODE",
        default=None,
        help="the rules booklet's language: en (the templates folder) or a subfolder of it, e.g. fr "
        "(default: from settings, en)",
    )


def _document_options(g) -> None:
    g.add_argument(
        "--only",
        type=name_list,
        metavar="A,B",
        default=None,
        help="make only these documents, e.g. sheets,booklet (an unknown name lists the known ones; "
        "default: the settings' documents)",
    )
    g.add_argument("--skip", type=name_list, metavar="A,B", default=None, help="leave these documents out")
    g.add_argument(
        "--for",
        dest="target",
        choices=("home", "factory"),
        default="home",
        help="factory: also make output/factory/ (CMYK PDF/X through ghostscript)",
    )
    g.add_argument(
        "--paper",
        action="append",
        metavar="NAME",
        help="print-and-play paper, repeatable (default: the settings' papers, a4 and letter)",
    )
    g.add_argument("--profile", metavar="NAME", default=None, help="manufacturer profile (default: from settings)")
    g.add_argument("--cut-lines", action="store_true", help="draw the tiles' cut line (hexagon or square) over the art")
    add_back_offset_option(g)
    g.add_argument(
        "--asset-url",
        metavar="URL",
        default=None,
        help="where Tabletop Simulator loads tabletop/ from when you host it, e.g. "
        "https://example.org/game/tabletop/ (default: file:// addresses of OUT/tabletop/)",
    )


def run(args: argparse.Namespace) -> int:
    """Publish the kit and list where each file went."""
    from dataclasses import replace

    from generator.board import load_board
    from generator.errors import TrailwrightError
    from generator.fileio import check_folder, write_folder
    from generator.model import read_tileset
    from generator.play import load_rules
    from generator.publish.claims import claim_warnings
    from generator.publish.kit import KIT_FOLDERS, publish_kit
    from generator.publish.language import load_language
    from generator.scoring.stream import available_cores
    from generator.scoring.tables import check_size
    from generator.table.tabletop import check_asset_base

    out = check_folder(args.out)  # before any work
    settings, settings_source = _settings(args)
    with flag_value("--asset-url"):
        asset_url = check_asset_base(args.asset_url or (Path(args.out) / "tabletop").resolve().as_uri())
    templates = Path(args.templates) if args.templates else default_templates()
    if not (templates / "booklet.xml.j2").is_file():
        raise TrailwrightError("missing template 'booklet.xml.j2'", str(templates))
    with flag_value("--lang" if args.lang else f"{settings_source}: language"):
        language = load_language(templates, settings.language)
    with flag_value("--board"):
        board = load_board(args.board)
    with flag_value("--rules"):
        load_rules(args.rules, board)  # a bad rules file fails here, before any work
    tileset = read_tileset(args.tileset)
    check_size(tileset, board, args.tileset)
    settings = _kit_profile(args, settings, board.geometry)
    sources = replace(make_sources(args, tileset, board, settings, language), asset_url=asset_url)
    warnings: list[str] = []

    def warn(message: str) -> None:
        warnings.append(message)
        print(f"publish: warning: {message}", file=sys.stderr, flush=True)

    for line in claim_warnings(sources, settings):  # the text says something the simulated games contradict
        print(f"publish: warning: {line}", file=sys.stderr, flush=True)
    files = publish_kit(
        sources,
        settings,
        progress=lambda what: print(f"publish: {what} ...", flush=True),
        workers=args.workers or min(4, available_cores()),
        warn=warn,
    )
    print(f"publish: writing {len(files)} files into {args.out} ...", flush=True)
    write_folder(out, files, owns=KIT_FOLDERS.__contains__)  # the old kit or the new one, never a mix
    print_listing(Path(args.out), files)
    for message in warnings:
        print(f"  {'not made' if message.startswith('skipped') else 'warning'}: {message}")
    return 0


def _kit_profile(args: argparse.Namespace, settings, geometry):
    """The profile the kit is cut at, never replaced in silence: ``--profile``'s; else the settings file's (one of
    another shape than the tiles is one line naming the file, before any work); else the tiles' own, said."""
    from generator.errors import TrailwrightError
    from generator.inputs import load_toml
    from generator.publish.kit import PROFILED
    from generator.publish.settings import SHAPE_PROFILES, kit_profile, load_profile

    named = args.profile is not None
    if not named and args.settings is not None and "profile" in load_toml(args.settings):
        with flag_value(f"{args.settings}: profile"):
            shape = load_profile(settings.profile).shape
        if shape != geometry.shape and PROFILED & set(settings.documents):
            raise TrailwrightError(
                f"profile = {settings.profile!r} cuts {shape} tiles, but the board's tiles are {geometry.shape}: "
                f"name {SHAPE_PROFILES[geometry.shape]!r} (or another {geometry.shape} profile of profiles.toml)",
                args.settings,
            )
        named = True
    chosen = kit_profile(settings, geometry, named=named)
    if chosen.profile != settings.profile:
        note = f"publish: profile {chosen.profile!r}, {geometry.shape} tiles' own (--profile names another)"
        print(note, file=sys.stderr)
    return chosen


def _settings(args: argparse.Namespace):
    """The publish settings with the flags that override them, checked; and how errors name them. A settings
    file's theme becomes ``args.style`` when no ``--style`` is given."""
    from dataclasses import replace

    from generator.project import theme_beside
    from generator.publish.settings import check_settings, load_settings

    with flag_value("--settings"):
        settings = load_settings(args.settings)
    source = args.settings or "the default settings"
    if args.style is None and settings.theme:  # a settings file outside a project may name the theme too
        args.style = theme_beside(settings.theme, Path(args.settings).parent if args.settings else ".", source)
    overrides: dict[str, Any] = {}
    flags: dict[str, str] = {}
    for key, flag, value in (
        ("papers", "--paper", tuple(args.paper or ())),
        ("profile", "--profile", args.profile),
        ("cut_lines", "--cut-lines", args.cut_lines),
        ("title", "--title", args.title),
        ("language", "--lang", args.lang),
        ("back_offset_mm", "--back-offset", args.back_offset),
    ):
        if value not in (None, (), False):
            overrides[key], flags[key] = value, flag
    overrides["documents"] = chosen_documents(settings.documents, args.only, args.skip, args.target, source)
    return check_settings(replace(settings, **overrides), source, flags), source


def make_sources(args: argparse.Namespace, tileset, board, settings, language):
    """The layout stage's art in the chosen style, the rules, the designer's figures (see ``figures``) and
    play figures, the booklet in ``language`` (``generator.publish.language.Language``)."""
    from generator.errors import TrailwrightError
    from generator.play import load_rules
    from generator.publish.playpage import simulate_play
    from generator.publish.settings import tile_width_mm
    from generator.publish.sources import layout_sources
    from generator.scoring.stream import available_cores
    from generator.warm import announce

    try:
        style = load_style_option(args.style, "publish")
    except ImportError:
        raise TrailwrightError("the layout stage (generator.render) is not installed") from None
    warn_strangers(style, board, "publish")
    rules = load_rules(args.rules, board)
    games = settings.play_games if "booklet" in settings.documents else 0  # only the booklet shows how it plays
    if games:
        announce(["play", "measures"])
    play = simulate_play(tileset, board, rules, games, settings.seed, language, available_cores())
    style = replace(style, tile_width_mm=tile_width_mm(style.tile_width_mm, board.geometry, settings))
    found = figures(args.tileset, tileset, board, settings)
    return layout_sources(tileset, board, style, found, args.tileset, language.templates, rules, play, language)


def figures(path: str, tileset, board, settings):
    """The figures ``optimize`` recorded in the tile set's ``meta`` block when they are for this tile set,
    board and objective; else score ``settings.score_samples`` layouts now."""
    from generator.model import read_meta
    from generator.scoring import score
    from generator.scoring.figures import figures_from_meta, figures_from_score

    found, why = figures_from_meta(read_meta(path), tileset, board)
    if found is not None:
        print(f"publish: the designer's figures from the tile set's meta block ({why})", flush=True)
        return found
    print(f"publish: scoring {settings.score_samples:,} layouts for the designer's page ({why}) ...", flush=True)
    return figures_from_score(score(tileset, board, samples=settings.score_samples, seed=settings.seed))


def print_listing(out: Path, files: dict[str, bytes]) -> None:
    """Where each file is, with a word on what it is for."""
    notes = {
        "duplex": "print double-sided, flip on the long edge",
        "foldover": "single-sided: fold, glue, cut",
        "-single": "single-sided tiles: print on one side, then cut",
        "tiled": "the board over small sheets, to tape together",
        "rules.pdf": "the rules, booklet pages in reading order",
        "rules-booklet.pdf": "the rules imposed 2-up: print double-sided (short edge), fold, staple",
    }
    print(f"\nThe kit is in {out}/ (kit.json records the tile set, settings and every file's digest):")
    if any(n.startswith("tiles/") for n in files):
        print(f"  {out / 'tiles'}/  (every tile side and the board as SVG, as trailwright render draws them)")
    for name in sorted(n for n in files if n.startswith("print/")):
        note = next((v for k, v in notes.items() if k in name), "the board on one large sheet")
        print(f"  {out / name}  ({note})")
    folders = sorted({n.rsplit("/", 1)[0] for n in files if n.startswith("manufacturer/") and n.count("/") >= 2})
    for folder in folders:
        inside = [n for n in files if n.startswith(folder + "/")]
        faces = [n for n in inside if n.rsplit("/", 1)[1].startswith("tile-")]
        pngs = sum(n.endswith(".png") for n in faces)
        pdfs = sum(n.endswith(".pdf") for n in faces)
        print(f"  {out / folder}/  ({pngs} PNG and {pdfs} vector PDF faces, dieline.pdf, manifest.csv)")
    if "factory/README.txt" in files:
        print(f"  {out / 'factory'}/  (CMYK PDF/X: tiles.pdf with the CutContour die line, board.pdf; README.txt)")
    for name in sorted(n for n in files if n.startswith("manufacturer/") and n.endswith(".zip")):
        print(f"  {out / name}  (the manufacturer folder, zipped)")
    for name in sorted(n for n in files if n.startswith("tabletop/") and n.endswith(".json")):
        print(
            f"  {out / name}  (a Tabletop Simulator saved object: "
            f"{out / 'tabletop' / 'README.txt'} says how to load it)"
        )
    if "play/index.html" in files:
        print(f"  {out / 'play' / 'index.html'}  (the play table: open it in a browser; ?seed=N shares a maze)")
