"""The pictures of ``python -m benchmarks play_optimize``: achieved rounds and static fitness against the target
(the trade-off curve of docs/play-optimize.md), and a measure against the length where a run bounds one."""

from __future__ import annotations


def tradeoff_svg(rows: list[dict], base: dict, note: str) -> str:
    """Achieved median rounds and static fitness against the target, as one SVG (two panels)."""
    w, h, left, top, pw, ph = 640, 330, 60, 40, 240, 200
    targets = [r["target"] for r in rows]
    x0, x1 = min(targets + [10]) - 1, max(targets + [20]) + 1

    def x(v):
        return left + (v - x0) / (x1 - x0) * pw

    def panel(ox, key, lo, hi, label, ref=None):
        y = lambda v: top + ph - (v - lo) / (hi - lo) * ph  # noqa: E731
        out = [
            f'<rect x="{ox}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#888"/>',
            f'<text x="{ox + pw / 2}" y="{top - 12}" text-anchor="middle" font-size="13">{label}</text>',
        ]
        for t in range(int(x0) + 1, int(x1) + 1, 2):
            out.append(
                f'<text x="{x(t) - left + ox:.1f}" y="{top + ph + 16}" text-anchor="middle" font-size="10">{t}</text>'
            )
        for k in range(5):
            v = lo + (hi - lo) * k / 4
            out.append(f'<text x="{ox - 6}" y="{y(v) + 3:.1f}" text-anchor="end" font-size="10">{v:.1f}</text>')
            out.append(f'<line x1="{ox}" x2="{ox + pw}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#ddd"/>')
        if ref == "diagonal":  # the target, and the ±1 round the issue allows
            band = [(x0, x0 - 1), (x1, x1 - 1), (x1, x1 + 1), (x0, x0 + 1)]
            out.append(
                f'<clipPath id="band"><rect x="{ox}" y="{top}" width="{pw}" height="{ph}"/></clipPath>'
                '<polygon clip-path="url(#band)" fill="#eee" points="'
                + " ".join(f"{x(t) - left + ox:.1f},{y(v):.1f}" for t, v in band)
                + '"/>'
            )
            out.append(
                f'<line x1="{x(x0) - left + ox:.1f}" y1="{y(x0):.1f}" x2="{x(x1) - left + ox:.1f}" '
                f'y2="{y(x1):.1f}" stroke="#aaa" stroke-dasharray="4 3"/>'
            )
        elif ref is not None:
            out.append(
                f'<line x1="{ox}" x2="{ox + pw}" y1="{y(ref):.1f}" y2="{y(ref):.1f}" stroke="#aaa" '
                f'stroke-dasharray="4 3"/>'
            )
        pts = sorted((r["target"], r[key]) for r in rows)
        out.append(
            '<polyline fill="none" stroke="#8c4521" stroke-width="2" points="'
            + " ".join(f"{x(t) - left + ox:.1f},{y(v):.1f}" for t, v in pts)
            + '"/>'
        )
        out += [f'<circle cx="{x(t) - left + ox:.1f}" cy="{y(v):.1f}" r="3.5" fill="#8c4521"/>' for t, v in pts]
        out.append(
            f'<text x="{ox + pw / 2}" y="{top + ph + 32}" text-anchor="middle" font-size="11">'
            f"target median rounds (3 explorers)</text>"
        )
        return out

    medians = [r["median"] for r in rows] + [base["median"], x0, x1]
    fits = [r["static_fitness"] for r in rows] + [base["static_fitness"]]
    body = panel(
        left,
        "median",
        min(medians) - 1,
        max(medians) + 1,
        "median rounds reached (dashed: target, grey: ±1)",
        "diagonal",
    )
    body += panel(
        left + pw + 80,
        "static_fitness",
        min(fits) - 0.5,
        max(fits) + 0.5,
        f"static fitness (dashed: previous-best {base['static_fitness']:.2f})",
        base["static_fitness"],
    )
    for k, line in enumerate(note.split("; ")):
        body.append(
            f'<text x="{w / 2}" y="{h - 42 + 13 * k}" text-anchor="middle" font-size="10" fill="#555">{line}</text>'
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        f'font-family="DejaVu Sans, sans-serif"><rect width="{w}" height="{h}" fill="white"/>'
        + "".join(body)
        + "</svg>\n"
    )


def _bound_label(r: dict) -> str:
    if r.get("floor"):
        return f", {r['floor'][0]} ≥ {r['floor'][1]:g}"
    if r.get("ceiling"):
        return f", {r['ceiling'][0]} ≤ {r['ceiling'][1]:g}"
    return ""


def drama_svg(rows: list[dict], base: dict, note: str) -> str:
    """Drama against game length on fresh games, each winner numbered and listed with its target and static
    fitness (darker: higher): the walk of targets (median rounds, and a floor on a measure) and the previous-best
    set."""
    w, h, left, top, pw, ph = 760, 380, 70, 40, 400, 250
    runs = [(base, "previous-best set")] + [(r, f"{r['target']:g} rounds" + _bound_label(r)) for r in rows]
    xs, ys, fs = [r["median"] for r, _ in runs], [r["drama"] for r, _ in runs], [r["static_fitness"] for r, _ in runs]
    x0, x1 = min(xs) - 1, max(xs) + 1
    y0, y1 = max(0.0, min(ys) - 0.04), max(ys) + 0.04
    f0, f1 = min(fs), max(fs) + 1e-9
    x = lambda v: left + (v - x0) / (x1 - x0) * pw  # noqa: E731
    y = lambda v: top + ph - (v - y0) / (y1 - y0) * ph  # noqa: E731
    out = [
        f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#888"/>',
        f'<text x="{left + pw / 2}" y="{top - 14}" text-anchor="middle" font-size="13">drama against game length, '
        "fresh games (bars: ±1 se)</text>",
        f'<text x="{left + pw / 2}" y="{top + ph + 34}" text-anchor="middle" font-size="11">median rounds '
        "(3 explorers)</text>",
        f'<text x="18" y="{top + ph / 2}" font-size="11" transform="rotate(-90 18 {top + ph / 2})" '
        'text-anchor="middle">drama: winner behind at 2/3</text>',
        f'<text x="{left + pw + 20}" y="{top}" font-size="11" font-weight="bold">run · static fitness</text>',
    ]
    for k in range(5):
        v = y0 + (y1 - y0) * k / 4
        out.append(f'<text x="{left - 6}" y="{y(v) + 3:.1f}" text-anchor="end" font-size="10">{v:.2f}</text>')
        out.append(f'<line x1="{left}" x2="{left + pw}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#eee"/>')
    for t in range(int(x0) + 1, int(x1) + 1):
        out.append(f'<text x="{x(t):.1f}" y="{top + ph + 16}" text-anchor="middle" font-size="10">{t}</text>')
    same: dict[float, int] = {}
    for n, (r, label) in enumerate(runs, start=1):
        k = same[r["median"]] = same.get(r["median"], -1) + 1
        cx, cy = x(r["median"] + 0.12 * (k - 1)), y(r["drama"])  # runs of one length side by side
        shade = int(210 - 180 * (r["static_fitness"] - f0) / (f1 - f0))
        colour = f"rgb({shade},{int(shade * 0.75)},{int(shade * 0.5)})"
        se = r.get("drama_se", 0.0)
        out.append(
            f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{y(r["drama"] - se):.1f}" y2="{y(r["drama"] + se):.1f}" '
            f'stroke="{colour}"/>'
        )
        out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="8" fill="{colour}"/>')
        out.append(f'<text x="{cx:.1f}" y="{cy + 3.5:.1f}" text-anchor="middle" font-size="9" fill="white">{n}</text>')
        out.append(
            f'<text x="{left + pw + 20}" y="{top + 16 + 15 * n}" font-size="10">{n}  {label} · '
            f"{r['static_fitness']:.2f}</text>"
        )
    for k, line in enumerate(note.split("; ")):
        out.append(
            f'<text x="{w / 2}" y="{h - 40 + 13 * k}" text-anchor="middle" font-size="10" fill="#555">{line}</text>'
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        f'font-family="DejaVu Sans, sans-serif"><rect width="{w}" height="{h}" fill="white"/>'
        + "".join(out)
        + "</svg>\n"
    )
