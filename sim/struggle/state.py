"""Game state of a batch of Struggle of Empires games, struct-of-arrays.

Every array has a leading batch axis (one entry per game) and, where it is per player, a
player axis of length `MAX_SEATS` = 7 indexed by *seat* (seat 0 is the start player, seats go
clockwise); seats beyond a game's player count stay empty. Phase-level rules (income, upkeep,
growth, scoring, end of game) are array operations over the whole batch; action-level rules
read and write one game's row.

Locations: indices 0..10 are the VP regions in data order, `HOME` (= 11) is a player's own home
country (every player's units at index 11 are in *his* home country; nobody else can be there,
SOE-10.6). Unit types: `ARMY`, `FLEET`, `FORT`. A fort at home has never stood in a VP region
and may still move; a fort in a VP region never moves again (SOE-9.4), so its location is all
the state a fort needs.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

MAX_SEATS = 7
N_REGIONS = 11
HOME = N_REGIONS
N_LOCATIONS = N_REGIONS + 1
ARMY, FLEET, FORT = 0, 1, 2
UNIT_NAMES = ("army", "fleet", "fort")

# token_state values
IN_BAG, ON_MAP, IN_BOX = 0, 1, 2
# token kinds
NEUTRAL, POP, SLAVE = 0, 1, 2
# alliance rows
UPPER, LOWER = 0, 1


@dataclass
class BatchState:
    """The mutable state of `n` games played in lockstep (see module docstring for axes)."""

    n: int
    n_players: np.ndarray          # (B,) players in each game
    power: np.ndarray              # (B, 7) power index of each seat, -1 for an empty seat
    gold: np.ndarray               # (B, 7)
    population: np.ndarray         # (B, 7) 0..9 (SOE-2.4)
    unrest: np.ndarray             # (B, 7) hidden from the other players (SOE-2.3)
    vp: np.ndarray                 # (B, 7)
    units: np.ndarray              # (B, 7, 12, 3) units per location and type
    markers: np.ndarray            # (B, 7, 11) control markers on the map
    token_state: np.ndarray        # (B, 65) IN_BAG / ON_MAP / IN_BOX
    dev_owned: np.ndarray          # (B, 7, K) development tiles owned, by kind
    dev_used: np.ndarray           # (B, 7, K) copies used this war (triangle) or this round (ban)
    dev_display: np.ndarray        # (B, K) copies on the display
    no_retake: np.ndarray          # (B, 7, K) one-use tile returned this round by this player
    alliance_owner: np.ndarray     # (B, 11) seat owning each alliance tile, -1 on the display
    company_owner: np.ndarray      # (B, 9) seat owning each company tile, -1 on the display
    company_used: np.ndarray       # (B, 9) used this war
    row: np.ndarray                # (B, 7) UPPER / LOWER / -1 (unallied)
    turn_order: np.ndarray         # (B, 7) seats in phase-3 order, -1 padding
    bought: np.ndarray             # (B, 7) took a Buy action this round (SOE-7.2)
    colonised: np.ndarray          # (B, 7) colonised or enslaved this round (SOE-7.2)
    pirates_region: np.ndarray     # (B,) region of a Pirates tile holding a marker, -1
    pirates_victim: np.ndarray     # (B,) seat whose marker the Pirates tile holds
    revolt_region: np.ndarray      # (B,) same for the Slave Revolt tile
    revolt_victim: np.ndarray      # (B,)
    blockade_region: np.ndarray    # (B,) region of a Blockade (a) tile, -1
    blockade_owner: np.ndarray     # (B,)
    last_in_order: np.ndarray      # (B,) seat last in turn order in the previous war (SOE-6.8)
    public_unrest: np.ndarray      # (B, 7) unrest everyone saw taken (SOE-2.3, SOE-A37)
    acquired: np.ndarray           # (B, 7, A) bool: assets (Tables.assets) taken (Buy, Diplomatic Service)
    forts_returned: np.ndarray     # (B, 7) forts at home after a failed sea roll (option fort_moves_later)
    war: int = 1
    round: int = 1
    stats: dict[str, np.ndarray] = field(default_factory=dict)

    @classmethod
    def empty(cls, n_players: np.ndarray, powers: np.ndarray, n_dev: int, n_tokens: int,
              n_alliance: int, n_company: int) -> "BatchState":
        """A blank batch: no pieces anywhere, every token in the bag, every tile on no display."""
        b = len(n_players)
        z = lambda *shape: np.zeros((b, *shape), dtype=np.int32)  # noqa: E731
        neg = lambda *shape: np.full((b, *shape), -1, dtype=np.int32)  # noqa: E731
        stats = {k: z(MAX_SEATS) for k in STAT_NAMES}
        return cls(
            n=b, n_players=np.asarray(n_players, dtype=np.int32), power=np.asarray(powers, dtype=np.int32),
            gold=z(MAX_SEATS), population=z(MAX_SEATS), unrest=z(MAX_SEATS), vp=z(MAX_SEATS),
            units=z(MAX_SEATS, N_LOCATIONS, 3), markers=z(MAX_SEATS, N_REGIONS),
            token_state=np.zeros((b, n_tokens), dtype=np.int8),
            dev_owned=z(MAX_SEATS, n_dev), dev_used=z(MAX_SEATS, n_dev), dev_display=z(n_dev),
            no_retake=np.zeros((b, MAX_SEATS, n_dev), dtype=bool),
            alliance_owner=neg(n_alliance), company_owner=neg(n_company),
            company_used=np.zeros((b, n_company), dtype=bool),
            row=neg(MAX_SEATS), turn_order=neg(MAX_SEATS),
            bought=np.zeros((b, MAX_SEATS), dtype=bool), colonised=np.zeros((b, MAX_SEATS), dtype=bool),
            pirates_region=neg(), pirates_victim=neg(), revolt_region=neg(), revolt_victim=neg(),
            blockade_region=neg(), blockade_owner=neg(), last_in_order=np.zeros(b, dtype=np.int32),
            public_unrest=z(MAX_SEATS),
            acquired=np.zeros((b, MAX_SEATS, n_dev + n_alliance + n_company), dtype=bool),
            forts_returned=z(MAX_SEATS), stats=stats,
        )

    def seats(self, g: int) -> range:
        return range(int(self.n_players[g]))

    def captured(self, g: int) -> np.ndarray:
        """(7, 11) markers held on a Pirates / Slave Revolt tile: they occupy their space but
        count for neither income nor VP (SOE-20.16.5, SOE-20.17.4)."""
        out = np.zeros((MAX_SEATS, N_REGIONS), dtype=np.int32)
        if self.pirates_region[g] >= 0:
            out[self.pirates_victim[g], self.pirates_region[g]] += 1
        if self.revolt_region[g] >= 0:
            out[self.revolt_victim[g], self.revolt_region[g]] += 1
        return out

    def captured_batch(self) -> np.ndarray:
        """(B, 7, 11) captured markers of every game (vectorised `captured`)."""
        out = np.zeros((self.n, MAX_SEATS, N_REGIONS), dtype=np.int32)
        for reg, vic in ((self.pirates_region, self.pirates_victim), (self.revolt_region, self.revolt_victim)):
            g = np.flatnonzero(reg >= 0)
            np.add.at(out, (g, vic[g], reg[g]), 1)
        return out


STAT_NAMES = ("tiles_bought", "battles_fought", "battles_won", "units_lost", "gold_borrowed",
              "unrest_borrowed", "actions", "passes", "reforms")


@dataclass(frozen=True)
class Tables:
    """The static data of a game as index arrays (built once from `Components`).

    Regions, tokens and tiles are numbered in data order; powers in `map.powers.order`.
    """

    regions: tuple[str, ...]
    powers: tuple[str, ...]
    europe: np.ndarray            # (11,) bool
    sea: np.ndarray               # (11,) bool: fleets may be there (SOE-1.4.3)
    american: np.ndarray          # (11,) bool (SOE-1.4.4)
    vp: np.ndarray                # (11, 3) place values, 0-padded (SOE-16.1)
    spaces: np.ndarray            # (11,) country-token spaces (SOE-1.4.5)
    naval_region: np.ndarray      # (11,) naval-battle region or -1 (SOE-12.7.1)
    adjacent: np.ndarray          # (11, 11) bool VP-region adjacency (SOE-26.4)
    home_adjacent: np.ndarray     # (7 powers, 11) bool (SOE-10.5)
    token_region: np.ndarray      # (T,)
    token_kind: np.ndarray        # (T,) NEUTRAL / POP / SLAVE
    token_strength: np.ndarray    # (T,)
    token_gold: np.ndarray        # (T,)
    token_vp: np.ndarray          # (T,)
    dev: tuple[str, ...]          # development tile kinds
    dev_copies: np.ndarray
    dev_gold: np.ndarray
    dev_unrest: np.ndarray
    dev_pop: np.ndarray
    dev_timing: tuple[str, ...]
    alliance: tuple[str, ...]
    alliance_regions: np.ndarray  # (11 tiles, 11 regions) bool
    alliance_army: np.ndarray     # (11,) bool
    alliance_fleet: np.ndarray    # (11,) bool
    alliance_gold: np.ndarray
    company: tuple[str, ...]
    company_regions: np.ndarray   # (9, 11) bool
    company_gold: np.ndarray
    company_per_marker: np.ndarray
    assets: tuple[str, ...]       # every tile key: development, alliance, company tiles (BatchState.acquired)
    asset_offset: dict[str, int]  # "dev" / "alliance" / "company" -> index of its first tile in `assets`

    def region(self, key: str) -> int:
        return self.regions.index(key)

    def tile(self, key: str) -> int:
        return self.dev.index(key)


_TABLES: dict[str, Tables] = {}


def tables_of(comp) -> Tables:
    """The index tables of some components, built once per data hash (the effective data,
    overrides included) and shared, read-only, by every engine that plays with them."""
    found = _TABLES.get(comp.data.hash)
    if found is None:
        found = _TABLES[comp.data.hash] = build_tables(comp)
        for f in dataclasses.fields(found):                   # shared: nobody may write into them
            value = getattr(found, f.name)
            if isinstance(value, np.ndarray):
                value.flags.writeable = False
    return found


def build_tables(comp) -> Tables:
    """Index arrays of `sim.struggle.components.Components` (SOE-26)."""
    regions = tuple(comp.regions)
    idx = {k: i for i, k in enumerate(regions)}
    rs = list(comp.regions.values())
    vp = np.zeros((len(rs), 3), dtype=np.int32)
    for i, r in enumerate(rs):
        vp[i, : len(r.vp)] = r.vp
    adjacent = np.zeros((len(rs), len(rs)), dtype=bool)
    for i, r in enumerate(rs):
        for k in r.adjacent:
            adjacent[i, idx[k]] = adjacent[idx[k], i] = True
    powers = tuple(comp.powers)
    home = np.zeros((len(powers), len(rs)), dtype=bool)
    for i, p in enumerate(comp.powers.values()):
        home[i, [idx[k] for k in p.home_adjacent]] = True
    toks = comp.tokens
    kind = {"neutral": NEUTRAL, "pop": POP, "slave": SLAVE}
    tiles = list(comp.tiles.values())
    al = list(comp.alliances.values())
    co = list(comp.companies.values())

    def region_mask(items) -> np.ndarray:
        m = np.zeros((len(items), len(rs)), dtype=bool)
        for i, t in enumerate(items):
            m[i, [idx[k] for k in t.regions]] = True
        return m

    arr = lambda xs: np.asarray(xs, dtype=np.int32)  # noqa: E731
    return Tables(
        regions=regions, powers=powers,
        europe=np.array([r.kind == "europe" for r in rs]), sea=np.array([r.sea for r in rs]),
        american=np.array([r.american for r in rs]), vp=vp, spaces=arr([r.spaces for r in rs]),
        naval_region=arr([idx[r.naval_battle_region] if r.naval_battle_region else -1 for r in rs]),
        adjacent=adjacent, home_adjacent=home,
        token_region=arr([idx[t.region] for t in toks]), token_kind=arr([kind[t.kind] for t in toks]),
        token_strength=arr([t.strength for t in toks]), token_gold=arr([t.gold for t in toks]),
        token_vp=arr([t.vp for t in toks]),
        dev=tuple(t.key for t in tiles), dev_copies=arr([t.copies for t in tiles]),
        dev_gold=arr([t.cost_gold for t in tiles]), dev_unrest=arr([t.cost_unrest for t in tiles]),
        dev_pop=arr([t.cost_population for t in tiles]), dev_timing=tuple(t.timing for t in tiles),
        alliance=tuple(t.key for t in al), alliance_regions=region_mask(al),
        alliance_army=np.array(["army" in t.symbols for t in al]),
        alliance_fleet=np.array(["fleet" in t.symbols for t in al]), alliance_gold=arr([t.cost_gold for t in al]),
        company=tuple(t.key for t in co), company_regions=region_mask(co),
        company_gold=arr([t.cost_gold for t in co]), company_per_marker=arr([t.gold_per_marker for t in co]),
        assets=tuple(t.key for t in (*tiles, *al, *co)),
        asset_offset={"dev": 0, "alliance": len(tiles), "company": len(tiles) + len(al)},
    )
