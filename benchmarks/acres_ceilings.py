"""A Few Acres of Snow, scripted games: what a part of the decisions could at most save, and how
often a result could be reused (`python -m benchmarks.acres_ceilings`; docs/acres_engine.md,
"Performance").

The ceilings replay the bench's 64 seed-1 scripted games (`bench_acres_engine.PAIRS`, 16 games
each) with a part replaced by its recorded answer: the siege estimates, the action lists
(`Choices.list`), both, or every action decision (what is left is the engine alone). The games
and every draw are the same, so the CPU time saved is what making that part free would save;
the runs alternate, and the medians are printed. The reuse counts play the seed-1 and seed-2
tables (128 games): decisions that see exactly what an earlier one saw (the whole public state,
the side's hand and the opponent's unseen cards), and where each siege estimate found its
answer.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from benchmarks.bench_acres_engine import PAIRS
from sim.acres import choices, scripted
from sim.acres.play import play_games
from sim.acres.view import PUBLIC
from sim.core.seating import Seating

SEATINGS = [Seating(("british", "french"), pair) for pair in PAIRS for _ in range(16)]
Player, Choices = scripted.ScriptedPlayer, choices.Choices


@contextmanager
def patched(owner: Any, name: str, value: Any) -> Iterator[None]:
    """`owner.name` replaced for the block."""
    old = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, old)


def _cpu(seed: int) -> float:
    """CPU seconds of the 64 games with empty estimate caches (as in a fresh process)."""
    scripted._ODDS.clear()
    scripted._SETUPS.clear()
    gc.collect()
    start = time.process_time()
    play_games(seed, list(range(len(SEATINGS))), SEATINGS)
    return time.process_time() - start


def ceilings(runs: int) -> dict[str, list[float]]:
    """CPU seconds per run: the games as they are, and with each part's recorded answers."""
    numbered: dict[int, int] = {}            # id of a Choices -> its place in the run
    count = [0]
    answers: dict[str, dict] = {"estimate": {}, "list": {}, "decision": {}}
    init, listing, estimate, choose = Choices.__init__, Choices.list, Player.estimate, Player.choose_action

    def number(self, *args) -> None:
        init(self, *args)
        count[0] += 1
        numbered[id(self)] = count[0]

    def at(self, a, left) -> tuple:
        return self.g, self.side, self.e.s.turn[self.g], left, a

    def record_estimate(self, a, left) -> float:
        got = answers["estimate"][at(self, a, left)] = estimate(self, a, left)
        return got

    def record_list(self, kind: str) -> list:
        got = answers["list"][numbered[id(self)], kind] = listing(self, kind)
        return got

    def record_decision(self, c):
        got = answers["decision"][numbered[id(c)]] = choose(self, c)
        return got

    parts: dict[str, dict[str, Callable]] = {
        "as they are": {},
        "estimates recorded": {"estimate": lambda self, a, left: answers["estimate"][at(self, a, left)]},
        "lists recorded": {"list": lambda self, kind: answers["list"][numbered[id(self)], kind]},
        "both recorded": {"estimate": lambda self, a, left: answers["estimate"][at(self, a, left)],
                          "list": lambda self, kind: answers["list"][numbered[id(self)], kind]},
        "decisions recorded": {"choose_action": lambda self, c: answers["decision"][numbered[id(c)]]},
    }

    def run(part: dict[str, Callable]) -> float:
        count[0] = 0
        with (patched(Player, "estimate", part.get("estimate", estimate)),
              patched(Choices, "list", part.get("list", listing)),
              patched(Player, "choose_action", part.get("choose_action", choose))):
            return _cpu(1)

    out: dict[str, list[float]] = {name: [] for name in parts}
    with patched(Choices, "__init__", number):
        play_games(0, [0, 1], SEATINGS[:2])                     # load the data and the kernels
        run({"estimate": record_estimate, "list": record_list})
        run({"choose_action": record_decision})
        gc.freeze()                                             # the answers kept out of the collections
        for _ in range(runs):
            for name, part in parts.items():
                out[name].append(run(part))
    gc.unfreeze()
    return out


def reuse() -> tuple[int, int, Counter]:
    """(decisions, distinct decision inputs, where each estimate found its answer) over the
    seed-1 and seed-2 tables. A decision's inputs: its side, strategy and actions left, the
    side's hand, the whole public state but the turn and the last shuffles (both can only add
    distinctions), its own draw pile and the opponent's unseen cards."""
    seen: set = set()
    decisions = [0]
    found: dict[tuple, tuple] = {}               # odds key -> (table, game, decision) of its first estimate
    where: Counter = Counter()
    choose, estimate = Player.choose_action, Player.estimate
    table = [0]

    def frozen(x):
        if isinstance(x, (list, tuple)):
            return tuple(frozen(y) for y in x)
        return tuple(sorted(x)) if isinstance(x, set) else x

    def counting(self, c):
        s, g, side = self.e.s, self.g, self.side
        seen.add((tuple(sorted(self.p.items())), side, c.left, tuple(s.hand[g][side]),
                  tuple(frozen(getattr(s, name)[g]) for name in PUBLIC if name not in ("turn", "shuffled")),
                  tuple(sorted(s.draw[g][side])), tuple(sorted(s.draw[g][1 - side] + s.hand[g][1 - side])),
                  len(s.hand[g][1 - side])))
        decisions[0] += 1
        return choose(self, c)

    class Odds(dict):
        """`scripted._ODDS`, telling where each hit was first estimated."""

        def get(self, key, default=None):
            here = (table[0], game[0], decisions[0])
            if key not in self:
                where["kernel run"] += 1
            elif found[key][2] == here[2]:
                where["same decision"] += 1
            elif found[key][:2] == here[:2]:
                where["earlier decision, same game"] += 1
            else:
                where["another game"] += 1
            return dict.get(self, key, default)

        def __setitem__(self, key, value) -> None:
            found[key] = (table[0], game[0], decisions[0])
            dict.__setitem__(self, key, value)

    game = [0]

    def noting(self, a, left):
        game[0] = self.g
        return estimate(self, a, left)

    with (patched(Player, "choose_action", counting), patched(Player, "estimate", noting),
          patched(scripted, "_ODDS", Odds())):
        for seed in (1, 2):
            table[0] = seed
            play_games(seed, list(range(len(SEATINGS))), SEATINGS)
    return decisions[0], len(seen), where


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="alternating runs of each ceiling")
    args = parser.parse_args(argv)
    times = ceilings(args.runs)
    base = statistics.median(times["as they are"])
    print(f"64 seed-1 scripted games, {args.runs} alternating runs, CPU seconds in the process:")
    for name, runs in times.items():
        med = statistics.median(runs)
        print(f"  {name:<20} median {med:.3f} s, {med / base:.3f} of the games as they are "
              f"(runs {', '.join(f'{x:.3f}' for x in runs)})")
    n, distinct, where = reuse()
    print(f"128 games (seeds 1 and 2): {n:,} action decisions, {distinct:,} distinct inputs "
          f"({n - distinct:,} repeats)")
    print("siege estimates: " + ", ".join(f"{k} {v:,}" for k, v in where.most_common()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
