"""The rules booklet: jinja2 templates -> a small page markup -> reportlab pages (A5, reading order).

Glossary
--------
template   a jinja2 file in the templates folder (``booklet.xml.j2`` includes the others); it sees the
           booklet context (game, counts, landmarks, figures) as data.
markup     what the templates render to: a small XML vocabulary, one element per block (the list is
           in ``booklet.xml.j2``), parsed into ``Block`` values that carry their template location ``At``.
piece      one block's reportlab flowables, with its location and section (``blocks.build_story``).
look       page margins, colours and paragraph styles (``generator/publish/booklet.toml``).
thumb      a tile side's art, shown small (the catalogue, the figures).

Modules: ``loader`` (template loading, rendering), ``markup`` (parsing), ``styles`` (the look), ``blocks``
(one builder per element), ``flowables`` (hexagons, pictures, the chart), ``document`` (the pages), ``images``
(each image compressed once per build).
"""

from generator.publish.booklet.blocks import BUILDERS, Piece, Resources, build_story
from generator.publish.booklet.document import TooManyPages, booklet_pdf
from generator.publish.booklet.images import EncodedImages
from generator.publish.booklet.loader import render_markup
from generator.publish.booklet.markup import AT, MAIN_TEMPLATE, At, Block, parse_markup
from generator.publish.booklet.styles import Look, load_look, theme_fonts, themed_look
from generator.publish.language import TEMPLATES  # the booklet's own templates

__all__ = [
    "AT",
    "TEMPLATES",
    "BUILDERS",
    "MAIN_TEMPLATE",
    "At",
    "Block",
    "EncodedImages",
    "Look",
    "Piece",
    "Resources",
    "TooManyPages",
    "booklet_pdf",
    "build_story",
    "load_look",
    "theme_fonts",
    "themed_look",
    "parse_markup",
    "render_markup",
]
