"""What both soaks measure (``bench_soak``): a process's memory and open files, and each action kind's latency by
quarter of the run, with the targets of issue 53."""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path

MIN_SAMPLES = 20  # a kind's p95 is compared across quarters only with at least this many samples in each
GROWTH_MB = 50.0


def rss_mb(pid: int) -> float:
    """The process's resident memory now (Linux), in MB; 0 when unknown."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def open_files(pid: int) -> int:
    """How many file descriptors the process holds (Linux); 0 when unknown."""
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


class Quarters:
    """Latencies by kind and quarter of ``total`` steps, and the memory at each quarter's end."""

    def __init__(self, total: int):
        self.total = max(1, total)
        self.times: dict[str, list[list[float]]] = defaultdict(lambda: [[], [], [], []])
        self.memory = [0.0] * 4
        self.files = [0] * 4
        self.warm_mb = 0.0

    def quarter(self, n: int) -> int:
        return min(3, 4 * n // self.total)

    def add(self, n: int, kind: str, seconds: float) -> None:
        self.times[kind][self.quarter(n)].append(seconds)

    def sample(self, n: int, mb: float, files: int = 0) -> None:
        """The process's memory (and open files) after step ``n``: the last sample of a quarter is its end's."""
        q = self.quarter(n)
        self.memory[q], self.files[q] = mb, files

    def rows(self, what: str, errors: list[str], limit_ms: float | None = None) -> tuple[list, bool]:
        """The table's rows: memory, each kind's p50/p95/p99 by quarter, errors; and whether the targets held."""
        growth = self.memory[3] - self.memory[0]
        rows = [
            (
                f"{what}: memory after the warm-up, at each quarter's end, MB",
                f"{self.warm_mb:.0f}; " + " ".join(f"{m:.0f}" for m in self.memory),
                f"growth ≤ {GROWTH_MB:g}",
                growth <= GROWTH_MB,
            )
        ]
        for kind, quarters in sorted(self.times.items()):
            p95 = [quantile(q, 0.95) for q in quarters]
            steady = min(len(q) for q in quarters) >= MIN_SAMPLES
            fine = not steady or max(p95[1:]) <= 1.5 * p95[0]
            if limit_ms is not None:
                fine = fine and max(quantile(q, 0.99) for q in quarters if q) * 1000 < limit_ms
            cells = " | ".join(
                f"{quantile(q, 0.5) * 1000:.0f}/{quantile(q, 0.95) * 1000:.0f}/{quantile(q, 0.99) * 1000:.0f}"
                if q
                else "-"
                for q in quarters
            )
            target = f"p99 < {limit_ms:g}" if limit_ms is not None else ("p95 ≤ 1.5× Q1" if steady else "")
            rows.append((f"{what}: {kind} ({sum(map(len, quarters))}) p50/p95/p99 ms by quarter", cells, target, fine))
        rows.append((f"{what}: errors", "; ".join(errors[:5]) or "none", "none", not errors))
        return rows, all(r[3] for r in rows)
