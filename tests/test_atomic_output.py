"""A failed or killed run leaves the previous output intact: publish and render swap their whole output folder
in at one instant (``generator.fileio.write_folder``); preview renames its two files into place once both are
on disk (``generator.fileio.write_together``)."""

import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.cli import main
from generator.errors import TrailwrightError
from generator.fileio import recover_folder, write_folder
from tests.test_publish_standin import ROOT, standin_kit, standin_sources

TILESET = str(ROOT / "examples" / "random-20.json")


def snapshot(folder: Path) -> dict[str, str]:
    """Every file and link under ``folder`` (hidden ones too) with its content's digest."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()[:16]
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def beside(folder: Path) -> list[str]:
    """What lies beside ``folder`` in its parent (leftovers of a killed run would show here)."""
    return sorted(p.name for p in folder.parent.iterdir() if p.name != folder.name)


def old_output(folder: Path) -> dict[str, str]:
    """A previous kit, and files of other stages beside it."""
    for name, data in {
        "print/rules.pdf": b"old rules",
        "print/tiles-letter-duplex.pdf": b"old letter sheets",
        "manufacturer/m/tile-01-front.png": b"old face",
        "tileset.json": b"{}",
        "tiles/tile-01-front.svg": b"<svg/>",
    }.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return snapshot(folder)


def test_write_folder_replaces_what_it_owns_and_keeps_the_rest(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    old_output(out)
    os.chmod(out, 0o750)
    write_folder(
        out, {"print/rules.pdf": b"new", "manufacturer/m.zip": b"zip"}, owns=("print", "manufacturer").__contains__
    )
    assert set(snapshot(out)) == {"manufacturer/m.zip", "print/rules.pdf", "tileset.json", "tiles/tile-01-front.svg"}
    assert (out / "print" / "rules.pdf").read_bytes() == b"new" and (out / "tileset.json").read_bytes() == b"{}"
    assert not (out / "print" / "tiles-letter-duplex.pdf").exists()  # a stale file of the old kit is gone
    assert (out.stat().st_mode & 0o777) == 0o750 and beside(out) == []


def test_an_interrupted_swap_is_put_right_by_the_next_run(tmp_path):
    """Where the atomic exchange is unavailable the old folder is renamed aside first; a kill between the
    two renames leaves it aside, and the next run puts it back before anything else."""
    out = tmp_path / "out"
    aside = tmp_path / (".out-" + hashlib.sha256(b"out").hexdigest()[:8] + "-old-x1")
    aside.mkdir()
    (aside / "kept.txt").write_text("old")
    unfinished = tmp_path / (".out-" + hashlib.sha256(b"out").hexdigest()[:8] + "-new-x2")
    unfinished.mkdir()
    recover_folder(out)
    assert (out / "kept.txt").read_text() == "old" and beside(out) == []


def test_the_current_folder_or_a_file_is_refused_before_any_work(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(TrailwrightError, match="is the current folder"):
        write_folder(".", {"a": b""})
    (tmp_path / "file").write_text("x")
    assert main(["publish", TILESET, "--out", "file"]) == 2
    assert "--out file: is a file, not a folder" in capsys.readouterr().err
    assert main(["render", TILESET, "--out", str(tmp_path.parent)]) == 2
    assert "is the current folder or holds it" in capsys.readouterr().err


def test_the_home_folder_and_a_folder_holding_a_mount_are_refused(tmp_path, monkeypatch, capsys):
    """A stage replaces its --out folder as a whole: never the user's home (say ``render --out ~``) or a folder
    with another file system mounted inside it."""
    home = tmp_path / "home"
    (home / "Desktop").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    for out in (home, tmp_path):
        assert main(["render", TILESET, "--out", str(out)]) == 2
        assert capsys.readouterr().err == (
            f"trailwright: error: --out {out}: is your home folder or holds it; the output folder is replaced as a "
            "whole when the run ends, so name a folder of its own (e.g. output)\n"
        )
    assert main(["render", TILESET, "--out", str(home / "Desktop" / "tiles")]) == 0  # a folder inside it is fine
    mounted = tmp_path / "kit" / "disk"
    mounted.mkdir(parents=True)
    monkeypatch.setattr(os.path, "ismount", lambda p: Path(p) == mounted)
    with pytest.raises(TrailwrightError, match=r"holds a mounted file system \(disk\)"):
        write_folder(tmp_path / "kit", {"a": b""})


def _fail_after(monkeypatch, writes: int):
    """Make the ``writes``-th file write fail as a full disk would."""
    real, count = os.fsync, [0]

    def fsync(fd):
        count[0] += 1
        if count[0] >= writes:
            raise OSError(28, "No space left on device")
        return real(fd)

    monkeypatch.setattr(os, "fsync", fsync)


def test_a_write_error_part_way_leaves_the_old_kit_byte_identical(tmp_path, monkeypatch, capsys):
    import generator.publish.kit as kit

    monkeypatch.setattr(kit, "publish_kit", lambda *a, **k: standin_kit())
    monkeypatch.setattr("generator.cli.publish.make_sources", lambda *a: standin_sources())
    monkeypatch.setattr("generator.publish.claims.claim_warnings", lambda *a: [])
    out = tmp_path / "out"
    out.mkdir()
    before = old_output(out)
    _fail_after(monkeypatch, 30)
    assert main(["publish", TILESET, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "No space left on device" in err and str(out) in err
    assert snapshot(out) == before and beside(out) == []


def test_render_and_preview_fail_whole_too(tmp_path, monkeypatch, capsys):
    out = tmp_path / "out"
    out.mkdir()
    before = old_output(out)
    _fail_after(monkeypatch, 12)
    assert main(["render", TILESET, "--out", str(out)]) == 2
    assert main(["preview", TILESET, "--out", str(out / "preview.svg")]) == 2
    assert snapshot(out) == before and beside(out) == []
    monkeypatch.undo()
    (out / "tile-99-front.svg").write_text("<svg/>")  # a side a larger tile set rendered before
    assert main(["render", TILESET, "--out", str(out)]) == 0
    assert not (out / "tile-99-front.svg").exists() and len(list(out.glob("tile-*.svg"))) == 40
    assert (out / "tileset.json").read_bytes() == b"{}" and (out / "print" / "rules.pdf").read_bytes() == b"old rules"


# --- kill -9 at random moments ----------------------------------------------------------------

SMALL_BOARD = """format = "hexmaze-board/1"
name = "small"
slots = [[0, 0], [0, 1], [1, 0], [1, 1]]
[[landmark]]
name = "West"
hexes = [[-1, 0]]
[[landmark]]
name = "East"
hexes = [[2, 1]]
"""


def _argv(tmp_path, title: str) -> list[str]:
    return [
        "publish",
        str(tmp_path / "set4.json"),
        "--board",
        str(tmp_path / "small.toml"),
        "--settings",
        str(tmp_path / "fast.toml"),
        "--title",
        title,
        "--workers",
        "2",
        "--out",
        str(tmp_path / "kit" / "out"),
    ]


def _publish(tmp_path, title: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "generator.cli", *_argv(tmp_path, title)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )


@pytest.mark.slow
def test_a_publish_killed_at_random_moments_leaves_the_old_kit_or_the_new_one(tmp_path):
    tiles = json.loads(Path(TILESET).read_text())["tiles"][:4]
    (tmp_path / "set4.json").write_text(json.dumps({"format": "hexmaze-tileset/1", "tiles": tiles}))
    (tmp_path / "small.toml").write_text(SMALL_BOARD)
    fast = 'papers = ["a4"]\ndocuments = ["sheets", "booklet"]\ndpi = 150\nboard_dpi = 100\nscore_samples = 500\n'
    (tmp_path / "fast.toml").write_text(fast)  # sheets and booklet: a third sooner than every document
    out = tmp_path / "kit" / "out"
    kits, writes = {}, []
    for title in ("Old", "New"):  # the two kits, made as the killed runs make them (a fresh process each)
        proc, began = _publish(tmp_path, title), None
        for line in proc.stdout:
            if line.startswith("publish: writing"):
                began = time.monotonic()
        assert proc.wait() == 0 and began is not None
        writes.append(time.monotonic() - began)
        proc.stdout.close()
        kits[title] = snapshot(out)
    assert kits["Old"] != kits["New"] and "print/rules.pdf" in kits["New"]
    rng = random.Random(14)
    now = "New"
    for attempt in range(4):
        proc = _publish(tmp_path, "Old" if now == "New" else "New")
        if attempt % 2 == 0:  # in the write phase: after its first line, within its measured length
            for line in proc.stdout:
                if line.startswith("publish: writing"):
                    break
            time.sleep(rng.uniform(0, 1.5 * max(writes)))
        else:  # anywhere early in the run
            time.sleep(rng.uniform(0.1, 3.0))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        found = snapshot(out)
        assert found in (kits["Old"], kits["New"]), f"kill {attempt}: a mix of kits, or stray files"
        now = "Old" if found == kits["Old"] else "New"
    recover_folder(out)  # what the next run does first
    assert beside(out) == []


@pytest.mark.parametrize("name", ["../escape.txt", "/tmp/abs.txt", "print/../../x", "tileset.json"])
def test_nothing_is_written_outside_what_the_stage_owns(tmp_path, name):
    with pytest.raises(TrailwrightError, match="refusing to write"):
        write_folder(tmp_path / "out", {name: b"x"}, owns=("print", "manufacturer").__contains__)
    assert not (tmp_path / "out").exists() and not (tmp_path / "escape.txt").exists()
