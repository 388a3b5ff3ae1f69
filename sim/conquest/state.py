"""All mutable state of a batch of Conquest of the Empire games (`BatchState`, leading batch axis)
and the static index tables of the board (`Tables`, built once per data hash).

Spaces are numbered provinces first (sorted ids), then sea zones. Pieces are kept by *colour*
(COE-2.4: each colour has its own supply); `owner[g, c]` is the seat that commands colour c's
pieces, which changes when a Caesar is captured and his empire passes to the captor (COE-25.2:
inherited pieces keep their colour and count against its limits). Seat k plays colour k.

Land units standing in a province are counts by type (infantry, cavalry, catapult); land units
aboard a galley are that galley's cargo. Leaders have identities: leader 0 of a colour is its
Caesar, 1..4 its Generals (COE-5); a leader stands in a space or sits aboard a galley, is free,
held captive by a seat (COE-23) or gone. During the active player's movement phase `ready`
holds, per colour, province and type, how many units have 0, 1 or 2 movement points left
(COE-11.2); `landed` the units that left a galley this turn (COE-12.6).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sim.conquest.components import LAND_UNITS, Components

MAX_SEATS = 6              # COE-2.5 / COE-AS6: six colours
LEADERS = 5                # COE-2.4: one Caesar (index 0) and four Generals per colour
CAESAR = 0
INF, CAV, CAT = 0, 1, 2    # land unit types, in the order of LAND_UNITS
NEUTRAL = -1

FREE, CAPTIVE, GONE = 0, 1, 2            # leader states (COE-5.5, COE-23)
NOT_FLAGGED, BOARDED, LANDED = 0, 1, 2   # a leader's galley use this turn (COE-12.6)


@dataclass(frozen=True)
class Tables:
    """The board as index lists (COE-29): provinces 0..n_prov-1, then sea zones."""

    names: tuple[str, ...]
    n_prov: int
    tax: tuple[int, ...]
    steps: tuple[tuple[int, ...], ...]        # land borders + straits (COE-11.7)
    borders: tuple[tuple[int, ...], ...]      # land borders only (roads, COE-6.5)
    coast: tuple[tuple[int, ...], ...]        # per province: its sea zones (COE-3.7)
    sea_adj: tuple[tuple[int, ...], ...]      # per sea zone (index - n_prov): adjacent zones
    sea_coast: tuple[tuple[int, ...], ...]    # per sea zone: its coastal provinces
    edges: tuple[tuple[int, int], ...]        # road-eligible province pairs a < b
    edge_of: dict[tuple[int, int], int]
    edges_at: tuple[tuple[int, ...], ...]     # per province: the edges touching it
    cycle: tuple[int, ...]                    # COE-9.1: the turn cycle of the Home Provinces
    homes: dict[int, tuple[int, ...]]         # COE-8.2: Home Provinces by player count, in turn order
    galley_docks: dict[int, tuple[int, ...]]  # COE-22.3: where a home's new galleys go
    colours: tuple[str, ...]
    start_generals: int
    start_infantry: int
    turn_cap: int
    limits: tuple[int, int, int, int]         # COE-2.4: infantry, cavalry, catapult, galley per colour
    capacity: int                             # COE-12.5: land units per galley
    unit_mp: tuple[int, int, int]             # COE-11.2
    galley_mp: int
    leader_mp: int
    pools: dict[str, int]                     # COE-2.4: shared Cities, Fortifications, Roads

    @property
    def n_spaces(self) -> int:
        return len(self.names)

    def index(self, name: str) -> int:
        return self.names.index(name)

    def is_sea(self, space: int) -> bool:
        return space >= self.n_prov


def _tables(comp: Components) -> Tables:
    board = comp.board
    prov = sorted(board.provinces)
    seas = sorted(board.sea_zones)
    names = tuple(prov + seas)
    at = {n: i for i, n in enumerate(names)}
    n_prov = len(prov)
    steps = tuple(tuple(sorted(at[x] for x in board.neighbours(p))) for p in prov)
    borders = tuple(tuple(sorted(at[x] for x in board.provinces[p].land)) for p in prov)
    coast = tuple(tuple(sorted(at[z] for z in board.provinces[p].sea)) for p in prov)
    sea_adj = tuple(tuple(sorted(at[x] for x in board.sea_zones[z].sea)) for z in seas)
    sea_coast = tuple(tuple(sorted(at[x] for x in board.sea_zones[z].coast)) for z in seas)
    edges = tuple(sorted({(min(a, b), max(a, b)) for a in range(n_prov) for b in borders[a]}))
    edge_of = {e: k for k, e in enumerate(edges)}
    edges_at = tuple(tuple(k for k, e in enumerate(edges) if p in e) for p in range(n_prov))
    rules = comp.data.get("rules")
    cycle = tuple(at[h] for h in rules["cycle"])
    homes = {}
    for key, listed in rules["homes"].items():
        chosen = {at[h] for h in listed}
        comp.data.check(len(chosen) == len(listed) == int(key[1:]) and chosen <= set(cycle),
                        f"rules.homes.{key}", f"{key[1:]} distinct Home Provinces of rules.cycle")
        homes[int(key[1:])] = tuple(h for h in cycle if h in chosen)     # COE-9.2: in turn order
    docks = {h: (h,) if coast[h] else tuple(q for q in borders[h] if coast[q]) for h in cycle}
    units = comp.units
    economy = comp.data.get("economy.pools")
    return Tables(
        names=names, n_prov=n_prov, tax=tuple(board.provinces[p].tax for p in prov), steps=steps,
        borders=borders, coast=coast, sea_adj=sea_adj, sea_coast=sea_coast, edges=edges, edge_of=edge_of,
        edges_at=edges_at, cycle=cycle, homes=homes, galley_docks=docks, colours=tuple(rules["colours"]),
        start_generals=int(rules["start"]["generals"]), start_infantry=int(rules["start"]["infantry"]),
        turn_cap=int(rules["turn_cap"]),
        limits=tuple(units[u].limit for u in (*LAND_UNITS, "galley")),  # type: ignore[arg-type]
        capacity=units["galley"].capacity, unit_mp=tuple(units[u].mp for u in LAND_UNITS),  # type: ignore[arg-type]
        galley_mp=units["galley"].mp, leader_mp=int(comp.data.get("units.leaders.mp")),
        pools={k: int(v) for k, v in economy.items()})


_BUILT: dict[int, tuple[Components, Tables]] = {}


def tables_of(comp: Components) -> Tables:
    """The board tables of a data set (built once per components object)."""
    hit = _BUILT.get(id(comp))
    if hit is None or hit[0] is not comp:
        hit = _BUILT[id(comp)] = (comp, _tables(comp))
    return hit[1]


@dataclass
class BatchState:
    """Every mutable field of B games (leading axis B); see the module docstring."""

    n_players: np.ndarray          # (B,)
    home: np.ndarray               # (B, S) Home Province of each seat (COE-8.2)
    owner: np.ndarray              # (B, S) seat commanding each colour's pieces; -1 off the board
    alive: np.ndarray              # (B, S) the seat's Caesar is still free (COE-25)
    treasury: np.ndarray           # (B, S) talents (COE-4)
    control: np.ndarray            # (B, provinces) seat or NEUTRAL (COE-17)
    city: np.ndarray               # (B, provinces) bool (COE-6.1)
    fort: np.ndarray               # (B, provinces) bool (COE-6.4)
    road: np.ndarray               # (B, edges) bool (COE-6.5)
    land: np.ndarray               # (B, S, provinces, 3) standing land units by colour
    ready: np.ndarray              # (B, S, provinces, 3, 3) movement points left (movement phase)
    landed: np.ndarray             # (B, S, provinces, 3) units that left a galley this turn
    gal_loc: np.ndarray            # (B, S, 8) space of each galley, -1 in supply
    gal_mp: np.ndarray             # (B, S, 8)
    gal_cargo: np.ndarray          # (B, S, 8, 3) land units aboard, of the galley's colour
    gal_boarded: np.ndarray        # (B, S, 8) cargo boarded this turn (COE-A14)
    gal_transit: np.ndarray        # (B, S, 8) passing a coast where it may not stay (COE-A16)
    ldr_loc: np.ndarray            # (B, S, 5) space, -1 when not on the board
    ldr_ship: np.ndarray           # (B, S, 5) galley (colour * 8 + slot) aboard, -1 none
    ldr_state: np.ndarray          # (B, S, 5) FREE / CAPTIVE / GONE
    ldr_holder: np.ndarray         # (B, S, 5) seat holding a captive
    ldr_mp: np.ndarray             # (B, S, 5)
    ldr_flag: np.ndarray           # (B, S, 5) NOT_FLAGGED / BOARDED / LANDED this turn
    multiplier: np.ndarray         # (B,) price multiplier in force (COE-21)
    round: np.ndarray              # (B,) rounds begun
    turn: np.ndarray               # (B,) turns begun
    over: np.ndarray               # (B,) bool
    end_reason: list[str]          # per game: "", "victory", "draw", "turn_cap"
    acquired: np.ndarray           # (B, S, assets) bool, for interventions
    stats: dict[str, np.ndarray] = field(default_factory=dict)   # (B, S) counters

    @classmethod
    def empty(cls, n_players: np.ndarray, t: Tables, n_assets: int, stat_names: tuple[str, ...]) -> "BatchState":
        b = len(n_players)
        s, p, gal = MAX_SEATS, t.n_prov, t.limits[3]
        i64 = np.int64
        return cls(
            n_players=n_players.astype(i64), home=np.full((b, s), -1, i64), owner=np.full((b, s), -1, i64),
            alive=np.zeros((b, s), bool), treasury=np.zeros((b, s), i64), control=np.full((b, p), NEUTRAL, i64),
            city=np.zeros((b, p), bool), fort=np.zeros((b, p), bool), road=np.zeros((b, len(t.edges)), bool),
            land=np.zeros((b, s, p, 3), i64), ready=np.zeros((b, s, p, 3, 3), i64), landed=np.zeros((b, s, p, 3), i64),
            gal_loc=np.full((b, s, gal), -1, i64), gal_mp=np.zeros((b, s, gal), i64),
            gal_cargo=np.zeros((b, s, gal, 3), i64), gal_boarded=np.zeros((b, s, gal), bool),
            gal_transit=np.zeros((b, s, gal), bool),
            ldr_loc=np.full((b, s, LEADERS), -1, i64), ldr_ship=np.full((b, s, LEADERS), -1, i64),
            ldr_state=np.full((b, s, LEADERS), GONE, i64), ldr_holder=np.full((b, s, LEADERS), -1, i64),
            ldr_mp=np.zeros((b, s, LEADERS), i64), ldr_flag=np.zeros((b, s, LEADERS), i64),
            multiplier=np.ones(b, i64), round=np.zeros(b, i64), turn=np.zeros(b, i64), over=np.zeros(b, bool),
            end_reason=[""] * b, acquired=np.zeros((b, s, n_assets), bool),
            stats={k: np.zeros((b, s), i64) for k in stat_names})
