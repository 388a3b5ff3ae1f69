"""The mutable state of a batch of Age of Discovery games and the static index tables.

`BatchState.games` is the leading batch axis: one `GameState` per game, plain Python lists (the
engine advances all games phase by phase, and per game inside a phase, where vectorising small
lists does not pay). Seats are the players in seating order; turn order is `order`.

Where every unit is (AOD-0.5): the pool, an event box, the Discovery box, the New World, the
Turn Order box (one marker per seat, AOD-3.2) -- or back in the unused supply. `out` counts, per
seat and unit type, the units taken from the supply and not yet returned, so the units in play
always add up to it (the supply itself is unlimited, AOD-18.34).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.discovery.components import UNIT_TYPES, Components

COLONIST, CAPTAIN, MERCHANT, MISSIONARY, SOLDIER = range(len(UNIT_TYPES))
UNITS = len(UNIT_TYPES)

# AOD-5.5: the placement targets; the five Specialists boxes are separate one-unit boxes.
BOXES = ("initiative", "dock", "trade_goods", "shipping", "capital", "discovery",
         "train_captain", "train_merchant", "train_missionary", "train_soldier", "train_any", "warfare")
INITIATIVE, DOCK, TRADE, SHIPPING, CAPITAL, DISCOVERY = range(6)
TRAIN = tuple(range(6, 11))            # captain, merchant, missionary, soldier, any (AOD-6.7)
TRAIN_ANY = 10
WARFARE = 11
TRAINED = (CAPTAIN, MERCHANT, MISSIONARY, SOLDIER)   # what each fixed Specialists box trains
CARDS = -1                             # the expedition target "the discovery deck" (AOD-8.7)
Unit = tuple[int, int]                 # (seat, unit type) on a box space


def zeros(n: int) -> list[list[int]]:
    """Per seat, a count per unit type."""
    return [[0] * UNITS for _ in range(n)]


@dataclass
class GameState:
    """Everything that changes in one game (AOD-2 components in play)."""

    n: int
    round: int = 0
    money: list[int] = field(default_factory=list)
    order: list[int] = field(default_factory=list)              # seats in turn order (AOD-0.6)
    markers: list[int] = field(default_factory=list)            # unit type of each seat's Turn Order marker
    pool: list[list[int]] = field(default_factory=list)
    out: list[list[int]] = field(default_factory=list)          # units out of the supply per seat and type
    boxes: list[list[Unit]] = field(default_factory=list)       # the ordered/free boxes, by BOXES index
    dock_x: list[Unit] = field(default_factory=list)            # AOD-6.2.6 space X (Indentured Servitude)
    dock_y: list[Unit] = field(default_factory=list)            # space Y (Colonization Laws)
    discovery_box: list[list[int]] = field(default_factory=list)  # persists across rounds (AOD-6.6.3)
    world: list[list[list[int]]] = field(default_factory=list)  # [region][seat][unit type]
    token_at: list[int] = field(default_factory=list)           # token index under each region, -1 none
    discovered: list[bool] = field(default_factory=list)
    out_tokens: list[int] = field(default_factory=list)         # the 8 tokens out of play (hidden)
    shown: list[bool] = field(default_factory=list)             # per token: seen by everyone (AOD-8.4)
    seen: list[set[int]] = field(default_factory=list)          # per seat: tokens it has seen
    deck: list[int] = field(default_factory=list)               # discovery cards, top first (hidden)
    region_good: list[bool] = field(default_factory=list)       # the region's good still lies there
    goods: list[list[int]] = field(default_factory=list)        # [seat][good type]
    ships: list[int] = field(default_factory=list)
    ship_in_box: bool = False
    ships_left: int = 0
    goods_pool: list[int] = field(default_factory=list)         # face-down goods (hidden order)
    goods_display: list[int] = field(default_factory=list)
    stacks: list[list[int]] = field(default_factory=list)       # building tiles per age (hidden order)
    display: list[int] = field(default_factory=list)            # face-up building tiles
    owned: list[list[int]] = field(default_factory=list)        # building tiles per seat
    held: list[set[str]] = field(default_factory=list)          # the buildings (asset keys) of each seat
    early_units: list[set[int]] = field(default_factory=list)   # tiles whose first unit came at purchase this round
    university_used: list[bool] = field(default_factory=list)
    discoveries: list[list[tuple[str, int]]] = field(default_factory=list)  # ("token"|"card", index)
    colony_vp: list[int] = field(default_factory=list)
    last_colony_vp: list[int] = field(default_factory=list)
    economy: list[int] = field(default_factory=list)
    vp: list[int] = field(default_factory=list)
    winner: list[bool] = field(default_factory=list)
    stats: dict[str, list[int]] = field(default_factory=dict)


STATS = ("start_position", "buildings_bought", "expeditions", "expeditions_won", "battles", "wars", "units_killed",
         "units_lost", "ships_won", "goods_taken")


def new_game(n: int, regions: int, goods: int) -> GameState:
    """An empty game of n seats before setup."""
    return GameState(
        n=n, money=[0] * n, order=list(range(n)), markers=[COLONIST] * n, pool=zeros(n), out=zeros(n),
        boxes=[[] for _ in BOXES], discovery_box=zeros(n), world=[zeros(n) for _ in range(regions)],
        token_at=[-1] * regions, discovered=[False] * regions, seen=[set() for _ in range(n)],
        region_good=[True] * regions, goods=[[0] * goods for _ in range(n)], ships=[0] * n,
        owned=[[] for _ in range(n)], held=[set() for _ in range(n)], early_units=[set() for _ in range(n)],
        university_used=[False] * n, discoveries=[[] for _ in range(n)],
        colony_vp=[0] * n, last_colony_vp=[0] * n, economy=[0] * n, vp=[0] * n, winner=[False] * n,
        stats={k: [0] * n for k in STATS})


@dataclass(frozen=True)
class Tables:
    """Static index tables of the components: building tiles (one entry per copy, AOD-18.40)."""

    tile_building: tuple[int, ...]        # tile -> index into Components.buildings
    tile_age: tuple[int, ...]             # tile -> age 1..3
    building_keys: tuple[str, ...]        # building index -> id (the asset key)
    gold_silver: tuple[int, ...]          # good indices Mint pays for (AOD-14.1)
    sugar: int                            # good index Distillery pays for, -1 if absent
    region_goods: tuple[int, ...]         # region -> its printed good
    adjacent: tuple[tuple[int, ...], ...]

    @staticmethod
    def of(c: Components) -> Tables:
        tiles = [(j, b.age) for j, b in enumerate(c.buildings) for _ in range(b.copies)]
        names = c.goods.names
        ids = [r.id for r in c.regions]
        return Tables(
            tile_building=tuple(j for j, _ in tiles), tile_age=tuple(a for _, a in tiles),
            building_keys=tuple(b.id for b in c.buildings),
            gold_silver=tuple(i for i, g in enumerate(names) if g in ("gold", "silver")),
            sugar=names.index("sugar") if "sugar" in names else -1,
            region_goods=tuple(names.index(r.good) for r in c.regions),
            adjacent=tuple(tuple(ids.index(a) for a in r.adjacent) for r in c.regions))


@dataclass
class BatchState:
    """The batch: one GameState per game (the leading batch axis)."""

    games: list[GameState]
