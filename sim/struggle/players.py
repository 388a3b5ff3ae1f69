"""Players of Struggle of Empires: the decision protocol and the random-legal baseline (SOE-28:
the decisions a scripted player must make); `play.make_player` is the factory.

A player object serves one seat of one game in an `Engine` batch. The engine asks it for every
decision of SOE-28 (setup placement, bids and proposals, actions, help for allies, naval-battle
choices, the symbol a two-symbol alliance tile backs, Refuse Battle, Blockade); the player answers from the public state plus its own hidden
unrest. They read the game through the engine's `View` (sim.struggle.view), which has no
`unrest` field: a seat's own unrest and another's as publicly seen (option `unrest_memory`,
SOE-A37) are all it offers. The scripted strategies are in `sim.struggle.scripted`. The
engine imports no player module: `play.py` injects a `Roster` (how to make a seat's player, and
what to prepare for the batch before each action slot).
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from typing import Any, Protocol

import numpy as np

from sim.struggle.actions import (Action, Build, Buy, Colonise, DeclareAttack, FreeAction, Move, Pass, PlaceBlockade,
                                  UseAgriculture, UseCompany, UseDiplomacy)
from sim.struggle.choices import Choices
from sim.struggle.state import ARMY, FLEET, FORT, HOME, N_REGIONS


@functools.cache
def strategies() -> tuple[str, ...]:
    """The names of the scripted strategies of data/strategies.toml."""
    text = resources.files("sim.struggle").joinpath("data/strategies.toml").read_text("utf-8")
    return tuple(sorted(tomllib.loads(text)))


STRATEGIES = ("random",) + strategies()


class SeatPlayer(Protocol):
    """The decisions of SOE-28, one method each; the engine validates every answer."""

    g: int
    p: int

    def place_setup_unit(self, choices: Choices) -> tuple[int, int]: ...   # SOE-3.8: (unit kind, region)

    def bid(self, current: int | None, proposal: tuple | None, unallied: list[int]) -> tuple: ...   # SOE-6

    def free_actions(self, choices: Choices) -> Iterator[FreeAction]: ...   # SOE-7.3, applied as yielded

    def war_office_attack(self, choices: Choices) -> DeclareAttack | None: ...    # SOE-20.4

    def choose_action(self, slot: int, choices: Choices) -> Action: ...    # SOE-7.2

    def help(self, ally: int, opp: int, region: int, armies: int, fleets: int,
             attacker_side: bool) -> tuple[int, int]: ...                   # SOE-12.5

    def fight_naval(self, attack: Any, mine: Any, theirs: Any, as_attacker: bool) -> bool: ...   # SOE-12.7

    def alliance_symbol(self, attack: Any, land: bool) -> int: ...         # SOE-12.6: ARMY or FLEET

    def use_blockade_defence(self, attack: Any) -> bool: ...               # SOE-20.20 (b)

    def refuse_battle(self, attack: Any, res: dict) -> bool: ...           # SOE-20.18


class BatchWork(Protocol):
    """The players' work shared across one engine's batch; the engine calls `prepare` with the
    players about to act before every action slot (the scripted players' array passes)."""

    def prepare(self, players: list, war_office: bool = False) -> None: ...


class NoWork:
    """For players that need no batch-wide preparation."""

    def __init__(self, engine: Any) -> None:
        pass

    def prepare(self, players: list, war_office: bool = False) -> None:
        pass


@dataclass(frozen=True)
class Roster:
    """What the engine is given to seat its players: `make(spec, engine, g, seat, rng)` for each
    seat and `work(engine)`, made once per engine before the players, for their shared work."""

    make: Callable[..., SeatPlayer]
    work: Callable[[Any], BatchWork] = NoWork


class Player:
    """Common plumbing: state access, legal-option helpers, hidden-information guard."""

    def __init__(self, engine, g: int, seat: int, rng) -> None:
        """`rng`: the seat's stream, or a function that makes it (called at the first draw:
        scripted players seldom draw)."""
        self.e, self.g, self.p, self._rng = engine, g, seat, rng

    @property
    def rng(self) -> np.random.Generator:
        if callable(self._rng):
            self._rng = self._rng()
        return self._rng

    # ---- information
    def unrest_of(self, q: int) -> int:
        """SOE-2.3 / SOE-A37: own unrest exactly; others' only as publicly seen (option)."""
        return self.e.view.unrest_of(self.g, self.p, q)

    def pick(self, items):
        return items[int(self.rng.integers(len(items)))]

    def destroy_location(self, kind: int) -> int | None:
        """SOE-9.5: where to take a unit from when all pieces of a kind are on the map."""
        e = self.e
        if e.pieces_on_map(self.g, self.p, kind) < e.limits[kind]:
            return None
        locs = np.flatnonzero(e.view.units[self.g, self.p, :, kind])
        home = [loc for loc in locs if loc == HOME]
        return int(home[0]) if home else int(locs[0])

    # ---- decisions with simple default answers
    def war_office_attack(self, choices: Choices) -> DeclareAttack | None:
        return None

    def use_blockade_defence(self, attack) -> bool:
        return False

    def refuse_battle(self, attack, res) -> bool:
        return False

    def alliance_symbol(self, attack, land: bool) -> int:
        """SOE-12.6 (option `two_symbol_alliance` = owner): a two-symbol alliance tile backs the
        army when the attack has a land battle -- it decides the control marker -- else the
        fleet."""
        return ARMY if land else FLEET


class RandomPlayer(Player):
    """The random-legal baseline: every decision uniformly among the legal ones (an action
    kind first, then an instance of it), proposals and bids at random (bids 0..2)."""

    def place_setup_unit(self, choices: Choices) -> tuple[int, int]:
        kinds = [k for k in (ARMY, FLEET, FORT) if choices.setup_places(k)]
        kind = self.pick(kinds)
        return kind, self.pick(choices.setup_places(kind))

    def bid(self, current, proposal, unallied):
        if current is not None and self.rng.random() < 0.7:
            return None, None
        new = 0 if current is None else current + 1 + int(self.rng.integers(2))
        if len(unallied) == 1:
            return new, (unallied[0], int(self.rng.integers(2)))
        a, b = self.rng.choice(unallied, 2, replace=False)
        return new, (int(a), int(b))

    def free_actions(self, choices: Choices) -> Iterator[FreeAction]:
        e, g, p = self.e, self.g, self.p
        if e.can_use(g, p, "improved_agriculture") and self.rng.random() < 0.5:
            yield UseAgriculture()
        for i in np.flatnonzero(e.view.company_owner[g] == p):
            if not e.view.company_used[g, i] and self.rng.random() < 0.3:
                yield UseCompany(int(i), int(self.pick(np.flatnonzero(e.t.company_regions[i]))))
        free = choices.diplomacy
        if free and self.rng.random() < 0.3:
            yield UseDiplomacy(int(self.pick(free)))
        if e.owns(g, p, "blockade") and e.view.blockade_region[g] < 0 and self.rng.random() < 0.3:
            regions = [r for r in np.flatnonzero(e.colonial) if e.view.units[g, p, r, FLEET] > 0]
            if regions:
                yield PlaceBlockade(int(self.pick(regions)))

    def war_office_attack(self, choices: Choices) -> DeclareAttack | None:
        e = self.e
        if e.can_use(self.g, self.p, "war_office") and self.rng.random() < 0.5:
            targets = choices.attacks
            if targets:
                return DeclareAttack(*self.pick(targets), war_office=True)
        return None

    def choose_action(self, slot: int, choices: Choices) -> Action:
        e, g, p = self.e, self.g, self.p
        options = {}
        buys = choices.tiles
        if buys:
            options["buy"] = buys
        builds = choices.builds
        if builds:
            options["build"] = builds
        moves = choices.moves
        if moves:
            options["move"] = moves
        attacks = choices.attacks
        if attacks:
            options["attack"] = attacks
        col = choices.colonies
        if col:
            options["colonise"] = col
        options["pass"] = [None]
        kind = self.pick(sorted(options))
        choice = self.pick(options[kind])
        if kind == "pass":
            return Pass()
        if kind == "buy":
            what, i = choice
            if what == "dev" and e.t.dev[i] in ("pirates", "slave_revolt"):
                return Buy(what, i, self.pick(choices.raid_targets(e.t.dev[i])))
            return Buy(what, i)
        if kind == "build":
            unit, tile = choice
            if tile == "trained_natives":
                r = self.pick(choices.trained_natives_regions)
                then = None
                if self.rng.random() < 0.2:
                    onward = [d for d in range(N_REGIONS) if d != r and choices.may_enter(ARMY, d)]
                    then = self.pick(onward) if onward else None
                return Build(unit, tile, r, self.destroy_location(unit), "none", then)
            dst = None
            if self.rng.random() < 0.6:
                dsts = [d for d in range(N_REGIONS) if choices.may_move_from_home(unit, d)]
                dst = self.pick(dsts) if dsts else None
            at, lost = self.rebuild_choice(unit, tile, choices)
            if lost is not None and lost != unit:    # SOE-A14 option: the unit destroyed (a fleet) may be
                dst = None                           # what made the free move legal; no move then
            return Build(unit, tile, dst, at, None if self.rng.random() < 0.5 else "none", None, lost)
        if kind == "move":
            n = int(self.rng.integers(1, choices.units_per_move + 1))
            plan = [choice]
            used = {(choice[0], choice[1]): 1}
            for _ in range(n - 1):
                rest = [m for m in moves if e.view.units[g, p, m[1], m[0]] > used.get((m[0], m[1]), 0)]
                if not rest:
                    break
                m = self.pick(rest)
                used[(m[0], m[1])] = used.get((m[0], m[1]), 0) + 1
                plan.append(m)
            return Move(tuple(choices.legal_prefix(plan)))
        if kind == "attack":
            r, target = choice
            surprise = e.owns(g, p, "surprise_attack") > 0 and self.rng.random() < 0.5
            blockade = e.owns(g, p, "blockade") > 0 and self.rng.random() < 0.5
            return DeclareAttack(r, target, False, surprise, blockade)
        return Colonise(choice)

    def rebuild_choice(self, kind: int, tile: str | None, choices: Choices) -> tuple[int | None, int | None]:
        """(location, kind) of the unit to destroy for a build, or (None, None): required with
        every piece of the kind on the map and for a free rebuild without population; otherwise
        one build in ten destroys a unit where the options allow it (SOE-9.5, SOE-A14)."""
        e, g, p = self.e, self.g, self.p
        at = self.destroy_location(kind)
        if at is not None:
            return at, kind
        sources = choices.rebuild_sources(kind)
        must = tile is None and e.view.population[g, p] < e.build_pop
        if sources and (must or self.rng.random() < 0.1):
            return self.pick(sources)
        return None, None

    def help(self, ally, opp, region, armies, fleets, attacker_side):
        return int(self.rng.integers(armies + 1)), int(self.rng.integers(fleets + 1))

    def fight_naval(self, attack, mine, theirs, as_attacker) -> bool:
        return bool(self.rng.random() < 0.5)

    def alliance_symbol(self, attack, land: bool) -> int:
        return self.pick((ARMY, FLEET))

    def use_blockade_defence(self, attack) -> bool:
        return self.e.owns(self.g, self.p, "blockade") > 0 and bool(self.rng.random() < 0.5)

    def refuse_battle(self, attack, res) -> bool:
        return bool(self.rng.random() < 0.5)
