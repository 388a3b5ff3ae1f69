"""Scripted Conquest of the Empire strategies (COE-32), parameters from data/strategies.toml.

One `ScriptedPlayer` class plays every table; the tables differ in what they value:
- movement: each General leads at most 7 land units one step at a time towards the best target
  in reach -- neutral provinces (`neutral_weight` x tax), empty enemy provinces, enemy armies
  (`enemy_weight` x what they hold, `caesar_weight` for an enemy Caesar, `fortified_weight`
  for a fortified City), attacked only when the exact win chance (`sim.conquest.land_exact`,
  both sides retreating optimally) reaches `min_win` (the forecast is logged for the player
  audit); it leaves `garrison` units behind in a held province and `home_guard` with the
  Caesar, who never leaves the Home Province (COE-5.4: keep him safe);
- battles: formations and casualties by the kernels' expected-hits rule (`combat.choose_formation`,
  `combat.choose_losses`), continue or retreat by the optimal-retreat policy of the exact solver
  with the table's `unit_weight` / `leader_weight`, pursuit victims the most expensive first;
- buying: Cities, Fortifications and roads up to their shares of the budget, then land units in
  the shares of the army the exact odds say wins most for `legion_budget` talents
  (`army_mix.best_army`); `reserve` talents are kept unless an inflation has been triggered and not
  yet taken effect (COE-21: spend before prices rise).
"""

from __future__ import annotations

from collections import deque

from sim.conquest.actions import Buy, EndMovement, Ransom, Sail, Step
from sim.conquest.army_mix import best_army
from sim.conquest.battle import Fight
from sim.conquest.choices import Choices
from sim.conquest.combat import Army, LandBattle, Tactics, choose_formation, choose_losses, symbol_probabilities
from sim.conquest.land_exact import solve_land
from sim.conquest.players import Player
from sim.conquest.policy import FIGHT, OPTIMAL, Objective
from sim.conquest.state import CAESAR, FREE, LEADERS

CACHE_LIMIT = 20_000
MAX_EXACT = 14            # land units per side above which the odds use the largest solvable armies
MIX = ("infantry", "cavalry", "catapult")


class OddsCache:
    """Exact battle solutions shared by every scripted player of a process."""

    def __init__(self) -> None:
        self.found: dict[tuple, object] = {}

    def solve(self, comps, att: tuple, datt: int, dfn: tuple, ddfn: int, fortified: bool, weights: tuple,
              retreat: bool):
        att = _clip(att)
        dfn = _clip(dfn)
        key = (id(comps), att, min(datt, 8), dfn, min(ddfn, 8), fortified, weights, retreat)
        sol = self.found.get(key)
        if sol is None:
            if len(self.found) > CACHE_LIMIT:
                self.found.clear()
            battle = LandBattle(Army(*att, leaders=min(datt, 8)), Army(*dfn, leaders=min(ddfn, 8)), fortified)
            policy = OPTIMAL if retreat else FIGHT
            sol = solve_land(battle, comps, policy, policy, objective=Objective(*weights))
            self.found[key] = sol
        return sol


def _clip(units: tuple) -> tuple:
    """Scale an army down to at most MAX_EXACT units, keeping its mix (the solver's size limit)."""
    total = sum(units)
    if total <= MAX_EXACT:
        return tuple(int(u) for u in units)
    out = [u * MAX_EXACT // total for u in units]
    out[0] += MAX_EXACT - sum(out)
    return tuple(out)


ODDS = OddsCache()


class ScriptedPlayer(Player):
    """A parameter table of data/strategies.toml played (see the module docstring)."""

    def __init__(self, engine, g: int, seat: int, rng, params: dict) -> None:
        super().__init__(engine, g, seat, rng)
        self.k = {key: params[key] for key in params}
        self.tactics = Tactics()
        self.p_sym = symbol_probabilities(engine.comp)
        self.weights = (float(self.k["unit_weight"]), float(self.k["leader_weight"]))
        self.plan: deque = deque()
        self.mix_before: dict[str, int] = {}
        self.mix_turn = -1

    # ------------------------------------------------------------------ movement
    def move(self, ch: Choices):
        if ch.transit:
            galley = ch.transit[0]
            return Sail(galley, ch.sail_targets(galley)[0][0])
        while True:
            if not self.plan:
                self.plan = deque(self.march(ch))
                if not self.plan:
                    return EndMovement()
            action = self.plan.popleft()
            if self.still_legal(ch, action):
                return action

    def still_legal(self, ch: Choices, a: Step) -> bool:
        here = ch.leaders.get(a.src, [])
        ready = ch.ready(a.src)
        return all(ld in here for ld in a.leaders) and all(u <= r for u, r in zip(a.units, ready))

    def march(self, ch: Choices) -> list[Step]:
        """One step for every General that has somewhere worth going."""
        e, g, p = self.e, self.g, self.p
        s = e.s
        out = []
        home = int(s.home[g, p])
        claimed: set[int] = set()
        for src, leaders in sorted(ch.leaders.items()):
            generals = [ld for ld in leaders if ld % LEADERS != CAESAR]
            if not generals:
                continue
            ready = list(ch.ready(src))
            keep = self.k["home_guard"] if src == home else self.k["garrison"] if s.control[g, src] == p else 0
            keep = max(keep, self.k["home_guard"]) if self.caesar_at(src) else keep
            for ld in generals:
                spare = sum(ready) - keep
                if spare <= 0:
                    break
                legion = _take(ready, min(spare, e.opt.units_per_leader))
                dst, p_win = self.best_target(src, legion, claimed)
                if dst is None:
                    break
                claimed.add(dst)
                ready = [r - x for r, x in zip(ready, legion)]
                out.append(Step((ld,), legion, src, dst, p_win))
        return out

    def caesar_at(self, q: int) -> bool:
        s = self.e.s
        return bool(s.ldr_state[self.g, self.p, CAESAR] == FREE and s.ldr_loc[self.g, self.p, CAESAR] == q)

    def best_target(self, src: int, legion: tuple, claimed: set[int]) -> tuple[int | None, float | None]:
        """The most valuable adjacent province this legion can take (or beat the army there),
        with the exact win chance when an army stands there (None otherwise)."""
        e, g, p = self.e, self.g, self.p
        s, t = e.s, e.t
        best, best_value, best_odds = None, 0.0, None
        for q in t.steps[src]:
            if q in claimed:
                continue
            owner = int(s.control[g, q])
            value = t.tax[q] + 5 * bool(s.city[g, q])
            enemy = e.other_seat_at(g, p, q)
            p_win = None
            if enemy >= 0:
                them = e.units_at(g, enemy, q)
                if not sum(them):
                    score = self.k["enemy_weight"] * value + self.k["caesar_weight"] * self.caesar_of(enemy, q)
                else:
                    fortified = bool(s.fort[g, q]) and owner == enemy
                    p_win = self.odds(legion, 1, tuple(them), len(e.leaders_at(g, enemy, q)), fortified)
                    if p_win < self.k["min_win"]:
                        continue
                    score = p_win * (self.k["enemy_weight"] * value + self.k["caesar_weight"] * self.caesar_of(enemy, q)
                                     + self.k["fortified_weight"] * fortified * value)
            elif owner == p:
                continue
            elif owner < 0:
                score = self.k["neutral_weight"] * value
            else:
                score = self.k["enemy_weight"] * value
            if score > best_value:
                best, best_value, best_odds = q, score, p_win
        if best is None and self.k["advance"]:
            best = self.toward(src, claimed, self.hunted() if self.k["hunt"] else None)
        return best, best_odds

    def hunted(self) -> set[int]:
        """Where enemy Caesars stand (the hunter's goals)."""
        s, g = self.e.s, self.g
        return {int(s.ldr_loc[g, q, CAESAR]) for q in range(int(s.n_players[g]))
                if q != self.p and s.alive[g, q] and s.ldr_state[g, q, CAESAR] == FREE}

    def caesar_of(self, enemy: int, q: int) -> int:
        s = self.e.s
        return int(s.ldr_state[self.g, enemy, CAESAR] == FREE and s.ldr_loc[self.g, enemy, CAESAR] == q)

    def toward(self, src: int, claimed: set[int], goals: set[int] | None) -> int | None:
        """The first step of a shortest land path to a goal (default: a province the player does
        not hold); the first step never enters enemy pieces."""
        e, g, p = self.e, self.g, self.p
        s, t = e.s, e.t
        reached = (lambda r: r in goals) if goals else (lambda r: s.control[g, r] != p)
        first = {q: q for q in t.steps[src] if not e.enemy_pieces_at(g, p, q)}
        for q in first:
            if reached(q):
                return None if q in claimed else q
        todo = deque(first)
        seen = set(first) | {src}
        while todo:
            q = todo.popleft()
            for r in t.steps[q]:
                if r in seen:
                    continue
                if reached(r):
                    step = first[q]
                    return None if step in claimed else step
                seen.add(r)
                first[r] = first[q]
                todo.append(r)
        return None

    def odds(self, att: tuple, att_leaders: int, dfn: tuple, dfn_leaders: int, fortified: bool) -> float:
        """The exact chance of winning (a defender's retreat included, COE-16) when both sides
        continue or retreat by the optimal-retreat policy with this table's weights -- the
        battle as it will be played, so the forecast the player acts on is calibrated."""
        sol = ODDS.solve(self.e.comp, tuple(att), att_leaders, tuple(dfn), dfn_leaders, fortified, self.weights, True)
        return sol.odds.attacker_win

    # ------------------------------------------------------------------ battles
    def battle_order(self, pending) -> int:
        return 0

    def fight_naval(self, zone, opponent, mine, theirs) -> bool:
        return mine > theirs

    def formation(self, fight: Fight, seat: int, size: int):
        units = tuple(fight.units[seat])
        extra = 0
        if seat == fight.defender and fight.fortified:
            extra = self.e.comp.land.extra_dice(True, fight.units[fight.attacker][2] > 0)
        return choose_formation(units, size, size + extra, self.p_sym, self.e.opt.catapult_cap,
                                self.tactics.formation, self.tactics.order_index)

    def casualties(self, fight: Fight, seat: int, formation, hits: int):
        land = self.e.comp.land
        cap = land.formation_base + land.formation_per_leader * fight.leaders[seat]
        return choose_losses(tuple(fight.units[seat]), tuple(formation), hits, cap, 0, self.p_sym,
                             self.e.opt.catapult_cap, self.tactics)

    def retreat(self, fight: Fight, seat: int, options: list[int]) -> int | None:
        """COE-14.5 by the optimal-retreat policy of the exact solver at the current state."""
        a, d = fight.attacker, fight.defender
        att, dfn = _clip(tuple(fight.units[a])), _clip(tuple(fight.units[d]))
        sol = ODDS.solve(self.e.comp, att, fight.leaders[a], dfn, fight.leaders[d], fight.fortified,
                         self.weights, True)
        ia, id_ = sol.attacker.index(att), sol.defender.index(dfn)
        retreats = sol.defender_retreats if seat == d else sol.attacker_retreats
        if not retreats[ia, id_]:
            return None
        e = self.e
        return max(options, key=lambda q: (e.s.control[self.g, q] == self.p, -q))

    def pursuit(self, fight: Fight, fleeing, hits: int):
        out, left = [0, 0, 0], hits
        for k in (2, 1, 0):
            out[k] = min(fleeing[k], left)
            left -= out[k]
        return tuple(out)

    def hold_captive(self, leader: int) -> bool:
        return not self.k["kill_generals"]

    def sink(self, zone: int, galleys: list[int], hits: int) -> list[int]:
        e = self.e
        return sorted(galleys, key=lambda x: (len(e.cargo_leaders(self.g, x)),
                                              int(e.s.gal_cargo[self.g].reshape(-1, 3)[x].sum())))[:hits]

    def raze(self, options: list[int]) -> int | None:
        return None

    # ------------------------------------------------------------------ buying
    def inflation_pending(self) -> bool:
        """COE-21: a threshold has been reached whose multiplier has not yet taken effect."""
        e = self.e
        rules = e.economy.inflation
        top = max((r.value for r in e.readings[self.g]), default=0)
        level = sum(1 for th in rules.thresholds if top >= th)
        return level > 0 and rules.multiplier(level) > e.s.multiplier[self.g]

    def buy(self, options: list[Buy], bought: list[Buy]) -> Buy | None:
        e, g, p = self.e, self.g, self.p
        cash = int(e.s.treasury[g, p])
        reserve = 0 if self.inflation_pending() else self.k["reserve"]
        prices = e.prices(g)
        spent = sum(prices[b.item] for b in bought)
        budget = cash + spent
        wanted = []
        for item, share in (("fortification", "fort_share"), ("city", "city_share"), ("road", "road_share")):
            already = sum(prices[b.item] for b in bought if b.item == item)
            if self.k[share] > 0 and already + prices[item] <= self.k[share] * budget:
                wanted.append(item)
        for item in wanted:
            found = [b for b in options if b.item == item]
            if found and cash - prices[item] >= reserve:
                return self.place_building(found)
        units = [b for b in options if b.item in MIX and cash - prices[b.item] >= reserve]
        if not units:
            return None
        have = self.army_mix(bought)
        total = sum(have.values()) + 1
        want = self.wanted_shares()
        return max(units, key=lambda b: (want[b.item] - have[b.item] / total, -prices[b.item]))

    def wanted_shares(self) -> dict[str, float]:
        """The shares of the army that wins most for `legion_budget` talents (exact odds)."""
        e = self.e
        army = best_army(e.comp, e.opt.units_per_leader, int(self.k["legion_budget"]),
                         bool(self.k["mix_fortified"]))
        return {u: army[k] / sum(army) for k, u in enumerate(MIX)}

    def place_building(self, found: list[Buy]) -> Buy:
        """Home first, then the most valuable province."""
        e = self.e
        home = int(e.s.home[self.g, self.p])
        return max(found, key=lambda b: (b.where == home if b.item != "road" else 0,
                                         e.t.tax[b.where] if b.item != "road" else 0, -b.where))

    def army_mix(self, bought: list[Buy]) -> dict[str, int]:
        """Land units of the player's colour on the board, with those bought this phase."""
        turn = int(self.e.s.turn[self.g])
        if self.mix_turn != turn:                # the board does not change during a buying phase
            counts = self.e.s.land[self.g, self.p].sum(axis=0).tolist()
            self.mix_before, self.mix_turn = dict(zip(MIX, counts)), turn
        have = dict(self.mix_before)
        for b in bought:
            if b.item in have:
                have[b.item] += 1
        return have

    def ransom(self, options, treasury: int, swaps):
        """COE-23.1: a General held of the captor's first (it costs no talents), else the table's
        offer while the reserve allows."""
        for leader, captor in options:
            if swaps.get(captor):
                return Ransom(leader, 0, swaps[captor][0])
        offer = int(self.k["ransom_offer"])
        if offer and treasury >= offer + self.k["reserve"]:
            return Ransom(options[0][0], offer)
        return None

    def accept_ransom(self, leader: int, talents: int, offerer: int, swap: int) -> bool:
        """COE-23: the table's smallest ransom, or a General of his own back for the one held."""
        return talents >= self.k["ransom_accept"] or swap != -1


def _take(ready: list[int], n: int) -> tuple[int, int, int]:
    """A mixed legion of n units: catapults and cavalry first (mixed formations hit more, COE-E15)."""
    out = [0, 0, 0]
    for k in (2, 1, 0):
        out[k] = min(ready[k], n - sum(out))
    return tuple(out)  # type: ignore[return-value]

