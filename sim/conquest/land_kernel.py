"""Compiled kernel of the exact land-battle chain (COE-14, COE-16), state by state.

The chain is tiny (a few hundred to a few thousand unit-state pairs, a handful of successors
each), so a compiled loop over its states costs far less than numpy's per-layer calls: one
backward pass gives the decision values and both sides' retreat maps, one forward pass the
outcome distribution. `land_exact`
builds the inputs (the side tables, terminal and retreat values) and reads the outputs; the
rules themselves stay in `combat` and `battle`.

Policies are coded as (kind, below, allowed): kind 0 fight, 1 retreat below `below` units,
2 optimal (COE-14.5); `allowed` is whether the side may retreat at all.
"""

from __future__ import annotations

import numpy as np
from numba import njit

FIGHT_KIND, BELOW_KIND, OPTIMAL_KIND = 0, 1, 2


@njit(cache=True)
def _capped(pmf: np.ndarray, cap: int, out: np.ndarray) -> None:
    """COE-A2: the law of min(hits, cap) -- hits beyond the target's formation are lost."""
    width = pmf.shape[0]
    tail = 0.0
    for h in range(width - 1, -1, -1):
        tail += pmf[h]
        if h < cap:
            out[h] = pmf[h]
        elif h == cap:
            out[h] = tail
        else:
            out[h] = 0.0


@njit(cache=True)
def _round_law(ia, id_, nd, ext, a_hits, a_succ, a_size, d_hits, d_succ, d_size, d_after, sequential,
               weights, succ, p_att, p_def, cond):
    """One round from (ia, id_): weights[la, ld] of the attacker losing la and the defender ld
    formation units, and the successor pairs (COE-14.3, COE-14.4; COE-A1 when `sequential`).
    Returns the bounds (la_end, ld_end) of the entries written: a side loses at most its
    formation (COE-A2), so every weight beyond them is exactly 0 and the passes skip them
    (their terms add nothing: the sums are the same, term by term, in the same order)."""
    e = ext[ia]
    width = weights.shape[0]
    la_end, ld_end = min(a_size[ia] + 1, width), min(d_size[id_] + 1, width)
    _capped(a_hits[0, ia], d_size[id_], p_def)
    if sequential:
        for ld in range(ld_end):
            _capped(d_after[e, id_, ld], a_size[ia], cond)
            for la in range(la_end):
                weights[la, ld] = cond[la] * p_def[ld]
    else:
        _capped(d_hits[e, id_], a_size[ia], p_att)
        for la in range(la_end):
            for ld in range(ld_end):
                weights[la, ld] = p_att[la] * p_def[ld]
    for la in range(la_end):
        for ld in range(ld_end):
            succ[la, ld] = a_succ[0, ia, la] * nd + d_succ[e, id_, ld]
    return la_end, ld_end


@njit(cache=True)
def _retreats(kind, below, allowed, own_units, better):
    """COE-14.5: whether a side declares retreat at a post-round node under its policy."""
    if not allowed or kind == FIGHT_KIND:
        return False
    if kind == BELOW_KIND:
        return own_units < below
    return better


@njit(cache=True)
def solve_chain(order, nd, ext, a_hits, a_succ, a_size, a_total, d_hits, d_succ, d_size, d_total, d_after,
                sequential, terminal, term_value, x_att, x_def, a_policy, d_policy, tie):
    """Backward pass over the non-terminal pairs `order` (fewest units first): the decision value
    D(s) = min(X_def, max(X_att, C(s))) at post-round nodes (the self-loop summed as a geometric
    series). Returns (attacker retreats, defender retreats, root value); the first round is
    compulsory (COE-A37)."""
    size = terminal.shape[0]
    dv = np.where(terminal, term_value, 0.0)
    a_ret = np.zeros(size, dtype=np.bool_)
    d_ret = np.zeros(size, dtype=np.bool_)
    root_value = _backward(order, nd, ext, a_hits, a_succ, a_size, a_total, d_hits, d_succ, d_size, d_total,
                           d_after, sequential, dv, x_att, x_def, a_policy, d_policy, tie, a_ret, d_ret)
    return a_ret, d_ret, root_value


@njit(cache=True)
def _backward(order, nd, ext, a_hits, a_succ, a_size, a_total, d_hits, d_succ, d_size, d_total, d_after,
              sequential, dv, x_att, x_def, a_policy, d_policy, tie, a_ret, d_ret):
    """`solve_chain`'s pass: dv holds the terminal payoffs on entry and the decision values on
    return; the retreat maps are written into a_ret and d_ret. Returns the root value."""
    size = dv.shape[0]
    width = a_hits.shape[2]
    weights = np.empty((width, width))
    succ = np.empty((width, width), dtype=np.int64)
    p_att, p_def, cond = np.empty(width), np.empty(width), np.empty(width)
    for s in order:
        ia, id_ = s // nd, s % nd
        la_end, ld_end = _round_law(ia, id_, nd, ext, a_hits, a_succ, a_size, d_hits, d_succ, d_size, d_after,
                                    sequential, weights, succ, p_att, p_def, cond)
        stay = weights[0, 0]
        cont = 0.0
        for la in range(la_end):
            for ld in range(ld_end):
                if la or ld:
                    cont += weights[la, ld] * dv[succ[la, ld]]
        cont /= 1.0 - stay
        ar = _retreats(a_policy[0], a_policy[1], a_policy[2], a_total[ia], x_att[s] > cont + tie)
        after_att = x_att[s] if ar else cont
        dr = _retreats(d_policy[0], d_policy[1], d_policy[2], d_total[id_], x_def[s] < after_att - tie)
        dv[s] = x_def[s] if dr else after_att
        a_ret[s], d_ret[s] = ar, dr
    la_end, ld_end = _round_law(size // nd - 1, nd - 1, nd, ext, a_hits, a_succ, a_size, d_hits, d_succ, d_size,
                                d_after, sequential, weights, succ, p_att, p_def, cond)
    root_value = 0.0
    for la in range(la_end):
        for ld in range(ld_end):
            root_value += weights[la, ld] * dv[succ[la, ld]]
    return root_value


@njit(cache=True)
def solving_order(a_total, d_total):
    """The live pairs (both sides with units) in order of total units, fewest first, each total's
    pairs in index order: `np.argsort(totals, kind="stable")` over the live pairs, by counting."""
    nd = d_total.shape[0]
    top = a_total.max() + d_total.max()
    count = np.zeros(top + 2, dtype=np.int64)
    for ia in range(a_total.shape[0]):
        for id_ in range(nd):
            if a_total[ia] > 0 and d_total[id_] > 0:
                count[a_total[ia] + d_total[id_] + 1] += 1
    for t in range(1, top + 2):
        count[t] += count[t - 1]
    order = np.empty(count[top + 1], dtype=np.int64)
    for ia in range(a_total.shape[0]):
        for id_ in range(nd):
            if a_total[ia] > 0 and d_total[id_] > 0:
                t = a_total[ia] + d_total[id_]
                order[count[t]] = ia * nd + id_
                count[t] += 1
    return order


@njit(cache=True)
def terminal_values(a_value, d_value, unit_weight, leader_weight, a_leaders, d_leaders, mutual_capture):
    """COE-16.3 / COE-16.7: the payoff of each pair, flat, nonzero only at the terminal ones
    (leaders captured when wiped out in the rounds); a side's only state without units is its
    state 0."""
    na, nd = a_value.shape[0], d_value.shape[0]
    out = np.zeros(na * nd)
    for ia in range(1, na):
        out[ia * nd] = 1.0 + unit_weight * a_value[ia] + leader_weight * d_leaders
    for id_ in range(1, nd):
        out[id_] = -unit_weight * d_value[id_] - leader_weight * a_leaders
    out[0] = leader_weight * (d_leaders - a_leaders) if mutual_capture else 0.0
    return out


@njit(cache=True)
def forecast_chain(nd, ext, a_hits, a_succ, a_size, a_total, d_hits, d_succ, d_size, d_total, d_after, sequential,
                   a_value, d_value, unit_weight, leader_weight, a_leaders, d_leaders, mutual_capture,
                   x_att, x_def, a_policy, d_policy, tie, a_pursuit, d_pursuit):
    """The players' forecast in one call: the solving order, the terminal payoffs (COE-16.3,
    COE-16.7; a side's only state without units is its state 0), the backward pass and the
    forward pass, as `land_exact` runs them. Returns (mass per pair, the defender's
    retreat chance, whether the attacker and the defender retreat at the start state)."""
    size = a_total.shape[0] * nd
    order = solving_order(a_total, d_total)
    dv = terminal_values(a_value, d_value, unit_weight, leader_weight, a_leaders, d_leaders, mutual_capture)
    a_ret = np.zeros(size, dtype=np.bool_)
    d_ret = np.zeros(size, dtype=np.bool_)
    _backward(order, nd, ext, a_hits, a_succ, a_size, a_total, d_hits, d_succ, d_size, d_total, d_after,
              sequential, dv, x_att, x_def, a_policy, d_policy, tie, a_ret, d_ret)
    att_surv = np.zeros(a_total.max() + 1)
    def_surv = np.zeros(d_total.max() + 1)
    mass, _, def_gone, _ = push_mass(order[::-1], nd, ext, a_hits, a_succ, a_size, a_total, d_hits, d_succ, d_size,
                                     d_total, d_after, sequential, a_ret, d_ret, a_pursuit, d_pursuit, att_surv,
                                     def_surv)
    return mass, def_gone, a_ret[size - 1], d_ret[size - 1]


@njit(cache=True)
def push_mass(order, nd, ext, a_hits, a_succ, a_size, a_total, d_hits, d_succ, d_size, d_total, d_after,
              sequential, a_ret, d_ret, a_pursuit, d_pursuit, att_surv, def_surv):
    """Forward pass: probability mass from the compulsory first round through the retreat maps,
    over `order` (most units first). Retreats end the battle with the winner's pursuit
    (COE-16.2), whose survivor laws are added to att_surv / def_surv. Returns (mass per pair,
    attacker retreated, defender retreated, expected rounds)."""
    size = a_ret.shape[0]
    width = a_hits.shape[2]
    mass = np.zeros(size)
    weights = np.empty((width, width))
    succ = np.empty((width, width), dtype=np.int64)
    p_att, p_def, cond = np.empty(width), np.empty(width), np.empty(width)
    la_end, ld_end = _round_law(size // nd - 1, nd - 1, nd, ext, a_hits, a_succ, a_size, d_hits, d_succ, d_size,
                                d_after, sequential, weights, succ, p_att, p_def, cond)
    for la in range(la_end):
        for ld in range(ld_end):
            mass[succ[la, ld]] += weights[la, ld]
    rounds, att_gone, def_gone = 1.0, 0.0, 0.0
    for s in order:
        m = mass[s]
        if m <= 0:
            continue
        ia, id_ = s // nd, s % nd
        if d_ret[s]:
            def_gone += m
            att_surv[a_total[ia]] += m
            _pursued(a_pursuit[ia], d_total[id_], m, def_surv)
        elif a_ret[s]:
            att_gone += m
            def_surv[d_total[id_]] += m
            _pursued(d_pursuit[id_], a_total[ia], m, att_surv)
        else:
            la_end, ld_end = _round_law(ia, id_, nd, ext, a_hits, a_succ, a_size, d_hits, d_succ, d_size, d_after,
                                        sequential, weights, succ, p_att, p_def, cond)
            scale = m / (1.0 - weights[0, 0])
            rounds += scale
            for la in range(la_end):
                for ld in range(ld_end):
                    if la or ld:
                        mass[succ[la, ld]] += weights[la, ld] * scale
    return mass, att_gone, def_gone, rounds


@njit(cache=True)
def _pursued(pursuit, units, m, surv):
    """Survivors of a retreating side: units - min(pursuit hits, units) (COE-16.2)."""
    for h in range(pursuit.shape[0]):
        surv[units - min(h, units)] += pursuit[h] * m
