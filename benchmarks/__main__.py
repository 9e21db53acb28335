"""Run the benchmarks: ``python -m benchmarks [NAME ...] [-- options for one benchmark]``.

Each ``benchmarks/bench_NAME.py`` module has a ``main(argv) -> int``. Without names, every
benchmark runs with its default (full) settings.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def available() -> list[str]:
    """The benchmark names, e.g. ``scoring`` for ``bench_scoring.py``."""
    folder = Path(__file__).parent
    return sorted(m.name[6:] for m in pkgutil.iter_modules([str(folder)]) if m.name.startswith("bench_"))


def main(argv: list[str]) -> int:
    """Run the named benchmarks (all by default); options after ``--`` go to each of them."""
    names, options = (argv[: argv.index("--")], argv[argv.index("--") + 1 :]) if "--" in argv else (argv, [])
    unknown = sorted(set(names) - set(available()))
    if unknown:
        print(f"unknown benchmark {unknown[0]!r}; available: {', '.join(available())}", file=sys.stderr)
        return 2
    status = 0
    for name in names or available():
        print(f"\n=== benchmark: {name} ===", flush=True)
        status |= importlib.import_module(f"benchmarks.bench_{name}").main(options)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
