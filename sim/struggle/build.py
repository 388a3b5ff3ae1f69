"""The Build and Colonise actions (SOE-9, SOE-13) of the Struggle of Empires engine, with the
free-build tiles (Mercenaries, Pressgangs, Trained Natives, Militia: SOE-20.5..20.8) and
destroy-and-rebuild (SOE-9.5, SOE-A14). One of the rule-chapter parts of `Engine`.
"""

from __future__ import annotations

from sim.core.lockstep import RuleViolation
from sim.struggle.state import ARMY, FLEET, FORT, HOME, IN_BOX, N_REGIONS, ON_MAP, POP, UNIT_NAMES


class Building:
    """SOE-9 build, SOE-13 colonise / enslave."""

    def build_options(self, g: int, p: int) -> list[tuple[int, str | None]]:
        """SOE-9.1/9.5, SOE-20.5..20.7: (unit kind, free tile or None) that `p` may build now.
        A kind whose pieces are all on the map needs destroy-and-rebuild (a unit of it exists);
        without population only a free rebuild builds (option `rebuild_pays_population`)."""
        s, k = self.s, self.k
        own, used = s.dev_owned[g, p].tolist(), s.dev_used[g, p].tolist()
        paid = s.population[g, p] >= self.build_pop
        free_rebuild = not paid and not self.opt("rebuild_pays_population")
        out = []
        for kind in (ARMY, FLEET, FORT):
            if self.limits[kind] <= 0 and self.pieces_on_map(g, p, kind) == 0:      # no piece at all
                continue
            if paid or (free_rebuild and self.rebuild_sources(g, p, kind)):
                out.append((kind, None))
            if kind == ARMY:
                if own[k["mercenaries"]] > used[k["mercenaries"]]:
                    out.append((kind, "mercenaries"))
                if own[k["trained_natives"]] and self.trained_natives_ok(g, p) and self.trained_natives_regions(g, p):
                    out.append((kind, "trained_natives"))
            elif kind == FLEET and own[k["pressgangs"]] > used[k["pressgangs"]]:
                out.append((kind, "pressgangs"))
        return out

    def rebuild_sources(self, g: int, p: int, kind: int) -> list[tuple[int, int]]:
        """SOE-9.5 / SOE-A14: (location, unit kind) of the own units `p` may destroy to build a
        unit of `kind`. Recommended reading: at any time, a unit of the same kind; options
        `rebuild_any_time` (false: only with every piece of the kind on the map) and
        `rebuild_same_type` (false: a unit of any kind, unless the kind has no piece left)."""
        full = self.pieces_on_map(g, p, kind) >= self.limits[kind]
        if not full and not self.opt("rebuild_any_time"):
            return []
        kinds = (kind,) if full or self.opt("rebuild_same_type") else (ARMY, FLEET, FORT)
        units = self.s.units[g, p].tolist()
        return [(loc, k) for k in kinds for loc in range(N_REGIONS + 1) if units[loc][k] > 0]

    def trained_natives_ok(self, g: int, p: int) -> bool:
        if not self.owns(g, p, "trained_natives"):
            return False
        return self.can_use(g, p, "trained_natives") or not self.opt("trained_natives_once_per_war")

    def trained_natives_regions(self, g: int, p: int) -> list[int]:
        """SOE-20.7: colonial regions where `p` has a control marker or a unit."""
        s = self.s
        mine, units = s.markers[g, p].tolist(), s.units[g, p].tolist()
        out = []
        for r in self.colonial_regions:
            if mine[r] > 0 or sum(units[r]) > 0:
                bo = s.blockade_owner[g]
                if (self.opt("blockade_stops_trained_natives") and s.blockade_region[g] == r and bo >= 0
                        and self.enemy(g, p, bo) and units[r][FLEET] <= s.units[g, bo, r, FLEET]):
                    continue
                out.append(r)
        return out

    def build(self, g: int, p: int, kind: int, tile: str | None = None, dst: int | None = None,
              destroy_at: int | None = None, militia_dst: int | None = "none", then: int | None = None,
              destroy_kind: int | None = None) -> None:
        """SOE-9: build one unit at home for 1 population (or free with Mercenaries / Pressgangs /
        Trained Natives, SOE-20.5..20.7), then an optional free move (a fort moves as an army,
        SOE-9.3). Destroy-and-rebuild (SOE-9.5): destroy an own unit at `destroy_at` (of kind
        `destroy_kind`, default the kind built) for +1 unrest first -- required when every piece
        of the kind is on the map; when else and of which kind per `rebuild_sources`; it pays
        the normal population unless `rebuild_pays_population` is false (SOE-A14). Militia
        (SOE-20.8): an extra army for its population when no free tile is used (`militia_dst`
        not "none": build it, moving it there if not None). A Trained Natives army still has
        its free build move (`then`, with a sea roll)."""
        s = self.s
        if (kind, tile) not in self.build_options(g, p):
            raise RuleViolation(f"game {g}: seat {p} may not build {UNIT_NAMES[kind]} with {tile}")
        full = self.pieces_on_map(g, p, kind) >= self.limits[kind]
        rebuild = full or destroy_at is not None
        if rebuild:
            lost = kind if destroy_kind is None else destroy_kind
            if destroy_at is None:
                raise RuleViolation("all pieces on the map: name a unit to destroy (SOE-9.5)")
            if (destroy_at, lost) not in self.rebuild_sources(g, p, kind):
                raise RuleViolation(f"game {g}: seat {p} may not destroy a {UNIT_NAMES[lost]} at {destroy_at} to build "
                                    f"a {UNIT_NAMES[kind]} (SOE-9.5, SOE-A14 options)")
            s.units[g, p, destroy_at, lost] -= 1
            if lost == FORT and destroy_at == HOME:          # a fort that may not move goes first (SOE-9.4)
                s.forts_returned[g, p] = min(int(s.forts_returned[g, p]), int(s.units[g, p, HOME, FORT]))
            self.add_unrest(g, p, self.rule("economy.rebuild_unrest"))
            self._check_blockade(g)
            self.log(g, "destroy", seat=p, unit=UNIT_NAMES[lost], region=self.loc_name(destroy_at))
        if tile is None:
            if not rebuild or self.opt("rebuild_pays_population"):
                if s.population[g, p] < self.build_pop:
                    raise RuleViolation("a build without a free tile needs its population (SOE-9.1)")
                s.population[g, p] -= self.build_pop
        else:
            self.turn_tile(g, p, tile)
        if tile == "trained_natives":
            if dst not in self.trained_natives_regions(g, p):
                raise RuleViolation("Trained Natives need a colonial region with an own marker or unit")
            s.units[g, p, dst, ARMY] += 1                      # no sea roll, no fleet needed
            self.log(g, "build", seat=p, unit="army", tile=tile, dst=self.loc_name(dst), sea="placed")
            if then is not None:
                self.move_unit(g, p, ARMY, dst, then)
        else:
            s.units[g, p, HOME, kind] += 1
            self.log(g, "build", seat=p, unit=UNIT_NAMES[kind], tile=tile)
            if dst is not None:
                self.move_unit(g, p, kind, HOME, dst, built=True)
        copies = self.owns(g, p, "militia") if tile is None and militia_dst != "none" else 0
        for _ in range(copies if self.opt("militia_stacks") else min(copies, 1)):     # SOE-A16
            if s.population[g, p] < self.build_pop or self.pieces_on_map(g, p, ARMY) >= self.limits[ARMY]:
                break
            s.population[g, p] -= self.build_pop
            s.units[g, p, HOME, ARMY] += 1
            self.log(g, "build", seat=p, unit="army", tile="militia")
            if militia_dst is not None:
                self.move_unit(g, p, ARMY, HOME, militia_dst, built=True)

    def colonise_targets(self, g: int, p: int) -> list[int]:
        """SOE-13: Pop tokens (1 population) and Slave tokens (a fleet in Africa), once a round."""
        s = self.s
        if s.colonised[g, p]:
            return []
        pop_ok = s.population[g, p] >= self.colonise_pop
        slave_ok = s.units[g, p, self.africa, FLEET] > 0
        if not (pop_ok or slave_ok) or self.free_markers(g, p) <= 0:
            return []
        states = s.token_state[g].tolist()
        out = [k for k in self.pop_tokens if states[k] == ON_MAP] if pop_ok else []
        return out + [k for k in self.slave_tokens if states[k] == ON_MAP] if slave_ok else out

    def colonise(self, g: int, p: int, token: int) -> None:
        if token not in self.colonise_targets(g, p):
            raise RuleViolation(f"game {g}: seat {p} may not colonise/enslave token {token}")
        s = self.s
        s.colonised[g, p] = True
        if self.t.token_kind[token] == POP:
            s.population[g, p] -= self.colonise_pop
        s.token_state[g, token] = IN_BOX                            # SOE-A38
        self.place_marker(g, p, int(self.t.token_region[token]))
        self.log(g, "colonise" if self.t.token_kind[token] == POP else "enslave", seat=p,
                 token=self.token_name(token))
