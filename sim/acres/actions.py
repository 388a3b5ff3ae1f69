"""The actions of A Few Acres of Snow as data (AFS-5.7): one frozen, slotted dataclass per kind,
applied by `Engine.apply` (the only way a player changes the game), which checks each against the
rules and raises `RuleViolation` for an illegal one. Cards are physical card numbers
(`state.Tables.kind`), locations are location indices, siege tracks are the attacker's side.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Pass:
    """AFS-14.1: use up one action and do nothing; with no action left, end the turn."""


@dataclass(frozen=True, slots=True)
class Settle:
    """AFS-7.1: a cube on neutral `target`, with the connection card `via` listing it, a card with
    the link's transport symbol and, where the target has the settler symbol, a settler card."""

    target: int
    via: int
    transport: int
    settler: int | None = None


@dataclass(frozen=True, slots=True)
class Develop:
    """AFS-7.2: a village with VP > 0 becomes a town: its own card plus a settler card."""

    target: int
    card: int
    settler: int


@dataclass(frozen=True, slots=True)
class Fortify:
    """AFS-7.3: a fort disc under an own piece: its own card, a Fortification card and 3 money."""

    target: int
    card: int
    fortification: int


@dataclass(frozen=True, slots=True)
class Besiege:
    """AFS-8.1: a siege of an enemy location: connection card, transport card, military card.
    `p_win`: the player's own forecast that the siege takes the location, logged for the player
    audit (the rules ignore it)."""

    target: int
    via: int
    transport: int
    military: int
    p_win: float | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Reinforce:
    """AFS-8.6: one card into the siege on `track` (the attacker's side), attacker or defender."""

    track: int
    card: int


@dataclass(frozen=True, slots=True)
class PlayLeader:
    """AFS-8.7 (free action): the Leader into the siege on `track`."""

    track: int
    card: int


@dataclass(frozen=True, slots=True)
class Withdraw:
    """AFS-8.12 (free action): the attacker gives up his siege, as if he had lost it."""


@dataclass(frozen=True, slots=True)
class GiveUp:
    """AFS-8.12.2 alternative (free action, `options.defender_may_withdraw`): the defender gives
    the opponent's siege up, which is the attacker's win (AFS-8.9)."""


@dataclass(frozen=True, slots=True)
class Raid:
    """AFS-9: raid-capable cards (plus Priests / Indian Leaders for range) against `target`.
    `p_win`: the player's own forecast that the raid is not blocked (player audit only)."""

    target: int
    cards: tuple[int, ...]
    p_win: float | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Ambush:
    """AFS-10: one ambush card against the opponent's vulnerable cards. `p_win`: the player's own
    forecast that it is not blocked and takes a card (player audit only)."""

    card: int
    p_win: float | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Steal:
    """AFS-11: Priest (French) or Indian Leader (British) takes a neutral Native Americans card."""

    card: int


@dataclass(frozen=True, slots=True)
class TakeMoney:
    """AFS-12.1: one playable location card; gain its coin."""

    card: int


@dataclass(frozen=True, slots=True)
class SeaTrade:
    """AFS-12.2: a ship card plus one or two money cards; gain their coins."""

    ship: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class FurTrade:
    """AFS-12.3: the Trader plus fur location cards; 2 money per fur card."""

    trader: int
    furs: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Piracy:
    """AFS-12.4 (French): the French Louisbourg card plus a ship card; the British pay 2."""

    louisbourg: int
    ship: int


@dataclass(frozen=True, slots=True)
class Recruit:
    """AFS-13.1: one card from the own empire deck or the neutral supply, paying its cost."""

    card: int


@dataclass(frozen=True, slots=True)
class Discard:
    """AFS-13.2: cards from hand to the discard pile; the first free, each further one 1 money.
    `idle`: the player found nothing worth doing and only cycles its deck (logged for the player
    audit's idleness; no effect on the rules)."""

    cards: tuple[int, ...]
    idle: bool = field(default=False, compare=False)


@dataclass(frozen=True, slots=True)
class Reserve:
    """AFS-13.3: one card from hand face up into the reserve (at most 5)."""

    card: int


@dataclass(frozen=True, slots=True)
class Retrieve:
    """AFS-13.4 (free action): the whole reserve back to hand, 1 money per card."""


@dataclass(frozen=True, slots=True)
class Governor:
    """AFS-13.5: the Governor plus one or two cards from hand, returned to their supplies."""

    governor: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Intendant:
    """AFS-13.6 (French): the Intendant and 2 money; one card from the discard pile to hand."""

    intendant: int
    target: int


@dataclass(frozen=True, slots=True)
class HomeSupport:
    """AFS-13.7 (free action): draw 3, then the Home Support card goes to the discard pile."""

    card: int


@dataclass(frozen=True, slots=True)
class FurCoin:
    """Scen11 (free action): play a fur card to gain 1 coin."""

    card: int


@dataclass(frozen=True, slots=True)
class DropLost:
    """Scen17 (free action): a card of a location the side has lost goes back to its deck."""

    card: int


@dataclass(frozen=True, slots=True)
class Occupy:
    """AFS-8.9.3 (after a siege win, no action): a cube on the captured location, with a settler
    card from hand where the location needs one (`settler`, else None)."""

    settler: int | None = None


@dataclass(frozen=True, slots=True)
class LeaveNeutral:
    """AFS-8.9.4: the captured location stays neutral."""


Action = (Pass | Settle | Develop | Fortify | Besiege | Reinforce | PlayLeader | Withdraw | GiveUp | Raid | Ambush | Steal
          | TakeMoney | SeaTrade | FurTrade | Piracy | Recruit | Discard | Reserve | Retrieve | Governor
          | Intendant | HomeSupport | FurCoin | DropLost)
NOTES = ("p_win", "idle")   # fields a player adds for the player audit: not part of the move, ignored by the rules
FREE = (PlayLeader, Withdraw, GiveUp, Retrieve, HomeSupport, FurCoin, DropLost)  # AFS-5.4.2 (Scen11, Scen17)
