"""Phases 3 and 4 of a turn: tax collection (COE-18) and razing Cities (COE-19). A part of
`sim.conquest.engine.Engine`."""

from __future__ import annotations

MAX_RAZES = 16         # COE-2.4: there are only 16 Cities


class Taxes:
    """COE-18 / COE-19."""

    def collect_tax(self, g: int, p: int) -> None:
        """COE-18.1 / COE-A10: only the active player collects his income."""
        s = self.s
        income = self.income(g, p)
        s.treasury[g, p] += income
        s.stats["max_income"][g, p] = max(int(s.stats["max_income"][g, p]), income)
        self.note_treasury(g, p)
        self.log(g, "tax", seat=p, talents=income, treasury=int(s.treasury[g, p]))

    def raze_options(self, g: int, p: int) -> list[int]:
        """COE-19.1: the mover's own Cities."""
        s = self.s
        return [q for q in range(self.t.n_prov) if s.city[g, q] and s.control[g, q] == p]

    def razing_phase(self, g: int, p: int) -> None:
        """COE-19: raze Cities one by one until the player stops."""
        player = self.players[g][p]
        for _ in range(MAX_RAZES):
            options = self.raze_options(g, p)
            if not options:
                return
            q = player.raze(options)
            if q is None:
                return
            self.require(q in options, "{} is not a City of the mover", q)
            self.raze(g, p, q)

    def raze(self, g: int, p: int, q: int) -> None:
        """COE-19.2-19.5: the City and its Fortification go back to the pool with every road
        leading to it; the income falls by 5."""
        s, t = self.s, self.t
        s.city[g, q] = s.fort[g, q] = False
        for e in t.edges_at[q]:
            s.road[g, e] = False
        s.stats["cities_razed"][g, p] += 1
        self.log(g, "raze", seat=p, space=t.names[q])
