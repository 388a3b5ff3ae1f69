"""The scripted strategies of Struggle of Empires (SOE-23, SOE-28): `ScriptedPlayer`, driven by one
parameter set of `data/strategies.toml`, so analyses can vary them.

Before each action slot the engine calls `ScriptedWork.prepare` (made by the `Roster` of play.py) with
the players about to act: the scripted players' attack choices (exact attack laws,
`attack_scan`), focus regions and the necessary conditions for a purchase or a colony are
computed for the whole batch at once, and each player reads its own answers when it decides. A
player's answers depend only on its game.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from sim.struggle.actions import (Action, Build, Buy, Colonise, DeclareAttack, FreeAction, Move, Pass, PlaceBlockade,
                                  UseAgriculture, UseCompany, UseDiplomacy)
from sim.struggle.choices import Choices
from sim.struggle.attack_scan import AttackScan, Batch, unrest_budget
from sim.struggle.players import Player
from sim.struggle.scripted_auction import ScriptedAuction
from sim.struggle.scripted_passes import (FocusRegions, may_build, may_buy_a_tile, may_colonise,
                                         strategy_columns)
from sim.struggle.state import ARMY, FLEET, FORT, HOME, MAX_SEATS, N_REGIONS
from sim.struggle.tiles import NON_STACKING

RAIDS = ("pirates", "slave_revolt")   # bought against a marker (SOE-20.16, 20.17)
COMPANY = "company"      # a priority-list entry: the first company tile on offer that repays its price
FLEET_TILES = ("naval_training", "navigation", "blockade")          # need fleets on the map to act
ARMY_TILES = ("army_training", "reserves", "war_office", "refuse_battle", "surprise_attack")   # need a stack of armies


class ScriptedWork:
    """The scripted players' work shared across one engine's batch (the engine holds it opaquely,
    made by `Roster.work`): the attack scan's static tables, each strategy's columns, the
    parameter rows of the engine's players, the current turn's scripted players and the auction
    threats, each keyed by what makes it stale."""

    def __init__(self, engine) -> None:
        self.e = engine
        self.attack_scan = AttackScan(engine)
        self.columns: dict[int, tuple] = {}                 # id(parameter table) -> (table, *strategy_columns(...))
        self.turn: tuple[list, list] | None = None          # (players of the turn, the scripted ones)
        self.rows: np.ndarray | None = None                 # (B, seats, ROW + tiles) parameter rows
        self.threats: tuple | None = None                   # ((war, slot), auction threats)

    def prepare(self, players: list, war_office: bool = False) -> None:
        """Score the attacks of every scripted player about to choose an action (or, with
        `war_office`, a free War Office attack, SOE-20.4) in one array pass over the batch
        (`attack_scan`), with their focus regions and whether a tile purchase or a colony is
        possible at all; each keeps its answers for this slot of the engine."""
        if not players:
            return
        e = self.e
        if self.turn is None or self.turn[0] is not players:      # the engine passes one list for a whole turn
            self.turn = (players, [pl for pl in players
                                   if isinstance(pl, ScriptedPlayer)])
        scripted = self.turn[1]
        if war_office and scripted:
            usable = e.usable([pl.g for pl in scripted], [pl.p for pl in scripted], "war_office")
            scripted = [pl for pl, ok in zip(scripted, usable) if ok]
        if not scripted:
            return
        if self.rows is None:                   # the engine's own players' parameter rows, once
            self.rows = np.zeros((e.view.n, MAX_SEATS, len(scripted[0].params_row)))
            for pl in (x for seats in e.players for x in seats):
                if isinstance(pl, ScriptedPlayer):
                    self.rows[pl.g, pl.p] = pl.params_row
        batch = Batch(e, scripted, self.rows)
        fee = not war_office
        for pl, found in zip(scripted, self.attack_scan.best(batch, [fee] * len(scripted))):
            pl.prepared = (e.slots_played, fee, found)
        if not war_office:
            focus = FocusRegions(e, batch)
            hopes = zip(may_buy_a_tile(e, batch).tolist(), may_colonise(e, batch).tolist(),
                        may_build(e, batch).tolist())
            for i, (pl, (tile, colonise, build)) in enumerate(zip(scripted, hopes)):
                pl.focus = (e.slots_played, focus, i)
                pl.hopes = (e.slots_played, tile, colonise, build)

    def auction_threats(self) -> list:
        """[game][seat][other seat]: how much two players compete (`ScriptedPlayer.threats`), the
        regions' first-place VP weighted by the smaller presence (markers plus units) of the two,
        for the whole batch at once; kept while the pieces stay put (the auctions of one war)."""
        e = self.e
        key = (e.view.war, e.slots_played)
        if self.threats is None or self.threats[0] != key:
            s = e.view
            presence = (s.markers + s.units[:, :, :N_REGIONS].sum(axis=3)).astype(float)        # (B,7,R)
            both = np.minimum(presence[:, :, None, :], presence[:, None, :, :])                  # (B,7,7,R)
            self.threats = (key, (both @ np.asarray(e.first_vp, dtype=float)).tolist())        # exact sums
        return self.threats[1]


class ScriptedPlayer(ScriptedAuction, Player):
    """A heuristic player driven by one parameter set of data/strategies.toml (SOE-23, SOE-28).

    Values are in VP equivalents: a control marker is worth its marginal VP in its region (dense
    ranks, SOE-16) for every scoring left plus its income, weighted by the strategy's region
    weights; gold and unrest have prices that rise as unrest nears the strategy's budget.
    """

    def __init__(self, engine, g, seat, rng, params: dict) -> None:
        super().__init__(engine, g, seat, rng)
        self.q = params
        columns = engine.player_work.columns     # one set per parameter table
        found = columns.get(id(params))
        if found is None or found[0] is not params:
            found = columns[id(params)] = (params, *strategy_columns(engine.t, params))
        _, self.region_weight, self.region_weight_list, self.params_row = found
        self._entry: tuple[int, dict[int, bool]] = (-1, {})    # (engine slot, army_may_enter by region)
        self.hopes: tuple[int, bool, bool, bool] | None = None   # (slot, may_buy_a_tile, may_colonise, may_build)
        self.prepared: tuple | None = None     # (engine slot, fee paid, best_attack answer)
        self._threats: tuple | None = None     # ((war, engine slot), threats)
        self._best_proposal: tuple | None = None   # (auction key, proposal, value, placed rows)
        self._token_counts: tuple | None = None    # (token states, tokens per region, neutrals per region)
        self.focus: tuple | None = None        # (engine slot, FocusRegions, row[, its list once asked])

    # ---- valuations
    def marker_value(self, r: int, who: int | None = None) -> float:
        """Marginal VP of one more marker of `who` in region r (dense ranks, SOE-16.3) over the
        scorings left, plus its income, times the strategy's region weight."""
        e, g = self.e, self.g
        who = self.p if who is None else who
        counts = e.view.markers[g, :, r].tolist()
        values = e.t.vp[r].tolist()
        before = _vp_at(counts, values, who)
        counts[who] += 1
        left = e.wars - e.view.war + 1
        return self.region_weight[r] * left * (_vp_at(counts, values, who) - before + self.q["gold_vp"])

    def leader_weight(self, d: int) -> float:
        vp = self.e.view.vp[self.g, : self.e.view.n_players[self.g]]
        base = self.q["harm_weight"]
        if vp[d] >= vp.max() and d != self.p:
            base += self.q["leader_weight"]
        return base

    def best_attack(self, fee: bool = True) -> tuple[tuple | None, float, float | None]:
        """The attack with the highest expected value above the threshold (or None), that value
        and its probability of winning (`attack_scan.AttackScan`); the one scored for this step
        when there is one."""
        e = self.e
        prepared = self.prepared
        if prepared is not None and prepared[:2] == (e.slots_played, fee):
            return prepared[2]
        return e.player_work.attack_scan.best([self], [fee])[0]

    # ---- setup (SOE-23.5, SOE-23.6)



    # ---- free actions (SOE-7.3, SOE-28)
    def free_actions(self, choices: Choices) -> Iterator[FreeAction]:
        e, g, p, k = self.e, self.g, self.p, self.e.k
        s = e.view
        own, used = s.dev_owned[g, p].tolist(), s.dev_used[g, p].tolist()     # each step below uses its own tile
        if own[k["improved_agriculture"]] > used[k["improved_agriculture"]] and s.population[g, p] < e.pop_max:
            yield UseAgriculture()
        if s.round == e.rounds_in_war(g):
            for i in np.flatnonzero(s.company_owner[g] == p):
                if not s.company_used[g, i]:
                    regions = np.flatnonzero(e.t.company_regions[i])
                    yield UseCompany(int(i), int(max(regions, key=lambda r: s.markers[g, p, r])))
        if own[k["diplomatic_service"]] > used[k["diplomatic_service"]]:
            i = self.wanted_alliance(choices.diplomacy)
            if i is not None:
                yield UseDiplomacy(i)
        if own[k["blockade"]] and s.blockade_region[g] < 0 and self.q["blockade_a"]:
            regions = [r for r in np.flatnonzero(e.colonial) if s.units[g, p, r, FLEET] >= 2 and s.markers[g, p, r]]
            if regions:
                yield PlaceBlockade(int(regions[0]))

    def wanted_alliance(self, allowed: list[int]) -> int | None:
        """SOE-23.2: an alliance tile (of the `allowed` ones) only where I have armies facing
        enemies this war."""
        e, g, p = self.e, self.g, self.p
        s = e.view
        if s.round > e.rounds_in_war(g) - 2:
            return None
        armies = s.units[g, p, :N_REGIONS, ARMY].tolist()
        strong = [r for r in range(N_REGIONS) if armies[r] >= 2]
        if not strong:
            return None
        gold = int(s.gold[g, p])
        for i in allowed:
            if any(r in e.alliance_region_sets[i] for r in strong) and gold >= e.alliance_gold[i] + e.fee:
                return i
        return None

    def war_office_attack(self, choices: Choices) -> DeclareAttack | None:
        if not self.e.can_use(self.g, self.p, "war_office"):
            return None
        best, _, p_win = self.best_attack(fee=False)
        return None if best is None else DeclareAttack(*best, war_office=True, p_win=p_win)

    # ---- the two actions
    def choose_action(self, slot: int, choices: Choices) -> Action:
        e, g, p = self.e, self.g, self.p
        s = e.view
        best, value, p_win = self.best_attack()
        if best is not None:
            r, target = best
            surprise = e.owns(g, p, "surprise_attack") > 0 and target[0] == "player" and any(
                s.units[g, q, r].sum() for q in e.allies(g, target[1]))
            blockade = e.owns(g, p, "blockade") > 0
            return DeclareAttack(r, target, False, surprise, blockade, p_win)
        hopes = self.hopes if self.hopes is not None and self.hopes[0] == e.slots_played else None
        col = choices.colonies if hopes is None or hopes[2] else []
        if col:
            tok = max(col, key=lambda k: self.marker_value(int(e.t.token_region[k])))
            if self.marker_value(int(e.t.token_region[tok])) > self.q["colonise_threshold"]:
                return Colonise(tok)
        buy = self.choose_tile(choices)
        if buy is not None:
            return buy
        build = self.choose_build(choices) if hopes is None or hopes[3] else None
        if build is not None:
            return build
        move = self.choose_move(choices)
        if move is not None:
            return move
        if self.q["build_when_idle"]:            # a unit beats a wasted action (SOE-14)
            build = self.choose_build(choices, idle=True)
            if build is not None:
                return build
        spread = self.choose_spread(choices)
        return Pass() if spread is None else spread

    def unrest_budget(self) -> float:
        """The unrest this strategy is willing to reach this war (`attack_scan.unrest_budget`)."""
        return unrest_budget(self.e, self.q["unrest_margin"], self.q["unrest_margin_last"])

    def choose_tile(self, choices: Choices) -> Buy | None:
        """SOE-23.1 .. 23.3: the first tile of the strategy's priority list that is affordable,
        useful now (`tile_is_useful`) and not owned to its limit (one of a kind that does not
        stack, SOE-A16); Government Reform once unrest passes the reform threshold; a company
        that repays its price; an alliance tile where armies face enemies."""
        e, g, p = self.e, self.g, self.p
        s = e.view
        if self.hopes is not None and self.hopes[0] == e.slots_played and not self.hopes[1]:
            return None
        options = choices.tiles
        if not options:
            return None
        dev = e.t.dev
        devs = {dev[i]: i for what, i in options if what == "dev"}
        unrest = self.unrest_of(p)
        if "government_reform" in devs and unrest >= self.q["reform_at"]:
            return Buy("dev", devs["government_reform"])
        gold = int(s.gold[g, p])
        owned = s.dev_owned[g, p].tolist()
        for name in self.q["tiles"]:
            if name == COMPANY:
                company = self.choose_company([i for what, i in options if what == "company"], gold)
                if company is not None:
                    return company
                continue
            k = devs.get(name)
            if k is None or owned[k] >= (1 if name in NON_STACKING else self.q["max_copies"]):
                continue
            if e.dev_gold[k] > gold - self.q["gold_reserve"]:
                continue
            if name in RAIDS:          # acts on taking: useful iff it has a target (found once, `tile_is_useful`)
                target = self.raid_target(name, choices)
                if target is not None:
                    return Buy("dev", k, target)
            elif self.tile_is_useful(name, k, choices):
                return Buy("dev", k)
        i = self.wanted_alliance([i for what, i in options if what == "alliance"])
        if i is not None and e.t.alliance_gold[i] <= gold - self.q["gold_reserve"]:
            return Buy("alliance", i)
        return None

    def choose_company(self, companies: list[int], gold: int) -> Buy | None:
        """SOE-21 / SOE-23.2: from `company_from_war`, the first company tile on offer whose
        collections for the wars left (1 gold per marker in its best region) repay its price."""
        e, g, p = self.e, self.g, self.p
        s = e.view
        if not companies or s.war < self.q["company_from_war"]:
            return None
        most = np.where(e.t.company_regions, s.markers[g, p], 0).max(axis=1).tolist()   # markers it pays for
        for i in companies:
            cost = e.company_gold[i]
            if most[i] * (e.wars - s.war + 1) > cost and cost <= gold - self.q["gold_reserve"]:
                return Buy("company", i)
        return None

    def tile_is_useful(self, name: str, k: int, choices: Choices) -> bool:
        """Whether the player can use tile `name` (index k) in what is left of the game: a tile
        that acts later needs a war ahead (not the last round of the last war); a fleet tile
        needs fleets on the map (SOE-20.2, 20.11, 20.20), an army tile armies (SOE-20.1, 20.3,
        20.4, 20.18, 20.19), Trained Natives a colonial foothold (SOE-20.7), a raid a victim
        without defenders (SOE-20.16, 20.17), Industry room in the unrest budget (SOE-20.15)."""
        e, g, p = self.e, self.g, self.p
        s = e.view
        later = e.t.dev_timing[k] != "on_taking"
        if later and s.war == e.wars and s.round >= e.rounds_in_war(g) - 1:
            return False
        units = s.units[g, p, :N_REGIONS]
        if name in FLEET_TILES:
            return int(units[:, FLEET].sum()) >= (2 if name == "naval_training" else 1)
        if name in ARMY_TILES:
            return int(units[:, ARMY].max()) >= 2
        if name == "logistics":
            return int(s.units[g, p].sum()) >= 4
        if name == "trained_natives":
            return bool(choices.trained_natives_regions)
        if name in RAIDS:
            return self.raid_target(name, choices) is not None
        if name == "industry":
            return self.unrest_of(p) + e.dev_unrest[k] < self.unrest_budget()
        return True

    def raid_target(self, name: str, choices: Choices) -> tuple[int, int] | None:
        """SOE-20.16 / 20.17: the most harmful marker to raid among those whose owner has no
        defenders there (fleets against Pirates; armies and forts against a Slave Revolt)."""
        e, g = self.e, self.g
        units = e.view.units[g]
        kinds = (FLEET,) if name == "pirates" else (ARMY, FORT)
        open_targets = [(r, q) for r, q in choices.raid_targets(name) if not sum(units[q, r, kind] for kind in kinds)]
        if not open_targets:
            return None
        return max(open_targets, key=lambda x: self.leader_weight(x[1]) + self.marker_value(x[0], x[1]))

    def target_regions(self) -> list[int]:
        """Where the strategy wants armies (`FocusRegions`; scored for this slot when it was)."""
        e = self.e
        if self.focus is None or self.focus[0] != e.slots_played:
            self.focus = (e.slots_played, FocusRegions(e, Batch(e, [self])), 0)
        if len(self.focus) == 3:                      # the list, once asked, is kept for the slot
            self.focus = (*self.focus, self.focus[1].regions(self.focus[2]))
        return self.focus[3]

    def choose_build(self, choices: Choices, idle: bool = False) -> Build | None:
        """SOE-9: a unit for the first target region that can take it, within the unit limits
        -- the upkeep limits (SOE-15.2) and the population kept for income waived when the action
        would otherwise be `idle`."""
        e, g, p = self.e, self.g, self.p
        s = e.view
        units = sum(map(sum, s.units[g, p].tolist()))
        income = int(s.population[g, p]) + sum(s.markers[g, p].tolist())      # SOE-15.1, before growth
        if units >= self.q["max_units"] or not idle and (
                units >= self.q["upkeep_ratio"] * income or units + self.q["tile_budget"] >= income):
            return None
        short = (units + 1) - int(s.gold[g, p]) - (income - 1)       # upkeep after the unit's population
        if idle and self.unrest_of(p) + max(0, -(-short // 2)) >= self.unrest_budget():   # borrowed, SOE-2.2
            return None
        opts = choices.builds
        if s.population[g, p] < e.build_pop:   # without population only a free rebuild (SOE-A14 option)
            opts = [(k, t) for k, t in opts if t is not None or e.pieces_on_map(g, p, k) >= e.limits[k]]
        if not opts:
            return None
        if not idle and s.population[g, p] <= self.q["population_keep"] and not any(t for _, t in opts):
            return None
        targets = self.target_regions()
        colonial = e.colonial_list
        fleets = s.units[g, p, :, FLEET].tolist()
        for r in targets:
            if colonial[r] and fleets[r] == 0:
                if any(k == FLEET for k, _ in opts) and choices.may_enter(FLEET, r):
                    tile = "pressgangs" if (FLEET, "pressgangs") in opts else None
                    ok, src = self.rebuild_source(FLEET, r, targets)
                    if (FLEET, tile) in opts and ok:
                        return Build(FLEET, tile, r, src, "none")
                continue
            ok, src = self.rebuild_source(ARMY, r, targets)
            if not ok:
                continue
            if (ARMY, "trained_natives") in opts and r in choices.trained_natives_regions:
                return Build(ARMY, "trained_natives", r, src, "none")
            if self.may_enter(r) or colonial[r] and fleets[r]:
                if not self.may_enter(r):                 # the free move from home (SOE-9.3)
                    continue
                tile = "mercenaries" if (ARMY, "mercenaries") in opts else None
                if (ARMY, tile) in opts:
                    militia = r if tile is None else "none"
                    return Build(ARMY, tile, r, src, militia)
        return None

    def rebuild_source(self, kind: int, r: int, targets: list[int]) -> tuple[bool, int | None]:
        """SOE-9.5: whether building `kind` for region r is worth it, and the unit to destroy
        for it (None: pieces are left). A rebuild costs an unrest and a population on top of the
        build, so it only takes a unit from a region outside the targets -- never from r itself,
        nor from home, where a Move does the same for free."""
        e, g, p = self.e, self.g, self.p
        if e.pieces_on_map(g, p, kind) < e.limits[kind]:
            return True, None
        spare = [loc for loc in np.flatnonzero(e.view.units[g, p, :N_REGIONS, kind]).tolist()
                 if loc != r and loc not in targets]
        return (True, spare[0]) if spare else (False, None)

    def may_enter(self, r: int) -> bool:
        """`Engine.army_may_enter` into VP region r (SOE-10.3 .. 10.7), remembered for the
        decision being made (the state does not change while a player decides)."""
        e = self.e
        if self._entry[0] != e.slots_played:
            self._entry = (e.slots_played, {})
        found = self._entry[1].get(r)
        if found is None:
            found = self._entry[1][r] = e.army_may_enter(self.g, self.p, r)
        return found

    def choose_move(self, choices: Choices) -> Move | None:
        """Bring idle armies and fleets (home, or regions without targets) to target regions;
        fleets first so armies may follow (SOE-10.3)."""
        e, g, p = self.e, self.g, self.p
        s = e.view
        targets = self.target_regions()
        if not targets:
            return None
        plan = []
        n = choices.units_per_move
        u = s.units[g, p].tolist()
        colonial = e.colonial_list
        idle = None
        for r in targets:
            if colonial[r] and u[r][FLEET] == 0:
                srcs = [src for src in range(N_REGIONS + 1) if u[src][FLEET] > 1 or (u[src][FLEET] and src == HOME)
                        or (u[src][FLEET] and src not in targets)]
                if srcs and choices.may_enter(FLEET, r):
                    src = srcs[0]
                    plan.append((FLEET, src, r))
                    u[src][FLEET] -= 1
                    u[r][FLEET] += 1
            if len(plan) >= n:
                break
            if idle is None:                          # armies outside the targets (until one moves)
                idle = [src for src in range(N_REGIONS + 1) if u[src][ARMY] > 0 and src not in targets]
            moved = False
            for src in idle:
                if len(plan) >= n:
                    break
                if (not colonial[r] and self.may_enter(r)) or (colonial[r] and u[r][FLEET] > 0):
                    plan.append((ARMY, src, r))
                    u[src][ARMY] -= 1
                    u[r][ARMY] += 1
                    moved = True
            if moved:
                idle = None
            if len(plan) >= n:
                break
        if not plan:
            return None
        legal = choices.legal_prefix(plan)
        return Move(tuple(legal)) if legal else None

    def choose_spread(self, choices: Choices) -> Move | None:
        """Rather than pass, move armies off a stack of `spread_from` or more to the region
        outside the targets where a marker is worth most (SOE-10): a stack that big has nothing
        left to gain where it stands, and a new region may hold tokens to take or markers to
        guard."""
        e, g, p = self.e, self.g, self.p
        armies = e.view.units[g, p, :N_REGIONS, ARMY].tolist()
        stacks = [r for r in range(N_REGIONS) if armies[r] >= self.q["spread_from"]]
        if not stacks:
            return None
        targets = self.target_regions()
        moves = [(src, dst) for kind, src, dst in choices.moves
                 if kind == ARMY and src in stacks and dst < N_REGIONS and dst not in targets]
        if not moves:
            return None
        src, dst = max(moves, key=lambda m: (self.marker_value(m[1]), armies[m[0]]))
        n = min(choices.units_per_move, armies[src] - self.q["spread_from"] // 2)
        legal = choices.legal_prefix([(ARMY, src, dst)] * max(1, n))
        return Move(tuple(legal)) if legal else None

    # ---- battle decisions
    def help(self, ally, opp, region, armies, fleets, attacker_side):
        return (armies, fleets) if self.q["help_allies"] else (0, 0)

    def fight_naval(self, attack, mine, theirs, as_attacker) -> bool:
        fs = self.e.fort_strength
        return mine.strength(fs) >= theirs.strength(fs)

    def use_blockade_defence(self, attack) -> bool:
        return self.e.owns(self.g, self.p, "blockade") > 0

    def refuse_battle(self, attack, res) -> bool:
        return res["winner"] >= 0


def _vp_at(counts: list[int], values: list[int], who: int) -> int:
    """Dense-rank VP of `who` in one region (SOE-16.3): place = number of distinct higher
    counts; `values` 0-padded place values; no marker scores nothing."""
    c = counts[who]
    if c <= 0:
        return 0
    place = len({x for x in counts if x > c})
    return values[place] if place < len(values) else 0
