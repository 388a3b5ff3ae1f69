"""Resolving the battles of a step (SOE-12.3 .. 12.14, SOE-20.3 Reserves, SOE-20.18 Refuse
Battle): every naval battle of the batch in one bulk duel call, then every land battle, then the
losses, unrest, control changes and rewards. One of the rule-chapter parts of the Struggle of
Empires `Engine`.
"""

from __future__ import annotations

import numpy as np

from sim.core.dice import PAIR_DIFF, PAIR_FIRST, PAIR_SECOND, PAIR_SEVEN
from sim.struggle import combat
from sim.struggle.battle import Attack, Side
from sim.struggle.state import ARMY, FLEET, FORT, IN_BOX, UNIT_NAMES


class Dice:
    """SOE-12 resolution: duels in bulk, Reserves, Refuse Battle, losses and their effects."""

    def resolve(self, attacks: list[Attack]) -> None:
        """Resolve every attack of one step: all naval battles in one bulk call, then all land
        (or fleet-only / neutral / tile) battles in one bulk call (SOE-12.3 order)."""
        if not attacks:
            return
        naval = [a for a in attacks if a.naval is not None]
        if naval:
            results = self._duels([(a.naval, a.naval_def) for a in naval], [a.g for a in naval])
            for a, res in zip(naval, results):
                self._after_naval(a, res)
        land = [a for a in attacks if a.land is not None]
        if land:
            results = self._duels([(a.land, a.land_def) for a in land], [a.g for a in land])
            for a, res in zip(land, results):
                self._after_land(a, res)

    def _duels(self, pairs: list[tuple[Side, Side]], games: list[int]) -> list[dict]:
        """Draw each game's duel (one number 0..1295 = both two-dice rolls) from its own stream,
        then resolve the whole step in one vectorised call."""
        fs = self.fort_strength
        att = [x.strength(fs) for x, _ in pairs]
        dfn = [y.strength(fs) for _, y in pairs]
        k = [self.battle_dice[g].next() for g in games]
        outcome = combat.settle_duels(np.array(k), np.array(att), np.array(dfn))[0].tolist()
        return [{"att": a, "def": d, "pa": pair // 36, "pd": pair % 36, "winner": w}
                for a, d, pair, w in zip(att, dfn, k, outcome)]

    def _reserves(self, a: Attack, x: Side, y: Side, res: dict, naval: bool) -> dict:
        """SOE-20.3 / SOE-A20: alternate re-rolls (attacker first) with Reserves tiles, each side
        deciding by `combat.wants_reroll` (the kernels' rule: options `reserves_policy`,
        `reserves_for_any_change`); the new dice must be kept."""
        c = self.comp.combat
        policy = c.reserves_policy
        if policy == "never" or (naval and not c.reserves_in_naval_battle):
            return res
        g = a.g
        if not ((x.main >= 0 and self.can_use(g, x.main, "reserves"))
                or (y.main >= 0 and self.can_use(g, y.main, "reserves"))):
            return res
        sa, sd = res["att"], res["def"]
        rolled = False
        changed = True
        while changed:
            changed = False
            for who, side in ((1, x), (-1, y)):
                p = side.main
                if p < 0 or not self.can_use(g, p, "reserves"):
                    continue
                wants = combat.wants_reroll(sa - sd, int(PAIR_DIFF[res["pa"]]), int(PAIR_DIFF[res["pd"]]), policy,
                                            c.reserves_for_any_change)
                if not wants[0 if who == 1 else 1]:
                    continue
                self.turn_tile(g, p, "reserves")
                new = self.reserve_dice[g].next()
                res["pa" if who == 1 else "pd"] = new
                res.setdefault("rerolls", []).append([self.power_name(g, p), int(PAIR_FIRST[new]),
                                                      int(PAIR_SECOND[new])])
                changed = rolled = True
        if rolled:
            res["winner"] = int(combat.settle_duels([res["pa"] * 36 + res["pd"]], [sa], [sd])[0][0])
        return res

    def _dice_fields(self, res: dict) -> dict:
        pa, pd = res["pa"], res["pd"]
        return {"att_dice": [int(PAIR_FIRST[pa]), int(PAIR_SECOND[pa])],
                "def_dice": [int(PAIR_FIRST[pd]), int(PAIR_SECOND[pd])],
                "att_total": res["att"] + int(PAIR_DIFF[pa]), "def_total": res["def"] + int(PAIR_DIFF[pd]),
                "rerolls": res.get("rerolls", [])}

    def _after_naval(self, a: Attack, res: dict) -> None:
        """SOE-12.7.5: winner gets naval support; loser loses a fleet; 7 rule; tie: both lose a
        fleet, nobody gets support."""
        res = self._reserves(a, a.naval, a.naval_def, res, naval=True)
        w = res["winner"]
        if self.logs is not None:
            self.log(a.g, "naval_battle", attacker=self.power_name(a.g, a.attacker), winner=w,
                     **self._dice_fields(res))
        self._maybe_refuse(a, a.naval_def, res)
        self._losses(a, a.naval, lost=(w <= 0), tie=(w == 0), seven=bool(PAIR_SEVEN[res["pa"]]),
                     loc=int(self.t.naval_region[a.region]), kind=FLEET)
        self._losses(a, a.naval_def, lost=(w >= 0), tie=(w == 0), seven=bool(PAIR_SEVEN[res["pd"]]),
                     loc=int(self.t.naval_region[a.region]), kind=FLEET)
        a.support = w
        if a.land is not None:                     # rebuild the land sides with the support won
            d = a.target[1]
            nav = int(self.t.naval_region[a.region])
            old_a, old_d = a.land, a.land_def
            helpers = [(q, (n, 0)) for q, n in old_a.units.items() if q != a.attacker]
            def_helpers = [(q, (n, 0)) for q, n in old_d.units.items() if q != d]
            a.land = self._land_side(a.g, a.attacker, a.region, nav, helpers, True, w == 1, d,
                                     a.symbols.get(a.attacker, ARMY))
            a.land_def = self._land_side(a.g, d, a.region, nav, def_helpers, False, w == -1, a.attacker,
                                         a.symbols.get(d, ARMY))
            a.land_def.refuse = a.naval_def.refuse
            if self.blockade_b_anywhere:             # SOE-20.20 (b) with the support won at sea
                self._blockade_b(a, w)

    def _maybe_refuse(self, a: Attack, dside: Side, res: dict) -> None:
        """SOE-20.18 / SOE-A21: the defender may play Refuse Battle after the dice; it covers
        the whole attack for every defending unit."""
        d = dside.main
        if d < 0 or dside.refuse or not self.owns(a.g, d, "refuse_battle"):
            return
        if self.players[a.g][d].refuse_battle(a, res):
            self.return_tile(a.g, d, "refuse_battle")
            dside.refuse = True
            if a.land_def is not None:
                a.land_def.refuse = True
            self.log(a.g, "refuse_battle", seat=d)

    def _losses(self, a: Attack, side: Side, lost: bool, tie: bool, seven: bool, loc: int, kind: int) -> None:
        """SOE-12.9 .. 12.12, SOE-A11/A12: the side's losses in the order of `combat.loss_order`
        (the one allocation: a losing or tied side loses one unit, its main player's first, else a
        helper's; a 7 costs one more; forts are never lost in a tie); an ally's loss falls on the
        helper with the most units there. Every lost unit is +1 unrest for its owner."""
        if side.main < 0 or side.refuse or not (lost or seven):
            return
        g, p = a.g, side.main
        c = self.comp.combat
        kinds = (kind, FORT) if kind == ARMY else (kind,)                # own units, the order lost in
        if c.land_loss_order == "forts_first" and kind == ARMY:
            kinds = kinds[::-1]
        count = {ARMY: side.units.get(p, 0), FLEET: side.units.get(p, 0), FORT: side.forts}
        own = [count[k] for k in kinds] + [0] * (2 - len(kinds))
        helpers = [q for q in side.units if q != p]
        ally = sum(side.units[q] for q in helpers)
        for slot in combat.loss_order(lost, tie, seven, own[0], own[1], ally, kinds[0] == FORT,
                                      kinds[-1] == FORT, c.tie_seven_from_ally):
            if slot == 2:
                q, k = max(helpers, key=lambda h: side.units[h]), kind
            else:
                q, k = p, kinds[slot]
            self.s.units[g, q, loc, k] -= 1
            if k == FORT:
                side.forts -= 1
            else:
                side.units[q] -= 1
            self.add_unrest(g, q, self.unrest_lost)
            self.s.stats["units_lost"][g, q] += 1
            if self.logs is not None:
                self.log(g, "loss", seat=q, unit=UNIT_NAMES[k], region=self.loc_name(loc))
        if kind == FLEET:
            self._check_blockade(g)

    def _after_land(self, a: Attack, res: dict) -> None:
        """SOE-12.9 .. 12.14 (land or fleet-only battle) and the tile raids of SOE-20.16/17."""
        g, s, t = a.g, self.s, self.t
        res = self._reserves(a, a.land, a.land_def, res, naval=(a.land_kind == FLEET))
        w = res["winner"]
        kind = a.target[0]
        if self.logs is not None:
            self.log(g, "battle", attacker=self.power_name(g, a.attacker), region=t.regions[a.region],
                     target=self.target_name(g, a.target), kind="fleet" if a.land_kind == FLEET else "land",
                     winner=w, **self._dice_fields(res))
        if a.land_def.main >= 0:
            self._maybe_refuse(a, a.land_def, res)
        loc = a.region
        self._losses(a, a.land, lost=(w <= 0), tie=(w == 0), seven=bool(PAIR_SEVEN[res["pa"]]), loc=loc,
                     kind=a.land_kind)
        self._losses(a, a.land_def, lost=(w >= 0), tie=(w == 0), seven=bool(PAIR_SEVEN[res["pd"]]), loc=loc,
                     kind=a.land_kind)
        p, r = a.attacker, a.region
        if kind == "raid":
            self._after_raid(a, w)
        elif w == 1:
            s.stats["battles_won"][g, p] += 1
            if kind == "player" and a.land_kind == ARMY:
                d = a.target[1]
                if s.markers[g, d, r] > 0:                       # SOE-12.9, SOE-A40
                    s.markers[g, d, r] -= 1
                    self.place_marker(g, p, r)
            elif kind == "neutral":
                tok = a.target[1]
                s.token_state[g, tok] = IN_BOX                   # SOE-12.14, SOE-A38
                self.place_marker(g, p, r)
                s.gold[g, p] += t.token_gold[tok]
                s.vp[g, p] += t.token_vp[tok]
            elif kind in ("pirates", "revolt"):                  # SOE-20.16.7 / 20.17.5
                self._free_captured(g, kind, p, r)
        elif kind == "player" and w == -1:
            s.stats["battles_won"][g, a.target[1]] += 1

    def _free_captured(self, g: int, kind: str, p: int, r: int) -> None:
        s = self.s
        name = "pirates" if kind == "pirates" else "slave_revolt"
        if kind == "pirates":
            s.pirates_region[g] = s.pirates_victim[g] = -1
        else:
            s.revolt_region[g] = s.revolt_victim[g] = -1
        s.dev_display[g, self.k[name]] += 1
        self.place_marker(g, p, r)

    def _after_raid(self, a: Attack, w: int) -> None:
        """SOE-20.16.5/6, SOE-A19: a winning tile takes the marker; otherwise it goes back to
        the display (a tie costs the defender a unit, already applied)."""
        g, s = a.g, self.s
        _, name, q = a.target
        if w == 1 and s.markers[g, q, a.region] > 0:
            s.markers[g, q, a.region] -= 1
            if name == "pirates":
                s.pirates_region[g], s.pirates_victim[g] = a.region, q
            else:
                s.revolt_region[g], s.revolt_victim[g] = a.region, q
        else:
            s.dev_display[g, self.k[name]] += 1
            if w != 1:
                s.stats["battles_won"][g, q] += 1
