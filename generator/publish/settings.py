"""Publishing settings as data: papers, manufacturer profiles and the publish options (TOML).

Every length here is in millimetres; inches in a profile file are converted on loading.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path

from generator.errors import TrailwrightError
from generator.inputs import MAX_SEED, Flag, Names, Number, OneOf, Text, Whole, check_table, is_number, load_toml
from generator.model.geometry import SHAPES
from generator.publish.outline import Outline
from generator.units import MM_PER_IN

MIN_MARGIN_MM = 10.0
MIN_LINE_PT = 0.25


@dataclass(frozen=True)
class Paper:
    """A sheet of paper, portrait; ``large`` names the big sheets for a whole board."""

    name: str
    title: str
    width_mm: float
    height_mm: float
    ruler: str = "mm"
    large: tuple[str, ...] = ()
    booklet: str = ""  # the booklet page imposed 2-up on this sheet, when it is a print-and-play paper

    def landscape(self) -> Paper:
        """The same sheet turned on its side."""
        return replace(self, width_mm=self.height_mm, height_mm=self.width_mm)


@dataclass(frozen=True)
class Profile:
    """A manufacturer's tile product: die shape and size, bleed, safe zone and the exact raster."""

    name: str
    title: str
    trim_width_mm: float
    bleed_mm: float
    safe_mm: float
    pixel_width: int
    pixel_height: int
    dpi: int
    shape: str = "hex"  # the die's shape: a tile geometry's (``generator.publish.outline``)

    @property
    def outline(self) -> Outline:
        """The die's outline."""
        return Outline(self.shape)

    @property
    def canvas_mm(self) -> tuple[float, float]:
        """The raster's size in millimetres."""
        return (self.pixel_width / self.dpi * MM_PER_IN, self.pixel_height / self.dpi * MM_PER_IN)


@dataclass(frozen=True)
class PublishSettings:
    """The publish options (see ``publish.toml`` for what each means)."""

    title: str = "Trailwright"
    documents: tuple[str, ...] = ("tiles", "sheets", "board", "booklet", "manufacturer", "tabletop", "play")
    papers: tuple[str, ...] = ("a4", "letter")
    profile: str = "thegamecrafter-medium-hex"
    margin_mm: float = 10.0
    bleed_mm: float = 3.0
    mark_offset_mm: float = 0.75
    mark_length_mm: float = 3.0
    mark_width_pt: float = 0.3
    gap_mm: float = 0.5
    cut_lines: bool = False
    production: bool = True
    footer_mm: float = 12.0
    dpi: int = 300
    board_dpi: int = 200
    board_overlap_mm: float = 15.0
    booklet_paper: str = "auto"
    imposition_paper: str = "auto"
    score_samples: int = 100000
    seed: int = 1
    play_games: int = 400
    language: str = "en"  # the booklet's language: templates/ (en) or templates/<language>/
    art_seconds: float = 600.0  # the whole kit's drawing time (``render.artlimits.art_budget``)
    theme: str = ""  # a project's theme (``generator.project.project_style``): a folder or a shipped theme's name
    back_offset_mm: tuple[float, float] = (0.0, 0.0)  # [printer] back_offset_mm: shift of every duplex back page


def _packaged(name: str) -> tuple[str, dict]:
    source = f"generator/publish/{name}"
    return source, load_toml(resources.files("generator.publish") / name, source)


_LENGTH = Number(0.001, 2000.0)  # a positive length in the file's unit
_PAPER = {
    "title": Text(),
    "width_mm": _LENGTH,
    "height_mm": _LENGTH,
    "ruler": OneOf(("mm", "in")),
    "large": Names(),
    "booklet": Text(),
}
_PROFILE = {
    "title": Text(),
    "unit": OneOf(("mm", "in")),
    "trim_width": _LENGTH,
    "bleed": Number(0.0, 100.0),
    "safe": Number(0.0, 100.0),
    "pixel_width": Whole(1, 20000),
    "pixel_height": Whole(1, 20000),
    "dpi": Whole(1, 2400),
    "shape": OneOf(SHAPES),
}
# the profile a kit of other tiles than the classic hexagons is cut to when the settings keep the default one
SHAPE_PROFILES = {"hex": "thegamecrafter-medium-hex", "square": "square-50mm"}


def kit_profile(settings: PublishSettings, geometry, named: bool = False) -> PublishSettings:
    """The settings a kit of ``geometry``'s tiles is cut with: the profile they name, or, where they keep the default
    one and the tiles are of another shape, the shape's own (``SHAPE_PROFILES``); ``named``: the profile was typed,
    and is kept (a profile of another shape is then refused where the kit is made)."""
    if named or settings.profile != PublishSettings.profile or geometry.shape == "hex":
        return settings
    return replace(settings, profile=SHAPE_PROFILES[geometry.shape])


def tile_width_mm(style_width_mm: float, geometry, settings: PublishSettings) -> float:
    """The one size every stage draws a tile at (``render``, ``preview``, the kit and its tables): the classic game's
    hexagon at the style's width (its profile is checked against it), any other tiles at their profile's trim
    width (``kit_profile``), so a square tile drawn by ``render`` is the tile the kit prints."""
    if geometry.is_classic:
        return style_width_mm
    return load_profile(kit_profile(settings, geometry).profile).trim_width_mm


SETTINGS: dict = {
    "title": Text(),
    "papers": Names(),
    "profile": Text(),
    "margin_mm": Number(0.0, 200.0),
    "bleed_mm": Number(0.0, 20.0),
    "mark_offset_mm": Number(0.0, 20.0),
    "mark_length_mm": Number(0.0, 50.0),
    "mark_width_pt": Number(0.0, 10.0),
    "gap_mm": Number(0.0, 100.0),
    "cut_lines": Flag(),
    "footer_mm": Number(0.0, 100.0),
    "dpi": Whole(1, 1200),
    "board_dpi": Whole(1, 600),
    "board_overlap_mm": Number(0.0, 200.0),
    "booklet_paper": Text(),
    "imposition_paper": Text(),
    "score_samples": Whole(1, 10_000_000),
    "seed": Whole(0, MAX_SEED),
    "play_games": Whole(0, 100_000),
    "art_seconds": Number(1.0, 86_400.0),
    "language": Text(longest=16),
    "theme": Text(longest=400, empty=True),
}  # the schema of a settings file: every key of PublishSettings, each with its bounds


def _required(table: dict, keys, where: str, source: str) -> None:
    for key in keys:
        if key not in table:
            raise TrailwrightError(f"{where}: missing key {key!r}", source)


def _papers() -> tuple[str, dict]:
    return _packaged("papers.toml")


def paper_names() -> list[str]:
    """The names of the known papers."""
    return sorted(_papers()[1])


def load_paper(name: str) -> Paper:
    """A known paper by name (``a4``, ``letter``, ...); an unknown name is an error listing them."""
    source, data = _papers()
    key = name.lower()
    if key not in data:
        raise TrailwrightError(f"unknown paper {name!r} (known: {', '.join(sorted(data))})")
    where = f"[{key}]"
    table = check_table(data[key], _PAPER, where, source)
    _required(table, ("width_mm", "height_mm"), where, source)
    large = table.get("large", ())
    for other in large:
        if other not in data:
            raise TrailwrightError(f"{where} large: names unknown paper {other!r}", source)
    booklet = table.get("booklet", "")
    if booklet and booklet not in data:
        raise TrailwrightError(f"{where} booklet: names unknown paper {booklet!r}", source)
    return Paper(
        key, table.get("title", key), table["width_mm"], table["height_mm"], table.get("ruler", "mm"), large, booklet
    )


AUTO = "auto"


def booklet_papers(settings: PublishSettings) -> tuple[Paper, Paper]:
    """The booklet's page and the sheet it is imposed on: by default the first print-and-play paper and its
    booklet page (A5 on A4, half-letter on Letter), so the booklet prints at 100%."""
    sheet = load_paper(settings.papers[0] if settings.imposition_paper == AUTO else settings.imposition_paper)
    if settings.booklet_paper != AUTO:
        return load_paper(settings.booklet_paper), sheet
    if sheet.booklet:
        return load_paper(sheet.booklet), sheet
    return Paper(f"half-{sheet.name}", f"half {sheet.title}", sheet.height_mm / 2, sheet.width_mm, sheet.ruler), sheet


def profile_names() -> list[str]:
    """The names of the known manufacturer profiles."""
    return sorted(_packaged("profiles.toml")[1])


def load_profile(name: str) -> Profile:
    """A manufacturer profile by name; lengths converted to millimetres."""
    source, data = _packaged("profiles.toml")
    if name not in data:
        raise TrailwrightError(f"unknown manufacturer profile {name!r} (known: {', '.join(sorted(data))})")
    where = f"[{name}]"
    table = check_table(data[name], _PROFILE, where, source)
    _required(table, ("trim_width", "bleed", "safe", "pixel_width", "pixel_height", "dpi"), where, source)
    scale = MM_PER_IN if table.get("unit", "mm") == "in" else 1.0
    profile = Profile(
        name,
        table.get("title", name),
        table["trim_width"] * scale,
        table["bleed"] * scale,
        table["safe"] * scale,
        table["pixel_width"],
        table["pixel_height"],
        table["dpi"],
        table.get("shape", "hex"),
    )
    cw, ch = profile.canvas_mm
    if (
        profile.trim_width_mm + 2 * profile.bleed_mm > cw + 0.5
        or profile.outline.height(profile.trim_width_mm) > ch + 1e-9
    ):
        raise TrailwrightError(
            f"{where}: the {profile.outline.name} and its bleed do not fit the "
            f"{profile.pixel_width}×{profile.pixel_height} px canvas",
            source,
        )
    return profile


MAX_BACK_OFFSET_MM = 20.0


def back_offset(value, where: str, source: str | None = None) -> tuple[float, float]:
    """``[x, y]`` in mm, each within ±20 mm, as a tuple; else an error naming ``where``."""
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 2
        or not all(is_number(v) for v in value)
        or not all(abs(v) <= MAX_BACK_OFFSET_MM for v in value)
    ):
        raise TrailwrightError(
            f"{where}: {value!r} must be [x, y] in mm, each from -{MAX_BACK_OFFSET_MM:g} to "
            f"{MAX_BACK_OFFSET_MM:g} (back_offset_mm)",
            source,
        )
    return (float(value[0]), float(value[1]))


def _printer(value, where: str, source: str | None = None) -> dict:
    """The ``[printer]`` table: ``back_offset_mm = [x, y]``."""
    return check_table(value, {"back_offset_mm": back_offset}, where, source)


SETTINGS.update({"documents": Names(), "production": Flag(), "printer": _printer})


def settings_from_dict(data: dict, source: str) -> PublishSettings:
    """Validate a parsed settings table: every key known, every value of the right kind and in range."""
    values = check_table(data, SETTINGS, "", source)
    values.update(values.pop("printer", {}))  # [printer] back_offset_mm is the field back_offset_mm
    return check_settings(replace(PublishSettings(), **values), source)


def check_settings(
    settings: PublishSettings, source: str = "settings", flags: Mapping[str, str] | None = None
) -> PublishSettings:
    """Reject settings that cannot print well; every named paper and profile must exist. An error names the
    flag a value came from (``flags``: setting -> flag, e.g. ``{"title": "--title"}``), else ``source`` and
    the key."""
    flags = flags or {}

    def fail(key: str, problem: str) -> TrailwrightError:
        return TrailwrightError(problem, flags[key]) if key in flags else TrailwrightError(f"{key}: {problem}", source)

    if "title" in flags:
        SETTINGS["title"](settings.title, "", flags["title"])
    else:
        SETTINGS["title"](settings.title, "title", source)
    if settings.margin_mm < MIN_MARGIN_MM:
        raise TrailwrightError(
            f"margin_mm = {settings.margin_mm:g} is under the printer-safe {MIN_MARGIN_MM:g} mm", source
        )
    if settings.mark_width_pt < MIN_LINE_PT:
        raise TrailwrightError(f"mark_width_pt = {settings.mark_width_pt:g} is under {MIN_LINE_PT} pt", source)
    if settings.dpi < 150:
        raise fail("dpi", f"{settings.dpi} is under 150")
    if settings.board_dpi < 100:
        raise fail("board_dpi", f"{settings.board_dpi} is under 100")
    named = [("papers", n) for n in settings.papers]
    named += [(key, getattr(settings, key)) for key in ("booklet_paper", "imposition_paper")]
    for key, name in named:
        if name == AUTO and key != "papers":
            continue
        try:
            load_paper(name)
        except TrailwrightError as err:
            raise fail(key, str(err)) from None
    try:
        load_profile(settings.profile)
    except TrailwrightError as err:
        raise fail("profile", str(err)) from None
    return settings


def load_settings(path: str | Path | None = None) -> PublishSettings:
    """The packaged defaults, or a settings file (which may set any subset of the keys)."""
    if path is None:
        source, data = _packaged("publish.toml")
    else:
        source = str(path)
        data = load_toml(path, source)
    return settings_from_dict(data, source)
