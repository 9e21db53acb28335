"""Pictures of a playtest: a histogram of game length, and a heat map of the board.

Both return SVG text (mm for the board, px for the chart) and record the settings that made them.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable

from generator import __version__
from generator.board import Board
from generator.play.simulate import PlayReport
from generator.render.board import board_frame, board_layers
from generator.render.style import Style, load_style
from generator.render.svg import escape, num, points
from generator.units import ENGLISH, MM_PER_PT, Numbers

HEAT_COLOUR = "#d7301f"
BAR_COLOUR = "#3b6ea5"  # the histogram's bars (the booklet draws them in its accent colour: bookletkit)


def _meta(report: PlayReport) -> str:
    settings = {
        k: v
        for k, v in report.to_dict(per_game=False).items()
        if k in ("board", "policies", "games", "seed", "engine", "round_cap")
    }
    return escape(json.dumps({**settings, "generator": f"trailwright {__version__}"}))


HISTOGRAM = {  # the histogram's words in English; a booklet's language.toml may word them again
    "title": "{games} games on {board}, {players} players: {policies}",
    "figures": "median {median} rounds (p10 {p10}, p90 {p90})",
    "unfinished": "; {share} unfinished at the cap of {cap} (grey)",
    "x": "rounds until the game ends",
    "y": "games",
}


def _bars(report: PlayReport, counts: Counter, left: float, top: float, plot_h: float, bar: float) -> str:
    """The histogram's bars, one per round from the shortest game to the longest, grey at the cap if unfinished."""
    lo, hi = min(counts), max(counts)
    peak = max(counts.values())
    parts = []
    for r in range(lo, hi + 1):
        h = plot_h * counts.get(r, 0) / peak
        x = left + (r - lo) * bar
        capped = r == report.round_cap and report.unfinished > 0
        parts.append(
            f'<rect x="{num(x + 0.1 * bar)}" y="{num(top + plot_h - h)}" width="{num(0.8 * bar)}" '
            f'height="{num(h)}" fill="{"#999999" if capped else BAR_COLOUR}"/>'
        )
    return "".join(parts)


def _ticks(lo: int, hi: int, left: float, top: float, plot_h: float, bar: float) -> str:
    """The round numbers under the bars, about a dozen of them at most."""
    step = max(1, round((hi - lo + 1) / 12))
    return "".join(
        f'<text x="{num(left + (r - lo + 0.5) * bar)}" y="{top + plot_h + 16}">{r}</text>'
        for r in range(lo, hi + 1)
        if (r - lo) % step == 0
    )


def _marks(report: PlayReport, lo: int, left: float, top: float, plot_h: float, bar: float) -> str:
    """Upright lines at the median (solid) and the 10th and 90th percentiles (dashed)."""
    return "".join(
        f'<line x1="{num(left + (v - lo + 0.5) * bar)}" x2="{num(left + (v - lo + 0.5) * bar)}" y1="{top}" '
        f'y2="{top + plot_h}" stroke="#222222" stroke-dasharray="{dash}"/>'
        for v, dash in ((report.rounds_median, "none"), (report.rounds_p10, "4 3"), (report.rounds_p90, "4 3"))
    )


def _histogram_title(report: PlayReport, words: dict[str, str], names: Callable[[str, str], str] | None) -> str:
    """The histogram's title: the games, the board and the players, named by ``names`` where given."""
    say = names or (lambda ident, kind: ident)
    return words["title"].format(
        games=report.games,
        board=say(report.board, "boards"),
        players=report.players,
        policies=", ".join(say(p, "players") for p in report.policies),
    )


def _histogram_figures(report: PlayReport, words: dict[str, str], numbers: Numbers) -> str:
    """The line under the title: the median and percentiles of game length, and the share left unfinished."""
    median, p10, p90 = (numbers.short(v) for v in (report.rounds_median, report.rounds_p10, report.rounds_p90))
    figures = words["figures"].format(median=median, p10=p10, p90=p90)
    if report.unfinished:
        figures += words["unfinished"].format(share=numbers.percent(report.unfinished, 1), cap=report.round_cap)
    return figures


def histogram_svg(
    report: PlayReport,
    width: int = 640,
    height: int = 320,
    words: dict[str, str] = HISTOGRAM,
    numbers: Numbers = ENGLISH,
    names=None,
) -> str:
    """Bars of how many games ended in each round (the last bar holds games stopped at the cap), labelled in
    the language of ``words`` (``HISTOGRAM``'s keys) and ``numbers``, the board and players by ``names`` (a
    function of (id, kind) -> the name printed, ``Language.name``; the ids themselves without one)."""
    counts = Counter(report.rounds)
    lo, hi = min(counts), max(counts)
    left, right, top, bottom = 48, 16, 44, 40
    plot_w, plot_h = width - left - right, height - top - bottom
    bar = plot_w / (hi - lo + 1)
    bars = _bars(report, counts, left, top, plot_h, bar)
    ticks = _ticks(lo, hi, left, top, plot_h, bar)
    marks = _marks(report, lo, left, top, plot_h, bar)
    title = _histogram_title(report, words, names)
    figures = _histogram_figures(report, words, numbers)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">'
        f"<metadata>{_meta(report)}</metadata>"
        f'<rect width="{width}" height="{height}" fill="white"/>'
        f'<text x="{left}" y="16" font-size="13">{escape(title)}</text>'
        f'<text x="{left}" y="32">{escape(figures)}</text>'
        f"{bars}{marks}"
        f'<line x1="{left}" x2="{left + plot_w}" y1="{top + plot_h}" y2="{top + plot_h}" stroke="#222222"/>'
        f'<g text-anchor="middle">{ticks}</g>'
        f'<text x="{left + plot_w / 2}" y="{height - 6}" text-anchor="middle">{escape(words["x"])}</text>'
        f'<text x="14" y="{top + plot_h / 2}" transform="rotate(-90 14 {top + plot_h / 2})" '
        f'text-anchor="middle">{escape(words["y"])}</text></svg>\n'
    )


def _lost(report: PlayReport) -> list[int]:
    """Per place (slots, then landmarks): the turns lost there, turning a tile or trapped."""
    kinds = dict(zip(("turning", "trapped", "lost"), report.heat, strict=True))
    return [t + k for t, k in zip(kinds["turning"], kinds["trapped"], strict=True)]


def _heat_title(report: PlayReport) -> str:
    return (
        f"Turns lost per game where they were lost (turning a tile or trapped): "
        f"{report.games} games, {', '.join(report.policies)}"
    )


def heat_svg(report: PlayReport, board: Board, style: Style | None = None) -> str:
    """The board with each slot and landmark shaded by the turns lost there: turning tiles or trapped."""
    style = style or load_style()
    frame = board_frame(board, style)
    under, over = board_layers(board, style, frame, slot_numbers=False)
    lost = _lost(report)
    peak = max(lost) or 1
    places = [(h,) for h in board.slots] + [lm.hexes for lm in board.landmarks]
    size = style.board_font_size_pt * MM_PER_PT
    shade, labels = [], []
    for place, cells in enumerate(places):
        if not lost[place]:
            continue
        opacity = num(0.1 + 0.6 * lost[place] / peak)
        shade += [f'<polygon points="{points(frame.outline(c))}" fill-opacity="{opacity}"/>' for c in cells]
        x, y = frame.hub(cells)  # a landmark's figure under its name, on its disc
        labels.append(
            f'<text x="{num(x)}" y="{num(y + (size * 2.2 if place >= len(board.slots) else size * 0.35))}">'
            f"{lost[place] / report.games:.2f}</text>"
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(frame.width_mm)}mm" '
        f'height="{num(frame.height_mm)}mm" viewBox="0 0 {num(frame.width_mm)} {num(frame.height_mm)}">'
        f"<title>{escape(_heat_title(report))}</title><metadata>{_meta(report)}</metadata>{under}{over}"
        f'<g fill="{HEAT_COLOUR}">{"".join(shade)}</g>'
        f'<g font-family="sans-serif" font-size="{num(size)}" font-weight="bold" fill="#000000" '
        f'text-anchor="middle">{"".join(labels)}</g></svg>\n'
    )
