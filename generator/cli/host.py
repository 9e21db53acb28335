"""``trailwright host``: serve the game to people far apart, with bots in empty seats; every move recorded."""

from __future__ import annotations

import argparse

from generator.cli.options import (
    HelpFormatter,
    add_board_option,
    add_style_option,
    add_tileset_argument,
    bounded_float,
    bounded_int,
    flag_value,
    load_style_option,
    warn_strangers,
)

DEFAULT_DB = "output/games.db"


def register(sub) -> None:
    """Add the ``host`` subcommand."""
    p = sub.add_parser(
        "host",
        help="serve the game for people to play together online, with bots in empty seats; every move recorded",
        description="Serve rooms of the printed game (see docs/host.md): the server rolls, draws and enforces "
        "the rules with the simulator's own engine, and records every move in SQLite before anyone sees it.",
        formatter_class=HelpFormatter,
    )
    _game_options(p)
    _listening_options(p)
    _games_file_options(p)
    _room_options(p)
    _access_options(p)
    p.set_defaults(run=run)


def _game_options(p: argparse.ArgumentParser) -> None:
    """Add the game's options: the tile set, the board, the rules and the table style."""
    add_tileset_argument(p)
    add_board_option(p)
    p.add_argument("--rules", metavar="FILE", help="a rules TOML file (default: the booklet's game)")
    add_style_option(p, "table style")


def _listening_options(p: argparse.ArgumentParser) -> None:
    """Add the options of where the server listens and which names and proxies it trusts."""
    p.add_argument("--port", type=bounded_int(1, 65535), default=8765, help="the port to listen on")
    p.add_argument(
        "--bind",
        default="127.0.0.1",
        metavar="ADDR",
        help="the address to listen on (default: this machine only; 0.0.0.0 behind a TLS proxy, see docs/host.md)",
    )
    p.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a public name the server answers to behind a TLS proxy: NAME or NAME:PORT (https), or a whole "
        "origin such as http://NAME:8080 (repeatable)",
    )
    p.add_argument(
        "--trust-proxy",
        action="append",
        default=[],
        metavar="ADDR",
        help="the address of a reverse proxy whose X-Forwarded-For (its last hop only) names the client "
        "(repeatable; without it forwarding headers are ignored and the TCP peer is the client)",
    )


def _games_file_options(p: argparse.ArgumentParser) -> None:
    """Add the options of the games file that records every move."""
    p.add_argument("--db", default=DEFAULT_DB, metavar="FILE", help="the games file (SQLite; made if missing)")
    p.add_argument("--durable", action="store_true", help="sync every move to disk (survives a power cut)")


def _room_options(p: argparse.ArgumentParser) -> None:
    """Add the options of the rooms: the bots' pace, how many rooms and sockets, and the turn and idle limits."""
    p.add_argument(
        "--bot-delay",
        type=bounded_float(0, 60),
        default=0.6,
        metavar="S",
        help="seconds a bot waits before a move (0 to 60)",
    )
    p.add_argument(
        "--max-rooms",
        type=bounded_int(1, 100_000),
        default=200,
        metavar="N",
        help="unfinished rooms this host holds (finished ones are recorded and do not count)",
    )
    p.add_argument(
        "--max-per-address",
        type=bounded_int(1, 100_000),
        default=32,
        metavar="N",
        help="open websockets one client address may hold (behind a proxy, give --trust-proxy so that each "
        "player has their own address)",
    )
    p.add_argument(
        "--turn-timeout",
        type=bounded_float(1, 86_400),
        default=120.0,
        metavar="S",
        help="seconds a person may take over an action of their turn before a bot plays the turn for them",
    )
    p.add_argument(
        "--idle-minutes",
        type=bounded_float(0.01, 100_000),
        default=60.0,
        metavar="M",
        help="a room nobody is connected to and nobody moves in is put away after this (restored on its next visit)",
    )


def _access_options(p: argparse.ArgumentParser) -> None:
    """Add the options of who may reach the host: its token and the request rate one address may make."""
    p.add_argument(
        "--new-token",
        action="store_true",
        help="make a new host token (the old lobby link stops working); else the games file's is kept",
    )
    p.add_argument(
        "--rate",
        type=bounded_float(0, 10_000, above=True),
        default=20.0,
        metavar="N",
        help="requests and connections a second one address may make (three seconds' worth at once)",
    )
    p.add_argument("--token", default=None, help=argparse.SUPPRESS)  # tests: a known host token


def spec_and_art(tileset_path: str, board_name: str, rules_path: str | None, style_path: str | None = None):
    """The game spec and the table art (the print kit's own art, in the style or theme ``style_path``) for a tile
    set, board and rules."""
    from generator.board import load_board
    from generator.host.rooms import GameSpec
    from generator.model import read_tileset
    from generator.play import load_rules
    from generator.publish.settings import load_settings
    from generator.table.scene import layout_table_art

    with flag_value("--board"):
        board = load_board(board_name)
    tiles = read_tileset(tileset_path)
    with flag_value("--rules"):
        rules = load_rules(rules_path, board)
    from generator.errors import TrailwrightError

    if tiles.geometry != board.geometry:
        raise TrailwrightError(f"has {tiles.geometry} but {board.label} takes {board.geometry}", tileset_path)
    if len(tiles) != len(board.slots):
        raise TrailwrightError(f"has {len(tiles)} tiles but {board.label} has {len(board.slots)} slots", tileset_path)
    style = load_style_option(style_path, "host")
    warn_strangers(style, board, "host")
    art = layout_table_art(tiles, board, style, load_settings().title, "host", rules)
    return GameSpec(tiles, board, rules), art


def run(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C."""
    import secrets
    import sqlite3
    from pathlib import Path

    from generator.errors import TrailwrightError
    from generator.fileio import check_out
    from generator.host.server import Hall, Limits, create_app
    from generator.host.store import Store
    from generator.web.clients import quiet_server_logs, trusted_set
    from generator.web.guard import RateLimit, origin_set, served_origins
    from generator.web.serve import serve

    try:
        trusted = trusted_set(args.trust_proxy)
        origins = served_origins(args.bind, args.port, [h.lower() for h in args.allow_host])
        origin_set(origins)  # every --allow-host an address
    except ValueError as err:
        raise TrailwrightError(str(err), "--trust-proxy" if "trust-proxy" in str(err) else "--allow-host") from None
    spec, art = spec_and_art(args.tileset, args.board, args.rules, args.style)
    check_out(args.db, "file", "--db")
    try:
        Path(args.db).parent.mkdir(parents=True, exist_ok=True)
        store = Store(args.db, args.durable)
        limits = Limits(
            rooms=args.max_rooms,
            connections_per_address=args.max_per_address,
            turn_timeout=args.turn_timeout,
            idle_minutes=args.idle_minutes,
        )
        token = args.token or store.host_token(lambda: secrets.token_urlsafe(24), new=args.new_token)
        hall = Hall(spec, art, store, token, limits, max(0.0, args.bot_delay))
    except (OSError, sqlite3.Error, ValueError) as err:
        raise TrailwrightError(f"cannot use the games file: {err}", args.db) from None
    shown = "127.0.0.1" if args.bind in ("0.0.0.0", "::") else f"[{args.bind}]" if ":" in args.bind else args.bind
    print(f"Trailwright game server, {len(hall.rooms)} room(s) restored from {args.db}", flush=True)
    print(f"  make a room: http://{shown}:{args.port}/?token={hall.token}", flush=True)
    print("  Ctrl-C stops it; every move is already on disk.", flush=True)
    app = create_app(hall, origins, trusted)
    app.rate = RateLimit(per_second=max(0.1, args.rate), burst=max(1.0, 3 * args.rate))
    quiet_server_logs()
    serve(app, "Trailwright game server", args.bind, args.port, ws_max_size=Limits().message_bytes * 4, lifespan="on")
    store.close()
    return 0
