"""The studio's publish: the project's kit made by ``trailwright publish`` (in its own process, so that Stop can
end it and a crash cannot take the studio down), then checked by the preflight, with a thumbnail of every PDF
page.

Glossary
--------
kit         ``output/kit/`` in the project: what ``trailwright publish DIR --out DIR/output/kit`` makes. The
            publish writes it whole or not at all (``fileio.write_folder``), so a stopped run leaves the last kit.
pages       ``output/kit-pages/``: a small PNG of every page of every PDF of the kit (poppler's ``pdftoppm``,
            installed by ``make sysdeps``; without it the kit is listed with no pictures and says why).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.studio.errors import EditError
from generator.studio.jobs import BUSY, Job
from generator.studio.session import Studio

KIT = "output/kit"
PAGES = "output/kit-pages"
THUMB_DPI = 14  # an A4 page about 115 pixels wide
MOST_LINES = 200
CHECK_SECONDS = 600


@dataclass
class Publish(Job):
    """The studio's one publish (see the module glossary)."""

    studio: Studio | None = None
    lines: list[str] = field(default_factory=list)  # what the publish printed, as it printed it
    kit: list[dict[str, Any]] = field(default_factory=list)  # per file: path, bytes, page pictures
    checks: dict[str, Any] | None = None  # the preflight: how many checks, the failed ones
    note: str = ""  # why there are no page pictures
    began: float = 0.0  # time.monotonic() at the start
    took: float | None = None  # the last finished publish's seconds: what the time left is judged by

    @property
    def folder(self) -> Path:
        assert self.studio is not None
        return self.studio.folder

    def start(self) -> None:
        """Publish the saved project; ``EditError`` when edits are not saved (publish reads the files)."""
        assert self.studio is not None
        if self.studio.dirty:
            raise EditError("save your edits first: publish reads the project's saved files")
        self.lines, self.kit, self.checks, self.note = [], [], None, ""
        self.began = time.monotonic()
        self.begin(self._run)

    def _run(self) -> None:
        # -P: the project folder (the working directory) is not put on the import path, so no file in it is run
        command = [sys.executable, "-P", "-m", "generator.cli", "publish", ".", "--out", KIT]
        with subprocess.Popen(
            command, cwd=self.folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace"
        ) as process:
            assert process.stdout is not None
            for line in process.stdout:
                self._say(line.rstrip())
                if self._stop.is_set():
                    process.terminate()
            code = process.wait()
        if self._stop.is_set():
            self.state, self.error = "failed", "stopped: the last kit (if any) is as it was"
            self.changed()
            return
        if code != 0:
            last = next((ln for ln in reversed(self.lines) if ln.strip()), f"publish ended with status {code}")
            raise RuntimeError(last)
        self._say("checking the kit (trailwright check) ...")
        self.checks = self._preflight()
        self._say("drawing the page thumbnails ...")
        self.kit = self._listing()
        self.took = round(time.monotonic() - self.began, 1)
        self.state = "done"
        self.changed()

    def _say(self, line: str) -> None:
        if line.strip():
            self.lines.append(line[:300])
            del self.lines[:-MOST_LINES]
            self.changed()

    def _preflight(self) -> dict[str, Any]:
        """``trailwright check`` of the kit, in its own process: the kit's PDFs and pictures are parsed and decoded
        there, never in the studio's (whose memory would keep what they cost)."""
        command = [sys.executable, "-P", "-m", "generator.cli", "check", KIT]
        done = subprocess.run(
            command, cwd=self.folder, capture_output=True, text=True, errors="replace", timeout=CHECK_SECONDS
        )
        lines = [ln for ln in done.stdout.splitlines() if ln.strip()]
        if done.returncode not in (0, 1) or not lines or not lines[-1].startswith("check: "):
            said = [ln for ln in done.stderr.splitlines() if ln.strip()]
            raise RuntimeError(said[-1] if said else f"the check ended with status {done.returncode}")
        failed = [ln for ln in lines[:-1] if not ln.startswith("check: ")]  # "check: ..." lines are notes
        return {"summary": lines[-1], "failed": failed[:100]}

    def _listing(self) -> list[dict[str, Any]]:
        kit, pages = self.folder / KIT, self.folder / PAGES
        shutil.rmtree(pages, ignore_errors=True)
        pages.mkdir(parents=True)
        drawer = shutil.which("pdftoppm")
        if drawer is None:
            self.note = "no page pictures: poppler's pdftoppm is not installed (make sysdeps installs it)"
        out = []
        files = [p for p in kit.rglob("*") if p.is_file()]
        for path in sorted(files, key=lambda p: (not p.relative_to(kit).as_posix().startswith("print/"), p)):
            name = path.relative_to(kit).as_posix()
            entry: dict[str, Any] = {"path": name, "bytes": path.stat().st_size, "pages": []}
            if path.suffix == ".pdf" and drawer:
                stem = name.replace("/", "__").removesuffix(".pdf")
                subprocess.run(
                    [drawer, "-png", "-r", str(THUMB_DPI), str(path), str(pages / stem)],
                    check=False,
                    capture_output=True,
                    timeout=120,
                )
                drawn = [p.name for p in pages.iterdir() if re.fullmatch(re.escape(stem) + r"-\d+\.png", p.name)]
                entry["pages"] = sorted(drawn, key=lambda n: int(n[len(stem) + 1 : -4]))
            out.append(entry)
        return out

    def view(self) -> dict[str, Any]:
        """What the page shows."""
        elapsed = round(time.monotonic() - self.began, 1) if self.state in BUSY else None
        return {
            **super().view(),
            "lines": self.lines[-12:],
            "kit": self.kit,
            "checks": self.checks,
            "note": self.note,
            "elapsed": elapsed,
            "took": self.took,
        }


def served(folder: Path, where: str, name: str) -> Path | None:
    """The file ``name`` of the kit (``where`` KIT) or its page pictures (PAGES), or None: nothing outside them."""
    root = (folder / where).resolve()
    try:
        path = (root / name).resolve()
        return path if path.is_relative_to(root) and path.is_file() else None
    except (OSError, ValueError):  # a name no file system takes (a NUL byte, too long)
        return None
