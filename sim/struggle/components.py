"""Typed, validated view of the Struggle of Empires component data (`sim/struggle/data/*.toml`).

`load_components(overrides, variants)` reads the data through `sim.core.data.load_game_data`
(so `--set tiles.war_office.cost_gold=4` works) and builds frozen dataclasses. Validation that
spans several values (a token in an unknown region, a 4-place region, an alliance tile naming a
region that does not exist) raises a `DataError` naming the path.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import astuple, dataclass
from pathlib import Path
from typing import Any

from sim.core.data import DataError, GameData, load_game_data

GAME = "struggle"
TOKEN_CODE = re.compile(r"^(?:N(?P<strength>\d+)(?:g(?P<gold>\d+))?(?:v(?P<vp>\d+))?|(?P<other>Pop|Slave))$")


@dataclass(frozen=True)
class CountryToken:
    """SOE-1.5: a neutral (strength, optional gold and VP rewards), a Pop or a Slave token."""

    region: str
    kind: str  # "neutral" | "pop" | "slave"
    strength: int = 0
    gold: int = 0
    vp: int = 0

    @property
    def code(self) -> str:
        if self.kind != "neutral":
            return self.kind.capitalize()
        return f"N{self.strength}" + (f"g{self.gold}" if self.gold else "") + (f"v{self.vp}" if self.vp else "")


@dataclass(frozen=True)
class Region:
    """SOE-1.4: one VP region; `naval_battle_region` is None where there is no naval phase."""

    key: str
    name: str
    kind: str  # "europe" | "colonial"
    sea: bool
    american: bool
    naval_battle_region: str | None
    vp: tuple[int, ...]
    tokens: tuple[CountryToken, ...]
    adjacent: tuple[str, ...]

    @property
    def spaces(self) -> int:
        """SOE-1.4.5: a region holds at most one control marker per country token."""
        return len(self.tokens)


@dataclass(frozen=True)
class Power:
    """SOE-1.1 / SOE-10.5: a power, its colour and the VP regions next to its home country."""

    key: str
    name: str
    colour: str
    home_adjacent: tuple[str, ...]


@dataclass(frozen=True)
class DevelopmentTile:
    """SOE-20 / SOE-26.5: a kind of development tile, its copies, costs and timing."""

    key: str
    name: str
    copies: int
    cost_gold: int
    cost_unrest: int
    cost_population: int
    timing: str


@dataclass(frozen=True)
class AllianceTile:
    """SOE-22 / SOE-26.6: +1 army and/or fleet strength to its owner in the named regions."""

    key: str
    name: str
    regions: tuple[str, ...]
    symbols: tuple[str, ...]
    cost_gold: int


@dataclass(frozen=True)
class CompanyTile:
    """SOE-21 / SOE-26.7: once per war, gold per own control marker in one of its regions."""

    key: str
    name: str
    regions: tuple[str, ...]
    cost_gold: int
    gold_per_marker: int


@dataclass(frozen=True)
class CombatRules:
    """SOE-12 / SOE-20.20 combat constants plus the combat options of SOE-25 (hashable: it is
    part of the cache key of exact odds)."""

    army_strength: int = 1
    fleet_strength: int = 1
    fort_strength: int = 2
    training_bonus: int = 1
    naval_support: int = 1
    blockade_support: int = 2
    alliance_bonus: int = 1
    reserves_policy: str = "greedy"
    reserves_in_naval_battle: bool = True
    naval_support_needs_own_fleet: bool = True
    naval_only_defender_must_fight: bool = True
    neutral_attacker_allies: bool = True
    land_loss_order: str = "armies_first"
    tie_seven_from_ally: bool = False
    reserves_for_any_change: bool = True
    naval_support_on_decline: str = "fleet"

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash(astuple(self)))

    def __hash__(self) -> int:  # computed once: the rules are part of every exact-odds cache key
        return self._hash


@dataclass(frozen=True)
class SeaRules:
    """SOE-11.1 sea-roll thresholds and the Navigation bonus (SOE-20.11)."""

    arrive_min_first: int = 2
    destroyed_max_second: int = 2
    return_max_second: int = 4
    navigation_bonus: int = 2


@dataclass(frozen=True)
class Components:
    """Everything a simulation needs from the data, plus the `GameData` it came from."""

    data: GameData
    regions: Mapping[str, Region]
    powers: Mapping[str, Power]
    tiles: Mapping[str, DevelopmentTile]
    alliances: Mapping[str, AllianceTile]
    companies: Mapping[str, CompanyTile]
    combat: CombatRules
    sea: SeaRules

    def rule(self, path: str) -> Any:
        """A rule constant by its path below `rules.` (e.g. `economy.attack_fee`)."""
        return self.data.get(f"rules.{path}")

    def option(self, name: str) -> Any:
        """A rules option of options.toml (e.g. `unrest_penalty_at_zero`)."""
        return self.data.get(f"options.{name}")

    @property
    def tokens(self) -> tuple[CountryToken, ...]:
        """All country tokens of the bag, region by region."""
        return tuple(t for r in self.regions.values() for t in r.tokens)


def load_components(overrides: Iterable[str] | Mapping[str, Any] = (),
                    variants: Iterable[str | Path] = ()) -> Components:
    """Load, override and validate the SoE data."""
    return from_data(load_game_data(GAME, overrides, variants))


@functools.cache
def default_components() -> Components:
    """The components with no overrides (cached: the data files do not change in a process)."""
    return load_components()


def parse_token(code: str, region: str, path: str) -> CountryToken:
    """SOE-26.2 token code: N<strength>[g<gold>][v<vp>] | Pop | Slave."""
    match = TOKEN_CODE.match(code) if isinstance(code, str) else None
    if match is None:
        raise DataError(f"data {path}: token {code!r} is not allowed; use N<strength>[g<gold>][v<vp>], Pop or Slave")
    if match["other"]:
        return CountryToken(region, match["other"].lower())
    strength = int(match["strength"])
    if not 1 <= strength <= 20:
        raise DataError(f"data {path}: token {code!r} has strength {strength}; allowed 1..20")
    return CountryToken(region, "neutral", strength, int(match["gold"] or 0), int(match["vp"] or 0))


def from_data(data: GameData) -> Components:
    """Build the frozen components from loaded data, checking cross-references."""
    tree = data.tree
    region_keys = tuple(tree["regions"])
    adjacency = tree["map"]["region_adjacency"]
    for key, neighbours in adjacency.items():
        _check_keys(data, f"map.region_adjacency.{key}", [key, *neighbours], region_keys)
    tokens_tree = tree["tokens"]
    _check_keys(data, "tokens", list(tokens_tree), region_keys)
    regions = {}
    for key in region_keys:
        r = tree["regions"][key]
        data.check(2 <= len(r["vp"]) <= 3, f"regions.{key}.vp", "2 or 3 place values (SOE-16.1)")
        data.check(list(r["vp"]) == sorted(r["vp"], reverse=True), f"regions.{key}.vp",
                   "values must not increase from 1st to last place")
        naval = r["naval_battle_region"] or None
        if naval is not None:
            data.check(naval in region_keys and tree["regions"][naval]["sea"],
                       f"regions.{key}.naval_battle_region", "a sea region key or \"\" for none")
        data.check(r["sea"] or r["kind"] == "europe", f"regions.{key}.sea", "colonial regions are sea regions")
        tokens = tuple(parse_token(c, key, f"tokens.{key}") for c in tokens_tree.get(key, []))
        regions[key] = Region(key, r["name"], r["kind"], r["sea"], r["american"], naval, tuple(r["vp"]),
                              tokens, tuple(adjacency.get(key, ())))
    total = sum(len(r.tokens) for r in regions.values())
    data.check(total == tree["rules"]["pieces"]["country_tokens"], "rules.pieces.country_tokens",
               f"it must equal the number of tokens listed in tokens.toml ({total})")
    powers_tree = tree["map"]["powers"]
    order = powers_tree["order"]
    data.check(len(order) == len(powers_tree["names"]) == len(powers_tree["colours"]), "map.powers.order",
               "order, names and colours must have the same length")
    home = tree["map"]["home_adjacency"]
    _check_keys(data, "map.home_adjacency", list(home), order)
    powers = {}
    for key, name, colour in zip(order, powers_tree["names"], powers_tree["colours"]):
        _check_keys(data, f"map.home_adjacency.{key}", home.get(key, []), region_keys)
        powers[key] = Power(key, name, colour, tuple(home.get(key, ())))
    tiles = {k: DevelopmentTile(k, t["name"], t["copies"], t["cost_gold"], t["cost_unrest"], t["cost_population"],
                                t["timing"]) for k, t in tree["tiles"].items()}
    alliances = {}
    for k, t in tree["alliances"].items():
        _check_keys(data, f"alliances.{k}.regions", t["regions"], region_keys)
        data.check(len(t["symbols"]) >= 1, f"alliances.{k}.symbols", "at least one of army, fleet")
        alliances[k] = AllianceTile(k, t["name"], tuple(t["regions"]), tuple(t["symbols"]), t["cost_gold"])
    companies = {}
    for k, t in tree["companies"].items():
        _check_keys(data, f"companies.{k}.regions", t["regions"], region_keys)
        companies[k] = CompanyTile(k, t["name"], tuple(t["regions"]), t["cost_gold"], t["gold_per_marker"])
    c, o, s = tree["rules"]["combat"], tree["options"], tree["rules"]["sea"]
    combat = CombatRules(c["army_strength"], c["fleet_strength"], c["fort_strength"], c["training_bonus"],
                         c["naval_support"], c["blockade_support"], c["alliance_bonus"], o["reserves_policy"],
                         o["reserves_in_naval_battle"], o["naval_support_needs_own_fleet"],
                         o["naval_only_defender_must_fight"], o["neutral_attacker_allies"], o["land_loss_order"],
                         o["tie_seven_from_ally"], o["reserves_for_any_change"], o["naval_support_on_decline"])
    data.check(s["destroyed_max_second"] <= s["return_max_second"], "rules.sea.destroyed_max_second",
               "it must not exceed rules.sea.return_max_second")
    sea = SeaRules(s["arrive_min_first"], s["destroyed_max_second"], s["return_max_second"], s["navigation_bonus"])
    return Components(data, regions, powers, tiles, alliances, companies, combat, sea)


def _check_keys(data: GameData, path: str, keys: Iterable[str], allowed: Iterable[str]) -> None:
    allowed = tuple(allowed)
    for key in keys:
        if key not in allowed:
            raise DataError(f"data {path}: {key!r} is unknown; allowed: {', '.join(allowed)}")
