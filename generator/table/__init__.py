"""Virtual tables: play the maze before printing it, from the same art as the print kit.

- ``scene``     what both are drawn from (``TableArt``: the print kit's art and board), safe names
- ``pile``      the seeded draw pile (shuffle, coin, die) the browser table deals from
- ``tabletop``  a Tabletop Simulator saved object: tiles in a bag, the board mat, pawns, a die
- ``tabletop_art``, ``tabletop_guide``  what TTS shows (the tiles' shape and pictures, the mat) and what its
  folder tells the players (the dice, the README)
- ``playtable`` one self-contained HTML page that plays the game in a browser

Every function returns data (``{relative path: bytes}``); only the CLI writes files.
"""

from generator.table.pile import Draw, draw_pile, mulberry32
from generator.table.playtable import play_files, play_table_html
from generator.table.tabletop import TableArt, tabletop_files

__all__ = ["Draw", "draw_pile", "mulberry32", "play_files", "play_table_html", "TableArt", "tabletop_files"]
