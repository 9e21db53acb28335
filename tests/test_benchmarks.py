"""The benchmarks import from the package lazily, inside their functions, so a renamed function breaks
``make bench`` long after the change: every name they import must exist."""

import ast
import importlib
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
