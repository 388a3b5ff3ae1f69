"""Reading any game's JSONL event log (`empires play GAME --log FILE`) and a plain account of it.

A log is a sequence of games, each a header line `{"event": "game", "game": ..., "game_index":
..., "seed": ..., "powers": [...], "strategies": [...]}` (sim.core.lockstep.game_header) followed
by its event lines. `read_games` knows nothing of the events, so it reads every game's log; a
game module may offer a readable `account(head, events)` of its own (sim.core.contract), and
`account` below is the fallback: the header, then each event with its fields.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path

from sim.core.errors import UserError

NOT_A_LOG = "not an event log written by `empires play GAME --log`"


def read_games(path: str | Path) -> Iterator[tuple[dict, list[dict]]]:
    """(header, events) per game of a log file; a UserError for a missing file or a line that is
    not a JSON object."""
    path = Path(path)
    if not path.is_file():
        raise UserError(f"log file {str(path)!r} does not exist")
    head, events = None, []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            try:
                event = json.loads(line)
            except json.JSONDecodeError:
                event = None
            if not isinstance(event, dict):
                raise UserError(f"{path}: line {n} is not a JSON object: {NOT_A_LOG}")
            if event.get("event") == "game":
                if head is not None:
                    yield head, events
                head, events = event, []
            elif head is None:
                raise UserError(f"{path}: line {n} comes before any game header")
            else:
                events.append(event)
    if head is not None:
        yield head, events


def article(noun: str) -> str:
    """The noun with its indefinite article, for the accounts' sentences: "an army", "a fleet"."""
    return f"an {noun}" if noun[:1].lower() in "aeiou" else f"a {noun}"


def count(n: int, one: str, many: str | None = None) -> str:
    """"1 leader", "2 leaders"; `many` for a plural of its own ("armies", or "infantry" for both)."""
    return f"{n} {one if n == 1 else many if many is not None else one + 's'}"


def headline(head: dict) -> str:
    """The first line of every account: index, seed, and who sat where with which strategy."""
    return (f"game {head['game_index']} (seed {head['seed']}): "
            + ", ".join(f"{p} [{s}]" for p, s in zip(head["powers"], head["strategies"])))


def account(head: dict, events: Iterable[dict]) -> list[str]:
    """The text lines of one game of a game without an account of its own."""
    return [headline(head), *(f"  {e['event']}: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in e.items()
                                                               if k != "event") for e in events)]
