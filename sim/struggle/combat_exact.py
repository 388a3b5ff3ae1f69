"""Exact Struggle of Empires combat odds (SOE-12, SOE-20.3, SOE-20.18): the joint law of a whole
attack (`attack_odds`) and of one duel with Reserves re-rolls (`duel_law`), by enumerating the 36 x
36 dice pairs in classes. They are the oracles of the bulk kernels of sim.struggle.combat (same
inputs, same policies; see its docstring) and the odds the scripted players act on.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import NamedTuple

from sim.core.dice import PAIR_DIFF, PAIR_SEVEN
from sim.struggle.combat import ATT_WIN, DEF_WIN, MARGIN_CLIP, NOT_FOUGHT, TIE, loss_counts, wants_reroll
from sim.struggle.components import CombatRules


# The 36 equally likely two-dice rolls fall into 8 classes of (difference, sum is 7).
PAIR_CLASSES: tuple[tuple[int, bool, int], ...] = tuple(sorted(
    {(int(d), bool(s), int(((PAIR_DIFF == d) & (PAIR_SEVEN == s)).sum()))
     for d, s in zip(PAIR_DIFF.tolist(), PAIR_SEVEN.tolist())}))


@functools.lru_cache(maxsize=None)
def duel_law(base: int, att_reserves: int = 0, def_reserves: int = 0, policy: str = "greedy",
             for_any_change: bool = True) -> tuple[tuple[int, bool, bool, int, int, float], ...]:
    """SOE-12.4 / SOE-12.10 / SOE-20.3: exact joint law of one duel with Reserves re-rolls.

    Returns (winner, att_seven, def_seven, att_reserves_left, def_reserves_left, probability)
    rows for an attacker-minus-defender margin `base` (totals without dice)."""
    base = max(-MARGIN_CLIP, min(MARGIN_CLIP, int(base)))
    if policy == "never":
        att_reserves = def_reserves = 0
    law: dict[tuple, float] = {}
    for ca in PAIR_CLASSES:
        for cd in PAIR_CLASSES:
            p = ca[2] * cd[2] / 1296.0
            for key, q in _rerolls(base, ca[:2], cd[:2], att_reserves, def_reserves, True, policy, for_any_change):
                law[key] = law.get(key, 0.0) + p * q
    return tuple((*k, v) for k, v in sorted(law.items()))


@functools.lru_cache(maxsize=None)
def _rerolls(base: int, ca: tuple[int, bool], cd: tuple[int, bool], ra: int, rd: int, att_turn: bool,
             policy: str, for_any_change: bool) -> tuple[tuple[tuple, float], ...]:
    """Law of the final (winner, sevens, reserves left) from a rolled state (SOE-A20 turns)."""
    want_a, want_d = (bool(w) for w in wants_reroll(base, ca[0], cd[0], policy, for_any_change))
    want_a &= ra > 0
    want_d &= rd > 0
    att_rolls = want_a and (att_turn or not want_d)
    if not (att_rolls or want_d):
        winner = (base + ca[0] - cd[0] > 0) - (base + ca[0] - cd[0] < 0)
        return (((winner, ca[1], cd[1], ra, rd), 1.0),)
    out: dict[tuple, float] = {}
    for c in PAIR_CLASSES:
        new = (c[0], c[1])
        nxt = (_rerolls(base, new, cd, ra - 1, rd, False, policy, for_any_change) if att_rolls
               else _rerolls(base, ca, new, ra, rd - 1, True, policy, for_any_change))
        for key, q in nxt:
            out[key] = out.get(key, 0.0) + c[2] / 36.0 * q
    return tuple(out.items())


class Attack(NamedTuple):
    """One attack configuration for exact odds (same meaning as the bulk inputs); a NamedTuple
    so that the exact-odds cache hashes it at C speed."""

    att_armies: int = 1
    def_armies: int = 0
    def_forts: int = 0
    att_fleets: int = 0
    def_fleets: int = 0
    att_ally_armies: int = 0
    att_ally_fleets: int = 0
    def_ally_armies: int = 0
    def_ally_fleets: int = 0
    att_army_training: int = 0
    def_army_training: int = 0
    att_naval_training: int = 0
    def_naval_training: int = 0
    att_alliance_army: int = 0
    att_alliance_fleet: int = 0
    def_alliance_army: int = 0
    def_alliance_fleet: int = 0
    att_bonus: int = 0
    def_bonus: int = 0
    att_naval_bonus: int = 0
    def_naval_bonus: int = 0
    naval_phase: bool = False
    att_wants_naval: bool = True
    def_wants_naval: bool = True
    att_blockade: bool = False
    def_blockade: bool = False
    neutral: int = -1
    att_reserves: int = 0
    def_reserves: int = 0
    def_refuse: bool = False
    def_has_marker: bool = True

    def inputs(self) -> dict[str, int]:
        """The bulk keyword inputs of this configuration."""
        return {name: int(value) for name, value in self._asdict().items() if name != "att_armies"}


class Outcome(NamedTuple):
    """One outcome of an attack: battle results and units lost per kind and owner."""

    naval: int
    land: int
    att_armies_lost: int
    att_fleets_lost: int
    att_ally_armies_lost: int
    att_ally_fleets_lost: int
    def_armies_lost: int
    def_forts_lost: int
    def_fleets_lost: int
    def_ally_armies_lost: int
    def_ally_fleets_lost: int
    control_change: bool

    @property
    def att_units_lost(self) -> int:
        return self.att_armies_lost + self.att_fleets_lost + self.att_ally_armies_lost + self.att_ally_fleets_lost

    @property
    def def_units_lost(self) -> int:
        return (self.def_armies_lost + self.def_forts_lost + self.def_fleets_lost
                + self.def_ally_armies_lost + self.def_ally_fleets_lost)

    @property
    def winner(self) -> int:
        return self.naval if self.land == NOT_FOUGHT else self.land


@dataclass(frozen=True)
class AttackOdds:
    """Exact law of an attack: `law` maps each `Outcome` to its probability."""

    law: tuple[tuple[Outcome, float], ...]

    def prob(self, predicate) -> float:
        return float(sum(p for o, p in self.law if predicate(o)))

    @property
    def attacker_win(self) -> float:
        return self.prob(lambda o: o.winner == ATT_WIN)

    @property
    def tie(self) -> float:
        return self.prob(lambda o: o.winner == TIE)

    @property
    def defender_win(self) -> float:
        return self.prob(lambda o: o.winner == DEF_WIN)

    @property
    def no_battle(self) -> float:
        return self.prob(lambda o: o.winner == NOT_FOUGHT)

    @property
    def control_change(self) -> float:
        return self.prob(lambda o: o.control_change)

    def losses(self, side: str) -> dict[int, float]:
        """Law of the number of units lost by the attacking ("att") or defending ("def") side."""
        out: dict[int, float] = {}
        for o, p in self.law:
            k = o.att_units_lost if side == "att" else o.def_units_lost
            out[k] = out.get(k, 0.0) + p
        return dict(sorted(out.items()))


def taking_part(a: Attack, r: CombatRules) -> tuple[bool, int, int, int, int, int, int, int]:
    """(against a neutral, attacker's ally armies, ally fleets, defender's armies, forts, fleets,
    ally armies, ally fleets) that take part: against a neutral no defending units (SOE-12.14)
    and the attacker's allies only under `neutral_attacker_allies`."""
    neutral = a.neutral >= 0
    allies_ok = not neutral or r.neutral_attacker_allies
    aaa = a.att_ally_armies if allies_ok else 0
    aaf = a.att_ally_fleets if allies_ok else 0
    if neutral:
        return neutral, aaa, aaf, 0, 0, 0, 0, 0
    return neutral, aaa, aaf, a.def_armies, a.def_forts, a.def_fleets, a.def_ally_armies, a.def_ally_fleets


@functools.lru_cache(maxsize=1 << 16)
def attack_odds(a: Attack, r: CombatRules = CombatRules()) -> AttackOdds:
    """SOE-12.3: exact outcome law of one attack (cached per configuration and rules: the odds
    tables and the CLI ask for the same attacks again)."""
    return solve_attack(a, r)


def solve_attack(a: Attack, r: CombatRules = CombatRules()) -> AttackOdds:
    """`attack_odds` without its cache, for callers that keep what they read of the law
    (`attack_laws` keeps four figures per attack: keeping every whole law as well grew a
    process by about 300 MB over 20,000 games)."""
    neutral, aaa, aaf, da, dfo, dfl, daa, daf = taking_part(a, r)
    tie7 = r.tie_seven_from_ally
    ra, rd = a.att_reserves, (0 if neutral else a.def_reserves)
    naval_only = a.att_armies == 0
    own_only = r.naval_support_needs_own_fleet
    att_navy = a.att_fleets > 0 or (not own_only and aaf > 0)
    def_navy = dfl > 0 or (not own_only and daf > 0) or r.naval_support_on_decline == "always"
    att_fight = a.att_fleets > 0 and a.att_wants_naval
    def_fight = dfl > 0 and (a.def_wants_naval or (naval_only and r.naval_only_defender_must_fight))
    fought = a.naval_phase and not neutral and att_fight and def_fight
    if not a.naval_phase:
        support = 0
    elif neutral:
        support = 1 if att_navy else 0  # SOE-12.14
    elif naval_only:
        support = 0
    elif not att_fight:
        support = -1 if def_navy else 0
    else:
        support = 1 if not def_fight else 0

    # SOE-12.7: naval battle law -> (naval result, fleet losses, support, reserves left)
    stages: list[tuple[float, int, tuple[int, int, int, int], int, int, int]] = []
    if fought:
        att_n = (r.fleet_strength * (a.att_fleets + aaf) + r.alliance_bonus * a.att_alliance_fleet
                 + r.training_bonus * (a.att_naval_training > a.def_naval_training) + a.att_naval_bonus)
        def_n = (r.fleet_strength * (dfl + daf) + r.alliance_bonus * a.def_alliance_fleet
                 + r.training_bonus * (a.def_naval_training > a.att_naval_training) + a.def_naval_bonus)
        nra, nrd = (ra, rd) if r.reserves_in_naval_battle else (0, 0)
        for w, sa, sd, ra_left, rd_left, p in duel_law(att_n - def_n, nra, nrd, r.reserves_policy,
                                                            r.reserves_for_any_change):
            af, _, aaf_l = loss_counts(w <= TIE, w == TIE, sa, a.att_fleets, 0, aaf, tie_seven_from_ally=tie7)
            df, _, daf_l = loss_counts(w >= TIE, w == TIE, sd, dfl, 0, daf, tie_seven_from_ally=tie7)
            left = (ra_left, rd_left) if r.reserves_in_naval_battle else (ra, rd)
            stages.append((p, w, (af, aaf_l, df, daf_l), 0 if w == TIE else w, *left))
    else:
        stages.append((1.0, NOT_FOUGHT, (0, 0, 0, 0), support, ra, rd))

    # SOE-12.8 - 12.13: land battle for each naval outcome.
    law: dict[Outcome, float] = {}
    for p_naval, naval, (af, aaf_l, df, daf_l), sup, ra_left, rd_left in stages:
        if naval_only:
            lands = [(NOT_FOUGHT, False, False, 1.0)]
        else:
            att_l = (r.army_strength * (a.att_armies + aaa)
                     + r.training_bonus * (a.att_army_training > (0 if neutral else a.def_army_training))
                     + (r.blockade_support if a.att_blockade else r.naval_support) * (sup > 0)
                     + r.alliance_bonus * a.att_alliance_army + a.att_bonus)
            if neutral:
                def_l = a.neutral
            else:
                def_l = (r.army_strength * (da + daa) + r.fort_strength * dfo
                         + r.training_bonus * (a.def_army_training > a.att_army_training and da + dfo > 0)
                         + (r.blockade_support if a.def_blockade else r.naval_support) * (sup < 0)
                         + r.alliance_bonus * a.def_alliance_army + a.def_bonus)
            lands = [(w, sa, sd, p) for w, sa, sd, _, _, p in
                     duel_law(att_l - def_l, ra_left, rd_left, r.reserves_policy, r.reserves_for_any_change)]
        for land, sa, sd, p_land in lands:
            fought_land = land != NOT_FOUGHT
            aa, _, aaa_l = loss_counts(fought_land and land <= TIE, land == TIE, fought_land and sa,
                                       a.att_armies, 0, aaa, tie_seven_from_ally=tie7)
            dl_a = dl_f = daa_l = 0
            if fought_land and not neutral:
                if r.land_loss_order == "forts_first":
                    dl_f, dl_a, daa_l = loss_counts(land >= TIE, land == TIE, sd, dfo, da, daa, first_is_fort=True,
                                                    tie_seven_from_ally=tie7)
                else:
                    dl_a, dl_f, daa_l = loss_counts(land >= TIE, land == TIE, sd, da, dfo, daa, second_is_fort=True,
                                                    tie_seven_from_ally=tie7)
            d_losses = (dl_a, dl_f, df, daa_l, daf_l)
            if a.def_refuse and not neutral and sum(d_losses) > 0:
                d_losses = (0, 0, 0, 0, 0)  # SOE-20.18
            control = land == ATT_WIN and (neutral or a.def_has_marker)
            key = Outcome(naval, land, aa, af, aaa_l, aaf_l, *d_losses, control)
            law[key] = law.get(key, 0.0) + p_naval * p_land
    return AttackOdds(tuple(law.items()))
