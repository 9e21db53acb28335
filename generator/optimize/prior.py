"""The design prior of a board of many designs: which designs a one-face change tries more often.

A one-face change draws the face's new design from every allowed design alike. Among the classic game's 43 that
finds the good ones soon; among hex-pairs' 1,799 most draws are designs no good set uses, and a short run spends its
generations turning them away. So a chain on a board of more than ``PRIOR_FROM`` designs first ranks every allowed
design once, by its fitness laid *alone* (on every face of every tile) on ``PRIOR_LAYOUTS`` layouts of its own
(``Search.alone``): a design that joins trails with its like joins them in a mixed set too. Its one-face changes
then draw from the top ``PRIOR_SHARE`` of that ranking (the *favoured* designs) with chance ``PRIOR_CHANCE``, else
from all, so every allowed design stays in reach. Swaps are unchanged.

The ranking is the objective's own fitness, so it favours whatever the designer's weights reward. Measured on
hex-pairs with the article's objective: 56 of the 74 faces of the set a 60 s run found (seed 1) came from the top
tenth (180 designs) of a ranking on 32 layouts, 57 to 59 on 128 or 256. ``--time 10``, seeds 1-5 on a quiet
2-core machine: drawing every design alike re-scored a median of 0.23; drawing from the top tenth half the time,
0.91; from the top 5 %, 1.00, and 1.11 with a bank grown for it (``timing.PACED_DESIGNS``). The ranking takes about
0.3 s, in the chain's first generation; it is the same for a seed, and a checkpoint keeps it.
"""

from __future__ import annotations

import numpy as np

from generator.optimize.search import Search
from generator.optimize.space import Problem

PRIOR_FROM = 43  # the most designs a board's moves draw from alike (the classic game's)
PRIOR_LAYOUTS = 32  # layouts of the ranking: about as good as 256 at a third of the time
PRIOR_SHARE = 0.05  # of the allowed designs, the favoured
PRIOR_CHANCE = 0.5  # that a one-face change draws from the favoured


def applies(problem: Problem) -> bool:
    """Whether a chain on ``problem`` ranks its designs: more than ``PRIOR_FROM`` are allowed."""
    return len(problem.allowed) > PRIOR_FROM


def drawn_from(problem: Problem) -> int:
    """How many designs a chain's one-face changes mostly draw from: the favoured where the prior applies, else every
    allowed design (``timing.default_bank_end`` sizes a short run's bank by it)."""
    n = len(problem.allowed)
    return max(2, round(PRIOR_SHARE * n)) if applies(problem) else n


def favoured(problem: Problem, rng: np.random.Generator) -> tuple[int, ...]:
    """The top ``PRIOR_SHARE`` of the allowed designs by fitness alone, in design order (at least two), on layouts
    drawn from ``rng``; none where the prior does not apply (and then nothing is drawn from ``rng``)."""
    if not applies(problem):
        return ()
    search = Search(problem, int(rng.integers(2**63)), PRIOR_LAYOUTS, PRIOR_LAYOUTS)
    fitness = search.alone(problem.allowed)
    ranked = sorted(range(len(problem.allowed)), key=lambda k: (-fitness[k], k))
    top = ranked[: drawn_from(problem)]
    return tuple(sorted(problem.allowed[k] for k in top))
