"""Setup, new tokens and the alliance auction (SOE-3, SOE-5, SOE-6) of the Struggle of Empires
engine: everything before the first action of a war. One of the rule-chapter parts of `Engine`.
"""

from __future__ import annotations

import numpy as np

from sim.core.lockstep import RuleViolation
from sim.core.random import stream
from sim.struggle.choices import Choices
from sim.struggle.state import ARMY, FLEET, FORT, IN_BAG, IN_BOX, LOWER, MAX_SEATS, ON_MAP, UNIT_NAMES, UPPER


class Auction:
    """SOE-3 setup, SOE-5 token draws, SOE-6 auctions."""

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
                self._grant(g, p, self.interventions[g][p].grants)
            if self.logs is not None:
                self.log(g, "setup", tokens_on_map=[self.token_name(k) for k in order[:n_map]],
                         markers={self.power_name(g, p): self.marker_list(g, p) for p in s.seats(g)})
        units = self.rule("start.units")
        for _ in range(units):
            for p in range(MAX_SEATS):
                for g in range(s.n):
                    if p < self.n_players_list[g] and any(self.setup_locations(g, p, k) for k in (ARMY, FLEET, FORT)):
                        kind, r = self.players[g][p].place_setup_unit(Choices(self, g, p))
                        self.decisions += 1
                        self._place_setup(g, p, kind, r)

    def _grant(self, g: int, p: int, grants: dict[str, int]) -> None:
        """Start resources of an intervened seat (sim.core.interventions): more gold, more
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
