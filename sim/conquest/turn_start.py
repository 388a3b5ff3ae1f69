"""The start of a player's turn under two COE-30 alternatives: the captor's later kill of a
General he holds (`captive_decision = "any_time"`, COE-A25) and surrender (`allow_surrender`,
COE-A41). A part of `sim.conquest.engine.Engine`; with the recommended readings nothing happens
here, so default games are unchanged.
"""

from __future__ import annotations

import numpy as np

from sim.conquest.state import CAESAR, CAPTIVE, GONE, LEADERS, NEUTRAL


class TurnStart:
    """COE-A25 / COE-A41 (see the module docstring)."""

    def turn_start(self, g: int, p: int) -> None:
        """Before phase 1: executions first (a surrendering captor's prisoners pass with him)."""
        if self.opt.captive_decision == "any_time":
            self.executions(g, p)
        if self.opt.allow_surrender:
            self.offer_surrender(g, p)

    def held_by(self, g: int, p: int) -> list[int]:
        """The Generals seat p holds captive (COE-5.5); held Caesars never wait (COE-25.2)."""
        s = self.s
        c, i = np.nonzero((s.ldr_state[g] == CAPTIVE) & (s.ldr_holder[g] == p))
        return [int(a) * LEADERS + int(b) for a, b in zip(c.tolist(), i.tolist()) if b != CAESAR]

    def executions(self, g: int, p: int) -> None:
        """COE-A25 alternative: the captor may kill Generals he chose to hold; they leave the game."""
        held = self.held_by(g, p)
        if not held:
            return
        killed = [int(ld) for ld in self.players[g][p].execute_captives(list(held))]
        self.require(len(set(killed)) == len(killed) and set(killed) <= set(held),
                     "execute {}: choose among the held Generals {}", killed, held)
        for ld in killed:
            c, i = divmod(ld, LEADERS)
            self.s.ldr_state[g, c, i], self.s.ldr_holder[g, c, i] = GONE, -1
            self.log(g, "execution", seat=p, leader=ld)

    def offer_surrender(self, g: int, p: int) -> None:
        """COE-A41: the seat may give up, eliminated as if captured; its empire goes to the seat
        it names (COE-25.2) or, for NEUTRAL, leaves the board (as in COE-A21)."""
        s = self.s
        n = int(s.n_players[g])
        options = [q for q in range(n) if q != p and s.alive[g, q]] + [NEUTRAL]
        to = self.players[g][p].surrender(list(options))
        if to is None:
            return
        self.require(to in options, "surrender to {}: choose one of {} or fight on", to, options)
        self.log(g, "surrender", seat=p, to=int(to))
        s.ldr_state[g, p, CAESAR], s.ldr_loc[g, p, CAESAR], s.ldr_ship[g, p, CAESAR] = GONE, -1, -1
        self.eliminate(g, p, None if to == NEUTRAL else int(to))
