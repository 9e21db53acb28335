"""The booklet's pages: the story on paper-sized pages with a running footer, the cover without one.

A block too tall for a page is found before reportlab lays anything out (``too_tall``), so the
error names the block's template, line and section from the ``Piece`` that carries them.
"""

from __future__ import annotations

import io
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Frame, NextPageTemplate, PageTemplate
from reportlab.platypus.doctemplate import ActionFlowable, FrameActionFlowable, LayoutError

from generator.publish.booklet.blocks import Piece
from generator.publish.booklet.images import EncodedImages, encoding_canvas
from generator.publish.booklet.markup import source_error
from generator.publish.booklet.styles import Look, chains, load_look, name_chain
from generator.publish.fontchain import draw, register_fonts, set_font
from generator.publish.pdf import DocInfo, pt, without_dates
from generator.publish.settings import Paper

FUZZ = 1e-6  # points, as reportlab's frames allow


class TooManyPages(Exception):
    """A layout ran past the pages it was allowed (``booklet_pdf(max_pages=)``): a trial that cannot win."""


def too_tall(flowable, canv: Canvas, width: float, height: float, depth: int = 0):
    """The first flowable (``flowable`` or a piece it splits into) that cannot fit an empty ``width`` ×
    ``height`` frame even when split, with its height; None when it fits."""
    if isinstance(flowable, (ActionFlowable, FrameActionFlowable)) or depth > 50:
        return None
    _, h = flowable.wrapOn(canv, width, height)
    if h <= height + FUZZ:
        return None
    parts = flowable.splitOn(canv, width, height)
    if not parts:
        return flowable, h
    return next((found for part in parts if (found := too_tall(part, canv, width, height, depth + 1))), None)


def _check_fits(
    pieces: tuple[Piece, ...], width: float, height: float, paper: Paper, look: Look, folder: Path | None
) -> None:
    canv = Canvas(io.BytesIO())  # a scratch canvas to measure on
    for piece in pieces:
        if piece.inner:
            _check_fits(piece.inner, width, height, paper, look, folder)
            continue
        for f in piece.flowables:
            found = too_tall(f, canv, width, height)
            if found:
                kind = type(found[0]).__name__
                what = f"{kind} in section {piece.section!r}" if piece.section else kind
                frame_mm = paper.height_mm - look.margin_top_mm - look.margin_bottom_mm
                raise source_error(
                    f"{what} does not fit on a {paper.title} page, {found[1] / pt(1):.0f} mm tall "
                    f"(the frame is {frame_mm:g} mm tall)",
                    piece.at,
                    folder,
                )


def _page_templates(paper: Paper, look: Look, title: str, frame: Frame) -> list[PageTemplate]:
    tint, rule, soft = look.colour("tint"), look.colour("rule"), look.colour("soft")
    mx = look.margin_x_mm
    name_fonts, number_fonts = name_chain(look), chains(look)["small"]

    def cover(c, _doc):
        c.saveState()
        c.setFillColor(tint)
        c.rect(0, 0, pt(paper.width_mm), pt(paper.height_mm), stroke=0, fill=1)
        c.restoreState()

    def body(c, _doc):
        c.saveState()
        c.setStrokeColor(rule)
        c.setLineWidth(0.4)
        y = pt(look.margin_bottom_mm - 6)
        c.line(pt(mx), y + pt(3.6), pt(paper.width_mm - mx), y + pt(3.6))
        c.setFillColor(soft)
        page = c.getPageNumber()
        left, right = (
            ((str(page), number_fonts), (title, name_fonts))
            if page % 2 == 0
            else ((title, name_fonts), (str(page), number_fonts))
        )
        set_font(c, left[0], left[1], 7)
        draw(c, pt(mx), y, left[0], left[1], 7)
        set_font(c, right[0], right[1], 7)
        draw(c, pt(paper.width_mm - mx), y, right[0], right[1], 7, "end")
        c.restoreState()

    return [PageTemplate("body", [frame], onPage=body), PageTemplate("cover", [frame], onPage=cover)]


def booklet_pdf(
    pieces: tuple[Piece, ...],
    paper: Paper,
    info: DocInfo,
    title: str,
    folder: Path | None = None,
    look: Look | None = None,
    images: EncodedImages | None = None,
    max_pages: int | None = None,
) -> bytes:
    """The pieces' flowables on ``paper`` pages; a block too big for a page is an error naming its template
    (in ``folder``), line and section. Images come from ``images`` (each compressed once across the PDFs of a
    build that share it). With ``max_pages``, a layout that ends a page past it stops there: ``TooManyPages``."""
    register_fonts()
    look = look or load_look()
    from reportlab import rl_config

    rl_config.useA85 = 0
    buffer = io.BytesIO()
    doc = BaseDocTemplate(
        buffer,
        pagesize=(pt(paper.width_mm), pt(paper.height_mm)),
        invariant=1,
        title=info.title,
        author="Trailwright",
        subject=info.subject,
        creator=info.made_with or "trailwright",
        producer=f"{info.made_with or 'trailwright'} (reportlab)",
        keywords=info.made_with,
        leftMargin=pt(look.margin_x_mm),
        rightMargin=pt(look.margin_x_mm),
        topMargin=pt(look.margin_top_mm),
        bottomMargin=pt(look.margin_bottom_mm),
    )
    frame = Frame(
        doc.leftMargin,
        doc.bottomMargin,
        doc.width,
        doc.height,
        id="body",
        leftPadding=0,
        rightPadding=0,
        topPadding=0,
        bottomPadding=0,
    )
    _check_fits(pieces, doc.width, doc.height, paper, look, folder)
    templates = _page_templates(paper, look, title, frame)
    story = [f for piece in pieces for f in piece.flowables]
    if story and isinstance(story[0], NextPageTemplate) and story[0].action[1] == "cover":
        templates.reverse()  # the first page is the cover: start on that template
        story = story[1:]
    doc.addPageTemplates(templates)
    canvas = encoding_canvas(_canvas_maker(info, max_pages), images if images is not None else EncodedImages())
    try:
        doc.build(story, canvasmaker=canvas)
    except LayoutError as err:  # a fit that depends on what precedes it on the page
        raise source_error(
            f"a block does not fit on a {paper.title} page ({str(err).splitlines()[0][:80]})", None, folder
        ) from None
    return buffer.getvalue()


def _canvas_maker(info: DocInfo, max_pages: int | None = None):
    class BookletCanvas(Canvas):
        def __init__(self, *args, **kw):
            kw["invariant"] = 1
            kw["initialFontName"] = "Serif"
            super().__init__(*args, **kw)
            without_dates(self)
            self.setViewerPreference("PrintScaling", "None")

        def showPage(self):  # noqa: N802
            if max_pages is not None and self.getPageNumber() > max_pages:
                raise TooManyPages(f"more than {max_pages} pages")
            super().showPage()

    return BookletCanvas
