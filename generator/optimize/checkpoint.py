"""Checkpoints as data only: one JSON document for the problem, the settings and every chain.

Nothing in a checkpoint can run code: it is JSON, read with the input layer's strict parser and then checked
field by field (``read_checkpoint`` is the one function that reads one). The problem is written
as the same data a user writes by hand (a board table, the objective's keys, a tile set), and
read back through the same validating loaders. A checkpoint that is truncated, from another
version, for another board or tile count, or crafted, is a one-line error naming the file and
the field; nothing runs.

Layout (``trailwright-checkpoint/2``)::

    {"format": ..., "version": ..., "init": path or null,
     "problem": {"board": {...}, "objective": {...}, "start": {tile set}, "pinned": [ids]},
     "config": {Config fields}, "chains": [Chain.to_data() or null, ...],
     "migrants": [[leg, chain, designs], ...]}       # island mode: migrations decided so far
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

from generator import __version__
from generator.board.board import board_data, board_from_dict
from generator.errors import TrailwrightError
from generator.inputs import parse_json, read_bytes
from generator.model.tileset_io import tileset_from_dict, tileset_to_dict
from generator.optimize.chain import Chain, Config, HistoryPoint, config_strategy
from generator.optimize.space import Problem, make_problem
from generator.optimize.strategies import load_state
from generator.scoring.objective import objective_from_dict

CHECKPOINT_FORMAT = "trailwright-checkpoint/2"


@dataclass(frozen=True)
class Resume:
    """What a checkpoint holds: the problem, the settings and every chain so far (None: not started)."""

    problem: Problem
    config: Config
    chains: tuple[Chain | None, ...]
    init: str | None
    migrants: tuple = ()  # (leg, chain index, designs) decided so far


def _objective_data(problem: Problem) -> dict:
    o = problem.objective.settings()
    names = problem.board.geometry.end_names  # the classic game's: its directions
    o["forbid"] = [[[names[d] for d in trail] for trail in design] for design in o["forbid"]]
    o["pair_targets"] = dict(o["pair_targets"])
    return o


def checkpoint_text(problem: Problem, config: Config, chains, init: str | None, migrants=()) -> str:
    """A checkpoint: the problem, the settings and every chain so far, as JSON text."""
    data = {
        "format": CHECKPOINT_FORMAT,
        "version": __version__,
        "init": init,
        "problem": {
            "board": board_data(problem.board),
            "objective": _objective_data(problem),
            "start": tileset_to_dict(problem.start),
            "pinned": [problem.start.tiles[t].id for t in problem.pinned],
        },
        "config": {f.name: getattr(config, f.name) for f in fields(Config)},
        "chains": [None if c is None else c.to_data() for c in chains],
        "migrants": [[leg, index, [list(row) for row in designs]] for leg, index, designs in migrants],
    }
    return json.dumps(data, separators=(",", ":")) + "\n"


def read_checkpoint(path: str | Path) -> Resume:
    """Load and check a checkpoint file; every problem is one line naming the file."""
    source = str(path)
    raw = read_bytes(path, source)  # an empty path, a folder, a file past the limit: one line
    try:
        data = parse_json(raw.decode("utf-8"), source)  # the input layer's strict JSON: no NaN, duplicate keys, depth
    except UnicodeDecodeError:
        raise TrailwrightError("not a trailwright checkpoint (not UTF-8 text)", source) from None
    except TrailwrightError as err:
        detail = str(err).removeprefix(f"{source}: ")
        raise TrailwrightError(f"not a trailwright checkpoint (truncated, or not JSON: {detail})", source) from None
    if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
        raise TrailwrightError(f"not a trailwright checkpoint (no format {CHECKPOINT_FORMAT!r})", source)
    if data.get("version") != __version__:
        raise TrailwrightError(
            f"written by trailwright {data.get('version')!r}, this is {__version__}: "
            "a checkpoint resumes only with the version that wrote it",
            source,
        )
    try:
        return _resume(data)
    except TrailwrightError as err:
        raise TrailwrightError(f"checkpoint {err}", source) from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError, RecursionError) as err:
        detail = f"missing {err}" if isinstance(err, KeyError) else str(err).splitlines()[0] if str(err) else ""
        raise TrailwrightError(f"not a valid checkpoint ({type(err).__name__}: {detail})", source) from None


def _resume(data: dict) -> Resume:
    problem_data = _table(data, "problem")
    board = board_from_dict(_table(problem_data, "board"))
    objective = objective_from_dict(_table(problem_data, "objective"))
    start = tileset_from_dict(problem_data["start"], "start")
    pinned = problem_data["pinned"]
    if not isinstance(pinned, list) or not all(isinstance(p, str) for p in pinned):
        raise TrailwrightError("problem.pinned must be a list of tile ids")
    problem = make_problem(board, objective, start, tuple(pinned))
    config = _config(_table(data, "config"))
    strategy = config_strategy(config)
    chains = data["chains"]
    if not isinstance(chains, list) or len(chains) != config.chains:
        raise TrailwrightError(f"chains: expected a list of {config.chains} (config.chains)")
    init = data["init"]
    if init is not None and not isinstance(init, str):
        raise TrailwrightError("init must be a path or null")
    return Resume(
        problem,
        config,
        tuple(None if c is None else _chain(c, i, problem, strategy) for i, c in enumerate(chains)),
        init,
        _migrants(data["migrants"], problem, config),
    )


def _migrants(data: Any, problem: Problem, config: Config) -> tuple:
    if not isinstance(data, list):
        raise TrailwrightError("migrants must be a list")
    out = []
    for item in data:
        leg, index, designs = item
        rows = np.array(designs, dtype=np.int64)
        if (
            isinstance(leg, bool)
            or not isinstance(leg, int)
            or leg < 1
            or not isinstance(index, int)
            or not 0 <= index < config.chains
            or rows.shape != (problem.board.tile_count, problem.faces)
            or rows.min() < 0
            or rows.max() >= len(problem.space.designs)
        ):
            raise TrailwrightError(f"migrants: {str(item)[:60]} is not [leg, chain, designs] for this board")
        out.append((leg, index, tuple(tuple(int(d) for d in row) for row in rows)))
    return tuple(out)


def _table(data: dict, key: str) -> dict:
    value = data[key]
    if not isinstance(value, dict):
        raise TrailwrightError(f"{key} must be an object")
    return value


_CONFIG_TYPES = {
    "strategy": (str,),
    "preset": (str, type(None)),
    "time": (int, float, type(None)),
    "generations": (int, type(None)),
    "samples": (int, type(None)),
    "max_samples": (int, type(None)),
    "seed": (int,),
    "chains": (int,),
    "migrate": (int, float, type(None)),
    "exchanges": (int,),
    "rescore": (int,),
    "checkpoint_every": (int, float),
    "polish": (int,),
    "polish_share": (int, float),
}


def _config(data: dict) -> Config:
    if isinstance(data, dict):
        data = {"polish": 0, "polish_share": 0.0, "exchanges": 0, **data}  # a checkpoint from before them
    if set(data) != set(_CONFIG_TYPES):
        raise TrailwrightError(f"config must have exactly the keys {', '.join(sorted(_CONFIG_TYPES))}")
    for key, value in data.items():
        if isinstance(value, bool) or not isinstance(value, _CONFIG_TYPES[key]):
            raise TrailwrightError(f"config.{key} = {value!r} has the wrong type")
        if isinstance(value, (int, float)) and not isinstance(value, bool) and (value < 0 or value != value):
            raise TrailwrightError(f"config.{key} = {value!r} is negative")
    return Config(**data)


def _chain(data: Any, index: int, problem: Problem, strategy) -> Chain:
    where = f"chain {index}"
    if not isinstance(data, dict):
        raise TrailwrightError(f"{where} must be an object or null")
    chain = Chain.from_data(data)
    for name in ("index", "leg", "generation"):
        value = getattr(chain, name)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise TrailwrightError(f"{where}: {name} = {value!r} is not a whole number")
    if chain.index != index:
        raise TrailwrightError(f"{where}: says it is chain {chain.index}")
    if not all(isinstance(getattr(chain, n), (int, float)) for n in ("elapsed", "start_fitness")):
        raise TrailwrightError(f"{where}: elapsed and start_fitness must be numbers")
    if not all(isinstance(h, HistoryPoint) and isinstance(h.best, (int, float)) for h in chain.history):
        raise TrailwrightError(f"{where}: malformed history")
    np.random.default_rng().bit_generator.state = chain.rng_state  # numpy checks the generator state
    state = load_state(strategy.state_type, chain.state)
    tiles = problem.board.tile_count
    for f in fields(state):
        value = getattr(state, f.name)
        if f.name == "favoured":  # the design prior (``prior``): None until ranked
            _check_favoured(value, where, problem)
            continue
        for candidate in value if isinstance(value, tuple) else (value,):
            if isinstance(candidate, str):  # a GA genome
                if len(candidate) != 24 * tiles or set(candidate) - {"0", "1"}:
                    raise TrailwrightError(f"{where}: a genome is not {24 * tiles} bits")
                continue
            classes = getattr(candidate, "classes", None)
            if classes is None:
                raise TrailwrightError(f"{where}: state.{f.name} is not a list of candidates")
            if classes.shape != (tiles, problem.faces):
                raise TrailwrightError(
                    f"{where}: designs for {classes.shape[0] if classes.ndim else 0} tiles, but "
                    f"{problem.board.label} has {tiles} slots"
                )
            count = len(problem.space.designs)
            if classes.min() < 0 or classes.max() >= count:
                raise TrailwrightError(f"{where}: a design number outside 0..{count - 1}")
    _check_search_state(chain.search_state, where, tiles, problem.space.key_chars(tiles))
    return chain


def _check_favoured(value: Any, where: str, problem: Problem) -> None:
    """A chain's favoured designs: None, none, or at least two distinct allowed design numbers."""
    if value is None or value == ():
        return
    allowed = set(problem.allowed)
    if (
        not isinstance(value, tuple)
        or len(value) < 2
        or len(set(value)) != len(value)
        or not all(isinstance(d, int) and not isinstance(d, bool) and d in allowed for d in value)
    ):
        raise TrailwrightError(f"{where}: state.favoured is not a list of two or more distinct allowed designs")


def _check_search_state(state: Any, where: str, tiles: int, chars: int) -> None:
    if not isinstance(state, dict) or not isinstance(state.get("cache"), dict):
        raise TrailwrightError(f"{where}: search_state must be an object with a cache")
    for name in ("evaluations", "layouts", "hits", "early") + (("size",) if "size" in state else ()):
        value = state[name]
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise TrailwrightError(f"{where}: search_state.{name} = {value!r} is not a whole number")
    for k, v in state["cache"].items():
        if len(k) != chars or isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TrailwrightError(f"{where}: a cache entry is not {tiles} tiles' designs and a number")
        bytes.fromhex(k)
