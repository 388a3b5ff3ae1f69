"""Conquest of the Empire buying prices and inflation (COE-20, COE-21), as pure functions.

The price list (COE-20.2) is the combat units' base prices (`units.toml`) plus Cities,
Fortifications and Roads (`economy.toml`); a Fortified City is a City and a Fortification bought
together (COE-6.4). Inflation multiplies every base price (COE-21.4) by the multiplier in effect.

Inflation timing is a function of the game's history: the turn order actually played (one player
per turn, eliminated players skipped, COE-9.3) and the readings of the measured quantity
(income by default, COE-A11) in the order they happened. `turn_multipliers` gives the multiplier
of every turn's buying phase; `buys_at_old_prices` counts, per player, the buying phases left at
the old prices once an inflation is triggered (COE-21.1, COE-I11).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sim.conquest.components import Components
from sim.core.data import GameData
from sim.core.errors import UserError

BUYING_PHASE = 5          # COE-10.1: 1 movement, 2 battle, 3 tax, 4 razing, 5 buying, 6 placing
PHASES = range(1, 7)
UNIT_ITEMS = ("infantry", "cavalry", "galley", "catapult")


@dataclass(frozen=True)
class InflationRules:
    """COE-21 / COE-30: measured quantity, thresholds, multipliers of base prices, timing."""

    measure: str
    thresholds: tuple[int, ...]
    multipliers: tuple[int, ...]
    effective: str

    def multiplier(self, level: int) -> int:
        """COE-21.2: the multiplier of base prices after `level` inflations (0 -> x1)."""
        if not 0 <= level <= len(self.multipliers):
            raise UserError(f"inflation level {level} is out of range; allowed 0..{len(self.multipliers)}")
        return 1 if level == 0 else self.multipliers[level - 1]

    @property
    def levels(self) -> range:
        """0 (base prices) up to the number of thresholds."""
        return range(len(self.multipliers) + 1)


@dataclass(frozen=True)
class Economy:
    """COE-20.2 base prices in the order of the printed price list, COE-2.4 pools, COE-21 rules."""

    base: Mapping[str, int]
    pools: Mapping[str, int]
    inflation: InflationRules


@dataclass(frozen=True)
class Reading:
    """A player's measured value after a change (COE-A12: checked after every change).

    `turn` is the index of the turn being played (in the turn order passed alongside), `phase`
    its phase (COE-10.1; the active player's phase even when `player` is someone else, e.g. a
    defender capturing a Caesar), `measure` "income" (tax track) or "treasury".
    """

    turn: int
    phase: int
    player: str
    value: int
    measure: str = "income"


@dataclass(frozen=True)
class Trigger:
    """COE-21.1 / COE-21.2: the reading that first reached a threshold, and when it takes effect.

    `effective_turn` is the trigger player's next turn in the turn order (COE-A12), or None when
    he has no later turn in it (eliminated first, or the order ends).
    """

    level: int
    reading: Reading
    effective_turn: int | None


def load_economy(comps: Components) -> Economy:
    """Read and check the price list, pools and inflation keys (COE-20.2, COE-2.4, COE-30)."""
    data: GameData = comps.data
    base = {name: comps.units[name].cost for name in UNIT_ITEMS}
    prices = data.get("economy.prices")
    base["fortified_city"] = int(prices["city"]) + int(prices["fortification"])  # COE-6.4
    base.update({name: int(prices[name]) for name in ("city", "fortification", "road")})
    pools = {name: int(n) for name, n in data.get("economy.pools").items()}
    raw = data.get("economy.inflation")
    thresholds = tuple(int(t) for t in raw["inflation_thresholds"])
    multipliers = tuple(int(m) for m in raw["inflation_multipliers"])
    data.check(len(thresholds) == len(multipliers), "economy.inflation.inflation_multipliers",
               f"one multiplier per threshold ({len(thresholds)})")
    data.check(all(a < b for a, b in zip(thresholds, thresholds[1:])), "economy.inflation.inflation_thresholds",
               "strictly increasing thresholds")
    data.check(all(a <= b for a, b in zip((2,) + multipliers, multipliers)),
               "economy.inflation.inflation_multipliers", "multipliers >= 2 that never decrease (COE-21.3)")
    rules = InflationRules(measure=str(raw["inflation_measure"]), thresholds=thresholds,
                           multipliers=multipliers, effective=str(raw["inflation_effective"]))
    return Economy(base=base, pools=pools, inflation=rules)


def price(base: int, multiplier: int) -> int:
    """COE-21.2: an inflated price is a multiple of the BASE price (x3 of base, not of x2)."""
    return base * multiplier


def price_list(economy: Economy, multiplier: int) -> dict[str, int]:
    """COE-20.2 / COE-21.4: every item's price under a multiplier (roads included)."""
    return {item: price(b, multiplier) for item, b in economy.base.items()}


def triggers(turn_players: Sequence[str], readings: Sequence[Reading], rules: InflationRules) -> list[Trigger]:
    """COE-21.1-21.4, COE-A11, COE-A12: the inflations triggered by the readings, in order.

    Only readings of the configured measure count. A reading at or above a threshold not yet
    reached triggers it (inclusive, COE-A11); one reading passing several thresholds triggers all
    of them at once (straight to the highest multiplier). Each threshold triggers once: later
    falls and re-crossings change nothing (COE-21.3).
    """
    _check_history(turn_players, readings)
    out: list[Trigger] = []
    for r in readings:
        if r.measure != rules.measure:
            continue
        while len(out) < len(rules.thresholds) and r.value >= rules.thresholds[len(out)]:
            out.append(Trigger(level=len(out) + 1, reading=r, effective_turn=_next_turn(turn_players, r)))
    return out


def turn_multipliers(turn_players: Sequence[str], readings: Sequence[Reading], rules: InflationRules) -> list[int]:
    """COE-21 / COE-A12: the price multiplier of each turn's buying phase, for everybody.

    A triggered inflation applies from the start of its trigger player's next turn; the
    multiplier in effect is the largest of those already in effect, so it never decreases even
    when a later threshold's trigger player comes round first.
    """
    out = [1] * len(turn_players)
    for t in triggers(turn_players, readings, rules):
        if t.effective_turn is not None:
            m = rules.multiplier(t.level)
            out[t.effective_turn:] = [max(x, m) for x in out[t.effective_turn:]]
    return out


def multiplier_in_force(turn_players: Sequence[str], readings: Sequence[Reading], rules: InflationRules) -> int:
    """`turn_multipliers(...)[-1]`, the multiplier of the last turn's buying phase, without the
    list of every turn's (the engine asks at every turn): every triggered inflation with a next
    turn of its trigger player takes effect by the last turn, so the largest of them holds."""
    return max((rules.multiplier(t.level) for t in triggers(turn_players, readings, rules)
                if t.effective_turn is not None), default=1)


def buys_at_old_prices(turn_players: Sequence[str], readings: Sequence[Reading], rules: InflationRules,
                       level: int) -> dict[str, int]:
    """COE-21.1, COE-I11: per player, buying phases after inflation `level` was triggered and before
    its multiplier (or a higher one) took effect.

    A trigger before the trigger player's own buying phase (e.g. a conquest in phase 2) leaves
    him that phase; one in phase 6 (a new City) does not.
    """
    found = [t for t in triggers(turn_players, readings, rules) if t.level == level]
    if not found:
        raise UserError(f"inflation {level} is never triggered by these readings")
    trigger = found[0].reading
    target = rules.multiplier(level)
    mults = turn_multipliers(turn_players, readings, rules)
    counts = dict.fromkeys(turn_players, 0)
    for turn, (player, m) in enumerate(zip(turn_players, mults)):
        after = turn > trigger.turn or (turn == trigger.turn and trigger.phase < BUYING_PHASE)
        if after and m < target:
            counts[player] += 1
    return counts


def _next_turn(turn_players: Sequence[str], r: Reading) -> int | None:
    """COE-A12: the first turn of the reading's player after the turn in which it happened."""
    return next((t for t in range(r.turn + 1, len(turn_players)) if turn_players[t] == r.player), None)


def _check_history(turn_players: Sequence[str], readings: Sequence[Reading]) -> None:
    previous = (0, 0)
    for r in readings:
        if not 0 <= r.turn < len(turn_players) or r.phase not in PHASES:
            raise UserError(f"reading {r}: turn must be 0..{len(turn_players) - 1} and phase 1..6 (COE-10.1)")
        if (r.turn, r.phase) < previous:
            raise UserError(f"reading {r} comes before the reading preceding it; give readings in game order")
        previous = (r.turn, r.phase)
