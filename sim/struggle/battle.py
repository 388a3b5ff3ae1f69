"""Declaring a battle (SOE-12.1 .. 12.8, SOE-12.14, raids SOE-20.16/17): targets, the fee, allies'
help, alliance tiles, training, the naval-phase decisions, and the two `Side`s of every battle of an
`Attack`. The dice come later, for the whole step at once (sim.struggle.dice). One of the
rule-chapter parts of the Struggle of Empires `Engine`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.core.lockstep import RuleViolation
from sim.struggle.state import ARMY, FLEET, FORT, N_REGIONS, ON_MAP


@dataclass
class Side:
    """One side of a battle: its main player (-1 for a neutral or a tile), base strength from
    units, and the units at stake (player -> count) that can be taken as losses."""

    main: int
    units: dict[int, int] = field(default_factory=dict)     # participating armies/fleets per player
    forts: int = 0                                           # main player's forts (land, defence)
    bonus: int = 0                                           # training, support, alliance tiles
    fixed: int = 0                                           # neutral / tile strength
    refuse: bool = False

    def strength(self, fort_strength: int) -> int:
        return self.fixed + sum(self.units.values()) + fort_strength * self.forts + self.bonus


@dataclass
class Attack:
    """One declared attack (or Pirates / Slave Revolt raid) waiting for its dice."""

    g: int
    attacker: int
    region: int
    target: tuple                      # ("player", seat) | ("neutral", token) | ("pirates",) | ("revolt",) | ("raid", kind, seat)
    naval: Side | None = None          # naval battle sides (attacker, defender) when fought
    naval_def: Side | None = None
    land: Side | None = None
    land_def: Side | None = None
    land_kind: int = ARMY              # ARMY: losses are armies/forts; FLEET: a fleet-only battle
    support: int = 0                   # +1 attacker, -1 defender, 0 none
    blockade_b: tuple = ()             # seats using Blockade (b)
    blockade_wanted: bool = False      # the attacker declared he would use Blockade (b)
    symbols: dict[int, int] = field(default_factory=dict)     # seat -> ARMY / FLEET its two-symbol tile backs


class Battle:
    """SOE-12 declaration: targets, sides, helpers, naval-phase choices."""

    def attack_targets(self, g: int, p: int, region: int | None = None) -> list[tuple[int, tuple]]:
        """SOE-12.1/12.2: (region, target) pairs `p` may attack: an enemy with a marker or units
        there (SOE-A22), a neutral token, a Pirates / Slave Revolt tile; a land attack needs an
        own army in the region, a naval-only attack an own fleet there and an enemy fleet.
        `region`: only the targets in that region."""
        s = self.s
        if region is None:
            regions = range(N_REGIONS)
            units = s.units[g].transpose(1, 0, 2).tolist()                # [region][seat][kind]
            markers = s.markers[g].T.tolist()
        else:
            regions = (region,)
            units, markers = {region: s.units[g, :, region].tolist()}, {region: s.markers[g, :, region].tolist()}
        rows = self._rows[g]
        row = rows[p]
        enemies = [q for q in range(self.n_players_list[g]) if q != p and (row < 0 or rows[q] != row)]
        states = None
        pirates, revolt = int(s.pirates_region[g]), int(s.revolt_region[g])
        out = []
        for r in regions:
            here, marks = units[r], markers[r]
            army, fleet = here[p][ARMY], here[p][FLEET]
            if not (army or fleet):
                continue
            for q in enemies:
                uq = here[q]
                if army:
                    if marks[q] > 0 or uq[ARMY] or uq[FLEET] or uq[FORT]:
                        out.append((r, ("player", q)))
                elif uq[FLEET] > 0:
                    out.append((r, ("player", q)))
            if army:
                if states is None:
                    states = s.token_state[g].tolist()
                out += [(r, ("neutral", k)) for k in self.neutral_tokens[r] if states[k] == ON_MAP]
                if revolt == r and s.revolt_victim[g] != p:
                    out.append((r, ("revolt",)))
            if fleet and pirates == r and s.pirates_victim[g] != p:
                out.append((r, ("pirates",)))
        return out

    def declare_attack(self, g: int, p: int, r: int, target: tuple, war_office: bool = False,
                       surprise: bool = False, blockade: bool = False, p_win: float | None = None) -> Attack:
        """SOE-12.1 .. 12.7: pay the fee (none with War Office, SOE-20.4), call allies, choose
        alliance-tile symbols, take the naval-phase decisions; dice come later with the step."""
        s, t = self.s, self.t
        if not 0 <= r < N_REGIONS or (r, target) not in self.attack_targets(g, p, region=r):
            raise RuleViolation(f"game {g}: seat {p} may not attack {target} in {r}")
        if war_office:
            if not self.can_use(g, p, "war_office"):
                raise RuleViolation("War Office already used this war")
            self.turn_tile(g, p, "war_office")
        else:
            self.pay(g, p, self.fee)
        a = Attack(g, p, r, target, blockade_wanted=blockade)
        nav = int(t.naval_region[r])
        kind = target[0]
        defender = target[1] if kind == "player" else -1
        if surprise:
            if not self.owns(g, p, "surprise_attack"):
                raise RuleViolation("no Surprise Attack tile")
            self.return_tile(g, p, "surprise_attack")
        land = s.units[g, p, r, ARMY] > 0 and kind != "pirates"
        helpers = self._helpers(g, p, defender, r, nav, attacker_side=True, neutral=(defender < 0))
        def_helpers = [] if (defender < 0 or surprise) else self._helpers(g, defender, p, r, nav, attacker_side=False)
        if self.logs is not None:
            self.log(g, "attack", seat=p, region=t.regions[r], target=self.target_name(g, target),
                     war_office=war_office, surprise=surprise,
                     helpers={self.power_name(g, q): list(c) for q, c in helpers},
                     def_helpers={self.power_name(g, q): list(c) for q, c in def_helpers},
                     **({} if p_win is None else {"p_win": round(p_win, 4)}))
        s.stats["battles_fought"][g, p] += 1
        if defender >= 0:
            s.stats["battles_fought"][g, defender] += 1
        if kind == "player":
            if nav >= 0:
                self._naval_phase(a, defender, nav, helpers, def_helpers, land)
            if land:
                a.land = self._land_side(g, p, r, nav, helpers, attacker=True, support=a.support == 1, opp=defender,
                                         both_to=a.symbols.get(p, ARMY))
                a.land_def = self._land_side(g, defender, r, nav, def_helpers, attacker=False,
                                             support=a.support == -1, opp=p, both_to=a.symbols.get(defender, ARMY))
            elif a.naval is not None:
                a.land, a.land_def, a.naval, a.naval_def, a.land_kind = a.naval, a.naval_def, None, None, FLEET
        elif kind == "neutral":
            own_fleet = nav >= 0 and s.units[g, p, nav, FLEET] > 0                 # SOE-12.14
            a.land = self._land_side(g, p, r, nav, helpers, attacker=True, support=own_fleet, opp=-1)
            a.land_def = Side(-1, fixed=int(t.token_strength[target[1]]))
            self._blockade_b(a, int(own_fleet and self.blockade_b_anywhere))
        elif kind == "revolt":
            own_fleet = s.units[g, p, r, FLEET] > 0                                # SOE-20.17.3
            a.land = self._land_side(g, p, r, nav, helpers, attacker=True, support=own_fleet, opp=-1)
            a.land_def = Side(-1, fixed=self.rule("raids.slave_revolt_strength"))
            self._blockade_b(a, int(own_fleet and self.blockade_b_anywhere))
        else:                                                                       # pirates (SOE-20.16.7)
            a.land = self._fleet_side(g, p, r, helpers, opp=-1)
            a.land_def = Side(-1, fixed=self.rule("raids.pirates_strength"))
            a.land_kind = FLEET
        self._blockade_b(a, a.support)
        return a

    @property
    def blockade_b_anywhere(self) -> bool:
        """Option `blockade_b_scope` (SOE-20.20 (b)): Blockade (b) in every land battle with
        naval support, not only where a naval battle was declined or avoided."""
        return self.opt("blockade_b_scope") == "any_support"

    def _blockade_b(self, a: Attack, support: int) -> None:
        """SOE-20.20 (b): the side with naval support in a land battle (`support` +1 the
        attacker, -1 the defender) may make it +2 instead of +1 with its Blockade tile, decided
        before the land dice; the tile returns to the display. The attacker uses it as he
        declared (`a.blockade_wanted`), the defender when asked."""
        g = a.g
        if support == 1:
            p, side = a.attacker, a.land
            use = a.blockade_wanted and self.owns(g, p, "blockade") > 0
        elif support == -1 and a.land_kind == ARMY:
            p, side = a.land_def.main, a.land_def
            use = p >= 0 and self.owns(g, p, "blockade") > 0 and self.players[g][p].use_blockade_defence(a)
        else:
            return
        if use:
            self.return_tile(g, p, "blockade")
            side.bonus += self.blockade_bonus - self.support_bonus
            a.blockade_b += (p,)

    def target_name(self, g: int, target: tuple) -> str:
        if target[0] == "player":
            return self.power_name(g, target[1])
        if target[0] == "neutral":
            return "neutral " + self.token_name(target[1])
        return target[0]

    def _helpers(self, g: int, p: int, opp: int, r: int, nav: int, attacker_side: bool,
                 neutral: bool = False) -> list[tuple[int, tuple[int, int]]]:
        """SOE-12.5: allies of `p` commit armies in the region and fleets in the naval-battle
        region, as they choose (forts never help, SOE-12.5.5; SOE-A24 option for neutrals)."""
        if neutral and not self.comp.combat.neutral_attacker_allies:
            return []
        s = self.s
        out = []
        for q in self.allies(g, p):
            armies = int(s.units[g, q, r, ARMY])
            fleets = int(s.units[g, q, nav, FLEET]) if nav >= 0 else 0
            if armies or fleets:
                commit = self.players[g][q].help(p, opp, r, armies, fleets, attacker_side)
                self.decisions += 1
                if commit[0] or commit[1]:
                    out.append((q, (min(armies, commit[0]), min(fleets, commit[1]))))
        return out

    def alliance_bonus(self, g: int, p: int, r: int, symbol: int, both_to: int = ARMY) -> int:
        """SOE-12.6 / SOE-22: +1 per own alliance tile naming the region with that symbol; a
        tile with both symbols counts once, for the strength its owner picks (`both_to`)."""
        t = self.t
        owners = self.s.alliance_owner[g].tolist()
        if p not in owners:
            return 0
        n = 0
        for i, owner in enumerate(owners):
            if owner != p or not t.alliance_regions[i, r]:
                continue
            army, fleet = t.alliance_army[i], t.alliance_fleet[i]
            if (army and fleet and symbol == both_to) or (symbol == ARMY and army and not fleet) \
                    or (symbol == FLEET and fleet and not army):
                n += 1
        return self.alliance_plus * n

    def _training(self, g: int, p: int, opp: int, tile: str) -> int:
        """SOE-20.1/20.2: +1 to the main player owning more training tiles than the opposing
        main player (a neutral or a tile owns none)."""
        mine = self.owns(g, p, tile)
        theirs = self.owns(g, opp, tile) if opp >= 0 else 0
        return self.train if mine > theirs else 0

    def _naval_phase(self, a: Attack, d: int, nav: int, helpers, def_helpers, land: bool) -> None:
        """SOE-12.7: the attacker decides whether to fight; the defender may avoid (not in a
        naval-only attack, SOE-A10); a side without an own fleet cannot fight; whoever declines
        leaves naval support to the other side if it has an own fleet there (SOE-A9) -- with the
        option `naval_support_on_decline` = always the defender gets it whenever the attacker
        does not fight (the literal SOE-12.7.3)."""
        g, p = a.g, a.attacker
        s = self.s
        own_a = s.units[g, p, nav, FLEET] > 0
        own_d = s.units[g, d, nav, FLEET] > 0
        if not self.comp.combat.naval_support_needs_own_fleet:
            own_a = own_a or any(c[1] for _, c in helpers)
            own_d = own_d or any(c[1] for _, c in def_helpers)
        can_a, can_d = s.units[g, p, nav, FLEET] > 0, s.units[g, d, nav, FLEET] > 0
        pick = ARMY if land else FLEET                 # a two-symbol alliance tile backs the land battle
        if self.opt("two_symbol_alliance") == "owner":
            self._choose_symbols(a, (p, d), land)
        att = self._fleet_side(g, p, nav, helpers, opp=d, region=a.region, both_to=a.symbols.get(p, pick))
        dfn = self._fleet_side(g, d, nav, def_helpers, opp=p, region=a.region, both_to=a.symbols.get(d, pick))
        if not land:
            must = self.comp.combat.naval_only_defender_must_fight
            if can_d and (must or self.players[g][d].fight_naval(a, dfn, att, False)):
                a.naval, a.naval_def = att, dfn
            return
        fight_a = can_a and self.players[g][p].fight_naval(a, att, dfn, True)
        self.decisions += 1
        if not fight_a:                                # SOE-12.7.3 literal reading: support whatever his fleets
            a.support = -1 if own_d or self.comp.combat.naval_support_on_decline == "always" else 0
            return
        fight_d = can_d and self.players[g][d].fight_naval(a, dfn, att, False)
        self.decisions += 1
        if not fight_d:
            a.support = 1 if own_a else 0
            return
        a.naval, a.naval_def = att, dfn

    def _choose_symbols(self, a: Attack, seats: tuple[int, ...], land: bool) -> None:
        """SOE-12.6 with the option `two_symbol_alliance` = owner: each main player owning a
        tile with both symbols naming the attacked region says which strength it backs in this
        attack (after allies are called, before the dice)."""
        t, owners = self.t, self.s.alliance_owner[a.g].tolist()
        for q in seats:
            if any(owner == q and t.alliance_army[i] and t.alliance_fleet[i] and t.alliance_regions[i, a.region]
                   for i, owner in enumerate(owners)):
                symbol = self.players[a.g][q].alliance_symbol(a, land)
                self.decisions += 1
                if symbol not in (ARMY, FLEET):
                    raise RuleViolation(f"an alliance tile backs the army or the fleet, not {symbol!r} (SOE-12.6)")
                a.symbols[q] = symbol

    def _fleet_side(self, g: int, p: int, nav: int, helpers, opp: int, region: int | None = None,
                    both_to: int = FLEET) -> Side:
        """SOE-12.7.4: own fleets + allies' committed fleets + alliance fleet tile + training."""
        s = self.s
        side = Side(p, units={p: int(s.units[g, p, nav, FLEET])})
        for q, (_, f) in helpers:
            if f:
                side.units[q] = f
        if s.units[g, p, nav, FLEET] > 0:
            side.bonus += self._training(g, p, opp, "naval_training")
        side.bonus += self.alliance_bonus(g, p, nav if region is None else region, FLEET, both_to)
        return side

    def _land_side(self, g: int, p: int, r: int, nav: int, helpers, attacker: bool, support: bool, opp: int,
                   both_to: int = ARMY) -> Side:
        """SOE-12.8: armies 1 (own + allies'), defending forts 2, training superiority with an
        own army or fort in the battle, naval support, alliance army tile (a two-symbol one when
        it backs the army, `both_to`)."""
        s = self.s
        side = Side(p, units={p: int(s.units[g, p, r, ARMY])})
        if not attacker:
            side.forts = int(s.units[g, p, r, FORT])
        for q, (armies, _) in helpers:
            if armies:
                side.units[q] = armies
        if side.units[p] or side.forts:
            side.bonus += self._training(g, p, opp, "army_training")
        if support:
            side.bonus += self.support_bonus
        side.bonus += self.alliance_bonus(g, p, r, ARMY, both_to)
        return side

    def declare_raid(self, g: int, p: int, name: str, r: int, q: int) -> Attack:
        """SOE-20.16 / 20.17: the tile attacks a marker of `q` (1 against his fleets, or 3
        against his armies and forts with his naval support); no allies, no fee (SOE-A19)."""
        s = self.s
        if (r, q) not in self.raid_targets(g, p, name):
            raise RuleViolation(f"{name}: target ({r}, {q}) not allowed")
        a = Attack(g, p, r, ("raid", name, q))
        s.stats["battles_fought"][g, q] += 1
        if name == "pirates":
            a.land = Side(-1, fixed=self.rule("raids.pirates_strength"))
            a.land_def = self._fleet_side(g, q, r, [], opp=-1)
            a.land_kind = FLEET
        else:
            a.land = Side(-1, fixed=self.rule("raids.slave_revolt_strength"))
            support = s.units[g, q, r, FLEET] > 0
            a.land_def = self._land_side(g, q, r, -1, [], attacker=False, support=support, opp=-1)
            self._blockade_b(a, -int(support and self.blockade_b_anywhere))
        self.log(g, "raid", seat=p, tile=name, region=self.t.regions[r], target=self.power_name(g, q))
        return a
