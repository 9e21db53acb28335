"""The one input layer: every file a user gives (tile sets, boards, objectives, styles, settings,
rules) is read, decoded, parsed strictly and checked against a declared schema here.

Glossary
--------
source   the name an error gives the file: its path, or e.g. "the default style".
where    the item inside the file an error names: a key (``dpi``), a table (``[a4]``) or an
         item path (``tiles[3].id``, items counted from 1).
check    a small declared rule for one value (``Number``, ``Whole``, ``Text``, ``Flag``,
         ``Names``, ``OneOf``): it returns the value in its Python form or raises one line.
schema   a table of key -> check; ``check_table`` rejects unknown keys and checks the rest.

Every problem is a ``TrailwrightError`` of one line: ``FILE: item: problem``.
Parsing is strict: no duplicate keys, no NaN or Infinity, nesting at most ``MAX_DEPTH`` deep,
no control characters (other than tab and newline) and no lone surrogates in any string.
"""

from __future__ import annotations

import json
import math
import tomllib
import unicodedata
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from generator.errors import TrailwrightError

MAX_SEED = 2**63 - 1  # the largest seed: layouts are drawn from a signed 64-bit seed, never wrapped
MAX_DEPTH = 64  # nested lists and tables
MAX_BYTES = 256 * 2**20
_ALLOWED_CONTROL = "\t\n\r"


# --- reading and parsing ------------------------------------------------------------------------


def read_bytes(
    path: str | Path | Traversable, source: str | None = None, what: str = "", limit: int = MAX_BYTES
) -> bytes:
    """The file's bytes, never more than ``limit`` read: a larger file, or a device that never ends (``/dev/zero``),
    is a one-line error like a missing one. ``what`` names the file in the error (``cannot read the art: ...``)."""
    if isinstance(path, str) and not path.strip():
        raise TrailwrightError(f"an empty path {path!r} names no file")
    source = source or str(path)
    if isinstance(path, str):
        path = Path(path)
    try:
        if isinstance(path, Path) and path.is_dir():
            raise TrailwrightError("is a folder, not a file", source)
        with path.open("rb") as f:
            data = f.read(limit + 1)
    except OSError as err:
        raise TrailwrightError(f"cannot read{' ' + what if what else ''}: {err.strerror or err}", source) from None
    if len(data) > limit:
        raise TrailwrightError(f"too large (more than {limit:,} bytes)", source)
    return data


def read_text(path: str | Path | Traversable, source: str | None = None) -> str:
    """The file's text: bytes read (``read_bytes``) and decoded as UTF-8 (a byte-order mark is dropped)."""
    data = read_bytes(path, source)
    source = source or str(path)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise TrailwrightError("not UTF-8 text", source) from None


def _unique_pairs(source: str):
    def hook(pairs: list[tuple[str, Any]]) -> dict:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise TrailwrightError(f"duplicate key {key!r}", source)
            out[key] = value
        return out

    return hook


def _finite_float(source: str):
    def parse(text: str) -> float:
        value = float(text)
        if not math.isfinite(value):
            raise TrailwrightError(f"number {text} is out of range", source)
        return value

    return parse


def _no_constant(source: str):
    def parse(name: str):
        raise TrailwrightError(f"{name} is not a number JSON allows", source)

    return parse


def parse_json(text: str, source: str) -> Any:
    """Strict JSON: no duplicate keys, no NaN or Infinity, bounded nesting, checked strings."""
    try:
        data = json.loads(
            text,
            object_pairs_hook=_unique_pairs(source),
            parse_float=_finite_float(source),
            parse_constant=_no_constant(source),
        )
    except json.JSONDecodeError as err:
        raise TrailwrightError(f"malformed JSON at line {err.lineno} column {err.colno}: {err.msg}", source) from None
    except RecursionError:
        raise TrailwrightError(f"nested more than {MAX_DEPTH} deep", source) from None
    except ValueError as err:  # e.g. an integer with thousands of digits
        raise TrailwrightError(f"malformed JSON: {err}", source) from None
    check_tree(data, source)
    return data


def parse_toml(text: str, source: str) -> dict:
    """Strict TOML (tomllib), with the same checks as JSON: finite numbers, bounded nesting, clean strings."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise TrailwrightError(f"malformed TOML: {err}", source) from None
    except RecursionError:
        raise TrailwrightError(f"nested more than {MAX_DEPTH} deep", source) from None
    except ValueError as err:
        raise TrailwrightError(f"malformed TOML: {err}", source) from None
    check_tree(data, source)
    return data


def load_json(path: str | Path | Traversable, source: str | None = None) -> Any:
    """Read and strictly parse a JSON file."""
    source = source or str(path)
    return parse_json(read_text(path, source), source)


def load_toml(path: str | Path | Traversable, source: str | None = None) -> dict:
    """Read and strictly parse a TOML file."""
    source = source or str(path)
    return parse_toml(read_text(path, source), source)


def bad_character(text: str, allow: str = _ALLOWED_CONTROL) -> str | None:
    """The first control character or lone surrogate in ``text`` (e.g. ``"U+0007"``), else None."""
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cs") and ch not in allow:
            return f"U+{ord(ch):04X}"
    return None


def check_tree(data: Any, source: str) -> None:
    """Every string clean, every number finite, nesting at most ``MAX_DEPTH`` (iterative: no recursion)."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise TrailwrightError(f"{where or 'top level'}: nested more than {MAX_DEPTH} deep", source)
        if isinstance(value, dict):
            for key, item in value.items():
                bad = bad_character(key)
                path = f"{where}.{key}" if where else key
                if bad:
                    raise TrailwrightError(f"{path!r}: control character {bad} in a key", source)
                stack.append((item, path, depth + 1))
        elif isinstance(value, list):
            stack.extend((item, f"{where}[{i + 1}]", depth + 1) for i, item in enumerate(value))
        elif isinstance(value, str):
            bad = bad_character(value)
            if bad:
                raise TrailwrightError(f"{where}: control character {bad} in {value[:40]!r}", source)
        elif isinstance(value, float) and not math.isfinite(value):
            raise TrailwrightError(f"{where}: {value} is not a finite number", source)


# --- declared schemas ---------------------------------------------------------------------------


def _fail(where: str, problem: str, source: str | None) -> TrailwrightError:
    return TrailwrightError(f"{where}: {problem}" if where else problem, source)


def is_number(value: Any) -> bool:
    """A finite int or float, not a bool."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


@dataclass(frozen=True)
class Number:
    """A finite number from ``lo`` to ``hi`` (returned as float)."""

    lo: float
    hi: float

    def __call__(self, value: Any, where: str, source: str | None = None) -> float:
        if not is_number(value) or not self.lo <= value <= self.hi:
            raise _fail(where, f"{value!r} is not a number from {self.lo:g} to {self.hi:g}", source)
        return float(value)


@dataclass(frozen=True)
class Whole:
    """A whole number from ``lo`` to ``hi``."""

    lo: int
    hi: int

    def __call__(self, value: Any, where: str, source: str | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not self.lo <= value <= self.hi:
            raise _fail(where, f"{_short(value)} is not a whole number from {self.lo:,} to {self.hi:,}", source)
        return value


@dataclass(frozen=True)
class Text:
    """One line of text: 1 to ``longest`` characters (0 too when ``empty``), no control characters at all."""

    longest: int = 200
    empty: bool = False

    def __call__(self, value: Any, where: str, source: str | None = None) -> str:
        if not isinstance(value, str) or not (value or self.empty):
            raise _fail(where, f"{_short(value)} is not a non-empty string", source)
        if len(value) > self.longest:
            raise _fail(where, f"longer than {self.longest} characters", source)
        bad = bad_character(value, allow="")
        if bad:
            raise _fail(where, f"control character {bad} in {value[:40]!r}", source)
        return value


@dataclass(frozen=True)
class Flag:
    """``true`` or ``false``."""

    def __call__(self, value: Any, where: str, source: str | None = None) -> bool:
        if not isinstance(value, bool):
            raise _fail(where, f"{_short(value)} is not true or false", source)
        return value


@dataclass(frozen=True)
class OneOf:
    """One of a few fixed strings."""

    choices: tuple[str, ...]

    def __call__(self, value: Any, where: str, source: str | None = None) -> str:
        if value not in self.choices:
            raise _fail(where, f"{_short(value)} is not one of {', '.join(map(repr, self.choices))}", source)
        return value


@dataclass(frozen=True)
class Names:
    """A non-empty list of names (returned as a tuple)."""

    def __call__(self, value: Any, where: str, source: str | None = None) -> tuple[str, ...]:
        if not isinstance(value, list) or not value:
            raise _fail(where, f"{_short(value)} is not a non-empty list of names", source)
        return tuple(Text()(v, f"{where}[{i + 1}]", source) for i, v in enumerate(value))


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_keys(table: Any, allowed, where: str = "", source: str | None = None) -> dict:
    """``table`` as a dict whose keys are all in ``allowed``; else one line naming the first stray key."""
    if not isinstance(table, dict):
        raise _fail(where, f"expected a table, got {_short(table)}", source)
    unknown = sorted(set(table) - set(allowed))
    if unknown:
        raise _fail(where, f"unknown key {unknown[0]!r} (expected one of {', '.join(sorted(allowed))})", source)
    return table


def check_table(table: Any, schema: dict, where: str = "", source: str | None = None) -> dict:
    """The keys of ``table`` that ``schema`` declares, each checked and converted; unknown keys rejected."""
    check_keys(table, schema, where, source)
    prefix = f"{where}." if where else ""
    return {key: schema[key](value, f"{prefix}{key}", source) for key, value in table.items()}
