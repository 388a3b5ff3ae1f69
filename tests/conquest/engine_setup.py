"""Building Conquest of the Empire positions for engine tests: an engine of one game whose
players follow a script, dice that show given symbols, and helpers that place pieces."""

from __future__ import annotations

from collections import deque

from sim.conquest.actions import EndMovement
from sim.conquest.battle import NavalChoice
from sim.conquest.components import default_components, load_components
from sim.conquest.play import INFO, new_engine
from sim.conquest.players import Player, Roster
from sim.conquest.state import FREE, GONE, LEADERS
from sim.core.seating import Seating

ORDER = (0, 1, 2)              # casualties and formations fill infantry, cavalry, catapult in turn


class FixedDice:
    """A die stream that shows the given symbols, then fails (a test rolled more than planned)."""

    def __init__(self, faces: tuple[str, ...], symbols: list[str]) -> None:
        self.faces, self.left = faces, deque(symbols)

    def next(self) -> int:
        assert self.left, "the engine rolled more dice than the example gives"
        return self.faces.index(self.left.popleft())


class Script(Player):
    """A seat that plays queued answers: moves, retreats and their splits, razes, purchases,
    executions, surrenders; formations and casualties fill `order` (by type) unless given;
    captives are held."""

    def __init__(self, engine, g, seat, rng, plan: dict) -> None:
        super().__init__(engine, g, seat, rng)
        self.plan = {k: deque(v) if isinstance(v, list) else v for k, v in plan.items()}
        self.order = plan.get("order", ORDER)
        self.journal: list[tuple] = []          # (seat, decision, details) as asked

    def _next(self, key, default=None):
        queue = self.plan.get(key)
        return queue.popleft() if queue else default

    def _fill(self, available, total: int, order) -> tuple[int, int, int]:
        out, left = [0, 0, 0], total
        for k in order:
            out[k] = min(available[k], left)
            left -= out[k]
        return tuple(out)  # type: ignore[return-value]

    def move(self, choices):
        return self._next("moves", EndMovement())

    def battle_order(self, pending):
        wanted = self._next("battles")
        names = [self.e.t.names[space] for _, space, _ in pending]
        return names.index(wanted) if wanted in names else 0

    def fight_naval(self, zone, opponent, mine, theirs):
        return NavalChoice(self.plan.get("naval", True))

    def formation(self, fight, seat, size):
        self.journal.append((self.p, "formation", (size, dict(fight.formations))))
        return self._next("formations") or self._fill(fight.units[seat], size, self.order)

    def casualties(self, fight, seat, formation, hits):
        return self._next("casualties") or self._fill(formation, hits, self.plan.get("loss_order", self.order))

    def retreat(self, fight, seat, options):
        self.journal.append((self.p, "retreat", (fight.round, list(options))))
        where = self._next("retreats")
        return self.e.t.index(where) if where else None

    def pursuit(self, fight, fleeing, hits):
        return self._next("victims") or self._fill(fleeing, hits, (2, 1, 0))

    def retreat_split(self, fight, seat, units, leaders, options, where):
        self.journal.append((self.p, "retreat_split", (tuple(units), list(leaders), list(options))))
        plan = self._next("splits")
        if plan is None:
            return super().retreat_split(fight, seat, units, leaders, options, where)
        return [(self.e.t.index(r), tuple(u), tuple(ls)) for r, u, ls in plan]

    def hold_captive(self, leader):
        return True

    def execute_captives(self, held):
        self.journal.append((self.p, "execute_captives", list(held)))
        return self._next("executions", [])

    def surrender(self, options):
        self.journal.append((self.p, "surrender", list(options)))
        return self._next("surrenders")

    def sink(self, zone, galleys, hits):
        return list(galleys[:hits])

    def raze(self, options):
        where = self._next("razes")
        return self.e.t.index(where) if where else None

    def buy(self, options, bought):
        return self._next("buys")

    def ransom(self, options, treasury, swaps):
        self.journal.append((self.p, "ransom", (list(options), treasury, dict(swaps))))
        return self._next("ransoms")

    def accept_ransom(self, leader, talents, offerer, swap):
        self.journal.append((self.p, "accept_ransom", (leader, talents, offerer, swap)))
        return self._next("accepts", False)


def engine(players: int = 2, plans: dict[int, dict] | None = None, overrides=(), log: bool = True):
    """One game of `players` seats, set up (COE-8), each seat following its plan."""
    plans = plans or {}
    comp = load_components(overrides) if overrides else default_components()
    roster = Roster(make=lambda spec, e, g, seat, rng: Script(e, g, seat, rng, plans.get(seat, {})))
    seating = Seating(INFO.powers[:players], ("random",) * players)
    e = new_engine(comp, [seating], 1, [0], log=log, roster=roster)
    e.setup()
    return e


def seat_of(e, home: str) -> int:
    """The seat playing a Home Province."""
    return int(list(e.s.home[0]).index(e.t.index(home)))


def clear(e, seat: int) -> None:
    """Take a seat's starting pieces off the board (its Caesar stays, at home)."""
    s = e.s
    s.land[0, seat] = 0
    for i in range(1, LEADERS):
        s.ldr_state[0, seat, i], s.ldr_loc[0, seat, i] = GONE, -1


def units(e, seat: int, where: str, counts) -> None:
    e.s.land[0, seat, e.t.index(where)] = counts


def leader(e, seat: int, index: int, where: str) -> int:
    """Put a leader (0 = the Caesar) of a seat's colour in a space; returns its id."""
    s = e.s
    s.ldr_state[0, seat, index], s.ldr_loc[0, seat, index], s.ldr_ship[0, seat, index] = FREE, e.t.index(where), -1
    return seat * LEADERS + index


def control(e, seat: int, *provinces: str, city: bool = False, fort: bool = False) -> None:
    for name in provinces:
        q = e.t.index(name)
        e.s.control[0, q] = seat
        e.s.city[0, q] = city
        e.s.fort[0, q] = fort


def dice(e, *symbols: str) -> None:
    e.dice[0] = FixedDice(e.faces, list(symbols))


def events(e, kind: str) -> list[dict]:
    return [x for x in e.logs[0] if x["event"] == kind]
