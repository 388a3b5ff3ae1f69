"""What every lockstep engine needs and no game should write again: per-game random-draw buffers,
playing a list of games in batches, the results table, the JSONL log and `RuleViolation`.

A lockstep engine advances a batch of games through the same step together. Each game draws
only from its own streams `(root_seed, game_index, purpose)` (sim.core.random) through a
`DrawBuffer`, refilled in fixed chunks, so the numbers a game sees never depend on which other
games share its batch, on the batch size or on the worker.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.core.errors import UserError
from sim.core.gcpause import collector_paused
from sim.core.random import check_seed, stream
from sim.core.seating import Seating

CHUNK = 256                        # draws per refill (part of every recorded game: never change)
GameLog = tuple[dict, list[dict]]  # a header ({"event": "game", ...}) and the game's events


class RuleViolation(RuntimeError):
    """A player proposed a choice the rules forbid: a bug in the player, not user input."""


class DrawBuffer:
    """Pre-drawn integers 0..high-1 of one game and purpose. The stream is made at the first draw
    (many games never need some purposes)."""

    __slots__ = ("source", "rng", "high", "values", "pos")

    def __init__(self, source: Callable[[], np.random.Generator], high: int) -> None:
        self.source, self.rng, self.high, self.values, self.pos = source, None, high, [], 0

    def next(self) -> int:
        if self.pos >= len(self.values):
            if self.rng is None:
                self.rng = self.source()
            self.values = self.rng.integers(0, self.high, CHUNK, dtype=np.int16).tolist()
            self.pos = 0
        self.pos += 1
        return self.values[self.pos - 1]


def draw_buffers(root_seed: int, game_indices: Sequence[int], purpose: str, high: int) -> list[DrawBuffer]:
    """One buffer per game of a batch for one purpose."""
    return [DrawBuffer(functools.partial(stream, root_seed, gi, purpose), high) for gi in game_indices]


def play_in_batches(root_seed: int, game_indices: Sequence[int], seatings: Sequence[Seating], batch: int,
                    make_engine: Callable[[list[Seating], int, list[int], bool], Any],
                    results: Callable[[Any], pd.DataFrame], columns: Sequence[str], log: str | Path | None = None,
                    prepare: Callable[[Any], None] | None = None) -> pd.DataFrame:
    """The body of every `play_games`: check the arguments, play `batch` games at a time, each
    batch an engine `make_engine(seatings, root_seed, indices, logging)` (a game's `new_engine`
    with its data bound) that `prepare(engine)`
    may hook first (the conformance checks), then `engine.play()` with the cyclic collector paused; its table is `results(engine)`
    and, when logging, its `game_logs()`. Writes the logs to `log` and returns the whole table
    (`columns` when empty)."""
    root_seed = check_seed(root_seed)
    indices = [int(i) for i in game_indices]
    if len(indices) != len(seatings):
        raise UserError("play_games needs one seating per game index")
    frames, logs = [], []
    for start in range(0, len(indices), batch):
        engine = make_engine(list(seatings[start: start + batch]), root_seed, indices[start: start + batch],
                             log is not None)
        if prepare is not None:
            prepare(engine)
        with collector_paused():                  # play makes no reference cycles (sim.core.gcpause)
            engine.play()
        frames.append(results(engine))
        if log is not None:
            logs += engine.game_logs()
    if log is not None:
        write_jsonl(log, logs)
    if not frames:
        return pd.DataFrame(columns=list(columns))
    return pd.concat(frames, ignore_index=True)


def results_table(root_seed: int, game_indices: Sequence[int], seatings: Sequence[Seating],
                  per_seat: Mapping[str, Any]) -> pd.DataFrame:
    """One row per game and seat, games in order: the identity columns of RESULT_COLUMNS, then
    each `per_seat` column, given as a (games, seats) array or list of rows (seats beyond a game's
    player count are ignored). Integer columns come out as int64."""
    players = np.array([s.players for s in seatings], dtype=np.int64)
    table: dict[str, Any] = {
        "game_index": np.repeat(np.array(game_indices, dtype=np.int64), players),
        "seed": np.full(int(players.sum()), root_seed, dtype=np.int64),
        "players": np.repeat(players, players),
        "seat": np.concatenate([np.arange(n, dtype=np.int64) for n in players]) if len(players) else [],
        "power": [x for s in seatings for x in s.powers],
        "strategy": [x for s in seatings for x in s.strategies],
    }
    for name, values in per_seat.items():
        if isinstance(values, np.ndarray):
            mask = np.arange(values.shape[1])[None, :] < players[:, None]
            column = values[mask]
            table[name] = column.astype(np.int64) if column.dtype.kind in "iu" else column
        else:
            table[name] = [row[q] for row, n in zip(values, players) for q in range(n)]
    return pd.DataFrame(table)


def game_header(game: str, root_seed: int, game_index: int, seating: Seating) -> dict:
    """The first line of a game's log: which game, seed, index and seating (what replay needs)."""
    return {"event": "game", "game": game, "game_index": int(game_index), "seed": int(root_seed),
            "powers": list(seating.powers), "strategies": list(seating.strategies)}


def write_jsonl(path: str | Path, games: Iterable[GameLog]) -> None:
    """JSONL: each game's header line, then one line per event (numpy values as plain JSON)."""
    with open(path, "w", encoding="utf-8") as fh:
        for head, events in games:
            fh.write(json.dumps(head) + "\n")
            for e in events:
                fh.write(json.dumps(e, default=json_default) + "\n")


def json_default(x: Any) -> Any:
    if hasattr(x, "item"):
        return x.item()
    if hasattr(x, "tolist"):
        return x.tolist()
    raise TypeError(type(x))


def check_no_data(game: str, overrides: Sequence[str] | Mapping = (), variants: Sequence[str] = ()) -> None:
    """`load_data` of a game without component data: refuse overrides instead of ignoring them."""
    if overrides or variants:
        raise UserError(f"--set/--variant: game {game!r} has no component data to override")
