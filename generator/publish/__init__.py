"""Publishing: print-and-play tile sheets, the board, the rules booklet and manufacturer files.

Every length is in millimetres; points appear only where reportlab is called (``pdf.pt``).
Everything returns data (plans, PDF bytes, ``{path: bytes}``); only the CLI writes files.

- ``settings``      papers, manufacturer profiles and publish options: TOML → frozen dataclasses
- ``layout``        sheet plans: packing, bleed, crop marks, mirrored backs (pure geometry)
- ``art``           the layout stage's SVG, rasterised once per side through one frame
- ``pdf``           reproducible reportlab canvases, embedded fonts, footers and check rulers
- ``sheets``        duplex and fold-over tile sheets
- ``boardsheets``   the board on one large sheet, or tiled over small ones
- ``booklet``       the rules from jinja2 templates; ``impose`` lays it out for saddle stitching
- ``language``      the booklet's language: its templates folder, numbers and phrases (``--lang fr``)
- ``bookletkit``    a kit's booklet: the context its templates see, rendered in its language, its two PDFs
- ``fonts``         a theme's font made embeddable (CFF outlines converted to TrueType ones)
- ``manufacturer``  per-face PNG and vector PDF, die line, manifest, zip
- ``sources``       what a kit is made from (``Sources``, ``layout_sources``) and its ``provenance``
- ``kit``           the named documents (``DOCUMENTS``: sheets, board, booklet, manufacturer), each a builder
                    returning ``{relative path: bytes}``; ``publish_kit`` makes the chosen ones
"""

from __future__ import annotations

import importlib
from typing import Any

# what the package offers, by the module it comes from: imported when first asked for, so that reading a setting
# (``generator.publish.settings``: ``trailwright check``) does not import the whole publishing stack, the play
# engine and numba with it
_FROM = {
    "publish_kit": "generator.publish.kit",
    "PublishSettings": "generator.publish.settings",
    "load_paper": "generator.publish.settings",
    "load_profile": "generator.publish.settings",
    "load_settings": "generator.publish.settings",
    "Sources": "generator.publish.sources",
    "layout_sources": "generator.publish.sources",
    "Figures": "generator.scoring.figures",
    "figures_from_score": "generator.scoring.figures",
}
__all__ = sorted(_FROM)


def __getattr__(name: str) -> Any:
    if name not in _FROM:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_FROM[name]), name)
