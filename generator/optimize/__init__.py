"""The optimize stage: search for a tile set whose random mazes score well.

Glossary
--------
design      a side up to rotation; the search changes the design of one face of a tile at a time.
strategy    a search algorithm, chosen by name (``STRATEGIES``): anneal (default), pool, beam, ga.
bank        layouts shared by every candidate of a chain (common random numbers), growing over time.
chain       one independent run of a strategy; ``workers`` chains run side by side.
re-score    the winner's fitness on 1,000,000 fresh layouts (by default): the figure reported.
"""

from generator.optimize.run import Config, Progress, Result, optimize
from generator.optimize.space import DESIGNS, Problem, make_problem, random_tileset
from generator.optimize.strategies import DEFAULT_STRATEGY, PRESETS, STRATEGIES, strategy_named

__all__ = ["Config", "DEFAULT_STRATEGY", "DESIGNS", "PRESETS", "Problem", "Progress", "Result", "STRATEGIES",
           "make_problem", "optimize", "random_tileset", "strategy_named"]
