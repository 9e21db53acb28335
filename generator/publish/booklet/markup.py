"""The booklet's page markup, parsed into plain values that carry where each block was written.

The template loader marks every start tag with ``tw-at="template:line"`` (see ``loader.annotate``);
the parser lifts that mark off the element into ``Block.at`` and nothing downstream reads XML again.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.errors import TrailwrightError

MAIN_TEMPLATE = "booklet.xml.j2"
AT = "tw-at"  # the attribute the template loader adds to every start tag
MAX_DEPTH = 64  # markup nested deeper than this is an error, not a RecursionError


@dataclass(frozen=True)
class At:
    """A place in a template: its file name and line (from 1)."""

    template: str
    line: int

    @classmethod
    def parse(cls, text: str | None) -> At | None:
        """A ``tw-at`` value (``"name:line"``) as an ``At``; None when absent or malformed."""
        name, _, line = (text or "").rpartition(":")
        return cls(name, int(line)) if name and line.isascii() and line.isdigit() else None


@dataclass(frozen=True)
class Block:
    """One markup element: its tag, attributes, text, child blocks and where it was written."""

    tag: str
    attrs: tuple[tuple[str, str], ...]
    text: str
    tail: str
    children: tuple[Block, ...]
    at: At | None

    def get(self, key: str, default: str | None = None) -> str | None:
        """An attribute's value."""
        return dict(self.attrs).get(key, default)

    def __iter__(self):
        return iter(self.children)

    def words(self) -> str:
        """All the text inside, whitespace collapsed."""

        def texts(b: Block):
            yield b.text
            for c in b.children:
                yield from texts(c)
                yield c.tail

        return " ".join("".join(texts(self)).split())


class MarkupError(Exception):
    """A fault in one block of the markup; ``source_error`` names its template and line."""

    def __init__(self, block: Block, message: str):
        super().__init__(message)
        self.at = block.at


def source_error(message: str, at: At | None, folder: Path | None) -> TrailwrightError:
    """A template error at ``at``, naming the template file in ``folder`` when known."""
    if at is None:
        return TrailwrightError(f"template error: {message}", str(folder / MAIN_TEMPLATE) if folder else None)
    where = str(folder / at.template) if folder else at.template
    return TrailwrightError(f"template error at line {at.line}: {message}", where)


def _block(el: ET.Element, inherited: At | None, depth: int, folder: Path | None) -> Block:
    at = At.parse(el.get(AT)) or inherited
    if depth > MAX_DEPTH:
        raise source_error(f"markup nested more than {MAX_DEPTH} deep", at, folder)
    attrs = tuple((k, v) for k, v in el.attrib.items() if k != AT)
    children = tuple(_block(c, at, depth + 1, folder) for c in el)
    return Block(el.tag, attrs, el.text or "", el.tail or "", children, at)


_AT_ATTR = re.compile(rf' {AT}="[^"]*"')


def parse_markup(markup: str, folder: Path | None) -> Block:
    """Parse the rendered markup; errors name the template (in ``folder``) and line it came from."""
    parser: Any = ET.XMLPullParser(events=("start", "end"))  # typeshed mistypes its events
    stack: list[ET.Element] = []
    root: ET.Element | None = None
    last_at = None
    try:
        for line in markup.splitlines(keepends=True):
            parser.feed(line)
            for event, el in parser.read_events():
                if not isinstance(el, ET.Element):  # only start and end events were asked for
                    continue
                if event == "start":
                    root = el if root is None else root
                    stack.append(el)
                    last_at = At.parse(el.get(AT)) or last_at
                else:
                    stack.pop()
        parser.close()
    except ET.ParseError as err:
        raise _parse_error(err, markup, stack, last_at, folder) from None
    assert root is not None  # a document that parsed has a root
    return _block(root, None, 0, folder)


def _parse_error(err: ET.ParseError, markup: str, stack: list, last_at: At | None, folder) -> TrailwrightError:
    """The parse error at the template line nearest the fault."""
    reason = str(err).split(":")[0]
    if reason.startswith("mismatched tag") and stack:  # name the element left open, where it was opened
        open_el = stack[-1]
        return source_error(
            f"<{open_el.tag}> is not closed properly (markup not well formed: {reason})",
            At.parse(open_el.get(AT)),
            folder,
        )
    lines = markup.splitlines()
    row = err.position[0]
    text = lines[row - 1].strip() if 0 < row <= len(lines) else ""
    where = last_at
    if last_at:  # the nearest start tag before the error: its template, and the line counted on from it
        mark = f'{AT}="{last_at.template}:{last_at.line}"'
        tagged = [i for i, line in enumerate(lines[:row], start=1) if mark in line]
        if tagged:
            where = At(last_at.template, last_at.line + row - tagged[-1])
    return source_error(f"markup not well formed ({reason}): {_AT_ATTR.sub('', text)[:60]}", where, folder)
