"""AOD-5 placement (step A) and the University move (AOD-14.2 II-6, AOD-18.24), as a part of the
Engine."""

from __future__ import annotations

from sim.discovery.actions import Place, UseUniversity
from sim.discovery.state import BOXES, CAPITAL, DISCOVERY, DOCK, INITIATIVE, TRADE, TRAIN, UNITS, WARFARE

PLACES = tuple(tuple(Place(u, b) for b in range(len(BOXES))) for u in range(UNITS))
UNIVERSITY_TRACKS = (("initiative", INITIATIVE), ("dock", DOCK), ("capital", CAPITAL))


class Placement:
    """Step A: one unit per turn in turn order until every pool is empty (AOD-5.1 - AOD-5.3)."""

    def placement(self, g: int) -> None:
        s = self.s.games[g]
        pools = s.pool
        while True:
            placed = False
            for p in s.order:
                if not any(pools[p]):
                    continue
                choices = self.placements(g, p)
                iv = self.interventions[g][p]
                if iv.force is not None or iv.ban:
                    choices = self.forced_or(g, p, choices, self.place_acquires(g, p))
                action = self.ask(g, p, "place", choices)
                s.pool[p][action.unit] -= 1
                if action.box == DISCOVERY:          # joins the group kept across rounds (AOD-6.6.3)
                    s.discovery_box[p][action.unit] += 1
                else:
                    s.boxes[action.box].append((p, action.unit))
                if self.logging:
                    self.log(g, "place", seat=p, unit=action.unit, box=BOXES[action.box],
                             space=len(s.boxes[action.box]) if action.box != DISCOVERY else 0)
                if self.on_step is not None:
                    self.step(g, "place")
                placed = True
            if not placed:
                break
        if self.opts["university_moment"] == "after_placement":
            self.university(g)

    def capacity(self, g: int, box: int) -> int:
        """AOD-5.5 / AOD-5.6 / AOD-19.8: spaces of a box (a large number where unlimited)."""
        s, b = self.s.games[g], self.rules["boxes"]
        if box == INITIATIVE:
            return s.n
        if box == DOCK:
            return int(b["dock_spaces_per_player"]) * s.n - 1          # AOD-3.10: 2N - 1
        if box in TRAIN:
            return 1
        limit = {TRADE: b["trade_goods"], CAPITAL: b["capital_buildings"], WARFARE: b["warfare"]}.get(box, 0)
        return int(limit) or 1_000_000

    def placements(self, g: int, p: int) -> list[Place]:
        """AOD-5.5: every (unit type in the pool, box with room) pair; Initiative takes at most one
        unit per player; Merchant Shipping and Discovery always have room (AOD-5.7)."""
        s = self.s.games[g]
        if len(self.capacities) <= g:
            self.capacities += [None] * (g + 1 - len(self.capacities))
        caps = self.capacities[g]
        if caps is None:
            caps = self.capacities[g] = [self.capacity(g, b) for b in range(len(BOXES))]
        open_boxes = [b for b, box in enumerate(s.boxes) if len(box) < caps[b]]
        if INITIATIVE in open_boxes and any(q == p for q, _ in s.boxes[INITIATIVE]):
            open_boxes.remove(INITIATIVE)
        return [PLACES[u][b] for u, left in enumerate(s.pool[p]) if left for b in open_boxes]

    def place_acquires(self, g: int, p: int):
        """Interventions: placing a unit in Capital Buildings is what acquires a building, so it
        acquires the forced one while that is displayed, affordable and the seat has no unit in
        the box yet (the purchase itself is forced at resolution, buildings.py)."""
        s = self.s.games[g]
        force = self.interventions[g][p].force
        held = any(q == p for q, _ in s.boxes[CAPITAL])
        wanted = (force is not None and not held and s.money[p] >= self.building_cost(s)
                  and any(self.tile_key(k) == force for k in s.display))
        return lambda place: force if wanted and place.box == CAPITAL else None

    def forced_or(self, g: int, p: int, choices: list, acquires) -> list:
        """The choices a force intervention imposes (sim.core.interventions), else all of them
        less the banned ones."""
        iv = self.interventions[g][p]
        forced = iv.forced(choices, acquires, self.acquired(g, p))
        return forced or iv.allowed(choices, acquires)

    def university(self, g: int) -> None:
        """AOD-18.24: the University owner may, once, move an own unit to the first position of
        Initiative, the Colonist Dock, Capital Buildings or the Turn Order; the others shift back.
        ASSUMED: offered once a round, between placement and resolution (options.university_moment)."""
        s = self.s.games[g]
        for p in list(s.order):
            if s.university_used[p] or "university" not in self.acquired(g, p):
                continue
            choices: list[UseUniversity | None] = [None]
            for name, b in UNIVERSITY_TRACKS:
                choices += [UseUniversity(name, i) for i, (q, _) in enumerate(s.boxes[b]) if q == p and i > 0]
            if s.order[0] != p:
                choices.append(UseUniversity("turn_order", 0))
            move = self.ask(g, p, "university", choices)
            if move is None:
                self.log(g, "university", seat=p, track=None, space=0)
                continue
            s.university_used[p] = True
            if move.track == "turn_order":
                s.order.remove(p)
                s.order.insert(0, p)
            else:
                box = s.boxes[dict(UNIVERSITY_TRACKS)[move.track]]
                box.insert(0, box.pop(move.index))
            self.log(g, "university", seat=p, track=move.track, space=move.index + 1)
            self.step(g, "university")
