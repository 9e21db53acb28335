"""A designer's project folder: the files every command reads, in one place.

Glossary
--------
project   a folder holding ``tileset.json`` and any of ``board.toml``, ``rules.toml``, ``objective.toml``,
          ``style.toml``, ``settings.toml`` and ``templates/`` (``FILES``); ``theme = ...`` in its settings picks a
          theme for every command's art in place of ``style.toml``. ``trailwright new DIR`` makes one
          with every file (the built-in ones, copied with their comments) and a README saying what each is.
resolve   a command given a project folder reads its files where present and the defaults otherwise; a
          flag that names another file wins over the folder's (the flag is the more specific choice).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from generator.errors import TrailwrightError

FILES = {
    "tileset": "tileset.json",
    "board": "board.toml",
    "rules": "rules.toml",
    "objective": "objective.toml",
    "style": "style.toml",
    "settings": "settings.toml",
    "templates": "templates",
}

README = """# {title}

A Trailwright project: every command takes this folder in place of its files, for example
`trailwright publish {name}` or `trailwright studio {name}`. A flag that names another file wins
over the file here.

| file | what it is |
|---|---|
| `tileset.json` | the tile set: {tiles_are} |
| `board.toml` | the board: slots, landmarks, connectors (a copy of {board}) |
| `rules.toml` | the game's rules as data: start, landmarks to visit, goal, hazards, turning |
| `objective.toml` | what `optimize` looks for: the fitness weights, forbidden designs, a `[play]` target |
| `style.toml` | how tiles and board are drawn: colours, widths |
| `settings.toml` | how the kit is published: title, papers, sizes, play figures, the booklet's language, the theme |
| `templates/` | the rules booklet's words (jinja2 templates): English here, French in `fr/` (`publish --lang fr`) |
"""

OBJECTIVE = """# What `trailwright optimize` looks for (see docs/optimize.md and docs/play-optimize.md).
# The article's weights are the defaults; uncomment a line to change one.
# bridges_weight = -0.05
# dup_weight = -0.02
# fully_connected_weight = -1.0
# extra_edges_weight = -0.1
# pair_weight = 1.0
# max_trails = 4
# pinned = ["t01"]                 # tiles the search keeps (the studio's pins write this)
# designs the search never uses, each a whole side in the tiles' end names (the studio's forbids write this):
# forbid = [{forbid}]
# size_aware = true                # on a board far from 20 tiles: terms scaled to the classic board's size
#
# [play]                 # how the game should play, measured on simulated games
# median_rounds = 12
# min_lead_changes = 1.3
"""


def is_project(path: str | Path) -> bool:
    """Whether ``path`` is a project folder (a folder holding a tile set)."""
    return Path(path).is_dir() and (Path(path) / FILES["tileset"]).is_file()


def project_file(folder: str | Path, kind: str) -> str | None:
    """The folder's file of ``kind`` (a key of ``FILES``), or None when it has none."""
    path = Path(folder) / FILES[kind]
    return str(path) if path.exists() else None


def resolve(target: str, given: dict[str, str | None]) -> tuple[str, dict[str, str | None]]:
    """``target`` (a tile set file or a project folder) as (the tile set path, each file kind's path): a flag's
    value (``given``) wins; a project supplies the rest; None means the built-in default."""
    if not target.strip() or not Path(target).is_dir():  # an empty path is the reader's one-line error
        return target, dict(given)
    if not is_project(target):
        raise TrailwrightError(
            f"a folder without {FILES['tileset']}: not a project (make one with trailwright new)", target
        )
    paths = {kind: given.get(kind) or project_file(target, kind) for kind in FILES if kind != "tileset"}
    paths["style"] = given.get("style") or project_style(target)
    return str(Path(target) / FILES["tileset"]), paths


def project_style(folder: str | Path) -> str | None:
    """The look of the project's art: the theme its ``settings.toml`` names (``theme = "river"``, a shipped theme,
    or a folder relative to the project), else its ``style.toml``, else None (the built-in style)."""
    from generator.inputs import load_toml

    settings = project_file(folder, "settings")
    theme = load_toml(settings).get("theme") if settings is not None else None
    if theme is None or theme == "":
        return project_file(folder, "style")
    if not isinstance(theme, str):
        raise TrailwrightError(f"theme = {theme!r}: expected a theme folder or a shipped theme's name", settings)
    return theme_beside(theme, folder, settings)


def builtin_themes() -> list[str]:
    """The names of the themes shipped in the package (``generator/themes``)."""
    found = resources.files("generator").joinpath("themes")
    return sorted(t.name for t in found.iterdir() if t.joinpath("theme.toml").is_file())


def names_a_path(value: str) -> bool:
    """Whether a theme argument is written as a path (``./river``, ``/x/river``, ``themes/river``), not a name."""
    return "/" in value or "\\" in value or value.startswith((".", "~"))


def builtin_theme(value) -> bool:
    """Whether ``value`` names a shipped theme: its name, not written as a path. A shipped name wins over a folder of
    that name in the current directory; ``./river`` names the folder."""
    return isinstance(value, str) and not names_a_path(value) and value in builtin_themes()


def theme_beside(theme: str, folder: str | Path, source: str | None = None) -> str:
    """A settings file's ``theme`` (the file is ``source``, in ``folder``): a shipped theme's name, else the folder
    of that name beside the file (``./river`` for a folder that shares a shipped theme's name); anything else is an
    error naming the file."""
    if builtin_theme(theme):
        return theme
    inside = Path(folder) / theme
    if inside.is_dir():
        return str(inside)
    shipped = ", ".join(builtin_themes())
    raise TrailwrightError(f"theme = {theme!r}: no such folder beside it, and no shipped theme ({shipped})", source)


def _copy_words(source, target: Path) -> None:
    """The booklet's templates and language files under ``source`` (package data), copied into ``target``
    with their subfolders (one per language)."""
    target.mkdir()
    for item in sorted(source.iterdir(), key=lambda t: t.name):
        if item.is_dir():
            _copy_words(item, target / item.name)
        elif item.name.endswith((".j2", ".toml")):
            (target / item.name).write_text(item.read_text(encoding="utf-8"), encoding="utf-8")


def _a_side(tileset_json: str) -> str:
    """The tile set's first side, written as ``forbid`` takes it: the example of a forbidden design."""
    return json.dumps(json.loads(tileset_json)["tiles"][0]["front"])


def new_project(
    folder: str | Path,
    board_text: str,
    board_is: str,
    tileset_json: str,
    rules_text: str | None = None,
    speak: Callable[[str], str] = lambda text: text,
    tiles_are: str = "each tile's front and back, as trails of directions",
) -> Path:
    """Make the project ``folder`` (it must not exist, or be empty) with the board file ``board_text`` (already
    checked; ``board_is`` says in the README what it is a copy of); the rules are the booklet's (``rules_text``:
    the same game mapped onto another board's landmarks). ``speak`` words each shipped file for the board's tiles,
    and ``tiles_are`` says in the README what the tile set holds."""
    folder = Path(folder)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise TrailwrightError("exists and is not an empty folder: choose a new one", str(folder))
    stage = folder.with_name(f".{folder.name}.new")
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir(parents=True)
    try:
        copies = {
            FILES["rules"]: resources.files("generator.play") / "rules.toml",
            FILES["style"]: resources.files("generator.render") / "style.toml",
            FILES["settings"]: resources.files("generator.publish") / "publish.toml",
        }
        for name, source in copies.items():
            (stage / name).write_text(speak(source.read_text(encoding="utf-8")), encoding="utf-8")
        (stage / FILES["board"]).write_text(board_text, encoding="utf-8")
        if rules_text is not None:
            (stage / FILES["rules"]).write_text(speak(rules_text), encoding="utf-8")
        _copy_words(resources.files("generator.publish.booklet") / "templates", stage / FILES["templates"])
        (stage / FILES["objective"]).write_text(OBJECTIVE.format(forbid=_a_side(tileset_json)), encoding="utf-8")
        (stage / FILES["tileset"]).write_text(tileset_json, encoding="utf-8")
        title = folder.name.replace("-", " ").replace("_", " ").strip().title() or "My Maze"
        readme = README.format(title=title, name=folder.name, board=board_is, tiles_are=tiles_are)
        (stage / "README.md").write_text(readme, encoding="utf-8")
        if folder.exists():
            folder.rmdir()
        stage.rename(folder)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    return folder
