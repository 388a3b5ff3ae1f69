"""Struggle of Empires combat (SOE-12, SOE-20.3 Reserves, SOE-20.18 Refuse Battle, SOE-20.20
Blockade): bulk kernels over arrays of battles and their exact counterparts.

Bulk API
--------
All bulk functions are pure functions of (rng, arrays): pass a `Generator` from
`sim.core.random.stream(...)` and per-battle arrays (or scalars, broadcast to the batch); the
same rng state and inputs give the same outputs. Work is done in fixed chunks of `CHUNK`
battles, so memory stays small and results do not depend on how the caller batches games.

`duel(rng, att_total, def_total) -> (winner int8, att_seven bool, def_seven bool)`
    One SOE-12.4 dice duel per battle from ONE uint16 draw (1296-entry tables): each side adds
    the difference of its two dice to its total (strength + modifiers, without dice); winner
    +1 attacker, 0 tie, -1 defender; `*_seven` = that side's dice sum to 7 (SOE-12.10).

`settle_duels(k, att_total, def_total)`
    The same from duel indices `k` (0..1295) drawn by the caller, e.g. from one stream per game.

`resolve_attacks(rng, att_armies, *, ...) -> AttackResult`
    Whole attacks (SOE-12.3): naval phase then land battle, against a player or a neutral
    token. Keyword arrays (all default 0/False; -1 for `neutral`):
      att_armies, att_fleets               attacker's own armies in the region / fleets in the
                                           naval-battle region (Mediterranean for Ottoman battles)
      def_armies, def_forts, def_fleets    defender's own units (forts defend at 2, SOE-12.8)
      att_ally_armies, att_ally_fleets,    units committed by helping allies, pooled per side
      def_ally_armies, def_ally_fleets     (SOE-12.5; forts never help)
      att_army_training, def_army_training,        Army / Naval Training tile counts of the
      att_naval_training, def_naval_training       two main players (superiority, SOE-12.7.4/12.8)
      att_alliance_army, att_alliance_fleet,       1 if the main player uses an alliance tile's
      def_alliance_army, def_alliance_fleet        army / fleet +1 here (SOE-12.6)
      att_bonus, def_bonus, att_naval_bonus, def_naval_bonus   any other land / naval modifiers
      naval_phase                          the battle region has a naval phase (SOE-12.7.1)
      att_wants_naval, def_wants_naval     the side wants the naval battle (default True;
                                           a side needs an own fleet to fight it, SOE-12.7.2)
      att_blockade, def_blockade           Blockade (b): naval support +2 instead of +1
      neutral                              strength of the attacked neutral token, -1 = player
      att_reserves, def_reserves           Reserves tiles available (SOE-20.3; policy below)
      def_refuse                           defender holds Refuse Battle (SOE-20.18)
      def_has_marker                       the defender has a control marker there (default True)
      rules                                `CombatRules` (constants and options; default data)
    A battle with att_armies == 0 is a naval-only attack (SOE-12.15).
    `AttackResult` holds per-battle arrays:
      naval, land        int8: ATT_WIN 1, TIE 0, DEF_WIN -1, NOT_FOUGHT -2
      support            int8: +1 attacker had naval support, -1 defender, 0 nobody
      att_armies_lost, att_fleets_lost, att_ally_armies_lost, att_ally_fleets_lost,
      def_armies_lost, def_forts_lost, def_fleets_lost, def_ally_armies_lost,
      def_ally_fleets_lost                 int16 units lost (each = 1 unrest to its owner)
      att_reserves_used, def_reserves_used int16
      refuse_used        bool: the defender played Refuse Battle (it returns to the display)
      control_change     bool: the attacker takes a control marker / the neutral's space
    Allies are pooled per side: with several helping allies the engine decides which one
    loses a unit the kernel assigns to "ally" (the loser chooses, SOE-12.10 / SOE-A11).

Exact counterparts (sim.struggle.combat_exact): `attack_odds(Attack(...), rules) -> AttackOdds`
(joint law of the outcome, cached) and `duel_law(base, ...)`.

Policies where the rules leave a choice (SOE-25; options in data/options.toml):
- Reserves (SOE-20.3, SOE-A20): after both sides roll, the attacker may re-roll first, then
  the defender, alternating until both decline. Policy `greedy` (default): the attacker
  re-rolls while not winning (a tie gives him nothing), the defender only while losing (a tie
  keeps his marker); a side re-rolls only when its best possible new roll would change the
  result. `not_winning`: both re-roll while not winning. `never`. Reserves may be spent in the
  naval battle (option `reserves_in_naval_battle`).
- Losses (SOE-A11, SOE-A12): the battle loss comes from the side's own units first (armies
  before forts, option `land_loss_order`), then from an ally; the "7" loss of a side that lost
  the battle and was helped falls on an ally first (SOE-12.10), otherwise on own units first
  (a tied side counts as losing with the option `tie_seven_from_ally`). `loss_order` is the one
  scalar allocation (engine and exact odds), `_allocate` its bulk twin.
  Forts are never lost in a tie, including the "7" loss of a tie (SOE-12.11). Losses are capped
  by the units present.
- Naval support (SOE-A9): only a side whose main player has an own fleet in the naval-battle
  region gets support (option `naval_support_needs_own_fleet`); with `naval_support_on_decline`
  = always (the literal SOE-12.7.3) the defender gets it whenever the attacker does not fight.
- Refuse Battle (SOE-20.18, SOE-A21): played after the dice whenever the defending side would
  lose a unit in this attack; cancels every defending-side loss of the attack.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, fields

import numpy as np

from sim.core.dice import DUEL_FIRST, DUEL_SECOND, PAIR_DIFF, PAIR_SEVEN, duels, pairs
from sim.struggle.components import CombatRules

ATT_WIN, TIE, DEF_WIN, NOT_FOUGHT = 1, 0, -1, -2
CHUNK = 1 << 16
MARGIN_CLIP = 6  # |dice delta| <= 5, so a base margin beyond +-6 decides like +-6

DUEL_DIFF_A = PAIR_DIFF[DUEL_FIRST].astype(np.int8)
DUEL_DIFF_B = PAIR_DIFF[DUEL_SECOND].astype(np.int8)
DUEL_DELTA = (DUEL_DIFF_A - DUEL_DIFF_B).astype(np.int8)
DUEL_SEVEN_A = PAIR_SEVEN[DUEL_FIRST].copy()
DUEL_SEVEN_B = PAIR_SEVEN[DUEL_SECOND].copy()
POLICIES = ("greedy", "not_winning", "never")


# --------------------------------------------------------------------------------------------
# Low-level duel kernel
# --------------------------------------------------------------------------------------------

def duel(rng: np.random.Generator, att_total, def_total, n: int | None = None,
         chunk: int = CHUNK) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """SOE-12.4 / SOE-12.10: one dice duel per battle -- each side adds its two-dice difference
    to its total (strength + modifiers, without dice); higher wins; a side whose dice sum to 7
    is flagged. One uint16 draw per duel, 1296-entry tables, chunked with preallocated outputs.

    Totals are used as int8 and must lie in -60..60 (arrays of another dtype are clipped)."""
    att = _as_total(att_total)
    dfn = _as_total(def_total)
    size = int(n) if n is not None else int(np.prod(np.broadcast_shapes(att.shape, dfn.shape)))
    att = np.broadcast_to(att.reshape(-1) if att.ndim else att, (size,))
    dfn = np.broadcast_to(dfn.reshape(-1) if dfn.ndim else dfn, (size,))
    winner = np.empty(size, dtype=np.int8)
    att_seven = np.empty(size, dtype=bool)
    def_seven = np.empty(size, dtype=bool)
    delta = np.empty(min(chunk, size), dtype=np.int8)
    for start in range(0, size, chunk):
        stop = min(start + chunk, size)
        k = duels(rng, stop - start)
        w = winner[start:stop]
        np.subtract(att[start:stop], dfn[start:stop], out=w)
        t = delta[: stop - start]
        np.take(DUEL_DELTA, k, out=t)
        np.add(w, t, out=w)
        np.sign(w, out=w)
        np.take(DUEL_SEVEN_A, k, out=att_seven[start:stop])
        np.take(DUEL_SEVEN_B, k, out=def_seven[start:stop])
    return winner, att_seven, def_seven


def settle_duels(k, att_total, def_total) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """SOE-12.4 / SOE-12.10 from duel indices drawn elsewhere (e.g. one stream per game):
    `k` = attacker pair * 36 + defender pair, as `sim.core.dice.duels` draws them. Returns
    (winner, att_seven, def_seven) exactly as `duel` would for the same indices."""
    k = np.asarray(k)
    margin = np.clip(np.asarray(att_total, dtype=np.int64) - np.asarray(def_total, dtype=np.int64),
                     -MARGIN_CLIP, MARGIN_CLIP) + DUEL_DELTA[k]
    return np.sign(margin).astype(np.int8), DUEL_SEVEN_A[k], DUEL_SEVEN_B[k]


def _as_total(x) -> np.ndarray:
    x = np.asarray(x)
    return x if x.dtype == np.int8 else np.clip(x, -60, 60).astype(np.int8)


# --------------------------------------------------------------------------------------------
# Bulk attacks
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class AttackResult:
    """Per-battle outcome arrays of `resolve_attacks` (see the module docstring)."""

    naval: np.ndarray
    support: np.ndarray
    land: np.ndarray
    att_armies_lost: np.ndarray
    att_fleets_lost: np.ndarray
    att_ally_armies_lost: np.ndarray
    att_ally_fleets_lost: np.ndarray
    def_armies_lost: np.ndarray
    def_forts_lost: np.ndarray
    def_fleets_lost: np.ndarray
    def_ally_armies_lost: np.ndarray
    def_ally_fleets_lost: np.ndarray
    att_reserves_used: np.ndarray
    def_reserves_used: np.ndarray
    refuse_used: np.ndarray
    control_change: np.ndarray

    @property
    def att_units_lost(self) -> np.ndarray:
        """Units lost by the attacking side (own and allies')."""
        return self.att_armies_lost + self.att_fleets_lost + self.att_ally_armies_lost + self.att_ally_fleets_lost

    @property
    def def_units_lost(self) -> np.ndarray:
        """Units lost by the defending side (own and allies')."""
        return (self.def_armies_lost + self.def_forts_lost + self.def_fleets_lost
                + self.def_ally_armies_lost + self.def_ally_fleets_lost)

    @property
    def winner(self) -> np.ndarray:
        """The deciding battle: the land battle, or the naval battle of a naval-only attack."""
        return np.where(self.land == NOT_FOUGHT, self.naval, self.land).astype(np.int8)


INPUTS = {  # name -> default; every input is broadcast to the batch as int16
    "att_fleets": 0, "def_armies": 0, "def_forts": 0, "def_fleets": 0,
    "att_ally_armies": 0, "att_ally_fleets": 0, "def_ally_armies": 0, "def_ally_fleets": 0,
    "att_army_training": 0, "def_army_training": 0, "att_naval_training": 0, "def_naval_training": 0,
    "att_alliance_army": 0, "att_alliance_fleet": 0, "def_alliance_army": 0, "def_alliance_fleet": 0,
    "att_bonus": 0, "def_bonus": 0, "att_naval_bonus": 0, "def_naval_bonus": 0,
    "naval_phase": 0, "att_wants_naval": 1, "def_wants_naval": 1, "att_blockade": 0, "def_blockade": 0,
    "neutral": -1, "att_reserves": 0, "def_reserves": 0, "def_refuse": 0, "def_has_marker": 1,
}


def resolve_attacks(rng: np.random.Generator, att_armies, *, rules: CombatRules = CombatRules(),
                    n: int | None = None, **inputs) -> AttackResult:
    """SOE-12.3: resolve N independent attacks (naval phase, then land battle) in bulk.

    Inputs and outputs: see the module docstring. Chunks of `CHUNK` attacks are resolved one
    after the other from the same rng, so the answer depends only on (rng, inputs).
    """
    unknown = set(inputs) - set(INPUTS)
    if unknown:
        raise TypeError(f"resolve_attacks: unknown inputs {sorted(unknown)}")
    arrays = {"att_armies": np.asarray(att_armies)}
    arrays.update({k: np.asarray(inputs.get(k, d)) for k, d in INPUTS.items()})
    shape = np.broadcast_shapes(*(a.shape for a in arrays.values()))
    size = int(n) if n is not None else int(np.prod(shape))
    full = {k: np.broadcast_to(v.astype(np.int16).reshape(-1) if v.ndim else v.astype(np.int16), (size,))
            for k, v in arrays.items()}
    parts = [_resolve_chunk(rng, {k: v[s:s + CHUNK] for k, v in full.items()}, rules)
             for s in range(0, size, CHUNK)]
    if not parts:
        parts = [_resolve_chunk(rng, {k: v[:0] for k, v in full.items()}, rules)]
    return AttackResult(**{f.name: np.concatenate([getattr(p, f.name) for p in parts])
                           for f in fields(AttackResult)})


def _resolve_chunk(rng: np.random.Generator, x: dict[str, np.ndarray], r: CombatRules) -> AttackResult:
    m = x["att_armies"].shape[0]
    i16 = np.int16
    zero = np.zeros(m, dtype=i16)
    neutral = x["neutral"] >= 0
    allies_ok = ~neutral | r.neutral_attacker_allies
    att_ally_armies = np.where(allies_ok, x["att_ally_armies"], 0).astype(i16)
    att_ally_fleets = np.where(allies_ok, x["att_ally_fleets"], 0).astype(i16)
    def_armies = np.where(neutral, 0, x["def_armies"]).astype(i16)
    def_forts = np.where(neutral, 0, x["def_forts"]).astype(i16)
    def_fleets = np.where(neutral, 0, x["def_fleets"]).astype(i16)
    def_ally_armies = np.where(neutral, 0, x["def_ally_armies"]).astype(i16)
    def_ally_fleets = np.where(neutral, 0, x["def_ally_fleets"]).astype(i16)
    naval_phase = x["naval_phase"] > 0
    att_fleets = x["att_fleets"]
    naval_only = x["att_armies"] == 0
    ra0 = x["att_reserves"].astype(i16)
    rd0 = np.where(neutral, 0, x["def_reserves"]).astype(i16)

    # SOE-12.7.3 naval-phase decisions; SOE-A9 entitlement to support.
    att_navy = (att_fleets > 0) | (~np.bool_(r.naval_support_needs_own_fleet) & (att_ally_fleets > 0))
    def_navy = (def_fleets > 0) | (~np.bool_(r.naval_support_needs_own_fleet) & (def_ally_fleets > 0))
    def_navy |= r.naval_support_on_decline == "always"        # it only matters when the attacker declines
    att_can, def_can = att_fleets > 0, def_fleets > 0
    att_fight = att_can & (x["att_wants_naval"] > 0)
    def_fight = def_can & ((x["def_wants_naval"] > 0) | (naval_only & r.naval_only_defender_must_fight))
    fought = naval_phase & ~neutral & att_fight & def_fight
    support = np.zeros(m, dtype=np.int8)
    support[naval_phase & ~neutral & ~naval_only & ~att_fight & def_navy] = -1
    support[naval_phase & ~neutral & ~naval_only & att_fight & ~def_fight] = 1
    support[naval_phase & neutral & att_navy] = 1  # SOE-12.14: never a naval battle vs a neutral

    # SOE-12.7.4 naval battle.
    att_naval = (r.fleet_strength * (att_fleets + att_ally_fleets) + r.alliance_bonus * x["att_alliance_fleet"]
                 + r.training_bonus * (x["att_naval_training"] > x["def_naval_training"]) + x["att_naval_bonus"])
    def_naval = (r.fleet_strength * (def_fleets + def_ally_fleets) + r.alliance_bonus * x["def_alliance_fleet"]
                 + r.training_bonus * (x["def_naval_training"] > x["att_naval_training"]) + x["def_naval_bonus"])
    use = fought & np.bool_(r.reserves_in_naval_battle)
    nra = np.where(use, ra0, 0).astype(i16)
    nrd = np.where(use, rd0, 0).astype(i16)
    naval, n_sa, n_sd = _battle(rng, att_naval, def_naval, nra, nrd, r.reserves_policy, r.reserves_for_any_change)
    naval = np.where(fought, naval, NOT_FOUGHT).astype(np.int8)
    support = np.where(fought, np.where(naval == TIE, 0, naval), support).astype(np.int8)
    tie7 = r.tie_seven_from_ally
    att_f_lost, _, att_af_lost = _allocate(fought & (naval <= TIE), fought & (naval == TIE), fought & n_sa,
                                           att_fleets, zero, att_ally_fleets, tie_seven_from_ally=tie7)
    def_f_lost, _, def_af_lost = _allocate(fought & (naval >= TIE), fought & (naval == TIE), fought & n_sd,
                                           def_fleets, zero, def_ally_fleets, tie_seven_from_ally=tie7)
    ra = np.where(use, nra, ra0).astype(i16)
    rd = np.where(use, nrd, rd0).astype(i16)

    # SOE-12.8 land battle.
    land_fought = ~naval_only
    att_land = (r.army_strength * (x["att_armies"] + att_ally_armies)
                + r.training_bonus * (x["att_army_training"] > np.where(neutral, 0, x["def_army_training"]))
                + np.where(support > 0, np.where(x["att_blockade"] > 0, r.blockade_support, r.naval_support), 0)
                + r.alliance_bonus * x["att_alliance_army"] + x["att_bonus"])
    def_own = def_armies + def_forts
    def_land = np.where(neutral, x["neutral"],
                        r.army_strength * (def_armies + def_ally_armies) + r.fort_strength * def_forts
                        + r.training_bonus * ((x["def_army_training"] > x["att_army_training"]) & (def_own > 0))
                        + np.where(support < 0, np.where(x["def_blockade"] > 0, r.blockade_support,
                                                         r.naval_support), 0)
                        + r.alliance_bonus * x["def_alliance_army"] + x["def_bonus"])
    ra_land = np.where(land_fought, ra, 0).astype(i16)
    rd_land = np.where(land_fought, rd, 0).astype(i16)
    land, l_sa, l_sd = _battle(rng, att_land, def_land, ra_land, rd_land, r.reserves_policy,
                               r.reserves_for_any_change)
    land = np.where(land_fought, land, NOT_FOUGHT).astype(np.int8)
    att_lost_battle = land_fought & (land <= TIE)
    att_a_lost, _, att_aa_lost = _allocate(att_lost_battle, land_fought & (land == TIE), land_fought & l_sa,
                                           x["att_armies"], zero, att_ally_armies, tie_seven_from_ally=tie7)
    forts_first = r.land_loss_order == "forts_first"
    player = land_fought & ~neutral
    first, second = (def_forts, def_armies) if forts_first else (def_armies, def_forts)
    l1, l2, def_aa_lost = _allocate(player & (land >= TIE), player & (land == TIE), player & l_sd,
                                    first, second, def_ally_armies, second_is_fort=not forts_first,
                                    first_is_fort=forts_first, tie_seven_from_ally=tie7)
    def_a_lost, def_fort_lost = (l2, l1) if forts_first else (l1, l2)

    # SOE-20.18 Refuse Battle: cancels every defending-side loss of the attack.
    def_total_lost = def_f_lost + def_af_lost + def_a_lost + def_fort_lost + def_aa_lost
    refuse = (x["def_refuse"] > 0) & ~neutral & (def_total_lost > 0)
    keep = ~refuse
    control = land_fought & (land == ATT_WIN) & (neutral | (x["def_has_marker"] > 0))
    ra_used = (ra0 - np.where(land_fought, ra_land, ra)).astype(i16)
    rd_used = (rd0 - np.where(land_fought, rd_land, rd)).astype(i16)
    return AttackResult(
        naval=naval, support=support, land=land,
        att_armies_lost=att_a_lost.astype(i16), att_fleets_lost=att_f_lost.astype(i16),
        att_ally_armies_lost=att_aa_lost.astype(i16), att_ally_fleets_lost=att_af_lost.astype(i16),
        def_armies_lost=(def_a_lost * keep).astype(i16), def_forts_lost=(def_fort_lost * keep).astype(i16),
        def_fleets_lost=(def_f_lost * keep).astype(i16), def_ally_armies_lost=(def_aa_lost * keep).astype(i16),
        def_ally_fleets_lost=(def_af_lost * keep).astype(i16),
        att_reserves_used=ra_used, def_reserves_used=rd_used, refuse_used=refuse, control_change=control)


def _battle(rng: np.random.Generator, att_total: np.ndarray, def_total: np.ndarray, ra: np.ndarray,
            rd: np.ndarray, policy: str, for_any_change: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """SOE-12.4 with SOE-20.3 Reserves re-rolls (in place on `ra`, `rd`); returns
    (winner, attacker's final dice sum 7, defender's final dice sum 7)."""
    m = att_total.shape[0]
    base = np.clip(att_total.astype(np.int32) - def_total, -MARGIN_CLIP, MARGIN_CLIP).astype(np.int8)
    k = duels(rng, m)
    pa, pd = DUEL_FIRST[k], DUEL_SECOND[k]
    if policy != "never" and (np.any(ra > 0) or np.any(rd > 0)):
        turn_att = np.ones(m, dtype=bool)
        while True:
            da, dd = PAIR_DIFF[pa], PAIR_DIFF[pd]
            want_a, want_d = wants_reroll(base, da, dd, policy, for_any_change)
            want_a &= ra > 0
            want_d &= rd > 0
            att_rolls = (turn_att & want_a) | (~turn_att & want_a & ~want_d)
            def_rolls = (want_d & ~att_rolls)
            if not (att_rolls.any() or def_rolls.any()):
                break
            ia, id_ = np.flatnonzero(att_rolls), np.flatnonzero(def_rolls)
            pa[ia] = pairs(rng, ia.size)
            pd[id_] = pairs(rng, id_.size)
            ra[ia] -= 1
            rd[id_] -= 1
            turn_att = np.where(att_rolls, False, np.where(def_rolls, True, turn_att))
    margin = base + PAIR_DIFF[pa] - PAIR_DIFF[pd]
    return np.sign(margin).astype(np.int8), PAIR_SEVEN[pa], PAIR_SEVEN[pd]


def wants_reroll(base, da, dd, policy: str, for_any_change: bool = True):
    """SOE-20.3 / SOE-A20 re-roll wishes (attacker's, defender's) after both sides rolled: not
    satisfied with the result (the attacker while not winning; the defender while losing, or
    under `not_winning` while not winning), and the best possible new roll (difference 5) would
    change the result (`for_any_change`, option `reserves_for_any_change`), or else reach the
    result wanted (a win; for the greedy defender at least a tie). Works on scalars and arrays:
    the one decision rule of the bulk kernel, the exact odds and the engine."""
    now = np.sign(base + da - dd)
    if for_any_change:
        att_can = np.sign(base + 5 - dd) > now
        def_can = np.sign(base + da - 5) < now
    else:
        att_can = np.sign(base + 5 - dd) > 0
        def_can = np.sign(base + da - 5) < (1 if policy == "greedy" else 0)
    if policy == "greedy":
        return (now <= 0) & att_can, (now > 0) & def_can
    if policy == "not_winning":
        return (now <= 0) & att_can, (now >= 0) & def_can
    return now != now, now != now


def _allocate(lost, tie, seven, first, second, ally, first_is_fort: bool = False,
              second_is_fort: bool = False, tie_seven_from_ally: bool = False):
    """SOE-12.9-12.12 / SOE-A11 / SOE-A12 loss allocation for one side, vectorised: the bulk twin
    of `loss_order` (tested equal on every small case).

    `lost`: the side lost or tied the battle (one unit); `seven`: its dice summed to 7 (one more
    unit). Own units go in the order `first`, `second`, then the ally; a helped side that lost
    outright (or tied, option `tie_seven_from_ally`) gives its "7" loss from the ally first.
    Forts are never lost in a tie. Returns units lost of (first, second, ally)."""
    first = np.asarray(first, dtype=np.int16)
    second = np.asarray(second, dtype=np.int16)
    ally = np.asarray(ally, dtype=np.int16)
    f_av = np.where(tie & first_is_fort, 0, first)
    s_av = np.where(tie & second_is_fort, 0, second)
    # battle loss: own first
    t1f = lost & (f_av > 0)
    t1s = lost & ~t1f & (s_av > 0)
    t1a = lost & ~t1f & ~t1s & (ally > 0)
    f_av, s_av, a_av = f_av - t1f, s_av - t1s, ally - t1a
    # "7" loss: ally first if the side lost (outright, or tied with the option) and was helped (SOE-12.10)
    ally_first = lost & (~tie | tie_seven_from_ally) & (ally > 0)
    t2a_pref = seven & ally_first & (a_av > 0)
    rest = seven & ~t2a_pref
    t2f = rest & (f_av > 0)
    t2s = rest & ~t2f & (s_av > 0)
    t2a = rest & ~t2f & ~t2s & (a_av > 0)
    return (t1f.astype(np.int16) + t2f, t1s.astype(np.int16) + t2s,
            t1a.astype(np.int16) + t2a_pref + t2a)


@functools.cache
def loss_order(lost: bool, tie: bool, seven: bool, first: int, second: int, ally: int, first_is_fort: bool = False,
               second_is_fort: bool = False, tie_seven_from_ally: bool = False) -> tuple[int, ...]:
    """SOE-12.9 .. 12.12, SOE-A11, SOE-A12: the units one side loses, in order, as slots 0
    (`first` own kind), 1 (`second` own kind) and 2 (an ally) -- the one scalar allocation, used
    by the engine and the exact odds. `lost`: lost or tied (one unit, own first); `seven`: one
    more unit, from the ally first when the side lost outright (or tied, `tie_seven_from_ally`)
    and was helped; forts are never lost in a tie; nothing to lose, nothing lost."""
    avail = [0 if tie and first_is_fort else first, 0 if tie and second_is_fort else second, ally]
    taken: list[int] = []

    def take(order: tuple[int, ...]) -> None:
        for slot in order:
            if avail[slot] > 0:
                avail[slot] -= 1
                taken.append(slot)
                return

    if lost:
        take((0, 1, 2))
    if seven:
        take((2, 0, 1) if lost and (not tie or tie_seven_from_ally) and ally > 0 else (0, 1, 2))
    return tuple(taken)


@functools.cache
def loss_counts(lost: bool, tie: bool, seven: bool, first: int, second: int, ally: int, first_is_fort: bool = False,
                second_is_fort: bool = False, tie_seven_from_ally: bool = False) -> tuple[int, int, int]:
    """Units lost per slot (first, second, ally) of `loss_order` (cached: the exact odds ask the
    same few questions many times)."""
    order = loss_order(lost, tie, seven, first, second, ally, first_is_fort, second_is_fort, tie_seven_from_ally)
    return order.count(0), order.count(1), order.count(2)
