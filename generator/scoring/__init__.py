"""The article's Monte-Carlo score of a tile set, with two interchangeable engines.

- ``reference``: networkx, the plain oracle.
- ``fast``: a compiled union-find kernel (numba), the default.
"""

from generator.scoring.objective import ARTICLE, Objective
from generator.scoring.score import (
    DEFAULT_SAMPLES,
    ENGINES,
    LayoutScores,
    Score,
    layout_scores,
    score,
    static_terms,
    summarise,
    warm_up,
)

__all__ = [
    "ARTICLE", "DEFAULT_SAMPLES", "ENGINES", "LayoutScores", "Objective", "Score", "layout_scores",
    "score", "static_terms", "summarise", "warm_up",
]
