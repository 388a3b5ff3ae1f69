"""The rules one engine plays: the data, the edition (`rules.game.edition`), the options of
AFS-18 (`options.*`) and Yucata's scenario variants (`rules.variants.scen<n>`), resolved once
into the settings, the starting position and the starting zone of every card.

The second edition (as Yucata enforces it, S5) differs from the first in (docs/acres_engine.md):
9 French discs (AFS-19.3, S2); no French Bateaux (AFS-18 A27; Scen21 makes it recruitable, Scen22
puts it in the starting deck); Home Support does not reshuffle (A7; Scen23 restores it); no
location cards in the reserve (A32; Scen6 allows them); settling the enemy capital wins (A25); a
raid reaches one step further than its cards (S2 `CanRaid`: range = cards + 1, so Kennebec to
Boston takes 2 cards, S6 p.11; Scen24 restores 1 per card, AFS-18 A8).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

import numpy as np

from sim.acres.components import SIDES, Acres
from sim.acres.state import Tables, build_tables

SCENARIOS = 26


@dataclass(frozen=True)
class Rulebook:
    """Resolved rules: `settings` become engine attributes; `zone[c]` is card c's starting zone
    ("draw", "location", "empire", "neutral" or "removed"); `key` the data hash."""

    acres: Acres
    tables: Tables
    edition: str
    variants: tuple[bool, ...]
    settings: Mapping[str, Any]
    start_control: tuple[int, ...]
    start_town: tuple[bool, ...]
    start_fort: tuple[bool, ...]
    cubes: tuple[int, int]
    discs: tuple[int, int]
    forts: int
    money: tuple[int, int]
    zone: tuple[str, ...]
    vp: np.ndarray
    key: str

    def side_of(self, strategy: str) -> str | None:
        """The side a strategy plays (its table's `side`; None for `any` and the random baseline):
        a side's strategy plays that side whatever its seat (sim.core.seating.bind_sides)."""
        table = self.acres.data.tree.get("strategies", {}).get(strategy, {})
        side = table.get("side", "any")
        return None if side == "any" else side


def _natives_fight(acres: Acres) -> Acres:
    """Scen15: Native Americans have a military strength of 1 in sieges."""
    cards = {side: MappingProxyType({k: replace(c, military=1) if k == "native_americans" else c
                                     for k, c in acres.cards[side].items()}) for side in SIDES}
    return replace(acres, cards=MappingProxyType(cards))


def rulebook(acres: Acres) -> Rulebook:
    """Resolve the edition, options and variants of a data set."""
    data = acres.data
    variants = tuple(bool(data.get(f"rules.variants.scen{n}")) for n in range(SCENARIOS))
    if variants[15]:
        acres = _natives_fight(acres)
    t = build_tables(acres)
    edition = data.get("rules.game.edition")
    second = edition == "second"
    opt = data.get("options")
    setup = data.get("rules.setup")
    settings = {
        "hand_size": acres.rules.hand_size, "actions_per_turn": acres.rules.actions_per_turn,
        "first_round_actions": setup["first_round_actions"], "fortify_cost": setup["fortify_cost"],
        "intendant_cost": setup["intendant_cost"], "piracy_gain": setup["piracy_gain"],
        "fur_trade_gain": setup["fur_trade_gain"], "home_support_draw": setup["home_support_draw"],
        "reserve_limit": setup["reserve_limit"], "artillery_cost": opt["artillery_cost"],
        "governor_two": opt["governor_cards"] == "two",
        "home_support_reshuffles": (opt["home_support_reshuffles"] and not second) or variants[23],
        "opt_raid_from_besieged": opt["raid_from_besieged"],
        "opt_raid_through_own_besieged": opt["raid_through_own_besieged"],
        "blocked_uses_action": opt["blocked_attack_uses_action"],
        "opt_capital_controlled": opt["capital_must_be_controlled"],
        "fortification_blocks": opt["fortification_blocks_raids"],
        "ambush_pays_fee": opt["ambush_pays_fee"],
        "chain_through_own_besieged": opt["chain_through_own_besieged"],
        "leader_needs_supply": opt["leader_needs_supply"],
        "ship_opens_siege": opt["ship_opens_siege"],
        "free_discard_once_per_turn": opt["free_discard"] == "once_per_turn",
        "settle_capital_wins": opt["settle_capital_wins"] or second,
        "location_reserve": opt["location_cards_in_reserve"] and not second,
        "raid_exact": opt["raid_range"] == "exactly",
        "raid_bonus": int(second and not variants[24]),
        "immediate_shuffle": acres.rules.reshuffle == "immediate",
        "postpone_shuffle": variants[25],
        "home_support_from_bottom": opt["home_support_from_bottom"],
        "defender_withdraws": opt["defender_may_withdraw"],
        "capital_siege_at_turn_end": opt["capital_siege_at_turn_end"],
        "end_test_at_turn_end": opt["end_test_at_turn_end"],
        "free_after_refill": opt["free_actions_after_refill"],
        "scen14_siege_won": opt["scen14_besieged_card"] == "siege_won",
        "turn_limit": data.get("rules.game.turn_limit"), "scen16_vp": data.get("rules.variants.scen16_vp"),
    }
    start = [loc.start for loc in t.locations]
    control = tuple(1 if s.startswith("gb") else 2 if s.startswith("fr") else 0 for s in start)
    town = tuple(s.endswith("town") for s in start)
    fort = [loc.fort for loc in t.locations]
    for n, where in ((1, "louisbourg"), (10, "quebec")):      # Scen1, Scen10: a fort at setup
        if variants[n] and where in t.index:
            fort[t.index[where]] = True
    zone = list(t.start_zone)
    removed_ri = 0
    for c, kind in enumerate(t.kind):
        if kind.special == "governor" and variants[19]:
            zone[c] = "removed"
        elif (kind.key == "regular_infantry" and kind.owner == 0 and zone[c] == "empire" and variants[4]
              and removed_ri < 3):
            zone[c] = "removed"
            removed_ri += 1
        elif kind.key == "bateaux" and kind.owner == 0 and variants[7]:
            zone[c] = "draw"
        elif kind.key == "bateaux" and kind.owner == 1 and t.start_zone[c] == "draw" and not variants[22]:
            zone[c] = "empire" if variants[21] else "removed" if second else "draw"
    discs = (setup["discs"], data.get("rules.game.second_edition_french_discs") if second else setup["discs"])
    return Rulebook(acres=acres, tables=t, edition=edition, variants=variants,
                    settings=MappingProxyType(settings), start_control=control, start_town=town,
                    start_fort=tuple(fort), cubes=(setup["cubes"], setup["cubes"]), discs=discs,
                    forts=setup["forts"], money=(setup["british_money"], setup["french_money"]),
                    zone=tuple(zone), vp=np.array([loc.vp for loc in t.locations], dtype=np.int64),
                    key=data.hash)
