"""Exact attack odds for players' decisions: one-duel odds, attack summaries, the canonical
form that lets many configurations share one exact law, and a table of laws by integer code.

A player foresees an attack as a `combat_exact.Attack` configuration and needs four numbers from its
exact law (`combat_exact.attack_odds`, SOE-12.3 .. 12.13): P(win), P(control change) and the expected
units lost by each side. Computing a law takes about a third of a millisecond, so laws are kept
for the life of the process, per combat rules and configuration code, and looked up as arrays.
"""

from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np

from sim.core.dice import diff_pmf
from sim.struggle import combat, combat_exact
from sim.struggle.components import CombatRules

# Configuration fields the players vary, in `combat_exact.Attack` order; the other fields are
# constant in every configuration they build (CONSTANT).
CODED = ("att_armies", "def_armies", "def_forts", "att_fleets", "def_fleets", "att_ally_armies", "att_ally_fleets",
         "def_ally_armies", "def_ally_fleets", "att_army_training", "def_army_training", "att_naval_training",
         "def_naval_training", "att_alliance_army", "def_alliance_army", "naval_phase", "neutral", "att_reserves",
         "def_reserves", "def_refuse", "def_has_marker", "att_bonus", "att_naval_bonus")
CONSTANT = {"att_alliance_fleet": 0, "def_alliance_fleet": 0, "def_bonus": 0, "def_naval_bonus": 0,
            "att_wants_naval": True, "def_wants_naval": True, "att_blockade": False, "def_blockade": False}
# The attacker's margin from units beyond the first two of a kind, clipped here: beyond the dice's
# reach (combat.MARGIN_CLIP) plus supports and everything else a margin can hold, so clipping it
# never changes a law.
BONUS_CLIP = 24
# Coded with an offset (stored value = value + offset): a signed field's code is never negative.
OFFSET = {"neutral": 1, "att_bonus": BONUS_CLIP, "att_naval_bonus": BONUS_CLIP}


def attack_summary(cfg: combat_exact.Attack, rules) -> tuple[float, float, float, float]:
    """(P(attacker wins), P(control change), E[attacker units lost], E[defender units lost])
    of one configuration, from the exact law of `combat_exact.solve_attack` (SOE-12.3); the law
    itself is not kept (`AttackLaws` keeps these figures)."""
    odds = combat_exact.solve_attack(cfg, rules)
    lost = sum(k * q for k, q in odds.losses("att").items())
    killed = sum(k * q for k, q in odds.losses("def").items())
    return odds.attacker_win, odds.control_change, lost, killed


@functools.cache
def win_table() -> np.ndarray:
    """P(win), P(tie) of a duel by strength difference att - def in -6..6 (SOE-12.4, E9)."""
    pmf = diff_pmf()
    out = np.zeros((13, 2))
    for delta in range(-6, 7):
        win = tie = Fraction(0)
        for da, pa in pmf.items():
            for dd, pd in pmf.items():
                total = delta + da - dd
                win += pa * pd * (total > 0)
                tie += pa * pd * (total == 0)
        out[delta + 6] = float(win), float(tie)
    return out


def duel_odds(att: int, dfn: int) -> tuple[float, float]:
    """Exact (P(attacker wins), P(tie)) of one duel."""
    d = max(-6, min(6, att - dfn))
    w, t = win_table()[d + 6]
    return float(w), float(t)


def canonical_attack(a: combat_exact.Attack, r) -> combat_exact.Attack:
    """An attack with the same exact law as `a` under rules `r` (so the same summary), with
    every field `combat_exact.attack_odds` reads only through a sum folded into that sum, to share one
    cache entry among many configurations (SOE-12.3 .. 12.13 as the exact law implements them):

    - a side's losses in one battle are at most 2 (the loss, a 7), taken in a fixed order from
      units present, so only min(count, 2) of each kind matters beyond its strength;
    - strengths matter only as the margin of the two sides, clipped at +-6 by the dice
      (`combat.MARGIN_CLIP`; the land margin before naval support at +-(6 + the largest support));
      the margin goes into `att_bonus` / `att_naval_bonus` with counts, training and alliance
      tiles removed;
    - a naval phase that is not fought matters only through the naval support it gives;
    - the defender's fields mean nothing against a neutral (the token's strength is folded into
      the margin), land fields nothing in a naval-only attack.
    The attacker's `att_bonus` / `att_naval_bonus` (the players fold the strength of units beyond
    the first two of a kind into them) join their margins. Configurations outside the forms the
    players build (naval choices, Blockade, alliance fleet symbols, defender bonuses set) are
    returned unchanged."""
    if (not a.att_wants_naval or not a.def_wants_naval or a.att_blockade or a.def_blockade
            or a.att_alliance_fleet or a.def_alliance_fleet or a.def_bonus or a.def_naval_bonus):
        return a
    neutral, aaa, aaf, da, dfo, dfl, daa, daf = combat_exact.taking_part(a, r)
    naval_only = a.att_armies == 0
    af = a.att_fleets
    att_fight = af > 0
    def_fight = dfl > 0
    fought = a.naval_phase and not neutral and att_fight and def_fight
    naval_bonus = 0
    if fought:
        fs, tb = r.fleet_strength, r.training_bonus
        margin = (fs * (af + aaf) + tb * (a.att_naval_training > a.def_naval_training) + a.att_naval_bonus
                  - fs * (dfl + daf) - tb * (a.def_naval_training > a.att_naval_training))
        margin = max(-combat.MARGIN_CLIP, min(combat.MARGIN_CLIP, margin))
        af, aaf, dfl, daf = min(af, 2), min(aaf, 2), min(dfl, 2), min(daf, 2)
        naval_bonus = margin - fs * (af + aaf) + fs * (dfl + daf)
    elif not a.naval_phase or naval_only:
        af = aaf = dfl = daf = 0
    elif neutral:
        att_navy = af > 0 or (not r.naval_support_needs_own_fleet and aaf > 0)
        af, aaf, dfl, daf = int(att_navy), 0, 0, 0
    elif not att_fight:
        def_navy = (dfl > 0 or (not r.naval_support_needs_own_fleet and daf > 0)
                    or r.naval_support_on_decline == "always")
        af, aaf, dfl, daf = 0, 0, int(def_navy), 0
    else:
        af, aaf, dfl, daf = 1, 0, 0, 0
    if naval_only:
        armies = aaa = da = dfo = daa = bonus = 0
    else:
        ast, tb, ab = r.army_strength, r.training_bonus, r.alliance_bonus
        att_l = (ast * (a.att_armies + aaa) + tb * (a.att_army_training > (0 if neutral else a.def_army_training))
                 + ab * a.att_alliance_army + a.att_bonus)
        if neutral:
            def_l = a.neutral
        else:
            def_l = (ast * (da + daa) + r.fort_strength * dfo
                     + tb * (a.def_army_training > a.att_army_training and da + dfo > 0) + ab * a.def_alliance_army)
        clip = combat.MARGIN_CLIP + abs(r.naval_support) + abs(r.blockade_support)
        margin = max(-clip, min(clip, att_l - def_l))
        armies, aaa, da, dfo, daa = min(a.att_armies, 2), min(aaa, 2), min(da, 2), min(dfo, 2), min(daa, 2)
        bonus = margin - ast * (armies + aaa) + ast * (da + daa) + r.fort_strength * dfo
    return combat_exact.Attack(
        att_armies=armies, def_armies=da, def_forts=dfo, att_fleets=af, def_fleets=dfl, att_ally_armies=aaa,
        att_ally_fleets=aaf, def_ally_armies=daa, def_ally_fleets=daf, att_bonus=bonus, att_naval_bonus=naval_bonus,
        naval_phase=bool(a.naval_phase), neutral=0 if neutral else -1, att_reserves=a.att_reserves,
        def_reserves=0 if neutral else a.def_reserves, def_refuse=bool(a.def_refuse) and not neutral,
        def_has_marker=bool(a.def_has_marker) or neutral or naval_only)


class LawTable:
    """Attack summaries of one set of combat rules by configuration code: configurations of
    the CODED fields in mixed radix `radix` (signed fields stored + `offset`), kept as a
    sorted code array and a summary table for vectorised lookups; laws are computed once per
    canonical form."""

    def __init__(self, rules: CombatRules, radix: tuple[int, ...]) -> None:
        self.rules, self.radix = rules, radix
        assert np.prod(np.array(radix, dtype=float)) < 2.0 ** 62, "configuration codes must fit in int64"
        self.mult = np.cumprod((1,) + radix[:0:-1])[::-1].astype(np.int64)
        self.codes = np.zeros(0, dtype=np.int64)
        self.table = np.zeros((0, 4))
        self.by_canon: dict[combat_exact.Attack, tuple[float, float, float, float]] = {}

    def encode(self, fields: dict[str, np.ndarray]) -> np.ndarray:
        """Integer code of each configuration (arrays of the CODED fields)."""
        code = np.zeros(len(fields["att_armies"]), dtype=np.int64)
        for name, m in zip(CODED, self.mult):
            code += (fields[name].astype(np.int64) + OFFSET.get(name, 0)) * m
        return code

    def decode(self, code: int) -> combat_exact.Attack:
        values = dict(CONSTANT)
        for name, radix, m in zip(CODED, self.radix, self.mult.tolist()):
            values[name] = code // m % radix - OFFSET.get(name, 0)
        return combat_exact.Attack(**values)

    def lookup(self, codes: np.ndarray, compute: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """(summary rows, known mask) of `codes`, unknown rows NaN; with `compute`, the
        missing laws are computed first."""
        rows, known = self._find(codes)
        if compute and not known.all():
            self._add(np.unique(codes[~known]))
            rows, known = self._find(codes)
        return rows, known

    def _find(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if not len(self.codes):
            return np.full((len(codes), 4), np.nan), np.zeros(len(codes), dtype=bool)
        i = np.minimum(np.searchsorted(self.codes, codes), len(self.codes) - 1)
        known = self.codes[i] == codes
        return np.where(known[:, None], self.table[i], np.nan), known

    def _add(self, codes: np.ndarray) -> None:
        """Compute the laws of new codes (sorted, unique) and insert them in order."""
        rows = []
        for c in codes.tolist():
            canon = canonical_attack(self.decode(c), self.rules)
            found = self.by_canon.get(canon)
            if found is None:
                found = self.by_canon[canon] = attack_summary(canon, self.rules)
            rows.append(found)
        at = np.searchsorted(self.codes, codes)
        self.codes = np.insert(self.codes, at, codes)
        self.table = np.insert(self.table, at, np.array(rows, dtype=float), axis=0)


_TABLES: dict = {}


def law_table(rules: CombatRules, radix: tuple[int, ...]) -> LawTable:
    """The process-wide table of laws for these combat rules and code radices."""
    table = _TABLES.get((rules, radix))
    if table is None:
        table = _TABLES[(rules, radix)] = LawTable(rules, radix)
    return table
