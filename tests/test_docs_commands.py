"""The README and the docs show command lines to copy; each must still be one the command accepts (a renamed
flag would otherwise leave the front door wrong). Only fenced shell blocks count: inline spans hold
placeholders such as ``--seed S``."""

import re
import shlex
from pathlib import Path

import pytest

from generator.cli import build_parser
from tests.conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def commands(page: Path) -> list[str]:
    """Every ``trailwright ...`` line of the page's shell blocks, continuation lines joined."""
    found = []
    for block in re.findall(r"```(?:sh|bash|shell|console)?\n(.*?)```", page.read_text(), re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.strip().removeprefix("$ ")
            if line.startswith("trailwright "):
                found.append(line)
    return found


DOCUMENTED = [(page.relative_to(ROOT).as_posix(), line) for page in PAGES for line in commands(page)]


def test_the_docs_show_commands_to_check():
    assert len(DOCUMENTED) > 40 and any(page == "README.md" for page, _ in DOCUMENTED)


@pytest.mark.parametrize("page, line", DOCUMENTED, ids=[f"{p}:{i}" for i, (p, _) in enumerate(DOCUMENTED)])
def test_every_documented_command_line_parses(page, line, capsys):
    words = shlex.split(line, comments=True)[1:]
    for stop in ("|", "&&", ";", ">", "2>"):  # the command, not what the shell does with it
        words = words[: words.index(stop)] if stop in words else words
    try:
        build_parser(words[0]).parse_args(words)
    except SystemExit as done:
        assert done.code == 0, f"{page}: {line}: {capsys.readouterr().err.strip()}"
