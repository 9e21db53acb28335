"""The play table's words in English (a booklet's language.toml words them again in ``[phrases.table]``)."""

WORDS = {
    "page": "{title}: play table",
    "new_maze": "New maze",
    "seed": "Seed",
    "share": "share",
    "pile": "tiles in the pile",
    "roll": "Roll the die",
    "roll_sides": "Roll the die ({sides} sides)",
    "highlight": "what each landmark reaches",
    "how": "Click an empty slot to lay the next tile of the shuffled pile, with the face and turn the pile gives it. "
    "Click a laid tile to turn it {turn} clockwise (shift-click or right-click: anticlockwise). Drag the pawns.",
    "turn": "one edge",  # a tile turn by one edge: the kit's language words it for its tiles (``Language.turn``)
    "far": "Two players far apart see the same maze with the same seed: send the page and the {seed} at the end "
    "of its address.",
    "made": "Made by trailwright {version}.",
    "start": "Start on {start}",
    "visit": "visit {required} in any order, then reach {goal}",
    "reach": "reach {goal}",
    "hazard": "Stepping into {landmark}, roll at once: on {rolls} go to {to}",
    "name": "the {name}",
    "and": "and",
    "or": "or",
    "seats": "{low} to {high} players",
    "seat": "{n} players",
    "joined": "joined",
    "alone": "reaches no other landmark",
    "board": "the board",
    "slot": "slot {n}",
    "pawn": "{colour} explorer",
    "Red": "Red",
    "Blue": "Blue",
    "Yellow": "Yellow",
    "Green": "Green",
}
