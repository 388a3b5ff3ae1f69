"""Gold, unrest and the end of a war and of the game (SOE-2.2, SOE-2.3, SOE-15 .. SOE-18): paying
with borrowing, income / upkeep / growth, region scoring, end of war and the final unrest
penalties. One of the rule-chapter parts of the Struggle of Empires `Engine`.
"""

from __future__ import annotations

import numpy as np

from sim.struggle import scoring
from sim.struggle.state import MAX_SEATS


class Economy:
    """SOE-2 payments and unrest, SOE-15 .. SOE-18."""

    def add_unrest(self, g: int, p: int, n: int) -> None:
        """SOE-2.3: unrest tokens (public event: everyone sees them taken, not the total)."""
        self.s.unrest[g, p] += n
        self.s.public_unrest[g, p] += n

    def pay(self, g: int, p: int, amount: int) -> None:
        """SOE-2.2: pay gold, borrowing 2 gold (3 with Banking, SOE-20.10) per unrest token as
        often as needed, only at the moment of paying (Example SOE-E7)."""
        s = self.s
        short = amount - int(s.gold[g, p])
        if short > 0:
            loans, step = (int(n) for n in self.loans(short, self.owns(g, p, "banking") > 0))
            s.gold[g, p] += loans * step
            self.add_unrest(g, p, loans * self.borrow[2])
            s.stats["gold_borrowed"][g, p] += loans * step
            s.stats["unrest_borrowed"][g, p] += loans * self.borrow[2]
        s.gold[g, p] -= amount

    def loans(self, short: np.ndarray, banking: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """SOE-2.2 / SOE-20.10: the loans (one unrest token each) that cover `short` gold, none
        where nothing is short, and the gold each loan gives (more with Banking): for payments
        over arrays and for the players' price of a payment."""
        step = np.where(banking, self.borrow[1], self.borrow[0])
        return np.maximum(0, -(-short // step)), step

    def income_upkeep_growth(self) -> None:
        """SOE-15 for the whole batch: income = population + markers on the map (captured ones
        excluded), upkeep 1 per unit (borrowing, Example SOE-E7), then +5 population (max 9)."""
        s = self.s
        r = self.rule
        income = (r("economy.income_per_population") * s.population
                  + r("economy.income_per_marker") * s.markers.sum(axis=2))
        s.gold += income
        upkeep = r("economy.upkeep_per_unit") * s.units.sum(axis=(2, 3))
        loans, step = self.loans(upkeep - s.gold, s.dev_owned[:, :, self.k["banking"]] > 0)
        s.gold += loans * step - upkeep
        s.unrest += loans * self.borrow[2]
        s.public_unrest += loans * self.borrow[2]
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
