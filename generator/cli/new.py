"""``trailwright new DIR``: a designer's project folder, every file in it, ready for every command."""

from __future__ import annotations

import argparse

from generator.cli.options import HelpFormatter, bounded_int, flag_value


def register(sub) -> None:
    """Add the ``new`` subcommand."""
    from generator.board.board import builtin_boards

    p = sub.add_parser(
        "new",
        help="make a project folder: tile set, board, rules, objective, style, settings and the booklet's words",
        description="Make DIR a project: a random tile set of the board's size, copies of the built-in board, "
        "rules, style and publish settings (with their comments), an objective to edit, the booklet's "
        "templates, and a README saying what each file is. Every command then takes DIR in place of its files.",
        formatter_class=HelpFormatter,
    )
    p.add_argument("folder", metavar="DIR", help="a new (or empty) folder")
    p.add_argument(
        "--board",
        default="classic",
        metavar="NAME|FILE",
        help=f"the board to copy: a built-in one ({', '.join(builtin_boards())}) or a board TOML file of yours",
    )
    p.add_argument("--seed", type=bounded_int(0, 2**32 - 1), default=0, help="the random tile set's seed")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Make the folder and say what is in it."""
    import numpy as np

    from generator.board import load_board
    from generator.errors import TrailwrightError
    from generator.model.tileset_io import dumps_tileset
    from generator.optimize import random_tileset
    from generator.optimize.space import allowed_designs
    from generator.play import default_rules
    from generator.play.rules import rules_file_text
    from generator.project import new_project
    from generator.scoring.objective import ARTICLE

    with flag_value("--board"):
        board = load_board(args.board)
        rules = None if args.board == "classic" else rules_file_text(default_rules(board))
    rng = np.random.default_rng([args.seed, 0])
    g = board.geometry
    tiles = random_tileset(board.tile_count, allowed_designs(ARTICLE.on(board), g), rng, g)
    tileset = dumps_tileset(tiles, {"made_by": "trailwright new", "board": board.name})  # the set alone names it
    try:
        folder = new_project(
            args.folder, *_board_copy(args.board), tileset, rules, lambda text: in_its_words(text, g), _tiles_are(g)
        )
    except OSError as err:
        raise TrailwrightError(f"cannot make the project here: {err.strerror or err}", args.folder) from None
    print(f"A new project in {folder}/ (see its README.md). Try:")
    for command in ("score", "playtest", "publish"):
        print(f"  trailwright {command} {folder}")
    return 0


def _board_copy(board: str) -> tuple[str, str]:
    """The text of the board file ``board`` names (a built-in name or a path, already checked) and, for the
    project's README, what it is a copy of."""
    from importlib import resources
    from pathlib import Path

    from generator.board.board import builtin_boards

    if board in builtin_boards():
        text = (resources.files("generator.board.boards") / f"{board}.toml").read_text(encoding="utf-8")
        return text, f"the built-in `{board}` board"
    return Path(board).read_text(encoding="utf-8"), f"`{Path(board).name.replace('`', '')}`"


_PART = {4: "quarter", 6: "sixth"}  # one edge's share of a whole turn


def in_its_words(text: str, geometry) -> str:
    """A shipped settings or style file as a project of ``geometry``'s tiles gets it: the profile its kit is cut to
    and the size its tiles are drawn at (both the shape's own, so ``render`` and ``publish`` agree), its cells named
    as the board names them. The classic game's files are the shipped ones, unchanged."""
    from generator.publish.settings import SHAPE_PROFILES, load_profile

    if geometry.shape == "hex":
        return text
    profile = load_profile(SHAPE_PROFILES[geometry.shape])
    lines = []
    for line in text.splitlines(keepends=True):
        key = line.split("=")[0].strip()
        if key == "profile":
            named = f'profile = "{profile.name}"'
            line = f"{named:<40}# manufacturer profile (see profiles.toml): the {geometry.shape} tiles' own\n"
        elif key == "width_mm":
            line = f"width_mm = {profile.trim_width_mm:g}            # edge to edge at the cut ({profile.title})\n"
        line = line.replace("# wall hexes", "# wall cells")
        lines.append(line.replace("(a sixth of a turn on hex tiles)", f"(a {_PART[geometry.edges]} of a turn here)"))
    return "".join(lines)


def _tiles_are(g) -> str:
    """What the project's tile set holds, for its README."""
    faces = "each tile's front and back" if g.faces == 2 else "each tile's one face"
    if g.is_classic:
        return f"{faces}, as trails of directions"
    ends = "the edges N, E, ..." if g.ends_per_edge == 1 else "N1, N2, E1, ...: two ends an edge"
    return f"{faces}, as trails of its ends ({ends})"
