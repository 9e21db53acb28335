"""The booklet's claims checked against its play figures: a sentence of the rules text that the simulated
games contradict is a warning when the kit is published (see ``generator.publish.rulesbook.CLAIMS``)."""

from __future__ import annotations

import re

from generator.publish.bookletkit import rendered_templates
from generator.publish.rulesbook import false_claims


def markup_text(markup: str) -> str:
    """The words of rendered booklet markup, tags and line breaks gone."""
    return " ".join(re.sub(r"<[^>]+>", " ", markup).split())


def claim_warnings(src, settings) -> list[str]:
    """One line for each claim of the booklet's text (for kit sources ``src``) that its play figures contradict."""
    if src.play is None:
        return []
    return false_claims(markup_text(rendered_templates(src, settings)), src.play, language=src.language)
