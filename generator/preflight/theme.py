"""Preflight of a theme's art: the files a kit was drawn from, checked as the kit's own pages are.

A theme (``generator.render.theme``) is checked by loading it as ``publish`` does: every SVG through the
untrusted-art gate, every raster decoded safely and measured at its printed size, every font registered for
embedding. Each raster is a finding (effective dpi against 300); a file the gate refuses, or a font that cannot be
embedded, is one failed finding naming it.
"""

from __future__ import annotations

import json
from pathlib import Path

from generator.errors import TrailwrightError
from generator.preflight.finding import Finding
from generator.render.theme import ART_KEYS
from generator.render.untrusted import PRINT_DPI


def _record(folder: Path) -> dict:
    try:
        record = json.loads((folder / "kit.json").read_text(encoding="utf-8")).get("theme") or {}
    except (OSError, ValueError, AttributeError):
        return {}
    return record if isinstance(record, dict) else {}


def recorded_theme(folder: Path) -> str | None:
    """The theme a published folder's ``kit.json`` records: a shipped theme's name, or a folder's absolute path
    (found from anywhere)."""
    value = _record(folder).get("folder")
    return value if isinstance(value, str) and value else None


def recorded_digest(folder: Path) -> str | None:
    """The content hash ``kit.json`` records for a theme folder (none for a shipped theme)."""
    value = _record(folder).get("sha256")
    return value if isinstance(value, str) and value else None


def theme_findings(theme: str, digest: str | None = None) -> list[Finding]:
    """Every finding for the theme ``theme`` (a folder or a shipped theme's name); with ``digest`` (the hash a kit
    recorded), whether the folder still holds the art the kit was drawn from."""
    from generator.publish.booklet import theme_fonts
    from generator.render.artlimits import folder_digest
    from generator.render.style import is_theme, load_style, style_path

    if not is_theme(theme):
        return [Finding(theme, None, "theme", "no such theme folder", "a theme folder or a shipped theme", False)]
    found = []
    if digest is not None:
        try:
            same = folder_digest(Path(str(style_path(theme)))) == digest
        except TrailwrightError:
            same = False
        found.append(
            Finding(
                theme, None, "theme files", "as published" if same else "changed since publish", "as published", same
            )
        )
    try:
        style = load_style(theme)
        theme_fonts(style)  # registered as the PDFs embed them
    except TrailwrightError as err:
        return [*found, Finding(theme, None, "theme art", str(err), "art the untrusted-art gate accepts", False)]
    art = style.art
    assert art is not None  # a theme folder always brings its art
    pieces = sum(getattr(art, key) is not None for key in ART_KEYS) + len(art.decorations) + len(art.landmarks)
    found.append(Finding(art.source, None, "theme art", f"{pieces} pieces, {len(art.fonts)} fonts", "safe", True))
    found += [
        Finding(
            path, None, f"resolution printed at {size}", f"{dpi:.0f} dpi", f"at least {PRINT_DPI} dpi", dpi >= PRINT_DPI
        )
        for path, dpi, size in art.rasters
    ]
    return found
