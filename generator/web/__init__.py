"""The web stack the game server and the studio share: an ASGI guard (hosts, origins, sizes, rates) and
one-line JSON errors. The core never speaks HTTP: these modules translate."""
