"""The player audit (sim.core.audit): calibration bins and their test, coverage, idleness, the
shares of resources left unused."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sim.cli import main
from sim.core.audit import CYCLE, AuditRecords, Forecast, calibration, in_the_large, miscalibrated, summarise
from sim.core.stats import wilson_interval


def forecasts(p: float, n: int, rate: float, seed: int = 0) -> list[Forecast]:
    hits = np.random.default_rng(seed).random(n) < rate
    return [Forecast("s", "attack", p, bool(h)) for h in hits]


def test_calibration_bins_hold_mean_forecast_realised_rate_and_wilson_interval():
    bins = calibration(forecasts(0.25, 400, 0.25) + forecasts(0.75, 400, 0.4, seed=1))
    assert [b["bin"] for b in bins] == [[0.2, 0.3], [0.7, 0.8]] and [b["n"] for b in bins] == [400, 400]
    low, high = bins[0]["ci95"]
    assert low < bins[0]["realised"] < high and bins[0]["predicted"] == pytest.approx(0.25)
    assert bins[0]["calibrated"] and not bins[1]["calibrated"]


def test_miscalibrated_finds_only_the_bin_off_beyond_chance():
    bins = calibration(forecasts(0.55, 2000, 0.55) + forecasts(0.85, 2000, 0.78, seed=2) + forecasts(0.15, 10, 1.0))
    off = miscalibrated(bins)
    assert [b["bin"] for b in off] == [[0.8, 0.9]]                  # the 10 forecasts at 0.15 are too few
    assert miscalibrated([]) == []


def test_the_test_fails_a_calibrated_player_rarely_and_a_biased_one_almost_always():
    """100 fixed seeds of 3,000 forecasts uniform on 0.05..0.95: a calibrated player is flagged in
    at most 10 of them (the test's level is 5 %), one whose outcomes run 0.1 below its forecasts
    in at least 95."""
    flagged = {0.0: 0, 0.1: 0}
    for seed in range(100):
        rng = np.random.default_rng(seed)
        p = rng.uniform(0.05, 0.95, 3000)
        u = rng.random(3000)
        for bias in flagged:
            records = [Forecast("s", "attack", float(x), bool(y)) for x, y in zip(p, u < p - bias)]
            flagged[bias] += bool(miscalibrated(calibration(records)))
    assert flagged[0.0] <= 10 and flagged[0.1] >= 95


def test_summary_of_coverage_idleness_and_waste():
    one = AuditRecords(chosen=[("a", 0, "tile:x"), ("a", 1, "tile:x"), ("b", 2, "action:pass")],
                       actions=[("a", "build", False), ("a", "pass", True), ("b", "pass", False)],
                       wasted=[("a", "rebuild_in_place")])
    two = AuditRecords(chosen=[("b", 0, "tile:y")], actions=[("b", "move", False)])
    result = summarise([(("a+ban=y", "a", "b"), one), (("b", "b"), two)], ["tile:x", "tile:y", "action:pass"])
    assert result["games"] == 2
    assert result["coverage"]["a"] == {"tile:x": 1.0, "tile:y": 0.0, "action:pass": 0.0}
    assert result["coverage"]["b"] == {"tile:x": 0.0, "tile:y": 0.5, "action:pass": 0.5}
    assert result["never_chosen"] == {"a": ["tile:y", "action:pass"], "b": ["tile:x"]}
    assert result["idle"]["a"] == {"actions": 2, "pass_share": 0.5, "pass_share_outside_last_round": 0.0,
                                   "cycle_share": None}
    assert result["idle"]["b"]["pass_share"] == 0.5 and result["wasted"] == {"a": {"rebuild_in_place": 1}, "b": {}}


def test_cycles_count_as_idleness_once_a_game_logs_them():
    """An action that only cycles cards for want of anything better (`CYCLE`) is idle though not
    a pass: its share is shown for every strategy of a game that logs cycles, none where none do."""
    one = AuditRecords(actions=[("a", CYCLE, False), ("a", "build", False), ("a", "pass", True),
                                ("a", CYCLE, True), ("b", "move", False)])
    result = summarise([(("a", "b"), one)], [])
    assert result["idle"]["a"]["cycle_share"] == 0.5 and result["idle"]["a"]["pass_share"] == 0.25
    assert result["idle"]["b"]["cycle_share"] == 0.0
    quiet = summarise([(("a",), AuditRecords(actions=[("a", "build", False)]))], [])
    assert quiet["idle"]["a"]["cycle_share"] is None


def test_coverage_is_judged_on_what_each_side_can_choose_and_pooled_over_scripted_strategies():
    """An item a side cannot choose is not held against that side's strategy; an item nobody can
    choose under the rules is `unavailable`; `never_chosen_by_any` pools the scripted strategies
    (the random baseline does not count)."""
    one = AuditRecords(chosen=[("a", 0, "card:x"), ("random", 1, "card:z")])
    two = AuditRecords(chosen=[("b", 0, "card:y")])
    items = ["card:x", "card:y", "card:z", "card:w", "action:variant", "action:Pass"]
    powers = {"card:x": ("red",), "card:y": ("blue",), "action:variant": ()}
    result = summarise([(("a", "random"), one), (("b", "random"), two)], items, powers,
                       {"a": "red", "b": "blue"})
    assert result["never_chosen"] == {"a": ["card:z", "card:w", "action:Pass"], "b": ["card:z", "card:w", "action:Pass"],
                                      "random": ["card:x", "card:y", "card:w", "action:Pass"]}
    assert result["not_applicable"] == {"a": ["card:y"], "b": ["card:x"], "random": []}
    assert result["unavailable"] == ["action:variant"]
    assert result["never_chosen_by_any"] == ["card:z", "card:w"]      # z only by the random baseline; no pass


def test_without_side_information_every_item_counts_for_every_strategy():
    rec = AuditRecords(chosen=[("a", 0, "card:x")])
    result = summarise([(("a",), rec)], ["card:x", "card:y"])
    assert result["never_chosen"] == {"a": ["card:y"]} and result["not_applicable"] == {"a": []}
    assert result["unavailable"] == [] and result["never_chosen_by_any"] == ["card:y"]


def test_unused_shares_pool_each_strategys_moments_with_games_as_clusters():
    """Two games: strategy a leaves 10 of 40 and 30 of 40 units unused (share 0.5), b 0 of 20; the
    interval is Wilson's widened by the games' design effect, so wider than the plain one over 80."""
    one = AuditRecords(unused=[("a", "unled units", 4, 20), ("a", "unled units", 6, 20), ("b", "unled units", 0, 20)])
    two = AuditRecords(unused=[("a", "unled units", 30, 40)])
    result = summarise([(("a", "b"), one), (("a",), two)], [])
    a = result["unused"]["a"]["unled units"]
    assert (a["share"], a["unused"], a["total"], a["games"]) == (0.5, 40, 80, 2)
    plain = wilson_interval(40, 80)
    assert a["ci95"][0] < plain[0] < 0.5 < plain[1] < a["ci95"][1] and a["deff"] > 1
    assert result["unused"]["b"]["unled units"]["share"] == 0.0
    assert summarise([(("a",), AuditRecords())], [])["unused"] == {}


def test_each_kind_of_forecast_is_calibrated_on_its_own_beside_the_pool():
    """A well-calibrated kind must not hide a biased one: the pool mixes them, the kinds do not."""
    siege = [Forecast("s", "siege", f.predicted, f.happened) for f in forecasts(0.85, 300, 0.6, seed=4)]
    rec = AuditRecords(forecasts=forecasts(0.85, 3000, 0.85, seed=3) + siege)
    result = summarise([(("s",), rec)], items=[])
    by_kind = result["calibration_by_kind"]
    assert set(by_kind) == {"attack", "siege"} and sum(b["n"] for b in result["calibration"]) == 3300
    assert by_kind["attack"][0]["calibrated"] and not by_kind["siege"][0]["calibrated"]


def test_in_the_large_finds_the_strategy_whose_forecasts_of_one_kind_fall_short():
    """Each strategy's forecasts of each kind taken together: z is the realised count less the
    summed forecasts over sqrt(sum p(1-p)). A besieger forecasting 0.9 and winning 0.6 is off
    though its opponent's forecasts are fine; 10 forecasts are too few to judge; certain forecasts
    have no spread and are judged exactly."""
    short = [Forecast("b", "siege", 0.9, bool(h)) for h in np.random.default_rng(5).random(200) < 0.6]
    fine = forecasts(0.5, 400, 0.5, seed=6)
    few = [Forecast("c", "raid", 0.3, True)] * 10
    sure = [Forecast("d", "raid", 1.0, True)] * 40
    groups = {(g["strategy"], g["kind"]): g for g in in_the_large(short + fine + few + sure)}
    hits = sum(f.happened for f in short)
    b = groups[("b", "siege")]
    assert b["n"] == 200 and b["predicted"] == pytest.approx(0.9) and b["realised"] == hits / 200
    assert b["z"] == pytest.approx((hits - 180) / np.sqrt(200 * 0.9 * 0.1)) and b["z"] < -10
    assert b["calibrated"] is False and groups[("s", "attack")]["calibrated"] is True
    assert groups[("c", "raid")]["calibrated"] is None and groups[("c", "raid")]["z"] > 0
    assert groups[("d", "raid")]["z"] is None and groups[("d", "raid")]["calibrated"] is True
    assert in_the_large([Forecast("d", "raid", 1.0, False)] * 40)[0]["calibrated"] is False
    assert in_the_large([]) == []


def test_in_the_large_counts_a_games_forecasts_as_one_cluster():
    """Forecasts of one game share its board: 40 games whose 10 forecasts at 0.5 all come true or
    all fail together, 24 of them won, are weak evidence of bias: 40 more hits than forecast are
    z = 4.0 as 400 independent forecasts, 1.3 as 40 games."""
    records, games = [], []
    for game in range(40):
        records += [Forecast("s", "siege", 0.5, game < 24)] * 10
        games += [game] * 10
    clustered, = in_the_large(records, games)
    plain, = in_the_large(records)
    assert plain["z"] == pytest.approx(40 / np.sqrt(100)) and plain["calibrated"] is False
    assert clustered["z"] == pytest.approx(40 / np.sqrt(40 * 25)) and clustered["calibrated"] is True


def test_in_the_large_flags_a_calibrated_player_rarely_and_a_short_one_almost_always():
    """100 fixed seeds of 600 forecasts uniform on 0.05..0.95 for each of three strategies: the
    calibrated ones are flagged in at most 10 seeds (the test's level is 5 % over the groups), a
    strategy whose outcomes run 0.1 below its forecasts in at least 95."""
    flagged = {"calibrated": 0, "short": 0}
    for seed in range(100):
        rng = np.random.default_rng(seed)
        records = []
        for name, bias in (("a", 0.0), ("b", 0.0), ("short", 0.1)):
            p = rng.uniform(0.05, 0.95, 600)
            records += [Forecast(name, "siege", float(x), bool(y)) for x, y in zip(p, rng.random(600) < p - bias)]
        verdicts = {g["strategy"]: g["calibrated"] for g in in_the_large(records)}
        flagged["calibrated"] += not (verdicts["a"] and verdicts["b"])
        flagged["short"] += not verdicts["short"]
    assert flagged["calibrated"] <= 10 and flagged["short"] >= 95


def test_the_audit_is_the_same_on_any_number_of_workers(capsys):
    """`--jobs 2` plays slices of the game indices in workers; every game is its own stream and
    the records come back in game order, so the whole result (float sums included) is unchanged."""
    outputs = []
    for jobs in ("1", "2"):
        assert main(["audit", "acres", "--games", "9", "--seed", "4", "--jobs", jobs, "--json"]) == 0
        outputs.append(json.loads(capsys.readouterr().out))
    assert outputs[0] == outputs[1]
    assert outputs[0]["games"] == 9 and sum(b["n"] for b in outputs[0]["calibration"]) > 0
    assert sum(g["n"] for g in outputs[0]["in_the_large"]) == sum(b["n"] for b in outputs[0]["calibration"])
