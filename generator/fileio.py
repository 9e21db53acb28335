"""The thin I/O layer: atomic writes, so a failed run never leaves a half-written file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: str | Path, data: str | bytes) -> Path:
    """Write ``data`` to a temporary file beside ``path``, then rename it into place."""
    path = Path(path)
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


def read_text(path: str | Path) -> str:
    """A UTF-8 text file's contents; a missing, unreadable or non-UTF-8 file is a one-line error naming it."""
    from generator.errors import TrailwrightError

    path = Path(path)
    try:
        return path.read_text(encoding="utf-8")
    except OSError as err:
        raise TrailwrightError(f"cannot read: {err.strerror}", str(path)) from None
    except UnicodeDecodeError:
        raise TrailwrightError("not UTF-8 text", str(path)) from None
