"""The Yucata games of `tests/acres/yucata_games/` (the five shared ones, and four more in
`more/`), decoded once for all the importer tests."""

import functools
from pathlib import Path

from sim.acres import yucata

GAMES_DIR = Path(__file__).parent / "yucata_games"
MOVES = {"game_8604012.js": 123, "game_10348395.js": 215, "game_10400521.js": 96,
         "game_10415909.js": 186, "game_10506048.js": 175}
MORE = {"more/ph_9547143.js": 82, "more/ph_9553678.js": 45, "more/ph_9564573.js": 156, "more/ph_9575653.js": 86}


@functools.cache
def page(name: str) -> yucata.Game:
    return yucata.read_page(GAMES_DIR / name)


def pages() -> dict[str, yucata.Game]:
    return {name: page(name) for name in MOVES}
