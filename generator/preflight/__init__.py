"""Preflight: check a published folder, or any PDF or PNG, against what printers and factories expect.

- ``scan``    what a PDF page draws (strokes and their widths, images and clips, inks, fonts)
- ``checks``  the rules, each returning ``Finding`` values (file, page, what, measured, expected, ok)
- ``theme``   a theme's art, the files a kit was drawn from (``kit.json`` records the theme)

``preflight(paths)`` reads the files (the only I/O here) and returns every finding.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from generator.errors import TrailwrightError
from generator.preflight.checks import TARGETS, Context, Finding, check_pdf, check_png, check_tile_sizes, target_of
from generator.publish.settings import Profile, load_profile, load_settings, profile_names

__all__ = ["Finding", "TARGETS", "files_to_check", "preflight", "themes_to_check"]


def files_to_check(paths) -> list[Path]:
    """Every PDF and PNG named or inside a named folder (hidden files left out), sorted."""
    found = []
    for path in map(Path, paths):
        if path.is_dir():
            found += [
                p
                for p in path.rglob("*")
                if p.suffix.lower() in (".pdf", ".png")
                and p.is_file()
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
            ]
        elif path.is_file():
            if path.suffix.lower() not in (".pdf", ".png"):
                raise TrailwrightError("not a PDF or PNG file", str(path))
            found.append(path)
        else:
            raise TrailwrightError("no such file or folder", str(path))
    return sorted(set(found))


def _profile_for(path: Path, default: Profile) -> Profile:
    """The profile a ``manufacturer/<profile>/`` folder names, else ``default``."""
    parts = path.parts
    if "manufacturer" in parts:
        i = parts.index("manufacturer")
        if i + 1 < len(parts) and parts[i + 1] in profile_names():
            return load_profile(parts[i + 1])
    return default


def recorded_profile(paths) -> str | None:
    """The manufacturer profile a checked kit was published for (its ``kit.json``, in a folder checked or the
    folder above it), so a kit cut to another profile than the default is checked against its own."""
    import json

    for path in map(Path, paths):
        for folder in (path, path.parent) if path.is_dir() else (path.parent, path.parent.parent):
            record = folder / "kit.json"
            try:
                data = json.loads(record.read_text(encoding="utf-8")) if record.is_file() else None
            except (OSError, ValueError):
                continue
            settings = data.get("settings") if isinstance(data, dict) else None
            name = settings.get("profile") if isinstance(settings, dict) else None
            if isinstance(name, str) and name in profile_names():
                return name
    return None


def themes_to_check(paths, theme: str | None = None) -> tuple[list[str], list[str]]:
    """The themes to check: ``theme`` if given, else those the folders' ``kit.json`` record; and the recorded
    themes not found here (they are named, not checked)."""
    from generator.preflight.theme import recorded_theme
    from generator.render.style import is_theme

    if theme is not None:
        return [theme], []
    recorded = sorted({t for p in map(Path, paths) if p.is_dir() and (t := recorded_theme(p))})
    return [t for t in recorded if is_theme(t)], [t for t in recorded if not is_theme(t)]


def recorded_digests(paths) -> dict[str, str]:
    """The content hash each recorded theme folder had when its kit was published (``kit.json``)."""
    from generator.preflight.theme import recorded_digest, recorded_theme

    folders = [p for p in map(Path, paths) if p.is_dir()]
    return {t: d for p in folders if (t := recorded_theme(p)) and (d := recorded_digest(p))}


def preflight(paths, target: str | None = None, profile: str | None = None, theme: str | None = None) -> list[Finding]:
    """Every finding for the files under ``paths`` and their theme's art (``theme``, else the one their
    ``kit.json`` records); ``target`` and ``profile`` override what folders imply (the profile: else the one
    ``kit.json`` records, else the default settings')."""
    from pypdf import PdfReader

    from generator.preflight.theme import theme_findings

    default = load_profile(profile or recorded_profile(paths) or load_settings().profile)
    files = files_to_check(paths)
    if not files:
        raise TrailwrightError(f"no PDF or PNG files in {', '.join(map(str, paths))}")
    findings: list[Finding] = []
    subjects: dict[str, str] = {}
    makers = set()
    for path in files:
        ctx = Context(target or target_of(path), _profile_for(path, default))
        if ctx.target == "manufacturer":
            makers.add(ctx.profile)
        data = path.read_bytes()
        if path.suffix.lower() == ".pdf":
            findings += check_pdf(path, data, ctx)
            if ctx.target == "home":
                with contextlib.suppress(Exception):  # an unreadable PDF is already a finding
                    metadata: Any = PdfReader(path).metadata or {}
                    subjects[str(path)] = str(metadata.get("/Subject", ""))
        else:
            findings += check_png(path, data, ctx)
    for maker in sorted(makers, key=lambda p: p.name):
        findings += check_tile_sizes(subjects, maker)
    digests = {} if theme is not None else recorded_digests(paths)
    for name in themes_to_check(paths, theme)[0]:
        findings += theme_findings(name, digests.get(name))
    return findings


def summary(findings: list[Finding]) -> str:
    """The one line that ends a check: how many PDF and PNG files and checks, how many failed (a theme's checks
    count among the checks, its folder not among the files)."""
    files = len({f.file for f in findings if f.file.lower().endswith((".pdf", ".png"))})
    kind = "PDF or PNG file" if files == 1 else "PDF and PNG files"
    return f"check: {files} {kind}, {len(findings)} checks, {sum(not f.ok for f in findings)} failed"
