"""The objective: the weights of each term of the article's fitness.

    fitness = bridges_weight * bridges            # sides whose trails cross
            + dup_weight * dup_score              # sum over designs of copies squared
            + fully_connected_weight * fully_connected
            + mean over layouts of (extra_edges_weight * extra_edges
                                    + pair_weight * landmark pairs joined)

The defaults are the article's weights.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Objective:
    """Weights of the fitness terms; the defaults are the article's ``scoreTiles``."""

    bridges_weight: float = -0.05
    dup_weight: float = -0.02
    fully_connected_weight: float = -1.0
    extra_edges_weight: float = -0.1
    pair_weight: float = 1.0


ARTICLE = Objective()
