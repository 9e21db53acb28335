"""Publishing settings as data: papers, manufacturer profiles and the publish options (TOML).

Every length here is in millimetres; inches in a profile file are converted on loading.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields, replace
from importlib import resources
from pathlib import Path
from typing import Any

from generator.errors import TrailwrightError

MM_PER_IN = 25.4
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

    def landscape(self) -> "Paper":
        """The same sheet turned on its side."""
        return replace(self, width_mm=self.height_mm, height_mm=self.width_mm)


@dataclass(frozen=True)
class Profile:
    """A manufacturer's hex-tile product: die size, bleed, safe zone and the exact raster."""

    name: str
    title: str
    trim_width_mm: float
    bleed_mm: float
    safe_mm: float
    pixel_width: int
    pixel_height: int
    dpi: int

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
    back_offset_mm: tuple[float, float] = (0.0, 0.0)  # [printer] back_offset_mm: shift of every duplex back page


def _read_toml(source: str, text: str) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise TrailwrightError(f"malformed TOML: {err}", source) from None


def _packaged(name: str) -> tuple[str, dict]:
    text = (resources.files("generator.publish") / name).read_text(encoding="utf-8")
    return f"generator/publish/{name}", _read_toml(name, text)


def _check_keys(table: dict, allowed: set[str], where: str, source: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise TrailwrightError(
            f"{where}unknown key {unknown[0]!r} (expected one of {', '.join(sorted(allowed))})", source
        )


def _number(table: dict, key: str, where: str, source: str, *, positive: bool = True) -> float:
    value = table.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (positive and value <= 0) or value < 0:
        raise TrailwrightError(f"{where}{key} = {value!r} must be a {'positive' if positive else 'non-negative'} number", source)
    return float(value)


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
    table = data[key]
    where = f"[{key}] "
    _check_keys(table, {"title", "width_mm", "height_mm", "ruler", "large", "booklet"}, where, source)
    ruler = table.get("ruler", "mm")
    if ruler not in ("mm", "in"):
        raise TrailwrightError(f"{where}ruler = {ruler!r} must be \"mm\" or \"in\"", source)
    large = tuple(table.get("large", ()))
    for other in large:
        if other not in data:
            raise TrailwrightError(f"{where}large names unknown paper {other!r}", source)
    booklet = str(table.get("booklet", ""))
    if booklet and booklet not in data:
        raise TrailwrightError(f"{where}booklet names unknown paper {booklet!r}", source)
    return Paper(key, str(table.get("title", key)), _number(table, "width_mm", where, source),
                 _number(table, "height_mm", where, source), ruler, large, booklet)


AUTO = "auto"


def booklet_papers(settings: "PublishSettings") -> tuple[Paper, Paper]:
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
    table = data[name]
    where = f"[{name}] "
    _check_keys(table, {"title", "unit", "trim_width", "bleed", "safe", "pixel_width", "pixel_height", "dpi"},
                where, source)
    unit = table.get("unit", "mm")
    if unit not in ("mm", "in"):
        raise TrailwrightError(f"{where}unit = {unit!r} must be \"mm\" or \"in\"", source)
    scale = MM_PER_IN if unit == "in" else 1.0
    ints = {}
    for key in ("pixel_width", "pixel_height", "dpi"):
        value = table.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise TrailwrightError(f"{where}{key} = {value!r} must be a positive whole number", source)
        ints[key] = value
    profile = Profile(
        name, str(table.get("title", name)),
        _number(table, "trim_width", where, source) * scale,
        _number(table, "bleed", where, source, positive=False) * scale,
        _number(table, "safe", where, source, positive=False) * scale,
        ints["pixel_width"], ints["pixel_height"], ints["dpi"],
    )
    cw, ch = profile.canvas_mm
    if profile.trim_width_mm + 2 * profile.bleed_mm > cw + 0.5 or profile.trim_width_mm * 3**0.5 / 2 > ch:
        raise TrailwrightError(f"{where}the hexagon and its bleed do not fit the {profile.pixel_width}×"
                               f"{profile.pixel_height} px canvas", source)
    return profile


MAX_BACK_OFFSET_MM = 20.0
PRINTER_KEYS = ("back_offset_mm",)  # the keys of the settings' [printer] table


def back_offset(value, where: str) -> tuple[float, float]:
    """``[x, y]`` in mm, each within ±20 mm, as a tuple; else an error naming ``where``."""
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
            or not all(abs(v) <= MAX_BACK_OFFSET_MM for v in value)):
        raise TrailwrightError(f"back_offset_mm = {value!r} must be [x, y] in mm, each from "
                               f"-{MAX_BACK_OFFSET_MM:g} to {MAX_BACK_OFFSET_MM:g}", where)
    return (float(value[0]), float(value[1]))


def settings_from_dict(data: dict, source: str) -> PublishSettings:
    """Validate a parsed settings table: every key known, every value of the right kind."""
    defaults = PublishSettings()
    data = dict(data)
    printer = data.pop("printer", {})
    known = {f.name: f for f in fields(PublishSettings)} | {"printer": None}
    known = {k: v for k, v in known.items() if k not in PRINTER_KEYS}
    _check_keys(data, set(known), "", source)
    if not isinstance(printer, dict):
        raise TrailwrightError("printer must be a table: [printer] back_offset_mm = [x, y]", source)
    _check_keys(printer, set(PRINTER_KEYS), "[printer] ", source)
    values: dict[str, Any] = {}
    if "back_offset_mm" in printer:
        values["back_offset_mm"] = back_offset(printer["back_offset_mm"], f"{source}: [printer]")
    for key, value in data.items():
        default = getattr(defaults, key)
        bad = TrailwrightError(f"{key} = {value!r} must be like {default!r}", source)
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise bad
        elif isinstance(default, int):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise bad
        elif isinstance(default, float):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise bad
            value = float(value)
        elif isinstance(default, tuple):
            if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
                raise TrailwrightError(f"{key} = {value!r} must be a non-empty list of names", source)
            value = tuple(value)
        elif not isinstance(value, str) or not value:
            raise bad
        values[key] = value
    settings = replace(defaults, **values)
    return check_settings(settings, source)


def check_settings(settings: PublishSettings, source: str = "settings") -> PublishSettings:
    """Reject settings that cannot print well; every named paper and profile must exist."""
    if settings.margin_mm < MIN_MARGIN_MM:
        raise TrailwrightError(f"margin_mm = {settings.margin_mm:g} is under the printer-safe {MIN_MARGIN_MM:g} mm",
                               source)
    if settings.mark_width_pt < MIN_LINE_PT:
        raise TrailwrightError(f"mark_width_pt = {settings.mark_width_pt:g} is under {MIN_LINE_PT} pt", source)
    if settings.dpi < 150 or settings.board_dpi < 100:
        raise TrailwrightError("dpi must be at least 150 and board_dpi at least 100", source)
    for name in (*settings.papers, settings.booklet_paper, settings.imposition_paper):
        if name == AUTO and name not in settings.papers:
            continue
        try:
            load_paper(name)
        except TrailwrightError as err:
            raise err.within(source) from None
    try:
        load_profile(settings.profile)
    except TrailwrightError as err:
        raise err.within(source) from None
    return settings


def load_settings(path: str | Path | None = None) -> PublishSettings:
    """The packaged defaults, or a settings file (which may set any subset of the keys)."""
    if path is None:
        source, data = _packaged("publish.toml")
    else:
        source = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as err:
            raise TrailwrightError(f"cannot read: {err.strerror}", source) from None
        data = _read_toml(source, text)
    return settings_from_dict(data, source)
