"""The contract between a game engine and the experiment runner.

A game module that the runner can play exposes:

- `POWERS`: the nations/sides a seat can take (tuple of names);
- `MIN_PLAYERS`, `MAX_PLAYERS`;
- `STRATEGIES`: the names of its scripted players (including "random");
- `play_games(root_seed, game_indices, seatings, data) -> pandas.DataFrame`, which plays game
  `game_indices[k]` with `seatings[k]` using only the streams
  `stream(root_seed, game_indices[k], purpose)`, and returns one row per game and seat with at
  least the columns of `RESULT_COLUMNS` (more are welcome).

Because a game's randomness depends only on (root_seed, game index), the same game gives the
same row whether it is played alone, in a batch of 1,000 or on another worker.
"""

from __future__ import annotations

from dataclasses import dataclass

RESULT_COLUMNS = (
    "game_index",  # int: index of the game within the run
    "seed",        # int: root seed of the run
    "players",     # int: number of players in the game
    "seat",        # int: 0 = first player in the initial turn order
    "power",       # str: nation / side played from this seat
    "strategy",    # str: scripted strategy name
    "vp",          # final score (after end-game penalties)
    "rank",        # int: 1 = best; tied players share a rank
    "winner",      # bool: True for every player sharing first place after tie-breaks
)


@dataclass(frozen=True)
class Seating:
    """Who sits where in one game: seat i plays `powers[i]` with strategy `strategies[i]`."""

    powers: tuple[str, ...]
    strategies: tuple[str, ...]

    def __post_init__(self) -> None:
        if len(self.powers) != len(self.strategies):
            raise ValueError("a seating needs one power and one strategy per seat")
        if len(set(self.powers)) != len(self.powers):
            raise ValueError(f"a power may sit only once: {self.powers}")

    @property
    def players(self) -> int:
        return len(self.powers)
