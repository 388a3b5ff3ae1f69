"""Tiles: buying them (SOE-8), using them (SOE-19, SOE-20) and the free actions of the turn
(SOE-7.3: companies SOE-21, Improved Agriculture, Diplomatic Service, Blockade (a)). One of the
rule-chapter parts of the Struggle of Empires `Engine`.
"""

from __future__ import annotations

import numpy as np

from sim.core.lockstep import RuleViolation
from sim.struggle.actions import Buy
from sim.struggle.battle import Attack
from sim.struggle.choices import Choices
from sim.struggle.state import FLEET

NON_STACKING = ("banking", "navigation", "militia")   # SOE-A16: a second copy changes nothing (the engine's reading)


class Tiles:
    """SOE-8 buy, SOE-19 / SOE-20 tile use, SOE-21 companies."""

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
        intervention = self.interventions[g][p]
        return intervention.allowed(out, self.asset_of) if intervention.ban else out

    def asset_of(self, choice: tuple[str, int]) -> str:
        """The asset key a Buy choice ("dev" | "alliance" | "company", index) acquires."""
        return self.t.assets[self.t.asset_offset[choice[0]] + choice[1]]

    def forced_buy(self, g: int, p: int, choices: Choices) -> Buy | None:
        """The Buy action a force intervention imposes now (sim.core.interventions): the forced
        tile at the seat's first turn it is legal to take; a raid tile attacks the most markers."""
        intervention = self.interventions[g][p]
        force = intervention.force
        if force is None or self.s.acquired[g, p, self.t.assets.index(force)]:
            return None
        forced = intervention.forced(choices.tiles, self.asset_of)
        if not forced:
            return None
        what, i = forced[0]
        name = self.t.dev[i] if what == "dev" else None
        if name in ("pirates", "slave_revolt"):
            r, q = max(self.raid_targets(g, p, name), key=lambda rq: int(self.s.markers[g, rq[1], rq[0]]))
            return Buy(what, i, (r, q))
        return Buy(what, i)

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
        s.acquired[g, p, t.asset_offset[what] + i] = True
        if what == "alliance":
            self._take_alliance(g, p, i, "buy")
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
            s.public_unrest[g, p] = max(0, int(s.public_unrest[g, p]) - self.rule("economy.reform_unrest"))
        elif name == "industry":
            s.vp[g, p] += self.rule("economy.industry_vp")
        elif name in ("pirates", "slave_revolt"):
            r, q = args if args else self.raid_targets(g, p, name)[0]
            return self.declare_raid(g, p, name, r, q)
        else:
            s.dev_owned[g, p, i] += 1
        return None

    def _take_alliance(self, g: int, p: int, i: int, event: str) -> None:
        """SOE-22: pay for alliance tile i and own it for the war; logged as `event` (a Buy
        action, or Diplomatic Service's free action)."""
        self.pay(g, p, int(self.t.alliance_gold[i]))
        self.s.alliance_owner[g, i] = p
        self.log(g, event, seat=p, tile=self.t.alliance[i])

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

    def diplomacy_options(self, g: int, p: int) -> list[int]:
        """SOE-20.12: the alliance tiles Diplomatic Service may take now (on the display and not
        banned by an intervention); none without a usable tile."""
        if not self.can_use(g, p, "diplomatic_service"):
            return []
        free = [i for i, owner in enumerate(self.s.alliance_owner[g].tolist()) if owner < 0]
        intervention = self.interventions[g][p]
        if intervention.ban:
            free = [i for i in free if self.asset_of(("alliance", i)) not in intervention.ban]
        return free

    def use_diplomacy(self, g: int, p: int, i: int) -> None:
        """SOE-20.12: once per war, take an alliance tile as a free action (paying its cost); it
        counts as an acquired asset of the seat."""
        if i not in self.diplomacy_options(g, p):
            raise RuleViolation("Diplomatic Service not usable for this tile")
        self.turn_tile(g, p, "diplomatic_service")
        self.s.acquired[g, p, self.t.asset_offset["alliance"] + i] = True
        self._take_alliance(g, p, i, "diplomacy")

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


def _indices(n: int, only: tuple[str, int] | None) -> range | tuple[int, ...]:
    """All indices 0..n-1, or just `only`'s index when it is one of them."""
    if only is None:
        return range(n)
    return (only[1],) if isinstance(only[1], (int, np.integer)) and 0 <= only[1] < n else ()
