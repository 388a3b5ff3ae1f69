"""A Few Acres of Snow as a game module (contract: sim.core.contract): `INFO`, `load_data`,
`play_games`, the asset interface (`INTERVENTIONS`, `GRANTS`, `asset_costs`), `account` for the
replay, `verify` / `verify_report` for `empires replay --verify` (sim.acres.verify) and `CHECKS` (sim.acres.checks) for the conformance suite.

Exactly two seats; the powers are the sides `british` and `french` (AFS-0.4), in either seat
order: the British always move first (AFS-5.1.1) whoever sits in seat 0, and a side's strategy
plays that side. `play_games` plays game `game_indices[k]` with `seatings[k]` in lockstep
batches; game k uses only the streams `(root_seed, game_indices[k], purpose)`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from sim.acres import TITLE, audit
from sim.acres import verify as _verify
from sim.acres.audit import audit_records
from sim.acres.components import SIDES, Acres, from_data, load
from sim.acres.engine import NAME, Engine
from sim.acres.interventions import GRANTS, INTERVENTIONS, check_spec
from sim.acres.interventions import asset_costs as _asset_costs
from sim.acres.players import RandomPlayer, Roster, SeatPlayer, strategies
from sim.acres.replay import account
from sim.acres.rulebook import Rulebook, rulebook
from sim.core.contract import GameInfo
from sim.core.data import GameData, load_game_data
from sim.core.lockstep import play_in_batches, results_table
from sim.core.seating import RESULT_COLUMNS, Seating

verify, verify_report = _verify.verify, _verify.report       # `empires replay --verify`
STRATEGIES = ("random",) + strategies()
INFO = GameInfo(
    name=NAME, title=TITLE, rule_prefix="AFS", powers=SIDES, min_players=2, max_players=2,   # AFS-0: two players
    strategies=STRATEGIES, rules_edition=load().data.rules_edition,
    assets="cards and locations", vp_label="VP (1 or 0 after an immediate win)",   # AFS-15.1
    turn_order="the British always move first, whoever sits in seat 0 (AFS-5.1.1)",
    engine_version=19,             # bump with every deliberate change of rules, players or logs
                                   # (2: siege-odds settings as strategy parameters, coarser estimates;
                                   # 3: French Militia blocks raids, AFS-9.6;
                                   # 4: scripted sieges and raids log their forecast, p_win;
                                   # 5: calibrated forecasts: sieges from the known position, raids
                                   # with kept blockers; sieges fed and rescued;
                                   # 6: the hammer stores a siege hand in the reserve, raider and
                                   # fortress recruit more economy cards (Home Support), raw siege estimates;
                                   # 7: AFS-7.2.2, an empire card develops no village (it stood for the
                                   # last location, Michillimackinac);
                                   # 8: Scen14, a besieged location's card given back ends the siege
                                   # as the attacker's win without a capture;
                                   # 9: a raid's chance of going unblocked counts only the unseen
                                   # cards of the opponent's last shuffle, and his card for the
                                   # target as one of the blockers;
                                   # 10: the opponent's hand read from his last shuffle for every
                                   # chance of holding a card, an ambush's chance joint, and logged;
                                   # 11: the siege estimate has each side cycle dead cards as its
                                   # table says, odds_cycle / foe_cycle: balanced and raider none;
                                   # 12: Scen0 charges no coin for the setup's first shuffle, AFS-4;
                                   # options for the alternatives of AFS-18 A9, A17, A19 and A41;
                                   # 13: option free_discard for A36's once-a-turn reading;
                                   # 14: Home Support recruited, also at max_deck, and a recruit's
                                   # price weighed as money is needed;
                                   # 15: a discard for want of anything worth doing logged idle;
                                   # 16: recruit_decay, a recruit weighed down by the cards of its
                                   # class in the deck: settler, fortress and balanced;
                                   # 17: settler and fortress feed their own sieges as
                                   # their forecasts assume, reinforce_attack 2 -> 7.5;
                                   # 18: fortress and balanced thin a full deck with the
                                   # Governor, prune 0 -> 0.5;
                                   # 19: the hammer's siege forecast has the defender ambush
                                   # (chance 0.3) and commit only while short, foe_ambush, foe_margin)
    lineup=("hammer", "raider"))
BATCH = 256
IMMEDIATE = ("capital taken", "capital settled", "fort duquesne town")   # AFS-15.1 (A25, Scen2): no scoring
END_REASONS = IMMEDIATE + ("captures", "cubes out", "discs out", "turn limit")   # every `end_reason` (AFS-15)
EXTRA_COLUMNS = ("score", "side_first", "end_reason", "turns", "location_vp", "captured_vp", "money", "sieges", "cards")
CHECKS = "sim.acres.checks"
__all__ = ["CHECKS", "GRANTS", "INFO", "INTERVENTIONS", "account", "asset_costs", "audit_item_powers", "audit_items", "audit_records",
           "load_data", "play_games", "verify", "verify_report"]


def strategy_sides(data=None) -> dict[str, str]:
    """The strategies bound to a side (their table's `side`): designs and `empires play` seat
    them on that side whatever the seat (sim.core.seating.bind_sides)."""
    book = rulebook_of(data)
    return {name: side for name in book.acres.data.tree.get("strategies", {})
            if (side := book.side_of(name)) is not None}


def make_player(strategy: str, engine: Engine, g: int, side: int, rng) -> SeatPlayer:
    """The player of a strategy name for `side`: the random-legal baseline, or a scripted table."""
    if strategy == "random":
        return RandomPlayer(engine, g, side, rng)
    from sim.acres.scripted import ScriptedPlayer
    return ScriptedPlayer(engine, g, side, rng, engine.acres.data.tree["strategies"][strategy])


ROSTER = Roster(make=make_player)


def load_data(overrides=(), variants=(), strategies=()) -> GameData:
    """The component data after `--set` / `--variant` (sim/acres/data/*.toml)."""
    return load_game_data(NAME, overrides, variants, strategies)


_BUILT: dict[tuple, Rulebook] = {}


def rulebook_of(data: GameData | Acres | Rulebook | None) -> Rulebook:
    """The resolved rules of the default data (None), loaded data, components or a rulebook."""
    if isinstance(data, Rulebook):
        return data
    acres = load() if data is None else data if isinstance(data, Acres) else None
    key = ("default",) if data is None else (data.hash, tuple(sorted(map(str, data.overrides.items())))) \
        if isinstance(data, GameData) else (id(data),)
    book = _BUILT.get(key)
    if book is None:
        book = _BUILT[key] = rulebook(acres if acres is not None else from_data(data))
    return book


def asset_costs(data=None) -> dict[str, dict[str, float]]:
    """The asset interface: every recruitable card and neutral location, its money cost."""
    return _asset_costs(rulebook_of(data).tables)


def audit_items(data=None) -> list[str]:
    """Every item the player audit looks for (each card and neutral location, each action kind)."""
    return audit.audit_items(list(asset_costs(data)))


def audit_item_powers(data=None) -> dict[str, tuple[str, ...]]:
    """The sides that can choose each audit item under these rules (sim.core.audit)."""
    return audit.audit_item_powers(rulebook_of(data))


def check_seating(seating: Seating, book: Rulebook) -> None:
    """Two seats, the powers british and french, strategies from the data (AFS-0)."""
    INFO.check_seating(seating, lambda spec: check_spec(spec, ("random", *book.acres.data.strategies), book.tables))


def new_engine(book: Rulebook, seatings: Sequence[Seating], root_seed: int, game_indices: Sequence[int],
               log: bool = False, roster: Roster = ROSTER) -> Engine:
    return Engine(book, seatings, root_seed, game_indices, roster, log=log)


def play_games(root_seed: int, game_indices: Sequence[int], seatings: Sequence[Seating],
               data: GameData | Acres | Rulebook | None = None, log: str | Path | None = None,
               batch: int = BATCH) -> pd.DataFrame:
    """Play the games in lockstep batches; one row per game and seat (RESULT_COLUMNS plus
    EXTRA_COLUMNS). With `log`, the JSONL event log of every game is written there."""
    return play_with(root_seed, game_indices, seatings, data, log, batch)


def play_with(root_seed: int, game_indices: Sequence[int], seatings: Sequence[Seating], data=None,
              log: str | Path | None = None, batch: int = BATCH, roster: Roster = ROSTER,
              watch: Callable[[Engine], Callable] | None = None) -> pd.DataFrame:
    """`play_games` with another roster, and `watch(engine)` as each engine's `on_step` (checks)."""
    book = rulebook_of(data)
    for s in seatings:
        check_seating(s, book)

    def hook(engine: Engine) -> None:
        engine.on_step = watch(engine)

    return play_in_batches(root_seed, game_indices, seatings, batch, functools.partial(new_engine, book, roster=roster),
                           results_frame, [*RESULT_COLUMNS, *EXTRA_COLUMNS], log, hook if watch is not None else None)


def results_frame(engine: Engine) -> pd.DataFrame:
    """One row per game and seat of a finished batch (seat order; each row its side's figures).
    `score` is the AFS-15.3 total as the game ended; `vp` is that total after a normal end and, after
    an immediate win (AFS-15.1, which ends the game unscored), 1 for the winner and 0 for the loser."""
    s = engine.s
    b = len(engine.seatings)
    sides = np.array([[SIDES.index(p) for p in seating.powers] for seating in engine.seatings])
    total = np.array([[engine.totals[g][q] for q in sides[g]] for g in range(b)], dtype=np.int64)
    win = np.array([[s.winner[g] == q for q in sides[g]] for g in range(b)])
    vp_loc = np.array([[engine.location_vp(g, q) for q in sides[g]] for g in range(b)], dtype=np.int64)
    rules = engine.acres.rules.scoring
    cap = np.array([[s.captured[g][q][0] * rules.captured_cube + s.captured[g][q][1] * rules.captured_disc
                     for q in sides[g]] for g in range(b)], dtype=np.int64)
    immediate = np.array([[s.end_reason[g] in IMMEDIATE] * 2 for g in range(b)])
    return results_table(engine.seed, engine.game_indices, engine.seatings, {
        "vp": np.where(immediate, win.astype(np.int64), total), "rank": np.where(win, 1, 2), "winner": win,
        "score": total,
        "side_first": sides == 0,
        "end_reason": [[s.end_reason[g]] * 2 for g in range(b)],
        "turns": np.array([[s.turn[g]] * 2 for g in range(b)], dtype=np.int64),
        "location_vp": vp_loc, "captured_vp": cap,
        "money": np.array([[s.money[g][q] for q in sides[g]] for g in range(b)], dtype=np.int64),
        "sieges": np.array([[s.sieges_started[g][q] for q in sides[g]] for g in range(b)], dtype=np.int64),
        "cards": [[",".join(sorted(s.acquired[g][q])) for q in sides[g]] for g in range(b)]})
