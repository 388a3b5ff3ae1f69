"""`empires odds acres siege` (AFS-8) and `empires score acres final` (AFS-15)."""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from sim.acres import scoring, siege
from sim.acres.components import SIDES, Acres, load, other
from sim.cli import game_kinds
from sim.cli.common import (add_json, add_mc, add_overrides, add_seed, emit_json, flagged, int_in, key_counts,
                            name_list, print_table)
from sim.core.errors import UserError
from sim.core.metadata import result_metadata

DEFAULT_MC = 100_000
MONEY = int_in(0, 200, "money")
CYCLE = int_in(0, 5, "cards")
ASSUMED_SIEGE = ("rules.model.", "rules.siege.")
ASSUMED_SCORE = ("rules.scoring.",)


def register(groups: dict) -> None:
    kinds = game_kinds(groups, "odds", "acres", "A Few Acres of Snow siege odds")
    _siege_parser(kinds.add_parser("siege", help="one siege between two decks (AFS-8), Monte Carlo"))
    skinds = game_kinds(groups, "score", "acres", "A Few Acres of Snow scoring")
    _final_parser(skinds.add_parser("final", help="final scoring and winner (AFS-15.3)"))


# ---- siege -------------------------------------------------------------------------------------

def _siege_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("--location", required=True, metavar="NAME", help="besieged location (id or name, e.g. louisbourg)")
    p.add_argument("--attacker", required=True, choices=SIDES, help="the besieging side")
    p.add_argument("--owner", choices=SIDES,
                   help="who controls the location when the siege opens (default: its owner at setup, AFS-4.6; "
                        "a neutral one: the defender, who settled it); must be the defender (AFS-8.1.1)")
    p.add_argument("--fort", action="store_true", help="the location has a fort disc (+2 to the defender, AFS-8.2)")
    for side in SIDES:
        p.add_argument(f"--{side}-deck", metavar="CARD=COUNT,...",
                       help=f"the whole {side} deck by card counts (default: the starting deck, AFS-4.9)")
        p.add_argument(f"--{side}-add", metavar="CARD=COUNT,...",
                       help=f"cards added to the {side} deck (e.g. recruited: regular_infantry=2,leader=1)")
        p.add_argument(f"--{side}-money", type=MONEY, metavar="M",
                       help=f"{side} money when the siege opens (default: rules.model.{side}_money)")
    p.add_argument("--policy", default="greedy", metavar="NAME",
                   help="reinforcement policy: greedy (default), sufficient, sufficient=K, no-artillery; each "
                        "with +ambush (the side's dead ambush cards ambush the other side's hand, AFS-10)")
    p.add_argument("--defender-policy", metavar="NAME", help="the defender's policy (default: --policy)")
    for role in ("attacker", "defender"):
        p.add_argument(f"--{role}-cycle", type=CYCLE, metavar="N",
                       help=f"dead cards the {role} discards by an action that commits none (default "
                            "rules.model.cycle_per_action; 0: a hand kept for other uses)")
    p.add_argument("--max-turns", type=int_in(2, 1000, "turns"), metavar="T",
                   help="player turns before a siege counts as unresolved (default rules.model.max_turns)")
    p.add_argument("--exact", action="store_true",
                   help="exact state recursion instead of Monte Carlo (small decks only)")
    add_mc(p)
    add_seed(p)
    add_overrides(p)
    add_json(p)
    p.set_defaults(handler=siege_command)


def build_setup(args: argparse.Namespace, acres: Acres) -> siege.SiegeSetup:
    """Turn the command-line flags into a `SiegeSetup`, rejecting unknown cards and locations."""
    check_target(acres, args.location, args.attacker, args.owner)
    decks = {}
    for side in SIDES:
        base = getattr(args, f"{side}_deck")
        counts = (_deck_counts(acres, side, base, f"--{side}-deck") if base is not None
                  else acres.starting_deck(side).as_dict())
        extra = getattr(args, f"{side}_add")
        for cid, n in (_deck_counts(acres, side, extra, f"--{side}-add") if extra else {}).items():
            counts[cid] = counts.get(cid, 0) + n
        decks[side] = acres.deck(side, counts)
        if decks[side].size == 0:
            raise UserError(f"--{side}-deck: the {side} deck is empty; give at least one card")
    money = {s: getattr(args, f"{s}_money") for s in SIDES if getattr(args, f"{s}_money") is not None}
    policy = flagged("--policy", siege.parse_policy, args.policy)
    defender_policy = (flagged("--defender-policy", siege.parse_policy, args.defender_policy)
                       if args.defender_policy is not None else policy)
    if args.attacker_cycle is not None:
        policy = siege.cycling(policy, args.attacker_cycle)
    if args.defender_cycle is not None:
        defender_policy = siege.cycling(defender_policy, args.defender_cycle)
    return siege.make_setup(acres, args.location, args.attacker, decks, policy, defender_policy,
                            fort=True if args.fort else None, money=money, max_turns=args.max_turns)


def setup_owner(acres: Acres, location: str) -> str | None:
    """AFS-4.6: the side controlling a location at setup (`gb_*` / `fr_*`), None if neutral."""
    prefix = acres.location(location).start.partition("_")[0]
    return {"gb": "british", "fr": "french"}.get(prefix)


def check_target(acres: Acres, location: str, attacker: str, owner: str | None) -> None:
    """AFS-8.1.1: the besieged location must be controlled by the opponent of the attacker."""
    loc = acres.location(location)
    held = owner or setup_owner(acres, loc.id)
    if held != attacker:
        return
    defender = other(attacker)
    theirs = [lid for lid in acres.locations if setup_owner(acres, lid) == defender]
    why = "(--owner)" if owner else "at setup (AFS-4.6)"
    raise UserError(f"--location {loc.id}: the {attacker} control it {why} and a siege needs a location the "
                    f"{defender} control (AFS-8.1.1); allowed: {', '.join(theirs)} (the {defender} at setup), "
                    f"a neutral location the {defender} settled, or --owner {defender} for one they took")


def _deck_counts(acres: Acres, side: str, text: str, flag: str) -> dict[str, int]:
    counts = key_counts(text, acres.cards[side], f"{side} card", flag)
    return {acres.card(side, k).id: v for k, v in counts.items()}


def siege_command(args: argparse.Namespace) -> int:
    acres = load(args.overrides, args.variants)
    setup = build_setup(args, acres)
    if args.exact and args.mc:
        raise UserError("--exact and --mc exclude each other; give one")
    if args.exact:
        result = {"method": "exact", **siege.summarise_exact(siege.exact(setup))}
        seed = None
    else:
        n = args.mc or DEFAULT_MC
        result = {"method": "monte-carlo", **siege.siege_odds(setup, n, args.seed)}
        seed = args.seed
    defender = other(setup.attacker)
    payload: dict[str, Any] = {
        "location": setup.location.id, "attacker": setup.attacker, "defender": defender, "fort": setup.fort,
        "start_position": setup.start, "policy": setup.policies[0].name,
        "defender_policy": setup.policies[1].name,
        "decks": {d.side: d.as_dict() for d in setup.decks},
        "siege_cards": {side: {label: list(members) for label, members in zip(sc.labels, sc.members)}
                        for side, sc in zip((setup.attacker, defender), setup.sides)},
        "money": dict(zip((setup.attacker, defender), setup.money)),
        "max_turns": setup.max_turns, **result,
        "provenance": result_metadata(acres.data, seed, ASSUMED_SIEGE + (f"map.locations.{setup.location.id}.",)),
    }
    if args.json:
        emit_json(payload)
        return 0
    how = f"n = {result['n']}, seed = {seed}" if seed is not None else "exact"
    print(f"{setup.attacker} besiege {setup.location.name}{' (fort)' if setup.fort else ''}: "
          f"marker starts at P = {setup.start}; policy {payload['policy']} / {payload['defender_policy']}; {how}")
    rows = [(k, result[k], *result["ci95"][k]) for k in ("attacker_win", "defender_win", "unresolved")]
    print_table(rows, ["outcome", "probability", "ci95 low", "ci95 high"])
    print(f"\nturns to resolution (mean {result['mean_turns']:.2f}):")
    print_table([(t, p) for t, p in result["turns"].items()], ["turns", "probability"])
    return 0


# ---- final scoring -----------------------------------------------------------------------------

def _final_parser(p: argparse.ArgumentParser) -> None:
    for side in SIDES:
        p.add_argument(f"--{side}", default="", metavar="LOC=village|town,...",
                       help=f"locations the {side} control and their piece")
        p.add_argument(f"--{side}-captured", default="", metavar="cubes=N,discs=N",
                       help=f"enemy pieces the {side} have captured")
    add_overrides(p)
    add_json(p)
    p.set_defaults(handler=final_command)


def _holdings(text: str, side: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in (name_list(text, f"--{side}", "LOCATION=village|town") if text.strip() else []):
        key, sep, piece = item.partition("=")
        if not sep or not key.strip():
            raise UserError(f"--{side} {item!r} is malformed; use LOCATION=village|town[,...]")
        if key.strip() in out:
            raise UserError(f"--{side}: location {key.strip()!r} is given twice")
        out[key.strip()] = piece.strip()
    return out


def final_command(args: argparse.Namespace) -> int:
    acres = load(args.overrides, args.variants)
    control, town = scoring.position(acres, {s: _holdings(getattr(args, s), s) for s in SIDES})
    captured = np.array([[[c.get("cubes", 0), c.get("discs", 0)] for c in
                          (key_counts(getattr(args, f"{s}_captured"), ("cubes", "discs"), "piece", f"--{s}-captured")
                           for s in SIDES)]])
    r = scoring.final_scores(scoring.location_vp(acres), control[None], town[None], captured, acres.rules.scoring)
    payload = {side: {"locations": int(r["location"][0, i]), "captures": int(r["captures"][0, i]),
                      "total": int(r["total"][0, i])} for i, side in enumerate(SIDES)}
    payload["winner"] = SIDES[int(r["winner"][0])]
    payload["provenance"] = result_metadata(acres.data, None, ASSUMED_SCORE)
    if args.json:
        emit_json(payload)
        return 0
    print_table([(s, payload[s]["locations"], payload[s]["captures"], payload[s]["total"]) for s in SIDES],
                ["side", "locations", "captures", "total"])
    print(f"winner: {payload['winner']}")
    return 0
