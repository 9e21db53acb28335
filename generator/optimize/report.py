"""What a run leaves behind, as data: the history as CSV text and its plot as SVG text."""

from __future__ import annotations

import csv
import io

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


def history_svg(chains, final: float, title: str, polished: int = 0) -> str:
    """A line per chain: best fitness on its bank against seconds, and the re-scored result as a rule (after
    ``polished`` polish steps, which the chains' lines do not show)."""
    from reportlab.graphics import renderSVG
    from reportlab.graphics.charts.lineplots import LinePlot
    from reportlab.graphics.shapes import Drawing, Line, String
    from reportlab.lib import colors

    width, height = 520, 320
    drawing = Drawing(width, height)
    plot = LinePlot()
    plot.x, plot.y, plot.width, plot.height = 60, 50, width - 90, height - 100
    everything = [h.best for chain in chains for h in chain.history] + [final]
    low = max(min(everything), final - 0.3)  # the start is often far below: clamp it to the floor
    data = []
    for chain in chains:
        points = [(float(h.seconds), max(float(h.best), low)) for h in chain.history]
        data.append(points or [(0.0, final)])
    plot.data = data
    palette = [colors.HexColor(c) for c in ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")]
    for i in range(len(data)):
        plot.lines[i].strokeColor = palette[i % len(palette)]
        plot.lines[i].strokeWidth = 1.2
    values = [b for points in data for _, b in points] + [final]
    plot.yValueAxis.valueMin = low - 0.02
    plot.yValueAxis.valueMax = max(values) + 0.02
    plot.xValueAxis.valueMin = 0
    plot.xValueAxis.valueMax = max([s for points in data for s, _ in points] + [1.0])
    plot.xValueAxis.labelTextFormat = "%g"
    plot.yValueAxis.labelTextFormat = "%.2f"
    drawing.add(plot)
    y = plot.y + plot.height * (final - plot.yValueAxis.valueMin) / (
        plot.yValueAxis.valueMax - plot.yValueAxis.valueMin
    )
    drawing.add(Line(plot.x, y, plot.x + plot.width, y, strokeColor=colors.black, strokeDashArray=[4, 3]))
    # below the rule: the chains' bank figures, optimistic, mostly run above it
    after = f" after {polished} polish step{'s' * (polished != 1)}" if polished else ""
    label = f"re-scored on fresh layouts{after} {final:.4f}"
    drawing.add(String(plot.x + plot.width, y - 11, label, fontSize=9, textAnchor="end"))
    drawing.add(String(width / 2, height - 25, title, fontSize=11, textAnchor="middle"))
    drawing.add(String(width / 2, 12, "seconds", fontSize=9, textAnchor="middle"))
    drawing.add(
        String(plot.x, plot.y + plot.height + 6, "best fitness on the chain's bank (one line a chain)", fontSize=9)
    )
    return renderSVG.drawToString(drawing)
