"""The Conquest of the Empire forward model for a batch of games played in lockstep.

`Engine` holds a `BatchState` of B games. A step is one player turn in every unfinished game:
the six phases of COE-10 (movement, battles, tax, razing, buying, placing with ransom) for the
seat whose turn it is (COE-9: fixed order by Home Province, eliminated players skipped). Battles
are fought die by die through the battle rules of `sim.conquest.combat` (formation sizes, the
fortified-city dice, matching and pursuit hits) and `sim.conquest.naval` (naval hits); prices
and inflation come from `sim.conquest.economy` (the price list and `multiplier_in_force`, fed the
income readings that reach a threshold).

Randomness: each game owns the streams `(root_seed, game_index, purpose)` for "dice" and
"players<seat>", so a game's draws never depend on the other games of the batch.

Players are injected (a `Roster`); they read the open board through `engine.view` and the legal
choices of each decision (sim.conquest.choices), and answer with actions (sim.conquest.actions)
that `apply` validates. The rules live in the chapter parts: movement, battle, taxes, purchase.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import numpy as np

from sim.conquest.actions import Board, Disembark, EndMovement, RoadTrip, Sail, Step
from sim.conquest.battle import Battles
from sim.conquest.board_kernel import other_seat, other_seats
from sim.conquest.components import Components
from sim.conquest.economy import load_economy
from sim.conquest.movement import Movement
from sim.conquest.purchase import ASSETS, Purchase
from sim.conquest.state import FREE, LEADERS, BatchState, tables_of
from sim.conquest.taxes import Taxes
from sim.conquest.turn_start import TurnStart
from sim.core import interventions
from sim.core.lockstep import GameLog, RuleViolation, draw_buffers, game_header
from sim.core.random import stream

if TYPE_CHECKING:
    from sim.conquest.players import Roster

NAME = "conquest"
STATS = ("battles_fought", "battles_won", "provinces_taken", "units_lost", "units_bought", "talents_spent",
         "caesars_captured", "generals_captured", "cities_razed", "eliminated_round", "max_income")


class Engine(Movement, Battles, Taxes, Purchase, TurnStart):
    """Plays `len(seatings)` games in lockstep (see the module docstring)."""

    def __init__(self, comp: Components, seatings, root_seed: int, game_indices, roster: Roster,
                 log: bool = False) -> None:
        self.comp, self.t = comp, tables_of(comp)
        self.opt = comp.options
        self.economy = load_economy(comp)
        self.price_lists: dict[int, dict[str, int]] = {}
        self.seed = int(root_seed)
        self.game_indices = [int(i) for i in game_indices]
        self.seatings = list(seatings)
        b = len(self.seatings)
        self.s = BatchState.empty(np.array([s.players for s in self.seatings]), self.t, len(ASSETS), STATS)
        self.view = self.s                       # open information: players may read the whole board
        self.dice = draw_buffers(self.seed, self.game_indices, "dice", len(comp.die.faces))
        self.faces = comp.die.faces
        self.logs: list[list[dict]] | None = [[] for _ in range(b)] if log else None
        specs = [[interventions.parse(spec) for spec in s.strategies] for s in self.seatings]
        self.interventions = [[iv for _, iv in seats] for seats in specs]
        self.players = [[roster.make(name, self, g, p, functools.partial(stream, self.seed, gi, f"players{p}"))
                         for p, (name, _) in enumerate(seats)]
                        for g, (seats, gi) in enumerate(zip(specs, self.game_indices))]
        self.colours_of = [[[p] for p in range(s.players)] for s in self.seatings]   # colours each seat commands
        self.pos = [0] * b                       # next seat in the turn order (COE-9)
        self.active = [0] * b
        self.phase = [0] * b                     # COE-10.1: 1..6 during a turn
        self.turn_seats: list[list[str]] = [[] for _ in range(b)]    # seat of every turn played (COE-21)
        self.readings: list[list[Any]] = [[] for _ in range(b)]      # income readings reaching a threshold
        self.on_step = None                      # optional callback(engine, where) after every step (tests)
        self.steps = 0

    # ----------------------------------------------------------------- logging
    def log(self, g: int, event: str, **fields: Any) -> None:
        if self.logs is not None:
            self.logs[g].append({"event": event, "round": int(self.s.round[g]), **fields})

    def game_logs(self) -> list[GameLog]:
        assert self.logs is not None
        return [(game_header(NAME, self.seed, gi, seating), events)
                for gi, seating, events in zip(self.game_indices, self.seatings, self.logs)]

    # ----------------------------------------------------------------- queries
    def seat_colours(self, g: int, seat: int) -> list[int]:
        return self.colours_of[g][seat]

    def units_at(self, g: int, seat: int, p: int) -> list[int]:
        """Land units of a seat standing in province p (all the colours it commands)."""
        colours = self.colours_of[g][seat]
        if len(colours) == 1:
            return self.s.land[g, colours[0], p].tolist()
        return self.s.land[g, colours, p].sum(axis=0).tolist() if colours else [0, 0, 0]

    def land_spaces(self, g: int, seat: int) -> list[int]:
        """Provinces where a seat has land units standing (all the colours it commands), in order."""
        colours = self.colours_of[g][seat]
        if len(colours) == 1:
            return np.flatnonzero(self.s.land[g, colours[0]].any(axis=1)).tolist()
        return np.flatnonzero(self.s.land[g, colours].any(axis=(0, 2))).tolist()

    def leaders_at(self, g: int, seat: int, space: int, aboard: bool = False) -> list[int]:
        """Free leaders (ids) of a seat in a space: standing, or also aboard galleys there."""
        s = self.s
        out = []
        for c in self.colours_of[g][seat]:
            loc = s.ldr_loc[g, c].tolist()
            if space not in loc:
                continue
            ship, state = s.ldr_ship[g, c].tolist(), s.ldr_state[g, c].tolist()
            for i in range(LEADERS):
                if loc[i] == space and state[i] == FREE and (aboard or ship[i] < 0):
                    out.append(c * LEADERS + i)
        return out

    def galleys_at(self, g: int, seat: int, space: int) -> list[int]:
        s = self.s
        n = s.gal_loc.shape[2]
        out = []
        for c in self.colours_of[g][seat]:
            loc = s.gal_loc[g, c].tolist()
            if space in loc:
                out += [c * n + k for k in range(n) if loc[k] == space]
        return out

    def others_at(self, g: int, seat: int, spaces: list[int]) -> list[int]:
        """`other_seat_at` of each of many spaces (COE-11.5), in one compiled pass (the battle
        phase and the taking of provinces ask about every space of the mover)."""
        s = self.s
        return other_seats(s.land, s.owner, s.ldr_loc, s.ldr_state, s.ldr_ship, g, seat,
                            np.array(spaces, dtype=np.int64)).tolist()

    def other_seat_at(self, g: int, seat: int, p: int) -> int:
        """The other seat with land units or standing leaders in province p, or -1 (the colours
        in order, each one's units before its leaders; compiled: the players and the steps ask
        tens of thousands of times a game)."""
        s = self.s
        return other_seat(s.land, s.owner, s.ldr_loc, s.ldr_state, s.ldr_ship, g, seat, p)

    def enemy_pieces_at(self, g: int, seat: int, p: int) -> bool:
        """Another seat's land units or standing leaders in province p (COE-11.5, COE-A7)."""
        return self.other_seat_at(g, seat, p) >= 0

    def unled(self, g: int, seat: int) -> tuple[int, int]:
        """The seat's land units standing on the board and how many of them no leader of its can
        lead this turn: in each province, those beyond 7 per free leader standing there
        (COE-5.2, COE-11.1); logged at each turn's start for the player audit."""
        s = self.s
        colours = self.colours_of[g][seat]
        standing = s.land[g, colours].sum(axis=(0, 2))
        lead = np.zeros(standing.shape[0], dtype=np.int64)
        for c in colours:
            free = (s.ldr_state[g, c] == FREE) & (s.ldr_ship[g, c] < 0) & (s.ldr_loc[g, c] >= 0)
            np.add.at(lead, s.ldr_loc[g, c][free], self.opt.units_per_leader)
        return int(standing.sum()), int(np.maximum(standing - lead, 0).sum())

    def income(self, g: int, seat: int) -> int:
        """COE-4.2: provinces' tax values + 5 per City controlled (COE-A34: optional cap)."""
        s, tax = self.s, self.t.tax
        value = sum(tax[q] + (5 if c else 0) for q, (o, c) in enumerate(zip(s.control[g].tolist(), s.city[g].tolist()))
                    if o == seat)
        return min(value, self.opt.tax_cap) if self.opt.tax_cap else value

    def leader_seat(self, g: int, leader: int) -> int:
        return int(self.s.owner[g, leader // LEADERS])

    def require(self, ok: bool, what: str, *args: Any) -> None:
        """Raise RuleViolation(what) unless ok; `what` is formatted with `args` (str.format) only
        then: the rules are checked on every step, and building each message eagerly (a
        purchase's repr) cost more than the checks."""
        if not ok:
            raise RuleViolation(what.format(*args) if args else what)

    # ----------------------------------------------------------------- setup and loop
    def setup(self) -> None:
        """COE-8: Home Provinces by player count (seat k the k-th in turn order), Caesar,
        Generals, infantry and a Fortified City at home, income 15, starting talents (COE-A29)."""
        s, t = self.s, self.t
        for g, seating in enumerate(self.seatings):
            n = seating.players
            for p, home in enumerate(t.homes[n]):
                s.home[g, p], s.owner[g, p], s.alive[g, p] = home, p, True
                s.control[g, home] = p
                s.city[g, home] = s.fort[g, home] = True
                s.land[g, p, home, 0] = t.start_infantry
                for i in range(1 + t.start_generals):
                    s.ldr_loc[g, p, i], s.ldr_state[g, p, i] = home, FREE
                grant = self.interventions[g][p].grants.get("talents", 0)
                s.treasury[g, p] = self.opt.starting_talents + grant
                s.stats["max_income"][g, p] = self.income(g, p)
            self.log(g, "setup", homes=[t.names[h] for h in t.homes[n]], colours=list(seating.powers),
                     talents=s.treasury[g, :n].tolist())

    def play(self) -> None:
        self.setup()
        s = self.s
        while not s.over.all():
            for g in np.flatnonzero(~s.over).tolist():
                self.play_turn(g)
            self.steps += 1
            if self.on_step is not None:
                self.on_step(self, "turn")

    def next_seat(self, g: int) -> int | None:
        """COE-9.3: the next surviving seat; a new round when the order wraps; None when the turn
        cap (COE-25.3) is reached."""
        s = self.s
        n = int(s.n_players[g])
        for _ in range(n):
            p = self.pos[g]
            self.pos[g] = (p + 1) % n
            if p == 0:
                s.round[g] += 1
                if self.t.turn_cap and s.round[g] > self.t.turn_cap:
                    s.round[g] -= 1
                    return None
            if s.alive[g, p]:
                return p
        return None

    def play_turn(self, g: int) -> None:
        """COE-10.1: the six phases of one player's turn."""
        s = self.s
        p = self.next_seat(g)
        if p is None:
            self.finish(g, "turn_cap")
            return
        self.active[g] = p
        self.turn_seats[g].append(str(p))
        s.turn[g] += 1
        self.start_prices(g)
        if self.logs is not None:                                     # the income is read for the log only
            units, unled = self.unled(g, p)
            self.log(g, "turn", seat=p, income=self.income(g, p), talents=int(s.treasury[g, p]),
                     multiplier=int(s.multiplier[g]), units=units, unled=unled)
        self.turn_start(g, p)                                         # COE-A25, COE-A41 options
        if s.alive[g, p] and not s.over[g]:
            self.phase[g] = 1
            self.movement_phase(g, p)
        if s.alive[g, p] and not s.over[g]:
            self.phase[g] = 2
            self.battle_phase(g, p)
        if s.alive[g, p] and not s.over[g]:
            self.phase[g] = 3
            self.collect_tax(g, p)
            self.phase[g] = 4
            self.razing_phase(g, p)
            self.phase[g] = 5
            bought = self.buying_phase(g, p)
            self.phase[g] = 6
            self.placing_phase(g, p, bought)
            self.ransom_phase(g, p)
            if self.opt.neutral_capture_timing == "end_of_turn":
                self.occupy(g, p)
        self.end_movement_state(g, p)
        self.phase[g] = 0

    def finish(self, g: int, reason: str) -> None:
        """COE-25: victory (one Caesar left), draw (none) or the simulator's turn cap."""
        s = self.s
        if s.over[g]:
            return
        s.over[g] = True
        s.end_reason[g] = reason
        n = int(s.n_players[g])
        self.log(g, "end", reason=reason, alive=[q for q in range(n) if s.alive[g, q]],
                 income=[self.income(g, q) if s.alive[g, q] else 0 for q in range(n)])

    def check_victory(self, g: int) -> None:
        """COE-25.1: the last Caesar wins; COE-A21: no Caesar left is a draw."""
        alive = int(self.s.alive[g].sum())
        if alive <= 1:
            self.finish(g, "victory" if alive == 1 else "draw")

    # ----------------------------------------------------------------- actions
    def apply(self, g: int, p: int, action) -> None:
        """The only way in for a movement action; an illegal one raises RuleViolation."""
        self.require(self.phase[g] == 1 and self.active[g] == p, "movement only in the mover's phase 1")
        kind = type(action)
        if kind is Step:
            self.step(g, p, action)
        elif kind is RoadTrip:
            self.road_trip(g, p, action)
        elif kind is Board:
            self.board(g, p, action)
        elif kind is Sail:
            self.sail(g, p, action)
        elif kind is Disembark:
            self.disembark(g, p, action.galley)
        elif kind is not EndMovement:
            raise RuleViolation(f"unknown action {action!r}")
