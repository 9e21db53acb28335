"""File names for tile sides: numeric ids padded so they sort, anything else made safe."""

from __future__ import annotations

import re


def id_width(ids) -> int:
    """How wide numeric ids are padded: the longest all-digit id, at least 2 (other ids never count)."""
    return max([2] + [len(i) for i in ids if i.isdigit()])


def side_file_name(tile_id: str, face: str, width: int = 2) -> str:
    """``tile-07-front.svg``: numeric ids padded, anything else made safe for a file name."""
    safe = tile_id.zfill(width) if tile_id.isdigit() else re.sub(r"[^A-Za-z0-9_.-]+", "_", tile_id)
    return f"tile-{safe}-{face}.svg"
