"""The booklet's own flowables: thumbnails in the tile's outline, pictures, the cover's mosaic and the pair chart."""

from __future__ import annotations

import math

from reportlab.graphics.charts.barcharts import HorizontalBarChart
from reportlab.graphics.shapes import Drawing, String
from reportlab.lib.colors import Color, white
from reportlab.platypus import Flowable

from generator.publish.booklet.styles import Look
from generator.publish.fontchain import Chain, chain, strings
from generator.publish.outline import HEX, Outline
from generator.publish.pdf import pt
from generator.units import ENGLISH, Numbers


def _hex_path(c, corners):
    """A closed canvas path through the corners (mm)."""
    path = c.beginPath()
    path.moveTo(pt(corners[0][0]), pt(corners[0][1]))
    for x, y in corners[1:]:
        path.lineTo(pt(x), pt(y))
    path.close()
    return path


class HexImage(Flowable):
    """A tile side's art clipped to its outline (a hexagon ``width`` mm corner to corner, a square ...)."""

    def __init__(self, image, width_mm: float, outline: Color, shape: Outline = HEX):
        super().__init__()
        self.image, self.w, self.outline, self.shape = image, width_mm, outline, shape
        self.h = width_mm * math.sqrt(3) / 2 if shape.exact_hex else shape.height(width_mm)
        self.width, self.height = pt(width_mm), pt(self.h)

    def wrap(self, *_):
        return self.width, self.height

    def draw(self):
        c = self.canv
        path = _hex_path(c, self.shape.corners(self.w / 2, self.h / 2, self.w))
        c.saveState()
        c.clipPath(path, stroke=0, fill=0)
        c.drawImage(self.image, 0, 0, self.width, self.height)
        c.restoreState()
        c.setStrokeColor(self.outline)
        c.setLineWidth(0.3)
        c.drawPath(path, stroke=1, fill=0)


class Picture(Flowable):
    """An image ``width_mm`` × ``height_mm``, centred in the frame."""

    def __init__(self, image, width_mm: float, height_mm: float):
        super().__init__()
        self.image = image
        self.width, self.height = pt(width_mm), pt(height_mm)
        self.hAlign = "CENTER"

    def wrap(self, *_):
        return self.width, self.height

    def draw(self):
        self.canv.drawImage(self.image, 0, 0, self.width, self.height)


class Mosaic(Flowable):
    """A honeycomb of tile sides for the cover (or a grid of square ones: the board's tiling), faded at the
    edges of the frame."""

    def __init__(self, images: list, width_mm: float, height_mm: float, tile_mm: float, shape: Outline = HEX):
        super().__init__()
        self.images, self.tile, self.shape = images, tile_mm, shape
        self.width, self.height = pt(width_mm), pt(height_mm)
        self.w_mm, self.h_mm = width_mm, height_mm

    def wrap(self, *_):
        return self.width, self.height

    def draw(self):
        c = self.canv
        w = self.tile
        if self.shape.exact_hex:
            h, pitch, drop = w * math.sqrt(3) / 2, 0.75 * w, w * math.sqrt(3) / 4
        else:
            column, row, odd = self.shape.tiling()
            h, pitch, drop = self.shape.height(w), column * w, odd * w
        c.saveState()
        clip = c.beginPath()
        clip.rect(0, 0, self.width, self.height)
        c.clipPath(clip, stroke=0, fill=0)
        k = 0
        cols = int(self.w_mm / pitch) + 2
        rows = int(self.h_mm / h) + 2
        for i in range(cols):
            for j in range(rows):
                cx = self.w_mm / 2 + (i - cols // 2) * pitch
                cy = j * h + (drop if i % 2 else 0) - h / 2
                image = self.images[k % len(self.images)]
                k += 7
                path = _hex_path(c, self.shape.corners(cx, cy, w - 0.8))
                c.saveState()
                c.clipPath(path, stroke=0, fill=0)
                c.drawImage(image, pt(cx - w / 2), pt(cy - h / 2), pt(w), pt(h))
                c.restoreState()
        c.restoreState()


CHART_CAPTION = "share of random layouts in which the pair is joined"  # <chart caption=""> words it again


def _label_pairs(chart: HorizontalBarChart, names: list[str], fonts: Chain, soft: Color) -> bool:
    """Names the chart's bars by pair; True when a name needs more than one font (then drawn apart, run by run)."""
    whole = [fonts.covering(name) for name in names]
    split = any(fonts.missing(name) or len(fonts.runs(name)) > 1 for name in names)  # a name in more than one font
    chart.categoryAxis.categoryNames = [""] * len(names) if split else names
    chart.categoryAxis.labels.fontName = "Sans"
    chart.categoryAxis.labels.fontSize = 6
    chart.categoryAxis.labels.dx = -2
    for i, face in enumerate(whole):
        chart.categoryAxis.labels[i].fontName = face
    chart.categoryAxis.strokeColor = soft
    return split


def _percent_axis(chart: HorizontalBarChart, fonts: Chain, numbers: Numbers, soft: Color, rule: Color) -> None:
    """Sets the chart's value axis from 0 to 100 percent, a grid line every quarter."""
    chart.valueAxis.valueMin = 0
    chart.valueAxis.valueMax = 100
    chart.valueAxis.valueStep = 25
    chart.valueAxis.labels.fontName = fonts.covering(numbers.percent(0.25) + numbers.percent(1))
    chart.valueAxis.labels.fontSize = 6
    chart.valueAxis.labelTextFormat = lambda v: numbers.percent(v / 100)
    chart.valueAxis.strokeColor = soft
    chart.valueAxis.visibleGrid = True
    chart.valueAxis.gridStrokeColor = rule
    chart.valueAxis.gridStrokeWidth = 0.25


def _style_bars(chart: HorizontalBarChart, fonts: Chain, numbers: Numbers, accent: Color) -> None:
    """Colours the chart's bars and prints each one's percentage in white inside its end."""
    chart.bars[0].fillColor = accent
    chart.bars[0].strokeColor = None
    chart.barWidth = pt(2.6)
    chart.barLabelFormat = lambda v: numbers.percent(v / 100)
    chart.barLabels.fontName = fonts.covering(numbers.percent(0.5) + "0123456789")
    chart.barLabels.fontSize = 5.5
    chart.barLabels.fillColor = white
    chart.barLabels.boxAnchor = "e"
    chart.barLabels.dx = -1.5


def _add_names(d: Drawing, chart: HorizontalBarChart, names: list[str], fonts: Chain) -> None:
    """Adds each pair's name run by run beside its bar, where the chart would have set it in one font."""
    band = chart.height / max(1, len(names))
    for i, name in enumerate(names):
        y = chart.y + (i + 0.5) * band - 0.35 * 6
        d.add(strings(chart.x - 2, y, name, fonts, 6, "end", fillColor=chart.categoryAxis.labels.fillColor))


def _add_caption(d: Drawing, width_mm: float, caption: str, fonts: Chain, soft: Color) -> None:
    """Adds the caption under the chart, flush right: one ``String``, or one per run where it needs more fonts."""
    if len(fonts.runs(caption)) == 1:
        d.add(String(pt(width_mm), pt(0), caption, fontName=fonts.covering(caption), fontSize=5.5, fillColor=soft,
                     textAnchor="end"))  # fmt: skip
    else:
        d.add(strings(pt(width_mm), pt(0), caption, fonts, 5.5, "end", fillColor=soft))


def pair_chart(
    pairs: list[tuple[str, float]],
    width_mm: float,
    look: Look,
    caption: str = CHART_CAPTION,
    numbers: Numbers = ENGLISH,
    chains: dict[str, Chain] | None = None,
) -> Drawing:
    """Connectivity per landmark pair as horizontal bars, weakest at the top, its percentages and ``caption``
    in the booklet's language, its words in the fonts of the ``small`` style's chain."""
    fonts = (chains or {}).get("small") or chain("Sans")
    soft, rule, accent = look.colour("soft"), look.colour("rule"), look.colour("accent")
    rows = len(pairs)
    height_mm = 11 + rows * 4.2
    d = Drawing(pt(width_mm), pt(height_mm))
    chart = HorizontalBarChart()
    chart.x, chart.y = pt(26), pt(9)
    chart.width, chart.height = pt(width_mm - 32), pt(height_mm - 11)
    ordered = sorted(pairs, key=lambda p: -p[1])  # reportlab draws the first category at the bottom
    chart.data = [[100 * v for _, v in ordered]]
    names = [name.replace("-", " – ") for name, _ in ordered]
    split = _label_pairs(chart, names, fonts, soft)
    _percent_axis(chart, fonts, numbers, soft, rule)
    _style_bars(chart, fonts, numbers, accent)
    d.add(chart)
    if split:  # each name run by run, where the chart would have set it in one font
        _add_names(d, chart, names, fonts)
    _add_caption(d, width_mm, caption, fonts, soft)
    return d
