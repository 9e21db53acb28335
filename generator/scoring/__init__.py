"""The article's Monte-Carlo score of a tile set, with two interchangeable engines.

- ``reference``: networkx, the plain oracle.
- ``fast``: a compiled union-find kernel (numba), the default; ``layout_counts`` streams it
  over threads in constant memory (``Counts``).
"""

from generator.scoring.objective import ARTICLE, Objective
from generator.scoring.score import (
    DEFAULT_SAMPLES,
    ENGINES,
    LayoutScores,
    Score,
    layout_counts,
    layout_scores,
    score,
    static_terms,
    summarise,
    warm_up,
)
from generator.scoring.stream import Counts

__all__ = [
    "ARTICLE",
    "Counts",
    "DEFAULT_SAMPLES",
    "ENGINES",
    "LayoutScores",
    "Objective",
    "Score",
    "layout_counts",
    "layout_scores",
    "score",
    "static_terms",
    "summarise",
    "warm_up",
]
