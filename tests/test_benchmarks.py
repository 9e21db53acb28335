"""The benchmarks import from the package lazily, inside their functions, so a renamed function breaks
``make bench`` long after the change: every name they import must exist."""

import ast
import importlib
import re
from pathlib import Path

import pytest

from tests.conftest import ROOT

BENCHMARKS = sorted((ROOT / "benchmarks").glob("*.py"))


def project_imports(path: Path):
    """Every ``from generator... import name`` (and from benchmarks or tests) in the file, anywhere in it."""
    for node in ast.walk(ast.parse(path.read_text())):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.module.split(".")[0] in ("generator", "benchmarks")
        ):
            for alias in node.names:
                yield node.lineno, node.module, alias.name


@pytest.mark.parametrize("path", BENCHMARKS, ids=[p.name for p in BENCHMARKS])
def test_every_name_a_benchmark_imports_exists(path):
    missing = []
    for line, module, name in project_imports(path):
        found = importlib.import_module(module)
        if not hasattr(found, name):
            try:
                importlib.import_module(f"{module}.{name}")
            except ImportError:
                missing.append(f"{path.name}:{line}: {module}.{name}")
    assert not missing


@pytest.mark.parametrize("path", [p for p in BENCHMARKS if p.name.startswith("bench_")], ids=lambda p: p.name)
def test_every_benchmark_names_its_smallest_size_for_the_smoke_run(path):
    """``make bench-smoke`` (CI) runs each benchmark with its ``SMOKE`` options: every one has them, as options its
    parser knows (each ``--name`` is an argument its parser adds)."""
    module = importlib.import_module(f"benchmarks.{path.stem}")
    assert isinstance(module.SMOKE, list) and all(isinstance(a, str) for a in module.SMOKE)
    added = set(re.findall(r'add_argument\(\s*"(--[a-z-]+)"', path.read_text()))
    assert {a for a in module.SMOKE if a.startswith("--")} <= added
