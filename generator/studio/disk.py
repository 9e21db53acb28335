"""The studio's watch on the project's files: what changed on disk since the studio read or wrote them, and which
changed file would not load now (the page's banner until it is fixed).

Glossary
--------
digest      a file's SHA-256 as the studio read or last wrote it (``disk_digest`` for ``tileset.json``,
            ``file_digests`` for the board, the rules and the objective).
problems    each changed file that would not load now, ``{"file", "error"}``, its error in one line without the
            project's folder. Tried again only when a file's bytes change; the studio keeps what it read last.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from generator.board import Board
from generator.errors import TrailwrightError
from generator.model import read_tileset
from generator.project import FILES

WATCHED = ("board", "rules", "objective")  # the files besides the tile set that the studio reads


def digest(path: Path) -> str:
    """The SHA-256 of a file's bytes ('' when it is missing)."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""


class DiskWatch:
    """The ``Studio``'s files on disk (see the module glossary); the studio provides the fields it reads."""

    folder: Path
    path: Path
    board: Board
    disk_digest: str
    file_digests: dict[str, str]
    _problems: tuple[tuple, list[dict[str, str]]]

    def disk_now(self) -> str:
        """The SHA-256 of ``tileset.json`` as it is on disk now."""
        return digest(self.path)

    def changed_on_disk(self) -> bool:
        """Whether ``tileset.json`` differs from what the studio read or last wrote."""
        return self.disk_now() != self.disk_digest

    def files_changed(self) -> list[str]:
        """The project's other files (``WATCHED``) that changed on disk since the studio read or wrote them."""
        return [FILES[k] for k in WATCHED if digest(self.folder / FILES[k]) != self.file_digests[k]]

    def disk_problems(self) -> list[dict[str, str]]:
        """Each project file changed on disk that would not load now (see ``problems``)."""
        key = (self.disk_now(), *(digest(self.folder / FILES[k]) for k in WATCHED))
        if self._problems[0] != key:
            self._problems = (key, self._trial())
        return self._problems[1]

    def _trial(self) -> list[dict[str, str]]:
        out = []
        if self.changed_on_disk():
            try:
                tiles = read_tileset(self.path)
                if len(tiles) != len(self.board.slots):
                    raise TrailwrightError(f"has {len(tiles)} tiles but the board has {len(self.board.slots)} slots")
            except TrailwrightError as err:
                out.append({"file": FILES["tileset"], "error": self._shown(err)})
        changed = self.files_changed()
        if changed:
            try:
                self.try_files(keep=False)
            except TrailwrightError as err:
                named = next((f for f in changed if f in str(err)), changed[0])
                out.append({"file": named, "error": self._shown(err)})
        return out

    def try_files(self, keep: bool) -> None:
        """Read the board, the rules and the objective (kept only with ``keep``); ``TrailwrightError`` (nothing
        kept) when one does not load, or the board does not fit the tile set."""
        raise NotImplementedError

    def _shown(self, err: TrailwrightError) -> str:
        return str(err).replace(f"{self.folder}{os.sep}", "")
