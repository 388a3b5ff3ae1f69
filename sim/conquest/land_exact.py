"""Exact odds of a CotE land battle by absorbing-chain recursion (COE-14, COE-16).

The chain's states are pairs (attacker units by type, defender units by type); leaders never
change. Units only ever decrease, so every transition except "nobody lost a unit" goes to a pair
with fewer units in total: pairs are solved layer by layer (by total units), each layer in one
vectorised numpy step, and the self-loop is summed as a geometric series,
V(s) = sum_{s' != s} P(s -> s') V(s') / (1 - P(s -> s)).

One round's law is separable: the attacker's hits depend on his state, the defender's on his state
and the fortification dice (which depend on the attacker's catapults); each side's hits are capped
by the other's formation (COE-A2) and fall on formation units in loss order. Per-state hit laws,
formations and successor tables are computed once per battle (`combat.side_tables`).

Retreat decisions after each round (defender first, COE-14.5) come from the policies; `optimal`
ones are found by the same recursion as a zero-sum game (`policy` module): at each post-round
decision node D(s) = min(X_def(s), max(X_att(s), C(s))) where X are the retreat values (pursuit
included) and C(s) the value of fighting on; this clamp is the exact fixed point of the self-loop.
A forward pass then pushes probability mass through the chosen policy to get the whole outcome
distribution. The first round is always fought (COE-A37).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sim.conquest.combat import LandBattle, SideTables, Tactics, battle_tables
from sim.conquest.components import Components
from sim.conquest.policy import FIGHT, Objective, RetreatPolicy
from sim.core.errors import UserError
from sim.core.exact import monotone_layers

MAX_PAIR_STATES = 2_000_000
TIE = 1e-12  # a retreat must be better by more than rounding noise


@dataclass(frozen=True)
class LandOdds:
    """Outcome distribution of one land battle (exact or Monte Carlo)."""

    method: str
    attacker_win: float
    defender_win: float
    both_destroyed: float
    attacker_retreated: float
    defender_retreated: float
    attacker_survivors: dict[int, float]
    defender_survivors: dict[int, float]
    attacker_leaders_captured: dict[int, float]
    defender_leaders_captured: dict[int, float]
    expected_rounds: float
    extra: dict = field(default_factory=dict)

    def probabilities(self) -> dict[str, float]:
        """Every scalar probability, keyed as in the JSON output (for intervals and tests)."""
        out = {"attacker_win": self.attacker_win, "defender_win": self.defender_win,
               "both_destroyed": self.both_destroyed, "attacker_retreated": self.attacker_retreated,
               "defender_retreated": self.defender_retreated}
        for name in ("attacker_survivors", "defender_survivors", "attacker_leaders_captured",
                     "defender_leaders_captured"):
            for k, p in getattr(self, name).items():
                out[f"{name}.{k}"] = p
        return out


@dataclass(frozen=True)
class LandSolution:
    """Exact odds plus the policies used, as maps over (attacker state, defender state)."""

    odds: LandOdds
    value: float
    attacker: SideTables
    defender: SideTables
    attacker_retreats: np.ndarray
    defender_retreats: np.ndarray
    reach: np.ndarray

    def policy_rows(self) -> list[dict]:
        """Reachable post-round states where a side retreats (defender first), most likely first."""
        rows = []
        d_ret = self.defender_retreats & (self.reach > 0)
        a_ret = self.attacker_retreats & ~self.defender_retreats & (self.reach > 0)
        for who, mask in (("defender", d_ret), ("attacker", a_ret)):
            for ia, id_ in zip(*np.nonzero(mask)):
                rows.append({"attacker": _units(self.attacker, ia), "defender": _units(self.defender, id_),
                             "retreats": who, "reach": float(self.reach[ia, id_])})
        return sorted(rows, key=lambda r: -r["reach"])


def _units(side: SideTables, s: int) -> dict[str, int]:
    i, c, k = (int(x) for x in side.comps[s])
    return {"infantry": i, "cavalry": c, "catapult": k}


def solve_land(battle: LandBattle, comps: Components, attacker_policy: RetreatPolicy = FIGHT,
               defender_policy: RetreatPolicy = FIGHT, tactics: Tactics = Tactics(),
               objective: Objective = Objective(), max_states: int = MAX_PAIR_STATES) -> LandSolution:
    """COE-14 / COE-16: exact outcome distribution of a land battle under the given policies."""
    a_units, d_units = battle.attacker.units, battle.defender.units
    pairs = np.prod([u + 1 for u in a_units]) * np.prod([u + 1 for u in d_units])
    if pairs > max_states:
        raise UserError(f"armies {a_units} vs {d_units} have {pairs:,} unit states, more than the "
                        f"exact solver's {max_states:,}; use --mc N with the fight or retreat-below=K policy")
    A, D, ext, width = battle_tables(battle, comps, tactics)
    chain = _Chain(battle, comps, A, D, ext, width, objective)
    a_ret, d_ret, root_value = chain.backward(attacker_policy, defender_policy)
    odds, reach = chain.forward(a_ret, d_ret)
    return LandSolution(odds=odds, value=root_value, attacker=A, defender=D,
                        attacker_retreats=a_ret, defender_retreats=d_ret, reach=reach)


class _Chain:
    """The battle's absorbing chain: layers, one-round laws, terminal and retreat values."""

    def __init__(self, battle: LandBattle, comps: Components, A: SideTables, D: SideTables,
                 ext: np.ndarray, width: int, objective: Objective) -> None:
        self.battle, self.A, self.D, self.ext, self.width = battle, A, D, ext, width
        self.na, self.nd = A.n, D.n
        w, lam = objective.unit_weight, objective.leader_weight
        la, ld = battle.attacker.leaders, battle.defender.leaders
        self.mutual_capture = comps.options.mutual_annihilation == "both_captured"
        ta, td = A.total[:, None], D.total[None, :]
        va, vd = A.value[:, None].astype(float), D.value[None, :].astype(float)
        # COE-16.3 / COE-16.7: terminal payoffs (leaders captured when wiped out in the rounds)
        term = np.where((ta > 0) & (td == 0), 1.0 + w * va + lam * ld, 0.0)
        term = np.where((ta == 0) & (td > 0), -w * vd - lam * la, term)
        both = (lam * (ld - la)) if self.mutual_capture else 0.0
        term = np.where((ta == 0) & (td == 0), both, term)
        self.terminal = (ta == 0) | (td == 0)
        self.term_value = term
        # COE-16.2: retreat values; the winner pursues, leaders escape or retreat with the units
        kept_d = _pad(D.kept, A.pursuit.shape[1], D.total)
        kept_a = _pad(A.kept, D.pursuit.shape[1], A.total)
        self.x_def = 1.0 + w * (va - A.pursuit @ kept_d.T)
        self.x_att = w * ((D.pursuit @ kept_a.T).T - vd)
        self.layers = monotone_layers((ta + td).ravel(), np.flatnonzero(~self.terminal.ravel()))

    def law(self, flat: np.ndarray):
        """One round from pairs `flat`: loss laws (S, L) of each side and successor states."""
        ia, id_ = np.divmod(flat, self.nd)
        e = self.ext[ia]
        p_def_loss = _capped(self.A.hits[0, ia], self.D.size[id_])
        succ = self.A.succ[0, ia][:, :, None] * self.nd + self.D.succ[e, id_][:, None, :]
        if self.D.hits_after is None:
            p_att_loss = _capped(self.D.hits[e, id_], self.A.size[ia])
            weights = p_att_loss[:, :, None] * p_def_loss[:, None, :]
        else:  # COE-A1 alternative: the defender rolls after losing ld units -> law of la given ld
            cond = self.D.hits_after[e, id_]
            s, w = cond.shape[0], cond.shape[1]
            cond = _capped(cond.reshape(s * w, w), np.repeat(self.A.size[ia], w)).reshape(s, w, w)
            weights = cond.transpose(0, 2, 1) * p_def_loss[:, None, :]
        return weights, succ

    def backward(self, a_pol: RetreatPolicy, d_pol: RetreatPolicy):
        """Values D(s) at post-round decision nodes -> both sides' retreat maps and the value of
        the battle (its first round is compulsory)."""
        dv = np.where(self.terminal, self.term_value, 0.0).ravel()
        a_ret = np.zeros(self.na * self.nd, dtype=bool)
        d_ret = np.zeros(self.na * self.nd, dtype=bool)
        ta, td = self.A.total, self.D.total
        x_att, x_def = self.x_att.ravel(), self.x_def.ravel()
        self.laws = []                           # each layer's round law, read again by `forward`
        for flat in self.layers:
            weights, succ = self.law(flat)
            stay = weights[:, 0, 0].copy()
            weights[:, 0, 0] = 0.0
            self.laws.append((weights, stay, succ))
            cont = (weights * dv[succ]).sum((1, 2)) / (1.0 - stay)
            ia, id_ = np.divmod(flat, self.nd)
            xa, xd = x_att[flat], x_def[flat]
            ar = _decide(a_pol, self.battle.attacker_can_retreat, ta[ia], xa > cont + TIE)
            after_att = np.where(ar, xa, cont)
            dr = _decide(d_pol, self.battle.defender_can_retreat, td[id_], xd < after_att - TIE)
            dv[flat] = np.where(dr, xd, after_att)
            a_ret[flat], d_ret[flat] = ar, dr
        self.root_law = weights, succ = self.law(np.array([self.na * self.nd - 1]))
        root_value = float((weights * dv[succ]).sum())
        return a_ret.reshape(self.na, self.nd), d_ret.reshape(self.na, self.nd), root_value

    def forward(self, a_ret: np.ndarray, d_ret: np.ndarray) -> tuple[LandOdds, np.ndarray]:
        """Push probability mass from the first (compulsory) round through the policies (after
        `backward`, whose round laws it reads: each row of a law depends on its state only)."""
        size = self.na * self.nd
        mass = np.zeros(size)
        weights, succ = self.root_law
        mass += np.bincount(succ.ravel(), weights=weights.ravel(), minlength=size)
        rounds = 1.0
        a_ret, d_ret = a_ret.ravel(), d_ret.ravel()
        A, D = self.A, self.D
        att_surv = np.zeros(A.total.max() + 1)
        def_surv = np.zeros(D.total.max() + 1)
        retreated = {"attacker": 0.0, "defender": 0.0}
        for flat, (layer_weights, layer_stay, layer_succ) in zip(reversed(self.layers), reversed(self.laws)):
            m = mass[flat]
            live = np.flatnonzero(m > 0)
            flat, m = flat[live], m[live]
            if not len(flat):
                continue
            ia, id_ = np.divmod(flat, self.nd)
            dr = d_ret[flat]
            ar = a_ret[flat] & ~dr
            go = ~(dr | ar)
            if dr.any():  # COE-16.2: the attacker pursues the retreating defender
                retreated["defender"] += m[dr].sum()
                att_surv += np.bincount(A.total[ia[dr]], weights=m[dr], minlength=len(att_surv))
                def_surv += _pursued(A.pursuit[ia[dr]], D.total[id_[dr]], m[dr], len(def_surv))
            if ar.any():
                retreated["attacker"] += m[ar].sum()
                def_surv += np.bincount(D.total[id_[ar]], weights=m[ar], minlength=len(def_surv))
                att_surv += _pursued(D.pursuit[id_[ar]], A.total[ia[ar]], m[ar], len(att_surv))
            if go.any():
                rows = live[go]
                weights, stay, succ = layer_weights[rows], layer_stay[rows], layer_succ[rows]
                scale = m[go] / (1.0 - stay)
                rounds += scale.sum()
                mass += np.bincount(succ.ravel(), weights=(weights * scale[:, None, None]).ravel(),
                                    minlength=size)
        mass2 = mass.reshape(self.na, self.nd)
        ta, td = A.total, D.total
        end = mass2 * self.terminal
        a_win = float(end[ta > 0][:, td == 0].sum())
        d_win = float(end[ta == 0][:, td > 0].sum())
        both = float(end[ta == 0][:, td == 0].sum())
        att_surv += np.bincount(ta, weights=end.sum(1), minlength=len(att_surv))
        def_surv += np.bincount(td, weights=end.sum(0), minlength=len(def_surv))
        la, ld = self.battle.attacker.leaders, self.battle.defender.leaders
        cap_both = both if self.mutual_capture else 0.0
        odds = LandOdds(
            method="exact",
            attacker_win=a_win + retreated["defender"], defender_win=d_win + retreated["attacker"],
            both_destroyed=both, attacker_retreated=retreated["attacker"],
            defender_retreated=retreated["defender"],
            attacker_survivors=_dist(att_surv), defender_survivors=_dist(def_surv),
            attacker_leaders_captured=_leader_dist(la, d_win + cap_both),
            defender_leaders_captured=_leader_dist(ld, a_win + cap_both),
            expected_rounds=rounds)
        return odds, np.where(self.terminal, 0.0, mass2)


def _decide(policy: RetreatPolicy, allowed: bool, own_units: np.ndarray, better: np.ndarray) -> np.ndarray:
    """COE-14.5: one side's retreat declaration at post-round nodes under its policy."""
    if not allowed or policy.kind == "fight":
        return np.zeros(len(own_units), dtype=bool)
    if policy.kind == "below":
        return own_units < policy.below
    return better


def _capped(pmf: np.ndarray, cap: np.ndarray) -> np.ndarray:
    """COE-A2: law of min(hits, cap) row by row -- hits beyond the target's formation are lost."""
    tail = np.cumsum(pmf[:, ::-1], axis=1)[:, ::-1]
    col = np.arange(pmf.shape[1])[None, :]
    cap = cap[:, None]
    return np.where(col < cap, pmf, np.where(col == cap, tail, 0.0))


def _pad(kept: np.ndarray, width: int, total: np.ndarray) -> np.ndarray:
    """kept[s, h] for h up to `width`-1 hits (more hits than units keep nothing)."""
    out = np.zeros((kept.shape[0], max(width, kept.shape[1])))
    out[:, : kept.shape[1]] = kept
    h = np.arange(out.shape[1])[None, :]
    out = np.where(h > total[:, None], 0.0, out)
    return out[:, :width]


def _pursued(pursuit: np.ndarray, units: np.ndarray, mass: np.ndarray, length: int) -> np.ndarray:
    """Survivor counts of retreating sides: units - min(pursuit hits, units) (COE-16.2)."""
    h = np.arange(pursuit.shape[1])[None, :]
    left = units[:, None] - np.minimum(h, units[:, None])
    return np.bincount(left.ravel(), weights=(pursuit * mass[:, None]).ravel(), minlength=length)


def _dist(weights: np.ndarray) -> dict[int, float]:
    return {int(k): float(p) for k, p in enumerate(weights) if p > 0}


def _leader_dist(leaders: int, p_captured: float) -> dict[int, float]:
    """COE-16.3: all of a side's leaders are captured together, or none."""
    if leaders == 0:
        return {0: 1.0}
    return {k: p for k, p in ((0, 1.0 - p_captured), (leaders, p_captured)) if p > 0}
