"""AOD-9 warfare (box 8 of the resolution), as a part of the Engine: the declarations, and each
fight through the kernel's rules (sim.discovery.warfare: which regions fight, how many kills),
with the victims picked by each soldier's owner (AOD-9.4, AOD-18.29)."""

from __future__ import annotations

from sim.discovery.actions import Battle, War
from sim.discovery.choices import VictimChoices
from sim.discovery.state import UNITS, WARFARE
from sim.discovery.warfare import fights_here, kill_counts


class Conflicts:
    """Box 8: one conflict per unit, in space order (AOD-6.8.1)."""

    def resolve_warfare(self, g: int) -> None:
        s = self.s.games[g]
        for p, _ in s.boxes[WARFARE]:
            choices = self.conflicts(g, p)
            if not choices:
                continue
            action = self.ask(g, p, "conflict", choices)
            if action is None:
                self.log(g, "conflict", seat=p, kind=None)
                continue
            if isinstance(action, War):
                s.money[p] -= self.comp.warfare.war_cost
                s.stats["wars"][p] += 1
                regions = self.war_regions(g, p, action.opponent)
            else:
                s.money[p] -= self.comp.warfare.battle_cost
                s.stats["battles"][p] += 1
                regions = [action.region]
            self.log(g, "conflict", seat=p, kind="war" if isinstance(action, War) else "battle",
                     opponent=action.opponent, regions=[self.comp.regions[r].id for r in regions])
            for r in regions:
                self.fight(g, p, action.opponent, r)
            self.step(g, "conflict")

    def conflicts(self, g: int, p: int) -> list[Battle | War | None]:
        """AOD-9.2 / AOD-9.3 / AOD-18.27: the battles (a region where the fight happens, see
        `fights_here`), the wars p can pay for that fight somewhere (a war with no region to
        fight is not offered: it would only cost money), and declining (`None`) where allowed."""
        s, rules = self.s.games[g], self.comp.warfare
        out: list[Battle | War | None] = []
        for q in range(s.n):
            if q == p:
                continue
            militia = self.has_militia(g, q)
            out += [Battle(q, r) for r in range(len(s.world)) if s.discovered[r]
                    and fights_here("battle", s.world[r][p], s.world[r][q], rules, militia)]
            if s.money[p] >= rules.war_cost and self.war_regions(g, p, q):
                out.append(War(q))
        if self.opts["conflict_may_decline"] or not out:
            out.insert(0, None)
        return out

    def has_militia(self, g: int, q: int) -> bool:
        return "militia" in self.acquired(g, q)

    def war_regions(self, g: int, p: int, q: int) -> list[int]:
        """AOD-9.3 / AOD-18.28: every region where both have a unit and either has a soldier."""
        s = self.s.games[g]
        militia = self.has_militia(g, q)
        return [r for r in range(len(s.world))
                if fights_here("war", s.world[r][p], s.world[r][q], self.comp.warfare, militia)]

    def fight(self, g: int, p: int, q: int, r: int) -> None:
        """AOD-9.4 / AOD-9.6: each side's soldiers kill one enemy unit each, victims chosen by
        their owner, removal simultaneous; the defender's Militia soldier fights and leaves (the
        attacker never wastes a kill on it, Example AOD-E13)."""
        s = self.s.games[g]
        mine, theirs = s.world[r][p], s.world[r][q]
        by_p, by_q = kill_counts(mine, theirs, self.comp.warfare, self.has_militia(g, q))
        lose_q = self.ask(g, p, "victims", VictimChoices(by_p, tuple(theirs)), r, q) if by_p else (0,) * UNITS
        lose_p = self.ask(g, q, "victims", VictimChoices(by_q, tuple(mine)), r, p) if by_q else (0,) * UNITS
        for u in range(UNITS):
            mine[u] -= lose_p[u]
            theirs[u] -= lose_q[u]
            s.out[p][u] -= lose_p[u]
            s.out[q][u] -= lose_q[u]
        s.stats["units_killed"][p] += by_p
        s.stats["units_killed"][q] += by_q
        s.stats["units_lost"][p] += by_q
        s.stats["units_lost"][q] += by_p
        self.log(g, "fight", region=self.comp.regions[r].id, attacker=p, defender=q,
                 attacker_losses=list(lose_p), defender_losses=list(lose_q))
