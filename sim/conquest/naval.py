"""Naval battles of Conquest of the Empire (COE-15): exact and bulk Monte Carlo.

Every galley rolls two battle dice; only galley symbols hit (uncapped by default, COE-A17); both
sides roll before losses are removed; there is no retreat and at most three rounds (COE-15.4,
COE-A19). Each owner chooses which of his galleys sink: the empty ones first, then the least
loaded (fewest leaders, then fewest land units). Land units aboard a sunk galley are destroyed;
leaders aboard are captured (COE-15.5, COE-A20) -- or killed with the option.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from sim.conquest.components import Components
from sim.core import dice
from sim.core.errors import UserError
from sim.core.exact import accumulate
from sim.core.montecarlo import run_blocks
from sim.core.stats import wilson_interval

PURPOSE = "conquest.naval"
MAX_GALLEYS = 64


@dataclass(frozen=True)
class Fleet:
    """COE-15: a side's galleys in the sea zone and what each loaded galley carries, as
    (land units, leaders) per galley (COE-7.1: at most 7 land units each)."""

    galleys: int
    cargo: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.galleys, bool) or not 1 <= self.galleys <= MAX_GALLEYS:
            raise UserError(f"galleys: {self.galleys!r} is out of range; allowed 1..{MAX_GALLEYS}")
        if len(self.cargo) > self.galleys:
            raise UserError(f"cargo for {len(self.cargo)} galleys given, but only {self.galleys} galleys")
        for units, leaders in self.cargo:
            if units < 0 or leaders < 0:
                raise UserError(f"cargo {units}+{leaders}: counts must be >= 0")

    def sink_order(self) -> list[tuple[int, int]]:
        """Cargo of each galley in the order its owner gives them up (empty first)."""
        full = list(self.cargo) + [(0, 0)] * (self.galleys - len(self.cargo))
        return sorted(full, key=lambda c: (c[1], c[0]))

    def lost(self, sunk: int) -> tuple[int, int]:
        """Land units and leaders lost when `sunk` galleys go down."""
        gone = self.sink_order()[:sunk]
        return sum(u for u, _ in gone), sum(ld for _, ld in gone)


def check_capacity(fleet: Fleet, comps: Components) -> None:
    """COE-7.1: a galley carries at most 7 land units (and any number of leaders)."""
    cap = comps.units["galley"].capacity
    for units, _ in fleet.cargo:
        if units > cap:
            raise UserError(f"cargo of {units} land units in one galley; a galley carries at most {cap}")


@dataclass(frozen=True)
class NavalOdds:
    """Outcome distribution of a naval battle."""

    method: str
    attacker_win: float       # only the attacker has galleys left
    defender_win: float
    both_sunk: float
    undecided: float          # both still afloat after the last round (COE-A19)
    attacker_galleys: dict[int, float]
    defender_galleys: dict[int, float]
    attacker_units_lost: dict[int, float]
    defender_units_lost: dict[int, float]
    attacker_leaders_lost: dict[int, float]
    defender_leaders_lost: dict[int, float]
    expected_rounds: float
    extra: dict = field(default_factory=dict)

    def probabilities(self) -> dict[str, float]:
        out = {k: getattr(self, k) for k in ("attacker_win", "defender_win", "both_sunk", "undecided")}
        for name in ("attacker_galleys", "defender_galleys", "attacker_units_lost", "defender_units_lost",
                     "attacker_leaders_lost", "defender_leaders_lost"):
            for k, p in getattr(self, name).items():
                out[f"{name}.{k}"] = p
        return out


def naval_hits(symbols: list[str] | tuple[str, ...], galleys: int, capped: bool = False) -> int:
    """COE-15.2 / COE-A17: one side's hits in a naval round -- its galley symbols (capped by its
    galleys with `capped`)."""
    hits = sum(1 for s in symbols if s == "galley")
    return min(hits, galleys) if capped else hits


def naval_hit_pmf(galleys: int, comps: Components) -> dict[int, float]:
    """COE-15.2 / COE-A17: law of one side's hits: galley symbols among 2 dice per galley,
    uncapped (or capped by the roller's galleys with `options.naval_hits_capped`)."""
    n = comps.naval.dice_per_galley * galleys
    p = float(comps.die.probability("galley"))
    cap = galleys if comps.options.naval_hits_capped else n
    return accumulate((min(h, cap), math.comb(n, h) * p ** h * (1 - p) ** (n - h)) for h in range(n + 1))


def solve_naval(attacker: Fleet, defender: Fleet, comps: Components) -> NavalOdds:
    """COE-15: exact distribution over at most `max_rounds` simultaneous rounds."""
    dist = {(attacker.galleys, defender.galleys): 1.0}
    rounds = 0.0
    for _ in range(comps.naval.max_rounds):
        items = []
        for (a, d), p in dist.items():
            if a == 0 or d == 0:
                items.append(((a, d), p))
                continue
            rounds += p
            ha, hd = naval_hit_pmf(a, comps), naval_hit_pmf(d, comps)
            items.extend(((max(a - y, 0), max(d - x, 0)), p * px * py)
                         for x, px in ha.items() for y, py in hd.items())
        dist = accumulate(items)
    return _odds("exact", dist, attacker, defender, rounds)


def _odds(method: str, dist: dict[tuple[int, int], float], attacker: Fleet, defender: Fleet,
          rounds: float, extra: dict | None = None) -> NavalOdds:
    def marginal(f) -> dict[int, float]:
        return dict(sorted(accumulate((f(a, d), p) for (a, d), p in dist.items()).items()))

    return NavalOdds(
        method=method,
        attacker_win=sum(p for (a, d), p in dist.items() if a > 0 and d == 0),
        defender_win=sum(p for (a, d), p in dist.items() if a == 0 and d > 0),
        both_sunk=dist.get((0, 0), 0.0),
        undecided=sum(p for (a, d), p in dist.items() if a > 0 and d > 0),
        attacker_galleys=marginal(lambda a, d: a), defender_galleys=marginal(lambda a, d: d),
        attacker_units_lost=marginal(lambda a, d: attacker.lost(attacker.galleys - a)[0]),
        defender_units_lost=marginal(lambda a, d: defender.lost(defender.galleys - d)[0]),
        attacker_leaders_lost=marginal(lambda a, d: attacker.lost(attacker.galleys - a)[1]),
        defender_leaders_lost=marginal(lambda a, d: defender.lost(defender.galleys - d)[1]),
        expected_rounds=rounds, extra=extra or {})


@dataclass(frozen=True)
class NavalStake:
    """What a naval battle puts at stake for the side that starts it (COE-13.4): its exact
    chance of being left alone in the zone (`solve_naval`'s `attacker_win`) and the expected
    worth each side loses, galleys with their cargo (COE-15.5)."""

    p_win: float
    attacker_loss: float
    defender_loss: float

    @property
    def gain(self) -> float:
        """The attacker's expected worth sunk of the defender's less his own."""
        return self.defender_loss - self.attacker_loss


def naval_stake(attacker: Sequence[float], defender: Sequence[float], comps: Components) -> NavalStake:
    """COE-15: the stake of a naval battle between galleys of these worths (a galley and what it
    carries, in any one unit), each owner sinking his least valuable galleys first (COE-15.3);
    the galley counts' law is `solve_naval`'s (cargo does not change the dice)."""
    odds = solve_naval(Fleet(len(attacker)), Fleet(len(defender)), comps)
    return NavalStake(odds.attacker_win, _expected_loss(attacker, odds.attacker_galleys),
                      _expected_loss(defender, odds.defender_galleys))


def _expected_loss(worths: Sequence[float], afloat: dict[int, float]) -> float:
    """Expected worth sunk when the cheapest galleys go first, given the law of those afloat."""
    cheapest = sorted(worths)
    return sum(p * sum(cheapest[:len(worths) - left]) for left, p in afloat.items())


def naval_kernel(attacker: Fleet, defender: Fleet, comps: Components):
    """A `run_blocks` kernel: joint histogram of surviving galleys of `size` naval battles."""
    gal = np.array([f == "galley" for f in comps.die.faces], dtype=np.int16)
    per = comps.naval.dice_per_galley
    capped = comps.options.naval_hits_capped
    width_a, width_d = attacker.galleys + 1, defender.galleys + 1

    def roll(rng: np.random.Generator, galleys: np.ndarray) -> np.ndarray:
        n = per * galleys
        width = max(int(n.max()), 1)
        faces = dice.faces(rng, len(gal), (len(galleys), width))
        h = np.where(np.arange(width)[None, :] < n[:, None], gal[faces], 0).sum(1, dtype=np.int64)
        return np.minimum(h, galleys) if capped else h

    def kernel(rng: np.random.Generator, size: int) -> dict[str, np.ndarray]:
        a = np.full(size, attacker.galleys, dtype=np.int64)
        d = np.full(size, defender.galleys, dtype=np.int64)
        rounds = 0
        for _ in range(comps.naval.max_rounds):
            live = np.flatnonzero((a > 0) & (d > 0))
            if not len(live):
                break
            rounds += len(live)
            ha, hd = roll(rng, a[live]), roll(rng, d[live])
            a[live] = np.maximum(a[live] - hd, 0)
            d[live] = np.maximum(d[live] - ha, 0)
        return {"joint": np.bincount(a * width_d + d, minlength=width_a * width_d),
                "rounds": np.array([rounds], dtype=np.int64)}

    return kernel


def simulate_naval(attacker: Fleet, defender: Fleet, comps: Components, n: int, seed: int) -> NavalOdds:
    """COE-15 by bulk Monte Carlo, with n, seed and Wilson 95 % intervals in `extra`."""
    counts = run_blocks(naval_kernel(attacker, defender, comps), n, seed, PURPOSE)
    width_d = defender.galleys + 1
    dist = {divmod(int(k), width_d): int(c) / n for k, c in enumerate(counts["joint"]) if c}
    odds = _odds("monte_carlo", dist, attacker, defender, int(counts["rounds"][0]) / n)
    ci = {k: list(wilson_interval(round(p * n), n)) for k, p in odds.probabilities().items()}
    return NavalOdds(**{**odds.__dict__, "extra": {"n": n, "seed": seed, "ci95": ci}})
