"""Typed, validated view of the Conquest of the Empire data (`sim/conquest/data/*.toml`).

`load_components(overrides, variants)` reads the data through `sim.core.data.load_game_data`
(so `--set units.infantry.cost=15` works) and builds frozen dataclasses. Checks that span several
values (an asymmetric border, a coast the sea zone does not list, a die face naming no unit)
raise a `DataError` naming the path.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sim.core.data import DataError, GameData, load_game_data

GAME = "conquest"
LAND_UNITS = ("infantry", "cavalry", "catapult")
SYMBOLS = ("infantry", "cavalry", "catapult", "galley", "blank")


@dataclass(frozen=True)
class UnitType:
    """COE-7.1: a combat unit with its base price (COE-20.2) and piece limit (COE-2.4)."""

    name: str
    cost: int
    mp: int
    limit: int
    land: bool
    capacity: int = 0


@dataclass(frozen=True)
class BattleDie:
    """COE-13.2: the special six-sided battle die, one symbol per face."""

    faces: tuple[str, ...]

    def probability(self, symbol: str) -> Fraction:
        """Chance that one roll shows `symbol`."""
        return Fraction(self.faces.count(symbol), len(self.faces))

    def codes(self, symbols: Iterable[str]) -> tuple[int, ...]:
        """Face index -> position of its symbol in `symbols` (len(symbols) for any other face)."""
        order = list(symbols)
        return tuple(order.index(f) if f in order else len(order) for f in self.faces)


@dataclass(frozen=True)
class LandRules:
    """COE-14.1 / COE-14.7: formation size 5 + 1 per leader; fortified-city dice 2, or 1."""

    formation_base: int
    formation_per_leader: int
    fortified_dice: int
    fortified_dice_vs_catapult: int

    def formation_size(self, land_units: int, leaders: int) -> int:
        """COE-14.1: as large as possible, at most base + per-leader x leaders."""
        return min(land_units, self.formation_base + self.formation_per_leader * leaders)

    def extra_dice(self, fortified: bool, attacker_has_catapult: bool) -> int:
        """COE-14.7 / COE-A5: the defender's fortification dice this round."""
        if not fortified:
            return 0
        return self.fortified_dice_vs_catapult if attacker_has_catapult else self.fortified_dice


@dataclass(frozen=True)
class NavalRules:
    """COE-15.2 / COE-15.4: two dice per galley, at most three rounds."""

    dice_per_galley: int
    max_rounds: int


@dataclass(frozen=True)
class Options:
    """The rules options of COE-30 (recommended readings of COE-28 by default): the battle
    kernels read the first seven, the whole-game engine all of them."""

    simultaneous_hits: bool
    catapult_cap: str
    fort_bonus_requires_control: bool
    naval_hits_capped: bool
    leaders_on_sunk_galley: str
    mutual_annihilation: str
    pursuit_cap: str
    formation_open_info: bool = True
    leaders_move_alone: bool = True
    lone_leaders_captured_on_contact: bool = True
    neutral_capture_timing: str = "end_of_movement"
    empty_enemy_province_like_neutral: bool = True
    land_move_before_boarding: bool = True
    board_and_land_same_turn: bool = True
    galley_entering_coast_ends_move: bool = False
    galleys_conquer: bool = False
    galley_end_restriction: bool = True
    retreat_single_destination: bool = True
    destroy_beached_on_unopposed_capture: bool = True
    destroy_attacker_galleys_on_failed_landing: bool = False
    captive_decision: str = "at_capture"
    inherit_free_generals: bool = True
    placement_requires_home_control: bool = True
    starting_talents: int = 0
    units_per_leader: int = 7
    roads_usable_by_all: bool = True
    tax_cap: int = 0
    allow_surrender: bool = False


@dataclass(frozen=True)
class Province:
    """COE-3 / COE-29.6: a land province, its tax value, borders, straits and sea zones."""

    key: str
    name: str
    tax: int
    home: bool
    island: bool
    land: tuple[str, ...]
    strait: tuple[str, ...]
    sea: tuple[str, ...]

    @property
    def coastal(self) -> bool:
        """COE-3.7: touches at least one sea zone."""
        return bool(self.sea)


@dataclass(frozen=True)
class SeaZone:
    """COE-29.7: a sea zone, its neighbouring zones and the provinces on its coasts."""

    key: str
    name: str
    sea: tuple[str, ...]
    coast: tuple[str, ...]


@dataclass(frozen=True)
class Board:
    """COE-29: provinces and sea zones; `neighbours` = land borders plus straits (COE-3.5)."""

    provinces: Mapping[str, Province]
    sea_zones: Mapping[str, SeaZone]

    def neighbours(self, province: str) -> tuple[str, ...]:
        """COE-11.7 / COE-16.4: where land units may step or retreat (borders and straits)."""
        p = self.provinces[province]
        return p.land + p.strait

    @property
    def total_tax(self) -> int:
        """COE-29.8: the tax value of the whole board (290 with the default map)."""
        return sum(p.tax for p in self.provinces.values())


@dataclass(frozen=True)
class Components:
    """Everything a CotE battle or game needs from the data, plus the data it came from."""

    units: Mapping[str, UnitType]
    die: BattleDie
    land: LandRules
    naval: NavalRules
    options: Options
    board: Board
    data: GameData

    def cost(self, unit: str) -> int:
        return self.units[unit].cost


def load_components(overrides: Iterable[str] | Mapping[str, Any] = (),
                    variants: Iterable[str] = ()) -> Components:
    """Load, override and validate the CotE data."""
    data = load_game_data(GAME, overrides, variants)
    return from_data(data)


@functools.lru_cache(maxsize=1)
def default_components() -> Components:
    """The default data (no overrides), loaded once."""
    return load_components()


def from_data(data: GameData) -> Components:
    units = {name: UnitType(name=name, cost=int(u["cost"]), mp=int(u["mp"]), limit=int(u["limit"]),
                            land=bool(u["land"]), capacity=int(u.get("capacity", 0)))
             for name, u in data.get("units").items() if name != "leaders"}
    for name in LAND_UNITS + ("galley",):
        if name not in units:
            raise DataError(f"data units.{name} is missing; CotE needs {', '.join(LAND_UNITS)}, galley")
    faces = tuple(data.get("dice.battle_die.faces"))
    data.check(len(faces) >= 2 and all(f in SYMBOLS for f in faces), "dice.battle_die.faces",
               f"at least two faces, each one of {', '.join(SYMBOLS)}")
    land = LandRules(**{k: int(v) for k, v in data.get("battle.land").items()})
    naval = NavalRules(**{k: int(v) for k, v in data.get("battle.naval").items()})
    options = Options(**data.get("options"))
    board = _board(data)
    return Components(units=units, die=BattleDie(faces), land=land, naval=naval, options=options,
                      board=board, data=data)


def _board(data: GameData) -> Board:
    raw_p = data.get("map.provinces")
    raw_s = data.get("map.sea_zones")
    provinces = {k: Province(key=k, name=str(p["name"]), tax=int(p["tax"]), home=bool(p["home"]),
                             island=bool(p["island"]), land=tuple(p["land"]), strait=tuple(p["strait"]),
                             sea=tuple(p["sea"])) for k, p in raw_p.items()}
    if data.get("map.options.mesopotamia_arabia_border"):
        provinces = _add_border(provinces, "mesopotamia", "arabia_petraea")
    zones = {k: SeaZone(key=k, name=str(s["name"]), sea=tuple(s["sea"]), coast=tuple(s["coast"]))
             for k, s in raw_s.items()}
    for k, p in provinces.items():
        for kind in ("land", "strait"):
            for other in getattr(p, kind):
                data.check(other in provinces and k in getattr(provinces[other], kind),
                           f"map.provinces.{k}.{kind}", f"a province listed there must list {k} back")
        for zone in p.sea:
            data.check(zone in zones and k in zones[zone].coast, f"map.provinces.{k}.sea",
                       f"a sea zone listed there must list {k} on its coast")
    for k, z in zones.items():
        for other in z.sea:
            data.check(other in zones and k in zones[other].sea, f"map.sea_zones.{k}.sea",
                       f"a sea zone listed there must list {k} back")
        for prov in z.coast:
            data.check(prov in provinces and k in provinces[prov].sea, f"map.sea_zones.{k}.coast",
                       f"a province listed there must list {k} among its sea zones")
    return Board(provinces=provinces, sea_zones=zones)


def _add_border(provinces: dict[str, Province], a: str, b: str) -> dict[str, Province]:
    """COE-AS1: the optional Mesopotamia--Arabia Petraea border."""
    out = dict(provinces)
    for x, y in ((a, b), (b, a)):
        p = out[x]
        if y not in p.land:
            out[x] = Province(p.key, p.name, p.tax, p.home, p.island, tuple(sorted(p.land + (y,))),
                              p.strait, p.sea)
    return out
