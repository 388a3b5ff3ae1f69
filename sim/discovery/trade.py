"""AOD-10: trade income -- the best arrangement of goods and merchant ships into sets.

AOD-10.4: any three goods pay 1, three of a kind 3, four of a kind 6; AOD-10.5: a ship is a
joker, at most one per set; every token sits in at most one set; AOD-10.6: the income is the
best arrangement. "Any three" may repeat types unless the rules option
`goods.sets.any_three_requires_distinct` is set (AOD-18.6).

How it is solved exactly, and fast:

* Per type, the goods either form kind-sets -- (a) 4 real, (b) 3 real + ship, (c) 3 real,
  (d) 2 real + ship -- or are left for the any-three sets. Some optimum leaves at most 2
  goods of each type outside kind-sets: 3 such goods of one type sit in at most 3 any-three
  sets (worth at most 3 x 1) and can instead form a three of a kind (worth 3). The data check
  `three_of_a_kind >= 3 x any_three` keeps this true under overrides.
* Which any-three sets can be formed then depends only on the free ships and on n1, n2 = the
  number of types with 1 and 2 goods left over: m sets, x of them with a ship, need
  3m - x goods; with duplicates allowed that is n1 + 2 n2 >= 3m - x; with distinct types a
  type can give at most min(left, m) goods and, by the Gale-Ryser condition for sets of size
  2-3, that is also sufficient: n1 + n2 >= 3 - x for m = 1, n1 + 2 n2 >= 3m - x for m >= 2.
* So a dynamic programme over the types with the state (ships in kind-sets, n1, n2) is exact.
  The value is symmetric in the types, hence depends only on the sorted count vector: for a
  batch, the optimum of every sorted count vector and ship count is precomputed once (12 376
  vectors for the 46-token set) and a player is evaluated by sorting, ranking and a table
  lookup -- millions of players per second.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sim.core.errors import UserError
from sim.discovery.components import Goods, SetValues

NEG = np.int16(-10_000)
SHIP = "ship"
TABLE_LIMIT = 40_000  # largest number of sorted count vectors worth a lookup table


@dataclass(frozen=True)
class Group:
    """One set: the goods in it (a ship shown as "ship"), its kind and its value."""

    tokens: tuple[str, ...]
    kind: str
    value: int


@dataclass(frozen=True)
class Arrangement:
    """AOD-10.6: the best arrangement of a batch of players; arrays have a leading batch axis.

    Per type (shape (B, T)): `four` sets of 4 real goods, `four_ship` sets of 3 goods + ship,
    `three` sets of 3 goods, `three_ship` sets of 2 goods + ship, `any_goods` goods used in
    any-three sets. Per player (shape (B,)): `any_three` any-three sets without a ship,
    `any_three_ship` with one, `income`.
    """

    names: tuple[str, ...]
    sets: SetValues
    income: np.ndarray
    four: np.ndarray
    four_ship: np.ndarray
    three: np.ndarray
    three_ship: np.ndarray
    any_three: np.ndarray
    any_three_ship: np.ndarray
    any_goods: np.ndarray

    def groups(self, i: int) -> list[Group]:
        """The explicit sets of player `i` (kind-sets by type, then the any-three sets)."""
        s = self.sets
        out: list[Group] = []
        for t, name in enumerate(self.names):
            out += [Group((name,) * 4, "four_of_a_kind", s.four_of_a_kind)] * int(self.four[i, t])
            out += [Group((name,) * 3 + (SHIP,), "four_of_a_kind", s.four_of_a_kind)] * int(self.four_ship[i, t])
            out += [Group((name,) * 3, "three_of_a_kind", s.three_of_a_kind)] * int(self.three[i, t])
            out += [Group((name,) * 2 + (SHIP,), "three_of_a_kind", s.three_of_a_kind)] * int(self.three_ship[i, t])
        plain, shipped = int(self.any_three[i]), int(self.any_three_ship[i])
        sizes = [3] * plain + [2] * shipped
        tokens = [name for t, name in enumerate(self.names) for _ in range(int(self.any_goods[i, t]))]
        members: list[list[str]] = [[] for _ in sizes]
        # Row-major fill: the goods of one type (at most one per set) land in different sets.
        slots = [j for row in range(3) for j, size in enumerate(sizes) if row < size]
        for j, token in zip(slots, tokens):
            members[j].append(token)
        for j, size in enumerate(sizes):
            out.append(Group(tuple(members[j]) + ((SHIP,) if size == 2 else ()), "any_three", s.any_three))
        return out


def income(goods: Goods, counts, ships) -> np.ndarray:
    """AOD-10.6: the best set income of each player; counts (B, T), ships (B,). Same numbers
    as `arrange(...).income`, without building the arrangement."""
    counts, ships = _check(goods, counts, ships)
    return _solver(goods.sets, len(goods.names), max(goods.stock), goods.ships).income(goods.names, counts, ships)


_INCOMES: dict[Goods, dict[tuple[tuple[int, ...], int], int]] = {}
INCOMES_KEPT = 1 << 18           # a rules configuration's cache starts afresh beyond this many holdings


def incomes_of(goods: Goods, holdings: Sequence[tuple[int, ...]], ships: int) -> list[int]:
    """`income` of one player's alternative holdings (players weigh the same holdings many
    times), cached per non-increasing count vector and ships: the best income depends on nothing
    else (the solver's table, below); the holdings not seen yet go through `income` in one call,
    which checks them against the stock."""
    cache = _INCOMES.setdefault(goods, {})
    keys = [(tuple(sorted(counts, reverse=True)), ships) for counts in holdings]
    missing = [j for j, key in enumerate(keys) if key not in cache]
    if missing:
        if len(cache) > INCOMES_KEPT:
            cache.clear()
        found = income(goods, np.array([holdings[j] for j in missing], dtype=np.int64), np.full(len(missing), ships))
        cache.update(zip((keys[j] for j in missing), found.tolist()))
    return [cache[key] for key in keys]


def arrange(goods: Goods, counts, ships) -> Arrangement:
    """AOD-10.6: the best arrangement of each player of a batch, exact.

    `counts` has shape (B, T) in the order of `goods.names` (or (T,) for one player); `ships`
    has shape (B,) or is a scalar. A count above the stock of its good, or more ships than
    exist, is a UserError.
    """
    counts, ships = _check(goods, counts, ships)
    solver = _solver(goods.sets, len(goods.names), max(goods.stock), goods.ships)
    return solver.solve(goods.names, counts, ships)


def arrange_one(goods: Goods, holding: dict[str, int], ships: int) -> tuple[int, list[Group]]:
    """AOD-10.6: income and sets of one player given as {good: count}."""
    counts = np.zeros(len(goods.names), dtype=np.int64)
    for name, count in holding.items():
        counts[goods.index(name)] += count
    best = arrange(goods, counts[None, :], np.array([ships]))
    return int(best.income[0]), best.groups(0)


def _check(goods: Goods, counts, ships) -> tuple[np.ndarray, np.ndarray]:
    counts = np.atleast_2d(np.asarray(counts, dtype=np.int64))
    ships = np.broadcast_to(np.asarray(ships, dtype=np.int64), counts.shape[:1]).copy()
    if counts.ndim != 2 or counts.shape[1] != len(goods.names):
        raise UserError(f"trade goods: expected {len(goods.names)} counts per player "
                        f"({', '.join(goods.names)}), got shape {counts.shape}")
    stock = np.asarray(goods.stock)
    bad = np.argwhere((counts < 0) | (counts > stock))
    if len(bad):
        b, t = bad[0]
        raise UserError(f"trade good {goods.names[t]}: count {counts[b, t]} is not allowed; "
                        f"allowed 0..{stock[t]} (the stock of that good)")
    if np.any((ships < 0) | (ships > goods.ships)):
        raise UserError(f"merchant ships: {int(ships[(ships < 0) | (ships > goods.ships)][0])} is not "
                        f"allowed; allowed 0..{goods.ships} (the winnable ships, AOD-18.4)")
    return counts, ships


@functools.cache
def _solver(sets: SetValues, types: int, most: int, ships: int) -> _Solver:
    """One solver per rules configuration; its lookup table is built on first use."""
    if sets.three_of_a_kind < 3 * sets.any_three:
        raise UserError(f"goods.sets: three_of_a_kind = {sets.three_of_a_kind} is below 3 x any_three = "
                        f"{3 * sets.any_three}; the optimiser assumes a three of a kind is worth at least "
                        f"three any-three sets")
    return _Solver(sets, types, most, ships)


class _Solver:
    """The dynamic programme of the module docstring for one rules configuration."""

    def __init__(self, sets: SetValues, types: int, most: int, ships: int) -> None:
        self.sets, self.types, self.most, self.ships = sets, types, most, ships
        self.shape = (ships + 1, types + 1, types + 1)  # (ships in kind-sets, n1, n2)
        self.options = _options(sets, most)
        self.any_sets, self.any_ship = _any_three_table(sets.any_three_requires_distinct, ships, types)
        self.any_value = (self.any_sets * sets.any_three).astype(np.int16)

    # -- the dynamic programme -----------------------------------------------------------------

    def _extend(self, frontier: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Add one type with `counts` goods (per row) to every row's frontier; return the new
        frontier and, per state, the option index that reached it."""
        out = np.full(frontier.shape, NEG, dtype=np.int16)
        choice = np.zeros(frontier.shape, dtype=np.int8)
        k_max, n_max, _ = self.shape
        for v in np.unique(counts):
            rows = np.flatnonzero(counts == v)
            sub, best, pick = frontier[rows], out[rows], choice[rows]
            for o, (_, _, _, _, r, s, value) in enumerate(self.options[v]):
                d1, d2 = int(r == 1), int(r == 2)
                cand = sub[:, : k_max - s, : n_max - d1, : n_max - d2] + np.int16(value)
                dest = best[:, s:, d1:, d2:]
                better = cand > dest
                dest[better] = cand[better]
                pick[:, s:, d1:, d2:][better] = o
            out[rows], choice[rows] = best, pick
        return out, choice

    def _best(self, frontier: np.ndarray, ships: int) -> tuple[np.ndarray, ...]:
        """Best total per row with `ships` ships: (value, k, n1, n2) of the best state."""
        rows = frontier.shape[0]
        used = np.arange(min(ships, self.ships) + 1)
        total = np.full((rows, *self.shape), NEG, dtype=np.int16)
        total[:, used] = frontier[:, used] + self.any_value[ships - used]
        flat = total.reshape(rows, -1).argmax(axis=1)
        k, n1, n2 = np.unravel_index(flat, self.shape)
        return total.reshape(rows, -1)[np.arange(rows), flat], k, n1, n2

    def _run(self, layers: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, list[np.ndarray]]:
        frontier = np.full((1, *self.shape), NEG, dtype=np.int16)
        frontier[0, 0, 0, 0] = 0
        choices = []
        for parent, counts in layers:
            frontier, choice = self._extend(frontier[parent], counts)
            choices.append(choice)
        return frontier, choices

    def _trace(self, layers, choices, rows: np.ndarray, k, n1, n2) -> np.ndarray:
        """Option index of every layer for the given final rows and states (walks back)."""
        picked = np.zeros((len(rows), len(layers)), dtype=np.int8)
        k, n1, n2, rows = k.copy(), n1.copy(), n2.copy(), rows.copy()
        for j in range(len(layers) - 1, -1, -1):
            parent, counts = layers[j]
            o = choices[j][rows, k, n1, n2]
            picked[:, j] = o
            opt = self.options_array[counts[rows], o]
            k -= opt[:, 5]
            n1 -= opt[:, 4] == 1
            n2 -= opt[:, 4] == 2
            rows = parent[rows]
        return picked

    @functools.cached_property
    def options_array(self) -> np.ndarray:
        """options[v][o] as a padded int array (count, option, field)."""
        width = max(len(o) for o in self.options)
        arr = np.zeros((len(self.options), width, 7), dtype=np.int8)
        for v, opts in enumerate(self.options):
            arr[v, : len(opts)] = opts
        return arr

    # -- the lookup table over sorted count vectors --------------------------------------------

    @functools.cached_property
    def table(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(keys, value[vector, ships], option[vector, ships, position]) for every sorted
        (non-increasing) count vector; built layer by layer so shared prefixes are solved once."""
        base = self.most + 1
        last, key = np.array([self.most]), np.array([0])
        layers = []
        for _ in range(self.types):
            parent = np.repeat(np.arange(len(last)), last + 1)
            counts = np.concatenate([np.arange(v + 1) for v in last])
            layers.append((parent, counts))
            last, key = counts, key[parent] * base + counts
        frontier, choices = self._run(layers)
        n = len(key)
        values = np.zeros((n, self.ships + 1), dtype=np.int16)
        picks = np.zeros((n, self.ships + 1, self.types), dtype=np.int8)
        rows = np.arange(n)
        for s in range(self.ships + 1):
            value, k, n1, n2 = self._best(frontier, s)
            values[:, s] = value
            picks[:, s] = self._trace(layers, choices, rows, k, n1, n2)
        return key, values, picks

    @property
    def tabulated(self) -> bool:
        return math.comb(self.types + self.most, self.most) <= TABLE_LIMIT

    def _lookup(self, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(sort order, sorted counts, table row) of each player."""
        order = np.argsort(-counts, axis=1, kind="stable")
        ordered = np.take_along_axis(counts, order, axis=1)
        weights = (self.most + 1) ** np.arange(self.types - 1, -1, -1, dtype=np.int64)
        return order, ordered, np.searchsorted(self.table[0], ordered @ weights)

    def income(self, names: tuple[str, ...], counts: np.ndarray, ships: np.ndarray) -> np.ndarray:
        """The best income of each row: one table lookup per player."""
        if not self.tabulated:
            return self.solve(names, counts, ships).income
        return self.table[1][self._lookup(counts)[2], ships].astype(np.int64)

    def solve(self, names: tuple[str, ...], counts: np.ndarray, ships: np.ndarray) -> Arrangement:
        """The best arrangement of each row (table lookup when the table is small enough)."""
        if self.tabulated:
            order, ordered, idx = self._lookup(counts)
            picked = self.table[2][idx, ships]
        else:
            order = np.argsort(-counts, axis=1, kind="stable")
            ordered = np.take_along_axis(counts, order, axis=1)
            rows = np.arange(len(counts))
            layers = [(rows if t else np.zeros_like(rows), ordered[:, t]) for t in range(self.types)]
            frontier, choices = self._run(layers)
            picked = np.zeros(counts.shape, dtype=np.int8)
            for s in np.unique(ships):
                mine = np.flatnonzero(ships == s)
                _, k, n1, n2 = self._best(frontier[mine], int(s))
                picked[mine] = self._trace(layers, choices, mine, k, n1, n2)
        per_type = np.empty_like(picked)
        per_type[np.arange(len(counts))[:, None], order] = picked
        return self._arrangement(names, self.options_array[counts, per_type], ships)

    def _arrangement(self, names, opt: np.ndarray, ships: np.ndarray) -> Arrangement:
        four, four_ship, three, three_ship, left = (opt[..., i] for i in range(5))
        free = ships - opt[..., 5].sum(axis=1)
        n1, n2 = (left == 1).sum(axis=1), (left == 2).sum(axis=1)
        m, x = self.any_sets[free, n1, n2], self.any_ship[free, n1, n2]
        need = 3 * m - x
        usable = np.minimum(left, m[:, None]) if self.sets.any_three_requires_distinct else left
        before = np.cumsum(usable, axis=1) - usable
        used = np.minimum(np.maximum(need[:, None] - before, 0), usable)
        s = self.sets
        total = (s.four_of_a_kind * (four + four_ship).sum(axis=1) + s.three_of_a_kind * (three + three_ship).sum(axis=1)
                 + s.any_three * m)
        return Arrangement(names=names, sets=s, income=total, four=four, four_ship=four_ship, three=three,
                           three_ship=three_ship, any_three=m - x, any_three_ship=x, any_goods=used)


def _options(sets: SetValues, most: int) -> list[list[tuple[int, ...]]]:
    """For each count v, the non-dominated kind-set choices of one type leaving 0-2 goods:
    (a, b, c, d, left, ships, value) with a/b/c/d = 4-real / 3+ship / 3-real / 2+ship sets."""
    out = []
    for v in range(most + 1):
        best: dict[tuple[int, int], tuple[int, ...]] = {}
        for a in range(v // 4 + 1):
            for b in range(v // 3 + 1):
                for c in range(v // 3 + 1):
                    for d in range(v // 2 + 1):
                        left = v - 4 * a - 3 * b - 3 * c - 2 * d
                        if not 0 <= left <= 2:
                            continue
                        value = sets.four_of_a_kind * (a + b) + sets.three_of_a_kind * (c + d)
                        key = (b + d, left)
                        if key not in best or value > best[key][6]:
                            best[key] = (a, b, c, d, left, b + d, value)
        out.append(sorted(best.values(), key=lambda o: (o[5], o[4])))
    return out


def _any_three_table(distinct: bool, ships: int, types: int) -> tuple[np.ndarray, np.ndarray]:
    """sets[s, n1, n2], ship_sets[s, n1, n2]: the most any-three sets from n1 types with one
    good left and n2 types with two, using at most s ships (the fewest ships for that many)."""
    sets = np.zeros((ships + 1, types + 1, types + 1), dtype=np.int64)
    with_ship = np.zeros_like(sets)
    for s in range(ships + 1):
        for n1 in range(types + 1):
            for n2 in range(types + 1 - n1):
                goods = n1 + 2 * n2
                for m in range(1, goods + 1):
                    cap = n1 + n2 if (distinct and m == 1) else goods
                    x = max(0, 3 * m - cap)
                    if x <= min(s, m):
                        sets[s, n1, n2], with_ship[s, n1, n2] = m, x
    return sets, with_ship
