"""Typed, validated view of the A Few Acres of Snow data (`sim/acres/data/*.toml`).

`load(overrides, variants)` reads the data through `sim.core.data.load_game_data` (so
`--set map.locations.louisbourg.defence_modifiers=2` works) and builds frozen dataclasses.
Checks that span several values (a one-way board connection, a card linking to no location, a
card id used twice on one side) raise a `DataError` naming the path.

Cards are named by an id (`regular_infantry`, `new_york`). A side's card vocabulary is its own
location cards, its own empire cards and the neutral cards (AFS-2.2.1); where a neutral card
and an own card share an id (Fortification, Settlers, Native Americans) they are one kind,
since their symbols are the same and the siege and scoring kernels cannot tell them apart.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from sim.core.data import DataError, GameData, load_game_data
from sim.core.errors import UserError

GAME = "acres"
SIDES = ("british", "french")
SYMBOLS = ("military", "ship", "boat", "wagon", "settler", "fur")
TRANSPORTS = ("boat", "wagon", "ship")


@dataclass(frozen=True)
class Location:
    """AFS-3.1 / AFS-19.4: a board location with its siege-relevant board symbols."""

    id: str
    name: str
    start: str
    settler: bool
    vp: int
    defence_modifiers: int
    fort: bool
    ship_symbol: bool
    sea_network: bool
    land: tuple[str, ...]
    paths: tuple[str, ...]


@dataclass(frozen=True)
class Card:
    """AFS-2.3: one card kind of a side (location, empire or neutral card) and its parchment symbols.

    `start` copies begin in the starting deck (AFS-4.9); `supply` copies wait in the location
    deck, empire deck or neutral supply. Siege flags: `free_action` (Leader, AFS-8.7),
    `defender_only` (Fortification card, AFS-8.4.3), `siege_cost` (Siege Artillery, AFS-8.5);
    ambush flags (AFS-10): `vulnerable`, `ambush` (the card can ambush), `block_ambush`.
    """

    id: str
    name: str
    side: str
    kind: str
    military: int
    ship: int
    boat: int
    wagon: int
    settler: int
    fur: int
    money: int
    start: int
    supply: int
    cost: int
    location: str | None = None
    links: tuple[tuple[str, tuple[str, ...]], ...] = ()
    free_action: bool = False
    defender_only: bool = False
    siege_cost: int = 0
    vulnerable: bool = False
    ambush: bool = False
    block_ambush: bool = False


@dataclass(frozen=True)
class Deck:
    """A side's deck as card counts (AFS-2.6: the cards that cycle through draw pile, hand and
    discard pile). Counts are > 0 and sorted by card id, so equal decks compare equal."""

    side: str
    counts: tuple[tuple[str, int], ...]

    @property
    def size(self) -> int:
        return sum(c for _, c in self.counts)

    def as_dict(self) -> dict[str, int]:
        return dict(self.counts)


@dataclass(frozen=True)
class SiegeRules:
    """AFS-8.2 / AFS-8.8 / AFS-18 A1: track arithmetic and win tests."""

    base_defence: int
    fort_bonus: int
    per_defence_modifier: int
    attacker_wins_at: int
    defender_wins_at: int
    zero_space: bool
    track_limit: int


@dataclass(frozen=True)
class ScoringRules:
    """AFS-15: final scoring and the normal end."""

    town_multiplier: int
    captured_cube: int
    captured_disc: int
    capture_end_points: int
    tie_winner: str
    end_when: str


@dataclass(frozen=True)
class Rules:
    """Turn numbers (AFS-4, AFS-5), deck handling (AFS-5.6), sieges, scoring and model settings."""

    hand_size: int
    actions_per_turn: int
    reshuffle: str
    siege: SiegeRules
    scoring: ScoringRules
    money: Mapping[str, int]
    cycle_per_action: int
    max_turns: int
    capitals: Mapping[str, str]


@dataclass(frozen=True)
class Acres:
    """Everything the AFAoS kernels read, plus the GameData it came from (for provenance)."""

    data: GameData
    locations: Mapping[str, Location]
    cards: Mapping[str, Mapping[str, Card]]
    rules: Rules

    def location(self, name: str) -> Location:
        """A location by id or printed name (case and punctuation ignored)."""
        key = slug(name)
        if key not in self.locations:
            raise UserError(f"location {name!r} is unknown; allowed: {', '.join(self.locations)}")
        return self.locations[key]

    def card(self, side: str, key: str) -> Card:
        """A card kind of `side` by id or printed name."""
        cards = self.cards[check_side(side)]
        if key in cards:
            return cards[key]
        if slug(key) not in cards:
            raise UserError(f"{side} card {key!r} is unknown; allowed: {', '.join(cards)}")
        return cards[slug(key)]

    def starting_deck(self, side: str) -> Deck:
        """AFS-4.9: the dark-bordered starting deck of `side`."""
        return self.deck(side, {c.id: c.start for c in self.cards[check_side(side)].values() if c.start})

    def deck(self, side: str, counts: Mapping[str, int]) -> Deck:
        """A deck of `side` from card counts; unknown cards and negative counts are user errors.
        Counts above the copies in the box are allowed, for what-if decks."""
        merged: dict[str, int] = {}
        for key, count in counts.items():
            card = self.card(side, key)
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise UserError(f"{side} deck: count {count!r} of {key!r} is not allowed; use an integer >= 0")
            merged[card.id] = merged.get(card.id, 0) + count
        return Deck(side, tuple(sorted((k, v) for k, v in merged.items() if v > 0)))


def check_side(side: str) -> str:
    if side not in SIDES:
        raise UserError(f"side {side!r} is not allowed; choose one of: {', '.join(SIDES)}")
    return side


def other(side: str) -> str:
    return SIDES[1 - SIDES.index(check_side(side))]


@functools.lru_cache(maxsize=4096)
def slug(name: str) -> str:
    """Id of a printed name (memoised: ids are looked up on every siege estimate): lower case, apostrophes and dots dropped, other runs of
    non-alphanumerics as one underscore ("St. Mary's" -> "st_marys")."""
    text = name.lower().replace("'", "").replace(".", "")
    return "_".join("".join(ch if ch.isalnum() else " " for ch in text).split())


@functools.cache
def _load_cached(overrides: tuple[str, ...], variants: tuple[str, ...]) -> Acres:
    return from_data(load_game_data(GAME, overrides, variants))


def load(overrides: Iterable[str] = (), variants: Iterable[str] = ()) -> Acres:
    """The AFAoS components with `--set` overrides and variant files applied."""
    return _load_cached(tuple(overrides), tuple(str(v) for v in variants))


def from_data(data: GameData) -> Acres:
    """Validate the data tree and build the components."""
    locations = {lid: _location(lid, raw) for lid, raw in data.get("map.locations").items()}
    _check_board(data, locations)
    cards = {side: _side_cards(data, side, locations) for side in SIDES}
    return Acres(data=data, locations=MappingProxyType(locations),
                 cards=MappingProxyType({s: MappingProxyType(c) for s, c in cards.items()}),
                 rules=_rules(data, locations))


def _location(lid: str, raw: Mapping[str, Any]) -> Location:
    return Location(id=lid, name=raw["name"], start=raw["start"], settler=raw["settler"], vp=raw["vp"],
                    defence_modifiers=raw["defence_modifiers"], fort=raw["fort"],
                    ship_symbol=raw["ship_symbol"], sea_network=raw["sea_network"],
                    land=tuple(raw["land"]), paths=tuple(raw["paths"]))


def _check_board(data: GameData, locations: Mapping[str, Location]) -> None:
    """AFS-19.7: the land and Indian-path networks are undirected and name known locations."""
    edges = [(loc.id, kind, other_id) for loc in locations.values() for kind in ("land", "paths")
             for other_id in getattr(loc, kind)]
    for lid, kind, other_id in edges:
        data.check(other_id in locations, f"map.locations.{lid}.{kind}", f"{other_id!r} is not a location id")
    for lid, kind, other_id in edges:
        data.check(lid in getattr(locations[other_id], kind), f"map.locations.{lid}.{kind}",
                   f"connections are two-way: add {lid!r} to map.locations.{other_id}.{kind}")


def _side_cards(data: GameData, side: str, locations: Mapping[str, Location]) -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for cid, raw in data.get(f"location_cards.{side}").items():
        path = f"location_cards.{side}.{cid}"
        data.check(cid in locations, f"{path}.name", f"location card {cid!r} names no location in map.locations")
        for transport, targets in raw["links"].items():
            data.check(transport in TRANSPORTS, f"{path}.links", f"transports are {', '.join(TRANSPORTS)}")
            for target in targets:
                data.check(target in locations, f"{path}.links.{transport}", f"{target!r} is not a location id")
        cards[cid] = Card(id=cid, name=raw["name"], side=side, kind="location",
                          **{s: raw[s] for s in SYMBOLS}, money=raw["money"],
                          start=int(raw["deck"] == "start"), supply=int(raw["deck"] == "location"), cost=0,
                          location=cid, links=tuple((k, tuple(v)) for k, v in raw["links"].items() if v))
    for owner in (side, "neutral"):
        for cid, raw in data.get(f"cards.{owner}").items():
            if cid in cards and cards[cid].kind == "location":
                raise DataError(f"data cards.{owner}.{cid}: id is also a {side} location card; card ids must differ")
            if cid in cards:  # an own card and a neutral card of the same kind: one kind, copies added
                kept = cards[cid]
                cards[cid] = replace(kept, supply=kept.supply + raw["supply"])
                continue
            cards[cid] = Card(id=cid, name=raw["name"], side=owner, kind="neutral" if owner == "neutral" else "empire",
                              military=raw["military"], ship=raw["ship"], boat=raw["boat"], wagon=0,
                              settler=raw["settler"], fur=0, money=0, start=raw["start"], supply=raw["supply"],
                              cost=raw["cost"], free_action=raw["free_action"], defender_only=raw["defender_only"],
                              siege_cost=raw["siege_cost"], vulnerable=raw["vulnerable"], ambush=raw["ambush"],
                              block_ambush=raw["block_ambush"])
    return cards


def _rules(data: GameData, locations: Mapping[str, Location]) -> Rules:
    r = data.get("rules")
    for side in SIDES:
        data.check(r["setup"][f"capital_{side}"] in locations, f"rules.setup.capital_{side}", "a location id")
    return Rules(hand_size=r["setup"]["hand_size"], actions_per_turn=r["setup"]["actions_per_turn"],
                 reshuffle=r["deck"]["reshuffle"], siege=SiegeRules(**r["siege"]),
                 scoring=ScoringRules(**r["scoring"]),
                 money=MappingProxyType({s: r["model"][f"{s}_money"] for s in SIDES}),
                 cycle_per_action=r["model"]["cycle_per_action"], max_turns=r["model"]["max_turns"],
                 capitals=MappingProxyType({s: r["setup"][f"capital_{s}"] for s in SIDES}))
