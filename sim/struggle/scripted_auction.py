"""The scripted players' setup and auction decisions (SOE-3.8 placement, SOE-6 bids and
proposals), a part of `sim.struggle.scripted.ScriptedPlayer`: where to place the starting units,
how much two players compete, what a proposal of alliance rows is worth and how far to bid.
"""

from __future__ import annotations

from sim.struggle.choices import Choices
from sim.struggle.state import ARMY, FLEET, FORT, HOME, LOWER, UPPER


class ScriptedAuction:
    """SOE-3 / SOE-6 decisions of a scripted player (its valuations come from ScriptedPlayer)."""

    def place_setup_unit(self, choices: Choices) -> tuple[int, int]:
        e, g, p = self.e, self.g, self.p
        s = e.view
        units = s.units[g, p].tolist()
        placed = sum(map(sum, units))
        markers = s.markers[g, p].tolist()
        marker_val = [m * w for m, w in zip(markers, self.region_weight_list)]
        fleets_first = self.q["setup_fleets"]
        if placed < fleets_first and choices.setup_places(FLEET):
            seas = [r for r in choices.setup_places(FLEET) if r != HOME]        # VP regions only
            col = [r for r in seas if e.colonial_list[r]] or seas
            on_map = self.token_counts()[0]
            r = max(col, key=lambda r: (marker_val[r] + 0.1 * on_map[r], -r))
            return FLEET, r
        locs = [r for r in choices.setup_places(ARMY) if r != HOME]
        forts = [r for r in choices.setup_places(FORT)
                 if r != HOME and markers[r] >= 2 and units[r][FORT] == 0]
        if forts and self.q["use_forts"] and placed >= 2:
            return FORT, max(forts, key=lambda r: (marker_val[r], -r))
        ok = [r for r in locs if not e.colonial_list[r] or units[r][FLEET] > 0] or locs
        if not ok:                                    # no army left in the supply
            kind = next(k for k in (FLEET, FORT) if choices.setup_places(k))
            return kind, self.pick([r for r in choices.setup_places(kind) if r != HOME]
                                   or choices.setup_places(kind))
        neutrals = self.token_counts()[1]
        weight = self.region_weight_list
        r = max(ok, key=lambda r: (marker_val[r] + 0.2 * neutrals[r] * weight[r] - 0.5 * units[r][ARMY], -r))
        return ARMY, r

    def token_counts(self) -> tuple[list[int], list[int]]:
        """Tokens of any kind and neutral tokens on the map per region, kept while the tokens
        stay as they are (all of the setup placement, SOE-3.8)."""
        e = self.e
        key = e.view.token_state[self.g].tobytes()
        if self._token_counts is None or self._token_counts[0] != key:
            self._token_counts = (key, e.tokens_per_region(self.g).tolist(), e.neutrals_per_region(self.g).tolist())
        return self._token_counts[1:]

    def threats(self) -> dict[int, float]:
        """How much each other player competes with me: shared regions weighted by both
        sides' presence (markers plus units, by the region's first-place VP). Pieces do not
        move during the auctions, so it is computed once per war (`ScriptedWork.auction_threats`)."""
        s = self.e.view
        if self._threats is not None and self._threats[0] == (s.war, self.e.slots_played):
            return self._threats[1]
        self._threats = ((s.war, self.e.slots_played), self._threats_now())
        return self._threats[1]

    def _threats_now(self) -> dict[int, float]:
        mine = self.e.player_work.auction_threats()[self.g][self.p]
        return {q: mine[q] for q in range(self.e.n_players_list[self.g]) if q != self.p}

    def proposal_values(self, proposals, unallied, threats: dict[int, float], placed: dict[int, int]) -> list[float]:
        """Threat-weighted friends minus enemies after each proposal (`placed`: rows so far),
        summed over the placed players in seat order, then the proposed ones."""
        me = self.p

        def placed_sum(my_row: int) -> float:
            total = 0
            for q, r in placed.items():
                if q != me:
                    total += (1 if r == my_row else -1) * threats[q]
            return total

        prefix = {row: placed_sum(row) for row in (UPPER, LOWER)}
        single = len(unallied) == 1
        out = []
        for a, b in proposals:
            new = ((a, b),) if single else ((a, UPPER), (b, LOWER))        # (seat, row) in order
            my_row = placed.get(me)
            if my_row is None:
                my_row = next((r for q, r in new if q == me), None)
            if my_row is None:
                out.append(0.0)
                continue
            total = prefix[my_row]
            for q, r in new:
                if q != me:
                    total += (1 if r == my_row else -1) * threats[q]
            out.append(total)
        return out

    def bid(self, current, proposal, unallied):
        """SOE-23.4: propose the best placement for me; outbid while its gain over the current
        proposal pays for the price. The best proposal is kept for the whole auction (the same
        unallied players and rows); only the current proposal is valued at each bid."""
        e = self.e
        rows = e.view.row[self.g, : e.n_players_list[self.g]].tolist()
        key = (e.view.war, e.slots_played, tuple(unallied), tuple(rows))
        if self._best_proposal is None or self._best_proposal[0] != key:
            if len(unallied) == 1:
                cands = [(unallied[0], UPPER), (unallied[0], LOWER)]
            else:
                cands = [(a, b) for a in unallied for b in unallied if a != b]
            placed = {q: r for q, r in enumerate(rows) if r >= 0}
            values = self.proposal_values(cands, unallied, self.threats(), placed)
            i = values.index(max(values))
            self._best_proposal = (key, cands[i], values[i], placed)
        _, best, best_value, placed = self._best_proposal
        if current is None:
            return 0, best
        gain = best_value - self.proposal_values([proposal], unallied, self.threats(), placed)[0]
        price = current + 1
        if gain > self.q["bid_gain_per_gold"] * price and price <= self.q["max_bid"] \
                and self.unrest_of(self.p) < self.unrest_budget():
            return price, best
        return None, None
