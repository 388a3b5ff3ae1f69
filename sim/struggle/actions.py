"""The actions of Struggle of Empires as data: one frozen, slotted dataclass per kind, each applied
by `Engine.apply` (the only way a player changes the game). Players build them; the engine checks
every one against the rules and raises `RuleViolation` for an illegal one.

Units are `state.ARMY` / `FLEET` / `FORT`; locations are region indices, `state.HOME` for a
player's home country.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pass:
    """SOE-7.2: give up the action."""


@dataclass(frozen=True, slots=True)
class Buy:
    """SOE-8: take one tile from the display (`what`: "dev" | "alliance" | "company", `index` in
    its table) and pay for it; Pirates / Slave Revolt name their target marker `raid` = (region,
    seat) (SOE-20.16.2 / 20.17.1)."""

    what: str
    index: int
    raid: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Build:
    """SOE-9: build one unit of `kind` at home (free with `tile`: Mercenaries, Pressgangs, Trained
    Natives, SOE-20.5 .. 20.7), then its free move to `dst`; destroy-and-rebuild (SOE-9.5, SOE-A14)
    destroys the own unit at `destroy_at` (of `destroy_kind`, default `kind`); Militia (SOE-20.8)
    builds its extra army unless `militia_dst` is "none" (None: it stays home); a Trained Natives
    army placed in `dst` may move on to `then`."""

    kind: int
    tile: str | None = None
    dst: int | None = None
    destroy_at: int | None = None
    militia_dst: int | str | None = "none"
    then: int | None = None
    destroy_kind: int | None = None


@dataclass(frozen=True, slots=True)
class Move:
    """SOE-10.1: up to two (three with Logistics, SOE-20.9) unit moves (kind, from, to), one after
    another; each may rely on the ones before it."""

    moves: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True, slots=True)
class DeclareAttack:
    """SOE-12.1: attack `target` in `region` -- ("player", seat), ("neutral", token), ("pirates",)
    or ("revolt",); paid by the fee, or free with War Office (SOE-20.4); with Surprise Attack
    (SOE-20.19) and Blockade (b) (SOE-20.20) when their owner plays them. `p_win`: the player's
    own forecast that it wins the battle, logged for the player audit (the rules ignore it)."""

    region: int
    target: tuple
    war_office: bool = False
    surprise: bool = False
    blockade: bool = False
    p_win: float | None = None


@dataclass(frozen=True, slots=True)
class Colonise:
    """SOE-13: turn a Pop token (1 population) or a Slave token (a fleet in Africa) into a marker."""

    token: int


@dataclass(frozen=True, slots=True)
class UseCompany:
    """SOE-21 (free action, SOE-7.3): once per war, gold per own marker in one region of the tile."""

    index: int
    region: int


@dataclass(frozen=True, slots=True)
class UseAgriculture:
    """SOE-20.13 (free action): once per war, +1 population."""


@dataclass(frozen=True, slots=True)
class UseDiplomacy:
    """SOE-20.12 (free action): once per war, take alliance tile `index`, paying its cost."""

    index: int


@dataclass(frozen=True, slots=True)
class PlaceBlockade:
    """SOE-20.20 (a) (free action): put the Blockade tile under an own fleet in a colonial region."""

    region: int


Action = Pass | Buy | Build | Move | DeclareAttack | Colonise
ACTION_NAMES = {Pass: "pass", Buy: "buy", Build: "build", Move: "move", DeclareAttack: "attack", Colonise: "colonise"}
FreeAction = UseCompany | UseAgriculture | UseDiplomacy | PlaceBlockade
