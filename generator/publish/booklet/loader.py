"""Loading and rendering the booklet's jinja2 templates; errors name the template and line."""

from __future__ import annotations

import re
import traceback
from pathlib import Path

import jinja2
from jinja2.sandbox import SandboxedEnvironment, SecurityError

from generator.errors import TrailwrightError
from generator.publish.booklet.markup import AT, MAIN_TEMPLATE
from generator.units import ENGLISH, Numbers

_JINJA = re.compile(r"(\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\})", re.S)
_START_TAG = re.compile(r"<([A-Za-z_][\w.-]*)")


def annotate(source: str, name: str) -> str:
    """``source`` with ``tw-at="name:line"`` added to each start tag outside jinja's own blocks (lines kept)."""
    parts = _JINJA.split(source)
    line = 1
    for i, part in enumerate(parts):
        if i % 2 == 0:
            pieces, last = [], 0
            for m in _START_TAG.finditer(part):
                pieces.append(part[last : m.end()])
                pieces.append(f' {AT}="{name}:{line + part.count(chr(10), 0, m.start())}"')
                last = m.end()
            parts[i] = "".join(pieces) + part[last:]
        line += part.count("\n")
    return "".join(parts)


class _AnnotatingLoader(jinja2.FileSystemLoader):
    """Templates from a folder, each start tag marked with its template and line (see ``annotate``)."""

    def get_source(self, environment, template):
        source, filename, uptodate = super().get_source(environment, template)
        return annotate(source, template), filename, uptodate


def _template_line(tb, folder: Path) -> tuple[str, int] | None:
    """The innermost template file and line in a traceback (jinja2 maps frames back to templates)."""
    found = None
    for frame, lineno in traceback.walk_tb(tb):
        name = frame.f_code.co_filename
        if name.endswith(".j2") or Path(name).parent == folder:
            found = (Path(name).name, lineno)
    return found


MAX_ITEMS = 1_000_000  # the longest string or list a template may build with ``*``, and the largest power


class _Sandbox(SandboxedEnvironment):
    """jinja2's sandbox (no attributes starting with ``_``, no unsafe callables, bounded ``range``), and
    ``*`` and ``**`` bounded too, so a template cannot exhaust memory with ``'x' * 10**12``."""

    intercepted_binops = frozenset(["*", "**"])

    def call_binop(self, context, operator, left, right):
        if operator == "**" and isinstance(right, (int, float)) and abs(right) > 64:
            raise SecurityError(f"the power {right!r} is too large")
        if operator == "*":
            seq, times = (left, right) if isinstance(left, (str, list, tuple)) else (right, left)
            if isinstance(seq, (str, list, tuple)) and isinstance(times, int) and len(seq) * times > MAX_ITEMS:
                raise SecurityError(f"a {type(seq).__name__} longer than {MAX_ITEMS} items")
        return super().call_binop(context, operator, left, right)


def render_markup(folder: Path, context: dict, numbers: Numbers = ENGLISH) -> str:
    """Render the booklet's templates from ``folder`` in a sandbox: data in, markup out, nothing else. The
    filters ``num(places)``, ``pct(places)`` and ``short`` write numbers as ``numbers`` says. Template errors,
    reaching for Python internals among them, name the template and line."""
    env = _Sandbox(
        loader=_AnnotatingLoader(str(folder)),
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(["xml.j2", "xml"], default_for_string=True),
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(num=numbers.number, pct=numbers.percent, short=numbers.short)
    try:
        return env.get_template(MAIN_TEMPLATE).render(**context)
    except jinja2.TemplateNotFound as err:
        raise TrailwrightError(f"missing template {err.name!r}", str(folder)) from None
    except jinja2.TemplateSyntaxError as err:
        name = err.name or (Path(err.filename).name if err.filename else MAIN_TEMPLATE)
        raise TrailwrightError(f"template error at line {err.lineno}: {err.message}", str(folder / name)) from None
    except Exception as err:  # an error while rendering: undefined names, bad filters, ...
        where = _template_line(err.__traceback__, folder)
        message = str(err).splitlines()[0] if str(err) else type(err).__name__
        if where:
            raise TrailwrightError(f"template error at line {where[1]}: {message}", str(folder / where[0])) from None
        raise TrailwrightError(f"template error: {message}", str(folder / MAIN_TEMPLATE)) from None
