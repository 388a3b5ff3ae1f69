"""The Struggle of Empires forward model for a batch of games played in lockstep.

`Engine` holds a `BatchState` of B games and advances all of them through the same step: setup
(SOE-3), then three wars (SOE-4) of country tokens (SOE-5), the alliance auction (SOE-6), 5 or 6
rounds of two actions per player (SOE-7..14), income / upkeep / growth (SOE-15), scoring
(SOE-16) and end of war (SOE-17); then end of game (SOE-18). A step is one action slot of one
turn position: each game's player picks an action, the engine applies its deterministic part,
and every battle declared in that step across the batch is resolved by one vectorised duel call
per battle stage (naval, then land) through `sim.struggle.combat.settle_duels`.

Randomness: each game owns the streams `(root_seed, game_index, purpose)` for purposes
"setup", "tokens<war>", "sea", "dice", "reserves" and "players<seat>", read through small
per-game buffers, so a game's draws never depend on the other games of the batch.

Players are objects with the decision methods of `sim.struggle.players.Player`; they read the
state through the engine and propose actions that the engine validates (an illegal proposal is
a bug in the player and raises).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sim.core.dice import PAIR_DIFF, PAIR_FIRST, PAIR_SECOND, PAIR_SEVEN
from sim.core.gcpause import collector_paused
from sim.core.lockstep import GameLog, RuleViolation, draw_buffers, game_header
from sim.core.random import stream
from sim.struggle import combat, scoring, sea
from sim.struggle.attack_scan import AttackScan
from sim.struggle.components import Components
from sim.struggle.state import (ARMY, FLEET, FORT, HOME, IN_BAG, IN_BOX, LOWER, MAX_SEATS, N_REGIONS, NEUTRAL,
                                ON_MAP, POP, SLAVE, UNIT_NAMES, UPPER, BatchState, build_tables)


@dataclass
class Side:
    """One side of a battle: its main player (-1 for a neutral or a tile), base strength from
    units, and the units at stake (player -> count) that can be taken as losses."""

    main: int
    units: dict[int, int] = field(default_factory=dict)     # participating armies/fleets per player
    forts: int = 0                                           # main player's forts (land, defence)
    bonus: int = 0                                           # training, support, alliance tiles
    fixed: int = 0                                           # neutral / tile strength
    refuse: bool = False

    def strength(self, fort_strength: int) -> int:
        return self.fixed + sum(self.units.values()) + fort_strength * self.forts + self.bonus


@dataclass
class Attack:
    """One declared attack (or Pirates / Slave Revolt raid) waiting for its dice."""

    g: int
    attacker: int
    region: int
    target: tuple                      # ("player", seat) | ("neutral", token) | ("pirates",) | ("revolt",) | ("raid", kind, seat)
    naval: Side | None = None          # naval battle sides (attacker, defender) when fought
    naval_def: Side | None = None
    land: Side | None = None
    land_def: Side | None = None
    land_kind: int = ARMY              # ARMY: losses are armies/forts; FLEET: a fleet-only battle
    support: int = 0                   # +1 attacker, -1 defender, 0 none
    blockade_b: tuple = ()             # seats using Blockade (b)


class Engine:
    """Plays `len(seatings)` games in lockstep (see the module docstring)."""

    def __init__(self, comp: Components, seatings, root_seed: int, game_indices, log: bool = False,
                 make_player=None) -> None:
        from sim.struggle.players import make_player as default_make
        from sim.struggle.players import prepare_turns
        self.comp, self.t = comp, build_tables(comp)
        t = self.t
        self.seed = int(root_seed)
        self.game_indices = [int(i) for i in game_indices]
        self.seatings = list(seatings)
        b = len(self.seatings)
        n_players = np.array([s.players for s in self.seatings])
        powers = np.full((b, MAX_SEATS), -1)
        for g, s in enumerate(self.seatings):
            powers[g, : s.players] = [t.powers.index(p) for p in s.powers]
        self.s = BatchState.empty(n_players, powers, len(t.dev), len(t.token_region), len(t.alliance),
                                  len(t.company))
        self.rule = functools.cache(comp.rule)          # data values do not change during play
        self.opt = functools.cache(comp.option)
        self.k = {name: i for i, name in enumerate(t.dev)}
        self._consts()
        self.attack_scan = AttackScan(self)
        self.prepare_turns = prepare_turns
        self.shared: dict[str, Any] = {}     # the players' work shared across the batch (their array passes)
        self.slots_played = 0          # action slots begun (players key per-slot work by it)
        self.sea_dice = draw_buffers(self.seed, self.game_indices, "sea", 6)
        self.battle_dice = draw_buffers(self.seed, self.game_indices, "dice", 1296)
        self.reserve_dice = draw_buffers(self.seed, self.game_indices, "reserves", 36)
        self.logs: list[list[dict]] | None = [[] for _ in range(b)] if log else None
        self.decisions = 0
        make = make_player or default_make
        self.tile_bans: dict[tuple[int, int], set[tuple[str, int]]] = {}   # (g, p) -> tiles never taken
        self.bought_kinds: list[list[set[str]]] = [[set() for _ in range(MAX_SEATS)] for _ in range(b)]
        self.players = [[make(s.strategies[p], self, g, p, functools.partial(stream, self.seed, gi, f"players{p}"))
                         for p in range(s.players)] for g, (s, gi) in enumerate(zip(self.seatings, self.game_indices))]
        self.public_unrest = np.zeros((b, MAX_SEATS), dtype=np.int32)
        self.on_step = None            # optional callback(engine, where) after every step (tests)
        self.refresh_rows()
        self.n_rounds = [self.rounds_in_war(g) for g in range(b)]

    def _consts(self) -> None:
        r = self.rule
        self.fee = r("economy.attack_fee")
        self.borrow = (r("economy.borrow_gold"), r("economy.borrow_gold_banking"), r("economy.borrow_unrest"))
        self.pop_max = r("economy.population_max")
        self.build_pop = r("economy.build_population")
        self.colonise_pop = r("economy.colonise_population")
        self.limits = (r("pieces.armies"), r("pieces.fleets"), r("pieces.forts"))
        self.marker_limit = min(self.opt("map_marker_limit"), r("pieces.control_markers"))
        self.unrest_lost = r("combat.unrest_per_unit_lost")
        c = self.comp.combat
        self.fort_strength, self.train, self.support_bonus = c.fort_strength, c.training_bonus, c.naval_support
        self.blockade_bonus, self.alliance_plus = c.blockade_support, c.alliance_bonus
        self.colonial = ~self.t.europe
        self.wars = r("game.wars")
        t = self.t                      # Python-list copies for the players' per-decision loops
        self.naval = t.naval_region.tolist()
        self.vp_lists = t.vp.tolist()
        self.token_strength, self.token_gold, self.token_vp = (
            t.token_strength.tolist(), t.token_gold.tolist(), t.token_vp.tolist())
        self.n_players_list = self.s.n_players.tolist()
        self.power_list = self.s.power.tolist()
        self.colonial_list = self.colonial.tolist()
        self.colonial_regions = np.flatnonzero(self.colonial).tolist()
        self.sea_list = t.sea.tolist()
        self.adjacent_lists = [np.flatnonzero(row).tolist() for row in t.adjacent]
        self.home_adjacent_lists = t.home_adjacent.tolist()
        self.token_region = t.token_region.tolist()
        self.first_vp = t.vp[:, 0].tolist()
        self.dev_gold, self.dev_unrest = t.dev_gold.tolist(), t.dev_unrest.tolist()
        self.company_gold = t.company_gold.tolist()
        self.alliance_gold = t.alliance_gold.tolist()
        self.alliance_region_sets = [set(np.flatnonzero(m).tolist()) for m in t.alliance_regions]
        self.is_neutral, self.is_pop, self.is_slave = (t.token_kind == NEUTRAL, t.token_kind == POP,
                                                       t.token_kind == SLAVE)
        self.africa = t.region("africa")
        self.pop_tokens, self.slave_tokens = np.flatnonzero(self.is_pop).tolist(), np.flatnonzero(self.is_slave).tolist()
        self.neutral_tokens = [np.flatnonzero(self.is_neutral & (t.token_region == r)).tolist() for r in range(N_REGIONS)]
        self.dev_pop = t.dev_pop.tolist()
        self.raid_kinds = {k: name for k, name in enumerate(t.dev) if name in ("pirates", "slave_revolt")}
        self.raid_regions = {"pirates": np.flatnonzero(self.colonial).tolist(),
                             "slave_revolt": np.flatnonzero(t.american).tolist()}
        self.free_action_tiles = [self.k[name] for name in ("improved_agriculture", "diplomatic_service", "blockade")]
        at_home = (HOME,) if self.opt("setup_units_at_home") else ()
        self.setup_places = tuple(tuple(r for r in range(N_REGIONS) if kind != FLEET or t.sea[r]) + at_home
                                  for kind in (ARMY, FLEET, FORT))

    # ------------------------------------------------------------------ logging and helpers
    def log(self, g: int, event: str, **fields: Any) -> None:
        if self.logs is not None:
            self.logs[g].append({"event": event, "war": self.s.war, "round": self.s.round, **fields})

    def power_name(self, g: int, p: int) -> str:
        return self.t.powers[self.s.power[g, p]]

    def refresh_rows(self) -> None:
        """Cache the alliance rows as Python lists (they change only in the auction)."""
        self._rows = self.s.row.tolist()
        self._allies: dict[tuple[int, int], list[int]] = {}

    def allied(self, g: int, p: int, q: int) -> bool:
        """SOE-6.7: players in the same alliance row are allies for the war."""
        rows = self._rows[g]
        return p != q and rows[p] >= 0 and rows[p] == rows[q]

    def enemy(self, g: int, p: int, q: int) -> bool:
        return p != q and not self.allied(g, p, q)

    def allies(self, g: int, p: int) -> list[int]:
        found = self._allies.get((g, p))
        if found is None:
            rows = self._rows[g]
            found = [q for q in range(int(self.s.n_players[g])) if q != p and rows[p] >= 0 and rows[q] == rows[p]]
            self._allies[(g, p)] = found
        return found

    def owns(self, g: int, p: int, tile: str) -> int:
        return int(self.s.dev_owned[g, p, self.k[tile]])

    def can_use(self, g: int, p: int, tile: str) -> bool:
        """SOE-19.3: a triangle tile is usable if a copy has not been turned this war."""
        k = self.k[tile]
        return self.s.dev_owned[g, p, k] > self.s.dev_used[g, p, k]

    def turn_tile(self, g: int, p: int, tile: str) -> None:
        self.s.dev_used[g, p, self.k[tile]] += 1

    def return_tile(self, g: int, p: int, tile: str) -> None:
        """SOE-19.5: a one-use tile goes back to the display; its user may not re-take it this
        round."""
        k = self.k[tile]
        self.s.dev_owned[g, p, k] -= 1
        self.s.dev_display[g, k] += 1
        self.s.no_retake[g, p, k] = True

    def add_unrest(self, g: int, p: int, n: int) -> None:
        """SOE-2.3: unrest tokens (public event: everyone sees them taken, not the total)."""
        self.s.unrest[g, p] += n
        self.public_unrest[g, p] += n

    def pay(self, g: int, p: int, amount: int) -> None:
        """SOE-2.2: pay gold, borrowing 2 gold (3 with Banking, SOE-20.10) per unrest token as
        often as needed, only at the moment of paying (Example SOE-E7)."""
        s = self.s
        short = amount - int(s.gold[g, p])
        if short > 0:
            step = self.borrow[1] if self.owns(g, p, "banking") else self.borrow[0]
            loans = -(-short // step)
            s.gold[g, p] += loans * step
            self.add_unrest(g, p, loans * self.borrow[2])
            s.stats["gold_borrowed"][g, p] += loans * step
            s.stats["unrest_borrowed"][g, p] += loans * self.borrow[2]
        s.gold[g, p] -= amount

    def free_markers(self, g: int, p: int) -> int:
        """SOE-A32: control markers left in the supply for the map (captured ones included)."""
        s = self.s
        held = int(s.pirates_region[g] >= 0 and s.pirates_victim[g] == p) + \
            int(s.revolt_region[g] >= 0 and s.revolt_victim[g] == p)
        return self.marker_limit - sum(s.markers[g, p].tolist()) - held

    def place_marker(self, g: int, p: int, r: int) -> bool:
        if self.free_markers(g, p) <= 0:
            return False
        self.s.markers[g, p, r] += 1
        return True

    def pieces_on_map(self, g: int, p: int, kind: int) -> int:
        return sum(self.s.units[g, p, :, kind].tolist())

    def neutrals_per_region(self, g: int) -> np.ndarray:
        """(11,) neutral tokens on the map per region."""
        t = self.t
        on = (self.s.token_state[g] == ON_MAP) & (t.token_kind == NEUTRAL)
        return np.bincount(t.token_region[on], minlength=N_REGIONS)

    def tokens_per_region(self, g: int) -> np.ndarray:
        """(11,) tokens of any kind on the map per region."""
        on = self.s.token_state[g] == ON_MAP
        return np.bincount(self.t.token_region[on], minlength=N_REGIONS)

    # ------------------------------------------------------------------ movement (SOE-10, SOE-11)
    def needs_sea_roll(self, src: int, dst: int) -> bool:
        """SOE-11.2/11.3: a roll for every move into or out of a colonial region, except between
        two American regions (home countries count as Europe)."""
        cs = src < N_REGIONS and self.colonial[src]
        cd = dst < N_REGIONS and self.colonial[dst]
        if not (cs or cd):
            return False
        return not (cs and cd and self.t.american[src] and self.t.american[dst])

    def army_may_enter(self, g: int, p: int, dst: int) -> bool:
        """SOE-10.3 .. 10.7: may an army of `p` move into `dst`?"""
        s = self.s
        if dst == HOME:
            return True                                            # SOE-10.6
        if self.colonial_list[dst]:
            if s.units[g, p, dst, FLEET] == 0:                     # SOE-10.3
                return False
            bo = s.blockade_owner[g]
            if s.blockade_region[g] == dst and bo >= 0 and self.enemy(g, p, bo):   # SOE-10.7, SOE-A18
                return s.units[g, p, dst, FLEET] > s.units[g, bo, dst, FLEET]
            return True
        mine = s.markers[g, p].tolist()
        if mine[dst] > 0:                                          # SOE-10.4 (1)
            return True
        if any(mine[a] > 0 for a in self.adjacent_lists[dst]):     # (2)
            return True
        if self.home_adjacent_lists[self.power_list[g][p]][dst]:   # (3)
            return True
        sea = self.sea_list[dst]
        if sea and s.units[g, p, dst, FLEET] > 0:                  # (4)
            return True
        nav = self.naval[dst]
        return bool(not sea and nav >= 0 and s.units[g, p, nav, FLEET] > 0)   # (5)

    def fleet_may_enter(self, g: int, p: int, dst: int) -> bool:
        """SOE-10.2 / SOE-A2: fleets sail to the 8 sea regions (home only if the option allows)."""
        if dst == HOME:
            return self.opt("fleets_at_home") == "anywhere_home"
        return self.sea_list[dst]

    def may_move(self, g: int, p: int, kind: int, src: int, dst: int) -> bool:
        """SOE-10.1, SOE-9.4: one unit of `kind` from `src` to `dst` (forts only from home)."""
        if src == dst or self.s.units[g, p, src, kind] == 0:
            return False
        if kind == FLEET:
            return self.fleet_may_enter(g, p, dst)
        if kind == FORT and src != HOME:
            return False
        return self.army_may_enter(g, p, dst)

    def may_move_from_home(self, g: int, p: int, kind: int, dst: int) -> bool:
        """SOE-9.3: may a unit just built at home make its free move to `dst` (a fort moves as
        an army)?"""
        if dst == HOME:
            return False
        return self.fleet_may_enter(g, p, dst) if kind == FLEET else self.army_may_enter(g, p, dst)

    def sea_roll(self, g: int, p: int) -> int:
        """SOE-11.1: 0 = arrives, 1 = back where it started, 2 = destroyed (Example SOE-E8);
        Navigation adds its bonus to the second roll (SOE-20.11). Outcome by `sea.roll_outcome`."""
        first = self.sea_dice[g].next() + 1
        second = self.sea_dice[g].next() + 1 if first < self.comp.sea.arrive_min_first else 1
        return sea.roll_outcome(first, second, self.owns(g, p, "navigation") > 0, self.comp.sea)

    def move_unit(self, g: int, p: int, kind: int, src: int, dst: int) -> int:
        """Move one unit with its sea roll; returns the sea-roll outcome (0 if none needed)."""
        if not self.may_move(g, p, kind, src, dst):
            raise RuleViolation(f"game {g}: {UNIT_NAMES[kind]} of seat {p} may not move {src}->{dst}")
        outcome = self.sea_roll(g, p) if self.needs_sea_roll(src, dst) else 0
        u = self.s.units[g, p]
        if outcome == 0:
            u[src, kind] -= 1
            u[dst, kind] += 1
        elif outcome == 2:
            u[src, kind] -= 1
            if self.opt("unrest_from_sea_losses"):
                self.add_unrest(g, p, 1)
        if self.logs is not None:                        # event fields are built only for a log
            self.log(g, "move", seat=p, unit=UNIT_NAMES[kind], src=self.loc_name(src), dst=self.loc_name(dst),
                     sea=("arrived", "returned", "destroyed")[outcome], rolled=self.needs_sea_roll(src, dst))
        self._check_blockade(g)
        return outcome

    def loc_name(self, loc: int) -> str:
        return "home" if loc == HOME else self.t.regions[loc]

    def _check_blockade(self, g: int) -> None:
        """SOE-20.20 (a): the Blockade tile goes back to the display once its owner has no fleet
        left in the region."""
        r, o = self.s.blockade_region[g], self.s.blockade_owner[g]
        if r >= 0 and self.s.units[g, o, r, FLEET] == 0:
            self.s.blockade_region[g] = self.s.blockade_owner[g] = -1
            self.s.dev_display[g, self.k["blockade"]] += 1

    # ------------------------------------------------------------------ setup (SOE-3)
    def setup(self) -> None:
        """SOE-3: 10 tokens on the map, 5 tokens per player turned into control markers (tokens
        to the box), 10 gold, population 5, VP 0, then 5 units each placed one at a time,
        clockwise from the start player (seat 0; the runner rotates seats)."""
        s, t = self.s, self.t
        s.dev_display[:] = t.dev_copies
        s.gold[:] = 0
        for g in range(s.n):
            rng = stream(self.seed, self.game_indices[g], "setup")
            order = rng.permutation(len(t.token_region))
            n_map = self.rule("start.tokens_on_map")
            per = self.rule("start.tokens_per_player")
            s.token_state[g, order[:n_map]] = ON_MAP
            pos = n_map
            for p in s.seats(g):
                for tok in order[pos: pos + per]:
                    s.token_state[g, tok] = IN_BOX
                    s.markers[g, p, t.token_region[tok]] += 1
                pos += per
                s.gold[g, p] = self.rule("start.gold")
                s.population[g, p] = self.rule("start.population")
                s.vp[g, p] = self.rule("start.vp")
                self._grant(g, p, getattr(self.players[g][p], "grants", {}))
            if self.logs is not None:
                self.log(g, "setup", tokens_on_map=[self.token_name(k) for k in order[:n_map]],
                         markers={self.power_name(g, p): self.marker_list(g, p) for p in s.seats(g)})
        units = self.rule("start.units")
        for _ in range(units):
            for p in range(MAX_SEATS):
                for g in range(s.n):
                    if p < self.n_players_list[g] and any(self.setup_locations(g, p, k) for k in (ARMY, FLEET, FORT)):
                        kind, r = self.players[g][p].place_setup_unit()
                        self.decisions += 1
                        self._place_setup(g, p, kind, r)

    def _grant(self, g: int, p: int, grants: dict[str, int]) -> None:
        """Start resources of an intervened seat (sim.struggle.interventions): more gold, more
        population (never above the track, SOE-2.4), or hidden unrest (SOE-2.3)."""
        s = self.s
        s.gold[g, p] += grants.get("gold", 0)
        s.population[g, p] = min(self.pop_max, int(s.population[g, p]) + grants.get("population", 0))
        s.unrest[g, p] += grants.get("unrest", 0)

    def setup_locations(self, g: int, p: int, kind: int) -> tuple[int, ...]:
        """SOE-3.8: armies and forts in any VP region, fleets in the 8 sea regions; home only
        with the SOE-A36 option."""
        if self.pieces_on_map(g, p, kind) >= self.limits[kind]:
            return ()
        return self.setup_places[kind]

    def _place_setup(self, g: int, p: int, kind: int, r: int) -> None:
        if r not in self.setup_locations(g, p, kind):
            raise RuleViolation(f"setup: {UNIT_NAMES[kind]} may not go to {r}")
        self.s.units[g, p, r, kind] += 1
        self.log(g, "place", seat=p, unit=UNIT_NAMES[kind], region=self.loc_name(r))

    def token_name(self, k: int) -> str:
        t = self.t
        kind = t.token_kind[k]
        code = ("N%d" % t.token_strength[k] + (f"g{t.token_gold[k]}" if t.token_gold[k] else "")
                + (f"v{t.token_vp[k]}" if t.token_vp[k] else "")) if kind == NEUTRAL else ("Pop", "Pop", "Slave")[kind]
        return f"{t.regions[t.token_region[k]]}:{code}"

    def marker_list(self, g: int, p: int) -> dict[str, int]:
        return {self.t.regions[r]: int(c) for r, c in enumerate(self.s.markers[g, p]) if c}

    # ------------------------------------------------------------------ war flow (SOE-4)
    def play(self) -> None:
        """Setup, three wars and the end of the game for every game of the batch (with the
        cyclic garbage collector paused: play makes no reference cycles, `sim.core.gcpause`)."""
        with collector_paused():
            self._play()

    def _play(self) -> None:
        self.setup()
        self._stepped("setup")
        for war in range(1, self.rule("game.wars") + 1):
            self.s.war = war
            if war > 1:
                self.draw_tokens()
            self.auctions()
            self._stepped("auction")
            self.rounds()
            self.income_upkeep_growth()
            self._stepped("income")
            self.score_war()
            self.end_war()
            self._stepped("end_war")
        self.end_game()
        self._stepped("end")

    def _stepped(self, where: str) -> None:
        if self.on_step is not None:
            self.on_step(self, where)

    def draw_tokens(self) -> None:
        """SOE-5.1: 10 new tokens from the bag in wars 2 and 3 (fewer if the bag runs short)."""
        n = self.rule("game.tokens_per_war")
        for g in range(self.s.n):
            rng = stream(self.seed, self.game_indices[g], f"tokens{self.s.war}")
            bag = np.flatnonzero(self.s.token_state[g] == IN_BAG)
            drawn = rng.permutation(bag)[:n]
            self.s.token_state[g, drawn] = ON_MAP
            if self.logs is not None:
                self.log(g, "tokens", drawn=[self.token_name(k) for k in drawn])

    def rounds_in_war(self, g: int) -> int:
        """SOE-4.2: 6 rounds with 2-4 players, 5 with 5-7."""
        if hasattr(self, "n_rounds"):
            return self.n_rounds[g]
        return self.rule("game.rounds_2_to_4_players" if self.s.n_players[g] <= 4 else "game.rounds_5_to_7_players")

    def rounds(self) -> None:
        """SOE-7.1: rounds of turns in alliance order; each turn = free actions + two actions.
        All games advance one action slot at a time; the battles of a slot are resolved together."""
        s = self.s
        n_rounds, n_players = self.n_rounds, self.n_players_list
        per_turn = self.rule("game.actions_per_turn")
        actions = s.stats["actions"]
        for rnd in range(1, max(n_rounds) + 1):
            s.round = rnd
            s.bought[:] = False
            s.colonised[:] = False
            s.no_retake[:] = False
            order = s.turn_order.tolist()
            for pos in range(MAX_SEATS):
                games = [g for g in range(s.n) if pos < n_players[g] and rnd <= n_rounds[g]]
                if not games:
                    continue
                acting = [self.players[g][order[g][pos]] for g in games]
                seats = [player.p for player in acting]
                for player, free in zip(acting, self._free_action_holders(games, seats)):
                    if free:                                   # free actions, then War Office attacks
                        player.free_actions()
                self.slots_played += 1
                self.prepare_turns(acting, war_office=True)
                pending = []
                for g, player, office in zip(games, acting, self.usable(games, seats, "war_office")):
                    att = player.war_office_attack() if office else None         # SOE-20.4
                    if att is not None:
                        pending.append(self.declare_attack(g, player.p, *att, war_office=True))
                self.resolve(pending)
                for slot in range(per_turn):
                    pending = []
                    self.slots_played += 1
                    self.prepare_turns(acting)
                    for g, player in zip(games, acting):
                        p = player.p
                        action = player.choose_action(slot)
                        self.decisions += 1
                        actions[g, p] += 1
                        att = self.apply(g, p, action)
                        if att is not None:
                            pending.append(att)
                    self.resolve(pending)
                    self._stepped("action")

    def usable(self, games: list[int], seats: list[int], tile: str) -> list[bool]:
        """`can_use` for each (game, seat) at once (SOE-19.3)."""
        g, p, k = np.array(games), np.array(seats), self.k[tile]
        return (self.s.dev_owned[g, p, k] > self.s.dev_used[g, p, k]).tolist()

    def _free_action_holders(self, games: list[int], seats: list[int]) -> list[bool]:
        """Whether each (game, seat) holds a tile used as a free action at the start of a turn
        (SOE-7.3: Improved Agriculture, Diplomatic Service, Blockade (a), a company tile);
        players are asked for free actions only then."""
        s = self.s
        g, p = np.array(games), np.array(seats)
        tiles = s.dev_owned[g, p][:, self.free_action_tiles].any(axis=1)
        companies = (s.company_owner[g] == p[:, None]).any(axis=1)
        return (tiles | companies).tolist()

    # ------------------------------------------------------------------ auction (SOE-6)
    def auctions(self) -> None:
        """SOE-6: ceil(N/2) auctions place every player in the upper or lower alliance row;
        turn order = placement order (spaces 1, 2, 3, ... alternate rows, SOE-6.1)."""
        s = self.s
        s.row[:] = -1
        s.turn_order[:] = -1
        self.refresh_rows()
        for g in range(s.n):
            n = int(s.n_players[g])
            opener = 0 if s.war == 1 else int(s.last_in_order[g])             # SOE-6.2
            placed = 0
            while placed < n:
                placed = self.auction(g, opener, placed)
                opener = (opener + 1) % n
            self._rows[g] = s.row[g].tolist()
            self._allies = {k: v for k, v in self._allies.items() if k[0] != g}
            s.last_in_order[g] = s.turn_order[g, n - 1]                       # SOE-6.8

    def auction(self, g: int, opener: int, placed: int) -> int:
        """SOE-6.3 .. 6.5: raise-or-pass bidding clockwise from the opener (who must bid, SOE-A6);
        it ends when every other player has passed since the last bid; the winner pays (with
        borrowing) and the proposed markers take the next spaces."""
        s = self.s
        n = int(s.n_players[g])
        unallied = [p for p in range(n) if s.row[g, p] < 0]
        bid, proposal = self.players[g][opener].bid(None, None, unallied)
        self.decisions += 1
        if bid is None:
            raise RuleViolation("the opener of an auction must bid (SOE-A6)")
        self._check_proposal(proposal, unallied)
        leader, passes, p = opener, 0, (opener + 1) % n
        self.log(g, "bid", seat=opener, bid=bid, proposal=list(proposal))
        while passes < n - 1:
            answer = self.players[g][p].bid(bid, proposal, unallied)
            self.decisions += 1
            if answer[0] is None:
                passes += 1
            else:
                if answer[0] <= bid:
                    raise RuleViolation("a bid must be higher than the last one (SOE-6.3)")
                bid, proposal = answer
                self._check_proposal(proposal, unallied)
                leader, passes = p, 0
                self.log(g, "bid", seat=p, bid=bid, proposal=list(proposal))
            p = (p + 1) % n
        self.pay(g, leader, bid)
        if len(unallied) == 1:                           # SOE-6.4 exception, SOE-A4
            who, row = proposal
            s.row[g, who] = row
            s.turn_order[g, placed] = who
            placed += 1
            self.log(g, "auction_won", seat=leader, bid=bid, rows={self.power_name(g, who): row})
        else:
            a, b = proposal
            s.row[g, a], s.row[g, b] = UPPER, LOWER
            s.turn_order[g, placed], s.turn_order[g, placed + 1] = a, b
            placed += 2
            self.log(g, "auction_won", seat=leader, bid=bid,
                     rows={self.power_name(g, a): UPPER, self.power_name(g, b): LOWER})
        return placed

    @staticmethod
    def _check_proposal(proposal, unallied) -> None:
        if len(unallied) == 1:
            ok = len(proposal) == 2 and proposal[0] == unallied[0] and proposal[1] in (UPPER, LOWER)
        else:
            ok = len(proposal) == 2 and proposal[0] != proposal[1] and all(x in unallied for x in proposal)
        if not ok:
            raise RuleViolation(f"proposal {proposal} is not allowed (SOE-6.4); unallied {unallied}")

    # ------------------------------------------------------------------ actions (SOE-7 .. SOE-14)
    def apply(self, g: int, p: int, action: tuple) -> Attack | None:
        """Apply one action; returns an `Attack` when dice are needed (resolved with the step)."""
        kind = action[0]
        if kind == "pass":
            self.s.stats["passes"][g, p] += 1
            self.log(g, "pass", seat=p)
            return None
        if kind == "buy":
            return self.buy(g, p, action[1], action[2], *action[3:])
        if kind == "build":
            self.build(g, p, *action[1:])
            return None
        if kind == "move":
            self.move(g, p, action[1])
            return None
        if kind == "attack":
            return self.declare_attack(g, p, *action[1:])
        if kind == "colonise":
            self.colonise(g, p, action[1])
            return None
        raise RuleViolation(f"unknown action {action!r}")

    # ---- A: buy a tile (SOE-8)
    def buyable(self, g: int, p: int, only: tuple[str, int] | None = None) -> list[tuple[str, int]]:
        """SOE-8.1/8.3, SOE-19.5: tiles on the display that `p` may take now; `only`: look at
        that one tile (the answer holds it or is empty)."""
        s = self.s
        if s.bought[g, p]:
            return []
        out = []
        if only is None or only[0] == "dev":
            display = s.dev_display[g].tolist()
            banned = s.no_retake[g, p].tolist()
            pop = int(s.population[g, p])
            dev_pop, raids = self.dev_pop, self.raid_kinds
            markers = None
            for k in _indices(len(display), only):
                if display[k] > 0 and not banned[k] and pop >= dev_pop[k]:
                    name = raids.get(k)
                    if name is not None:             # a raid tile needs a target (SOE-20.16.2 / 20.17.1)
                        if markers is None:
                            markers = s.markers[g].tolist()
                        if not any(markers[q][r] > 0 for r in self.raid_regions[name]
                                   for q in range(self.n_players_list[g]) if q != p):
                            continue
                    out.append(("dev", k))
        for what, owners in (("alliance", s.alliance_owner[g]), ("company", s.company_owner[g])):
            if only is None or only[0] == what:
                owner = owners.tolist()
                out += [(what, i) for i in _indices(len(owner), only) if owner[i] < 0]
        bans = self.tile_bans.get((g, p))
        return [o for o in out if o not in bans] if bans else out

    def raid_targets(self, g: int, p: int, name: str) -> list[tuple[int, int]]:
        """SOE-20.16.2 / 20.17.1: (region, seat) pairs holding another player's marker in a
        colonial region (American regions only for Slave Revolt)."""
        markers = self.s.markers[g].tolist()
        seats = [q for q in range(self.n_players_list[g]) if q != p]
        return [(r, q) for r in self.raid_regions[name] for q in seats if markers[q][r] > 0]

    def buy(self, g: int, p: int, what: str, i: int, *args) -> Attack | None:
        """SOE-8: take one tile and pay its costs (gold with borrowing, unrest, population);
        on-taking effects: Government Reform (SOE-20.14), Industry (SOE-20.15), Pirates and Slave
        Revolt (SOE-20.16/17, resolved with the step's battles)."""
        s, t = self.s, self.t
        if not self.buyable(g, p, only=(what, i)):
            raise RuleViolation(f"game {g}: seat {p} may not buy {what} {i}")
        s.bought[g, p] = True
        s.stats["tiles_bought"][g, p] += 1
        self.bought_kinds[g][p].add({"dev": t.dev, "alliance": t.alliance, "company": t.company}[what][i])
        if what == "alliance":
            self._take_alliance(g, p, i)
            return None
        if what == "company":
            self.pay(g, p, int(t.company_gold[i]))
            s.company_owner[g, i] = p
            self.log(g, "buy", seat=p, tile=t.company[i])
            return None
        name = t.dev[i]
        self.pay(g, p, int(t.dev_gold[i]))
        if t.dev_unrest[i]:
            self.add_unrest(g, p, int(t.dev_unrest[i]))
        s.population[g, p] -= t.dev_pop[i]
        s.dev_display[g, i] -= 1
        self.log(g, "buy", seat=p, tile=name)
        if name == "government_reform":
            s.unrest[g, p] = max(0, int(s.unrest[g, p]) - self.rule("economy.reform_unrest"))   # SOE-A30
            s.stats["reforms"][g, p] += 1
            self.public_unrest[g, p] = max(0, int(self.public_unrest[g, p]) - self.rule("economy.reform_unrest"))
        elif name == "industry":
            s.vp[g, p] += self.rule("economy.industry_vp")
        elif name in ("pirates", "slave_revolt"):
            r, q = args if args else self.raid_targets(g, p, name)[0]
            return self.declare_raid(g, p, name, r, q)
        else:
            s.dev_owned[g, p, i] += 1
        return None

    def _take_alliance(self, g: int, p: int, i: int) -> None:
        self.pay(g, p, int(self.t.alliance_gold[i]))
        self.s.alliance_owner[g, i] = p
        self.log(g, "buy", seat=p, tile=self.t.alliance[i])

    # ---- B: build (SOE-9)
    def build_options(self, g: int, p: int) -> list[tuple[int, str | None]]:
        """SOE-9.1/9.5, SOE-20.5..20.7: (unit kind, free tile or None) that `p` may build now.
        A kind whose pieces are all on the map needs destroy-and-rebuild (a unit of it exists);
        without population only a free rebuild builds (option `rebuild_pays_population`)."""
        s, k = self.s, self.k
        own, used = s.dev_owned[g, p].tolist(), s.dev_used[g, p].tolist()
        paid = s.population[g, p] >= self.build_pop
        free_rebuild = not paid and not self.opt("rebuild_pays_population")
        out = []
        for kind in (ARMY, FLEET, FORT):
            if self.limits[kind] <= 0 and self.pieces_on_map(g, p, kind) == 0:      # no piece at all
                continue
            if paid or (free_rebuild and self.rebuild_sources(g, p, kind)):
                out.append((kind, None))
            if kind == ARMY:
                if own[k["mercenaries"]] > used[k["mercenaries"]]:
                    out.append((kind, "mercenaries"))
                if own[k["trained_natives"]] and self.trained_natives_ok(g, p) and self.trained_natives_regions(g, p):
                    out.append((kind, "trained_natives"))
            elif kind == FLEET and own[k["pressgangs"]] > used[k["pressgangs"]]:
                out.append((kind, "pressgangs"))
        return out

    def rebuild_sources(self, g: int, p: int, kind: int) -> list[tuple[int, int]]:
        """SOE-9.5 / SOE-A14: (location, unit kind) of the own units `p` may destroy to build a
        unit of `kind`. Recommended reading: at any time, a unit of the same kind; options
        `rebuild_any_time` (false: only with every piece of the kind on the map) and
        `rebuild_same_type` (false: a unit of any kind, unless the kind has no piece left)."""
        full = self.pieces_on_map(g, p, kind) >= self.limits[kind]
        if not full and not self.opt("rebuild_any_time"):
            return []
        kinds = (kind,) if full or self.opt("rebuild_same_type") else (ARMY, FLEET, FORT)
        units = self.s.units[g, p].tolist()
        return [(loc, k) for k in kinds for loc in range(N_REGIONS + 1) if units[loc][k] > 0]

    def trained_natives_ok(self, g: int, p: int) -> bool:
        if not self.owns(g, p, "trained_natives"):
            return False
        return self.can_use(g, p, "trained_natives") or not self.opt("trained_natives_once_per_war")

    def trained_natives_regions(self, g: int, p: int) -> list[int]:
        """SOE-20.7: colonial regions where `p` has a control marker or a unit."""
        s = self.s
        mine, units = s.markers[g, p].tolist(), s.units[g, p].tolist()
        out = []
        for r in self.colonial_regions:
            if mine[r] > 0 or sum(units[r]) > 0:
                bo = s.blockade_owner[g]
                if (self.opt("blockade_stops_trained_natives") and s.blockade_region[g] == r and bo >= 0
                        and self.enemy(g, p, bo) and units[r][FLEET] <= s.units[g, bo, r, FLEET]):
                    continue
                out.append(r)
        return out

    def build(self, g: int, p: int, kind: int, tile: str | None = None, dst: int | None = None,
              destroy_at: int | None = None, militia_dst: int | None = "none", then: int | None = None,
              destroy_kind: int | None = None) -> None:
        """SOE-9: build one unit at home for 1 population (or free with Mercenaries / Pressgangs /
        Trained Natives, SOE-20.5..20.7), then an optional free move (a fort moves as an army,
        SOE-9.3). Destroy-and-rebuild (SOE-9.5): destroy an own unit at `destroy_at` (of kind
        `destroy_kind`, default the kind built) for +1 unrest first -- required when every piece
        of the kind is on the map; when else and of which kind per `rebuild_sources`; it pays
        the normal population unless `rebuild_pays_population` is false (SOE-A14). Militia
        (SOE-20.8): an extra army for its population when no free tile is used (`militia_dst`
        not "none": build it, moving it there if not None). A Trained Natives army still has
        its free build move (`then`, with a sea roll)."""
        s = self.s
        if (kind, tile) not in self.build_options(g, p):
            raise RuleViolation(f"game {g}: seat {p} may not build {UNIT_NAMES[kind]} with {tile}")
        full = self.pieces_on_map(g, p, kind) >= self.limits[kind]
        rebuild = full or destroy_at is not None
        if rebuild:
            lost = kind if destroy_kind is None else destroy_kind
            if destroy_at is None:
                raise RuleViolation("all pieces on the map: name a unit to destroy (SOE-9.5)")
            if (destroy_at, lost) not in self.rebuild_sources(g, p, kind):
                raise RuleViolation(f"game {g}: seat {p} may not destroy a {UNIT_NAMES[lost]} at {destroy_at} to build "
                                    f"a {UNIT_NAMES[kind]} (SOE-9.5, SOE-A14 options)")
            s.units[g, p, destroy_at, lost] -= 1
            self.add_unrest(g, p, self.rule("economy.rebuild_unrest"))
            self._check_blockade(g)
            self.log(g, "destroy", seat=p, unit=UNIT_NAMES[lost], region=self.loc_name(destroy_at))
        if tile is None:
            if not rebuild or self.opt("rebuild_pays_population"):
                if s.population[g, p] < self.build_pop:
                    raise RuleViolation("a build without a free tile needs its population (SOE-9.1)")
                s.population[g, p] -= self.build_pop
        else:
            self.turn_tile(g, p, tile)
        if tile == "trained_natives":
            if dst not in self.trained_natives_regions(g, p):
                raise RuleViolation("Trained Natives need a colonial region with an own marker or unit")
            s.units[g, p, dst, ARMY] += 1                      # no sea roll, no fleet needed
            self.log(g, "build", seat=p, unit="army", tile=tile, dst=self.loc_name(dst), sea="placed")
            if then is not None:
                self.move_unit(g, p, ARMY, dst, then)
        else:
            s.units[g, p, HOME, kind] += 1
            self.log(g, "build", seat=p, unit=UNIT_NAMES[kind], tile=tile)
            if dst is not None:
                self.move_unit(g, p, kind, HOME, dst)
        copies = self.owns(g, p, "militia") if tile is None and militia_dst != "none" else 0
        for _ in range(copies if self.opt("militia_stacks") else min(copies, 1)):     # SOE-A16
            if s.population[g, p] < self.build_pop or self.pieces_on_map(g, p, ARMY) >= self.limits[ARMY]:
                break
            s.population[g, p] -= self.build_pop
            s.units[g, p, HOME, ARMY] += 1
            self.log(g, "build", seat=p, unit="army", tile="militia")
            if militia_dst is not None:
                self.move_unit(g, p, ARMY, HOME, militia_dst)

    # ---- C: move (SOE-10)
    def units_per_move(self, g: int, p: int) -> int:
        """SOE-10.1 + Logistics (SOE-20.9, copies stack per SOE-A16 option)."""
        n = self.owns(g, p, "logistics")
        extra = n if self.opt("logistics_stacks") else min(n, 1)
        return self.rule("game.units_per_move") + extra

    def legal_prefix(self, g: int, p: int, moves: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
        """The longest prefix of a move plan that is legal if every earlier move arrives (the
        state is restored afterwards)."""
        saved = self.s.units[g, p].copy()
        out = []
        try:
            for kind, src, dst in moves:
                if len(out) >= self.units_per_move(g, p) or not self.may_move(g, p, kind, src, dst):
                    break
                self.s.units[g, p, src, kind] -= 1
                self.s.units[g, p, dst, kind] += 1
                out.append((kind, src, dst))
        finally:
            self.s.units[g, p] = saved
        return out

    def move(self, g: int, p: int, moves: list[tuple[int, int, int]]) -> None:
        """SOE-10.1: move up to two (three with Logistics) different units one after another;
        each move may rely on the ones before it. A bounced unit stays put (SOE-A26); with the
        option `move_same_unit_again` the moves are steps, and one unit may take several."""
        if not 1 <= len(moves) <= self.units_per_move(g, p):
            raise RuleViolation(f"a Move action moves 1..{self.units_per_move(g, p)} units")
        moved = np.zeros((N_REGIONS + 1, 3), dtype=np.int32)     # units already moved, by destination
        again = self.opt("move_same_unit_again")
        failed = False
        for kind, src, dst in moves:
            available = int(self.s.units[g, p, src, kind]) - (0 if again else int(moved[src, kind]))
            if failed and (available <= 0 or not self.may_move(g, p, kind, src, dst)):
                self.log(g, "move_void", seat=p, unit=UNIT_NAMES[kind], src=self.loc_name(src),
                         dst=self.loc_name(dst))
                continue                               # it relied on a unit that did not arrive
            if available <= 0:
                raise RuleViolation("each unit moves at most once per Move action (SOE-A26)")
            outcome = self.move_unit(g, p, kind, src, dst)
            if outcome == 0:
                moved[dst, kind] += 1
            else:
                failed = True

    # ---- E: colonise / enslave (SOE-13)
    def colonise_targets(self, g: int, p: int) -> list[int]:
        """SOE-13: Pop tokens (1 population) and Slave tokens (a fleet in Africa), once a round."""
        s = self.s
        if s.colonised[g, p]:
            return []
        pop_ok = s.population[g, p] >= self.colonise_pop
        slave_ok = s.units[g, p, self.africa, FLEET] > 0
        if not (pop_ok or slave_ok) or self.free_markers(g, p) <= 0:
            return []
        states = s.token_state[g].tolist()
        out = [k for k in self.pop_tokens if states[k] == ON_MAP] if pop_ok else []
        return out + [k for k in self.slave_tokens if states[k] == ON_MAP] if slave_ok else out

    def colonise(self, g: int, p: int, token: int) -> None:
        if token not in self.colonise_targets(g, p):
            raise RuleViolation(f"game {g}: seat {p} may not colonise/enslave token {token}")
        s = self.s
        s.colonised[g, p] = True
        if self.t.token_kind[token] == POP:
            s.population[g, p] -= self.colonise_pop
        s.token_state[g, token] = IN_BOX                            # SOE-A38
        self.place_marker(g, p, int(self.t.token_region[token]))
        self.log(g, "colonise" if self.t.token_kind[token] == POP else "enslave", seat=p,
                 token=self.token_name(token))

    # ---- free actions (SOE-7.3, SOE-19.6)
    def use_company(self, g: int, p: int, i: int, r: int) -> None:
        """SOE-21: once per war, gold per own control marker in one region of the tile."""
        s, t = self.s, self.t
        if s.company_owner[g, i] != p or s.company_used[g, i] or not t.company_regions[i, r]:
            raise RuleViolation("company tile not usable")
        s.company_used[g, i] = True
        gain = int(s.markers[g, p, r]) * int(t.company_per_marker[i])
        s.gold[g, p] += gain
        self.log(g, "company", seat=p, tile=t.company[i], region=t.regions[r], gold=gain)

    def use_agriculture(self, g: int, p: int) -> None:
        """SOE-20.13: once per war, +1 population (max 9)."""
        if not self.can_use(g, p, "improved_agriculture"):
            raise RuleViolation("Improved Agriculture not usable")
        self.turn_tile(g, p, "improved_agriculture")
        self.s.population[g, p] = min(self.pop_max, int(self.s.population[g, p]) + 1)
        self.log(g, "agriculture", seat=p)

    def use_diplomacy(self, g: int, p: int, i: int) -> None:
        """SOE-20.12: once per war, take an alliance tile as a free action (paying its cost)."""
        if not self.can_use(g, p, "diplomatic_service") or self.s.alliance_owner[g, i] >= 0:
            raise RuleViolation("Diplomatic Service not usable")
        self.turn_tile(g, p, "diplomatic_service")
        self._take_alliance(g, p, i)

    def place_blockade(self, g: int, p: int, r: int) -> None:
        """SOE-20.20 (a): put the Blockade tile under an own fleet in a colonial region."""
        s = self.s
        if not self.owns(g, p, "blockade") or not self.colonial[r] or s.units[g, p, r, FLEET] == 0 \
                or s.blockade_region[g] >= 0:
            raise RuleViolation("Blockade (a) not possible")
        s.dev_owned[g, p, self.k["blockade"]] -= 1
        s.no_retake[g, p, self.k["blockade"]] = True
        s.blockade_region[g], s.blockade_owner[g] = r, p
        self.log(g, "blockade", seat=p, region=self.t.regions[r])

    # ------------------------------------------------------------------ attacks (SOE-12)
    def attack_targets(self, g: int, p: int, region: int | None = None) -> list[tuple[int, tuple]]:
        """SOE-12.1/12.2: (region, target) pairs `p` may attack: an enemy with a marker or units
        there (SOE-A22), a neutral token, a Pirates / Slave Revolt tile; a land attack needs an
        own army in the region, a naval-only attack an own fleet there and an enemy fleet.
        `region`: only the targets in that region."""
        s = self.s
        if region is None:
            regions = range(N_REGIONS)
            units = s.units[g].transpose(1, 0, 2).tolist()                # [region][seat][kind]
            markers = s.markers[g].T.tolist()
        else:
            regions = (region,)
            units, markers = {region: s.units[g, :, region].tolist()}, {region: s.markers[g, :, region].tolist()}
        rows = self._rows[g]
        row = rows[p]
        enemies = [q for q in range(self.n_players_list[g]) if q != p and (row < 0 or rows[q] != row)]
        states = None
        pirates, revolt = int(s.pirates_region[g]), int(s.revolt_region[g])
        out = []
        for r in regions:
            here, marks = units[r], markers[r]
            army, fleet = here[p][ARMY], here[p][FLEET]
            if not (army or fleet):
                continue
            for q in enemies:
                uq = here[q]
                if army:
                    if marks[q] > 0 or uq[ARMY] or uq[FLEET] or uq[FORT]:
                        out.append((r, ("player", q)))
                elif uq[FLEET] > 0:
                    out.append((r, ("player", q)))
            if army:
                if states is None:
                    states = s.token_state[g].tolist()
                out += [(r, ("neutral", k)) for k in self.neutral_tokens[r] if states[k] == ON_MAP]
                if revolt == r and s.revolt_victim[g] != p:
                    out.append((r, ("revolt",)))
            if fleet and pirates == r and s.pirates_victim[g] != p:
                out.append((r, ("pirates",)))
        return out

    def declare_attack(self, g: int, p: int, r: int, target: tuple, war_office: bool = False,
                       surprise: bool = False, blockade: bool = False) -> Attack:
        """SOE-12.1 .. 12.7: pay the fee (none with War Office, SOE-20.4), call allies, choose
        alliance-tile symbols, take the naval-phase decisions; dice come later with the step."""
        s, t = self.s, self.t
        if not 0 <= r < N_REGIONS or (r, target) not in self.attack_targets(g, p, region=r):
            raise RuleViolation(f"game {g}: seat {p} may not attack {target} in {r}")
        if war_office:
            if not self.can_use(g, p, "war_office"):
                raise RuleViolation("War Office already used this war")
            self.turn_tile(g, p, "war_office")
        else:
            self.pay(g, p, self.fee)
        a = Attack(g, p, r, target)
        nav = int(t.naval_region[r])
        kind = target[0]
        defender = target[1] if kind == "player" else -1
        if surprise:
            if not self.owns(g, p, "surprise_attack"):
                raise RuleViolation("no Surprise Attack tile")
            self.return_tile(g, p, "surprise_attack")
        land = s.units[g, p, r, ARMY] > 0 and kind != "pirates"
        helpers = self._helpers(g, p, defender, r, nav, attacker_side=True, neutral=(defender < 0))
        def_helpers = [] if (defender < 0 or surprise) else self._helpers(g, defender, p, r, nav, attacker_side=False)
        if self.logs is not None:
            self.log(g, "attack", seat=p, region=t.regions[r], target=self.target_name(g, target),
                     war_office=war_office, surprise=surprise,
                     helpers={self.power_name(g, q): list(c) for q, c in helpers},
                     def_helpers={self.power_name(g, q): list(c) for q, c in def_helpers})
        s.stats["battles_fought"][g, p] += 1
        if defender >= 0:
            s.stats["battles_fought"][g, defender] += 1
        if kind == "player":
            if nav >= 0:
                self._naval_phase(a, defender, nav, helpers, def_helpers, land)
            if land:
                a.land = self._land_side(g, p, r, nav, helpers, attacker=True, support=a.support == 1, opp=defender)
                a.land_def = self._land_side(g, defender, r, nav, def_helpers, attacker=False,
                                             support=a.support == -1, opp=p)
            elif a.naval is not None:
                a.land, a.land_def, a.naval, a.naval_def, a.land_kind = a.naval, a.naval_def, None, None, FLEET
        elif kind == "neutral":
            own_fleet = nav >= 0 and s.units[g, p, nav, FLEET] > 0                 # SOE-12.14
            a.land = self._land_side(g, p, r, nav, helpers, attacker=True, support=own_fleet, opp=-1)
            a.land_def = Side(-1, fixed=int(t.token_strength[target[1]]))
        elif kind == "revolt":
            own_fleet = s.units[g, p, r, FLEET] > 0                                # SOE-20.17.3
            a.land = self._land_side(g, p, r, nav, helpers, attacker=True, support=own_fleet, opp=-1)
            a.land_def = Side(-1, fixed=self.rule("raids.slave_revolt_strength"))
        else:                                                                       # pirates (SOE-20.16.7)
            a.land = self._fleet_side(g, p, r, helpers, opp=-1)
            a.land_def = Side(-1, fixed=self.rule("raids.pirates_strength"))
            a.land_kind = FLEET
        if blockade and a.support == 1 and self.owns(g, p, "blockade"):            # SOE-20.20 (b)
            self.return_tile(g, p, "blockade")
            a.land.bonus += self.blockade_bonus - self.support_bonus
            a.blockade_b += (p,)
        if (defender >= 0 and a.support == -1 and a.land_def is not None and a.land_kind == ARMY
                and self.players[g][defender].use_blockade_defence(a)):
            self.return_tile(g, defender, "blockade")
            a.land_def.bonus += self.blockade_bonus - self.support_bonus
            a.blockade_b += (defender,)
        return a

    def target_name(self, g: int, target: tuple) -> str:
        if target[0] == "player":
            return self.power_name(g, target[1])
        if target[0] == "neutral":
            return "neutral " + self.token_name(target[1])
        return target[0]

    def _helpers(self, g: int, p: int, opp: int, r: int, nav: int, attacker_side: bool,
                 neutral: bool = False) -> list[tuple[int, tuple[int, int]]]:
        """SOE-12.5: allies of `p` commit armies in the region and fleets in the naval-battle
        region, as they choose (forts never help, SOE-12.5.5; SOE-A24 option for neutrals)."""
        if neutral and not self.comp.combat.neutral_attacker_allies:
            return []
        s = self.s
        out = []
        for q in self.allies(g, p):
            armies = int(s.units[g, q, r, ARMY])
            fleets = int(s.units[g, q, nav, FLEET]) if nav >= 0 else 0
            if armies or fleets:
                commit = self.players[g][q].help(p, opp, r, armies, fleets, attacker_side)
                self.decisions += 1
                if commit[0] or commit[1]:
                    out.append((q, (min(armies, commit[0]), min(fleets, commit[1]))))
        return out

    def alliance_bonus(self, g: int, p: int, r: int, symbol: int, both_to: int = ARMY) -> int:
        """SOE-12.6 / SOE-22: +1 per own alliance tile naming the region with that symbol; a
        tile with both symbols counts once, for the strength its owner picks (`both_to`)."""
        t = self.t
        owners = self.s.alliance_owner[g].tolist()
        if p not in owners:
            return 0
        n = 0
        for i, owner in enumerate(owners):
            if owner != p or not t.alliance_regions[i, r]:
                continue
            army, fleet = t.alliance_army[i], t.alliance_fleet[i]
            if (army and fleet and symbol == both_to) or (symbol == ARMY and army and not fleet) \
                    or (symbol == FLEET and fleet and not army):
                n += 1
        return self.alliance_plus * n

    def _training(self, g: int, p: int, opp: int, tile: str) -> int:
        """SOE-20.1/20.2: +1 to the main player owning more training tiles than the opposing
        main player (a neutral or a tile owns none)."""
        mine = self.owns(g, p, tile)
        theirs = self.owns(g, opp, tile) if opp >= 0 else 0
        return self.train if mine > theirs else 0

    def _naval_phase(self, a: Attack, d: int, nav: int, helpers, def_helpers, land: bool) -> None:
        """SOE-12.7: the attacker decides whether to fight; the defender may avoid (not in a
        naval-only attack, SOE-A10); a side without an own fleet cannot fight; whoever declines
        leaves naval support to the other side if it has an own fleet there (SOE-A9)."""
        g, p = a.g, a.attacker
        s = self.s
        own_a = s.units[g, p, nav, FLEET] > 0
        own_d = s.units[g, d, nav, FLEET] > 0
        if not self.comp.combat.naval_support_needs_own_fleet:
            own_a = own_a or any(c[1] for _, c in helpers)
            own_d = own_d or any(c[1] for _, c in def_helpers)
        can_a, can_d = s.units[g, p, nav, FLEET] > 0, s.units[g, d, nav, FLEET] > 0
        pick = ARMY if land else FLEET                 # a two-symbol alliance tile backs the land battle
        att = self._fleet_side(g, p, nav, helpers, opp=d, region=a.region, both_to=pick)
        dfn = self._fleet_side(g, d, nav, def_helpers, opp=p, region=a.region, both_to=pick)
        if not land:
            must = self.comp.combat.naval_only_defender_must_fight
            if can_d and (must or self.players[g][d].fight_naval(a, dfn, att, False)):
                a.naval, a.naval_def = att, dfn
            return
        fight_a = can_a and self.players[g][p].fight_naval(a, att, dfn, True)
        self.decisions += 1
        if not fight_a:
            a.support = -1 if own_d else 0
            return
        fight_d = can_d and self.players[g][d].fight_naval(a, dfn, att, False)
        self.decisions += 1
        if not fight_d:
            a.support = 1 if own_a else 0
            return
        a.naval, a.naval_def = att, dfn

    def _fleet_side(self, g: int, p: int, nav: int, helpers, opp: int, region: int | None = None,
                    both_to: int = FLEET) -> Side:
        """SOE-12.7.4: own fleets + allies' committed fleets + alliance fleet tile + training."""
        s = self.s
        side = Side(p, units={p: int(s.units[g, p, nav, FLEET])})
        for q, (_, f) in helpers:
            if f:
                side.units[q] = f
        if s.units[g, p, nav, FLEET] > 0:
            side.bonus += self._training(g, p, opp, "naval_training")
        side.bonus += self.alliance_bonus(g, p, nav if region is None else region, FLEET, both_to)
        return side

    def _land_side(self, g: int, p: int, r: int, nav: int, helpers, attacker: bool, support: bool, opp: int) -> Side:
        """SOE-12.8: armies 1 (own + allies'), defending forts 2, training superiority with an
        own army or fort in the battle, naval support, alliance army tile."""
        s = self.s
        side = Side(p, units={p: int(s.units[g, p, r, ARMY])})
        if not attacker:
            side.forts = int(s.units[g, p, r, FORT])
        for q, (armies, _) in helpers:
            if armies:
                side.units[q] = armies
        if side.units[p] or side.forts:
            side.bonus += self._training(g, p, opp, "army_training")
        if support:
            side.bonus += self.support_bonus
        side.bonus += self.alliance_bonus(g, p, r, ARMY)
        return side

    def declare_raid(self, g: int, p: int, name: str, r: int, q: int) -> Attack:
        """SOE-20.16 / 20.17: the tile attacks a marker of `q` (1 against his fleets, or 3
        against his armies and forts with his naval support); no allies, no fee (SOE-A19)."""
        s = self.s
        if (r, q) not in self.raid_targets(g, p, name):
            raise RuleViolation(f"{name}: target ({r}, {q}) not allowed")
        a = Attack(g, p, r, ("raid", name, q))
        s.stats["battles_fought"][g, q] += 1
        if name == "pirates":
            a.land = Side(-1, fixed=self.rule("raids.pirates_strength"))
            a.land_def = self._fleet_side(g, q, r, [], opp=-1)
            a.land_kind = FLEET
        else:
            a.land = Side(-1, fixed=self.rule("raids.slave_revolt_strength"))
            support = s.units[g, q, r, FLEET] > 0
            a.land_def = self._land_side(g, q, r, -1, [], attacker=False, support=support, opp=-1)
        self.log(g, "raid", seat=p, tile=name, region=self.t.regions[r], target=self.power_name(g, q))
        return a

    # ---- dice (bulk per stage)
    def resolve(self, attacks: list[Attack]) -> None:
        """Resolve every attack of one step: all naval battles in one bulk call, then all land
        (or fleet-only / neutral / tile) battles in one bulk call (SOE-12.3 order)."""
        if not attacks:
            return
        naval = [a for a in attacks if a.naval is not None]
        if naval:
            results = self._duels([(a.naval, a.naval_def) for a in naval], [a.g for a in naval])
            for a, res in zip(naval, results):
                self._after_naval(a, res)
        land = [a for a in attacks if a.land is not None]
        if land:
            results = self._duels([(a.land, a.land_def) for a in land], [a.g for a in land])
            for a, res in zip(land, results):
                self._after_land(a, res)

    def _duels(self, pairs: list[tuple[Side, Side]], games: list[int]) -> list[dict]:
        """Draw each game's duel (one number 0..1295 = both two-dice rolls) from its own stream,
        then resolve the whole step in one vectorised call."""
        fs = self.fort_strength
        att = [x.strength(fs) for x, _ in pairs]
        dfn = [y.strength(fs) for _, y in pairs]
        k = [self.battle_dice[g].next() for g in games]
        outcome = combat.settle_duels(np.array(k), np.array(att), np.array(dfn))[0].tolist()
        return [{"att": a, "def": d, "pa": pair // 36, "pd": pair % 36, "winner": w}
                for a, d, pair, w in zip(att, dfn, k, outcome)]

    def _reserves(self, a: Attack, x: Side, y: Side, res: dict, naval: bool) -> dict:
        """SOE-20.3 / SOE-A20: alternate re-rolls (attacker first) with Reserves tiles, per the
        `reserves_policy` option (a side re-rolls only if its best new roll would change the
        result); the new dice must be kept."""
        policy = self.comp.combat.reserves_policy
        if policy == "never" or (naval and not self.comp.combat.reserves_in_naval_battle):
            return res
        g = a.g
        if not ((x.main >= 0 and self.can_use(g, x.main, "reserves"))
                or (y.main >= 0 and self.can_use(g, y.main, "reserves"))):
            return res
        sa, sd = res["att"], res["def"]
        rolled = False
        changed = True
        while changed:
            changed = False
            for who, side in ((1, x), (-1, y)):
                p = side.main
                if p < 0 or not self.can_use(g, p, "reserves"):
                    continue
                me, op = (sa + PAIR_DIFF[res["pa"]], sd + PAIR_DIFF[res["pd"]])[:: who]
                best = (sa if who == 1 else sd) + 5
                strict = who == 1 or policy == "not_winning"       # attacker: a tie is not enough
                want = me <= op if strict else me < op
                useful = best > op if strict else best >= op
                if not (want and useful):
                    continue
                self.turn_tile(g, p, "reserves")
                new = self.reserve_dice[g].next()
                res["pa" if who == 1 else "pd"] = new
                res.setdefault("rerolls", []).append([self.power_name(g, p), int(PAIR_FIRST[new]),
                                                      int(PAIR_SECOND[new])])
                changed = rolled = True
        if rolled:
            res["winner"] = int(combat.settle_duels([res["pa"] * 36 + res["pd"]], [sa], [sd])[0][0])
        return res

    def _dice_fields(self, res: dict) -> dict:
        pa, pd = res["pa"], res["pd"]
        return {"att_dice": [int(PAIR_FIRST[pa]), int(PAIR_SECOND[pa])],
                "def_dice": [int(PAIR_FIRST[pd]), int(PAIR_SECOND[pd])],
                "att_total": res["att"] + int(PAIR_DIFF[pa]), "def_total": res["def"] + int(PAIR_DIFF[pd]),
                "rerolls": res.get("rerolls", [])}

    def _after_naval(self, a: Attack, res: dict) -> None:
        """SOE-12.7.5: winner gets naval support; loser loses a fleet; 7 rule; tie: both lose a
        fleet, nobody gets support."""
        res = self._reserves(a, a.naval, a.naval_def, res, naval=True)
        w = res["winner"]
        if self.logs is not None:
            self.log(a.g, "naval_battle", attacker=self.power_name(a.g, a.attacker), winner=w,
                     **self._dice_fields(res))
        self._maybe_refuse(a, a.naval_def, res)
        self._losses(a, a.naval, lost=(w <= 0), tie=(w == 0), seven=bool(PAIR_SEVEN[res["pa"]]),
                     loc=int(self.t.naval_region[a.region]), kind=FLEET)
        self._losses(a, a.naval_def, lost=(w >= 0), tie=(w == 0), seven=bool(PAIR_SEVEN[res["pd"]]),
                     loc=int(self.t.naval_region[a.region]), kind=FLEET)
        a.support = w
        if a.land is not None:                     # rebuild the land sides with the support won
            d = a.target[1]
            nav = int(self.t.naval_region[a.region])
            old_a, old_d = a.land, a.land_def
            helpers = [(q, (n, 0)) for q, n in old_a.units.items() if q != a.attacker]
            def_helpers = [(q, (n, 0)) for q, n in old_d.units.items() if q != d]
            a.land = self._land_side(a.g, a.attacker, a.region, nav, helpers, True, w == 1, d)
            a.land_def = self._land_side(a.g, d, a.region, nav, def_helpers, False, w == -1, a.attacker)
            a.land_def.refuse = a.naval_def.refuse

    def _maybe_refuse(self, a: Attack, dside: Side, res: dict) -> None:
        """SOE-20.18 / SOE-A21: the defender may play Refuse Battle after the dice; it covers
        the whole attack for every defending unit."""
        d = dside.main
        if d < 0 or dside.refuse or not self.owns(a.g, d, "refuse_battle"):
            return
        if self.players[a.g][d].refuse_battle(a, res):
            self.return_tile(a.g, d, "refuse_battle")
            dside.refuse = True
            if a.land_def is not None:
                a.land_def.refuse = True
            self.log(a.g, "refuse_battle", seat=d)

    def _losses(self, a: Attack, side: Side, lost: bool, tie: bool, seven: bool, loc: int, kind: int) -> None:
        """SOE-12.9 .. 12.12, SOE-A11/A12: a losing (or tied) side loses one unit, first its main
        player's, else a helper's; a 7 costs one more -- a helper's when the helped main player
        lost, else the main player's, else a helper's. Forts are never lost in a tie. Every lost
        unit is +1 unrest for its owner."""
        if side.main < 0 or side.refuse:
            return
        g, p = a.g, side.main
        helpers = [q for q in side.units if q != p]
        n_first = 1 if (lost or tie) else 0

        def take(q: int) -> bool:
            if q == p and kind == ARMY and side.forts and not tie:
                order = (FORT, ARMY) if self.comp.combat.land_loss_order == "forts_first" else (ARMY, FORT)
            else:
                order = (kind,)
            for k in order:
                here = side.units.get(q, 0) if k != FORT else side.forts
                if here > 0 and self.s.units[g, q, loc, k] > 0:
                    self.s.units[g, q, loc, k] -= 1
                    if k == FORT:
                        side.forts -= 1
                    else:
                        side.units[q] -= 1
                    self.add_unrest(g, q, self.unrest_lost)
                    self.s.stats["units_lost"][g, q] += 1
                    if self.logs is not None:
                        self.log(g, "loss", seat=q, unit=UNIT_NAMES[k], region=self.loc_name(loc))
                    return True
            return False

        def helper_take() -> bool:
            for q in sorted(helpers, key=lambda q: -side.units.get(q, 0)):
                if take(q):
                    return True
            return False

        if n_first and not take(p):
            helper_take()
        if seven:
            if lost and helpers and helper_take():
                pass
            elif not take(p):
                helper_take()
        if kind == FLEET:
            self._check_blockade(g)

    def _after_land(self, a: Attack, res: dict) -> None:
        """SOE-12.9 .. 12.14 (land or fleet-only battle) and the tile raids of SOE-20.16/17."""
        g, s, t = a.g, self.s, self.t
        res = self._reserves(a, a.land, a.land_def, res, naval=(a.land_kind == FLEET))
        w = res["winner"]
        kind = a.target[0]
        if self.logs is not None:
            self.log(g, "battle", attacker=self.power_name(g, a.attacker), region=t.regions[a.region],
                     target=self.target_name(g, a.target), kind="fleet" if a.land_kind == FLEET else "land",
                     winner=w, **self._dice_fields(res))
        if a.land_def.main >= 0:
            self._maybe_refuse(a, a.land_def, res)
        loc = a.region
        self._losses(a, a.land, lost=(w <= 0), tie=(w == 0), seven=bool(PAIR_SEVEN[res["pa"]]), loc=loc,
                     kind=a.land_kind)
        self._losses(a, a.land_def, lost=(w >= 0), tie=(w == 0), seven=bool(PAIR_SEVEN[res["pd"]]), loc=loc,
                     kind=a.land_kind)
        p, r = a.attacker, a.region
        if kind == "raid":
            self._after_raid(a, w)
        elif w == 1:
            s.stats["battles_won"][g, p] += 1
            if kind == "player" and a.land_kind == ARMY:
                d = a.target[1]
                if s.markers[g, d, r] > 0:                       # SOE-12.9, SOE-A40
                    s.markers[g, d, r] -= 1
                    self.place_marker(g, p, r)
            elif kind == "neutral":
                tok = a.target[1]
                s.token_state[g, tok] = IN_BOX                   # SOE-12.14, SOE-A38
                self.place_marker(g, p, r)
                s.gold[g, p] += t.token_gold[tok]
                s.vp[g, p] += t.token_vp[tok]
            elif kind in ("pirates", "revolt"):                  # SOE-20.16.7 / 20.17.5
                self._free_captured(g, kind, p, r)
        elif kind == "player" and w == -1:
            s.stats["battles_won"][g, a.target[1]] += 1

    def _free_captured(self, g: int, kind: str, p: int, r: int) -> None:
        s = self.s
        name = "pirates" if kind == "pirates" else "slave_revolt"
        if kind == "pirates":
            s.pirates_region[g] = s.pirates_victim[g] = -1
        else:
            s.revolt_region[g] = s.revolt_victim[g] = -1
        s.dev_display[g, self.k[name]] += 1
        self.place_marker(g, p, r)

    def _after_raid(self, a: Attack, w: int) -> None:
        """SOE-20.16.5/6, SOE-A19: a winning tile takes the marker; otherwise it goes back to
        the display (a tie costs the defender a unit, already applied)."""
        g, s = a.g, self.s
        _, name, q = a.target
        if w == 1 and s.markers[g, q, a.region] > 0:
            s.markers[g, q, a.region] -= 1
            if name == "pirates":
                s.pirates_region[g], s.pirates_victim[g] = a.region, q
            else:
                s.revolt_region[g], s.revolt_victim[g] = a.region, q
        else:
            s.dev_display[g, self.k[name]] += 1
            if w != 1:
                s.stats["battles_won"][g, q] += 1

    # ------------------------------------------------------------------ phases 4 .. 6, end
    def income_upkeep_growth(self) -> None:
        """SOE-15 for the whole batch: income = population + markers on the map (captured ones
        excluded), upkeep 1 per unit (borrowing, Example SOE-E7), then +5 population (max 9)."""
        s = self.s
        r = self.rule
        income = (r("economy.income_per_population") * s.population
                  + r("economy.income_per_marker") * s.markers.sum(axis=2))
        s.gold += income
        upkeep = r("economy.upkeep_per_unit") * s.units.sum(axis=(2, 3))
        banking = s.dev_owned[:, :, self.k["banking"]] > 0
        step = np.where(banking, self.borrow[1], self.borrow[0])
        loans = np.maximum(0, -(-(upkeep - s.gold) // step))
        s.gold += loans * step - upkeep
        s.unrest += loans * self.borrow[2]
        self.public_unrest += loans * self.borrow[2]
        s.stats["gold_borrowed"] += loans * step
        s.stats["unrest_borrowed"] += loans * self.borrow[2]
        s.population[:] = np.minimum(self.pop_max, s.population + r("economy.population_growth"))
        active = np.arange(MAX_SEATS)[None, :] < s.n_players[:, None]
        s.population[~active] = 0
        s.gold[~active] = 0
        if self.logs is not None:
            for g in range(s.n):
                self.log(g, "income", income=income[g, : s.n_players[g]].tolist(),
                         upkeep=upkeep[g, : s.n_players[g]].tolist(), loans=loans[g, : s.n_players[g]].tolist())

    def score_war(self) -> None:
        """SOE-16: region VP with dense-rank ties over the batch (captured markers excluded)."""
        values = [row[row > 0].tolist() for row in self.t.vp]
        gained = scoring.regions_vp(self.s.markers.transpose(0, 2, 1), values).sum(axis=1)
        self.s.vp += gained
        if self.logs is not None:
            for g in range(self.s.n):
                self.log(g, "score", vp=gained[g, : self.s.n_players[g]].tolist(),
                         total=self.s.vp[g, : self.s.n_players[g]].tolist())

    def end_war(self) -> None:
        """SOE-17: triangle tiles upright, alliance tiles and a placed Blockade back to the
        display, rows cleared (the last in turn order was noted in the auction)."""
        s = self.s
        s.dev_used[:] = 0
        s.company_used[:] = False
        s.alliance_owner[:] = -1
        placed = s.blockade_region >= 0
        s.dev_display[placed, self.k["blockade"]] += 1
        s.blockade_region[placed] = -1
        s.blockade_owner[placed] = -1

    def end_game(self) -> None:
        """SOE-18: reveal unrest; 20+ is a revolution (0 VP); dense-rank -7 / -4 penalties among
        the others (SOE-A27 option for 0 unrest); the most VP wins (ties per SOE-A28 option)."""
        s = self.s
        s.stats["vp_before_penalty"] = s.vp.copy()
        active = np.arange(MAX_SEATS)[None, :] < s.n_players[:, None]
        revolution, penalty = scoring.unrest_penalties(
            np.where(active, s.unrest, -1), self.rule("end.revolution_unrest"), self.rule("end.unrest_penalties"),
            self.opt("unrest_penalty_at_zero"))
        revolution &= active
        final = np.where(active, np.where(revolution, 0, s.vp - np.where(active, penalty, 0)), 0)
        s.vp[:] = final
        s.stats["revolution"] = revolution
        if self.logs is not None:
            for g in range(s.n):
                n = s.n_players[g]
                self.log(g, "end", unrest=s.unrest[g, :n].tolist(), revolution=revolution[g, :n].tolist(),
                         vp_before=s.stats["vp_before_penalty"][g, :n].tolist(), vp=s.vp[g, :n].tolist())

    def game_logs(self) -> list[GameLog]:
        """Each game's log header and events (sim.core.lockstep.write_jsonl writes them)."""
        return [(game_header("struggle", self.seed, gi, seating), events)
                for gi, seating, events in zip(self.game_indices, self.seatings, self.logs or [])]


def _indices(n: int, only: tuple[str, int] | None) -> range | tuple[int, ...]:
    """All indices 0..n-1, or just `only`'s index when it is one of them."""
    if only is None:
        return range(n)
    return (only[1],) if isinstance(only[1], (int, np.integer)) and 0 <= only[1] < n else ()
