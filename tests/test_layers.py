"""The package's import graph: no module imports itself back (directly or round a loop), no two packages import each
other, and no layer imports one above it. Every import statement counts, wherever it stands: inside a function, a
method, an ``if TYPE_CHECKING`` block or a ``try``; importing lazily is no way round a cycle. Importing a module
runs the ``__init__`` of every package above it, so that counts as an import of those packages too."""

import ast
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "generator"

# each layer may import the ones before it, never one after (the foundation modules come first)
LAYERS = [
    {"errors", "units", "players", "inputs", "fileio", "web", "project", "stats", "jitcache"},
    {"model"},
    {"board"},
    {"scoring"},
    {"play", "render"},
    # warm: the kernel groups of scoring, play and optimize by name, and whether each is cached (it imports them
    # by name, with importlib, only when asked); table: the virtual tables, drawn from render's art
    {"optimize", "table", "warm"},
    # publish: the print kit, whose orchestration (publish.kit) writes the tables too; warmup: every kernel run
    # once, above the stages it runs
    {"publish", "preflight", "host", "studio", "warmup"},
    {"cli"},
]


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _absolute(node: ast.ImportFrom, here: str, is_package: bool) -> str:
    """The module an ``ImportFrom`` names, a relative one (``from . import x``) resolved against ``here``."""
    if not node.level:
        return node.module or ""
    parts = here.split(".") if is_package else here.split(".")[:-1]
    parts = parts[: len(parts) - node.level + 1]
    return ".".join(parts + ([node.module] if node.module else []))


def imported_names(tree: ast.AST, here: str, is_package: bool = False) -> set[str]:
    """Every name an import statement anywhere in ``tree`` brings in (module ``here``): ``import a.b`` names
    ``a.b``; ``from a import b`` names ``a`` and ``a.b`` (``b`` may be a module)."""
    names: set[str] = set()
    for node in ast.walk(tree):  # the whole tree: function bodies, classes, if and try blocks
        if isinstance(node, ast.ImportFrom):
            base = _absolute(node, here, is_package)
            names |= {base} | {f"{base}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
    return names


def _loaded(name: str, modules: set[str]) -> set[str]:
    """The ``generator`` modules importing ``name`` runs: it (when a module) and every package above it."""
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(2, len(parts) + 1)} & modules


def import_graph() -> nx.DiGraph:
    """Module -> every ``generator`` module it imports, the ``__init__`` of the packages above it included (a
    module's own packages left out: Python has loaded them before it)."""
    graph = nx.DiGraph()
    modules = {_module(p) for p in PACKAGE.rglob("*.py")}
    for path in PACKAGE.rglob("*.py"):
        here = _module(path)
        graph.add_node(here)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name in imported_names(tree, here, path.name == "__init__.py"):
            for target in _loaded(name, modules):
                if target != here and not here.startswith(target + "."):
                    graph.add_edge(here, target)
    return graph


def package_graph(graph: nx.DiGraph) -> nx.DiGraph:
    """Top-level package (``publish``, ``table``, ...) -> every other one its modules import."""
    packages = nx.DiGraph()
    for a, b in graph.edges:
        top_a, top_b = _top(a), _top(b)
        if top_a and top_b and top_a != top_b:
            packages.add_edge(top_a, top_b)
    return packages


@pytest.fixture(scope="module")
def graph() -> nx.DiGraph:
    """The import graph, parsed once for the tests that read it."""
    return import_graph()


def _top(module: str) -> str:
    """The top-level package or module under ``generator`` (``""`` for ``generator`` itself)."""
    return module.split(".")[1] if "." in module else ""


def _layer(module: str) -> int:
    return next((i for i, layer in enumerate(LAYERS) if _top(module) in layer), -1)


def test_the_import_graph_has_no_cycles(graph):
    cycles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert cycles == []


def test_no_two_packages_import_each_other(graph):
    """The package graph is a hierarchy too: ``publish`` may use ``table`` or ``table`` use ``publish``, not both."""
    cycles = [sorted(c) for c in nx.strongly_connected_components(package_graph(graph)) if len(c) > 1]
    assert cycles == []


def test_no_layer_imports_one_above_it(graph):
    against = [(a, b) for a, b in graph.edges if _layer(a) >= 0 and _layer(b) > _layer(a)]
    assert against == []


def test_an_import_anywhere_counts_and_runs_its_packages_init():
    """The walk sees an import in a function, a method, a TYPE_CHECKING block and a relative one."""
    source = """
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    from generator.board import Board
def lazy():
    from generator.table.words import WORDS
class Thing:
    def method(self):
        import generator.warm
from . import kit
from .art import ArtCache
"""
    names = imported_names(ast.parse(source), "generator.publish.language")
    assert {"generator.board", "generator.table.words", "generator.warm", "generator.publish.kit"} <= names
    assert "generator.publish.art" in names
    modules = {"generator.table", "generator.table.words", "generator.board"}
    assert _loaded("generator.table.words.WORDS", modules) == {"generator.table", "generator.table.words"}


def test_every_package_has_a_layer(graph):
    tops = {m.split(".")[1] for m in graph if m.count(".") >= 1}
    assert {t for t in tops if _layer(f"generator.{t}") < 0} <= {"data"}


def test_the_policy_names_are_the_engines_policies():
    from generator.play.policies import POLICIES
    from generator.players import POLICY_NAMES

    assert tuple(POLICIES) == POLICY_NAMES
    assert [POLICIES[n].code for n in POLICY_NAMES] == [0, 1, 2]  # the fast engine's codes
