"""Trailwright: turn a hex-tile maze game into a printed, playable prototype.

The package mirrors the pipeline:

- ``model``     tiles, sides, trails, tile sets, the article's genome, tile set JSON
- ``board``     boards as data (slots, landmarks, connectors) and hex geometry
- ``scoring``   the article's Monte-Carlo score: a networkx reference and a compiled kernel
- ``optimize``  search strategies for the best tile set
- ``render``    SVG art for tile sides, the board and maze previews
- ``publish``   print-and-play PDFs, the rules booklet and manufacturer files
- ``cli``       the ``trailwright`` command
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("trailwright")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0+source"

# before anything imports numba: one kernel cache for every checkout and install of this version (jitcache)
from generator import jitcache  # noqa: E402

jitcache.configure()
