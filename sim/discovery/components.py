"""Typed, validated view of the Age of Discovery data (`sim/discovery/data/*.toml`).

`load_components(overrides, variants)` reads the data through `sim.core.data.load_game_data`
(so `--set goods.sets.any_three_requires_distinct=true` works) and builds frozen dataclasses.
Checks that span several values (a region whose good is not a trade good, an asymmetric border,
a discovery token needing no natives) raise a `DataError` naming the path.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sim.core.data import GameData, load_game_data
from sim.core.errors import one_of

GAME = "discovery"
UNIT_TYPES = ("colonist", "captain", "merchant", "missionary", "soldier")
VP_BASES = ("", "goods", "unit_pairs", "ships", "soldiers", "buildings", "regions", "five_dollars")


@dataclass(frozen=True)
class Region:
    """AOD-1.2 / AOD-19.1-19.4: a New World region, its printed good and its borders."""

    id: str
    name: str
    good: str
    discovered: bool
    adjacent: tuple[str, ...]


@dataclass(frozen=True)
class SetValues:
    """AOD-10.4 / AOD-10.5: what a set of goods pays; ships are wild, at most one per set."""

    any_three: int
    three_of_a_kind: int
    four_of_a_kind: int
    any_three_requires_distinct: bool


@dataclass(frozen=True)
class Goods:
    """AOD-2.6: the trade-good types of the chosen edition and the stock of each (AOD-18.3)."""

    names: tuple[str, ...]
    stock: tuple[int, ...]
    ships: int
    sets: SetValues

    def index(self, name: str) -> int:
        """Position of a good; a UserError lists the goods of this edition."""
        if name not in self.names:
            raise one_of("trade good", name, self.names)
        return self.names.index(name)


@dataclass(frozen=True)
class Discovery:
    """AOD-15: one discovery token or card: loot, loot per soldier sent, natives, VP."""

    id: str
    name: str
    loot: int
    per_soldier: int
    natives: int
    vp: int

    def reward(self, soldiers: int) -> int:
        """AOD-8.3: money paid on success, loot plus per-soldier loot for every soldier sent."""
        return self.loot + self.per_soldier * soldiers


@dataclass(frozen=True)
class UnitType:
    """AOD-7.1: a unit's value in Merchant Shipping and Discovery and its arrival effect."""

    name: str
    shipping: int
    discovery: int
    arrival_money: int
    arrival_colonists: int
    fights: bool


@dataclass(frozen=True)
class Building:
    """AOD-14: a capital building tile; `vp` fixed, `vp_per` x count of `vp_basis` at game end."""

    id: str
    age: int
    name: str
    name_hu: str
    copies: int
    effect: str
    vp: int
    vp_per: int
    vp_basis: str
    amount: int = 0          # the number in the effect ($, $ per good or ship, units); 0 where none
    unit: str = ""           # the unit type it gives; "" where none


@dataclass(frozen=True)
class ColonyRules:
    """AOD-12.2 / AOD-12.3 / AOD-18.7: region awards and the threshold reading."""

    first_vp: int
    second_vp: int
    tied_first_vp: int
    threshold: int
    threshold_reading: str


@dataclass(frozen=True)
class WarRules:
    """AOD-9: costs, kills per soldier, the Militia soldier and its reading (AOD-18.25)."""

    battle_cost: int
    war_cost: int
    kills_per_soldier: int
    militia_soldiers: int
    militia_counts_for_war: bool
    battle_needs_both_present: bool


@dataclass(frozen=True)
class FinalRules:
    """AOD-13: tie-breakers, the round-8 income reading (AOD-18.15), Navy VP (AOD-18.2)."""

    tie_breakers: tuple[str, ...]
    round8_sets_pay_money: bool
    navy_vp_per_ship: int


@dataclass(frozen=True)
class Components:
    """Everything the discovery kernels read, plus the raw data for provenance."""

    data: GameData
    regions: tuple[Region, ...]
    goods: Goods
    tokens: tuple[Discovery, ...]
    tokens_on_map: int
    cards: tuple[Discovery, ...]
    units: Mapping[str, UnitType]
    buildings: tuple[Building, ...]
    building_cost: tuple[int, int, int]
    amount: Mapping[str, int]        # building id -> `Building.amount` (read by the effects, AOD-14)
    gives: Mapping[str, int]         # building id -> index in UNIT_TYPES of the unit it gives
    colonies: ColonyRules
    warfare: WarRules
    final: FinalRules
    colours: tuple[str, ...]
    players: tuple[int, int]

    def option(self, name: str) -> Any:
        """`options.<name>` (data/options.toml): the chosen reading of an ambiguity of AOD-18."""
        return self.data.get(f"options.{name}")

    def region(self, name: str) -> Region:
        """A region by id or printed name ("new_granada", "New Granada"); UserError otherwise."""
        key = name.strip().lower().removeprefix("the ").replace(" ", "_").replace("-", "_")
        for region in self.regions:
            if key in (region.id, region.name.lower().removeprefix("the ").replace(" ", "_")):
                return region
        raise one_of("region", name, [r.id for r in self.regions])

    def discovery(self, ident: str, cards: bool = False) -> Discovery:
        """A token (T01..) or card (C01..) by id; UserError listing the ids otherwise."""
        pool = self.cards if cards else self.tokens
        for item in pool:
            if item.id == ident.strip().upper():
                return item
        raise one_of("discovery card" if cards else "discovery token", ident, [i.id for i in pool])


def load_components(overrides: Iterable[str] | Mapping[str, Any] = (),
                    variants: Iterable[str] = ()) -> Components:
    """Load and validate the discovery data (the default data is built once per process)."""
    overrides = dict(overrides) if isinstance(overrides, Mapping) else list(overrides)
    variants = list(variants)
    if not overrides and not variants:
        return _default()
    return from_data(load_game_data(GAME, overrides, variants))


@functools.cache
def _default() -> Components:
    return from_data(load_game_data(GAME))


def from_data(data: GameData) -> Components:
    """Build and cross-check the components of already loaded data."""
    goods = _goods(data)
    regions = _regions(data, goods)
    tokens = _discoveries(data, "discovery.tokens")
    cards = _discoveries(data, "discovery.cards")
    data.check(data.get("discovery.tokens_on_map") <= len(tokens), "discovery.tokens_on_map",
               f"at most the {len(tokens)} tokens")
    data.check(data.get("discovery.tokens_on_map") == sum(not r.discovered for r in regions),
               "discovery.tokens_on_map", "one token per region not discovered at the start (AOD-3.4)")
    units = {name: _unit(data, name) for name in UNIT_TYPES}
    col = data.get("rules.colonies")
    war = data.get("rules.warfare")
    fin = data.get("rules.final")
    game = data.get("rules.game")
    data.check(game["players_min"] >= 2 and game["players_max"] <= len(game["colours"]),
               "rules.game.players_max", "at most one player per colour")
    cost = data.get("buildings.cost")
    buildings = _buildings(data)
    return Components(
        data=data, regions=regions, goods=goods, tokens=tokens,
        tokens_on_map=int(data.get("discovery.tokens_on_map")), cards=cards, units=units,
        buildings=buildings, amount={b.id: b.amount for b in buildings},
        gives={b.id: UNIT_TYPES.index(b.unit) for b in buildings if b.unit},
        building_cost=(int(cost["age1"]), int(cost["age2"]), int(cost["age3"])),
        colonies=ColonyRules(int(col["first_vp"]), int(col["second_vp"]), int(col["tied_first_vp"]),
                             int(col["threshold"]), str(col["threshold_reading"])),
        warfare=WarRules(int(war["battle_cost"]), int(war["war_cost"]), int(war["kills_per_soldier"]),
                         int(war["militia_soldiers"]), bool(war["militia_counts_for_war"]),
                         bool(war["battle_needs_both_present"])),
        final=FinalRules(tuple(fin["tie_breakers"]), bool(fin["round8_sets_pay_money"]),
                         int(fin["navy_vp_per_ship"])),
        colours=tuple(game["colours"]), players=(int(game["players_min"]), int(game["players_max"])),
    )


def _goods(data: GameData) -> Goods:
    edition = data.get("goods.edition")
    table = data.get(f"goods.{edition}")
    names = tuple(name for name, count in table.items() if count > 0)
    data.check(len(names) >= 1, f"goods.{edition}", "at least one trade good with a positive count")
    s = data.get("goods.sets")
    sets = SetValues(int(s["any_three"]), int(s["three_of_a_kind"]), int(s["four_of_a_kind"]),
                     bool(s["any_three_requires_distinct"]))
    return Goods(names=names, stock=tuple(int(table[n]) for n in names),
                 ships=int(data.get("goods.ships_winnable")), sets=sets)


def _regions(data: GameData, goods: Goods) -> tuple[Region, ...]:
    raw = data.get("regions")
    regions = tuple(Region(id=rid, name=str(r["name"]), good=str(r["good"]), discovered=bool(r["discovered"]),
                           adjacent=tuple(r["adjacent"])) for rid, r in raw.items())
    for region in regions:
        data.check(region.good in goods.names, f"regions.{region.id}.good",
                   f"a trade good of the chosen edition: {', '.join(goods.names)}")
        for other in region.adjacent:
            data.check(other in raw and region.id in raw[other]["adjacent"], f"regions.{region.id}.adjacent",
                       "borders must name known regions and be listed on both sides")
    return regions


def _discoveries(data: GameData, path: str) -> tuple[Discovery, ...]:
    items = []
    for ident, d in data.get(path).items():
        for key in ("loot", "per_soldier", "natives", "vp"):
            data.check(isinstance(d[key], int) and d[key] >= 0, f"{path}.{ident}.{key}", "an integer >= 0")
        data.check(d["natives"] >= 1, f"{path}.{ident}.natives", "at least 1 native")
        items.append(Discovery(id=ident, name=str(d.get("name", ident)), loot=d["loot"],
                               per_soldier=d["per_soldier"], natives=d["natives"], vp=d["vp"]))
    return tuple(items)


def _unit(data: GameData, name: str) -> UnitType:
    u = data.get(f"units.{name}")
    for key in ("shipping", "discovery", "arrival_money", "arrival_colonists"):
        data.check(isinstance(u[key], int) and u[key] >= 0, f"units.{name}.{key}", "an integer >= 0")
    return UnitType(name, u["shipping"], u["discovery"], u["arrival_money"], u["arrival_colonists"],
                    bool(u["fights"]))


def _buildings(data: GameData) -> tuple[Building, ...]:
    out = []
    for bid, b in data.get("buildings.tiles").items():
        data.check(b["age"] in (1, 2, 3), f"buildings.tiles.{bid}.age", "1, 2 or 3")
        data.check(b["vp_basis"] in VP_BASES, f"buildings.tiles.{bid}.vp_basis", f"one of {VP_BASES}")
        data.check(b.get("unit", "") in ("", *UNIT_TYPES), f"buildings.tiles.{bid}.unit", f"one of {UNIT_TYPES}")
        data.check(b.get("amount", 0) >= 0, f"buildings.tiles.{bid}.amount", "a number >= 0")
        out.append(Building(id=bid, age=b["age"], name=b["name"], name_hu=b["name_hu"], copies=b["copies"],
                            effect=b["effect"], vp=b["vp"], vp_per=b["vp_per"], vp_basis=b["vp_basis"],
                            amount=int(b.get("amount", 0)), unit=str(b.get("unit", ""))))
    return tuple(out)
