"""One kernel cache for every checkout (``generator.jitcache``), warmed by the install (``generator.warmup``), its
groups named in ``generator.warm``."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import generator
from generator import jitcache, warm, warmup

PACKAGE = Path(generator.__file__).parent
ENV = jitcache.ENV


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


def test_a_kernels_stamp_covers_what_it_compiles_in_and_nothing_else(tmp_path):
    """Its module, the generator modules it imports, and theirs through other kernel modules only."""
    _tree(
        tmp_path,
        {
            "generator/__init__.py": "",
            "generator/a.py": "from generator.jitcache import njit\nfrom generator.b import f\n@njit\ndef g(): f()\n",
            "generator/jitcache.py": "",  # the cache's own machinery: compiled into no kernel
            "generator/b.py": "from generator import c\n@njit\ndef f(): return 1\n",
            "generator/c.py": "from generator.d import X\nY = X\n",
            "generator/d.py": "X = 1\n",
        },
    )
    a = tmp_path / "generator" / "a.py"
    found = {p.name for p in jitcache.sources(a, "generator.a", tmp_path)}
    assert found == {"a.py", "b.py", "c.py", "__init__.py"}  # "from generator import c" reads the package too

    def stamp() -> str:
        jitcache.stamp.cache_clear()
        return jitcache.stamp(str(a), "generator.a", str(tmp_path))

    first = stamp()
    (tmp_path / "generator" / "d.py").write_text("X = 2\n")  # not compiled into a's kernels
    assert stamp() == first
    (tmp_path / "generator" / "c.py").write_text("Y = 2\n")  # a constant the kernel module b may read
    assert stamp() != first


def test_the_cache_is_the_users_per_version_unless_named(monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    jitcache.configure()
    path = Path(os.environ[ENV])
    assert path.parts[-3:] == ("trailwright", "numba", generator.__version__)
    monkeypatch.setenv(ENV, "/somewhere/else")
    jitcache.configure()
    assert os.environ[ENV] == "/somewhere/else"


def test_spawned_processes_inherit_the_cache_folder():
    """Dask spawns its workers: they must find the kernels where this process put them."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        assert pool.submit(os.getenv, ENV).result() == os.environ[ENV]


# A process that imports ``generator`` from ``sys.argv[1]`` (not the installed one) and reports one kernel's cache
# statistics after a call, and the cold check before it.
PROBE = """
import json, sys
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
sys.path.insert(0, sys.argv[1])
import generator
assert generator.__file__.startswith(sys.argv[1]), generator.__file__
from generator.scoring import kernel
from generator.warm import is_cold
cold = is_cold("scoring")
general = is_cold("scoring", classic=False)
from generator import jitcache
was = jitcache.is_cold(kernel._seed_state)
kernel.seed_state(3)
stats = kernel._seed_state.stats
print(json.dumps({"cold": was, "group": cold, "general": general, "hits": sum(stats.cache_hits.values()),
                  "misses": sum(stats.cache_misses.values()), "path": stats.cache_path}))
"""


def _probe(checkout: Path, cache: Path) -> dict:
    env = {**os.environ, ENV: str(cache)}
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(checkout)], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.splitlines()[-1])


def test_a_second_checkout_loads_the_kernels_the_first_compiled_and_an_edit_compiles_anew(tmp_path):
    cache = tmp_path / "cache"
    first, second = tmp_path / "one", tmp_path / "two"
    for checkout in (first, second):
        shutil.copytree(PACKAGE, checkout / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    compiled = _probe(first, cache)
    assert compiled["cold"] and compiled["group"] and compiled["misses"] == 1 and compiled["hits"] == 0
    assert compiled["general"]  # the kernel compiled for the tiles of every other geometry: cold too
    loaded = _probe(second, cache)
    assert not loaded["cold"] and loaded["hits"] == 1 and loaded["misses"] == 0
    assert loaded["path"] == compiled["path"] and loaded["path"].startswith(str(cache))
    layouts = second / "generator" / "scoring" / "layouts.py"
    layouts.write_text(layouts.read_text() + "\n# an edit\n")  # kernel.py inlines layouts.py's functions
    edited = _probe(second, cache)
    assert edited["cold"] and edited["misses"] == 1 and edited["path"] != compiled["path"]


def test_announce_says_once_which_kernels_compile_and_nothing_when_cached(monkeypatch, capsys):
    monkeypatch.setattr(warm, "is_cold", lambda name, classic=True: name in ("play", "measures"))
    assert warm.announce(["scoring", "play", "measures", "play"]) == ["play", "measures"]
    err = capsys.readouterr().err
    seconds = warm.GROUPS["play"].seconds + warm.GROUPS["measures"].seconds
    assert err == f"compiling the play engine and the game measures, once: about {seconds} s\n"
    assert warm.announce(["scoring"]) == []
    assert capsys.readouterr().err == ""


def test_the_groups_compiled_for_the_classic_tile_name_their_kernels_for_every_other_geometry():
    """A run on other tiles asks whether the kernels it calls are cold: the general ones where the classic tile has
    its own (``kernel._compiled``), the same ones elsewhere."""
    from generator.scoring import kernel

    assert kernel._score_given in warm._dispatchers("search", classic=False)
    assert kernel._score_given_classic not in warm._dispatchers("search", classic=False)
    assert warm._dispatchers("scoring", classic=False) == [kernel._accumulate]
    assert warm._dispatchers("play", classic=False) == warm._dispatchers("play")


# After ``warm_all``, a fresh process runs every group's kernels: nothing may compile, and each kernel holds one
# signature (a second would be a second compile for every user).
CHECK = """
import json, sys
from generator import warm, warmup
warmup.warm(*warm.GROUPS)
from numba.core.registry import CPUDispatcher
misses, several = {}, {}
for name, module in list(sys.modules.items()):
    if not name.startswith("generator."):
        continue
    for attr, value in vars(module).items():
        if isinstance(value, CPUDispatcher) and value.__module__ == name:
            key = f"{name}.{attr}"
            if sum(value.stats.cache_misses.values()):
                misses[key] = sum(value.stats.cache_misses.values())
            if len(value.signatures) > 1:
                several[key] = [str(s) for s in value.signatures]
print(json.dumps({"misses": misses, "several": several}))
"""


@pytest.mark.slow
@pytest.mark.heavy
def test_after_warm_all_a_fresh_process_compiles_nothing():
    warmup.warm_all(2)
    out = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, check=True)
    found = json.loads(out.stdout.splitlines()[-1])
    assert found["misses"] == {}
    assert found["several"] == {}


def test_warm_all_hands_out_the_bytecode_first_then_the_longest_chain(monkeypatch):
    """Longest first: each process takes the next job as it ends one, so the cores finish about together."""
    jobs = warmup.jobs(2)
    assert jobs[:2] == [warmup.Share(0, 2), warmup.Share(1, 2)]
    chains = jobs[2:]
    assert sorted(chains) == sorted(warmup.CHAINS)
    cost = [sum(warm.GROUPS[name].seconds for name in chain) for chain in chains]
    assert cost == sorted(cost, reverse=True)
    slow = {**warm.GROUPS, "bots": warm.Group("the bots", 1000, warm.GROUPS["bots"].entries)}
    monkeypatch.setattr(warmup, "GROUPS", slow)
    assert warmup.jobs(2)[2] == ("bots",)


def test_the_runtime_bytecode_covers_what_a_run_imports_and_no_tests():
    files = warmup.runtime_sources()
    names = {f.as_posix() for f in files}
    for module in ("numba", "numpy", "distributed", "reportlab", "cairosvg"):  # distributed: dask[distributed]
        found = importlib.util.find_spec(module).origin
        assert found in names, module
    assert str(PACKAGE / "warm.py") in names
    assert not [f for f in files if {"tests", "test"} & set(f.parts)]
    assert importlib.util.find_spec("_pytest").origin not in names  # the test extra: no run imports it
    with_tests = {f.as_posix() for f in warmup.runtime_sources(extras=("test",))}
    assert names < with_tests  # make install's: what a pytest worker imports too, still no package's own tests
    for module in ("_pytest", "hypothesis", "selenium", "pypdf", "xdist"):
        assert importlib.util.find_spec(module).origin in with_tests, module
    assert not [f for f in with_tests if {"tests", "test"} & set(Path(f).parts)]


def test_the_bytecode_is_written_even_where_python_writes_none(tmp_path, monkeypatch):
    """PYTHONDONTWRITEBYTECODE (a container's habit) would make every process compile every import again."""
    sources = [tmp_path / f"m{i}.py" for i in range(3)]
    for path in sources:
        path.write_text("X = 1\n")
    monkeypatch.setattr(warmup, "runtime_sources", lambda extras=(): sources)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert warmup.compile_bytecode(1, 2) == 1
    written = [Path(importlib.util.cache_from_source(str(p))).is_file() for p in sources]
    assert written == [False, True, False]
