"""Run the benchmarks: ``python -m benchmarks [--smoke] [NAME ...] [-- options for one benchmark]``.

Each ``benchmarks/bench_NAME.py`` module has a ``main(argv) -> int`` and ``SMOKE``, the options of its smallest size:
every step it measures, run end to end in seconds. Without names, every benchmark runs, with its default (full)
settings, or with ``--smoke`` (``make bench-smoke``, which CI runs) at its smallest size, options after ``--``
still winning. A smoke run checks that each benchmark still runs, not its targets (a tiny size misses most of
them): it fails when a benchmark stops with an error, and says which, and how long each took.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
import traceback
from pathlib import Path


def available() -> list[str]:
    """The benchmark names, e.g. ``scoring`` for ``bench_scoring.py``."""
    folder = Path(__file__).parent
    return sorted(m.name[6:] for m in pkgutil.iter_modules([str(folder)]) if m.name.startswith("bench_"))


def smoke_run(name: str, options: list[str]) -> tuple[str, float]:
    """Benchmark ``name`` at its smallest size: what became of it (``ran``, ``ran, a target missed`` or ``FAILED``)
    and its wall seconds."""
    module = importlib.import_module(f"benchmarks.bench_{name}")
    began = time.perf_counter()
    try:
        status = module.main([*module.SMOKE, *options])
    except SystemExit as stop:  # a benchmark's own one-line stop (a command that failed, a page that did not fill)
        status = stop.code if isinstance(stop.code, int) else 2
        if not isinstance(stop.code, int):
            print(f"{name}: {stop.code}", file=sys.stderr)
    except Exception:
        traceback.print_exc()
        status = 2
    outcome = {0: "ran", 1: "ran, a target missed (not judged at this size)"}.get(status, "FAILED")
    return outcome, time.perf_counter() - began


def main(argv: list[str]) -> int:
    """Run the named benchmarks (all by default); options after ``--`` go to each of them."""
    names, options = (argv[: argv.index("--")], argv[argv.index("--") + 1 :]) if "--" in argv else (argv, [])
    smoke = "--smoke" in names
    names = [n for n in names if n != "--smoke"]
    unknown = sorted(set(names) - set(available()))
    if unknown:
        print(f"unknown benchmark {unknown[0]!r}; available: {', '.join(available())}", file=sys.stderr)
        return 2
    status, outcomes = 0, []
    for name in names or available():
        print(f"\n=== benchmark: {name}{' (smoke)' if smoke else ''} ===", flush=True)
        if not smoke:
            status |= importlib.import_module(f"benchmarks.bench_{name}").main(options)
            continue
        outcome, seconds = smoke_run(name, options)
        outcomes.append((name, outcome, seconds))
        status |= outcome == "FAILED"
    if smoke:
        print("\nsmoke runs:")
        for name, outcome, seconds in outcomes:
            print(f"  {name:<14} {seconds:6.1f} s  {outcome}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
