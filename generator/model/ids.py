"""Tile ids as file names: the one function every stage uses (render, publish, zip entries).

Glossary
--------
stem      the part of a file name that stands for a tile id: ``tile-<stem>-front.svg``.
plain id  an id of letters, digits, ``-`` and ``_`` only, at most ``PLAIN_LENGTH`` long, not
          starting with ``0`` if it is all digits: its stem is itself (numbers zero-padded so
          files sort in order).
other id  anything else (spaces, ``/``, ``..``, ``%``, accents, emoji, leading zeros, very long):
          its stem is the id made safe (every other character becomes ``_``, cut to
          ``PLAIN_LENGTH``), then ``~`` and 10 hex digits of the id's SHA-256. ``~`` never occurs
          in a plain stem, so a plain id and an other id never share a stem, and two other ids
          share one only if their hashes do. ``id_width`` checks a whole set (a clash, also one that
          differs only in case, is a one-line error) and gives the padding width of its numbers.

A stem never holds a path separator or ``..`` and is at most ``PLAIN_LENGTH + 11`` characters.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

from generator.errors import TrailwrightError

PLAIN_LENGTH = 64
_PLAIN = re.compile(r"[A-Za-z0-9_-]+")
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def _plain(tile_id: str) -> bool:
    return (
        len(tile_id) <= PLAIN_LENGTH
        and _PLAIN.fullmatch(tile_id) is not None
        and not (tile_id.isdigit() and tile_id.startswith("0") and tile_id != "0")
    )


def id_width(ids: Iterable[str]) -> int:
    """How wide plain numeric ids are padded (the longest of them, at least 2), once every id of the
    set is checked to get a file name of its own: a clash is a one-line error."""
    ids = list(ids)
    width = max([2] + [len(i) for i in ids if i.isascii() and i.isdigit() and _plain(i)])
    owner: dict[str, str] = {}  # by casefolded stem: a case-insensitive disk must keep them apart too
    for tile_id in ids:
        stem = file_stem(tile_id, width)
        other = owner.setdefault(stem.casefold(), tile_id)
        if other != tile_id:
            raise TrailwrightError(
                f"tile ids {other!r} and {tile_id!r} would share the file name {stem!r} "
                "(file names ignore case on some disks)"
            )
    return width


def file_stem(tile_id: str, width: int = 2) -> str:
    """The file-name stem of a tile id (see the glossary); injective for a fixed ``width``."""
    if _plain(tile_id):
        return tile_id.zfill(width) if tile_id.isascii() and tile_id.isdigit() else tile_id
    digest = hashlib.sha256(tile_id.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f"{_UNSAFE.sub('_', tile_id)[:PLAIN_LENGTH]}~{digest}"


def side_file_name(tile_id: str, face: str, width: int = 2, suffix: str = ".svg") -> str:
    """``tile-07-front.svg``: a tile side's file name, ``width`` from ``id_width`` of the whole set."""
    return f"tile-{file_stem(tile_id, width)}-{face}{suffix}"
