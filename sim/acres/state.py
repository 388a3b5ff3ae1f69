"""The state of a batch of A Few Acres of Snow games (`BatchState`) and the static index `Tables`.

Sides are indices: 0 British, 1 French (`components.SIDES`). Locations are indices into
`Tables.locs` (the order of `Acres.locations`). Every physical card of the box is one integer
`c`; `Tables.kind[c]` is its `CardKind` (the same numbering in every game). The board fields are
lists with a leading batch axis (`control[g][loc]`, 0 neutral, 1 British, 2 French); the card
zones are per-game lists of card numbers (AFS-2.6): draw pile (top = last), hand, discard pile,
reserve, location deck, empire deck, neutral supply, the two siege areas (one list per side in
each, AFS-8.1.6) and `removed` (cards out of the game by a variant). `version[g]` grows with every
change of the board (pieces, forts, sieges): the engine's caches of connectivity and location
points are keyed by it. Plain lists, because the
engine reads single entries far more often than whole rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from sim.acres.components import SIDES, TRANSPORTS, Acres, Card, Location

BRITISH, FRENCH = 0, 1
NEUTRAL_OWNER = 2                       # `CardKind.owner` of a green card
VILLAGE, TOWN = 0, 1                    # captured piece kinds (AFS-8.9.1): cube, disc
SPECIALS = ("leader", "home_support", "governor", "intendant", "trader", "priest", "indian_leader",
            "native_americans", "fortification", "siege_artillery", "settlers", "ships", "bateaux")


@dataclass(frozen=True)
class CardKind:
    """One kind of card as the engine plays it (AFS-2.3, AFS-19.8-19.10). `owner`: the side whose
    cycle it starts in or whose decks hold it, `NEUTRAL_OWNER` for green cards (AFS-2.2);
    `home`: where it returns (AFS-5.5.2): "location", "empire" or "neutral"; `loc`: the location of a
    location card (else -1); `links`: travel links printed on it as {transport: location indices}
    (AFS-3.3.1); `special`: the id of a card with its own action (Governor, Priest, ...)."""

    key: str
    name: str
    owner: int
    home: str
    loc: int
    links: Mapping[str, tuple[int, ...]]
    military: int
    ship: int
    boat: int
    wagon: int
    settler: int
    fur: int
    money: int
    cost: int
    vulnerable: bool
    raid: str
    ambush: bool
    block_raid: bool
    block_ambush: bool
    card: Card
    special: str = ""

    @property
    def is_location(self) -> bool:
        return self.loc >= 0


@dataclass(frozen=True)
class Tables:
    """Static indices of one data set: locations, the supply and raid networks (AFS-19.7), every
    physical card with its kind, cost and starting zone, and each side's card for a location."""

    acres: Acres
    locs: tuple[str, ...]
    locations: tuple[Location, ...]
    index: Mapping[str, int]
    supply_adj: tuple[tuple[int, ...], ...]
    raid_adj: tuple[tuple[int, ...], ...]
    capital: tuple[int, int]
    win_targets: tuple[tuple[int, ...], tuple[int, ...]]
    kind: tuple[CardKind, ...]
    card_cost: tuple[int, ...]
    start_zone: tuple[str, ...]
    start_side: tuple[int, ...]
    loc_card: tuple[Mapping[int, int], Mapping[int, int]]
    copy_key: tuple[tuple[str, int], ...] = ()     # per card: (kind, owner), equal for interchangeable copies
    sea: tuple[int, ...] = ()                       # the locations of the all-to-all sea network
    supply_off_sea: tuple[tuple[int, ...], ...] = ()   # supply_adj less the sea network's own links
    transport_bits: tuple[int, ...] = ()            # per card: bit i where it carries TRANSPORTS[i]
    card_links: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...] = ()  # per card: (transport bit, destinations)
    links_overlap: tuple[bool, ...] = ()            # per card: a destination printed on two of its links
    link_reach: tuple[int, ...] = ()                # per card: its links' destinations as bits (location i: bit i)

    @property
    def n_cards(self) -> int:
        return len(self.kind)


@dataclass
class BatchState:
    """All mutable state of a batch of games (leading batch axis; see the module docstring)."""

    control: list[list[int]]
    town: list[list[bool]]
    fort: list[list[bool]]
    cubes: list[list[int]]
    discs: list[list[int]]
    forts_left: list[int]
    money: list[list[int]]
    captured: list[list[list[int]]]
    siege_loc: list[list[int]]
    siege_p: list[list[int]]
    siege_cards: list[list[list[list[int]]]]
    draw: list[list[list[int]]]
    hand: list[list[list[int]]]
    discard: list[list[list[int]]]
    reserve: list[list[list[int]]]
    loc_deck: list[list[list[int]]]
    emp_deck: list[list[list[int]]]
    neutral: list[list[int]]
    removed: list[list[int]]
    turn: list[int]
    active: list[int]
    over: list[bool]
    winner: list[int]
    end_reason: list[str]
    sieges_started: list[list[int]]
    acquired: list[list[set[str]]]
    shuffled: list[list[list[int]]] = field(default_factory=list)   # the cards of the side's last shuffle (public)
    version: list[int] = field(default_factory=list)
    discarded: list[bool] = field(default_factory=list)   # a discard action made this turn (AFS-18 A36)

    @classmethod
    def empty(cls, games: int) -> BatchState:
        def per_side(value: Any) -> list:
            return [[value() for _ in SIDES] for _ in range(games)]

        return cls(control=[[] for _ in range(games)], town=[[] for _ in range(games)],
                   fort=[[] for _ in range(games)], cubes=per_side(int), discs=per_side(int),
                   forts_left=[0] * games, money=per_side(int),
                   captured=[[[0, 0], [0, 0]] for _ in range(games)],
                   siege_loc=[[-1, -1] for _ in range(games)], siege_p=[[0, 0] for _ in range(games)],
                   siege_cards=[[[[], []], [[], []]] for _ in range(games)],
                   draw=per_side(list), hand=per_side(list), discard=per_side(list), reserve=per_side(list),
                   loc_deck=per_side(list), emp_deck=per_side(list), neutral=[[] for _ in range(games)],
                   removed=[[] for _ in range(games)], turn=[0] * games, active=[BRITISH] * games,
                   over=[False] * games, winner=[-1] * games, end_reason=[""] * games,
                   sieges_started=per_side(int), acquired=per_side(set), shuffled=per_side(list),
                   version=[0] * games, discarded=[False] * games)

    def zones(self, g: int) -> list[list[int]]:
        """Every card list of game g (for the one-place invariant)."""
        out = [self.neutral[g], self.removed[g]]
        for s in range(len(SIDES)):
            out += [self.draw[g][s], self.hand[g][s], self.discard[g][s], self.reserve[g][s],
                    self.loc_deck[g][s], self.emp_deck[g][s]]
            out += self.siege_cards[g][s]
        return out


def _kind(acres: Acres, key: str, raw: Mapping[str, Any], owner: int, home: str, index: Mapping[str, int]) -> CardKind:
    side = SIDES[owner] if owner != NEUTRAL_OWNER else SIDES[0]
    card = acres.cards[side][key]
    is_loc = card.kind == "location"
    return CardKind(
        key=key, name=raw["name"], owner=owner, home=home, loc=index[key] if is_loc else -1,
        links=MappingProxyType({tr: tuple(index[t] for t in targets) for tr, targets in card.links}),
        military=card.military, ship=card.ship, boat=card.boat, wagon=card.wagon, settler=card.settler,
        fur=card.fur, money=card.money, cost=0 if is_loc else raw["cost"],
        vulnerable=bool(raw.get("vulnerable", False)), raid=raw.get("raid", "no"),
        ambush=bool(raw.get("ambush", False)), block_raid=bool(raw.get("block_raid", False)),
        block_ambush=bool(raw.get("block_ambush", False)), card=card,
        special=key if key in SPECIALS else "")


CARD_BOAT_LINKS = (("st_marys", "richmond"), ("st_marys", "baltimore"), ("quebec", "tadoussac"),
                   ("fort_st_john", "quebec"))          # AFS-18 A39: on cards, missing from S2's tables


def _add_links(adj: list[set[int]], index: Mapping[str, int], links) -> None:
    for a, b in links:
        adj[index[a]].add(index[b])
        adj[index[b]].add(index[a])


def build_tables(acres: Acres) -> Tables:
    """The static indices of a data set (AFS-16 card list, AFS-19.7 networks; AFS-18 A39's card
    boat links in the raid and supply networks per option)."""
    data = acres.data
    locs = tuple(acres.locations)
    index = {lid: i for i, lid in enumerate(locs)}
    locations = tuple(acres.locations.values())
    sea = [i for i, loc in enumerate(locations) if loc.sea_network]
    supply = [{index[n] for n in loc.land} for loc in locations]
    for i in sea:
        supply[i] |= set(sea) - {i}
    raid = [{index[n] for n in (*loc.land, *loc.paths)} for loc in locations]
    for name, adj in (("raid", raid), ("supply", supply)):
        if data.get(f"options.{name}_uses_card_boat_links"):
            _add_links(adj, index, CARD_BOAT_LINKS)
    kinds: list[CardKind] = []
    cost: list[int] = []
    zone: list[str] = []
    side_of: list[int] = []
    loc_card: list[dict[int, int]] = [{}, {}]
    for s, side in enumerate(SIDES):
        for key, raw in data.get(f"location_cards.{side}").items():
            kind = _kind(acres, key, raw, s, "location", index)
            loc_card[s][kind.loc] = len(kinds)
            kinds.append(kind)
            cost.append(0)
            zone.append("draw" if raw["deck"] == "start" else "location")
            side_of.append(s)
        for key, raw in data.get(f"cards.{side}").items():
            kind = _kind(acres, key, raw, s, "empire", index)
            for _ in range(raw["start"]):
                kinds.append(kind)
                cost.append(raw.get("start_copy_cost", raw["cost"]))
                zone.append("draw")
                side_of.append(s)
            for _ in range(raw["supply"]):
                kinds.append(kind)
                cost.append(raw["cost"])
                zone.append("empire")
                side_of.append(s)
    for key, raw in data.get("cards.neutral").items():
        kind = _kind(acres, key, raw, NEUTRAL_OWNER, "neutral", index)
        for _ in range(raw["supply"]):
            kinds.append(kind)
            cost.append(raw["cost"])
            zone.append("neutral")
            side_of.append(NEUTRAL_OWNER)
    caps = acres.rules.capitals
    targets = data.get("rules.setup")
    return Tables(acres=acres, locs=locs, locations=locations, index=MappingProxyType(index),
                  supply_adj=tuple(tuple(sorted(a)) for a in supply), raid_adj=tuple(tuple(sorted(a)) for a in raid),
                  capital=(index[caps["british"]], index[caps["french"]]),
                  win_targets=(tuple(index[t] for t in targets["win_targets_british"]),
                               tuple(index[t] for t in targets["win_targets_french"])),
                  kind=tuple(kinds), card_cost=tuple(cost), start_zone=tuple(zone), start_side=tuple(side_of),
                  loc_card=(MappingProxyType(loc_card[0]), MappingProxyType(loc_card[1])),
                  copy_key=tuple((k.key, k.owner) for k in kinds), sea=tuple(sea),
                  supply_off_sea=tuple(tuple(sorted(a - set(sea) if i in sea else a)) for i, a in enumerate(supply)),
                  **_link_tables(kinds))


def _link_tables(kinds: list[CardKind]) -> dict[str, tuple]:
    """Per card, the travel tables a journey reads (AFS-7.1.2-7.1.3, AFS-8.1.2-8.1.3): the
    transport symbols it carries as bits, each printed link of a location card as (the bit of
    its transport, its destinations) in print order, whether two of its links share a
    destination (only then can two links give one journey) and every destination as a bit."""
    bit = {tr: 1 << i for i, tr in enumerate(TRANSPORTS)}
    printed = [tuple((bit[tr], dests) for tr, dests in k.links.items()) if k.loc >= 0 else () for k in kinds]
    return {"transport_bits": tuple(sum(b for tr, b in bit.items() if getattr(k, tr)) for k in kinds),
            "card_links": tuple(printed),
            "links_overlap": tuple(sum(len(d) for _, d in ls) > len({x for _, d in ls for x in d}) for ls in printed),
            "link_reach": tuple(sum(1 << x for x in {x for _, d in ls for x in d}) for ls in printed)}
