"""The game server: rooms where people play the printed game online, with bots in empty seats and every
move recorded (``store``), enforced by the play engine's step interface (``generator.play.match``).

- ``rooms``: rooms, seats and bots (no HTTP); ``store``: the SQLite record; ``views``: what a client sees;
- ``server``: the Starlette app (HTTP and websockets) behind ``generator.web.guard``;
- ``records``: recorded games exported, replayed and compared with the simulation. See docs/host.md.
"""
