"""The package's import graph: no module imports itself back (directly or round a loop), and no layer
imports one above it. Imports inside functions count too: importing lazily is no way round a cycle."""

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
    {"optimize", "warm"},  # warm: every kernel the stages use, compiled once
    {"publish", "table", "preflight", "host", "studio"},
    {"cli"},
]


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> nx.DiGraph:
    """Module -> every ``generator`` module it imports (a package's own ``__init__`` left out of its
    submodules' imports, as Python loads it first anyway)."""
    graph = nx.DiGraph()
    modules = {_module(p) for p in PACKAGE.rglob("*.py")}
    for path in PACKAGE.rglob("*.py"):
        here = _module(path)
        graph.add_node(here)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                if name in modules and name != here and not here.startswith(name + "."):
                    graph.add_edge(here, name)
    return graph


@pytest.fixture(scope="module")
def graph() -> nx.DiGraph:
    """The import graph, parsed once for the tests that read it."""
    return import_graph()


def _layer(module: str) -> int:
    top = module.split(".")[1] if "." in module else ""
    return next((i for i, layer in enumerate(LAYERS) if top in layer), -1)


def test_the_import_graph_has_no_cycles(graph):
    cycles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert cycles == []


def test_no_layer_imports_one_above_it(graph):
    against = [(a, b) for a, b in graph.edges if _layer(a) >= 0 and _layer(b) > _layer(a)]
    assert against == []


def test_every_package_has_a_layer(graph):
    tops = {m.split(".")[1] for m in graph if m.count(".") >= 1}
    assert {t for t in tops if _layer(f"generator.{t}") < 0} <= {"data"}


def test_the_policy_names_are_the_engines_policies():
    from generator.play.policies import POLICIES
    from generator.players import POLICY_NAMES

    assert tuple(POLICIES) == POLICY_NAMES
    assert [POLICIES[n].code for n in POLICY_NAMES] == [0, 1, 2]  # the fast engine's codes
