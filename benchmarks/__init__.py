"""Benchmarks for ``make bench``: speed and quality targets, printed as ratios measured in one run."""


def print_rows(heading: str, rows: list[tuple[str, str, str, bool]]) -> int:
    """Print ``heading`` and one line per (what, value, target, met) row, ``ok`` or ``MISSED`` beside each target.

    Returns the exit status: 1 when a target is missed, else 0.
    """
    width = max(len(r[0]) for r in rows)
    value_width = max(len(r[1]) for r in rows)
    target_width = max(len(r[2]) for r in rows)
    print(heading)
    for name, value, target, ok in rows:
        mark = "" if not target else ("  ok" if ok else "  MISSED")
        print(f"  {name:<{width}}  {value:>{value_width}}  {target:>{target_width}}{mark}")
    return 0 if all(ok for *_, ok in rows) else 1
