"""The optimize stage: search for a tile set whose random mazes score well.

Glossary
--------
design      a side up to rotation; the search changes the design of one face of a tile at a time.
strategy    a search algorithm, chosen by name (``STRATEGIES``): anneal (default), pool, beam, ga.
evaluator   what scores a strategy's candidates (``search.Evaluator``): one ``evaluate`` call each.
bank        layouts shared by every candidate of a chain (common random numbers), growing over time.
chain       one independent run of a strategy, a Dask task; ``chains`` of them run on the cluster.
re-score    the winner's fitness on 1,000,000 fresh layouts (by default): the figure reported.
"""

from generator.optimize.chain import Chain, Config, Progress
from generator.optimize.run import Result, optimize
from generator.optimize.space import DESIGNS, Problem, make_problem, random_tileset
from generator.optimize.strategies import DEFAULT_STRATEGY, PRESETS, STRATEGIES, strategy_named

__all__ = [
    "Chain",
    "Config",
    "DEFAULT_STRATEGY",
    "DESIGNS",
    "PRESETS",
    "Problem",
    "Progress",
    "Result",
    "STRATEGIES",
    "make_problem",
    "optimize",
    "random_tileset",
    "strategy_named",
]
