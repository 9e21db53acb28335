"""What a run leaves behind, as data: the history as CSV text and its plot as SVG text."""

from __future__ import annotations

import csv
import io
import math
from html import escape

from generator.optimize.run import Chain

HISTORY_FIELDS = ("seconds", "chain", "generation", "evaluations", "bank", "best_fitness")


def history_csv(chains: tuple[Chain, ...] | list[Chain]) -> str:
    """Every change of each chain's best fitness (on its bank) as CSV text."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HISTORY_FIELDS)
    for chain in chains:
        for h in chain.history:
            writer.writerow((f"{h.seconds:.3f}", chain.index, h.generation, h.evaluations, h.bank, f"{h.best:.6f}"))
    return out.getvalue()


PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
WIDTH, HEIGHT = 520, 320
PLOT = (60, 50, WIDTH - 90, HEIGHT - 100)  # left, bottom (from the foot), width, height


def history_svg(chains, final: float, title: str, polished: int = 0) -> str:
    """A line per chain: best fitness on its bank against seconds, and the re-scored result as a rule (after
    ``polished`` polish steps, which the chains' lines do not show). Plain SVG text, written here: a plotting
    library's import would take a tenth of a second of a short run's budget."""
    everything = [h.best for chain in chains for h in chain.history] + [final]
    low = max(min(everything), final - 0.3)  # the start is often far below: clamp it to the floor
    data = [[(float(h.seconds), max(float(h.best), low)) for h in c.history] or [(0.0, final)] for c in chains]
    y_min = low - 0.02
    y_max = max([b for points in data for _, b in points] + [final]) + 0.02
    x_max = max([s for points in data for s, _ in points] + [1.0])
    left, bottom, width, height = PLOT

    def at(x: float, y: float) -> str:
        return f"{left + width * x / x_max:.2f},{HEIGHT - bottom - height * (y - y_min) / (y_max - y_min):.2f}"

    foot = HEIGHT - bottom
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
        'font-family="Helvetica, Arial, sans-serif" font-size="9">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
        f'<path d="M{left},{foot - height}V{foot}H{left + width}" fill="none" stroke="black" stroke-width="0.5"/>',
    ]
    for x in _ticks(0.0, x_max):
        px = at(x, y_min).split(",")[0]
        parts.append(f'<path d="M{px},{foot}v5" stroke="black" stroke-width="0.5"/>')
        parts.append(f'<text x="{px}" y="{foot + 15}" text-anchor="middle">{x:g}</text>')
    for y in _ticks(y_min, y_max):
        py = at(0.0, y).split(",")[1]
        parts.append(f'<path d="M{left},{py}h-5" stroke="black" stroke-width="0.5"/>')
        parts.append(f'<text x="{left - 8}" y="{float(py) + 3:.2f}" text-anchor="end">{y:.2f}</text>')
    for i, points in enumerate(data):
        line = " ".join(at(x, y) for x, y in points)
        colour = PALETTE[i % len(PALETTE)]
        parts.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="1.2"/>')
    rule = float(at(0.0, final).split(",")[1])
    parts.append(
        f'<path d="M{left},{rule:.2f}h{width}" stroke="black" stroke-width="1" stroke-dasharray="4 3" fill="none"/>'
    )
    # below the rule: the chains' bank figures, optimistic, mostly run above it
    after = f" after {polished} polish step{'s' * (polished != 1)}" if polished else ""
    label = f"re-scored on fresh layouts{after} {final:.4f}"
    parts += [
        f'<text x="{left + width}" y="{rule + 11:.2f}" text-anchor="end">{escape(label)}</text>',
        f'<text x="{WIDTH / 2:g}" y="25" text-anchor="middle" font-size="11">{escape(title)}</text>',
        f'<text x="{WIDTH / 2:g}" y="{HEIGHT - 12}" text-anchor="middle">seconds</text>',
        f'<text x="{left}" y="{foot - height - 6}">best fitness on the chain\'s bank (one line a chain)</text>',
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


def _ticks(low: float, high: float, most: int = 6) -> list[float]:
    """Round values from ``low`` to ``high`` for an axis: steps of 1, 2 or 5 times a power of ten, at most ``most``."""
    span = max(high - low, 1e-9)
    step = 10 ** math.floor(math.log10(span / most))
    step *= next(k for k in (1, 2, 5, 10) if span / (step * k) <= most)
    first = math.ceil(low / step - 1e-9)
    return [round(k * step, 10) for k in range(first, math.floor(high / step + 1e-9) + 1)]
