"""The thin I/O layer: atomic writes, so a failed run never leaves a half-written file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: str | Path, data: str | bytes) -> Path:
    """Write ``data`` to a temporary file beside ``path``, then rename it into place.

    A failure (disk full, read-only, a name too long) is one line naming the file."""
    from generator.errors import TrailwrightError

    try:
        return _write_atomic(Path(path), data)
    except OSError as err:
        raise TrailwrightError(f"cannot write: {err.strerror or err}", str(path)) from None


def _write_atomic(path: Path, data: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = "w" if isinstance(data, str) else "wb"
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, mode, **({"encoding": "utf-8", "newline": "\n"} if mode == "w" else {})) as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def check_out(path: str | Path, kind: str = "folder") -> Path:
    """Fail early, in one line, if outputs cannot go to ``path`` (a ``"folder"`` or a ``"file"``).

    Nothing is left behind: the nearest existing folder above ``path`` must be a writable folder, and
    ``path`` itself, if it exists, must be of the right kind.
    """
    from generator.errors import TrailwrightError

    path = Path(path)
    source = f"--out {path}"
    if any(len(part.encode("utf-8", "surrogatepass")) > 255 for part in path.parts):
        raise TrailwrightError("a name in the path is longer than 255 bytes", source)
    try:
        above = _check_kind(path, kind, source)
    except OSError as err:
        raise TrailwrightError(f"cannot use: {err.strerror or err}", source) from None
    try:
        with tempfile.TemporaryFile(dir=above):  # a real probe: permissions, read-only disks, /proc
            pass
    except OSError as err:
        raise TrailwrightError(f"cannot write in {above}: {err.strerror or err}", source) from None
    return path


def _check_kind(path: Path, kind: str, source: str) -> Path:
    """The nearest existing folder at or above ``path``, once ``path`` and it are of the right kind."""
    from generator.errors import TrailwrightError

    if path.exists():
        if kind == "folder" and not path.is_dir():
            raise TrailwrightError("is a file, not a folder", source)
        if kind == "file" and path.is_dir():
            raise TrailwrightError("is a folder, not a file", source)
    above = path.absolute() if kind == "folder" and path.is_dir() else path.absolute().parent
    while not above.exists():
        above = above.parent
    if not above.is_dir():
        raise TrailwrightError(f"{above} is a file, not a folder", source)
    return above


def dumps_json(data, **options) -> str:
    """JSON text that is always valid JSON: a NaN or infinite number is written as ``null``."""
    import json
    import math

    def clean(value):
        if isinstance(value, float) and not math.isfinite(value):
            return None
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [clean(v) for v in value]
        return value

    return json.dumps(clean(data), allow_nan=False, **options)
