"""Scripted Conquest of the Empire strategies (COE-32), parameters from data/strategies.toml.

One `ScriptedPlayer` class plays every table; the tables differ in what they value:
- movement: the Generals of a province lead their units one step at a time towards the best
  target in reach -- neutral provinces (`neutral_weight` x tax), empty enemy provinces, enemy
  armies (`enemy_weight` x what they hold, `caesar_weight` for an enemy Caesar,
  `fortified_weight` for a fortified City), attacked only when the exact win chance
  (`sim.conquest.land_exact`, both sides retreating optimally) of the whole force there reaches
  `min_win`, with as many Generals (7 units each) as it takes to reach `press_win` (the
  forecast is logged for the player audit); one legion per target and turn (but `converge`'s).
  A held province keeps `garrison` units; the Caesar's keeps the guard the exact odds ask for
  (`guard`: the strongest enemy force next to it takes him with a chance of at most
  `caesar_risk`, COE-25.2). Generals with nobody to lead go home for the units waiting there
  (`fetch`); from round `hunt` on, Generals with nothing in reach march on the least guarded
  enemy Caesar for his distance, the richer rival first (`hunt_leader`), and muster next to him
  until the odds allow the attack, the legions waiting next to him in several provinces
  attacking together where their joint exact odds allow it (`converge`); a Caesar without
  Generals leads a legion himself, only where he is safe; a General beside an empty galley of
  his ships `ferry_units` units to a province only the sea reaches (`galleys` > 0, COE-12), or,
  hunting with nothing worth attacking in reach, a legion one crossing towards the hunted Caesar
  where that saves `sea_march` steps beyond a step's, the galley sailing back to a dock after; a
  march takes a road trip where its City lies nearer the goal than the step (COE-6.6);
- battles: formations and casualties by the kernels' expected-hits rule (`combat.choose_formation`,
  `combat.choose_losses`), continue or retreat by the optimal-retreat policy of the exact solver
  with the table's `unit_weight` / `leader_weight`, pursuit victims the most expensive first; a
  naval battle started when the expected worth sunk of the enemy's galleys and cargo exceeds
  one's own on the exact odds (`naval.naval_stake`, a Caesar aboard worth `caesar_stake`), the
  least valuable galleys sunk first;
- buying: Cities, Fortifications and roads up to their shares of the budget (a road only where it
  extends the home's road network towards the frontier, Cities placed so that it can), a galley
  while a province only the sea reaches, or a sea march's landing, lies one crossing from a dock
  (at most `galleys`), then
  land units in the shares of the army the exact odds say wins most for `legion_budget` talents
  (`army_mix.best_army`); once no land unit can be bought (the colour's supply on the board,
  COE-2.3), a City, a Fortification, a road beyond those shares (`spare_building`, engine
  version 8); `reserve` talents are kept unless an inflation has been triggered and not yet
  taken effect (COE-21: spend before prices rise);
- ransom (COE-23): a General of the captor's held is offered first, else a bid of `ransom_offer`
  talents that rises by `ransom_step` each turn the captor refused it, up to `ransom_max`; as
  captor, a bid of at least `ransom_accept` is taken; every amount in base talents times the
  price multiplier in force (engine version 14).
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace
from typing import Any, NamedTuple

from sim.conquest.actions import Board, Buy, EndMovement, Ransom, RoadTrip, Sail, Step
from sim.conquest.army_mix import best_army
from sim.conquest.battle import Fight, NavalChoice
from sim.conquest.choices import Choices
from sim.conquest.combat import Army, LandBattle, Tactics, choose_formation, choose_losses, symbol_probabilities
from sim.conquest.components import LAND_UNITS
from sim.conquest.land_exact import forecast_land
from sim.conquest.legion import keep as _keep
from sim.conquest.legion import take as _take
from sim.conquest.naval import naval_stake
from sim.conquest.players import Player
from sim.conquest.policy import FIGHT, OPTIMAL, Objective
from sim.conquest.routes import distance_to, distances
from sim.conquest.scripted_routes import RoutePlans
from sim.conquest.state import CAESAR, FREE, LEADERS

CACHE_LIMIT = 200_000      # forecasts (and guards) kept per process, about 0.5 kB each
MAX_EXACT = 10            # planning: land units per side above which the odds scale both armies to 10
MAX_PAIRS = 20_000        # a forecast acted on and its battle's retreat decisions: unit states of both armies
                          # (products of each type's count + 1) solved as they stand, larger ones scaled to fit
MIX = ("infantry", "cavalry", "catapult")
ROUNDING = 1 + 1e-9           # a solved win chance, a sum of probabilities, exceeds 1 by rounding only
NAVAL_TIE = 1e-9               # an expected gain this small is a tie of floating-point rounding: no battle


class Forecast(NamedTuple):
    """What the players read of an exact solve: the attacker's win chance and whether each side
    retreats at the start state (COE-14.5, the optimal-retreat policy)."""

    win: float
    attacker_retreats: bool
    defender_retreats: bool


class OddsCache:
    """Exact battle forecasts shared by every scripted player of a process, keyed by exactly what
    a solve depends on (the rules, both armies after `_clip`, leaders up to 8, the fortification,
    the objective's weights, the policy, whether each side has a province to retreat to); only
    the few figures the players read are kept, so the cache holds the forecasts of many games."""

    def __init__(self) -> None:
        self.found: dict[tuple, Forecast] = {}

    def solve(self, comps, att: tuple, datt: int, dfn: tuple, ddfn: int, fortified: bool, weights: tuple,
              retreat: bool, att_can_retreat: bool = True, dfn_can_retreat: bool = True,
              budget: int | None = None) -> Forecast:
        att, dfn = _clip(att, dfn, budget)
        key = (id(comps), att, min(datt, 8), dfn, min(ddfn, 8), fortified, weights, retreat, att_can_retreat,
               dfn_can_retreat)
        found = self.found.get(key)
        if found is None:
            if len(self.found) > CACHE_LIMIT:
                self.found.clear()
            battle = LandBattle(Army(*att, leaders=min(datt, 8)), Army(*dfn, leaders=min(ddfn, 8)), fortified,
                                att_can_retreat, dfn_can_retreat)
            found = self.found[key] = Forecast(*forecast_land(battle, comps, OPTIMAL if retreat else FIGHT,
                                                              Objective(*weights)))
        return found


def _clip(att: tuple, dfn: tuple, budget: int | None = None) -> tuple[tuple, tuple]:
    """The armies a solve reads, each scaled (keeping its mix) by one factor for both: for
    planning (`budget` None) so that neither has more than MAX_EXACT units (the ratio of strengths
    is what decides); for a forecast acted on and the retreat decisions of its battle
    (`budget` MAX_PAIRS, engine version 12) as they stand when their unit states fit the
    budget, else to the largest size that fits -- so the forecast and every later retreat
    decision read one chain, the battle as it is played (before, the armies left after each
    round were scaled by another factor, and attacks with more than 10 units on a side, forecast
    at 0.987, were won 0.908 of the time)."""
    att, dfn = tuple(map(int, att)), tuple(map(int, dfn))
    big = max(sum(att), sum(dfn))
    if budget is None:
        if big <= MAX_EXACT:
            return att, dfn
        return _scale(att, big, MAX_EXACT), _scale(dfn, big, MAX_EXACT)
    if _pairs(att, dfn) <= budget:
        return att, dfn
    for size in range(big - 1, 0, -1):
        small = _scale(att, big, size), _scale(dfn, big, size)
        if _pairs(*small) <= budget:
            return small
    raise AssertionError("unreachable: armies of one unit fit")


def _pairs(att: tuple, dfn: tuple) -> int:
    """The exact solver's unit states of two armies (`land_exact._check_size`)."""
    return (att[0] + 1) * (att[1] + 1) * (att[2] + 1) * (dfn[0] + 1) * (dfn[1] + 1) * (dfn[2] + 1)


def _scale(units: tuple, big: int, size_of_big: int) -> tuple:
    """An army scaled by size_of_big / big, at least one unit, its mix kept (the rest infantry)."""
    total = sum(units)
    size = max(1, round(total * size_of_big / big)) if total else 0
    out = [u * size // total for u in units] if total else [0, 0, 0]
    out[0] += size - sum(out)
    return tuple(out)


ODDS = OddsCache()
GUARDS: dict[tuple, int] = {}   # guard sizes by what they depend on (`ScriptedPlayer.guard_for`)


class ScriptedPlayer(RoutePlans, Player):
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
        self.guards: dict[tuple, int] = {}
        self.guards_turn = -1
        self.seen: dict[tuple, Any] = {}           # `phase_memo`
        self.seen_at = (-1, -1)
        self.claimed: set[int] = set()
        self.claimed_turn = -1
        self.recall_leader: int | None = None      # `recalled`
        self.recall_turn = -1
        self.bids: dict[int, int] = {}             # captive General -> base talents of the last bid (`ransom`)
        self.bids_turn = -1

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

    def still_legal(self, ch: Choices, a) -> bool:
        """Whether a planned action can still be taken (an earlier one may have changed that)."""
        if type(a) is Sail:
            return a.galley in ch.galleys and (not a.land or bool(self.e.cargo_leaders(self.g, a.galley)))
        src = ch.galley_space(a.galley) if type(a) is Board else a.src
        here = ch.leaders.get(src, [])
        ready = ch.ready(src)
        return all(ld in here for ld in a.leaders) and all(u <= r for u, r in zip(a.units, ready))

    def march(self, ch: Choices) -> list:
        """Moves for the Generals that have somewhere worth going: first the legions next to the
        hunted Caesar in several provinces, where they attack him together (`converge`); a General
        with a galley of his beached beside him ships `ferry_units` units to a province only the
        sea reaches (`ferry`); the legions of one province attack together (as many Generals as
        the odds need, up to `press_win`; dropped when the forecast of the battle as it will be
        played, `enough`, falls below `min_win`), a Caesar's province keeps the guard the exact
        odds ask for (`guard`), a march takes a road trip where it gets nearer its goal than a
        step (`roads`), and Generals with nobody to lead go home to fetch the units waiting there
        (`fetch`); empty galleys sail home (`galleys_home`)."""
        e, g = self.e, self.g
        s = e.s
        out: list = []
        claimed = self.claimed_this_turn()
        cap = e.opt.units_per_leader
        recalled = self.recalled(ch)
        joint = self.converge(ch, claimed) if self.k["converge"] else []
        out += joint
        joined = {a.src for a in joint}
        for src, leaders in sorted(ch.leaders.items()):
            if src in joined:
                continue
            generals = [ld for ld in leaders if ld % LEADERS != CAESAR]
            caesar_here = self.caesar_at(src)
            if not generals:
                if caesar_here and not self.generals_left():
                    out += self.caesar_march(ch, src)
                continue
            arrived = src in claimed             # a legion of this player entered src this turn
            avail = self.spare(ch, src, claimed)
            if generals and sum(avail):
                shipped = (self.ferry(ch, src, generals[0], avail, claimed)
                           or self.sea_march(ch, src, generals[0], avail, claimed))
                if shipped:
                    out += shipped
                    avail = [a - x for a, x in zip(avail, shipped[0].units)]
                    generals = generals[1:]
            # the General called home walks there with the units he leads, alone from a province
            # another legion entered this turn (he leaves it the units it brought); a General
            # with nobody to lead fetches below
            if recalled in generals and (sum(avail) or arrived and e.opt.leaders_move_alone):
                step = self.toward(src, claimed, {int(s.home[g, self.p])})
                if step is not None:
                    legion = (0, 0, 0) if arrived else _take(avail, min(sum(avail), cap))
                    out.append(Step((recalled,), legion, src, step))
                    avail = [a - x for a, x in zip(avail, legion)]
                    generals.remove(recalled)
            declined: set[int] = set()           # attacks whose forecast as played fell below `min_win`
            while generals and sum(avail):
                force = _take(avail, min(sum(avail), cap * len(generals)))
                dst, p_win = self.best_target(src, force, len(generals), claimed | declined)
                if dst is None:
                    break
                n, legion = 1, _take(avail, min(sum(avail), cap))
                if p_win is not None:
                    n, legion, p_win = self.enough(src, dst, avail, len(generals))
                    if p_win < self.k["min_win"]:
                        declined.add(dst)
                        continue
                claimed.add(dst)
                avail = [a - x for a, x in zip(avail, legion)]
                trip = self.road_trip(ch, src, dst) if p_win is None else None
                if trip is not None:
                    out.append(RoadTrip(tuple(generals[:n]), legion, src, trip))
                else:
                    out.append(Step(tuple(generals[:n]), legion, src, dst, p_win))
                generals = generals[n:]
            if generals and not sum(avail) and e.opt.leaders_move_alone:
                dst = self.fetch_step(src)
                if dst is not None:
                    out.append(Step(tuple(generals), (0, 0, 0), src, dst))
        return out + self.galleys_home(ch)

    def spare(self, ch: Choices, src: int, claimed: set[int]) -> list[int]:
        """The ready units that may march out of src: all but the Caesar's guard (`guard`), a
        held province's `garrison`, or the taker of a province a legion entered this turn."""
        e, g = self.e, self.g
        ready = list(ch.ready(src))
        keep = (self.guard(src) if self.caesar_at(src) else self.k["garrison"] if e.s.control[g, src] == self.p
                else int(src in claimed))       # a province entered to be taken keeps its taker
        return list(_take(ready, max(min(sum(ready), sum(e.units_at(g, self.p, src)) - keep), 0)))

    def converge(self, ch: Choices, claimed: set[int]) -> list[Step]:
        """The legions waiting in two or more provinces next to the hunted Caesar attack him in
        one turn (`converge`, engine version 17): every unit of a player in a province fights its
        battle, and battles follow the movement (COE-14.1, COE-17.3), so forces that each wait
        for odds they cannot reach alone (`mustering`) take him together. Taken when no one
        province's force reaches `press_win` and the joint force's exact win chance, of the
        battle as it will be played (`_clip` with MAX_PAIRS), reaches `min_win`; every General
        there marches with the units he leads (COE-11.1), each step carrying the joint forecast
        (the player audit reads the first)."""
        goals = self.hunted() if self.hunting() else set()
        q = next(iter(goals), None)
        if q is None or q in claimed or not sum(self.defender(q)[1]):
            return []
        cap, t = self.e.opt.units_per_leader, self.e.t
        legions = []
        for src, leaders in sorted(ch.leaders.items()):
            generals = tuple(ld for ld in leaders if ld % LEADERS != CAESAR)
            if generals and src < t.n_prov and q in t.steps[src]:
                avail = self.spare(ch, src, claimed)
                legion = _take(avail, min(sum(avail), cap * len(generals)))
                if sum(legion):
                    legions.append(Step(generals, legion, src, q))
        if len(legions) < 2 or any(self.attack_odds(a.units, len(a.leaders), q) >= self.k["press_win"]
                                   for a in legions):
            return []
        force = tuple(map(sum, zip(*(a.units for a in legions))))
        leaders = sum(len(a.leaders) for a in legions)
        if self.attack_odds(force, leaders, q) < self.k["min_win"]:
            return []
        p_win = self.attack_odds(force, leaders, q, MAX_PAIRS)
        if p_win < self.k["min_win"]:
            return []
        claimed.add(q)
        return [replace(a, p_win=p_win) for a in legions]

    def claimed_this_turn(self) -> set[int]:
        """Provinces a legion of this player entered this turn: no second legion follows it
        there, so an attack is fought by the force its forecast was made for."""
        turn = int(self.e.s.turn[self.g])
        if self.claimed_turn != turn:
            self.claimed, self.claimed_turn = set(), turn
        return self.claimed

    def generals_left(self) -> bool:
        """Whether the player still has a free General (COE-5.1) to lead his armies."""
        s, g = self.e.s, self.g
        return any(s.ldr_state[g, c, i] == FREE for c in self.e.colours_of[g][self.p] for i in range(1, LEADERS))

    def caesar_march(self, ch: Choices, src: int) -> list[Step]:
        """With no General left the Caesar leads a legion himself (COE-5.2), only into an
        attack at `press_win` or a province where the strongest force next to it takes him
        with an exact chance of at most `caesar_risk` (COE-25.2: keep him safe)."""
        e = self.e
        caesar = self.p * LEADERS + CAESAR
        legion = _take(list(ch.ready(src)), e.opt.units_per_leader)
        if not sum(legion):
            return []
        dst, p_win = self.best_target(src, legion, 1, self.claimed_this_turn())
        if dst is None or dst == src:
            return []
        if p_win is not None:
            if p_win < self.k["press_win"]:
                return []
            p_win = self.attack_odds(legion, 1, dst, MAX_PAIRS)      # the forecast logged
            if p_win < self.k["press_win"]:
                return []
        else:
            threat = self.threat(dst)
            if sum(threat):
                leaders = self.leaders_for(threat)
                if ODDS.solve(e.comp, threat, leaders, legion, 1, False, self.weights, True).win > self.k["caesar_risk"]:
                    return []
        self.claimed.add(dst)
        return [Step((caesar,), legion, src, dst, p_win)]

    def enough(self, src: int, dst: int, avail: list[int], most: int) -> tuple[int, tuple, float]:
        """The fewest Generals (each with 7 units) whose attack on dst reaches `press_win`, or
        all of them: (Generals, legion, exact win chance of the battle as it will be played, the
        forecast logged, `_clip` with MAX_PAIRS)."""
        cap = self.e.opt.units_per_leader
        for n in range(1, most + 1):
            legion = _take(avail, min(sum(avail), cap * n))
            p_win = self.attack_odds(legion, n, dst)
            if p_win >= self.k["press_win"] or n == most or sum(legion) == sum(avail):
                return n, legion, self.attack_odds(legion, n, dst, MAX_PAIRS)
        raise AssertionError("unreachable")

    def waiting_home(self) -> bool:
        """Whether at least `fetch` units wait with the Caesar at home beyond his guard and what
        the Generals there lead (COE-5.2: units move only with a leader, 7 each, COE-11.1)."""
        e, g = self.e, self.g
        home = int(e.s.home[g, self.p])
        if not self.caesar_at(home):
            return False
        led = e.opt.units_per_leader * sum(ld % LEADERS != CAESAR for ld in e.leaders_at(g, self.p, home))
        return sum(e.units_at(g, self.p, home)) - self.guard(home) - led >= self.k["fetch"]

    def recalled(self, ch: Choices) -> int | None:
        """The General who walks home this turn, with the units he leads, to lead the units
        waiting there (`recall`), chosen at the turn's first plan and kept for the rest of the
        turn (engine version 13: before, the choice was made anew at each plan of a turn, and a
        General sent home at one and towards the hunted Caesar at the next stepped there and back)."""
        turn = int(self.e.s.turn[self.g])
        if self.recall_turn != turn:
            self.recall_turn, self.recall_leader = turn, self.recall(ch)
        return self.recall_leader

    def recall(self, ch: Choices) -> int | None:
        """The first General standing in the province nearest home by land of those whose
        Generals lead less than a full legion each beyond the garrison, not one mustering next to
        the hunted Caesar; None when no units wait at home (`waiting_home`; engine version 11:
        before, only a General with nobody to lead went, and about half of a colour's units stood
        unled from round 20 on)."""
        if not self.waiting_home():
            return None
        e, g = self.e, self.g
        home = int(e.s.home[g, self.p])
        dist = distances(e.t)[home]
        cap = e.opt.units_per_leader
        near = [(dist[src], src) for src, leaders in ch.leaders.items()
                if src != home and src < e.t.n_prov and dist[src] < e.t.n_prov and not self.mustering(src)
                and 0 < (n := sum(ld % LEADERS != CAESAR for ld in leaders))
                and sum(e.units_at(g, self.p, src)) - self.k["garrison"] < cap * n]
        if not near:
            return None
        return next(ld for ld in ch.leaders[min(near)[1]] if ld % LEADERS != CAESAR)

    def fetch_step(self, src: int) -> int | None:
        """A lone General's step home when units wait there (`waiting_home`)."""
        if src == int(self.e.s.home[self.g, self.p]) or not self.waiting_home():
            return None
        return self.toward(src, set(), {int(self.e.s.home[self.g, self.p])})

    def phase_memo(self) -> dict[tuple, Any]:
        """What only the map, the control of provinces and the other seats' pieces decide (a
        threat, a defender, the hunted Caesar, a way), read once per phase of a turn: none of them
        changes while this player moves (COE-17.3: provinces are taken after the movement)."""
        at = (int(self.e.s.turn[self.g]), self.e.phase[self.g])
        if self.seen_at != at:
            self.seen, self.seen_at = {}, at
        return self.seen

    def guard(self, q: int) -> int:
        """COE-5.4 / COE-25.2: the units kept with the Caesar in q -- at least `home_guard`, and
        enough that the strongest force one step away (one seat's led units, COE-11.1) takes the
        province with an exact chance of at most `caesar_risk`."""
        e, g = self.e, self.g
        here = tuple(e.units_at(g, self.p, q))
        turn = int(e.s.turn[g])
        if self.guards_turn != turn:
            self.guards, self.guards_turn = {}, turn
        found = self.guards.get((q, here))
        if found is None:
            found = self.guards[(q, here)] = self.guard_for(here, self.threat(q),
                                                            bool(e.s.fort[g, q]) and int(e.s.control[g, q]) == self.p)
        return found

    def guard_for(self, here: tuple, threat: tuple, fortified: bool) -> int:
        """`guard` for the units here and the threat next to them: it depends on nothing else
        (with the table's parameters and the rules), so it is shared by every player and game of
        the process. A Caesar left with no unit is captured without a battle (COE-A7), so against
        a threat a guard of none is never safe (a table's `home_guard` may be 0)."""
        e = self.e
        key = (id(e.comp), here, threat, fortified, self.weights, self.k["home_guard"], self.k["caesar_risk"])
        found = GUARDS.get(key)
        if found is not None:
            return found
        low = min(int(self.k["home_guard"]), sum(here))
        if sum(threat):
            leaders = self.leaders_for(threat)
            high = sum(here)                     # the guard is safe enough at high (or all is kept)
            while low < high:                    # the chance of losing falls with every unit kept
                mid = (low + high) // 2
                if mid and ODDS.solve(e.comp, threat, leaders, _keep(here, mid), 1, fortified, self.weights,
                                      True).win <= self.k["caesar_risk"]:
                    high = mid
                else:
                    low = mid + 1
        if len(GUARDS) > CACHE_LIMIT:
            GUARDS.clear()
        GUARDS[key] = low
        return low

    def threat(self, q: int) -> tuple[int, int, int]:
        """The largest army one enemy seat can lead into q next turn: its units in the
        neighbouring provinces, at most 7 per leader there (once per phase, `phase_memo`)."""
        memo = self.phase_memo()
        found = memo.get(("threat", q))
        if found is None:
            found = memo[("threat", q)] = self.threat_now(q)
        return found

    def threat_now(self, q: int) -> tuple[int, int, int]:
        e, g = self.e, self.g
        cap = e.opt.units_per_leader
        best = (0, 0, 0)
        n = int(e.s.n_players[g])
        seats = [seat for seat in range(n) if seat != self.p and e.s.alive[g, seat]]
        land = {r: e.s.land[g, :, r].tolist() for r in e.t.steps[q]}    # read once for every seat
        for seat in seats:
            colours = e.colours_of[g][seat]
            total = [0, 0, 0]
            for r in e.t.steps[q]:
                units = [sum(by_type) for by_type in zip(*(land[r][c] for c in colours))] or [0, 0, 0]
                if sum(units):
                    led = _take(units, min(sum(units), cap * len(e.leaders_at(g, seat, r))))
                    total = [a + b for a, b in zip(total, led)]
            if sum(total) > sum(best):
                best = tuple(total)
        return best  # type: ignore[return-value]

    def leaders_for(self, units: tuple) -> int:
        """The fewest leaders who can lead these units into battle, 7 each (COE-11.1): the threat
        model's attacking leaders."""
        return -(-sum(units) // self.e.opt.units_per_leader)

    def caesar_at(self, q: int) -> bool:
        s = self.e.s
        return bool(s.ldr_state[self.g, self.p, CAESAR] == FREE and s.ldr_loc[self.g, self.p, CAESAR] == q)

    def best_target(self, src: int, legion: tuple, leaders: int, claimed: set[int]) -> tuple[int | None, float | None]:
        """The most valuable adjacent province this force can take (or beat the army there),
        with the exact win chance when an army stands there (None otherwise); failing that, a
        step towards the goal (`advance`, `hunt`), or none when the force musters next to a
        hunted Caesar it cannot beat yet."""
        scores, odds = self.target_scores(src, legion, leaders, claimed)
        best, best_value, best_odds = None, 0.0, None
        for q, score in scores.items():          # the first of the most valuable, as listed
            if score is not None and score > best_value:
                best, best_value, best_odds = q, score, odds.get(q)
        if best is None and self.k["advance"]:
            if self.mustering(src):
                return None, None
            best = self.toward(src, claimed, self.hunted() if self.hunting() else None)
        return best, best_odds

    def mustering(self, src: int) -> bool:
        """Whether a force in src stands next to the hunted Caesar (it waits there until the odds
        allow the attack)."""
        goals = self.hunted() if self.hunting() else None
        return bool(goals) and any(q in goals for q in self.e.t.steps[src])

    def target_scores(self, src: int, legion: tuple, leaders: int, claimed: set[int]
                      ) -> tuple[dict[int, float | None], dict[int, float]]:
        """Each adjacent target's value (None: not worth it) and the exact win chance of the
        attacks solved. The value of an attack is its win chance times what the province is
        worth, so at most that worth (`ROUNDING` aside): an attack whose worth cannot beat a value already known
        (a later one strictly, an earlier one or its equal) is not solved, as it is not chosen."""
        e, g, p = self.e, self.g, self.p
        s, t = e.s, e.t
        scores: dict[int, float | None] = {}
        worth: dict[int, float] = {}
        for q in t.steps[src]:
            if q in claimed:
                continue
            owner = int(s.control[g, q])
            value = t.tax[q] + 5 * bool(s.city[g, q])
            enemy, them = self.defender(q)[:2]
            if enemy >= 0:
                if not sum(them):
                    scores[q] = self.k["enemy_weight"] * value + self.k["caesar_weight"] * self.caesar_of(enemy, q)
                else:
                    fortified = bool(s.fort[g, q]) and owner == enemy
                    scores[q] = None
                    worth[q] = (self.k["enemy_weight"] * value + self.k["caesar_weight"] * self.caesar_of(enemy, q)
                                + self.k["fortified_weight"] * fortified * value)
            elif owner == p:
                continue
            elif owner < 0:
                scores[q] = self.k["neutral_weight"] * value
            else:
                scores[q] = self.k["enemy_weight"] * value
        order = list(scores)
        odds: dict[int, float] = {}
        for q in sorted(worth, key=lambda r: -worth[r]):
            at, most = order.index(q), worth[q] * ROUNDING
            if worth[q] <= 0 or any(v is not None and (v >= most if i < at else v > most)
                                    for i, v in enumerate(scores.values())):
                continue
            p_win = odds[q] = self.attack_odds(legion, leaders, q)
            if p_win >= self.k["min_win"]:
                scores[q] = p_win * worth[q]
        return scores, odds

    def attack_odds(self, legion: tuple, leaders: int, q: int, budget: int | None = None) -> float:
        """The exact win chance of this force attacking the army standing in q (armies scaled as
        `_clip` says for `budget`), each side able to retreat only where the board leaves it a
        province to retreat to (COE-16.4; engine version 12: before, both sides were assumed able
        to, and a defender with nowhere to go was forecast to retreat, his province counted as
        taken)."""
        enemy, them, their_leaders, fortified = self.defender(q)
        return ODDS.solve(self.e.comp, tuple(legion), leaders, them, their_leaders, fortified, self.weights, True,
                          self.can_retreat(self.p, q), self.can_retreat(enemy, q), budget).win

    def can_retreat(self, seat: int, q: int) -> bool:
        """Whether a seat fighting in q has a province to retreat to (COE-16.4, COE-A22), on the
        board as it stands (once per phase, `phase_memo`)."""
        memo = self.phase_memo()
        found = memo.get(("retreat", seat, q))
        if found is None:
            found = memo[("retreat", seat, q)] = bool(self.e.retreat_options(self.g, seat, q))
        return found

    def defender(self, q: int) -> tuple[int, tuple, int, bool]:
        """The other seat in q (or -1), its land units and leaders there, and whether it holds q
        fortified; read once per phase (`phase_memo`)."""
        memo = self.phase_memo()
        found = memo.get(("defender", q))
        if found is None:
            e, g = self.e, self.g
            enemy = e.other_seat_at(g, self.p, q)
            if enemy < 0:
                found = (enemy, (0, 0, 0), 0, False)
            else:
                found = (enemy, tuple(e.units_at(g, enemy, q)), len(e.leaders_at(g, enemy, q)),
                         bool(e.s.fort[g, q]) and int(e.s.control[g, q]) == enemy)
            memo[("defender", q)] = found
        return found

    def hunted(self) -> set[int]:
        """Where the hunter's goal stands: the enemy Caesar with the fewest guards for his
        distance from the hunter's home (a capture takes his whole empire, COE-25.2), less
        `hunt_leader` per talent of his seat's income (engine version 18: the richer rival first,
        as a game stopped by the turn cap goes to the top income, COE-25.3, and players may band
        against the leader, COE-24); found once per phase (`phase_memo`)."""
        memo = self.phase_memo()
        if ("hunted",) in memo:
            return memo[("hunted",)]
        e, s, g = self.e, self.e.s, self.g
        home = int(s.home[g, self.p])
        dist = distances(e.t)
        rich = float(self.k["hunt_leader"])
        found = [(sum(e.units_at(g, q, int(s.ldr_loc[g, q, CAESAR]))) + 3 * dist[home][int(s.ldr_loc[g, q, CAESAR])]
                  - (rich * e.income(g, q) if rich else 0), int(s.ldr_loc[g, q, CAESAR]))
                 for q in range(int(s.n_players[g]))
                 if q != self.p and s.alive[g, q] and s.ldr_state[g, q, CAESAR] == FREE
                 and 0 <= s.ldr_loc[g, q, CAESAR] < e.t.n_prov]
        memo[("hunted",)] = {min(found)[1]} if found else set()
        return memo[("hunted",)]

    def caesar_of(self, enemy: int, q: int) -> int:
        s = self.e.s
        return int(s.ldr_state[self.g, enemy, CAESAR] == FREE and s.ldr_loc[self.g, enemy, CAESAR] == q)

    def toward(self, src: int, claimed: set[int], goals: set[int] | None) -> int | None:
        """The first step of a shortest land path to a goal (default: a province the player does
        not hold); the first step never enters enemy pieces. The way is found once per phase
        (`phase_memo`); only whether its first step is claimed is asked each time."""
        memo = self.phase_memo()
        key = ("toward", src, frozenset(goals) if goals else None)
        if key not in memo:
            memo[key] = self.first_step(src, goals)
        step = memo[key]
        return None if step in claimed else step

    def first_step(self, src: int, goals: set[int] | None) -> int | None:
        """`toward` without the claimed provinces: the first step of a shortest land path to a
        goal; the first step never enters another seat's pieces. Without goals, a goal is a
        province the player does not hold and no other seat's pieces stand in, and the way passes
        only provinces without them (an army there is fought only where `best_target` chose the
        attack). With goals (the hunted Caesar behind his guard, or home) the way may pass
        anything, but the first step must bring the force nearer to the goal. Engine version 13:
        before, an enemy army was a goal and a way too, and a force between two provinces next to
        enemy armies it would not attack stepped from one to the other and back every turn."""
        e, g, p = self.e, self.g, self.p
        s, t = e.s, e.t

        def free(r: int) -> bool:
            return self.defender(r)[0] < 0

        if goals:
            reached, passable, dist = goals.__contains__, None, distances(t)
        else:
            control = s.control[g].tolist()
            reached, passable, dist = (lambda r: control[r] != p and free(r)), free, None
        first = {q: q for q in t.steps[src] if free(q)}
        for q in first:
            if reached(q):
                return q
        todo = deque(first)
        seen = set(first) | {src}
        while todo:
            q = todo.popleft()
            for r in t.steps[q]:
                if r in seen:
                    continue
                seen.add(r)
                if reached(r):
                    if dist is None or dist[first[q]][r] < dist[src][r]:
                        return first[q]
                elif passable is None or passable(r):
                    first[r] = first[q]
                    todo.append(r)
        return None

    # ------------------------------------------------------------------ battles
    def battle_order(self, pending) -> int:
        return 0

    def fight_naval(self, zone, opponent, mine, theirs) -> NavalChoice:
        """COE-13.4: start a naval battle only when the expected worth sunk of the other side's
        galleys there (with their cargo, COE-15.5) exceeds that of one's own, on the exact odds
        (`naval.naval_stake`, each owner sinking his least valuable galleys first); the win chance
        read is logged for the player audit."""
        e, g = self.e, self.g
        stake = naval_stake([self.galley_worth(x) for x in e.galleys_at(g, self.p, zone)],
                            [self.galley_worth(x) for x in e.galleys_at(g, opponent, zone)], e.comp)
        return NavalChoice(stake.gain > NAVAL_TIE, stake.p_win)

    def galley_worth(self, galley: int) -> float:
        """COE-15.5: what sinks with a galley, in the table's weights: the galley and its land
        units at base prices (`unit_weight` a talent), each General aboard (`leader_weight`, he
        is captured) and a Caesar (`caesar_stake`: his capture ends his empire, COE-25.2)."""
        e, g = self.e, self.g
        comp = e.comp
        cargo = e.s.gal_cargo[g].reshape(-1, 3)[galley].tolist()
        talents = comp.cost("galley") + sum(n * comp.cost(u) for n, u in zip(cargo, LAND_UNITS))
        leaders = e.cargo_leaders(g, galley)
        caesars = sum(ld % LEADERS == CAESAR for ld in leaders)
        return (self.k["unit_weight"] * talents + self.k["leader_weight"] * (len(leaders) - caesars)
                + self.k["caesar_stake"] * caesars)

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
        """COE-14.5 by the optimal-retreat policy of the exact solver at the current state, each
        side able to retreat only where the board leaves it a province (COE-16.4)."""
        a, d = fight.attacker, fight.defender
        e = self.e
        found = ODDS.solve(e.comp, tuple(fight.units[a]), fight.leaders[a], tuple(fight.units[d]), fight.leaders[d],
                           fight.fortified, self.weights, True, bool(e.retreat_options(self.g, a, fight.space)),
                           bool(e.retreat_options(self.g, d, fight.space)), MAX_PAIRS)
        if not (found.defender_retreats if seat == d else found.attacker_retreats):
            return None
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
        """COE-15.3: the least valuable galleys go down first (`galley_worth`: the empty ones,
        then the lightest cargo, a Caesar's galley last), as `fight_naval`'s forecast assumes."""
        return sorted(galleys, key=self.galley_worth)[:hits]

    def raze(self, options: list[int]) -> int | None:
        """COE-19 / COE-32 phase 4: the City most likely to fall, once that exact chance reaches
        `raze_at` (razing costs 5 of income a turn; a City taken gives the taker 5 and a
        foothold). Every City weighed is logged with its chance (`city_risk`); a table that never
        razes (`raze_at` above 1) weighs none."""
        best, top = None, float(self.k["raze_at"])
        if top > 1:                          # never razes: nothing to weigh (the shipped tables)
            return None
        for q in options:
            p = self.city_risk(q)
            if p is None:
                continue
            self.e.log(self.g, "city_risk", seat=self.p, space=self.e.t.names[q], p_lost=round(p, 4))
            if p >= top:
                best, top = q, p
        return best

    def city_risk(self, q: int) -> float | None:
        """The exact chance that the strongest force one enemy seat can lead into q next turn
        (`threat`) takes it from the units and leaders standing there (COE-16); None for a City
        not weighed: the home's (where units are placed, COE-22.2), one with the Caesar (his guard
        holds it) or one no enemy can reach."""
        e, g = self.e, self.g
        if q == int(e.s.home[g, self.p]) or self.caesar_at(q):
            return None
        threat = self.threat(q)
        if not sum(threat):
            return None
        here = tuple(e.units_at(g, self.p, q))
        leaders = self.leaders_for(threat)
        if not sum(here):
            return 1.0
        return ODDS.solve(e.comp, threat, leaders, here, max(1, len(e.leaders_at(g, self.p, q))),
                          bool(e.s.fort[g, q]), self.weights, True).win

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
            if item == "road":
                found = self.shortening_road(found)
            if found and cash - prices[item] >= reserve:
                return self.place_building(found)
        galley = self.galley_wanted(options, bought)
        if galley is not None and cash - prices["galley"] >= reserve:
            return galley
        units = [b for b in options if b.item in MIX]
        if not units:
            return self.spare_building(options, cash - reserve)
        units = [b for b in units if cash - prices[b.item] >= reserve]
        if not units:
            return None
        have = self.army_mix(bought)
        total = sum(have.values()) + 1
        want = self.wanted_shares()
        return max(units, key=lambda b: (want[b.item] - have[b.item] / total, -prices[b.item]))

    def spare_building(self, options: list[Buy], spare: int) -> Buy | None:
        """With no land unit to buy (every one of the colour's supply on the board, COE-2.3, or
        none placeable, COE-22.8) the treasury buys what else serves beyond the table's shares:
        a City (its income, COE-6.2, also decides a game stopped by the turn cap, COE-25.3),
        then a Fortification (COE-14.7), then a road (COE-6.6, one that extends the home's
        network first); never a galley the table has no use for."""
        prices = self.e.prices(self.g)
        for item in ("city", "fortification", "road"):
            found = [b for b in options if b.item == item]
            if found and prices[item] <= spare:
                if item == "road":
                    found = self.shortening_road(found) or found
                return self.place_building(found)
        return None

    def wanted_shares(self) -> dict[str, float]:
        """The shares of the army that wins most for `legion_budget` talents (exact odds)."""
        e = self.e
        army = best_army(e.comp, e.opt.units_per_leader, int(self.k["legion_budget"]),
                         bool(self.k["mix_fortified"]))
        return {u: army[k] / sum(army) for k, u in enumerate(MIX)}

    def place_building(self, found: list[Buy]) -> Buy:
        """Home first, then (for a player who builds roads) a City next to the home's road
        network nearer the frontier than any of its Cities (where `shortening_road` extends it),
        then the most valuable province."""
        e = self.e
        t = e.t
        home = int(e.s.home[self.g, self.p])
        nearer: set[int] = set()
        if self.k["road_share"] > 0 and found[0].item == "city":
            net, goals, near = self.home_roads()
            nearer = {b.where for b in found
                      if any(r in net for r in t.borders[b.where]) and distance_to(t, b.where, goals) < near}
        return max(found, key=lambda b: (b.where == home if b.item != "road" else 0, b.where in nearer,
                                         t.tax[b.where] if b.item != "road" else 0, -b.where))

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
        """COE-23.1: a General held of the captor's first (it costs no talents), else a bid in
        talents while the reserve allows: `ransom_offer` for a General not bid for before, and
        `ransom_step` more than the last bid for one still held a turn after it (the captor
        refused it), up to `ransom_max`; once that was refused, no more. Amounts are in base
        talents times the price multiplier in force, since inflation makes every talent buy a half
        or a third as much (COE-21; the rules leave ransoms to the players, COE-20.2)."""
        for leader, captor in options:
            if swaps.get(captor):
                return Ransom(leader, 0, swaps[captor][0])
        turn, multiplier = int(self.e.s.turn[self.g]), int(self.e.s.multiplier[self.g])
        if self.bids_turn != turn:        # the phase's first call lists every captive: drop the freed
            held = {leader for leader, _ in options}
            self.bids, self.bids_turn = {ld: bid for ld, bid in self.bids.items() if ld in held}, turn
        for leader, _ in options:
            base = self.next_bid(leader)
            if base and treasury >= base * multiplier + self.k["reserve"]:
                self.bids[leader] = base
                return Ransom(leader, base * multiplier)
        return None

    def next_bid(self, leader: int) -> int:
        """The bid in base talents for a captive General (see `ransom`), 0 for none."""
        opening, step, most = int(self.k["ransom_offer"]), int(self.k["ransom_step"]), int(self.k["ransom_max"])
        last = self.bids.get(leader, 0)
        if last == 0:
            return opening
        return min(last + step, most) if last < most else 0

    def accept_ransom(self, leader: int, talents: int, offerer: int, swap: int) -> bool:
        """COE-23: the table's smallest ransom (in base talents times the multiplier in force, as
        `ransom`), or a General of his own back for the one held."""
        return talents >= self.k["ransom_accept"] * int(self.e.s.multiplier[self.g]) or swap != -1
