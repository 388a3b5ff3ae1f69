"""Land battle rules of Conquest of the Empire (COE-13, COE-14, COE-16) and the tables both the
exact solver (`sim.conquest.exact`) and the bulk kernel (`sim.conquest.bulk`) are built from.

A side's state is its land units by type (infantry, cavalry, catapult); its leaders never change
during a battle. All states of one side are numbered `(i * (C+1) + c) * (K+1) + k` for the
starting army (I, C, K), so the full army has the highest number and losses only lower it.

Where the rules leave a choice to the player, a `Tactics` object fixes it:
- formation (COE-14.1 / COE-A4): "max_hits" takes the formation with the highest expected hits
  (ties: more of the units early in the loss order), "loss_order" fills it in loss order;
- casualties (COE-14.4): "max_hits" removes the hit formation units so that the survivors'
  next formation scores the most expected hits (ties: units early in the loss order go first) --
  what both players do in COE-E5 (Alice keeps 1 INF, Fred keeps 1 INF + 1 CAV + his CAT);
  "loss_order" removes them strictly in loss order (cheapest first by default);
- pursuit (COE-16.2): the winner destroys the most expensive retreating units first.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from sim.conquest.components import LAND_UNITS, Components
from sim.core.errors import UserError, one_of

MAX_LEADERS = 8           # formation + fortification dice stay below 16 (bulk packing)
ALIASES = {"infantry": "infantry", "cavalry": "cavalry", "catapult": "catapult",
           "catapults": "catapult"}
FORMATION_RULES = ("max_hits", "loss_order")
LOSS_RULES = ("max_hits", "loss_order")


@dataclass(frozen=True)
class Army:
    """COE-13.5: one side's land units in the battle space and its leaders present (COE-14.1)."""

    infantry: int = 0
    cavalry: int = 0
    catapult: int = 0
    leaders: int = 0

    def __post_init__(self) -> None:
        for name in ("infantry", "cavalry", "catapult", "leaders"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
                raise UserError(f"{name}: {value!r} is not allowed; counts must be integers >= 0")
        if self.leaders > MAX_LEADERS:
            raise UserError(f"leaders: {self.leaders} is out of range; allowed 0..{MAX_LEADERS}")

    @classmethod
    def from_counts(cls, counts: Mapping[str, int], leaders: int = 0) -> "Army":
        """Build from `{"infantry": 5, "catapults": 1}` (singular or plural catapult)."""
        units = {}
        for key, n in counts.items():
            if key not in ALIASES:
                raise one_of("unit type", key, ALIASES)
            units[ALIASES[key]] = units.get(ALIASES[key], 0) + n
        return cls(leaders=leaders, **units)

    @property
    def units(self) -> tuple[int, int, int]:
        return (self.infantry, self.cavalry, self.catapult)

    @property
    def total(self) -> int:
        return self.infantry + self.cavalry + self.catapult


@dataclass(frozen=True)
class LandBattle:
    """A land battle (COE-13.1): attacker, defender, and whether the defender holds a fortified
    City there (COE-14.7, COE-A5); `*_can_retreat` is False when no adjacent province is free of
    enemy units (COE-16.4), which removes that side's retreat option."""

    attacker: Army
    defender: Army
    fortified: bool = False
    attacker_can_retreat: bool = True
    defender_can_retreat: bool = True

    def __post_init__(self) -> None:
        for side, army in (("attacker", self.attacker), ("defender", self.defender)):
            if army.total < 1:
                raise UserError(f"{side}: a land battle needs at least one land unit per side "
                                "(lone leaders are captured without a battle, COE-A7)")


@dataclass(frozen=True)
class Tactics:
    """The owner's choices inside a round: formation rule and casualty order (COE-14.1, 14.4)."""

    formation: str = "max_hits"
    loss_order: tuple[str, ...] = LAND_UNITS
    losses: str = "max_hits"

    def __post_init__(self) -> None:
        if self.formation not in FORMATION_RULES:
            raise one_of("formation rule", self.formation, FORMATION_RULES)
        if self.losses not in LOSS_RULES:
            raise one_of("loss rule", self.losses, LOSS_RULES)
        if sorted(self.loss_order) != sorted(LAND_UNITS):
            raise UserError(f"loss order: {','.join(self.loss_order)} is not allowed; "
                            f"give each of {', '.join(LAND_UNITS)} once")

    @property
    def order_index(self) -> tuple[int, ...]:
        return tuple(LAND_UNITS.index(u) for u in self.loss_order)


def symbol_probabilities(comps: Components) -> tuple[float, float, float]:
    """COE-13.2: chance of an infantry, cavalry and catapult symbol on one battle die."""
    return tuple(float(comps.die.probability(u)) for u in LAND_UNITS)  # type: ignore[return-value]


def score(symbols: Mapping[str, int], formation: Mapping[str, int], catapults_present: int,
          catapult_cap: str = "formation_plus_reserve") -> int:
    """COE-14.3: hits = matched infantry + matched cavalry + matched catapult symbols.

    Identical symbols score at most one per unit of that type in the formation; catapult symbols
    are capped by the catapults present in the battle (COE-A3), galleys and blanks never score."""
    cap = catapult_limit(formation.get("catapult", 0), catapults_present, catapult_cap)
    return (min(symbols.get("infantry", 0), formation.get("infantry", 0))
            + min(symbols.get("cavalry", 0), formation.get("cavalry", 0))
            + min(symbols.get("catapult", 0), cap))


def catapult_limit(in_formation: int, present: int, rule: str) -> int:
    """COE-A3: catapult symbols that can score: all catapults present, or those in the
    formation with at least one when any stands in reserve ("formation_min1")."""
    if rule == "formation_plus_reserve":
        return present
    return in_formation + ((in_formation == 0) & (present > 0))  # works on ints and arrays


def pursuit_hits(symbols: Mapping[str, int], winner_cavalry: int, pursuit_cap: str = "winner_cavalry") -> int:
    """COE-16.2 / COE-A23: pursuit hits -- cavalry symbols among the winner's dice (one per land
    unit), capped by his cavalry in the space ("uncapped": every cavalry symbol)."""
    n = symbols.get("cavalry", 0)
    return min(n, winner_cavalry) if pursuit_cap == "winner_cavalry" else n


@functools.lru_cache(maxsize=64)
def _symbol_grid(n: int, p: tuple[float, float, float]) -> np.ndarray:
    """Multinomial law of (infantry, cavalry, catapult) symbol counts among n dice."""
    pi, pc, pk = p
    po = 1.0 - pi - pc - pk
    grid = np.zeros((n + 1, n + 1, n + 1))
    for a in range(n + 1):
        for b in range(n + 1 - a):
            for c in range(n + 1 - a - b):
                o = n - a - b - c
                coef = math.factorial(n) // (math.factorial(a) * math.factorial(b) * math.factorial(c)
                                             * math.factorial(o))
                grid[a, b, c] = coef * pi ** a * pc ** b * pk ** c * po ** o
    return grid


@functools.lru_cache(maxsize=4096)
def hit_pmf(n: int, caps: tuple[int, int, int], p: tuple[float, float, float]) -> np.ndarray:
    """COE-14.3: law of the hits scored by n dice against per-type caps (exact), index = hits."""
    grid = _symbol_grid(n, p)
    r = np.arange(n + 1)
    hits = (np.minimum(r, caps[0])[:, None, None] + np.minimum(r, caps[1])[None, :, None]
            + np.minimum(r, caps[2])[None, None, :])
    out = np.bincount(hits.ravel(), weights=grid.ravel(), minlength=n + 1)[: n + 1]
    out.flags.writeable = False
    return out


def expected_hits(n: int, caps: tuple[int, int, int], p: tuple[float, float, float]) -> float:
    """COE-E15: E[hits] of one roll of n dice against per-type caps."""
    pmf = hit_pmf(n, caps, p)
    return float(np.dot(np.arange(len(pmf)), pmf))


@functools.lru_cache(maxsize=8192)
def _expected_min(n: int, p: float, cap: int) -> float:
    """E[min(Bin(n, p), cap)]: one type's share of the expected hits."""
    return sum(min(k, cap) * math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1))


@functools.lru_cache(maxsize=65536)
def choose_formation(units: tuple[int, int, int], size: int, dice: int,
                     p: tuple[float, float, float], catapult_cap: str, rule: str,
                     order: tuple[int, ...]) -> tuple[int, int, int]:
    """COE-14.1 / COE-A4: which `size` units form the formation.

    "max_hits": highest expected hits with `dice` dice (formation + fortification dice), ties
    broken towards units early in the loss order; "loss_order": fill in loss order."""
    if rule == "loss_order":
        out = [0, 0, 0]
        left = size
        for t in order:
            out[t] = min(units[t], left)
            left -= out[t]
        return tuple(out)  # type: ignore[return-value]
    best, best_key = None, None
    for fi in range(min(units[0], size) + 1):
        for fc in range(min(units[1], size - fi) + 1):
            fk = size - fi - fc
            if fk > units[2]:
                continue
            f = (fi, fc, fk)
            key = (round(formation_value(f, units[2], dice, p, catapult_cap), 12), tuple(f[t] for t in order))
            if best_key is None or key > best_key:
                best, best_key = f, key
    return best  # type: ignore[return-value]


def formation_value(formation: tuple[int, int, int], catapults: int, dice: int,
                    p: tuple[float, float, float], catapult_cap: str) -> float:
    """COE-14.3: expected hits of a formation rolling `dice` dice (catapults = all present)."""
    return (_expected_min(dice, p[0], formation[0]) + _expected_min(dice, p[1], formation[1])
            + _expected_min(dice, p[2], catapult_limit(formation[2], catapults, catapult_cap)))


@functools.lru_cache(maxsize=65536)
def choose_losses(units: tuple[int, int, int], formation: tuple[int, int, int], losses: int, size_cap: int,
                  bonus: int, p: tuple[float, float, float], catapult_cap: str, tactics: "Tactics"
                  ) -> tuple[int, int, int]:
    """COE-14.4: which formation units the owner removes for `losses` hits (<= formation size).

    "max_hits": keep the army whose next formation (size min(units, size_cap), `bonus` extra
    dice) scores the most expected hits; "loss_order": remove strictly in loss order."""
    order = tactics.order_index
    if tactics.losses == "loss_order":
        return tuple(int(x) for x in allocate_losses(np.array(formation), np.array(losses), order))
    best, best_key = None, None
    for ri in range(min(formation[0], losses) + 1):
        for rc in range(min(formation[1], losses - ri) + 1):
            rk = losses - ri - rc
            if rk > formation[2]:
                continue
            r = (ri, rc, rk)
            left = tuple(u - x for u, x in zip(units, r))
            size = min(sum(left), size_cap)
            nxt = choose_formation(left, size, size + bonus, p, catapult_cap, tactics.formation, order)
            key = (round(formation_value(nxt, left[2], size + bonus, p, catapult_cap), 12),
                   tuple(r[t] for t in order))
            if best_key is None or key > best_key:
                best, best_key = r, key
    return best  # type: ignore[return-value]


def allocate_losses(formation: np.ndarray, losses: np.ndarray, order: tuple[int, ...]) -> np.ndarray:
    """COE-14.4 / COE-A2: units removed by type when `losses` (<= formation size) hits fall on the
    formation, in loss order. Vectorised: formation (..., 3), losses (...)."""
    left = np.asarray(losses, dtype=np.int64)
    shape = np.broadcast_shapes(formation.shape[:-1], left.shape)
    removed = np.zeros(shape + (3,), dtype=np.int64)
    left = np.broadcast_to(left, shape).copy()
    for t in order:
        take = np.minimum(left, formation[..., t])
        removed[..., t] = take
        left = left - take
    return removed


@dataclass(frozen=True)
class SideTables:
    """Everything about one side's states that a round needs, per fortification-dice level e.

    comps (N, 3) units by type; total, value (talents), size (formation size) per state;
    formation (3, N, 3); succ (3, N, L) state after losing l formation units; hits (3, N, L) law
    of the side's own hits before the cap by the target's formation; kcap (3, N) catapult cap;
    pursuit (N, P) law of pursuit hits scored by this side as winner (COE-16.2); kept (N, P)
    value left after losing h units, most expensive first (the winner's choice); removed
    (3, N, L, 3) formation units removed for l hits; hits_after (3, N, L, L) law of the side's
    hits after losing l units before rolling (only with `options.simultaneous_hits = false`)."""

    army: Army
    comps: np.ndarray
    total: np.ndarray
    value: np.ndarray
    size: np.ndarray
    formation: np.ndarray
    succ: np.ndarray
    hits: np.ndarray
    kcap: np.ndarray
    pursuit: np.ndarray
    kept: np.ndarray
    removed: np.ndarray
    hits_after: np.ndarray | None = None

    @property
    def n(self) -> int:
        return len(self.total)

    def index(self, units: tuple[int, int, int]) -> int:
        _, c0, k0 = self.army.units
        return (units[0] * (c0 + 1) + units[1]) * (k0 + 1) + units[2]


def side_tables(army: Army, comps: Components, tactics: Tactics, levels: tuple[int, ...],
                width: int, sequential: bool = False) -> SideTables:
    """Build a side's tables for the fortification-dice levels it can roll with (COE-14.7);
    `sequential`: also the hit laws after losing units before rolling (COE-A1 alternative)."""
    i0, c0, k0 = army.units
    grid = np.stack(np.meshgrid(np.arange(i0 + 1), np.arange(c0 + 1), np.arange(k0 + 1),
                                indexing="ij"), axis=-1).reshape(-1, 3)
    total = grid.sum(1)
    costs = np.array([comps.cost(u) for u in LAND_UNITS])
    value = grid @ costs
    size = np.minimum(total, comps.land.formation_base + comps.land.formation_per_leader * army.leaders)
    p = symbol_probabilities(comps)
    rule = comps.options.catapult_cap
    n = len(total)
    formation = np.zeros((3, n, 3), dtype=np.int64)
    succ = np.tile(np.arange(n), (3, width, 1)).transpose(0, 2, 1).copy()
    hits = np.zeros((3, n, width))
    kcap = np.zeros((3, n), dtype=np.int64)
    removed = np.zeros((3, n, width, 3), dtype=np.int64)
    hits_after = np.zeros((3, n, width, width)) if sequential else None
    strides = np.array([(c0 + 1) * (k0 + 1), k0 + 1, 1])
    cap = comps.land.formation_base + comps.land.formation_per_leader * army.leaders
    states, sizes = [tuple(u) for u in grid.tolist()], size.tolist()
    states_at = np.arange(n)[:, None]
    losses = np.minimum(np.arange(width)[None, :], size[:, None])     # more losses than the formation: all of it
    for e in levels:
        rows = [_state_row(u, m, cap, e, p, rule, tactics, sequential) for u, m in zip(states, sizes)]
        formation[e] = [row.formation for row in rows]
        kcap[e] = [row.kcap for row in rows]
        for s, (m, row) in enumerate(zip(sizes, rows)):
            hits[e, s, : len(row.hits)] = row.hits
            removed[e, s, : m + 1] = row.removed
            if hits_after is not None:
                hits_after[e, s, : m + 1, : row.hits_after.shape[1]] = row.hits_after
        succ[e] = states_at - removed[e][states_at, losses] @ strides
    return SideTables(army=army, comps=grid, total=total, value=value, size=size, formation=formation,
                      succ=succ, hits=hits, kcap=kcap,
                      pursuit=_pursuit_table(states, p[1], comps.options.pursuit_cap),
                      kept=_kept_table(states, tuple(costs.tolist())), removed=removed, hits_after=hits_after)


class _StateRow(NamedTuple):
    """One state's entries of `side_tables` at one fortification-dice level: they depend on its
    units, formation size and cap only, so every army that contains the state shares them."""

    formation: tuple[int, int, int]
    kcap: int
    hits: np.ndarray
    removed: np.ndarray
    hits_after: np.ndarray | None


@functools.lru_cache(maxsize=65536)
def _state_row(units: tuple[int, int, int], size: int, cap: int, e: int, p: tuple[float, float, float],
               rule: str, tactics: Tactics, sequential: bool) -> _StateRow:
    """COE-14.1, COE-14.3, COE-14.4 (COE-A1 when `sequential`): the formation, its hit law and
    the units removed for each number of losses of a state with `size` units in formation."""
    f = choose_formation(units, size, size + e, p, rule, tactics.formation, tactics.order_index)
    kcap = int(catapult_limit(f[2], units[2], rule))
    removed = np.array([choose_losses(units, f, n, cap, e, p, rule, tactics) for n in range(size + 1)],
                       dtype=np.int64).reshape(size + 1, 3)
    after = None
    if sequential:
        after = np.zeros((size + 1, size + e + 1))
        for n, r in enumerate(removed.tolist()):
            g = tuple(a - b for a, b in zip(f, r))
            left = hit_pmf(sum(g) + e, (g[0], g[1], int(catapult_limit(g[2], units[2] - r[2], rule))), p)
            after[n, : len(left)] = left
    return _StateRow(f, kcap, hit_pmf(size + e, (f[0], f[1], kcap), p), removed, after)


def shared_side_tables(army: Army, comps: Components, tactics: Tactics, levels: tuple[int, ...],
                       width: int, sequential: bool = False) -> SideTables:
    """`side_tables`, built once per process for each side and setting: the same legion meets
    many opponents, and its tables do not depend on them (read only). They are built at the
    widest width asked so far, a narrower one being cut from them once (no entry below a width
    depends on it)."""
    key = (army, id(comps), tactics, levels, sequential)
    found = _SIDES.get(key)
    if found is None or found[1] < width:        # each entry holds its comps, so no id is reused
        if found is None and len(_SIDES) >= SIDE_CACHE_LIMIT:
            _SIDES.clear()
        found = _SIDES[key] = (comps, width, side_tables(army, comps, tactics, levels, width, sequential), {})
    views = found[3]
    view = views.get(width)
    if view is None:
        view = views[width] = _narrowed(found[2], width)
    return view


def _narrowed(t: SideTables, width: int) -> SideTables:
    """The tables of `side_tables` at a smaller width: the per-loss axes cut to `width`, copied
    contiguous (the exact solver's kernel reads them so)."""
    cut = np.ascontiguousarray
    after = None if t.hits_after is None else cut(t.hits_after[:, :, :width, :width])
    return replace(t, succ=cut(t.succ[:, :, :width]), hits=cut(t.hits[:, :, :width]),
                   removed=cut(t.removed[:, :, :width]), hits_after=after)


SIDE_CACHE_LIMIT = 2_000
_SIDES: dict[tuple, tuple[Components, int, SideTables, dict[int, SideTables]]] = {}


def _pursuit_table(states: list[tuple[int, int, int]], p_cav: float, cap: str) -> np.ndarray:
    """COE-16.2 / COE-A23: law of pursuit hits of each state, one die per land unit of the
    winner, cavalry symbols capped by his cavalry (or uncapped)."""
    top = max(sum(u) for u in states)
    rows = [_pursuit_row(sum(u), u[1] if cap == "winner_cavalry" else sum(u), p_cav) for u in states]
    return np.array([row + (0.0,) * (top + 1 - len(row)) for row in rows])


@functools.lru_cache(maxsize=4096)
def _pursuit_row(n: int, limit: int, p_cav: float) -> tuple[float, ...]:
    """The law of min(cavalry symbols among n dice, limit); it depends on nothing else, so every
    state of every army shares it."""
    out = [0.0] * (n + 1)
    for h in range(n + 1):
        out[min(h, limit)] += math.comb(n, h) * p_cav ** h * (1 - p_cav) ** (n - h)
    return tuple(out)


def _kept_table(states: list[tuple[int, int, int]], costs: tuple[int, ...]) -> np.ndarray:
    """Value a side keeps after losing h units, the most expensive first (pursuit victims)."""
    top = max(sum(u) for u in states)
    out = np.zeros((len(states), top + 1))
    for s, units in enumerate(states):
        kept = _kept_row(units, costs)
        out[s, : len(kept)] = kept
    return out


@functools.lru_cache(maxsize=65536)
def _kept_row(units: tuple[int, int, int], costs: tuple[int, ...]) -> np.ndarray:
    """`_kept_table`'s row of one state: it depends on the state's units and the prices only."""
    price = np.array(costs)
    by_cost = np.argsort(-price, kind="stable")
    pieces = np.repeat(price[by_cost], np.array(units)[by_cost])
    out = pieces.sum() - np.concatenate([[0], np.cumsum(pieces)])
    out.flags.writeable = False
    return out


def extra_dice_by_state(attacker: SideTables, comps: Components, fortified: bool) -> np.ndarray:
    """COE-14.7: the defender's fortification dice for every attacker state (2, or 1 while the
    attacker still has a catapult, re-checked each round)."""
    has_cat = attacker.comps[:, 2] > 0
    return np.where(has_cat, comps.land.extra_dice(fortified, True),
                    comps.land.extra_dice(fortified, False)).astype(np.int64)


def battle_tables(battle: LandBattle, comps: Components, tactics: Tactics
                  ) -> tuple[SideTables, SideTables, np.ndarray, int]:
    """Both sides' tables with a common width, and the fortification dice per attacker state."""
    land = comps.land
    per = land.formation_per_leader
    biggest = max(min(a.total, land.formation_base + per * a.leaders)
                  for a in (battle.attacker, battle.defender))
    extra = max(land.fortified_dice, land.fortified_dice_vs_catapult) if battle.fortified else 0
    width = biggest + extra + 1
    levels_d = sorted({land.extra_dice(battle.fortified, True), land.extra_dice(battle.fortified, False)}
                      if battle.attacker.catapult else {land.extra_dice(battle.fortified, False)})
    att = shared_side_tables(battle.attacker, comps, tactics, (0,), width)
    dfn = shared_side_tables(battle.defender, comps, tactics, tuple(levels_d), width,
                             sequential=not comps.options.simultaneous_hits)
    return att, dfn, extra_dice_by_state(att, comps, battle.fortified), width


@dataclass(frozen=True)
class RoundReport:
    """What happened in one land round with given dice (COE-14.1 - 14.4)."""

    attacker_formation: tuple[int, int, int]
    defender_formation: tuple[int, int, int]
    attacker_hits: int
    defender_hits: int
    attacker_after: Army
    defender_after: Army


def formation_of(army: Army, dice_bonus: int, comps: Components, tactics: Tactics) -> tuple[int, int, int]:
    """COE-14.1: the formation `tactics` picks for `army` rolling `dice_bonus` extra dice."""
    size = comps.land.formation_size(army.total, army.leaders)
    return choose_formation(army.units, size, size + dice_bonus, symbol_probabilities(comps),
                            comps.options.catapult_cap, tactics.formation, tactics.order_index)


def resolve_round(attacker: Army, defender: Army, attacker_roll: tuple[str, ...],
                  defender_roll: tuple[str, ...], comps: Components, fortified: bool = False,
                  tactics: Tactics = Tactics(), defender_tactics: Tactics | None = None) -> RoundReport:
    """COE-14.8: one land round with the given symbols (one per die, in any order).

    Formations are picked defender first (COE-14.1); the defender rolls his formation plus the
    fortification dice (COE-14.7); hits are matched (COE-14.3), capped by the target's formation
    and removed simultaneously in each owner's loss order (COE-14.4, COE-A1, COE-A2). With
    `options.simultaneous_hits = false` the defender's hit units are removed before he rolls."""
    defender_tactics = defender_tactics or tactics
    extra = comps.land.extra_dice(fortified, attacker.catapult > 0)
    f_def = formation_of(defender, extra, comps, defender_tactics)
    f_att = formation_of(attacker, 0, comps, tactics)
    _check_roll("attacker", attacker_roll, sum(f_att))
    rule, p = comps.options.catapult_cap, symbol_probabilities(comps)
    cap_a = comps.land.formation_base + comps.land.formation_per_leader * attacker.leaders
    cap_d = comps.land.formation_base + comps.land.formation_per_leader * defender.leaders
    hits_a = score(_count(attacker_roll), dict(zip(LAND_UNITS, f_att)), attacker.catapult, rule)
    lost_d = choose_losses(defender.units, f_def, min(hits_a, sum(f_def)), cap_d, extra, p, rule, defender_tactics)
    rolling, cats = f_def, defender.catapult
    if not comps.options.simultaneous_hits:
        rolling, cats = tuple(a - b for a, b in zip(f_def, lost_d)), defender.catapult - lost_d[2]
    _check_roll("defender", defender_roll, sum(rolling) + extra)
    hits_d = score(_count(defender_roll), dict(zip(LAND_UNITS, rolling)), cats, rule)
    lost_a = choose_losses(attacker.units, f_att, min(hits_d, sum(f_att)), cap_a, 0, p, rule, tactics)
    after_a = Army(*(u - x for u, x in zip(attacker.units, lost_a)), leaders=attacker.leaders)
    after_d = Army(*(u - x for u, x in zip(defender.units, lost_d)), leaders=defender.leaders)
    return RoundReport(f_att, f_def, hits_a, hits_d, after_a, after_d)


def _check_roll(side: str, roll: tuple[str, ...], need: int) -> None:
    if len(roll) != need:
        raise UserError(f"{side} roll has {len(roll)} dice; the round needs {need}")


def _count(roll: tuple[str, ...]) -> dict[str, int]:
    return {s: roll.count(s) for s in set(roll)}
