"""Phase 2 of a turn: land and naval battles (COE-13 .. COE-17), capture of leaders, elimination
and the transfer of an empire (COE-25.2). A part of `sim.conquest.engine.Engine`.

The rules of a round come from the battle kernels: formation sizes and fortification dice
(`LandRules`), matching (`combat.score`), pursuit hits (`combat.pursuit_hits`) and naval hits
(`naval.naval_hits`); the dice come from the game's own stream, one die at a time. Every choice
inside a battle is the owner's (COE-32): formation, casualties, continue or retreat (defender
first) and where to, pursuit victims, kill or hold, which galleys sink.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from sim.conquest.combat import pursuit_hits, score
from sim.conquest.components import LAND_UNITS
from sim.conquest.naval import naval_hits
from sim.conquest.state import CAESAR, CAPTIVE, FREE, GONE, LEADERS, NEUTRAL


class NavalChoice(NamedTuple):
    """A mover's answer to a naval battle he may start (COE-13.4): whether he fights, and the
    exact chance of winning it that his decision read (None: none read), logged for the audit."""

    fight: bool
    p_win: float | None = None


@dataclass
class Fight:
    """What both sides know of a land battle in progress (COE-14): the province, the seats,
    their land units and leaders there, and the fortification (COE-14.7)."""

    space: int
    attacker: int
    defender: int
    units: dict[int, list[int]]
    leaders: dict[int, int]
    fortified: bool
    round: int = 0
    formations: dict[int, tuple[int, int, int]] = field(default_factory=dict)

    def other(self, seat: int) -> int:
        return self.defender if seat == self.attacker else self.attacker

    def size(self, seat: int, land) -> int:
        """COE-14.1: min(land units, 5 + leaders)."""
        return land.formation_size(sum(self.units[seat]), self.leaders[seat])


class Battles:
    """COE-13 .. COE-17, COE-25.2 (see the module docstring)."""

    def roll(self, g: int, n: int) -> dict[str, int]:
        """n battle dice (COE-13.2) from the game's dice stream, as symbol counts."""
        out: dict[str, int] = {}
        draw, faces = self.dice[g].next, self.faces
        for _ in range(n):
            f = faces[draw()]
            out[f] = out.get(f, 0) + 1
        return out

    def pending_battles(self, g: int, p: int) -> list[tuple[str, int, int]]:
        """COE-13.1 / COE-A18: land battles where the mover's land units meet another seat's
        pieces, naval battles where his galleys share a sea zone with another seat's."""
        s, t = self.s, self.t
        spaces = self.land_spaces(g, p)
        out = [("land", q, d) for q, d in zip(spaces, self.others_at(g, p, spaces)) if d >= 0]
        fleets: dict[int, set[int]] = {}
        for seat, row in zip(s.owner[g].tolist(), s.gal_loc[g].tolist()):
            for z in row:
                if z >= t.n_prov:
                    fleets.setdefault(z, set()).add(seat)
        for z in sorted(fleets):
            if p in fleets[z]:
                out += [("naval", z, d) for d in sorted(fleets[z]) if d != p and d >= 0]
        return out

    def battle_phase(self, g: int, p: int) -> None:
        """COE-13.3: the mover fights his battles in the order he chooses; naval ones only if he
        wants (COE-13.4)."""
        s = self.s
        player = self.players[g][p]
        declined: set[tuple[str, int, int]] = set()
        while not s.over[g] and s.alive[g, p]:
            pending = [b for b in self.pending_battles(g, p) if b not in declined]
            if not pending:
                return
            kind, space, d = pending[player.battle_order(pending) if len(pending) > 1 else 0]
            if kind == "land":
                self.land_battle(g, p, space, d)
            else:
                choice = player.fight_naval(space, d, len(self.galleys_at(g, p, space)),
                                            len(self.galleys_at(g, d, space)))
                if choice.fight:
                    self.naval_battle(g, p, d, space, choice.p_win)
                else:
                    declined.add((kind, space, d))

    # ------------------------------------------------------------------ land
    def land_battle(self, g: int, a: int, q: int, d: int) -> None:
        """COE-14 / COE-16: rounds until a side has no land units or retreats; lone leaders are
        captured without dice (COE-A7)."""
        s, land, opt = self.s, self.comp.land, self.opt
        players = self.players[g]
        if not sum(self.units_at(g, d, q)):
            self.lone_leaders(g, a, d, q)
            return
        s.stats["battles_fought"][g, a] += 1
        s.stats["battles_fought"][g, d] += 1
        fortified = bool(s.fort[g, q]) and (s.control[g, q] == d or not opt.fort_bonus_requires_control)
        fight = Fight(q, a, d, {a: self.units_at(g, a, q), d: self.units_at(g, d, q)},
                      {a: len(self.leaders_at(g, a, q)), d: len(self.leaders_at(g, d, q))}, fortified)
        self.log(g, "battle", kind="land", space=self.t.names[q], attacker=a, defender=d,
                 attacker_units=list(fight.units[a]), defender_units=list(fight.units[d]),
                 attacker_leaders=fight.leaders[a], defender_leaders=fight.leaders[d], fortified=fortified)
        retreat = None
        while True:
            fight.round += 1
            A, D = fight.units[a], fight.units[d]
            extra = land.extra_dice(fortified, A[2] > 0)                               # COE-14.7
            fd = self.chosen(players[d].formation(fight, d, fight.size(d, land)), D, fight.size(d, land))
            fight.formations = {d: fd} if opt.formation_open_info else {}
            fa = self.chosen(players[a].formation(fight, a, fight.size(a, land)), A, fight.size(a, land))
            fight.formations = {d: fd, a: fa}
            roll_a = self.roll(g, sum(fa))
            hits_a = score(roll_a, dict(zip(LAND_UNITS, fa)), A[2], opt.catapult_cap)   # COE-14.3
            lost_d = self.chosen(players[d].casualties(fight, d, fd, min(hits_a, sum(fd))), fd, min(hits_a, sum(fd)))
            rolling, cats = fd, D[2]
            if not opt.simultaneous_hits:                                             # COE-A1 alternative
                rolling, cats = tuple(x - y for x, y in zip(fd, lost_d)), D[2] - lost_d[2]
            roll_d = self.roll(g, sum(rolling) + extra)
            hits_d = score(roll_d, dict(zip(LAND_UNITS, rolling)), cats, opt.catapult_cap)
            lost_a = self.chosen(players[a].casualties(fight, a, fa, min(hits_d, sum(fa))), fa, min(hits_d, sum(fa)))
            self.remove_units(g, a, q, lost_a)                                        # COE-14.4: simultaneous
            self.remove_units(g, d, q, lost_d)
            fight.units = {a: self.units_at(g, a, q), d: self.units_at(g, d, q)}
            self.log(g, "round", space=self.t.names[q], n=fight.round, attacker_formation=list(fa),
                     defender_formation=list(fd), extra_dice=extra, attacker_roll=roll_a, defender_roll=roll_d,
                     attacker_hits=hits_a, defender_hits=hits_d, attacker_lost=list(lost_a), defender_lost=list(lost_d))
            if not sum(fight.units[a]) or not sum(fight.units[d]):
                break
            retreat = self.ask_retreat(g, fight, d) or self.ask_retreat(g, fight, a)    # COE-14.5: defender first
            if retreat:
                break
        self.end_land_battle(g, fight, retreat)

    def chosen(self, units, available, total: int) -> tuple[int, int, int]:
        """A side's choice of `total` units out of `available` (formation, casualties, victims)."""
        units = tuple(int(x) for x in units)
        self.require(len(units) == 3 and sum(units) == total
                     and all(0 <= u <= v for u, v in zip(units, available)),
                     "choice {} is not {} of {}", units, total, tuple(available))
        return units  # type: ignore[return-value]

    def retreat_options(self, g: int, seat: int, q: int) -> list[int]:
        """COE-16.4 / COE-A22: provinces next to q (borders, straits) holding no other seat's units."""
        steps = self.t.steps[q]
        fleets = self.enemy_galley_spaces(g, seat)
        return [r for r, other in zip(steps, self.others_at(g, seat, steps)) if other < 0 and r not in fleets]

    def enemy_galley_spaces(self, g: int, seat: int) -> set[int]:
        """The spaces where a galley of another living seat stands, read once per question (the
        players ask, for every province they might attack, where each side could retreat)."""
        s = self.s
        out: set[int] = set()
        for q in range(int(s.n_players[g])):
            if q != seat and s.alive[g, q]:
                for c in self.colours_of[g][q]:
                    out.update(s.gal_loc[g, c].tolist())
        return out

    def ask_retreat(self, g: int, fight: Fight, seat: int) -> tuple[int, int] | None:
        """COE-14.5: continue (None) or retreat to one of the open provinces."""
        options = self.retreat_options(g, seat, fight.space)
        if not options:
            return None
        where = self.players[g][seat].retreat(fight, seat, options)
        if where is None:
            return None
        self.require(where in options, "retreat to {} is not open", where)
        return seat, where

    def end_land_battle(self, g: int, fight: Fight, retreat: tuple[int, int] | None) -> None:
        """COE-16 / COE-17.1: pursuit and retreat, capture of leaders, conquest, beached galleys."""
        s = self.s
        a, d, q = fight.attacker, fight.defender, fight.space
        if retreat:
            self.pursue_and_retreat(g, fight, *retreat)
        left_a, left_d = sum(self.units_at(g, a, q)), sum(self.units_at(g, d, q))
        captives: list[tuple[int, list[int]]] = []
        if not left_a and not left_d:                                        # COE-16.7 / COE-A21
            if self.opt.mutual_annihilation == "both_captured":
                captives = [(a, self.leaders_at(g, d, q)), (d, self.leaders_at(g, a, q))]
            else:
                self.displace_leaders(g, a, q)
        elif not left_d:
            captives = [(a, self.leaders_at(g, d, q))]
        elif not left_a:
            captives = [(d, self.leaders_at(g, a, q))]
            if self.opt.destroy_attacker_galleys_on_failed_landing:
                self.destroy_galleys(g, d, q, [x for x in self.galleys_at(g, a, q)])
        winner = a if left_a and not left_d else d if left_d and not left_a else -1
        if winner >= 0:
            s.stats["battles_won"][g, winner] += 1
        self.log(g, "battle_end", space=self.t.names[q], winner=winner, rounds=fight.round,
                 retreat=None if not retreat else {"seat": retreat[0], "to": self.t.names[retreat[1]]})
        self.capture_many(g, captives)
        if s.over[g]:
            return
        if winner == a and s.alive[g, a]:
            if s.control[g, q] != a:
                self.take_province(g, a, q, battle=True)
            else:
                self.sink_beached(g, a, q)

    def pursue_and_retreat(self, g: int, fight: Fight, loser: int, where: int) -> None:
        """COE-16.2 / COE-16.3 / COE-A23: the winner rolls one die per land unit there; matched
        cavalry symbols destroy retreating units of his choice; survivors and leaders retreat."""
        q = fight.space
        winner = fight.other(loser)
        mine, fleeing = self.units_at(g, winner, q), self.units_at(g, loser, q)
        symbols = self.roll(g, sum(mine))
        hits = min(pursuit_hits(symbols, mine[1], self.opt.pursuit_cap), sum(fleeing))
        victims = (0, 0, 0)
        if hits:
            victims = self.chosen(self.players[g][winner].pursuit(fight, tuple(fleeing), hits), fleeing, hits)
            self.remove_units(g, loser, q, victims)
        self.log(g, "pursuit", space=self.t.names[q], seat=winner, roll=symbols, hits=hits, destroyed=list(victims))
        options = [] if self.opt.retreat_single_destination else self.retreat_options(g, loser, q)
        if len(options) < 2:
            self.move_all(g, loser, q, where)
        else:
            self.split_retreat(g, fight, loser, where, options)

    def split_retreat(self, g: int, fight: Fight, loser: int, where: int, options: list[int]) -> None:
        """COE-A22 alternative (`retreat_single_destination = false`): the loser shares his
        surviving units and leaders among the open provinces; every piece goes somewhere."""
        q = fight.space
        units, leaders = self.units_at(g, loser, q), self.leaders_at(g, loser, q)
        groups = self.players[g][loser].retreat_split(fight, loser, tuple(units), list(leaders), options, where)
        sent_units = [sum(int(grp[1][k]) for grp in groups) for k in range(3)]
        sent_leaders = sorted(int(ld) for grp in groups for ld in grp[2])
        self.require(all(len(grp[1]) == 3 and min(grp[1]) >= 0 and grp[0] in options for grp in groups)
                     and len({grp[0] for grp in groups}) == len(groups)
                     and sent_units == units and sent_leaders == sorted(leaders),
                     "retreat split {} does not send {} and leaders {} to open provinces {}", groups, units, leaders, options)
        self.log(g, "retreat_split", space=self.t.names[q], seat=loser,
                 groups=[{"to": self.t.names[r], "units": [int(x) for x in u], "leaders": [int(x) for x in ls]}
                         for r, u, ls in groups])
        for r, part, group_leaders in groups:
            self.move_units(g, loser, q, r, part)
            for ld in group_leaders:
                c, i = divmod(int(ld), LEADERS)
                self.s.ldr_loc[g, c, i], self.s.ldr_mp[g, c, i] = r, 0

    def move_all(self, g: int, seat: int, q: int, where: int) -> None:
        """COE-16.4 / COE-A22: land units and standing leaders go to one province, no MP spent."""
        s = self.s
        for c in self.colours_of[g][seat]:
            s.land[g, c, where] += s.land[g, c, q]
            s.land[g, c, q] = 0
            s.ready[g, c, where, :, 0] += s.ready[g, c, q].sum(axis=1)
            s.ready[g, c, q] = 0
            s.landed[g, c, where] += s.landed[g, c, q]
            s.landed[g, c, q] = 0
        for ld in self.leaders_at(g, seat, q):
            c, i = divmod(ld, LEADERS)
            s.ldr_loc[g, c, i] = where
            s.ldr_mp[g, c, i] = 0

    def displace_leaders(self, g: int, seat: int, q: int) -> None:
        """Leaders left alone among enemy pieces retreat to an open province, else are captured."""
        options = self.retreat_options(g, seat, q)
        holder = self.other_seat_at(g, seat, q)
        if options:
            self.move_all(g, seat, q, options[0])
        elif holder >= 0:
            self.capture_many(g, [(holder, self.leaders_at(g, seat, q))])

    def lone_leaders(self, g: int, a: int, d: int, q: int) -> None:
        """COE-A7: enemy leaders without land units met by a legion are captured without dice
        (the option's alternative: they retreat, captured only where no retreat is open)."""
        self.log(g, "battle", kind="leaders", space=self.t.names[q], attacker=a, defender=d,
                 defender_leaders=self.leaders_at(g, d, q))
        if self.opt.lone_leaders_captured_on_contact:
            self.capture_many(g, [(a, self.leaders_at(g, d, q))])
        else:
            self.displace_leaders(g, d, q)
        if not self.s.over[g] and self.s.alive[g, a] and self.s.control[g, q] != a:
            self.take_province(g, a, q, battle=True)

    def remove_units(self, g: int, seat: int, q: int, units) -> None:
        """Destroyed land units go back to their colour's supply (COE-2.3)."""
        for _, _, take in self.take_units(g, seat, q, units):
            self.s.stats["units_lost"][g, seat] += take

    def move_units(self, g: int, seat: int, q: int, where: int, units) -> None:
        """Part of a seat's land units in q retreat to `where` (COE-16.4: no MP left there)."""
        s = self.s
        for c, k, take in self.take_units(g, seat, q, units):
            s.land[g, c, where, k] += take
            s.ready[g, c, where, k, 0] += take

    def take_units(self, g: int, seat: int, q: int, units) -> list[tuple[int, int, int]]:
        """Take `units` (by type) of a seat off q, colour by colour: (colour, type, count) taken."""
        s = self.s
        out = []
        for k in range(3):
            left = int(units[k])
            for c in self.colours_of[g][seat]:
                take = min(left, int(s.land[g, c, q, k]))
                if take:
                    s.land[g, c, q, k] -= take
                    rest = take                    # the units taken leave their MP buckets, fewest MP first
                    for mp in (0, 1, 2):
                        r = min(rest, int(s.ready[g, c, q, k, mp]))
                        s.ready[g, c, q, k, mp] -= r
                        rest -= r
                    s.landed[g, c, q, k] = min(int(s.landed[g, c, q, k]), int(s.land[g, c, q, k]))
                    out.append((c, k, take))
                    left -= take
        return out

    # ------------------------------------------------------------------ control
    def take_province(self, g: int, p: int, q: int, battle: bool) -> None:
        """COE-17: control (and the City with it) passes; income moves at once; other seats'
        galleys beached there are destroyed (COE-16.6, COE-A24)."""
        s = self.s
        before = int(s.control[g, q])
        s.control[g, q] = p
        s.stats["provinces_taken"][g, p] += 1
        self.log(g, "conquest", space=self.t.names[q], seat=p, previous=before, battle=battle)
        self.note_income(g, p)
        if battle or self.opt.destroy_beached_on_unopposed_capture:
            self.sink_beached(g, p, q)

    def sink_beached(self, g: int, p: int, q: int) -> None:
        """COE-16.6 / COE-A24: every other seat's galley on the coast of q is destroyed."""
        for d in range(int(self.s.n_players[g])):
            if d != p and self.s.alive[g, d] and not self.s.over[g]:
                self.destroy_galleys(g, p, q, self.galleys_at(g, d, q))

    def destroy_galleys(self, g: int, captor: int, q: int, galleys: list[int]) -> None:
        """COE-16.6 / COE-A24 / COE-15.5: galleys lost with their cargo; leaders aboard captured."""
        s = self.s
        n = s.gal_loc.shape[2]
        captives = []
        for gal in galleys:
            c, k = divmod(gal, n)
            captives += self.cargo_leaders(g, gal)
            s.stats["units_lost"][g, int(s.owner[g, c])] += int(s.gal_cargo[g, c, k].sum()) + 1
            s.gal_loc[g, c, k] = -1
            s.gal_cargo[g, c, k] = 0
            s.gal_mp[g, c, k] = 0
        for ld in captives:
            c, i = divmod(ld, LEADERS)
            s.ldr_ship[g, c, i] = -1
        if galleys:
            self.log(g, "galleys_lost", space=self.t.names[q], galleys=list(galleys), leaders=captives)
        if captives and self.opt.leaders_on_sunk_galley == "killed":          # COE-A20 alternative
            for ld in captives:
                if ld % LEADERS != CAESAR:
                    c, i = divmod(ld, LEADERS)
                    s.ldr_state[g, c, i], s.ldr_loc[g, c, i] = GONE, -1
            captives = [ld for ld in captives if ld % LEADERS == CAESAR]
        if captives:
            self.capture_many(g, [(captor, captives)])

    # ------------------------------------------------------------------ capture and elimination
    def capture_many(self, g: int, captives: list[tuple[int, list[int]]]) -> None:
        """COE-16.3 / COE-16.5: captured Generals are killed or held at the captor's choice
        (COE-A25); a captured Caesar eliminates his seat (COE-25.2); two Caesars captured at once
        eliminate both, and nobody inherits (COE-A21)."""
        s = self.s
        caesars = []
        for captor, leaders in captives:
            if not s.alive[g, captor]:                       # the captor fell earlier in this event
                heir = int(s.owner[g, captor])
                captor = heir if heir >= 0 and s.alive[g, heir] else -1
            for ld in leaders:
                if captor < 0 or not s.alive[g, captor] or captor == int(s.owner[g, ld // LEADERS]):
                    self.drown(g, ld, check=False)
                    continue
                c, i = divmod(ld, LEADERS)
                s.ldr_loc[g, c, i], s.ldr_ship[g, c, i] = -1, -1
                if i == CAESAR:
                    s.ldr_state[g, c, i], s.ldr_holder[g, c, i] = CAPTIVE, captor
                    caesars.append((captor, int(s.owner[g, c])))
                    s.stats["caesars_captured"][g, captor] += 1
                    continue
                hold = self.players[g][captor].hold_captive(ld)
                s.stats["generals_captured"][g, captor] += 1
                if hold:
                    s.ldr_state[g, c, i], s.ldr_holder[g, c, i] = CAPTIVE, captor
                else:
                    s.ldr_state[g, c, i] = GONE
                self.log(g, "capture", leader=ld, captor=captor, held=bool(hold))
        losers = {loser for _, loser in caesars}
        for captor, loser in caesars:
            self.log(g, "capture", leader=loser * LEADERS, captor=captor, held=True, caesar=True)
            self.eliminate(g, loser, None if captor in losers else captor, check=False)
        self.check_victory(g)                            # once every loser of the event is out (COE-A21)

    def drown(self, g: int, ld: int, check: bool = True) -> None:
        """A leader with nobody left to take him prisoner is lost (his Caesar: elimination; `check`
        as in `eliminate`)."""
        s = self.s
        c, i = divmod(ld, LEADERS)
        s.ldr_state[g, c, i], s.ldr_loc[g, c, i], s.ldr_ship[g, c, i] = GONE, -1, -1
        if i == CAESAR:
            self.eliminate(g, c, None, check)

    def eliminate(self, g: int, loser: int, captor: int | None, check: bool = True) -> None:
        """COE-25.2 / COE-A27: the captor takes the loser's talents, provinces with their Cities,
        pieces where they stand, captives and (default) free Generals; the loser's Generals held
        by others leave the game. Without a captor (COE-A21) everything leaves the board. `check`
        False: the caller asks whether the game is over once the whole event is done (two Caesars
        captured at once with nobody else left are a draw, COE-A21, not a victory of the second)."""
        s = self.s
        if not s.alive[g, loser]:
            return
        s.alive[g, loser] = False
        s.stats["eliminated_round"][g, loser] = int(s.round[g])
        colours = self.colours_of[g][loser]
        self.colours_of[g][loser] = []
        mine = s.control[g] == loser
        for c in colours:                                # the loser's Generals held by others leave
            for i in range(1, LEADERS):
                if s.ldr_state[g, c, i] == CAPTIVE and s.ldr_holder[g, c, i] != loser:
                    s.ldr_state[g, c, i] = GONE
        if captor is None:
            s.control[g, mine] = NEUTRAL
            for c in colours:
                self.clear_colour(g, c)
            held = (s.ldr_state[g] == CAPTIVE) & (s.ldr_holder[g] == loser)
            s.ldr_state[g][held] = GONE
        else:
            s.control[g, mine] = captor
            s.treasury[g, captor] += s.treasury[g, loser]
            for c in colours:
                s.owner[g, c] = captor
                self.colours_of[g][captor].append(c)
                if not self.opt.inherit_free_generals:
                    for i in range(1, LEADERS):
                        if s.ldr_state[g, c, i] == FREE:
                            s.ldr_state[g, c, i], s.ldr_loc[g, c, i], s.ldr_ship[g, c, i] = GONE, -1, -1
            held = (s.ldr_state[g] == CAPTIVE) & (s.ldr_holder[g] == loser)
            s.ldr_holder[g][held] = captor
            home = int(s.home[g, captor])
            for c in self.colours_of[g][captor]:             # the captor's own Generals are free again
                for i in range(1, LEADERS):
                    if held[c, i]:
                        s.ldr_state[g, c, i], s.ldr_holder[g, c, i], s.ldr_loc[g, c, i] = FREE, -1, home
        s.treasury[g, loser] = 0
        self.log(g, "eliminated", seat=loser, captor=captor)
        if captor is not None:
            self.note_income(g, captor)
        if check:
            self.check_victory(g)

    def clear_colour(self, g: int, c: int) -> None:
        """COE-A21: a colour's pieces leave the board."""
        s = self.s
        s.owner[g, c] = -1
        s.land[g, c] = 0
        s.ready[g, c] = 0
        s.landed[g, c] = 0
        s.gal_loc[g, c] = -1
        s.gal_cargo[g, c] = 0
        free = s.ldr_state[g, c] == FREE
        s.ldr_state[g, c][free] = GONE
        s.ldr_loc[g, c] = -1
        s.ldr_ship[g, c] = -1

    # ------------------------------------------------------------------ naval
    def naval_battle(self, g: int, a: int, d: int, z: int, p_win: float | None = None) -> None:
        """COE-15: two dice per galley, galley symbols hit (COE-A17), both roll before losses,
        each owner picks his sunk galleys, no retreat, at most three rounds (COE-A19); a Caesar
        captured aboard ends the battle (COE-25.2), its end logged like any other. `p_win`: the
        attacker's forecast of winning (his galleys alone left), logged on the battle."""
        s, opt = self.s, self.opt
        rounds = self.comp.naval.max_rounds
        per = self.comp.naval.dice_per_galley
        s.stats["battles_fought"][g, a] += 1
        s.stats["battles_fought"][g, d] += 1
        forecast = {} if p_win is None else {"p_win": round(float(p_win), 6)}
        self.log(g, "battle", kind="naval", space=self.t.names[z], attacker=a, defender=d,
                 attacker_galleys=len(self.galleys_at(g, a, z)), defender_galleys=len(self.galleys_at(g, d, z)),
                 **forecast)
        for r in range(1, rounds + 1):
            ga, gd = self.galleys_at(g, a, z), self.galleys_at(g, d, z)
            if not ga or not gd:
                break
            roll_a, roll_d = self.roll(g, per * len(ga)), self.roll(g, per * len(gd))
            hits_a = min(naval_hits(["galley"] * roll_a.get("galley", 0), len(ga), opt.naval_hits_capped), len(gd))
            hits_d = min(naval_hits(["galley"] * roll_d.get("galley", 0), len(gd), opt.naval_hits_capped), len(ga))
            sunk_d = self.sunk(g, d, z, gd, hits_a)
            sunk_a = self.sunk(g, a, z, ga, hits_d)
            self.log(g, "naval_round", space=self.t.names[z], n=r, attacker_roll=roll_a, defender_roll=roll_d,
                     attacker_hits=hits_a, defender_hits=hits_d, attacker_sunk=sunk_a, defender_sunk=sunk_d)
            self.destroy_galleys(g, a, z, sunk_d)
            if s.over[g]:
                break
            self.destroy_galleys(g, d, z, sunk_a)
            if s.over[g] or not s.alive[g, a] or not s.alive[g, d]:
                break
        ga, gd = self.galleys_at(g, a, z), self.galleys_at(g, d, z)
        winner = a if ga and not gd else d if gd and not ga else -1
        if winner >= 0:
            s.stats["battles_won"][g, winner] += 1
        self.log(g, "battle_end", space=self.t.names[z], winner=winner)

    def sunk(self, g: int, seat: int, z: int, galleys: list[int], hits: int) -> list[int]:
        """COE-15.3: the owner chooses which of his galleys sink."""
        if not hits:
            return []
        chosen = list(self.players[g][seat].sink(z, list(galleys), hits))
        self.require(len(chosen) == hits and len(set(chosen)) == hits and set(chosen) <= set(galleys),
                     "sink {}: pick {} of {}", chosen, hits, galleys)
        return chosen
