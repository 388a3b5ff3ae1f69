"""`empires odds struggle battle|sea` and `empires score struggle region|unrest`."""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from sim.cli import game_kinds
from sim.cli.common import (add_json, add_mc, add_overrides, add_seed, emit_json, int_in, key_counts,
                            print_table)
from sim.core.errors import UserError, require
from sim.core.metadata import result_metadata
from sim.core.montecarlo import run_blocks
from sim.core.stats import wilson_interval
from sim.struggle import combat, combat_exact, sea, scoring
from sim.struggle.components import Components, load_components

UNITS = int_in(name="units")       # the real limit is the data's (rules.pieces), checked in build_attack
SMALL = int_in(0, 20, "count")
BONUS = int_in(-20, 20, "bonus")
ASSUMED_PREFIXES = ("options.", "rules.combat.", "rules.sea.")


def register(groups: dict) -> None:
    kinds = game_kinds(groups, "odds", "struggle", "Struggle of Empires battle and sea-movement odds")
    _battle_parser(kinds.add_parser("battle", help="one attack (SOE-12): land, naval, or naval then land"))
    _sea_parser(kinds.add_parser("sea", help="sea-movement roll (SOE-11)"))
    skinds = game_kinds(groups, "score", "struggle", "Struggle of Empires scoring")
    _region_parser(skinds.add_parser("region", help="VP of one region from control-marker counts (SOE-16)"))
    _unrest_parser(skinds.add_parser("unrest", help="end-game unrest penalties (SOE-18)"))


# ---- battle ------------------------------------------------------------------------------------

def _battle_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("--attacker-units", type=UNITS, required=True, metavar="A",
                   help="attacker's armies (fleets with --naval)")
    p.add_argument("--defender-units", type=UNITS, metavar="D",
                   help="defender's armies (fleets with --naval); not needed with --neutral")
    p.add_argument("--attacker-bonus", type=BONUS, default=0, metavar="X", help="extra attacker strength")
    p.add_argument("--defender-bonus", type=BONUS, default=0, metavar="Y", help="extra defender strength")
    p.add_argument("--defender-forts", type=UNITS, default=0, metavar="F", help="defending forts (worth 2)")
    p.add_argument("--neutral", type=int_in(None, None, "strength"), metavar="S",
                   help="attack a neutral country token of strength S (SOE-12.14)")
    p.add_argument("--naval", action="store_true",
                   help="a naval battle only (SOE-12.7/12.15): units are fleets")
    p.add_argument("--attacker-fleets", type=UNITS, default=0, metavar="N",
                   help="attacker's fleets in the naval-battle region: adds the naval phase")
    p.add_argument("--defender-fleets", type=UNITS, default=0, metavar="N", help="defender's fleets there")
    p.add_argument("--attacker-avoids-naval", action="store_true", help="the attacker declines the naval battle")
    p.add_argument("--defender-avoids-naval", action="store_true", help="the defender avoids the naval battle")
    p.add_argument("--attacker-training", type=SMALL, default=0, metavar="T", help="attacker's Army Training tiles")
    p.add_argument("--defender-training", type=SMALL, default=0, metavar="T", help="defender's Army Training tiles")
    p.add_argument("--attacker-naval-training", type=SMALL, default=0, metavar="T", help="attacker's Naval Training tiles")
    p.add_argument("--defender-naval-training", type=SMALL, default=0, metavar="T", help="defender's Naval Training tiles")
    p.add_argument("--attacker-alliance", choices=("army", "fleet"), help="attacker uses an alliance tile (+1)")
    p.add_argument("--defender-alliance", choices=("army", "fleet"), help="defender uses an alliance tile (+1)")
    p.add_argument("--attacker-allies", default="", metavar="armies=N,fleets=N", help="units of the attacker's allies")
    p.add_argument("--defender-allies", default="", metavar="armies=N,fleets=N", help="units of the defender's allies")
    p.add_argument("--attacker-reserves", type=SMALL, default=0, metavar="R", help="attacker's Reserves tiles (SOE-20.3)")
    p.add_argument("--defender-reserves", type=SMALL, default=0, metavar="R", help="defender's Reserves tiles")
    p.add_argument("--blockade", choices=("attacker", "defender"), help="that side uses Blockade (b): support +2")
    p.add_argument("--refuse-battle", action="store_true", help="the defender holds Refuse Battle (SOE-20.18)")
    add_mc(p)
    add_seed(p)
    add_overrides(p)
    add_json(p)
    p.set_defaults(handler=battle)


def build_attack(args: argparse.Namespace, comp: Components) -> combat_exact.Attack:
    """Turn the command-line flags into an `Attack`, rejecting impossible set-ups."""
    pieces = comp.data.get("rules.pieces")
    att_allies = key_counts(args.attacker_allies, ("armies", "fleets"), "unit", "--attacker-allies")
    def_allies = key_counts(args.defender_allies, ("armies", "fleets"), "unit", "--defender-allies")
    neutral = -1 if args.neutral is None else args.neutral
    top = comp.rule("combat.neutral_strength_max")
    if args.neutral is not None:
        require(1 <= neutral <= top, f"--neutral {neutral} is out of range; allowed 1..{top}")
        require(not args.naval, "--naval cannot be combined with --neutral: there is never a naval battle "
                                "against a neutral (SOE-12.14)")
        require(args.defender_units is None and args.defender_forts == 0 and args.defender_fleets == 0,
                "--neutral S replaces the defender's units; drop --defender-units/--defender-forts/--defender-fleets")
    else:
        require(args.defender_units is not None, "--defender-units D is required (or --neutral S)")
    d_units = args.defender_units or 0
    own_limit = {"armies": pieces["armies"], "fleets": pieces["fleets"], "forts": pieces["forts"]}
    _limit("--defender-forts", args.defender_forts, own_limit["forts"], "forts")
    if args.naval:
        require(args.defender_forts == 0, "--defender-forts: forts take no part in a naval battle")
        require(args.attacker_fleets == 0 and args.defender_fleets == 0,
                "--naval counts fleets with --attacker-units/--defender-units; drop --attacker-fleets/--defender-fleets")
        _limit("--attacker-units", args.attacker_units, own_limit["fleets"], "fleets")
        _limit("--defender-units", d_units, own_limit["fleets"], "fleets")
        require(args.attacker_units >= 1, "--attacker-units 0: a naval attack needs at least one fleet (SOE-12.2)")
        require(d_units >= 1, "--defender-units 0: the defender has no fleet, so no naval battle is fought (SOE-12.7.2)")
        return combat_exact.Attack(
            att_armies=0, att_fleets=args.attacker_units, def_fleets=d_units, naval_phase=True,
            att_ally_fleets=att_allies.get("fleets", 0), def_ally_fleets=def_allies.get("fleets", 0),
            att_naval_training=args.attacker_naval_training, def_naval_training=args.defender_naval_training,
            att_alliance_fleet=int(args.attacker_alliance == "fleet"), def_alliance_fleet=int(args.defender_alliance == "fleet"),
            att_naval_bonus=args.attacker_bonus, def_naval_bonus=args.defender_bonus,
            att_reserves=args.attacker_reserves, def_reserves=args.defender_reserves, def_refuse=args.refuse_battle)
    _limit("--attacker-units", args.attacker_units, own_limit["armies"], "armies")
    require(args.attacker_units >= 1, "--attacker-units 0: a land attack needs at least one own army (SOE-12.2)")
    _limit("--defender-units", d_units, own_limit["armies"], "armies")
    _limit("--attacker-fleets", args.attacker_fleets, own_limit["fleets"], "fleets")
    _limit("--defender-fleets", args.defender_fleets, own_limit["fleets"], "fleets")
    naval_phase = bool(args.attacker_fleets or args.defender_fleets or att_allies.get("fleets")
                       or def_allies.get("fleets") or args.blockade)
    return combat_exact.Attack(
        att_armies=args.attacker_units, def_armies=d_units, def_forts=args.defender_forts,
        att_fleets=args.attacker_fleets, def_fleets=args.defender_fleets,
        att_ally_armies=att_allies.get("armies", 0), att_ally_fleets=att_allies.get("fleets", 0),
        def_ally_armies=def_allies.get("armies", 0), def_ally_fleets=def_allies.get("fleets", 0),
        att_army_training=args.attacker_training, def_army_training=args.defender_training,
        att_naval_training=args.attacker_naval_training, def_naval_training=args.defender_naval_training,
        att_alliance_army=int(args.attacker_alliance == "army"), att_alliance_fleet=int(args.attacker_alliance == "fleet"),
        def_alliance_army=int(args.defender_alliance == "army"), def_alliance_fleet=int(args.defender_alliance == "fleet"),
        att_bonus=args.attacker_bonus, def_bonus=args.defender_bonus, naval_phase=naval_phase,
        att_wants_naval=not args.attacker_avoids_naval, def_wants_naval=not args.defender_avoids_naval,
        att_blockade=args.blockade == "attacker", def_blockade=args.blockade == "defender",
        neutral=neutral, att_reserves=args.attacker_reserves, def_reserves=args.defender_reserves,
        def_refuse=args.refuse_battle)


def _limit(flag: str, value: int, limit: int, what: str) -> None:
    require(0 <= value <= limit, f"{flag} {value} is out of range; a power has {limit} {what} "
                            f"(rules.pieces.{what}; allowed 0..{limit})")


def battle(args: argparse.Namespace) -> int:
    comp = load_components(args.overrides, args.variants)
    attack = build_attack(args, comp)
    rules = comp.combat
    result: dict[str, Any]
    if args.mc is None:
        odds = combat_exact.attack_odds(attack, rules)
        result = {"method": "exact", "attacker_win": odds.attacker_win, "tie": odds.tie,
                  "defender_win": odds.defender_win,
                  "attacker_losses": {str(k): v for k, v in odds.losses("att").items()},
                  "defender_losses": {str(k): v for k, v in odds.losses("def").items()},
                  "control_change": odds.control_change}
    else:
        result = battle_monte_carlo(attack, rules, args.mc, args.seed)
    meta = result_metadata(comp.data, args.seed if args.mc else None, ASSUMED_PREFIXES)
    if args.json:
        emit_json({**result, "provenance": meta})
        return 0
    _print_battle(result)
    return 0


def battle_monte_carlo(attack: combat_exact.Attack, rules, n: int, seed: int) -> dict[str, Any]:
    """Bulk estimate of the same quantities as the exact odds, block-seeded (`run_blocks`)."""
    inputs = attack.inputs()

    def kernel(rng: np.random.Generator, size: int) -> dict[str, np.ndarray]:
        res = combat.resolve_attacks(rng, attack.att_armies, rules=rules, n=size, **inputs)
        return {"winner": np.bincount(res.winner.astype(np.int64) + 2, minlength=4),
                "att": np.bincount(res.att_units_lost), "def": np.bincount(res.def_units_lost),
                "control": np.bincount(res.control_change.astype(np.int64), minlength=2)}

    counts = run_blocks(kernel, n, seed, "struggle-battle")

    def est(k: int) -> tuple[float, list[float]]:
        lo, hi = wilson_interval(k, n)
        return k / n, [lo, hi]

    probs = {"attacker_win": est(int(counts["winner"][3])), "tie": est(int(counts["winner"][2])),
             "defender_win": est(int(counts["winner"][1]))}
    losses = {side: {str(i): est(int(c)) for i, c in enumerate(counts[key]) if c}
              for side, key in (("attacker_losses", "att"), ("defender_losses", "def"))}
    control = est(int(counts["control"][1]) if len(counts["control"]) > 1 else 0)
    result: dict[str, Any] = {"method": "monte_carlo", **{k: v[0] for k, v in probs.items()},
                              **{side: {k: v[0] for k, v in law.items()} for side, law in losses.items()},
                              "control_change": control[0], "n": n, "seed": seed}
    result["ci95"] = {**{k: v[1] for k, v in probs.items()},
                      **{side: {k: v[1] for k, v in law.items()} for side, law in losses.items()},
                      "control_change": control[1]}
    return result


def _print_battle(result: dict[str, Any]) -> None:
    ci = result.get("ci95", {})
    head = ["outcome", "probability"] + (["95% interval"] if ci else [])

    def row(name: str, p: float, interval=None) -> list:
        return [name, p] + ([f"[{interval[0]:.4f}, {interval[1]:.4f}]"] if ci else [])

    rows = [row(k.replace("_", " "), result[k], ci.get(k)) for k in
            ("attacker_win", "tie", "defender_win", "control_change")]
    for side in ("attacker_losses", "defender_losses"):
        for lost, p in result[side].items():
            rows.append(row(f"{side.split('_')[0]} loses {lost}", p, ci.get(side, {}).get(lost)))
    method = result["method"] + (f" (n={result['n']}, seed={result['seed']})" if ci else "")
    print(f"Struggle of Empires attack odds -- {method}")
    print_table(rows, head)


# ---- sea ---------------------------------------------------------------------------------------

def _sea_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("--navigation", action="store_true", help="the mover owns Navigation (+2 on the re-roll)")
    p.add_argument("--units", type=int_in(1, 100, "units"), metavar="K", help="K units moved together")
    add_overrides(p)
    add_json(p)
    p.set_defaults(handler=sea_odds)


def sea_odds(args: argparse.Namespace) -> int:
    comp = load_components(args.overrides, args.variants)
    one = sea.unit_odds(args.navigation, comp.sea)
    result: dict[str, Any] = {name: float(p) for name, p in one.items()}
    result["fractions"] = {name: str(p) for name, p in one.items()}
    if args.units is not None:
        result["arrivals"] = {str(k): float(p) for k, p in sea.arrivals_odds(args.units, args.navigation, comp.sea).items()}
    if args.json:
        emit_json({**result, "provenance": result_metadata(comp.data, None, ("rules.sea.",))})
        return 0
    print(f"Sea movement roll (SOE-11){' with Navigation' if args.navigation else ''}")
    print_table([(n, result[n], result["fractions"][n]) for n in sea.OUTCOMES], ["one unit", "probability", "exact"])
    if args.units is not None:
        print()
        print_table([(k, p) for k, p in result["arrivals"].items()], [f"of {args.units} arrive", "probability"])
    return 0


# ---- scoring -----------------------------------------------------------------------------------

def _region_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("--values", help="place values, e.g. 8,5,3 (default: those of --region)")
    p.add_argument("--region", help="a region key whose data values (and spaces, SOE-1.4.5) to use, e.g. german_states")
    p.add_argument("--influence", required=True, metavar="P=N,...", help="control markers per player, e.g. GB=3,FR=3")
    add_overrides(p)
    add_json(p)
    p.set_defaults(handler=score_region)


def score_region(args: argparse.Namespace) -> int:
    comp = load_components(args.overrides, args.variants)
    if args.values is not None:
        values = _int_list(args.values, "--values")
        require(1 <= len(values) <= 3, f"--values {args.values!r}: give 1 to 3 place values (SOE-16.1)")
    else:
        require(args.region is not None, "give --values V1,V2[,V3] or --region NAME")
        if args.region not in comp.regions:
            raise UserError(f"--region {args.region!r} is unknown; allowed: {', '.join(comp.regions)}")
        values = list(comp.regions[args.region].vp)
    influence = key_counts(args.influence, what="player", flag="--influence")
    require(bool(influence), "--influence is empty; give P=N,... e.g. GB=3,FR=3")
    if args.region is not None:
        _check_spaces(comp, args.region, influence)
    players = list(influence)
    vp = scoring.region_vp(np.array([list(influence.values())]), values)[0]
    result = {"values": values, "influence": influence, "vp": {p: int(v) for p, v in zip(players, vp)}}
    if args.json:
        emit_json({**result, "provenance": result_metadata(comp.data, None, ("regions.",))})
        return 0
    print(f"Region scoring (SOE-16), values {'/'.join(map(str, values))}")
    print_table([(p, influence[p], result["vp"][p]) for p in players], ["player", "markers", "VP"])
    return 0


def _check_spaces(comp: Components, region: str, influence: dict[str, int]) -> None:
    """SOE-1.4.5: one control marker per country token's space, so a region holds at most that many."""
    if region not in comp.regions:
        raise UserError(f"--region {region!r} is unknown; allowed: {', '.join(comp.regions)}")
    spaces, total = comp.regions[region].spaces, sum(influence.values())
    require(total <= spaces, f"--influence: {total} control markers in {region}, which has {spaces} spaces "
                             f"(one per country token, SOE-1.4.5); allowed at most {spaces} in all")


def _unrest_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("--unrest", required=True, metavar="P=N,...", help="unrest per player, e.g. GB=21,FR=9")
    p.add_argument("--vp", metavar="P=N,...", help="VP before the reveal, to show final VP")
    add_overrides(p)
    add_json(p)
    p.set_defaults(handler=score_unrest)


def score_unrest(args: argparse.Namespace) -> int:
    comp = load_components(args.overrides, args.variants)
    unrest = key_counts(args.unrest, what="player", flag="--unrest")
    require(bool(unrest), "--unrest is empty; give P=N,... e.g. GB=21,FR=9")
    players = list(unrest)
    threshold = comp.rule("end.revolution_unrest")
    penalties = comp.rule("end.unrest_penalties")
    at_zero = comp.option("unrest_penalty_at_zero")
    revolution, penalty = scoring.unrest_penalties(np.array([list(unrest.values())]), threshold, penalties, at_zero)
    result: dict[str, Any] = {"penalty": {p: -int(v) for p, v in zip(players, penalty[0])},
                              "revolution": {p: bool(r) for p, r in zip(players, revolution[0])}}
    if args.vp is not None:
        vp = key_counts(args.vp, players, "player", "--vp")
        require(set(vp) == set(players), "--vp must give a value for every player of --unrest")
        final = scoring.final_vp(np.array([[vp[p] for p in players]]), np.array([list(unrest.values())]),
                                 threshold, penalties, at_zero)[0]
        result["final_vp"] = {p: int(v) for p, v in zip(players, final)}
    if args.json:
        emit_json({**result, "provenance": result_metadata(comp.data, None, ("rules.end.", "options.unrest_penalty_at_zero"))})
        return 0
    print(f"End-game unrest (SOE-18): revolution at {threshold}+, penalties {penalties}")
    headers = ["player", "unrest", "revolution", "penalty"] + (["final VP"] if "final_vp" in result else [])
    print_table([[p, unrest[p], "yes" if result["revolution"][p] else "", result["penalty"][p]]
                 + ([result["final_vp"][p]] if "final_vp" in result else []) for p in players], headers)
    return 0


def _int_list(text: str, flag: str) -> list[int]:
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        raise UserError(f"{flag} {text!r} is malformed; use integers separated by commas, e.g. 8,5,3")
    require(all(v >= 0 for v in values), f"{flag} {text!r}: values must be >= 0")
    return values
