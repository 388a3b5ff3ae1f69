"""Galleys and roads in the scripted players' plans (COE-6.6, COE-12, COE-22, COE-32), a part of
`sim.conquest.scripted.ScriptedPlayer`: a legion shipped to a province only the sea reaches, or
across the sea towards the hunted Caesar, and the galley that ships it; roads that extend the
home's network towards the frontier; road trips that get nearer the goal than a step."""

from __future__ import annotations

from sim.conquest.actions import Board, Buy, Sail
from sim.conquest.choices import Choices
from sim.conquest.legion import keep, take
from sim.conquest.routes import crossings, distance_to, sea_only


class RoutePlans:
    """The sea and road parts of a scripted player's plans (mixed into `ScriptedPlayer`)."""

    def island_targets(self, src: int, claimed: set[int]) -> dict[int, int]:
        """COE-12 / COE-32: provinces only the sea reaches (`routes.sea_only`), one crossing from
        src, that the player does not hold and no other seat stands in -- each with its zone."""
        e, g = self.e, self.g
        t = e.t
        islands = sea_only(t)
        return {q: z for q, z in crossings(t)[src].items()
                if q in islands and q not in claimed and int(e.s.control[g, q]) != self.p
                and self.defender(q)[0] < 0}

    def ferry(self, ch: Choices, src: int, general: int, avail: list[int], claimed: set[int]) -> list:
        """COE-12.5 / COE-12.6: a General boards an empty galley of his beached in src with
        `ferry_units` units (infantry first), puts to sea and lands on the most valuable province
        only the sea reaches, all in one turn (COE-A14); [] when there is none or no galley."""
        if not self.k["galleys"] or not self.k["ferry_units"]:
            return []
        e, g = self.e, self.g
        s, t = e.s, e.t
        galley = self.beached_galley(ch, src)
        if galley is None:
            return []
        targets = self.island_targets(src, claimed)
        if not targets:
            return []
        own = self.boarders(src, galley, avail)
        if not sum(own):
            return []
        dst = max(targets, key=lambda q: (t.tax[q] + 5 * bool(s.city[g, q]), -q))
        legion = keep(own, min(sum(own), int(self.k["ferry_units"]), t.capacity))
        claimed.add(dst)
        return [Board(galley, (general,), legion), Sail(galley, targets[dst]), Sail(galley, dst, True)]

    def sea_march(self, ch: Choices, src: int, general: int, avail: list[int], claimed: set[int]) -> list:
        """COE-12.5 / COE-12.6 / COE-32: a hunting General (`sea_march`) with nothing worth
        attacking in reach boards an empty galley of his beached in src with a legion (up to 7
        units, catapults and cavalry first) and crosses to the landing `sea_landing` finds nearer
        the hunted Caesar, all in one turn (COE-A14); [] when there is none or no galley."""
        if not self.k["galleys"] or not self.k["sea_march"] or not self.hunting():
            return []
        galley = self.beached_galley(ch, src)
        if galley is None:
            return []
        landing = self.sea_landing(src, claimed)
        if landing is None:
            return []
        own = self.boarders(src, galley, avail)
        legion = take(own, min(sum(own), self.e.t.capacity))
        if not sum(legion) or self.worth_attacking(src, legion, claimed):
            return []
        dst, zone = landing
        claimed.add(dst)
        return [Board(galley, (general,), legion), Sail(galley, zone), Sail(galley, dst, True)]

    def sea_landing(self, src: int, claimed: set[int]) -> tuple[int, int] | None:
        """COE-12.2 / COE-12.6: the province one crossing from src (with its zone) nearest the
        hunted Caesar by land, no other seat's pieces in it, when it lies at least `sea_march`
        + 1 land steps nearer him than src (the crossing takes the turn a step would); None when
        none does."""
        t = self.e.t
        goals = self.hunted()
        if not goals:
            return None
        near = distance_to(t, src, goals) - self.k["sea_march"]
        best = None
        for r, zone in crossings(t)[src].items():
            d = distance_to(t, r, goals)
            if d < near and r not in claimed and self.defender(r)[0] < 0 and (best is None or (d, r) < best[0]):
                best = (d, r), (r, zone)
        return best[1] if best else None

    def worth_attacking(self, src: int, legion: tuple, claimed: set[int]) -> bool:
        """Whether a target next to src is worth this legion's attack (`target_scores`)."""
        scores, _ = self.target_scores(src, legion, 1, claimed)
        return any(v is not None and v > 0 for v in scores.values())

    def beached_galley(self, ch: Choices, src: int) -> int | None:
        """An empty galley of the player's beached in src with the 2 MP of a crossing (COE-12.2)."""
        s, g = self.e.s, self.g
        return next((x for x in ch.galleys if ch.galley_space(x) == src and s.gal_mp[g].reshape(-1)[x] >= 2
                     and not s.gal_cargo[g].reshape(-1, 3)[x].any()), None)

    def boarders(self, src: int, galley: int, avail: list[int]) -> list[int]:
        """The available units in src that may board the galley: its own colour's (COE-2.4),
        none that left a galley this turn (COE-12.6)."""
        s, g = self.e.s, self.g
        colour = galley // s.gal_loc.shape[2]
        return [min(a, int(x)) for a, x in zip(avail, s.land[g, colour, src] - s.landed[g, colour, src])]

    def hunting(self) -> bool:
        """Whether the table hunts the enemy Caesars this round (from round `hunt`, 0: never)."""
        return bool(self.k["hunt"]) and int(self.e.s.round[self.g]) >= self.k["hunt"]

    def galleys_home(self, ch: Choices) -> list[Sail]:
        """An empty galley beached away from the player's galley docks sails back to one it
        reaches in one turn (COE-12.2), to ship the next legion."""
        if not self.k["galleys"]:
            return []
        e, g = self.e, self.g
        s, t = e.s, e.t
        docks = e.docks(g, self.p)
        out = []
        for galley in ch.galleys:
            q = ch.galley_space(galley)
            if (q >= t.n_prov or q in docks or s.gal_mp[g].reshape(-1)[galley] < 2
                    or s.gal_cargo[g].reshape(-1, 3)[galley].any()):
                continue
            home = next((d for d in docks if d in crossings(t)[q]), None)
            if home is not None:
                out += [Sail(galley, crossings(t)[q][home]), Sail(galley, home)]
        return out

    def road_trip(self, ch: Choices, src: int, dst: int) -> int | None:
        """COE-6.6: the City a road trip from src reaches that lies nearer the march's goal (the
        hunted Caesar or, by default, a province the player does not hold) than the step to dst,
        and holds no other seat's pieces; None when the step is as good."""
        e, g = self.e, self.g
        s, t = e.s, e.t
        if not s.city[g, src]:
            return None
        net = ch.road_targets(src, False)
        if not net:
            return None
        goals = (self.hunted() if self.hunting() else None) or [q for q in range(t.n_prov) if s.control[g, q] != self.p]
        best, best_dist = None, distance_to(t, dst, goals)
        for r in sorted(net):
            d = distance_to(t, r, goals)
            if d < best_dist and self.defender(r)[0] < 0:
                best, best_dist = r, d
        return best

    def shortening_road(self, found: list[Buy]) -> list[Buy]:
        """COE-6.6 / COE-22.6: of the roads offered, the one that extends the home's road network
        (from home, where units are placed) to the City nearest the frontier (the provinces not
        held), nearer than any City of the network: road by road the network grows towards the
        frontier and a road trip (1 MP) covers more and more of the march; [] when none does."""
        t = self.e.t
        net, goals, near = self.home_roads()
        best = None
        for b in found:
            a, c = t.edges[b.where]
            if (a in net) == (c in net):
                continue
            gain = near - distance_to(t, c if a in net else a, goals)
            if gain > 0 and (best is None or (gain, -b.where) > best[0]):
                best = (gain, -b.where), b
        return [best[1]] if best else []

    def home_roads(self) -> tuple[set[int], list[int], int]:
        """The home's road network (COE-6.6: home and the Cities a road trip from home reaches),
        the provinces not held (the march's goals) and the steps from the network's City
        nearest them."""
        e, g = self.e, self.g
        s, t = e.s, e.t
        home = int(s.home[g, self.p])
        goals = [q for q in range(t.n_prov) if s.control[g, q] != self.p]
        net = {home, *e.road_network(g, self.p, home)}
        return net, goals, min(distance_to(t, c, goals) for c in net)

    def galley_wanted(self, options: list[Buy], bought: list[Buy]) -> Buy | None:
        """COE-20 / COE-22.3: a galley (at most `galleys` of the player's on the board) at a dock
        from which a province only the sea reaches lies one crossing away (`ferry`), or, while
        hunting, a landing nearer the hunted Caesar (`sea_march`)."""
        if not self.k["galleys"]:
            return None
        e, g = self.e, self.g
        owned = sum(x >= 0 for c in e.colours_of[g][self.p] for x in e.s.gal_loc[g, c].tolist())
        if owned + sum(b.item == "galley" for b in bought) >= self.k["galleys"]:
            return None
        marching = self.k["sea_march"] and self.hunting()
        return next((b for b in options if b.item == "galley"
                     and ((self.k["ferry_units"] and self.island_targets(b.where, set()))
                          or (marching and self.sea_landing(b.where, set()) is not None))), None)
