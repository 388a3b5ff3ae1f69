"""The conformance suite every registered game passes (run by tests/test_conformance.py): the game
contract of sim.core.contract, plus what a faithful, honest engine must show (OpenSpiel's and
Pgx's API tests, applied to lockstep batches).

Each `check_*` function takes a game module and raises AssertionError with a plain message when
the game fails it. What a game offers the suite beyond the contract (its *checks*, found in the
module named by the game module's `CHECKS`, default the game module itself):

- `check_games(root_seed, game_indices, seatings, data, step_cap) -> DataFrame`: `play_games`
  with the game's own invariants checked after every engine step, failing (AssertionError) on a
  broken invariant or more than `step_cap` steps, and (RuleViolation) on an illegal choice;
- `scrambled_games(root_seed, game_indices, seatings, data, log) -> DataFrame`, for a game with
  hidden information: `play_games` with every other seat's hidden fields changed around each
  decision and restored after it, so its table and log equal `play_games`' exactly when no
  decision reads what its seat may not know;
- for a game with the asset interface: `ASSET_COLUMN` (the results column listing each seat's
  acquired assets, comma-separated) and `start_resources(root_seed, game_index, seating, data)
  -> {resource: [value per seat]}` after setup; optionally `asset_power(data) -> {asset: power}`
  for assets only some powers can acquire (the intervention check seats that power first);
- in the game module, for the player audit (sim.core.audit): `audit_records(head, events)` and
  `audit_items(data)`; the suite then checks the calibration of the forecasts players act on.
"""

from __future__ import annotations

import importlib
import inspect
import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pandas as pd

from sim.core import audit, contract, gcpause, runner
from sim.core.data import GameData
from sim.core.errors import UserError
from sim.core.lockstep import RuleViolation
from sim.core.replay import account as generic_account
from sim.core.replay import read_games
from sim.core.seating import RESULT_COLUMNS, Seating

SEED = 20261201
FUZZ_GAMES = 500          # random-legal games per player count and shard
FUZZ_TOTAL = 2_000        # random-legal games per game at least: a game with few player counts plays more shards
STEP_CAP = 10_000         # engine steps of one batch, unless the game's checks set a tighter cap


def checks_of(module: ModuleType) -> ModuleType:
    """The module holding a game's conformance hooks."""
    path = getattr(module, "CHECKS", None)
    return importlib.import_module(path) if path else module


def seatings_for(module: ModuleType, players: int, strategies: tuple[str, ...], games: int,
                 rng: np.random.Generator) -> list[Seating]:
    """`games` seatings of `players` seats: random powers, strategies cycled from a random start."""
    powers = module.INFO.powers
    out = []
    for _ in range(games):
        start = int(rng.integers(len(strategies)))
        chosen = tuple(powers[i] for i in rng.permutation(len(powers))[:players])
        out.append(Seating(chosen, tuple(strategies[(start + q) % len(strategies)] for q in range(players))))
    return out


def check_contract(module: ModuleType) -> None:
    """The module keeps the typed contract, its INFO is consistent and play_games takes a log."""
    info = module.INFO
    contract.check(module, info.name)
    assert isinstance(module, contract.GameModule), "the module does not match the GameModule protocol"
    assert "log" in inspect.signature(module.play_games).parameters, "play_games takes no log argument"
    if contract.has_assets(module):
        hooks = checks_of(module)
        assert isinstance(getattr(hooks, "ASSET_COLUMN", None), str), "asset games name their ASSET_COLUMN"
        assert callable(getattr(hooks, "start_resources", None)), "asset games offer start_resources"
        assert set(module.asset_costs(module.load_data())), "asset_costs lists no asset"
    assert callable(getattr(checks_of(module), "check_games", None)), "the game offers no check_games"


def check_bad_input(module: ModuleType) -> None:
    """A bad player count, power or strategy is a UserError naming what is allowed."""
    info = module.INFO
    data = module.load_data()
    n = info.min_players
    good = Seating(info.powers[:n], ("random",) * n)
    bad = [Seating(info.powers[:n - 1], ("random",) * (n - 1)) if n > 1 else None,
           Seating(info.powers[:info.max_players] + ("nobody",), ("random",) * (info.max_players + 1)),
           Seating(("nowhere",) + info.powers[1:n], ("random",) * n),
           Seating(good.powers, ("no_such_strategy",) + good.strategies[1:])]
    for seating in filter(None, bad):
        try:
            module.play_games(SEED, [0], [seating], data)
        except UserError as exc:
            message = str(exc)
            assert "\n" not in message and ("allowed" in message or "use " in message), message
        else:
            raise AssertionError(f"{seating} was accepted")
    assert len(module.play_games(SEED, [0], [good], data)) == n


def check_results(module: ModuleType) -> None:
    """Every strategy at the fewest and most players: the result columns, one row per seat in
    order, every game with a winner, winners ranked first with the top score."""
    info = module.INFO
    data = module.load_data()
    rng = np.random.default_rng(SEED)
    for players in sorted({info.min_players, info.max_players}):
        for strategy in info.strategies:
            seatings = seatings_for(module, players, (strategy,), 2, rng)
            table = module.play_games(SEED, [0, 1], seatings, data)
            _check_table(table, [0, 1], seatings)


def _check_table(table: pd.DataFrame, indices: list[int], seatings: list[Seating]) -> None:
    missing = [c for c in RESULT_COLUMNS if c not in table.columns]
    assert not missing, f"results lack {missing}"
    assert len(table) == sum(s.players for s in seatings), "not one row per seat"
    for g, seating in zip(indices, seatings):
        rows = table[table.game_index == g]
        assert rows.seat.tolist() == list(range(seating.players)), f"game {g}: seats out of order"
        assert rows.power.tolist() == list(seating.powers) and rows.strategy.tolist() == list(seating.strategies)
        winners = rows[rows.winner.astype(bool)]
        assert len(winners), f"game {g} has no winner"
        assert (winners["rank"] == 1).all(), f"game {g}: a winner not ranked first"
        assert (winners.vp == rows.vp.max()).all(), f"game {g}: a winner without the top score"


def check_determinism(module: ModuleType) -> None:
    """A game's row depends only on (seed, game index, seating): alone, in a batch, with batch
    size 1 and on two workers the same; another seed gives other rows."""
    info = module.INFO
    data = module.load_data()
    rng = np.random.default_rng(SEED + 1)
    players = min(info.max_players, max(info.min_players, 3))
    strategies = tuple(s for s in info.strategies if s != "random") or ("random",)
    seatings = seatings_for(module, players, (*strategies, "random"), 6, rng)
    indices = [5, 17, 2, 40, 11, 9]
    batch = module.play_games(SEED, indices, seatings, data)
    _check_table(batch, indices, seatings)
    key = ["game_index", "seat"]
    ones = pd.concat([module.play_games(SEED, [g], [s], data) for g, s in zip(indices, seatings)], ignore_index=True)
    assert _same(batch, ones), "a game alone differs from the same game in a batch"
    listed = runner.play_listed(module.__name__, SEED, list(zip(indices, seatings)), data, jobs=2)
    assert _same(batch.sort_values(key, ignore_index=True), listed), "two workers play other games"
    other = module.play_games(SEED + 1, indices, seatings, data)
    assert not _same(batch, other), "another seed plays the same games"


def _same(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    a, b = a.reset_index(drop=True), b.reset_index(drop=True)
    return a.shape == b.shape and a.astype(str).equals(b.astype(str))


def fuzz_shards(info: contract.GameInfo) -> int:
    """Shards of `FUZZ_GAMES` games per player count that make at least `FUZZ_TOTAL` games in all
    (AFAoS, two players only: 4 shards of 500)."""
    return -(-FUZZ_TOTAL // (FUZZ_GAMES * (info.max_players - info.min_players + 1)))


def check_fuzz(module: ModuleType, games: int = FUZZ_GAMES, player_counts: range | None = None,
               shard: int = 0) -> int:
    """`games` random-legal games per player count (default: every allowed count) finish under
    the step cap with no rule violation and the game's invariants checked after every step;
    `shard` picks other games (shard 0: the games of before shards existed); returns the games
    played."""
    info = module.INFO
    hooks = checks_of(module)
    data = module.load_data()
    played = 0
    for players in player_counts or range(info.min_players, info.max_players + 1):
        rng = np.random.default_rng([SEED, players] + ([shard] if shard else []))
        seatings = seatings_for(module, players, ("random",), games, rng)
        indices = [int(i) for i in rng.integers(0, 2**31, games)]
        try:
            table = hooks.check_games(SEED, indices, seatings, data, step_cap=getattr(hooks, "STEP_CAP", STEP_CAP))
        except RuleViolation as exc:
            raise AssertionError(f"{players} players: a random-legal choice broke the rules: {exc}") from exc
        assert len(table) == players * games, f"{players} players: {len(table)} rows for {games} games"
        played += games
    return played


def check_strategy_bounds(module: ModuleType, draws: int = 3, games: int = 4) -> int:
    """Every scripted strategy plays complete games under the rules, the game's invariants checked
    after every step, with its numbers anywhere within their bounds (as `--set` and the tuner's
    trials may set them; a tuning found a guard of 0 units that broke a CotE player): in each of
    `draws` draws every bounded number of every strategy table takes its low end, its high end or
    a value between (`drawn_overrides`), and `games` games cycle the scripted strategies over the
    seats (up to 4). Returns the games played."""
    info, hooks = module.INFO, checks_of(module)
    scripted = tuple(s for s in info.strategies if s != "random") or info.strategies
    players = max(info.min_players, min(info.max_players, 4))
    base = module.load_data()
    played = 0
    for draw in range(draws):
        rng = np.random.default_rng([SEED, 17, draw])
        overrides = drawn_overrides(base, rng)
        data = module.load_data(overrides)
        seatings = seatings_for(module, players, scripted, games, rng)
        indices = [int(i) for i in rng.integers(0, 2**31, games)]
        try:
            table = hooks.check_games(SEED, indices, seatings, data, step_cap=getattr(hooks, "STEP_CAP", STEP_CAP))
        except (RuleViolation, UserError) as exc:
            raise AssertionError(f"draw {draw} ({' '.join(overrides)}): {exc}") from exc
        assert len(table) == players * games, f"draw {draw}: {len(table)} rows for {games} games"
        played += games
    return played


def drawn_overrides(data: GameData | None, rng: np.random.Generator) -> list[str]:
    """`--set` overrides giving every number of a strategy table that has both bounds its low
    end, its high end or a uniform value between, a third each (integers stay integers); none for
    a game without tagged data (the test games)."""
    out = []
    for path, leaf in sorted(getattr(data, "leaves", {}).items()):
        value = data.get(path)
        if (not path.startswith("strategies.") or leaf.low is None or leaf.high is None
                or isinstance(value, bool) or not isinstance(value, int | float)):
            continue
        end = int(rng.integers(3))
        if isinstance(value, int):
            drawn = (leaf.low, leaf.high, int(rng.integers(leaf.low, leaf.high + 1)))[end]
        else:
            drawn = round((leaf.low, leaf.high, float(rng.uniform(leaf.low, leaf.high)))[end], 4)
        out.append(f"{path}={drawn}")
    return out


def check_no_reference_cycles(module: ModuleType, games: int = 6) -> bool:
    """Playing games makes no reference cycles, so pausing the cyclic collector while an engine
    plays (`sim.core.lockstep`, `sim.core.gcpause`) leaks nothing: after a first batch (first-use
    compilation makes cycles once), every paused block of a second one, every strategy seated and
    the event log written, leaves no cyclic garbage. False for a game that pauses nothing."""
    info = module.INFO
    players = max(info.min_players, min(info.max_players, 4))
    seatings = seatings_for(module, players, info.strategies, games, np.random.default_rng(SEED + 5))
    with tempfile.TemporaryDirectory() as tmp:
        module.play_games(SEED, list(range(games)), seatings, log=Path(tmp) / "warm.jsonl")
        with gcpause.cycles_counted() as left:
            module.play_games(SEED, list(range(games, 2 * games)), seatings, log=Path(tmp) / "games.jsonl")
    assert not any(left), f"playing left {sum(left)} objects in reference cycles with the collector paused"
    return bool(left)


def check_hidden_information(module: ModuleType) -> bool:
    """Scrambling the other seats' hidden fields around every decision changes no decision (the
    same tables and logs); False for a game without hidden information (no `scrambled_games`)."""
    hooks = checks_of(module)
    if not hasattr(hooks, "scrambled_games"):
        return False
    info = module.INFO
    data = module.load_data()
    rng = np.random.default_rng(SEED + 2)
    seatings = [s for n in range(info.min_players, info.max_players + 1)
                for s in seatings_for(module, n, info.strategies, 4, rng)]
    indices = list(range(len(seatings)))
    with tempfile.TemporaryDirectory() as tmp:
        plain = module.play_games(SEED, indices, seatings, data, log=Path(tmp) / "plain.jsonl")
        scrambled = hooks.scrambled_games(SEED, indices, seatings, data, log=Path(tmp) / "scrambled.jsonl")
        assert _same(plain, scrambled), "a decision changed when hidden fields of other seats changed"
        same_logs = (Path(tmp) / "plain.jsonl").read_bytes() == (Path(tmp) / "scrambled.jsonl").read_bytes()
        assert same_logs, "a logged event changed when hidden fields of other seats changed"
    return True


def check_interventions(module: ModuleType, games: int = 6) -> bool:
    """For a game with the asset interface: *ban X* never acquires X, *force X* acquires X in some
    game, and every grant moves its resource for the focal seat only; False without assets."""
    if not contract.has_assets(module):
        return False
    info, hooks = module.INFO, checks_of(module)
    data = module.load_data()
    costs = module.asset_costs(data)
    strategy = info.default_strategy
    players = min(info.max_players, max(info.min_players, 4))
    powers = info.powers[:players]
    indices = list(range(games))
    column = hooks.ASSET_COLUMN
    owners = hooks.asset_power(data) if callable(getattr(hooks, "asset_power", None)) else {}
    never = []
    for asset in sorted(costs):
        for key in ("ban", "force"):
            seating = Seating(focal_powers(info.powers, players, owners.get(asset)),
                              (f"{strategy}+{key}={asset}",) + (strategy,) * (players - 1))
            table = module.play_games(SEED, indices, [seating] * games, data)
            focal = table[table.seat == 0][column].fillna("").map(lambda s: asset in s.split(","))
            if key == "ban":
                assert not focal.any(), f"ban {asset}: the seat acquired it"
            elif not focal.any():
                never.append(asset)
    assert not never, f"force never acquired {never} in {games} games"
    base = Seating(powers, (strategy,) * players)
    before = hooks.start_resources(SEED, 0, base, data)
    for resource, dose in module.GRANTS.items():
        seating = Seating(powers, (f"{strategy}+grant_{resource}={dose}",) + (strategy,) * (players - 1))
        after = hooks.start_resources(SEED, 0, seating, data)
        assert after[resource][0] > before[resource][0], f"grant_{resource} moved nothing"
        assert after[resource][1:] == before[resource][1:], f"grant_{resource} moved another seat's {resource}"
    return True


def focal_powers(powers: tuple[str, ...], players: int, wanted: str | None) -> tuple[str, ...]:
    """The powers of an intervention game: the first `players`, with `wanted` (the power that can
    acquire the asset, from the game's optional `asset_power(data)` hook) in the focal seat 0."""
    chosen = powers[:players]
    if wanted is None or wanted not in powers:
        return chosen
    return (wanted, *[p for p in powers if p != wanted])[:players]


def check_logs(module: ModuleType) -> int:
    """Every log line is a JSON object; each game opens with a header naming the game, seed, index
    and seating; the replay renders every game. Returns the games read."""
    info = module.INFO
    data = module.load_data()
    rng = np.random.default_rng(SEED + 3)
    seatings = seatings_for(module, info.max_players, info.strategies, 3, rng)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.jsonl"
        module.play_games(SEED, [3, 1, 4], seatings, data, log=path)
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            assert isinstance(json.loads(line), dict), f"log line {n} is not a JSON object"
        games = list(read_games(path))
    assert [h["game_index"] for h, _ in games] == [3, 1, 4], "one header per game, in order"
    account = getattr(module, "account", generic_account)
    for (head, events), seating in zip(games, seatings):
        assert head["game"] == info.name and head["seed"] == SEED
        assert head["powers"] == list(seating.powers) and head["strategies"] == list(seating.strategies)
        text = account(head, events)
        assert text and all(isinstance(line, str) for line in text), "the replay renders nothing"
    return len(games)


def check_calibration(module: ModuleType, games: int = 150) -> bool:
    """A small player audit (sim.core.audit) of the game's default lineup: no bin of the
    forecasts its players act on is miscalibrated beyond chance (Bonferroni over the bins); False
    for a game without the audit hooks."""
    if not (callable(getattr(module, "audit_records", None)) and callable(getattr(module, "audit_items", None))):
        return False
    info = module.INFO
    lineup = info.lineup or info.strategies[: info.max_players]
    result = audit.audit(module, module.load_data(), lineup, len(lineup), games, SEED)
    off = audit.miscalibrated(result["calibration"])
    assert not off, "miscalibrated forecasts: " + "; ".join(
        f"{b['bin'][0]:.1f}-{b['bin'][1]:.1f}: forecast {b['predicted']:.3f}, realised {b['realised']:.3f} "
        f"(n {b['n']})" for b in off)
    return True


CHECKS = (check_contract, check_bad_input, check_results, check_determinism, check_fuzz, check_strategy_bounds,
          check_no_reference_cycles, check_hidden_information, check_interventions, check_logs, check_calibration)


def run(module: ModuleType) -> Iterator[tuple[str, object]]:
    """Every check in turn: (name, what it returned)."""
    for check in CHECKS:
        yield check.__name__, check(module)
