"""Exact odds of a CotE land battle by absorbing-chain recursion (COE-14, COE-16).

The chain's states are pairs (attacker units by type, defender units by type); leaders never
change. Units only ever decrease, so every transition except "nobody lost a unit" goes to a pair
with fewer units in total: pairs are solved in order of total units, fewest first, state by
state in a compiled kernel (`land_kernel`), and the self-loop is summed as a geometric series,
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

import functools
import math
from dataclasses import dataclass, field

import numpy as np

from sim.conquest import land_kernel
from sim.conquest.combat import SIDE_CACHE_LIMIT, LandBattle, SideTables, Tactics, battle_tables
from sim.conquest.components import Components
from sim.conquest.policy import FIGHT, Objective, RetreatPolicy
from sim.core.errors import UserError

MAX_PAIR_STATES = 2_000_000
CACHE_LIMIT = SIDE_CACHE_LIMIT  # sides whose kernel arrays are kept: no more than combat keeps
LAYOUTS = 512                   # solving orders kept (a few MB: the players' armies have at most 10 units)
TIE = 1e-12  # a retreat must be better by more than rounding noise
TACTICS = Tactics()             # the players' forecasts: the kernels' expected-hits rule
_NO_AFTER = np.zeros((1, 1, 1, 1))


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
    chain = _chain(battle, comps, tactics, objective, max_states)
    a_ret, d_ret, root_value = chain.backward(attacker_policy, defender_policy)
    odds, reach = chain.forward(a_ret, d_ret)
    return LandSolution(odds=odds, value=root_value, attacker=chain.A, defender=chain.D,
                        attacker_retreats=a_ret, defender_retreats=d_ret, reach=reach)


def forecast_land(battle: LandBattle, comps: Components, policy: RetreatPolicy,
                  objective: Objective) -> tuple[float, bool, bool]:
    """`solve_land` with both sides playing `policy`, cut to what the scripted players read: the
    attacker's win chance and whether each side retreats at the start state (COE-14.5, COE-16);
    the rest of the outcome distribution is not built. The chain is set up and run in one
    compiled call (`land_kernel.forecast_chain`): the players ask for thousands of new battles,
    and building small arrays around two kernel calls cost more than the kernels."""
    _check_size(battle, MAX_PAIR_STATES)
    a_tables, d_tables, ext, _ = battle_tables(battle, comps, TACTICS)
    A, D = _side(a_tables), _side(d_tables)
    w = objective.unit_weight
    x_att, x_def = _retreat_values(A, D, w)
    mass, def_gone, a_root, d_root = land_kernel.forecast_chain(
        len(D.total), ext, A.hits, A.succ, A.size, A.total, D.hits, D.succ, D.size, D.total,
        _NO_AFTER if D.after is None else D.after, D.after is not None, A.value, D.value, w,
        objective.leader_weight, battle.attacker.leaders, battle.defender.leaders,
        comps.options.mutual_annihilation == "both_captured", x_att, x_def,
        _code(policy, battle.attacker_can_retreat), _code(policy, battle.defender_can_retreat), TIE,
        A.pursuit, D.pursuit)
    return _attacker_won(mass.reshape(len(A.total), len(D.total))) + def_gone, bool(a_root), bool(d_root)


def _check_size(battle: LandBattle, max_states: int) -> None:
    a_units, d_units = battle.attacker.units, battle.defender.units
    pairs = math.prod(u + 1 for u in a_units) * math.prod(u + 1 for u in d_units)
    if pairs > max_states:
        raise UserError(f"armies {a_units} vs {d_units} have {pairs:,} unit states, more than the "
                        f"exact solver's {max_states:,}; use --mc N with the fight or retreat-below=K policy")


def _chain(battle: LandBattle, comps: Components, tactics: Tactics, objective: Objective,
           max_states: int) -> _Chain:
    _check_size(battle, max_states)
    A, D, ext, _ = battle_tables(battle, comps, tactics)
    return _Chain(battle, comps, A, D, ext, objective)


class _Side:
    """One side's tables as the kernel reads them (contiguous, 64-bit) and its padded kept
    values, built once per side table: the same army meets many opponents."""

    def __init__(self, t: SideTables) -> None:
        self.tables = t
        self.hits, self.succ, self.size, self.total = _dense(t.hits), _dense(t.succ), _dense(t.size), _dense(t.total)
        self.pursuit = _dense(t.pursuit)
        self.value = t.value.astype(float)
        self.after = None if t.hits_after is None else _dense(t.hits_after)
        self.kept: dict[int, np.ndarray] = {}

    def kept_at(self, width: int) -> np.ndarray:
        """`_pad(kept, width)`, once per width."""
        out = self.kept.get(width)
        if out is None:
            out = self.kept[width] = _pad(self.tables.kept, width, self.tables.total)
        return out


def _side(t: SideTables) -> _Side:
    found = _SIDES.get(id(t))
    if found is None or found.tables is not t:
        if len(_SIDES) >= CACHE_LIMIT:
            _SIDES.clear()
        found = _SIDES[id(t)] = _Side(t)
    return found


@functools.lru_cache(maxsize=LAYOUTS)
def _layout(a_total: bytes, d_total: bytes) -> tuple[np.ndarray, np.ndarray]:
    """The terminal pairs and the solving order (live pairs, fewest units first) of two armies'
    unit totals per state: they depend on the unit counts only, not on leaders or dice."""
    ta, td = np.frombuffer(a_total, dtype=np.int64), np.frombuffer(d_total, dtype=np.int64)
    terminal = (ta[:, None] == 0) | (td[None, :] == 0)
    order = land_kernel.solving_order(ta, td)
    terminal.flags.writeable = order.flags.writeable = False      # shared by every chain of these armies
    return terminal, order


_SIDES: dict[int, _Side] = {}


def _retreat_values(A: _Side, D: _Side, w: float) -> tuple[np.ndarray, np.ndarray]:
    """COE-16.2: each pair's value of the attacker's and of the defender's retreat (the winner
    pursues, leaders escape or retreat with the units), flat as the kernel reads them."""
    x_def = 1.0 + w * (A.value[:, None] - A.pursuit @ D.kept_at(A.pursuit.shape[1]).T)
    x_att = w * ((D.pursuit @ A.kept_at(D.pursuit.shape[1]).T).T - D.value[None, :])
    return np.ascontiguousarray(x_att).ravel(), np.ascontiguousarray(x_def).ravel()


def _attacker_won(mass: np.ndarray) -> float:
    """COE-16.3: the mass of the battles the attacker won in the rounds, read from the mass per
    pair (all of them or the ended ones: those pairs are terminal): the defender's only state
    without units is his state 0, the attacker's too."""
    return float(np.ascontiguousarray(mass[1:, :1]).sum())


class _Chain:
    """The battle's absorbing chain: terminal and retreat values, the solving order, and the
    kernel's inputs (`land_kernel`)."""

    def __init__(self, battle: LandBattle, comps: Components, A_tables: SideTables, D_tables: SideTables,
                 ext: np.ndarray, objective: Objective) -> None:
        self.battle, self.A, self.D, self.ext = battle, A_tables, D_tables, ext
        A, D = _side(A_tables), _side(D_tables)
        self.na, self.nd = len(A.total), len(D.total)
        w, lam = objective.unit_weight, objective.leader_weight
        la, ld = battle.attacker.leaders, battle.defender.leaders
        self.mutual_capture = comps.options.mutual_annihilation == "both_captured"
        self.terminal, self.order = _layout(A.total.tobytes(), D.total.tobytes())
        self.term_value = land_kernel.terminal_values(A.value, D.value, w, lam, la, ld,
                                                     self.mutual_capture).reshape(self.na, self.nd)
        self.x_att, self.x_def = _retreat_values(A, D, w)
        after = D.after if D.after is not None else _NO_AFTER
        self.rounds = (self.nd, _dense(ext), A.hits, A.succ, A.size, A.total, D.hits, D.succ, D.size, D.total,
                       after, D.after is not None)
        self.pursuits = A.pursuit, D.pursuit

    def backward(self, a_pol: RetreatPolicy, d_pol: RetreatPolicy):
        """Both sides' retreat maps at post-round decision nodes and the value of the battle (its
        first round is compulsory)."""
        a_ret, d_ret, root_value = land_kernel.solve_chain(
            self.order, *self.rounds, self.terminal.ravel(), self.term_value.ravel(),
            self.x_att, self.x_def,
            _code(a_pol, self.battle.attacker_can_retreat), _code(d_pol, self.battle.defender_can_retreat), TIE)
        return a_ret.reshape(self.na, self.nd), d_ret.reshape(self.na, self.nd), root_value

    def forward(self, a_ret: np.ndarray, d_ret: np.ndarray) -> tuple[LandOdds, np.ndarray]:
        """Push probability mass from the first (compulsory) round through the policies."""
        return self.outcome(*self.push(a_ret, d_ret))

    def push(self, a_ret: np.ndarray, d_ret: np.ndarray) -> tuple:
        """The forward pass (`land_kernel.push_mass`): mass per pair, survivors of retreats,
        each side's retreat chance and the expected rounds."""
        A, D = self.A, self.D
        att_surv = np.zeros(A.total.max() + 1)
        def_surv = np.zeros(D.total.max() + 1)
        mass, att_gone, def_gone, rounds = land_kernel.push_mass(
            self.order[::-1].copy(), *self.rounds, a_ret.ravel(), d_ret.ravel(), *self.pursuits, att_surv, def_surv)
        return mass, att_surv, def_surv, att_gone, def_gone, rounds

    def ended(self, mass: np.ndarray) -> np.ndarray:
        """Mass per pair of the battles that ended in the rounds (the terminal pairs)."""
        return mass.reshape(self.na, self.nd) * self.terminal

    def outcome(self, mass: np.ndarray, att_surv: np.ndarray, def_surv: np.ndarray, att_gone: float,
                def_gone: float, rounds: float) -> tuple[LandOdds, np.ndarray]:
        """The odds from the forward pass: mass per pair (terminal pairs hold the battles that
        ended in the rounds), survivors of retreats, retreat chances, expected rounds; and the
        mass reaching each post-round decision node."""
        A, D = self.A, self.D
        mass2 = mass.reshape(self.na, self.nd)
        ta, td = A.total, D.total
        end = self.ended(mass)
        a_win = _attacker_won(end)
        d_win = float(end[ta == 0][:, td > 0].sum())
        both = float(end[ta == 0][:, td == 0].sum())
        att_surv += np.bincount(ta, weights=end.sum(1), minlength=len(att_surv))
        def_surv += np.bincount(td, weights=end.sum(0), minlength=len(def_surv))
        la, ld = self.battle.attacker.leaders, self.battle.defender.leaders
        cap_both = both if self.mutual_capture else 0.0
        odds = LandOdds(
            method="exact",
            attacker_win=a_win + def_gone, defender_win=d_win + att_gone,
            both_destroyed=both, attacker_retreated=att_gone, defender_retreated=def_gone,
            attacker_survivors=_dist(att_surv), defender_survivors=_dist(def_surv),
            attacker_leaders_captured=_leader_dist(la, d_win + cap_both),
            defender_leaders_captured=_leader_dist(ld, a_win + cap_both),
            expected_rounds=rounds)
        return odds, np.where(self.terminal, 0.0, mass2)


@functools.lru_cache(maxsize=64)
def _code(policy: RetreatPolicy, allowed: bool) -> np.ndarray:
    """COE-14.5: a side's policy as the kernel reads it (kind, below, allowed); read only."""
    kind = {"fight": land_kernel.FIGHT_KIND, "below": land_kernel.BELOW_KIND,
            "optimal": land_kernel.OPTIMAL_KIND}[policy.kind]
    code = np.array([kind, policy.below, int(allowed)], dtype=np.int64)
    code.flags.writeable = False
    return code


def _dense(a: np.ndarray) -> np.ndarray:
    """A table as the kernel reads it: contiguous, 64-bit (one compiled signature)."""
    return np.ascontiguousarray(a, dtype=np.float64 if a.dtype.kind == "f" else np.int64)


def _pad(kept: np.ndarray, width: int, total: np.ndarray) -> np.ndarray:
    """kept[s, h] for h up to `width`-1 hits (more hits than units keep nothing)."""
    out = np.zeros((kept.shape[0], max(width, kept.shape[1])))
    out[:, : kept.shape[1]] = kept
    h = np.arange(out.shape[1])[None, :]
    out = np.where(h > total[:, None], 0.0, out)
    return out[:, :width]


def _dist(weights: np.ndarray) -> dict[int, float]:
    return {int(k): float(p) for k, p in enumerate(weights) if p > 0}


def _leader_dist(leaders: int, p_captured: float) -> dict[int, float]:
    """COE-16.3: all of a side's leaders are captured together, or none."""
    if leaders == 0:
        return {0: 1.0}
    return {k: p for k, p in ((0, 1.0 - p_captured), (leaders, p_captured)) if p > 0}
