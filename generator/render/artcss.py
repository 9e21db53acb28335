"""A designer's CSS rebuilt from an allow-list: style attributes, presentation attributes and ``<style>`` sheets.

CSS is read by a real tokenizer (tinycss2), which resolves escapes before anything is judged (``\\75rl(`` is a
``url(``, ``@\\69mport`` an ``@import``). Nothing is copied through: each value is written anew from the tokens
that passed, and anything else is one line naming the property or rule.

Glossary
--------
property   one of ``PROPERTIES``: paint, strokes, opacity, clipping, filters and text. Everything else (``overflow``,
           ``position``, ``background``, ``content``, ...) is refused, whatever its value.
value      idents, numbers with a length unit, ``#rgb`` colours, ``rgb()``/``hsl()`` and ``url(#id)`` naming an
           element of the same file. A string only in ``font-family``. ``!important`` is dropped.
sheet      a ``<style>`` element: rules whose every selector names one of the art's own classes or ids (``.reed``,
           ``#stone path``, ``g.a rect``), rewritten with the art's prefix, so a rule can only reach the art's own
           elements and never the tile's trails. At-rules (``@import``, ``@font-face``, ``@media``), pseudo-classes,
           attribute selectors, ``*`` and the ``>``, ``+`` and ``~`` combinators are refused (a sheet is also set in
           the play table's HTML, where ``>`` would not survive).
"""

from __future__ import annotations

import math
import re

import tinycss2

from generator.errors import TrailwrightError

PROPERTIES = frozenset(
    [
        "fill",
        "fill-opacity",
        "fill-rule",
        "stroke",
        "stroke-width",
        "stroke-opacity",
        "stroke-linecap",
        "stroke-linejoin",
        "stroke-miterlimit",
        "stroke-dasharray",
        "stroke-dashoffset",
        "opacity",
        "color",
        "display",
        "visibility",
        "stop-color",
        "stop-opacity",
        "clip-path",
        "clip-rule",
        "mask",
        "filter",
        "flood-color",
        "flood-opacity",
        "lighting-color",
        "color-interpolation",
        "color-interpolation-filters",
        "font-family",
        "font-size",
        "font-weight",
        "font-style",
        "font-variant",
        "text-anchor",
        "dominant-baseline",
        "alignment-baseline",
        "baseline-shift",
        "letter-spacing",
        "word-spacing",
        "text-decoration",
        "paint-order",
        "vector-effect",
        "shape-rendering",
        "text-rendering",
        "image-rendering",
    ]
)
URL_PROPERTIES = frozenset(["fill", "stroke", "clip-path", "mask", "filter"])
UNITS = frozenset(["px", "mm", "cm", "in", "pt", "pc", "em", "ex", "deg", "rad", "turn"])
COLOUR_FUNCTIONS = frozenset(["rgb", "rgba", "hsl", "hsla"])
LARGEST = 1e6  # no number in art is larger: drawing stays in cairo's and the browser's range
_IDENT = re.compile(r"-?[A-Za-z_][A-Za-z0-9_-]{0,80}")
_NAME = re.compile(r"[A-Za-z_][\w.-]{0,80}")  # an id or a class
_FONT = re.compile(r"[\w .-]{1,60}")


def _refuse(problem: str, where: str) -> TrailwrightError:
    return TrailwrightError(problem, where)


MAX_NESTING = 16  # brackets inside brackets in CSS: the tokenizer recurses into each


def _shallow(text: str, where: str) -> str:
    """``text`` with brackets nested at most ``MAX_NESTING`` deep (counted over every bracket, so a bracket in a
    string counts too), before the tokenizer recurses into them."""
    depth = 0
    for ch in text:
        if ch in "([{":
            depth += 1
            if depth > MAX_NESTING:
                raise _refuse(f"CSS nested more than {MAX_NESTING} brackets deep", where)
        elif ch in ")]}":
            depth = max(0, depth - 1)
    return text


def number(value: float, text: str, where: str) -> str:
    """A number of the art, finite and at most ``LARGEST``, as written."""
    if not math.isfinite(value) or abs(value) > LARGEST:
        raise _refuse(f"the number {text[:30]!r} is not finite or larger than {LARGEST:g}", where)
    return text


def fragment(value: str, where: str, prefix: str, refs: list[str]) -> str:
    """A reference to an element of the same file (``#id``), renamed with ``prefix`` and recorded in ``refs``."""
    value = value.strip()
    if not value.startswith("#") or not _NAME.fullmatch(value[1:]):
        raise _refuse(f"the reference {value[:60]!r} leaves the file (only #id of the same file)", where)
    refs.append(prefix + value[1:])
    return "#" + prefix + value[1:]


def _url(token, where: str, prefix: str, refs: list[str]) -> str:
    if token.type == "url":
        return f"url({fragment(token.value, where, prefix, refs)})"
    args = [a for a in token.arguments if a.type not in ("whitespace", "comment")]
    if len(args) != 1 or args[0].type != "string":
        raise _refuse("url() with anything but one #id", where)
    return f"url({fragment(args[0].value, where, prefix, refs)})"


def _plain(token, prop: str, where: str) -> str | None:
    """A token that is the same wherever it stands (ident, number, colour, separator), rebuilt; else None."""
    kind = token.type
    if kind == "whitespace":
        return " "
    if kind == "ident" and _IDENT.fullmatch(token.value):
        return token.value
    if kind in ("number", "percentage"):
        return number(token.value, token.representation, where) + ("%" if kind == "percentage" else "")
    if kind == "dimension" and token.lower_unit in UNITS:
        return number(token.value, token.representation, where) + token.lower_unit
    if kind == "hash" and re.fullmatch(r"[0-9a-fA-F]{3,8}", token.value):
        return "#" + token.value
    if kind == "literal" and token.value in (",", "/"):
        return token.value
    if kind == "string" and prop == "font-family" and _FONT.fullmatch(token.value):
        return f'"{token.value}"'
    return None


def value(prop: str, tokens, where: str, prefix: str, refs: list[str]) -> str:
    """The value of ``prop`` rebuilt from its tokens (see the glossary), or one line naming what is refused."""
    where = f"{where}: {prop}"
    out = []
    for token in tokens:
        if token.type == "comment":
            continue
        plain = _plain(token, prop, where)
        if plain is not None:
            out.append(plain)
        elif token.type == "url" or (token.type == "function" and token.lower_name == "url"):
            if prop not in URL_PROPERTIES:
                raise _refuse("url() is not allowed here", where)
            out.append(_url(token, where, prefix, refs))
        elif token.type == "function" and token.lower_name in COLOUR_FUNCTIONS:
            args = [_plain(a, prop, where) for a in token.arguments if a.type != "comment"]
            if any(a is None or a.startswith(('"', "#")) or a[:1].isalpha() for a in args):
                raise _refuse(f"{token.lower_name}() of anything but numbers", where)
            out.append(f"{token.lower_name}({''.join(a for a in args if a)})")
        else:
            raise _refuse(f"{tinycss2.serialize([token])[:40]!r} is not an allowed CSS value", where)
    text = "".join(out).strip()
    if not text or len(text) > 2000:
        raise _refuse("an empty or overlong value", where)
    return text


def attribute(prop: str, text: str, where: str, prefix: str, refs: list[str]) -> str:
    """A presentation attribute's value (``fill="..."``), rebuilt as in a style."""
    tokens = tinycss2.parse_component_value_list(_shallow(text, f"{where}: {prop}"), skip_comments=True)
    return value(prop, tokens, where, prefix, refs)


def declarations(tokens, where: str, prefix: str, refs: list[str]) -> str:
    """A ``style`` attribute's (or a rule's) declarations, each property allowed and its value rebuilt."""
    out = []
    if isinstance(tokens, str):
        _shallow(tokens, where)
    for item in tinycss2.parse_declaration_list(tokens, skip_comments=True, skip_whitespace=True):
        if item.type == "at-rule":
            raise _refuse(f"CSS @{item.lower_at_keyword} is not allowed", where)
        if item.type != "declaration":
            raise _refuse(f"CSS it cannot read ({getattr(item, 'message', item.type)})", where)
        if item.lower_name not in PROPERTIES:
            raise _refuse(f"the CSS property {item.lower_name[:40]!r} is not allowed", where)
        out.append(f"{item.lower_name}:{value(item.lower_name, item.value, where, prefix, refs)}")
    return ";".join(out)


def _compound(tokens: list, where: str, prefix: str, elements: frozenset[str]) -> tuple[str, bool]:
    """One compound selector (``path.a#b``), renamed; and whether it names a class or id of the art."""
    out, own, i = [], False, 0
    while i < len(tokens):
        token = tokens[i]
        if token.type == "ident" and i == 0 and token.value in elements:
            out.append(token.value)
        elif token.type == "hash" and token.is_identifier and _NAME.fullmatch(token.value):
            out.append(f"#{prefix}{token.value}")
            own = True
        elif token.type == "literal" and token.value == "." and i + 1 < len(tokens):
            name = tokens[i + 1]
            if name.type != "ident" or not _NAME.fullmatch(name.value):
                raise _refuse("a CSS class that is not a plain name", where)
            out.append(f".{prefix}{name.value}")
            own, i = True, i + 1
        else:
            raise _refuse(
                f"the CSS selector part {tinycss2.serialize([token])[:30]!r} is not allowed "
                "(only element names, .class and #id, joined by spaces)",
                where,
            )
        i += 1
    return "".join(out), own


def selector(tokens, where: str, prefix: str, elements: frozenset[str]) -> str:
    """A rule's selectors, each naming one of the art's classes or ids somewhere, renamed with ``prefix``."""
    groups: list[list] = [[]]
    for token in tokens:
        if token.type == "comment":
            continue
        if token.type == "literal" and token.value == ",":
            groups.append([])
        else:
            groups[-1].append(token)
    out = []
    for group in groups:
        parts: list[str] = []
        compound: list = []
        own = False
        for token in [*group, None]:
            if token is None or token.type == "whitespace":
                if compound:
                    text, mine = _compound(compound, where, prefix, elements)
                    parts.append(text)
                    own, compound = own or mine, []
            else:
                compound.append(token)
        if not own:
            shown = tinycss2.serialize(group).strip()[:40]
            raise _refuse(f"the CSS selector {shown!r} must name one of the art's own classes or ids", where)
        out.append(" ".join(parts))
    return ",".join(out)


def sheet(text: str, where: str, prefix: str, elements: frozenset[str], refs: list[str]) -> str:
    """A ``<style>`` sheet rewritten scoped to the art's own classes and ids (see the glossary)."""
    out = []
    for rule in tinycss2.parse_stylesheet(_shallow(text, where), skip_comments=True, skip_whitespace=True):
        if rule.type == "at-rule":
            raise _refuse(f"CSS @{rule.lower_at_keyword} is not allowed", where)
        if rule.type != "qualified-rule":
            raise _refuse(f"CSS it cannot read ({getattr(rule, 'message', rule.type)})", where)
        body = declarations(rule.content, where, prefix, refs)
        out.append(f"{selector(rule.prelude, where, prefix, elements)}{{{body}}}")
    return "".join(out)


__all__ = ["LARGEST", "PROPERTIES", "attribute", "declarations", "fragment", "number", "sheet", "value"]
