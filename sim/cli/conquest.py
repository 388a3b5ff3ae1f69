"""`empires odds conquest battle|naval`: Conquest of the Empire land and naval battle odds;
`empires score conquest prices`: the price list under inflation (COE-20.2, COE-21)."""

from __future__ import annotations

import argparse
from typing import Any

from sim.cli import game_kinds
from sim.cli.common import (add_json, add_mc, add_overrides, add_seed, emit_json, flagged, int_in, key_counts, name_list,
                            print_table, real_in)
from sim.conquest.combat import ALIASES, FORMATION_RULES, LOSS_RULES, MAX_LEADERS, Army, LandBattle, Tactics
from sim.conquest.components import Components, load_components
from sim.conquest.economy import load_economy, price_list
from sim.conquest.land_bulk import simulate_land
from sim.conquest.land_exact import LandOdds, solve_land
from sim.conquest.naval import Fleet, NavalOdds, check_capacity, simulate_naval, solve_naval
from sim.conquest.policy import Objective, RetreatPolicy
from sim.core.errors import UserError
from sim.core.metadata import result_metadata

ASSUMED_PREFIXES = ("options.",)
LEADERS = int_in(name="leaders")    # the real limit is the data's (units.leaders), checked in _army
MAX_UNITS = 200           # keeps a Monte Carlo battle bounded whatever --set raises the limits to
MAX_GALLEYS = 64          # keeps the exact naval solver bounded whatever --set raises the limit to


def register(groups: dict) -> None:
    kinds = game_kinds(groups, "odds", "conquest", "Conquest of the Empire land and naval battle odds")
    _battle_parser(kinds.add_parser("battle", help="a land battle (COE-14, COE-16), exact or --mc N"))
    _naval_parser(kinds.add_parser("naval", help="a naval battle (COE-15), exact or --mc N"))
    skinds = game_kinds(groups, "score", "conquest", "Conquest of the Empire prices and inflation")
    _prices_parser(skinds.add_parser("prices", help="the price list after 0, 1 or 2 inflations (COE-20.2, COE-21)"))


def _battle_parser(p: argparse.ArgumentParser) -> None:
    units = ",".join(ALIASES)
    p.add_argument("--attacker", required=True, metavar="TYPE=N,...", help=f"attacker's land units ({units})")
    p.add_argument("--defender", required=True, metavar="TYPE=N,...", help="defender's land units")
    p.add_argument("--attacker-leaders", type=LEADERS, default=1, metavar="L",
                   help="attacker's Caesar and Generals present (default 1: a legion moves with a leader, COE-5.2)")
    p.add_argument("--defender-leaders", type=LEADERS, default=0, metavar="L",
                   help="defender's Caesar and Generals present (default 0)")
    p.add_argument("--fortified", action="store_true",
                   help="the defender holds a fortified City in the province (COE-14.7)")
    p.add_argument("--policy", default="fight", metavar="P",
                   help="retreat policy of both sides: fight | optimal | retreat-below=K (default fight)")
    p.add_argument("--attacker-policy", metavar="P", help="the attacker's policy, overriding --policy")
    p.add_argument("--defender-policy", metavar="P", help="the defender's policy, overriding --policy")
    p.add_argument("--unit-weight", type=real_in(name="weight"), default=0.0, metavar="W",
                   help="optimal policy: worth of one talent of surviving units, province = 1 (default 0)")
    p.add_argument("--leader-weight", type=real_in(name="weight"), default=0.0, metavar="W",
                   help="optimal policy: worth of one captured leader, province = 1 (default 0)")
    p.add_argument("--formation", choices=FORMATION_RULES, default="max_hits",
                   help="how formations are chosen (COE-14.1, default max_hits)")
    p.add_argument("--losses", choices=LOSS_RULES, default="max_hits",
                   help="which formation units take the hits (COE-14.4): keep the strongest next "
                        "formation (max_hits, default) or strictly in --loss-order")
    p.add_argument("--loss-order", default="infantry,cavalry,catapult", metavar="T1,T2,T3",
                   help="loss order, cheapest first by default; breaks ties of max_hits")
    p.add_argument("--attacker-cannot-retreat", action="store_true",
                   help="no adjacent province free of enemies for the attacker (COE-16.4)")
    p.add_argument("--defender-cannot-retreat", action="store_true",
                   help="no adjacent province free of enemies for the defender (COE-16.4)")
    p.add_argument("--show-policy", action="store_true",
                   help="list the reachable states where a side retreats under the chosen policies")
    add_mc(p)
    add_seed(p)
    add_overrides(p)
    add_json(p)
    p.set_defaults(handler=battle)


def _army(text: str, leaders: int, side: str, comps: Components) -> Army:
    """COE-2.4: one side is one colour, so its pieces stay within that colour's supply."""
    most = min(sum(int(comps.data.get(f"units.leaders.{kind}")) for kind in ("caesars", "generals")), MAX_LEADERS)
    if not 0 <= leaders <= most:
        raise UserError(f"--{side}-leaders {leaders} is out of range; a colour has {most} leaders, one Caesar "
                        f"and Generals (COE-2.4), allowed 0..{most} (inherited Generals, COE-A27: "
                        f"--set units.leaders.generals=N)")
    counts = key_counts(text, ALIASES, "unit", f"--{side}")
    army = Army.from_counts(counts, leaders)
    for unit in ("infantry", "cavalry", "catapult"):
        n, limit = getattr(army, unit), min(comps.units[unit].limit, MAX_UNITS)
        if n > limit:
            raise UserError(f"--{side} {unit}={n} is out of range; a colour has {limit} {unit} (COE-2.4), "
                            f"allowed 0..{limit} (inherited pieces, COE-25.2: --set units.{unit}.limit=N)")
    return army


def build_battle(args: argparse.Namespace, comps: Components) -> tuple[LandBattle, RetreatPolicy, RetreatPolicy,
                                                                       Tactics, Objective]:
    """Turn the flags into a battle, both policies, tactics and the objective."""
    battle = LandBattle(_army(args.attacker, args.attacker_leaders, "attacker", comps),
                        _army(args.defender, args.defender_leaders, "defender", comps), fortified=args.fortified,
                        attacker_can_retreat=not args.attacker_cannot_retreat,
                        defender_can_retreat=not args.defender_cannot_retreat)
    a_pol = _policy(args, "attacker")
    d_pol = _policy(args, "defender")
    order = tuple(ALIASES.get(t, t) for t in name_list(args.loss_order, "--loss-order", "TYPE", tuple(ALIASES)))
    return battle, a_pol, d_pol, Tactics(args.formation, order, args.losses), Objective(args.unit_weight, args.leader_weight)


def _policy(args: argparse.Namespace, side: str) -> RetreatPolicy:
    """A side's retreat policy: its own flag if given (even blank: refused), else --policy."""
    own = getattr(args, f"{side}_policy")
    flag, text = (f"--{side}-policy", own) if own is not None else ("--policy", args.policy)
    return flagged(flag, RetreatPolicy.parse, text)


def battle(args: argparse.Namespace) -> int:
    comps = load_components(args.overrides, args.variants)
    fight, a_pol, d_pol, tactics, objective = build_battle(args, comps)
    policy_rows = None
    if args.mc is None or args.show_policy:
        sol = solve_land(fight, comps, a_pol, d_pol, tactics, objective)
        odds: LandOdds = sol.odds
        policy_rows = sol.policy_rows() if args.show_policy else None
    if args.mc is not None:
        odds = simulate_land(fight, comps, args.mc, args.seed, a_pol, d_pol, tactics, objective)
    result = land_result(odds)
    result["policy"] = {"attacker": str(a_pol), "defender": str(d_pol), "formation": tactics.formation,
                        "losses": tactics.losses,
                        "loss_order": list(tactics.loss_order),
                        "objective": {"unit_weight": objective.unit_weight,
                                      "leader_weight": objective.leader_weight}}
    if policy_rows is not None:
        result["retreat_states"] = policy_rows
    meta = result_metadata(comps.data, args.seed if args.mc else None, ASSUMED_PREFIXES)
    if args.json:
        emit_json({**result, "provenance": meta})
        return 0
    _print(f"Conquest of the Empire land battle -- {_method(result)}", result,
           ("attacker_win", "defender_win", "both_destroyed", "attacker_retreated", "defender_retreated"),
           ("attacker_survivors", "defender_survivors", "attacker_leaders_captured", "defender_leaders_captured"))
    print(f"expected rounds: {result['expected_rounds']:.4f}; policy: attacker {a_pol}, defender {d_pol}")
    if policy_rows is not None:
        _print_policy(policy_rows)
    return 0


def land_result(odds: LandOdds) -> dict[str, Any]:
    """The JSON keys of a land battle result (survivor counts as strings)."""
    out: dict[str, Any] = {"method": odds.method}
    for key in ("attacker_win", "defender_win", "both_destroyed", "attacker_retreated", "defender_retreated"):
        out[key] = getattr(odds, key)
    for key in ("attacker_survivors", "defender_survivors", "attacker_leaders_captured",
                "defender_leaders_captured"):
        out[key] = {str(k): p for k, p in sorted(getattr(odds, key).items())}
    out["expected_rounds"] = odds.expected_rounds
    _add_mc(out, odds.extra)
    return out


def _add_mc(out: dict[str, Any], extra: dict) -> None:
    """n, seed and ci95 (nested like the probabilities) for Monte Carlo results."""
    if not extra:
        return
    out["n"], out["seed"] = extra["n"], extra["seed"]
    ci: dict[str, Any] = {}
    for key, interval in extra["ci95"].items():
        name, _, count = key.partition(".")
        if count:
            ci.setdefault(name, {})[count] = interval
        else:
            ci[name] = interval
    out["ci95"] = ci


def _naval_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("--attacker-galleys", type=int_in(name="galleys"), required=True, metavar="A",
                   help="attacker's galleys (1 up to a colour's supply, units.galley.limit)")
    p.add_argument("--defender-galleys", type=int_in(name="galleys"), required=True, metavar="D",
                   help="defender's galleys")
    p.add_argument("--attacker-carried", default="", metavar="U[+L],...",
                   help="per loaded attacker galley: land units aboard, +leaders (e.g. 4+1,3)")
    p.add_argument("--defender-carried", default="", metavar="U[+L],...", help="the same for the defender")
    add_mc(p)
    add_seed(p)
    add_overrides(p)
    add_json(p)
    p.set_defaults(handler=naval)


def parse_cargo(text: str, flag: str) -> tuple[tuple[int, int], ...]:
    """`4+1,3` -> ((4, 1), (3, 0)): land units and leaders aboard each loaded galley."""
    out = []
    for item in (name_list(text, flag, "UNITS[+LEADERS]") if text.strip() else []):
        units, _, leaders = item.partition("+")
        try:
            u, ld = int(units), int(leaders or 0)
        except ValueError:
            raise UserError(f"{flag} {item!r} is malformed; use UNITS[+LEADERS] per galley, e.g. 4+1,3")
        if u < 0 or ld < 0:
            raise UserError(f"{flag} {item!r}: counts must be >= 0")
        out.append((u, ld))
    return tuple(out)


def naval(args: argparse.Namespace) -> int:
    comps = load_components(args.overrides, args.variants)
    most = min(comps.units["galley"].limit, MAX_GALLEYS)
    for side in ("attacker", "defender"):
        galleys = getattr(args, f"{side}_galleys")
        if not 1 <= galleys <= most:
            raise UserError(f"--{side}-galleys {galleys} is out of range; a colour has {most} galleys (COE-2.4), "
                            f"allowed 1..{most}")
    att = Fleet(args.attacker_galleys, parse_cargo(args.attacker_carried, "--attacker-carried"))
    dfn = Fleet(args.defender_galleys, parse_cargo(args.defender_carried, "--defender-carried"))
    check_capacity(att, comps)
    check_capacity(dfn, comps)
    odds: NavalOdds = (solve_naval(att, dfn, comps) if args.mc is None
                       else simulate_naval(att, dfn, comps, args.mc, args.seed))
    scalars = ("attacker_win", "defender_win", "both_sunk", "undecided")
    laws = ("attacker_galleys", "defender_galleys", "attacker_units_lost", "defender_units_lost",
            "attacker_leaders_lost", "defender_leaders_lost")
    result: dict[str, Any] = {"method": odds.method, **{k: getattr(odds, k) for k in scalars}}
    for key in laws:
        result[key] = {str(k): p for k, p in getattr(odds, key).items()}
    result["expected_rounds"] = odds.expected_rounds
    result["lost_leaders_are"] = comps.options.leaders_on_sunk_galley  # COE-A20
    _add_mc(result, odds.extra)
    meta = result_metadata(comps.data, args.seed if args.mc else None, ASSUMED_PREFIXES)
    if args.json:
        emit_json({**result, "provenance": meta})
        return 0
    _print(f"Conquest of the Empire naval battle -- {_method(result)}", result, scalars, laws)
    print(f"expected rounds: {result['expected_rounds']:.4f}")
    return 0


def _method(result: dict[str, Any]) -> str:
    return result["method"] + (f" (n={result['n']}, seed={result['seed']})" if "n" in result else "")


def _print(title: str, result: dict[str, Any], scalars, laws) -> None:
    ci = result.get("ci95", {})

    def row(name: str, p: float, interval) -> list:
        return [name, p] + ([f"[{interval[0]:.4f}, {interval[1]:.4f}]"] if ci else [])

    rows = [row(k.replace("_", " "), result[k], ci.get(k)) for k in scalars]
    for key in laws:
        for count, p in result[key].items():
            rows.append(row(f"{key.replace('_', ' ')} = {count}", p, ci.get(key, {}).get(count)))
    print(title)
    print_table(rows, ["outcome", "probability"] + (["95% interval"] if ci else []))


def _print_policy(rows: list[dict]) -> None:
    if not rows:
        print("retreat policy: no side ever retreats in a reachable state (fight to the end)")
        return

    def units(u: dict[str, int]) -> str:
        return "/".join(str(u[k]) for k in ("infantry", "cavalry", "catapult"))

    print("retreat states (units as infantry/cavalry/catapult; reach = P(deciding there)):")
    print_table([[units(r["attacker"]), units(r["defender"]), r["retreats"], r["reach"]] for r in rows],
                ["attacker", "defender", "retreats", "reach"])


def _prices_parser(p: argparse.ArgumentParser) -> None:
    which = p.add_mutually_exclusive_group()
    which.add_argument("--inflation", type=int_in(name="inflation"), metavar="L",
                       help="inflations so far: 0 (base), 1 (x2), 2 (x3 of base) (COE-21; default 0)")
    which.add_argument("--multiplier", type=int_in(name="multiplier"), metavar="M",
                       help="the multiplier itself: 1, or one of economy.inflation.inflation_multipliers")
    add_overrides(p)
    add_json(p)
    p.set_defaults(handler=prices)


def prices(args: argparse.Namespace) -> int:
    """COE-20.2 / COE-21.4: every item's base price and its price under the chosen multiplier."""
    comps = load_components(args.overrides, args.variants)
    economy = load_economy(comps)
    rules = economy.inflation
    allowed = [rules.multiplier(level) for level in rules.levels]
    if args.multiplier is not None:
        if args.multiplier not in allowed:
            raise UserError(f"--multiplier {args.multiplier} is not allowed; choose one of "
                            f"{', '.join(map(str, allowed))} (COE-21)")
        multiplier = args.multiplier
        level = allowed.index(multiplier)
    else:
        level = args.inflation or 0
        if level not in rules.levels:
            raise UserError(f"--inflation {level} is out of range; allowed 0..{rules.levels[-1]} (COE-21)")
        multiplier = rules.multiplier(level)
    listed = price_list(economy, multiplier)
    result = {"inflation": level, "multiplier": multiplier,
              "prices": {item: {"base": economy.base[item], "price": listed[item]} for item in listed},
              "inflation_rules": {"measure": rules.measure, "thresholds": list(rules.thresholds),
                                  "multipliers": list(rules.multipliers), "effective": rules.effective}}
    meta = result_metadata(comps.data, None, ("economy.",))
    if args.json:
        emit_json({**result, "provenance": meta})
        return 0
    print(f"Conquest of the Empire price list after {level} inflation(s): x{multiplier} of base (COE-20.2, COE-21)")
    print_table([[item.replace("_", " "), row["base"], row["price"]] for item, row in result["prices"].items()],
                ["item", "base", "price"])
    print(f"inflation: {rules.measure} reaching {', '.join(map(str, rules.thresholds))} -> "
          f"x{', x'.join(map(str, rules.multipliers))} of base, from the trigger player's next turn")
    return 0
