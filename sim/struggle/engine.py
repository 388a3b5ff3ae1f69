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

Players are objects with the decision methods of `sim.struggle.players.SeatPlayer`, made by the
injected `Roster` (the engine imports no player module). They read the game through
`Engine.view` (sim.struggle.view: no hidden unrest), get each decision's legal choices
(sim.struggle.choices) and answer with actions (sim.struggle.actions) that `apply` validates (an
illegal one is a bug in the player and raises `RuleViolation`). The rules themselves live in the
chapter parts the class is made of (auction, movement, build, tiles, battle, dice, economy).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from sim.core import interventions
from sim.core.lockstep import GameLog, RuleViolation, draw_buffers, game_header
from sim.core.random import stream
from sim.struggle import NAME
from sim.struggle.actions import (ACTION_NAMES, Action, Build, Buy, Colonise, DeclareAttack, FreeAction, Move, Pass, PlaceBlockade,
                                  UseAgriculture, UseCompany, UseDiplomacy)
from sim.struggle.auction import Auction
from sim.struggle.battle import Attack, Battle
from sim.struggle.build import Building
from sim.struggle.choices import Choices
from sim.struggle.components import Components
from sim.struggle.dice import Dice
from sim.struggle.economy import Economy
from sim.struggle.movement import Movement
from sim.struggle.state import (ARMY, FLEET, FORT, HOME, MAX_SEATS, N_REGIONS, NEUTRAL, ON_MAP, POP, SLAVE, BatchState,
                                tables_of)
from sim.struggle.tiles import Tiles
from sim.struggle.view import View

if TYPE_CHECKING:
    from sim.struggle.players import Roster


class Engine(Auction, Movement, Building, Tiles, Battle, Dice, Economy):
    """Plays `len(seatings)` games in lockstep (see the module docstring); the rules of each
    chapter live in its part (sim.struggle.auction, movement, build, tiles, battle, dice, economy)."""

    def __init__(self, comp: Components, seatings, root_seed: int, game_indices, roster: Roster,
                 log: bool = False) -> None:
        self.comp, self.t = comp, tables_of(comp)
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
        self.view = View(self.s, self.opt("unrest_memory"))     # what the players may know (SOE-2.3)
        self.k = {name: i for i, name in enumerate(t.dev)}
        self._consts()
        self.player_work = roster.work(self)    # the players' shared work (theirs: the engine only calls prepare)
        self.prepare_turns = self.player_work.prepare
        self.slots_played = 0          # action slots begun (players key per-slot work by it)
        self.sea_dice = draw_buffers(self.seed, self.game_indices, "sea", 6)
        self.battle_dice = draw_buffers(self.seed, self.game_indices, "dice", 1296)
        self.reserve_dice = draw_buffers(self.seed, self.game_indices, "reserves", 36)
        self.logs: list[list[dict]] | None = [[] for _ in range(b)] if log else None
        self.decisions = 0
        specs = [[interventions.parse(spec) for spec in s.strategies] for s in self.seatings]
        self.interventions = [[iv for _, iv in seats] for seats in specs]     # sim.core.interventions filters
        self.forcing = any(iv.force is not None for seats in self.interventions for iv in seats)
        self.players = [[roster.make(name, self, g, p, functools.partial(stream, self.seed, gi, f"players{p}"))
                         for p, (name, _) in enumerate(seats)]
                        for g, (seats, gi) in enumerate(zip(specs, self.game_indices))]
        self.on_step = None            # optional callback(engine, where) after every step (tests)
        self._handlers = self._handlers_by_type()
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
        self.forts_after_roll = self.opt("fort_moves_later") == "after_failed_roll"     # SOE-9.4
        self.free_any_time = self.opt("free_actions_when") == "any_time"                 # SOE-7.3
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

    def loc_name(self, loc: int) -> str:
        return "home" if loc == HOME else self.t.regions[loc]

    def token_name(self, k: int) -> str:
        t = self.t
        kind = t.token_kind[k]
        code = ("N%d" % t.token_strength[k] + (f"g{t.token_gold[k]}" if t.token_gold[k] else "")
                + (f"v{t.token_vp[k]}" if t.token_vp[k] else "")) if kind == NEUTRAL else ("Pop", "Pop", "Slave")[kind]
        return f"{t.regions[t.token_region[k]]}:{code}"

    def marker_list(self, g: int, p: int) -> dict[str, int]:
        return {self.t.regions[r]: int(c) for r, c in enumerate(self.s.markers[g, p]) if c}

    def play(self) -> None:
        """Setup, three wars and the end of the game for every game of the batch."""
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

    def rounds_in_war(self, g: int) -> int:
        """SOE-4.2: 6 rounds with 2-4 players, 5 with 5-7."""
        if hasattr(self, "n_rounds"):
            return self.n_rounds[g]
        return self.rule("game.rounds_2_to_4_players" if self.s.n_players[g] <= 4 else "game.rounds_5_to_7_players")

    def rounds(self) -> None:
        """SOE-7.1: rounds of turns in alliance order; each turn = free actions + two actions
        (with the option `free_actions_when` = any_time, free actions again after each action).
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
                self._free_phase(games, acting, seats)
                for slot in range(per_turn):
                    pending = []
                    self.slots_played += 1
                    self.prepare_turns(acting)
                    for g, player in zip(games, acting):
                        p = player.p
                        choices = Choices(self, g, p)
                        action = self.forced_buy(g, p, choices) if self.forcing else None     # force: a filter
                        if action is None:
                            action = player.choose_action(slot, choices)
                        self.decisions += 1
                        actions[g, p] += 1
                        if self.logs is not None:
                            self.log(g, "action", seat=p, kind=ACTION_NAMES.get(type(action), "?"))
                        att = self.apply(g, p, action)
                        if att is not None:
                            pending.append(att)
                    self.resolve(pending)
                    self._stepped("action")
                    if self.free_any_time:
                        self._free_phase(games, acting, seats)

    def _free_phase(self, games: list[int], acting: list, seats: list[int]) -> None:
        """SOE-7.3, SOE-20.4: the free actions of the players whose turn it is (asked only of
        holders of such tiles), then their War Office attacks, whose battles are resolved
        together."""
        for g, player, free in zip(games, acting, self._free_action_holders(games, seats)):
            if free:
                for action in player.free_actions(Choices(self, g, player.p)):
                    self.apply(g, player.p, action)
        self.slots_played += 1
        self.prepare_turns(acting, war_office=True)
        pending = []
        for g, player, office in zip(games, acting, self.usable(games, seats, "war_office")):
            action = player.war_office_attack(Choices(self, g, player.p)) if office else None
            if action is not None:
                if not action.war_office:
                    raise RuleViolation("a War Office attack must use the War Office tile (SOE-20.4)")
                pending.append(self.apply(g, player.p, action))
        self.resolve(pending)

    def apply(self, g: int, p: int, action: Action | FreeAction) -> Attack | None:
        """Apply one action of `sim.struggle.actions` (free actions too); returns an `Attack` when
        dice are needed (resolved with the step)."""
        handler = self._handlers.get(type(action))
        if handler is None:
            raise RuleViolation(f"unknown action {action!r}")
        return handler(g, p, action)

    def _pass(self, g: int, p: int, action: Pass) -> None:
        """SOE-7.2: the action is given up."""
        self.s.stats["passes"][g, p] += 1
        self.log(g, "pass", seat=p)

    def _handlers_by_type(self) -> dict[type, Callable[[int, int, Any], Attack | None]]:
        return {
            Pass: self._pass,
            Buy: lambda g, p, a: self.buy(g, p, a.what, a.index, *(a.raid or ())),
            Build: lambda g, p, a: self.build(g, p, a.kind, a.tile, a.dst, a.destroy_at, a.militia_dst, a.then,
                                              a.destroy_kind),
            Move: lambda g, p, a: self.move(g, p, a.moves),
            DeclareAttack: lambda g, p, a: self.declare_attack(g, p, a.region, a.target, a.war_office, a.surprise,
                                                               a.blockade, a.p_win),
            Colonise: lambda g, p, a: self.colonise(g, p, a.token),
            UseCompany: lambda g, p, a: self.use_company(g, p, a.index, a.region),
            UseAgriculture: lambda g, p, a: self.use_agriculture(g, p),
            UseDiplomacy: lambda g, p, a: self.use_diplomacy(g, p, a.index),
            PlaceBlockade: lambda g, p, a: self.place_blockade(g, p, a.region),
        }

    def game_logs(self) -> list[GameLog]:
        """Each game's log header and events (sim.core.lockstep.write_jsonl writes them)."""
        return [(game_header(NAME, self.seed, gi, seating), events)
                for gi, seating, events in zip(self.game_indices, self.seatings, self.logs or [])]
