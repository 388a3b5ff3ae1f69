"""Bulk Monte Carlo of CotE land battles: N battles at once, one numpy pass per round.

Each round rolls real battle dice for every active battle (one uint8 face per die), counts the
symbols with a packed lookup table (5 bits per symbol type, so one sum gives all three counts)
and scores them by the matching rule (COE-14.3) -- independently of the exact solver's hit laws,
which makes the exact solver a real oracle for this kernel. Formations and casualty order come
from the same `Tactics` tables as the exact solver (they are policies, not dice). Battles that
end (a side wiped out, or a retreat with its pursuit roll) leave the active set.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from sim.conquest.combat import LandBattle, SideTables, Tactics, battle_tables, catapult_limit
from sim.conquest.components import LAND_UNITS, Components
from sim.conquest.land_exact import LandOdds, solve_land
from sim.conquest.policy import FIGHT, Objective, RetreatPolicy
from sim.core import dice
from sim.core.montecarlo import run_blocks
from sim.core.stats import wilson_interval

OUTCOMES = ("attacker_destroys", "defender_destroys", "both_destroyed", "defender_retreats",
            "attacker_retreats")
PURPOSE = "conquest.land"
SHIFT = 5  # bits per symbol count in the packed table


def face_table(comps: Components) -> tuple[np.ndarray, np.ndarray]:
    """COE-13.2: per face, the packed (infantry, cavalry, catapult) count and the cavalry flag."""
    packed = np.array([(1 << (SHIFT * LAND_UNITS.index(f))) if f in LAND_UNITS else 0
                       for f in comps.die.faces], dtype=np.uint16)
    cav = np.array([f == "cavalry" for f in comps.die.faces], dtype=np.int16)
    return packed, cav


def roll_symbols(rng: np.random.Generator, n_dice: np.ndarray, table: np.ndarray) -> np.ndarray:
    """(S, 3) symbol counts of one roll of n_dice[s] battle dice per battle.

    Dice are drawn die-major, (max dice, S), so the sum over dice adds whole rows."""
    width = max(int(n_dice.max()), 1) if len(n_dice) else 1
    packed = table[dice.faces(rng, len(table), (width, len(n_dice)))]
    packed *= np.arange(width, dtype=np.uint16)[:, None] < n_dice[None, :]
    total = packed.sum(0, dtype=np.uint16)
    mask = (1 << SHIFT) - 1
    return np.stack([(total >> (SHIFT * t)) & mask for t in range(3)], axis=1).astype(np.int64)


def hits(symbols: np.ndarray, formation: np.ndarray, catapult_cap: np.ndarray) -> np.ndarray:
    """COE-14.3: matched infantry + cavalry symbols (capped by the formation) + catapult symbols
    (capped by catapults present, COE-A3)."""
    return (np.minimum(symbols[:, 0], formation[:, 0]) + np.minimum(symbols[:, 1], formation[:, 1])
            + np.minimum(symbols[:, 2], catapult_cap))


def _pursued(rng: np.random.Generator, winner: SideTables, w_states: np.ndarray, loser: SideTables,
             l_states: np.ndarray, cav_face: np.ndarray, capped: bool, length: int) -> np.ndarray:
    """COE-16.2 / COE-A23: histogram of the retreating side's survivors. The winner rolls one die
    per land unit; cavalry symbols hit, capped by his cavalry; each hit destroys one unit."""
    n = winner.total[w_states]
    width = max(int(n.max()), 1)
    faces = dice.faces(rng, len(cav_face), (len(w_states), width))
    count = np.where(np.arange(width)[None, :] < n[:, None], cav_face[faces], 0).sum(1, dtype=np.int64)
    hit = np.minimum(count, winner.comps[w_states, 1]) if capped else count
    return np.bincount(np.maximum(loser.total[l_states] - hit, 0), minlength=length)


Decider = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]


def land_kernel(battle: LandBattle, comps: Components, A: SideTables, D: SideTables, ext: np.ndarray,
                decide: Decider):
    """A `run_blocks` kernel: (rng, size) -> outcome counts of `size` battles."""
    table, cav_face = face_table(comps)
    capped = comps.options.pursuit_cap == "winner_cavalry"
    mutual = comps.options.mutual_annihilation == "both_captured"
    sequential = not comps.options.simultaneous_hits
    root_a, root_d = A.n - 1, D.n - 1
    len_a, len_d = int(A.total.max()) + 1, int(D.total.max()) + 1

    def kernel(rng: np.random.Generator, size: int) -> dict[str, np.ndarray]:
        ia = np.full(size, root_a, dtype=np.int64)
        id_ = np.full(size, root_d, dtype=np.int64)
        outcome = np.zeros(len(OUTCOMES), dtype=np.int64)
        att_surv = np.zeros(len_a, dtype=np.int64)
        def_surv = np.zeros(len_d, dtype=np.int64)
        rounds = 0
        while len(ia):
            rounds += len(ia)
            e = ext[ia]
            f_att, f_def = A.formation[0, ia], D.formation[e, id_]
            hits_a = hits(roll_symbols(rng, A.size[ia], table), f_att, A.kcap[0, ia])
            n_def, k_def = D.size[id_] + e, D.kcap[e, id_]
            if sequential:  # COE-A1 alternative: the defender's hit units do not roll
                lost = D.removed[e, id_, np.minimum(hits_a, D.size[id_])]
                f_def = f_def - lost
                n_def = f_def.sum(1) + e
                k_def = catapult_limit(f_def[:, 2], D.comps[id_, 2] - lost[:, 2], comps.options.catapult_cap)
            hits_d = hits(roll_symbols(rng, n_def, table), f_def, k_def)
            # COE-14.4 / COE-A1 / COE-A2: simultaneous, capped by the target's formation
            ia, id_ = (A.succ[0, ia, np.minimum(hits_d, A.size[ia])],
                       D.succ[e, id_, np.minimum(hits_a, D.size[id_])])
            ta, td = A.total[ia], D.total[id_]
            over = (ta == 0) | (td == 0)
            kind = np.where(td == 0, np.where(ta == 0, 2, 0), 1)[over]
            outcome += np.bincount(kind, minlength=len(OUTCOMES))
            att_surv += np.bincount(ta[over], minlength=len_a)
            def_surv += np.bincount(td[over], minlength=len_d)
            ia, id_ = ia[~over], id_[~over]
            d_ret, a_ret = decide(ia, id_)
            a_ret &= ~d_ret
            if d_ret.any():  # COE-16.2: the attacker pursues the retreating defender
                outcome[3] += int(d_ret.sum())
                att_surv += np.bincount(A.total[ia[d_ret]], minlength=len_a)
                def_surv += _pursued(rng, A, ia[d_ret], D, id_[d_ret], cav_face, capped, len_d)
            if a_ret.any():
                outcome[4] += int(a_ret.sum())
                def_surv += np.bincount(D.total[id_[a_ret]], minlength=len_d)
                att_surv += _pursued(rng, D, id_[a_ret], A, ia[a_ret], cav_face, capped, len_a)
            go = ~(d_ret | a_ret)
            ia, id_ = ia[go], id_[go]
        captured = np.array([outcome[1] + (outcome[2] if mutual else 0),
                             outcome[0] + (outcome[2] if mutual else 0)], dtype=np.int64)
        return {"outcome": outcome, "attacker_survivors": att_surv, "defender_survivors": def_surv,
                "rounds": np.array([rounds], dtype=np.int64), "captured": captured}

    return kernel


def simulate_land(battle: LandBattle, comps: Components, n: int, seed: int,
                  attacker_policy: RetreatPolicy = FIGHT, defender_policy: RetreatPolicy = FIGHT,
                  tactics: Tactics = Tactics(), objective: Objective = Objective()) -> LandOdds:
    """COE-14 / COE-16 by bulk Monte Carlo; an `optimal` policy is first solved exactly."""
    A, D, ext, _ = battle_tables(battle, comps, tactics)
    if "optimal" in (attacker_policy.kind, defender_policy.kind):
        sol = solve_land(battle, comps, attacker_policy, defender_policy, tactics, objective)
        a_map, d_map = sol.attacker_retreats, sol.defender_retreats

        def decide(ia: np.ndarray, id_: np.ndarray):
            return d_map[ia, id_], a_map[ia, id_].copy()
    else:
        def decide(ia: np.ndarray, id_: np.ndarray):
            return (_threshold(defender_policy, battle.defender_can_retreat, D.total[id_]),
                    _threshold(attacker_policy, battle.attacker_can_retreat, A.total[ia]))
    counts = run_blocks(land_kernel(battle, comps, A, D, ext, decide), n, seed, PURPOSE)
    return odds_from_counts(counts, n, seed, battle)


def _threshold(policy: RetreatPolicy, allowed: bool, units: np.ndarray) -> np.ndarray:
    """COE-14.5: `retreat-below=K` declares retreat with fewer than K land units left."""
    if allowed and policy.kind == "below":
        return units < policy.below
    return np.zeros(len(units), dtype=bool)


def odds_from_counts(counts: dict[str, np.ndarray], n: int, seed: int, battle: LandBattle) -> LandOdds:
    """Turn bulk counts into `LandOdds` with n, seed and Wilson 95 % intervals in `extra`."""
    o = counts["outcome"]
    la, ld = battle.attacker.leaders, battle.defender.leaders
    cap_a, cap_d = (int(x) for x in counts["captured"])

    def dist(c: np.ndarray) -> dict[int, float]:
        return {int(k): int(v) / n for k, v in enumerate(c) if v}

    def leaders(count: int, captured: int) -> dict[int, float]:
        if count == 0:
            return {0: 1.0}
        return {k: v / n for k, v in ((0, n - captured), (count, captured)) if v}

    odds = LandOdds(
        method="monte_carlo",
        attacker_win=int(o[0] + o[3]) / n, defender_win=int(o[1] + o[4]) / n, both_destroyed=int(o[2]) / n,
        attacker_retreated=int(o[4]) / n, defender_retreated=int(o[3]) / n,
        attacker_survivors=dist(counts["attacker_survivors"]),
        defender_survivors=dist(counts["defender_survivors"]),
        attacker_leaders_captured=leaders(la, cap_a), defender_leaders_captured=leaders(ld, cap_d),
        expected_rounds=int(counts["rounds"][0]) / n)
    ci = {}
    for key, p in odds.probabilities().items():
        low, high = wilson_interval(round(p * n), n)
        ci[key] = [low, high]
    return LandOdds(**{**odds.__dict__, "extra": {"n": n, "seed": seed, "ci95": ci,
                                                   "battle_rounds": int(counts["rounds"][0])}})
