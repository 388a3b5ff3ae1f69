"""The previous exact land solver (numpy, layer by layer), kept as the oracle of the compiled
kernel (`sim.conquest.land_kernel`): the same chain and terminal and retreat values
(`land_exact._Chain`), solved by vectorised layers instead of state by state, so the two agree
to rounding (COE-14, COE-16)."""

from __future__ import annotations

import numpy as np

from sim.conquest.combat import LandBattle, Tactics, battle_tables
from sim.conquest.components import Components
from sim.conquest.land_exact import TIE, LandOdds, _Chain
from sim.conquest.policy import Objective, RetreatPolicy
from sim.core.exact import monotone_layers


def solve_reference(battle: LandBattle, comps: Components, attacker_policy: RetreatPolicy,
                    defender_policy: RetreatPolicy, objective: Objective):
    """(odds, root value, attacker retreat map, defender retreat map, reach) by the numpy chain."""
    A, D, ext, _ = battle_tables(battle, comps, Tactics())
    chain = _NumpyChain(battle, comps, A, D, ext, objective)
    a_ret, d_ret, root_value = chain.backward(attacker_policy, defender_policy)
    odds, reach = chain.forward(a_ret, d_ret)
    return odds, root_value, a_ret, d_ret, reach


class _NumpyChain(_Chain):
    """The chain's layers (by total units), each solved in one numpy step."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        ta, td = self.A.total[:, None], self.D.total[None, :]
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
        return self.outcome(mass, att_surv, def_surv, retreated["attacker"], retreated["defender"], rounds)


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


def _pursued(pursuit: np.ndarray, units: np.ndarray, mass: np.ndarray, length: int) -> np.ndarray:
    """Survivor counts of retreating sides: units - min(pursuit hits, units) (COE-16.2)."""
    h = np.arange(pursuit.shape[1])[None, :]
    left = units[:, None] - np.minimum(h, units[:, None])
    return np.bincount(left.ravel(), weights=(pursuit * mass[:, None]).ravel(), minlength=length)
