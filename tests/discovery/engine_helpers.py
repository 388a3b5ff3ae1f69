"""Helpers for the worked-example tests: an engine of one game whose seats answer from a script."""

from __future__ import annotations

from sim.core.seating import Seating
from sim.discovery.components import load_components
from sim.discovery.engine import Engine
from sim.discovery.players import Roster
from sim.discovery.state import UNITS

COLOURS = ("red", "blue", "yellow", "green", "orange")


class Puppet:
    """A seat that answers each decision with `answers[decision](choices, *args)`, or the first
    legal choice (a pass where one is offered)."""

    def __init__(self, answers: dict) -> None:
        self.answers = answers

    def __getattr__(self, decision: str):
        if decision.startswith("_"):
            raise AttributeError(decision)

        def answer(choices, *args):
            if decision in self.answers:
                return self.answers[decision](choices, *args)
            if decision == "victims":
                return first_victims(choices)
            if decision == "expedition":
                return None
            return choices[0]
        return answer


def first_victims(choices) -> tuple[int, ...]:
    losses, left = [0] * UNITS, choices.kills
    for u, have in enumerate(choices.units):
        take = min(left, have)
        losses[u], left = take, left - take
    return tuple(losses)


def engine(n: int, answers: list[dict] | None = None, overrides=(), setup: bool = True, seed: int = 7) -> Engine:
    """One game of n seats with puppet players (seat i answers from answers[i])."""
    answers = answers or [{} for _ in range(n)]
    comp = load_components(list(overrides))
    roster = Roster(make=lambda strategy, e, g, p, rng: Puppet(answers[p]))
    e = Engine(comp, [Seating(COLOURS[:n], ("random",) * n)], seed, [0], roster, log=True)
    if setup:
        e.setup()
    return e


def region(e: Engine, name: str) -> int:
    return [r.id for r in e.comp.regions].index(e.comp.region(name).id)


def token(e: Engine, ident: str, cards: bool = False) -> int:
    items = e.comp.cards if cards else e.comp.tokens
    return [t.id for t in items].index(ident)


def units(**counts) -> list[int]:
    from sim.discovery.components import UNIT_TYPES
    return [counts.get(name, 0) for name in UNIT_TYPES]


def put(e: Engine, seat: int, where: str, **counts) -> None:
    """Units of a seat in a region, taken from the supply."""
    s = e.s.games[0]
    r = region(e, where)
    for u, k in enumerate(units(**counts)):
        s.world[r][seat][u] += k
        s.out[seat][u] += k
