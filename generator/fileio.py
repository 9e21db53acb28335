"""The thin I/O layer: atomic writes of files and of whole output folders, so a failed or killed run
never leaves a half-written file or a mix of old and new files."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path


def write_atomic(path: str | Path, data: str | bytes) -> Path:
    """Write ``data`` to a temporary file beside ``path``, then rename it into place.

    A failure (disk full, read-only, a name too long) is one line naming the file."""
    write_together({Path(path): data})
    return Path(path)


def _stage(path: Path, data: str | bytes) -> str:
    """``data`` in a new temporary file beside ``path``, on disk (fsynced), readable by all: its name."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)  # UTF-8, and "\n" kept as it is
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp


def write_together(files: Mapping[Path, str | bytes]) -> None:
    """Write files that go together (one picture as SVG and PNG) wherever they are named: each to a temporary
    file beside its place first, then all renamed into place. A failure before the renames changes nothing (one
    line naming the file); a kill between two renames leaves every file whole, old or new. Unlike
    ``write_folder`` it never touches the folder around them, so they may go into any folder, the current one
    included."""
    from generator.errors import TrailwrightError

    staged: list[tuple[str, Path]] = []
    where = Path()
    try:
        for where, data in files.items():
            staged.append((_stage(where, data), where))
        for tmp, where in staged:
            os.replace(tmp, where)
    except BaseException as err:
        for tmp, _ in staged:
            Path(tmp).unlink(missing_ok=True)
        if isinstance(err, OSError):
            raise TrailwrightError(f"cannot write: {err.strerror or err}", str(where)) from None
        raise


def check_out(path: str | Path, kind: str = "folder", flag: str = "--out") -> Path:
    """Fail early, in one line, if outputs cannot go to ``path`` (a ``"folder"`` or a ``"file"``).

    Nothing is left behind: the nearest existing folder above ``path`` must be a writable folder, and
    ``path`` itself, if it exists, must be of the right kind.
    """
    from generator.errors import TrailwrightError

    path = Path(path)
    source = f"{flag} {path}"
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


# --- whole folders --------------------------------------------------------------------------
#
# A stage's output folder is swapped in whole: the new files are written into a fresh folder beside
# it (``.NAME-new-…``), the entries of the old folder that the stage does not own are hard-linked
# into it, and the two folders are exchanged in one atomic rename (Linux ``renameat2`` with
# ``RENAME_EXCHANGE``). A kill at any instant leaves the folder holding the complete old files or the
# complete new ones; a leftover folder beside it is removed by the next run. Where the exchange is not
# available, the old folder is first renamed aside (``.NAME-old-…``) and the next run puts it back if
# the kill came between the two renames.

_AT_FDCWD, _RENAME_EXCHANGE = -100, 2


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically; False when this system cannot."""
    import ctypes
    import errno

    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def _sibling_prefix(folder: Path, kind: str) -> str:
    import hashlib

    return f".{folder.name[:60]}-{hashlib.sha256(folder.name.encode()).hexdigest()[:8]}-{kind}-"


def recover_folder(folder: str | Path) -> None:
    """Tidy what a killed run left beside ``folder``: put a renamed-aside old folder back if ``folder`` is
    missing, and remove unfinished or superseded folders."""

    folder = Path(os.path.realpath(folder))
    if not folder.parent.is_dir():
        return
    for kind in ("old", "new"):
        for left in sorted(folder.parent.glob(_sibling_prefix(folder, kind) + "*")):
            if kind == "old" and not os.path.lexists(folder):
                os.rename(left, folder)
            else:
                shutil.rmtree(left, ignore_errors=True)


def _link_or_copy(src, dst) -> None:

    try:
        os.link(src, dst, follow_symlinks=False)
    except OSError:
        shutil.copy2(src, dst, follow_symlinks=False)


def _fill(stage: Path, old: Path, files: Mapping[str, str | bytes], owns) -> None:
    """Write ``files`` into ``stage``, with hard links to what ``old`` holds that is not owned."""

    if old.is_dir():
        for entry in sorted(old.iterdir()):
            if not owns(entry.name):
                target = stage / entry.name
                if entry.is_dir() and not entry.is_symlink():
                    shutil.copytree(entry, target, symlinks=True, copy_function=_link_or_copy)
                else:
                    _link_or_copy(entry, target)
    for name, data in sorted(files.items()):
        path = stage / name
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "xb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(path, 0o644)


def _subfolders(folder: Path):
    """Every folder inside ``folder``, at any depth (symbolic links are not followed)."""
    for root, dirs, _ in os.walk(folder):
        for d in dirs:
            yield Path(root, d)


def check_folder(folder: str | Path) -> Path:
    """``folder`` as a real absolute path, once it is known ``write_folder`` can replace it (checked before
    a stage spends its time): ``check_out``'s checks, not the current or home folder or one holding either, no
    file system mounted inside it, and its parent writable (the new folder is made there)."""
    from generator.errors import TrailwrightError

    source = f"--out {folder}"
    check_out(folder, "folder")
    folder = Path(os.path.realpath(folder))
    for name, where in (("the current folder", os.getcwd()), ("your home folder", os.path.expanduser("~"))):
        place = Path(os.path.realpath(where))
        if folder == place or folder in place.parents:
            raise TrailwrightError(
                f"is {name} or holds it; the output folder is replaced as a whole when "
                "the run ends, so name a folder of its own (e.g. output)",
                source,
            )
    mount = next((p for p in _subfolders(folder) if os.path.ismount(p)), None) if folder.is_dir() else None
    if mount is not None:
        raise TrailwrightError(
            f"holds a mounted file system ({mount.name}); the output folder is replaced as a whole when the run "
            "ends, so name a folder of its own",
            source,
        )
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise TrailwrightError(f"cannot make its parent folder: {err.strerror or err}", source) from None
    if not os.access(folder.parent, os.W_OK | os.X_OK):
        raise TrailwrightError("cannot write beside it (the new folder is made there, then swapped in)", source)
    return folder


def write_folder(folder: str | Path, files: Mapping[str, str | bytes], owns=lambda name: True) -> Path:
    """Make ``folder`` hold ``files`` (relative paths; text is written as UTF-8) in one atomic step.

    Entries of the old folder whose top-level name ``owns`` accepts are replaced as a whole (a file
    the new set lacks is gone); the others are kept. A failure leaves the folder as it was and is a
    ``TrailwrightError``.
    """
    from generator.errors import TrailwrightError

    folder = check_folder(folder)
    for name in files:
        parts = Path(name).parts
        if not parts or Path(name).is_absolute() or ".." in parts or not owns(parts[0]):
            raise TrailwrightError(
                f"refusing to write {name!r}: it is not a file this stage owns inside the folder", str(folder)
            )
    recover_folder(folder)
    stage = Path(tempfile.mkdtemp(prefix=_sibling_prefix(folder, "new"), dir=folder.parent))
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(stage, folder.stat().st_mode & 0o7777 if folder.is_dir() else 0o777 & ~mask)
        _fill(stage, folder, files, owns)
        if not folder.exists():
            os.rename(stage, folder)
        elif _exchange(stage, folder):
            shutil.rmtree(stage)  # the old folder, swapped out
        else:
            aside = Path(tempfile.mkdtemp(prefix=_sibling_prefix(folder, "old"), dir=folder.parent))
            os.rename(folder, aside)  # replaces the empty folder just made
            os.rename(stage, folder)
            shutil.rmtree(aside)
    except BaseException as err:
        shutil.rmtree(stage, ignore_errors=True)
        if isinstance(err, OSError):
            raise TrailwrightError(
                f"cannot write: {err.strerror or err} (the folder is as it was)", str(folder)
            ) from None
        raise
    return folder


def dumps_toml(data: dict, header: str = "") -> str:
    """``data`` (strings, numbers, booleans, lists of them, tables and lists of tables) as TOML text."""
    import json

    def value(v) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return repr(v)
        if isinstance(v, str):
            return json.dumps(v, ensure_ascii=False)
        return "[" + ", ".join(value(x) for x in v) + "]"

    def table(d: dict, name: str) -> list[str]:
        lines = [f"{k} = {value(v)}" for k, v in d.items() if not isinstance(v, dict) and not _tables(v)]
        for k, v in d.items():
            if isinstance(v, dict):
                lines += ["", f"[{name}{k}]", *table(v, f"{name}{k}.")]
            elif _tables(v):
                for item in v:
                    lines += ["", f"[[{name}{k}]]", *table(item, f"{name}{k}.")]
        return lines

    return header + "\n".join(table(data, "")).strip() + "\n"


def _tables(v) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, dict) for x in v)
