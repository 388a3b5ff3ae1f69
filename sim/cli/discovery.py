"""`empires odds discovery explore|war` and `empires score discovery trade|colonies`."""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from sim.cli import game_kinds
from sim.cli.common import (add_json, add_mc, add_overrides, add_seed, emit_json, flagged, int_in, key_counts,
                            name_list, print_table)
from sim.core.errors import UserError
from sim.core.metadata import result_metadata
from sim.discovery import discovery, scoring, trade, warfare
from sim.discovery.components import UNIT_TYPES, Components, load_components


def register(groups: dict) -> None:
    kinds = game_kinds(groups, "odds", "discovery", "Age of Discovery expedition and warfare outcomes")
    _explore_parser(kinds.add_parser("explore", help="expedition against a region's token or the deck (AOD-8)"))
    _war_parser(kinds.add_parser("war", help="battle or war losses (AOD-9)"))
    skinds = game_kinds(groups, "score", "discovery", "Age of Discovery scoring")
    _trade_parser(skinds.add_parser("trade", help="best trade-good sets and income (AOD-10)"))
    _colonies_parser(skinds.add_parser("colonies", help="New World region VP from unit counts (AOD-12)"))


def _common(p: argparse.ArgumentParser) -> None:
    add_overrides(p)
    add_json(p)


def _components(args: argparse.Namespace) -> Components:
    return load_components(args.overrides, args.variants)


def _ids(text: str, flag: str) -> list[str]:
    return name_list(text, flag, "ID")


# ---- explore -----------------------------------------------------------------------------------

def _explore_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("--party", required=True, metavar="V|TYPE=N,...",
                   help="party strength V, or its units, e.g. captain=1,soldier=1,colonist=1 (AOD-8.2)")
    p.add_argument("--soldiers", type=int_in(0, 100, "soldiers"), metavar="S",
                   help="soldiers in a party given as a strength (loot per soldier); default 0")
    p.add_argument("--region", metavar="NAME", help="the face-down region explored (any by default)")
    p.add_argument("--unrevealed", metavar="T01,T02,...",
                   help="tokens nobody has seen yet (default all 16); with --cards, the cards in the deck")
    p.add_argument("--known", metavar="TOKEN", help="the region's token, seen in an earlier failed expedition")
    p.add_argument("--cards", action="store_true", help="draw from the discovery deck (all regions discovered)")
    add_mc(p)
    add_seed(p)
    _common(p)
    p.set_defaults(handler=_explore)


def _party(text: str, soldiers: int | None, c: Components) -> tuple[int, int]:
    if text.strip().isdigit():
        strength = int(text)
        return strength, soldiers or 0
    if soldiers is not None:
        raise UserError("--soldiers goes with a numeric --party; a party of units counts its own soldiers")
    if "=" not in text:
        raise UserError(f"--party {text!r} is malformed; use a strength (4) or units (captain=1,soldier=2)")
    return discovery.party_strength(key_counts(text, UNIT_TYPES, "unit type", "--party"), c.units)


def _explore(args: argparse.Namespace) -> int:
    c = _components(args)
    strength, soldiers = _party(args.party, args.soldiers, c)
    region = flagged("--region", c.region, args.region) if args.region is not None else None
    unrevealed = _ids(args.unrevealed, "--unrevealed") if args.unrevealed is not None else None
    if args.cards:
        if args.known or region is not None:
            raise UserError("--cards draws from the deck; --region and --known apply to tokens only")
        pool = discovery.card_pool(c, unrevealed)
    else:
        pool = discovery.token_pool(c, region, unrevealed, args.known)
    odds = discovery.expedition_odds(pool, strength, soldiers, colonist=not args.cards)
    out: dict[str, Any] = {
        "method": "exact", "target": "card" if args.cards else "token",
        "region": region.id if region else None, "party": strength, "soldiers": soldiers,
        "pool": [d.id for d in pool], "p_success": float(odds.p_success),
        "p_success_exact": str(odds.p_success), "expected_money": float(odds.expected_money),
        "expected_vp": float(odds.expected_vp), "expected_colonists": float(odds.expected_colonists),
        "money_pmf": {k: float(v) for k, v in odds.money_pmf.items()},
        "natives_pmf": {k: float(v) for k, v in odds.natives_pmf.items()},
    }
    if args.mc:
        mc = discovery.expedition_mc(pool, strength, soldiers, args.mc, args.seed)
        out.update(method="monte_carlo", n=args.mc, seed=args.seed, p_success=mc["success"]["estimate"],
                   ci95=mc["success"]["ci95"], expected_money=mc["money"]["estimate"],
                   expected_money_ci95=mc["money"]["ci95"], exact=_exact_part(odds))
    out["provenance"] = result_metadata(c.data, args.seed if args.mc else None, assumed_prefixes=["discovery."])
    if args.json:
        emit_json(out)
        return 0
    where = "the discovery deck" if args.cards else (region.name if region else "a face-down region")
    print(f"expedition of strength {strength} ({soldiers} soldiers) against {where}: "
          f"{len(pool)} possible {'cards' if args.cards else 'tokens'}")
    mc = [out["p_success"], out["expected_money"]] if args.mc else ["", ""]
    rows = [("P(success)", float(odds.p_success), mc[0]), ("expected money $", float(odds.expected_money), mc[1]),
            ("expected VP", float(odds.expected_vp), ""), ("expected free colonists", float(odds.expected_colonists), "")]
    print_table(rows, ["quantity", "exact", f"MC n={args.mc}" if args.mc else ""])
    if args.mc:
        print(f"95 % interval of P(success) by MC: [{out['ci95'][0]:.4f}, {out['ci95'][1]:.4f}]")
    return 0


def _exact_part(odds: discovery.ExpeditionOdds) -> dict[str, float]:
    return {"p_success": float(odds.p_success), "expected_money": float(odds.expected_money)}


# ---- war ---------------------------------------------------------------------------------------

def _war_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("--kind", choices=("battle", "war"), default="battle",
                   help="battle: one region, free; war: every region with a soldier, $10 (AOD-9.2/9.3)")
    p.add_argument("--region", action="append", default=[], metavar="NAME",
                   help="a region; repeat with one --attacker and one --defender per region")
    p.add_argument("--attacker", action="append", default=[], metavar="TYPE=N,...",
                   help=f"attacker's units in that region ({', '.join(UNIT_TYPES)})")
    p.add_argument("--defender", action="append", default=[], metavar="TYPE=N,...",
                   help="defender's units in that region")
    p.add_argument("--defender-militia", action="store_true", help="the defender owns the Militia (AOD-9.6)")
    p.add_argument("--attacker-targets", choices=tuple(warfare.TARGETS), default="soldiers-first",
                   help="which defender units the attacker's soldiers kill first")
    p.add_argument("--defender-targets", choices=tuple(warfare.TARGETS), default="soldiers-first",
                   help="which attacker units the defender's soldiers kill first")
    _common(p)
    p.set_defaults(handler=_war)


def _war(args: argparse.Namespace) -> int:
    c = _components(args)
    if not args.region or not (len(args.region) == len(args.attacker) == len(args.defender)):
        raise UserError(f"give one --attacker and one --defender per --region; got {len(args.region)} regions, "
                        f"{len(args.attacker)} attackers, {len(args.defender)} defenders")
    regions = [flagged("--region", c.region, r) for r in args.region]
    if len({r.id for r in regions}) != len(regions):
        raise UserError("a region is named twice; name each region once")
    att = np.array([warfare.as_units(key_counts(a, UNIT_TYPES, "unit type", "--attacker")) for a in args.attacker])
    dfd = np.array([warfare.as_units(key_counts(d, UNIT_TYPES, "unit type", "--defender")) for d in args.defender])
    result = warfare.conflict(args.kind, att, dfd, c.warfare, args.defender_militia,
                              args.attacker_targets, args.defender_targets)
    att_after, dfd_after = result.fight.after(att, dfd)
    rows = []
    for i, region in enumerate(regions):
        rows.append({"region": region.id, "fight": bool(result.fought[i]),
                     "attacker_losses": _named(result.fight.attacker_losses[i]),
                     "defender_losses": _named(result.fight.defender_losses[i]),
                     "attacker_after": _named(att_after[i]), "defender_after": _named(dfd_after[i])})
    out = {"method": "exact", "kind": result.kind, "cost": result.cost, "regions": rows,
           "provenance": result_metadata(c.data, None, assumed_prefixes=["rules.warfare."])}
    if args.json:
        emit_json(out)
        return 0
    print(f"{result.kind}: cost ${result.cost}")
    print_table([(r["region"], "yes" if r["fight"] else "no", _short(r["attacker_losses"]),
                  _short(r["defender_losses"]), _short(r["attacker_after"]), _short(r["defender_after"]))
                 for r in rows], ["region", "fight", "attacker loses", "defender loses", "attacker after",
                                  "defender after"])
    return 0


def _named(vector: np.ndarray) -> dict[str, int]:
    return {name: int(v) for name, v in zip(UNIT_TYPES, vector) if v}


def _short(units: dict[str, int]) -> str:
    return ",".join(f"{k}={v}" for k, v in units.items()) or "-"


# ---- trade -------------------------------------------------------------------------------------

def _trade_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("--goods", required=True, metavar="GOOD=N,...", help="trade goods owned, e.g. sugar=3,fur=1")
    p.add_argument("--ships", type=int_in(0, 100, "ships"), default=0, metavar="K", help="merchant ships owned")
    _common(p)
    p.set_defaults(handler=_trade)


def _trade(args: argparse.Namespace) -> int:
    c = _components(args)
    holding = key_counts(args.goods, c.goods.names, "good", "--goods")
    if not holding:
        raise UserError(f"--goods {args.goods!r} is empty; give GOOD=N[,GOOD=N...] with goods {', '.join(c.goods.names)}")
    income, groups = trade.arrange_one(c.goods, holding, args.ships)
    used = {name: 0 for name in holding}
    ships_used = 0
    for g in groups:
        for token in g.tokens:
            if token == trade.SHIP:
                ships_used += 1
            else:
                used[token] += 1
    out = {"method": "exact", "income": income,
           "groups": [{"tokens": list(g.tokens), "kind": g.kind, "value": g.value} for g in groups],
           "unused": {"goods": {k: v - used[k] for k, v in holding.items() if v > used[k]},
                      "ships": args.ships - ships_used},
           "any_three_requires_distinct": c.goods.sets.any_three_requires_distinct,
           "provenance": result_metadata(c.data, None, assumed_prefixes=["goods."])}
    if args.json:
        emit_json(out)
        return 0
    print(f"income ${income}")
    print_table([(" + ".join(g.tokens), g.kind, g.value) for g in groups], ["set", "kind", "$"])
    print(f"unused: {_short(out['unused']['goods'])}; ships {out['unused']['ships']}")
    return 0


# ---- colonies ----------------------------------------------------------------------------------

def _colonies_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("--counts", action="append", required=True, metavar="COLOUR=N,...",
                   help="units per player in one region, e.g. red=5,blue=3; repeat for more regions")
    _common(p)
    p.set_defaults(handler=_colonies)


def _colonies(args: argparse.Namespace) -> int:
    c = _components(args)
    regions = [key_counts(text, c.colours, "colour", "--counts") for text in args.counts]
    players = [col for col in c.colours if any(col in r for r in regions)]
    if not players:
        raise UserError(f"--counts names no player; use colour=count with colours {', '.join(c.colours)}")
    counts = np.array([[r.get(p, 0) for p in players] for r in regions])
    vp = scoring.colony_vp(counts, c.colonies)
    out = {"method": "exact", "reading": c.colonies.threshold_reading,
           "vp": {p: int(v) for p, v in zip(players, vp.sum(axis=0))},
           "regions": [{p: int(v) for p, v in zip(players, row)} for row in vp],
           "provenance": result_metadata(c.data, None, assumed_prefixes=["rules.colonies."])}
    if args.json:
        emit_json(out)
        return 0
    print(f"colony scoring ({out['reading']} threshold reading)")
    print_table([(p, *counts[:, j].tolist(), *vp[:, j].tolist(), int(vp[:, j].sum())) for j, p in enumerate(players)],
                ["player", *(f"units r{i + 1}" for i in range(len(regions))),
                 *(f"VP r{i + 1}" for i in range(len(regions))), "VP"])
    return 0

