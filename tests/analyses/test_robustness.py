"""Assumption groups, perturbations and robustness verdicts (analyses.robustness, issue 13 item 2)."""

from __future__ import annotations

import fnmatch

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyses import robustness
from sim.core import runner
from sim.core.data import load_game_data
from sim.core.design import balanced
from sim.struggle.play import components_of
from tests.runner import toygame

GAMES = ("struggle", "acres", "discovery", "conquest")


@pytest.mark.parametrize("game", GAMES)
def test_groups_leave_out_text_and_cover_every_other_assumed_leaf_once(game):
    data = load_game_data(game)
    found = robustness.groups(data)
    grouped = [p for g in found for p in g.paths]
    assert len(grouped) == len(set(grouped))
    kept = {p for p, v in data.assumed().items() if not robustness.is_text(v, data.leaves[p])}
    assert set(grouped) == kept
    assert all(not (isinstance(data.get(p), str) and data.leaves[p].choices is None) for p in grouped)
    assert all(fnmatch.fnmatchcase(p, g.pattern) for g in found for p in g.paths)
    assert len({g.pattern for g in found}) == len(found) < len(grouped)


def test_soe_groups_collapse_by_file_and_field_kind():
    """SOE-20 tile costs, SOE-26.1 region VP, SOE-26.2 token mix, SOE-23 player tables: one row each."""
    data = load_game_data("struggle")
    by_label = {g.label: g for g in robustness.groups(data)}
    assert by_label["tile costs (gold)"].pattern == "tiles.*.cost_gold"
    assert by_label["region VP"].pattern == "regions.*.vp" and "SOE-26.1" in by_label["region VP"].sources
    assert by_label["token mix"].pattern == "tokens.*"
    players = by_label["player weights and thresholds"]
    assert len(players.paths) == len(data.assumed(["strategies."])) and players.pattern == "strategies.*"
    assert not any(p.endswith(".name") for g in by_label.values() for p in g.paths)
    table = robustness.groups_table(list(by_label.values()))
    assert table.startswith("<details>") and "tiles.war_office.name" not in table


def test_every_soe_perturbation_loads_stays_within_bounds_and_builds_components():
    data = load_game_data("struggle")
    plan = robustness.perturbations(data)
    assert {p.name for p in plan} == {"tile costs +1", "tile costs -1", "region VP x1.2", "region VP x0.8",
                                      "player weights x1.2", "player weights x0.8", "token mix reshuffled"}
    assumed = data.assumed()
    for p in plan:
        loaded = robustness.load(data, p)
        components_of(loaded)                                        # cross-references still hold
        for path, value in p.overrides.items():
            assert path in assumed and loaded.get(path) == value != data.get(path)
            leaf = data.leaves[path]
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, (int, float)):
                    assert (leaf.low is None or item >= leaf.low) and (leaf.high is None or item <= leaf.high)


def test_tile_costs_move_by_one_and_clip_at_the_bound():
    data = load_game_data("struggle")
    plan = {p.name: p for p in robustness.perturbations(data)}
    for path, value in plan["tile costs +1"].overrides.items():
        assert value == data.get(path) + 1
    free = [p for p, v in data.assumed(["tiles."]).items() if p.endswith(".cost_gold") and v == 0]
    assert free and not set(free) & set(plan["tile costs -1"].overrides)  # 0 - 1 is clipped to min 0: no change


@given(st.lists(st.sampled_from(["N1", "N2", "Pop", "Slave", "N3g2"]), min_size=1, max_size=12))
@settings(max_examples=200, deadline=None)
def test_a_reshuffled_token_mix_keeps_its_size_and_kinds_and_moves_one_token(tokens):
    """SOE-26.2: one token changes kind; the region keeps its number of tokens and gains no new kind."""
    new = robustness.reshuffled(tokens)
    assert len(new) == len(tokens) and set(new) <= set(tokens)
    moved = sum(a != b for a, b in zip(tokens, new))
    assert moved == (1 if len(set(tokens)) > 1 else 0)


@pytest.mark.parametrize("game", ("acres", "discovery", "conquest"))
def test_every_perturbation_of_the_other_games_loads(game):
    data = load_game_data(game)
    for p in robustness.perturbations(data):
        robustness.load(data, p)


def toy_results(monkeypatch, bonus: dict[str, float], games_: int = 336) -> pd.DataFrame:
    """A toy dice-race tournament (tests/runner/toygame.py) with some strategy bonuses changed."""
    for name, value in bonus.items():
        monkeypatch.setitem(toygame.STRATEGY_BONUS, name, value)
    info = toygame.INFO
    design = balanced(info.powers, 4, ["random", "random2", "strong", "weak"], info.strategies,
                      info.min_players, info.max_players)
    plan = runner.Plan(module="tests.runner.toygame", seed=5, design=design, games=design.whole_blocks(games_),
                       batch_size=design.block_size)
    results = runner.run(plan, jobs=1)
    monkeypatch.undo()
    return results


def test_a_strongest_strategy_that_wins_only_under_one_setting_is_fragile_naming_it(monkeypatch):
    baseline = toy_results(monkeypatch, {})
    found = robustness.findings(baseline, pd.DataFrame({"flag": []}), "all 1 ASSUMED groups")
    strongest = next(f for f in found if f.finding.startswith("strongest strategy"))
    assert strongest.level == "strong"
    perturbed = {"bonus same": robustness.rates(toy_results(monkeypatch, {"random2": 0.2})),
                 "weak boosted": robustness.rates(toy_results(monkeypatch, {"weak": 2.0}))}
    judged = {f.finding: f for f in robustness.judge(found, perturbed, "off")}
    assert judged[strongest.finding].verdict == "fragile"
    assert judged[strongest.finding].flips == ("weak boosted",)
    assert "fragile: flips under weak boosted" == judged[strongest.finding].verdict_text()


def test_a_clear_winner_is_robust_and_no_pass_is_untested(monkeypatch):
    baseline = toy_results(monkeypatch, {})
    found = robustness.findings(baseline, pd.DataFrame({"flag": []}), "all 1 ASSUMED groups")
    perturbed = {f"strong {b}": robustness.rates(toy_results(monkeypatch, {"strong": b})) for b in (0.8, 1.2)}
    judged = {f.finding: f for f in robustness.judge(found, perturbed, "off")}
    strongest = next(f for f in judged.values() if f.finding.startswith("strongest strategy"))
    assert strongest.level == "strong" and strongest.verdict == "robust" and strongest.flips == ()
    assert all(f.verdict == "untested" and f.note == "off" for f in robustness.judge(found, {}, "off"))


def test_a_flag_holds_while_its_point_estimate_stays_on_the_same_side_of_the_fair_share():
    table = pd.DataFrame({"factor": "power", "level": ["red", "blue"], "n": 100, "win_rate": [0.30, 0.20],
                          "fair_share": 0.25})
    above = robustness.Finding("power red too strong", "power", "red", "above", "")
    below = robustness.Finding("power red too weak", "power", "red", "below", "")
    assert robustness.holds(above, table) and not robustness.holds(below, table)
    assert robustness.holds(robustness.Finding("", "power", "blue", "min", ""), table)


def test_mis_priced_assets_are_untested_and_say_why():
    assets = pd.DataFrame({"tile": ["good", "dud", "plain"], "finding": ["under-priced", "over-priced", ""]})
    found = robustness.asset_findings(assets, "all 3 ASSUMED groups")
    assert [f.level for f in found] == ["good", "dud"]
    judged = robustness.judge(found, {"x": pd.DataFrame()}, "off")
    assert all(f.verdict == "untested" and "tile step" in f.verdict_text() for f in judged)


def test_the_pass_defaults_to_a_quarter_of_the_report_games_and_zero_turns_it_off():
    from analyses.balance_report import ReportSize

    assert ReportSize(games=2800).robustness_games == 700
    assert ReportSize(games=2800, robust_games=0).robustness_games == 0
    assert ReportSize(games=2800, robust_games=56).robustness_games == 56


def test_a_factor_whose_levels_all_win_alike_has_no_strongest_or_weakest_finding(monkeypatch):
    """CotE's colours take no part in play: every colour wins the same, so naming one the
    strongest and the same one the weakest would be a finding about nothing."""
    table = pd.DataFrame({"factor": ["strategy"] * 2 + ["power"] * 3 + ["seat"] * 2,
                          "level": ["hunter", "fortifier", "red", "blue", "green", "0", "1"],
                          "n": 100, "win_rate": [0.4, 0.1, 0.25, 0.25, 0.25, 0.3, 0.2], "fair_share": 0.25})
    monkeypatch.setattr(robustness, "rates", lambda results: table)
    found = [f.finding for f in robustness.findings(pd.DataFrame(), pd.DataFrame({"flag": []}), "")]
    assert found == ["strongest strategy: hunter (0.4)", "weakest strategy: fortifier (0.1)",
                     "strongest seat: 0 (0.3)", "weakest seat: 1 (0.2)"]


def test_coe_25_3_the_turn_cap_is_scaled_where_it_decides_most_games():
    """CotE's simulator cap (ASSUMED, 40 rounds) is played at 60 and 30 rounds; a game whose
    data has no such cap gets no such perturbation."""
    made = {p.name: p for p in robustness.perturbations(load_game_data("conquest"))}
    assert made["turn cap x1.5"].overrides == {"rules.turn_cap": 60}
    assert made["turn cap x0.75"].overrides == {"rules.turn_cap": 30}
    assert not any(p.name.startswith("turn cap") for p in robustness.perturbations(load_game_data("struggle")))


def test_afs_19_10_card_costs_move_by_one_within_their_bounds():
    data = load_game_data("acres")
    made = {p.name: p for p in robustness.perturbations(data)}
    assert {"card costs +1", "card costs -1"} <= set(made)
    up, down = made["card costs +1"].overrides, made["card costs -1"].overrides
    assert up["cards.british.regular_infantry.cost"] == 8 and down["cards.british.siege_artillery.cost"] == 7
    assert "cards.british.bateaux.cost" not in down                      # a free card stays free
    assert all(fnmatch.fnmatchcase(path, "cards.*.*.cost") for path in {**up, **down})
