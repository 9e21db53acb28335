"""The designer's TOML files changed in place (tomlkit): only what changed changes; every comment, the order, the
layout and the designer's own keys stay.

Glossary
--------
change     the difference between two versions of a file's table (``before``: as the studio read it, ``after``:
           as the designer left it). Applied to the file's own text, not to a table written afresh: a list
           loses the items that went and gains the new ones on a line of their own; a ``[[table]]`` is matched
           by its key (a landmark by name, a connector by hex) and only its changed keys are set.
check      the edited text is read back: when it does not hold ``after`` (a layout tomlkit cannot edit), the
           changed keys are written afresh instead, so a save never writes what the designer did not mean.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import tomlkit
from tomlkit.items import AoT, Array

if TYPE_CHECKING:
    from generator.board import Board

# the keys each [[table]] list is matched by
MATCH = {"landmark": "name", "connector": "hex"}


def _array(doc: Any, key: str, before: list, after: list) -> None:
    """``doc[key]`` (an array) edited from ``before`` to ``after``: the items gone deleted, the new ones added at
    its end (on a line of their own in a multi-line array). The longest start of ``after`` found in ``before`` in
    order stays where it is; an order that cannot be reached so is written afresh."""
    arr = doc.get(key)
    if not isinstance(arr, Array) or [list(v) if isinstance(v, list) else v for v in arr.unwrap()] != before:
        doc[key] = after
        return
    kept, k = [], 0  # the positions in ``before`` of the longest start of ``after`` that it holds in order
    for i, v in enumerate(before):
        if k < len(after) and after[k] == v:
            kept.append(i)
            k += 1
    for i in reversed([i for i in range(len(before)) if i not in kept]):
        _delete(arr, i)
    multiline = "\n" in arr.as_string()
    for v in after[k:]:
        if multiline:
            arr.add_line(v, indent="  ")
        else:
            arr.append(v)


def _delete(arr: Array, i: int) -> None:
    """Item ``i`` of ``arr`` deleted; a comment at the end of its line stays, on the item before it."""
    try:
        at = arr._index_map[i]
        group, before = arr._value[at], arr._value[at - 1] if at > 0 else None
        alone = group.indent is None or "\n" in group.indent.s  # the first item on its line
        if group.comment is not None and not alone and before is not None and before.value is not None:
            before.comment, group.comment = group.comment, None
    except (AttributeError, KeyError, IndexError):  # tomlkit's inner layout changed: the comment may go with it
        pass
    del arr[i]


def _table(table: Any, before: dict, after: dict) -> None:
    for k in set(before) | set(after):
        if k not in after:
            del table[k]
        elif k not in before:
            table[k] = after[k]
        elif before[k] != after[k]:
            if isinstance(after[k], list) and isinstance(before[k], list):
                _array(table, k, before[k], after[k])
            else:
                table[k] = after[k]


def _tables(doc: Any, key: str, before: list[dict], after: list[dict]) -> None:
    """The ``[[key]]`` tables edited: matched by ``MATCH[key]``, the gone ones removed, the new ones added."""
    aot = doc.get(key)
    if not isinstance(aot, AoT):
        doc[key] = tomlkit.aot()
        for t in after:
            doc[key].append(t)
        return
    by = MATCH[key]
    names = [t.get(by) for t in before]
    for i in reversed(range(len(before))):
        if before[i][by] not in [t[by] for t in after]:
            del aot[i]
            del names[i]
    for t in after:
        if t[by] in names:
            _table(aot[names.index(t[by])], before[[b[by] for b in before].index(t[by])], t)
        else:
            new = tomlkit.table()
            for k, v in t.items():
                new[k] = v
            new.trivia.indent = "\n"  # a blank line before it, as the file's own tables have
            aot.append(new)
            names.append(t[by])


def edited(text: str, before: dict, after: dict, holds: Callable[[dict], bool] | None = None) -> str:
    """``text`` (a TOML file holding ``before``) changed to hold ``after`` (see the module glossary); ``holds``
    says whether a table read back means ``after`` (default: every changed key reads back as in ``after``)."""
    doc = tomlkit.parse(text)
    for key in set(before) | set(after):
        old, new = before.get(key), after.get(key)
        if old == new:
            continue
        if new is None or new == []:
            if key in doc:
                del doc[key]
        elif key in MATCH:
            _tables(doc, key, old or [], new)
        elif isinstance(new, list) and isinstance(old, list):
            _array(doc, key, old, new)
        else:
            doc[key] = new
    out = tomlkit.dumps(doc)
    changed = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
    if holds is None:
        holds = lambda data: all(_plain(data.get(k)) == _plain(after.get(k)) for k in changed)  # noqa: E731
    try:
        good = holds(tomllib.loads(out))
    except (ValueError, TypeError):
        good = False
    return out if good else fresh(text, after, changed)


def fresh(text: str, after: dict, keys: set[str]) -> str:
    """``text`` with ``keys`` written afresh from ``after`` (comments elsewhere kept)."""
    doc = tomlkit.parse(text)
    for key in keys:
        if key in doc:
            del doc[key]
    for key in sorted(keys & set(after), key=lambda k: k in MATCH):  # tables after plain keys
        value = after[key]
        if key in MATCH:
            doc[key] = tomlkit.aot()
            for t in value:
                doc[key].append(t)
        elif value not in (None, []):
            doc[key] = value
    return tomlkit.dumps(doc)


def _plain(data: Any) -> Any:
    """A value compared without tuple/list differences, an empty list as no value."""
    if data == []:
        return None
    if isinstance(data, dict):
        return {k: _plain(v) for k, v in data.items() if v not in (None, [])}
    if isinstance(data, list | tuple):
        return [_plain(v) for v in data]
    return data


def toml_with(text: str, **values: Any) -> str:
    """The TOML ``text`` (its comments and other keys kept, tomlkit) with top-level ``values`` set: an empty value
    removes its key, and a list of tables is written as ``[[tables]]``. ``ValueError`` when it is no TOML."""
    doc = tomlkit.parse(text)
    for key, value in values.items():
        tables = bool(value) and isinstance(value, list) and all(isinstance(v, dict) for v in value)
        if key in doc and (tables or not value):
            del doc[key]
        if tables:
            doc[key] = tomlkit.aot()
            for table in value:
                doc[key].append(table)
        elif value:
            doc[key] = value  # in place: the comments around it stay
    return tomlkit.dumps(doc)


def board_toml(path: Path, board: Board, before: dict, after: dict) -> str:
    """The board file at ``path`` changed in place from ``before`` to ``after`` (``tomledit``), read back as
    ``board``; a board file written afresh when there is none (or tomlkit cannot read it)."""
    from generator.board.board import board_from_dict

    try:
        text = path.read_text(encoding="utf-8")
        return edited(text, before, after, holds=lambda data: board_from_dict(data, board.name) == board)
    except (OSError, ValueError):  # no board file yet (the built-in one was read), or one tomlkit cannot read
        return toml_with("", **after)
