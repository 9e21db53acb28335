"""``trailwright studio [DIR]``: edit a project's tile set in the browser, with the figures after every edit."""

from __future__ import annotations

import argparse

from generator.cli.options import HelpFormatter, bounded_int


def register(sub) -> None:
    """Add the ``studio`` subcommand."""
    p = sub.add_parser(
        "studio",
        help="edit a project's tiles in the browser and see the score and the game change with every edit",
        description="Serve the studio for a project folder (trailwright new makes one) on this machine and open "
        "it in the browser. It reads and writes the project's own files. See docs/studio.md.",
        formatter_class=HelpFormatter,
    )
    p.add_argument("folder", metavar="DIR", nargs="?", default=".", help="the project folder")
    p.add_argument("--port", type=bounded_int(1, 65535), default=8766, help="the port to listen on")
    p.add_argument("--bind", default="127.0.0.1", metavar="ADDR", help="the address to listen on")
    p.add_argument("--no-browser", action="store_true", help="print the address, do not open a browser")
    p.add_argument(
        "--workers",
        type=bounded_int(1, 256),
        default=2,
        metavar="N",
        help="worker processes of a search, one chain each (default: 2)",
    )
    p.add_argument("--token", default=None, help=argparse.SUPPRESS)  # tests: a known session token
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C."""
    import secrets
    import threading
    import webbrowser

    from generator.errors import TrailwrightError
    from generator.project import FILES, is_project
    from generator.studio.server import create_app
    from generator.studio.session import Studio
    from generator.web.clients import quiet_server_logs
    from generator.web.guard import served_origins
    from generator.web.serve import serve

    if not is_project(args.folder):
        raise TrailwrightError(
            f"not a project folder (no {FILES['tileset']}): make one with trailwright new", args.folder
        )
    print(
        f"Trailwright studio for {args.folder}: reading it (a first start after an install compiles the scoring "
        "engine first: up to a minute)",
        flush=True,
    )
    studio = Studio(args.folder)
    token = args.token or secrets.token_urlsafe(24)
    shown = "127.0.0.1" if args.bind in ("0.0.0.0", "::") else f"[{args.bind}]" if ":" in args.bind else args.bind
    address = f"http://{shown}:{args.port}/?token={token}"
    app = create_app(
        studio, token, served_origins(args.bind, args.port), background=True, workers=args.workers
    )  # a bad project fails before the address
    print(f"  open: {address}", flush=True)
    print("  Ctrl-C stops it (save your edits first).", flush=True)
    if not args.no_browser:
        threading.Timer(1.0, webbrowser.open, (address,)).start()
    quiet_server_logs()
    serve(app, "Trailwright studio", args.bind, args.port)
    return 0
