"""``trailwright check``: preflight a published folder, or any PDF or PNG."""

from __future__ import annotations

import argparse

from generator.cli.options import HelpFormatter, flag_value, no_such_theme


def register(sub) -> None:
    """Add the ``check`` subcommand."""
    from generator.preflight.checks import TARGETS

    p = sub.add_parser(
        "check",
        help="preflight a published folder, or any PDF or PNG: sizes, bleed, marks, lines, fonts, colour",
        description="Check every PDF and PNG under PATH: page and box sizes against the manufacturer profile, "
        "bleed, crop marks outside the bleed, lines at least 0.25 pt, fonts embedded, PNG pixels and dpi, "
        "colour space for the target, the die line as a spot colour. One line per problem "
        "(file, page, what, measured, expected); exit status 1 when any check fails.",
        formatter_class=HelpFormatter,
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="a folder (such as output/) or PDF and PNG files")
    p.add_argument(
        "--for",
        dest="target",
        choices=TARGETS,
        default=None,
        help="check every file for this target (default: from its folder: factory/, manufacturer/, "
        "tabletop/ or play/, else home)",
    )
    p.add_argument(
        "--profile",
        metavar="NAME",
        default=None,
        help="manufacturer profile (default: the folder's manufacturer/NAME/, else the settings')",
    )
    p.add_argument(
        "--theme",
        metavar="DIR|NAME",
        default=None,
        help="also check this theme's art: SVG through the untrusted-art gate, raster dpi at print size, fonts "
        "(default: the theme the folder's kit.json records, when it is here)",
    )
    p.add_argument("--all", action="store_true", help="print the checks that pass too")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print one line per finding and a summary; 1 when anything failed."""
    from generator.preflight import preflight, summary, themes_to_check
    from generator.publish.settings import load_profile
    from generator.render.style import is_theme

    if args.profile:
        with flag_value("--profile"):
            load_profile(args.profile)
    if args.theme is not None and not is_theme(args.theme):
        raise no_such_theme(args.theme, style_files=False)
    for missing in themes_to_check(args.paths, args.theme)[1]:
        print(f"check: the theme {missing!r} that kit.json records is not here; pass --theme DIR to check its art")
    findings = preflight(args.paths, args.target, args.profile, args.theme)
    failed = [f for f in findings if not f.ok]
    for finding in findings if args.all else failed:
        print(finding.line())
    print(summary(findings))
    return 1 if failed else 0
