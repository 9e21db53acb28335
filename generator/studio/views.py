"""The studio's page: a shell the script fills from ``/api/state`` (no user string is written into it but the
project's name, escaped)."""

from __future__ import annotations

from html import escape

from generator import __version__
from generator.studio.session import Studio
from generator.web.assets import script, stylesheet

SCRIPTS = (
    "studio.js",
    "board.js",
    "optimize.js",
    "publish.js",
    "playtest.js",
)  # in this order: the views use studio.js
ASSETS = {"studio": ("generator.studio", "static", (*SCRIPTS, "studio.css"))}  # ``generator.web.assets``


VIEWS = (
    ("tiles", "Tiles"),
    ("board", "Board"),
    ("optimize", "Optimize"),
    ("publish", "Publish"),
    ("playtest", "Playtest"),
)


def _tabs() -> str:
    return "".join(
        f'<button type="button" data-view="{key}"{" class=on" if key == "tiles" else ""}>{label}</button>'
        for key, label in VIEWS
    )


def _board(shape: str) -> str:
    """The Board view; on a board of square tiles its words say cell and square where the hex grid's say hex."""
    tools = "".join(
        f'<label><input type="radio" name="bd-tool" value="{k}"{" checked" if k == "slot" else ""}> {k}</label> '
        for k in ("slot", "landmark", "connector", "wall")
    )
    tools += '<label><input type="radio" name="bd-tool" value="pin"> pin a side</label> '

    words = (
        '<main id="view-board" class="view" hidden><section><h2>Paint the board</h2>'
        f"<p>{tools}"
        '<input id="bd-name" maxlength="60" placeholder="landmark name" size="14"></p>'
        '<p id="bd-help">Click a hex to paint it. A connector: click its hex, then the two slots it joins. '
        "A landmark faces the slots next to it; <b>pin a side</b>: click the landmark, then a slot it faces "
        "(again to unpin it), and it faces its pinned sides only. "
        "The board may be wrong on the way: each problem is marked on its hex.</p>"
        '<p id="bd-error" role="status"></p><p id="bd-said" role="status"></p>'
        '<svg id="bd-grid" role="img" aria-label="the board as a hex grid"></svg>'
        '<p><button id="bd-save" type="button">Save the board</button> '
        '<button id="bd-revert" type="button">Revert</button> <span id="bd-count"></span></p></section>'
        "<section><h2>As the renderer draws it</h2>"
        '<img id="bd-picture" alt="the board as trailwright render draws it"></section></main>'
    )
    if shape == "square":
        return words.replace("a hex grid", "a square grid").replace("a hex", "a cell").replace("its hex", "its cell")
    return words


def _optimize() -> str:
    return (
        '<main id="view-optimize" class="view" hidden><section><h2>Search for a better tile set</h2>'
        "<p>The optimizer starts from the tiles as edited, with the project's objective: its weights, the pinned "
        "tiles and the forbidden designs (objective.toml). Its result changes nothing until you accept it.</p>"
        '<p><label>seconds <input id="op-seconds" type="number" min="2" max="3600" value="20"></label> '
        '<label>seed <input id="op-seed" type="number" min="0" value="0"></label> '
        '<button id="op-start" type="button">Start</button> <button id="op-stop" type="button" disabled>Stop</button>'
        '</p><p id="op-status">No search yet.</p>'
        '<svg id="op-chart" viewBox="0 0 320 140" role="img" aria-label="best fitness over time"></svg></section>'
        '<section id="op-offer" hidden><h2>The result beside your set</h2><table id="op-compare"></table>'
        '<h3 id="op-changed-title"></h3><div id="op-changed"></div>'
        '<p><button id="op-accept" type="button">Accept it</button> '
        '<button id="op-discard" type="button">Discard it</button></p></section></main>'
    )


def _publish() -> str:
    return (
        '<main id="view-publish" class="view" hidden><section><h2>Publish the kit</h2>'
        "<p>Runs <code>trailwright publish</code> on the project's saved files into <code>output/kit/</code> "
        "(the print-and-play PDFs, the booklet, the manufacturer files, the Tabletop Simulator object and the "
        "play table), then <code>trailwright check</code> on the kit.</p>"
        '<p><button id="pb-start" type="button">Publish</button> '
        '<button id="pb-stop" type="button" disabled>Stop</button> <span id="pb-time"></span></p>'
        '<pre id="pb-log"></pre><p id="pb-checks"></p><ul id="pb-failed"></ul></section>'
        '<section><h2>The kit</h2><p id="pb-note"></p><div id="pb-kit"></div></section></main>'
    )


def _playtest() -> str:
    return (
        '<main id="view-playtest" class="view" hidden><section><h2>Play the tiles as they are now</h2>'
        "<p>A room of the game server plays the tile set as edited (saved or not), with the simulator's bots in "
        "every seat but yours. Every move is recorded in <code>output/games.db</code>; "
        "<code>trailwright games report</code> compares the games with the simulation.</p>"
        '<p><label>players <select id="pt-players"></select></label> '
        '<label>bots <select id="pt-policy"><option>explorer</option><option>greedy</option></select></label> '
        '<button id="pt-start" type="button">Play against the bots</button></p>'
        '<p id="pt-made"></p></section><section><h2>Games so far</h2><table id="pt-rooms"></table></section></main>'
    )


def page(studio: Studio) -> str:
    """The studio page for ``studio``'s project."""
    name = escape(studio.folder.name)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<link rel="icon" href="data:,"><title>{name}: Trailwright studio</title>'
        f"{stylesheet('studio', 'studio.css')}</head><body>"
        '<div id="banner" role="alert" hidden></div><p id="message" role="status" hidden></p>'
        f'<header><h1>{name}</h1><nav id="views">{_tabs()}</nav><button id="undo" type="button">Undo</button>'
        '<button id="redo" type="button">Redo</button><button id="save" type="button">Save</button>'
        '<span id="status"></span></header><main id="view-tiles" class="view">'
        '<section id="sides"><h2>Tiles: click a side to edit it</h2><div id="grid"></div></section>'
        '<section id="editor"><div id="side-editor" hidden><h2 id="editing"></h2>'
        '<svg id="hex" viewBox="-60 -60 120 120" role="img" aria-label="the side, its exits and trails"></svg>'
        "<p>Click two exits to join them into one trail; click an exit twice to make it a dead end.</p>"
        '<p><button id="rotate" type="button">Turn a sixth</button> <button id="copy" type="button">Copy to…</button> '
        '<button id="swap" type="button">Swap with…</button></p><p id="side-info"></p>'
        '<p><label><input id="pin" type="checkbox"> pin this tile (the optimizer keeps it)</label><br>'
        '<label><input id="forbid" type="checkbox"> forbid this design (the optimizer never uses it)</label>'
        "<br><small>Both are written to objective.toml at once.</small></p></div>"
        '<h2>A random maze</h2><p><label>seed <input id="maze-seed" type="number" min="0" value="0"></label> '
        '<button id="maze-new" type="button">Another</button></p>'
        '<img id="maze" alt="a random layout of the tiles, what each landmark reaches coloured"></section>'
        '<section id="figures"><h2>Figures</h2><table id="figure-table"></table><h3>Landmark pairs joined</h3>'
        '<table id="pairs"></table><h3 id="games-title">Explorer games</h3>'
        '<svg id="histogram" viewBox="0 0 300 102" role="img" aria-label="games by rounds played"></svg>'
        '<p id="games"></p></section></main>'
        f"{_board(studio.board.geometry.shape)}{_optimize()}{_publish()}{_playtest()}"
        f"<footer><small>trailwright {escape(__version__)} studio: saves write tileset.json, as every command "
        "reads it.</small></footer>"
        f"{''.join(script('studio', name) for name in SCRIPTS)}</body></html>\n"
    )
