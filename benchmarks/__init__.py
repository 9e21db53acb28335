"""Benchmarks for ``make bench``: speed and quality targets, printed as ratios measured in one run."""
