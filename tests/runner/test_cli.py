"""`empires tournament / analyse / compare` on the toy game: JSON shape, known effects, bad input."""

import contextlib
import io
import json

import pytest
from hypothesis import given, settings, strategies as st

from sim import games
from sim.cli import main
from tests.runner import toygame


def run_json(capsys, argv) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_tournament_json_has_win_rates_with_intervals_per_strategy_power_and_seat(tmp_path, capsys):
    out = run_json(capsys, ["tournament", "toy", "--players", "3", "--strategies", "strong,random,weak",
                            "--games", "100", "--seed", "4", "--out", str(tmp_path / "r"), "--json", "--quiet"])
    assert out["games"] == 108  # rounded up to whole blocks of 3 rotations x 4 powers
    assert set(out["by_strategy"]) == {"strong", "random", "weak"}
    assert set(out["by_power"]) == {"red", "blue", "green", "yellow"} and set(out["by_seat"]) == {"0", "1", "2"}
    for key in ("by_strategy", "by_power", "by_seat"):
        for entry in out[key].values():
            low, high = entry["ci95"]
            assert 0 <= low <= entry["win_rate"] <= high <= 1 and entry["n"] > 0
    assert sum(v["n"] for v in out["by_seat"].values()) == 108 * 3


def test_analyse_recovers_the_toy_effects_and_writes_tables_and_plots(tmp_path, capsys):
    run = tmp_path / "r"
    assert main(["tournament", "toy", "--players", "4", "--strategies", "strong,random,weak,random2",
                 "--games", "800", "--seed", "2", "--out", str(run), "--quiet", "--jobs", "2"]) == 0
    capsys.readouterr()
    out = run_json(capsys, ["analyse", str(run), "--json"])
    rates = {k: v["win_rate"] for k, v in out["by_strategy"].items()}
    assert rates["strong"] > max(rates["random"], rates["random2"]) > rates["weak"]
    effects = {(r["factor"], r["level"]): r for r in out["ratings"]}
    # strong (+1 per turn) over weak (-0.5): intervals clear of each other; red (+0.25) over yellow (-0.25)
    assert effects[("strategy", "strong")]["ci_low"] > effects[("strategy", "weak")]["ci_high"]
    assert effects[("power", "red")]["effect"] > effects[("power", "yellow")]["effect"]
    assert out["first_seat"]["n"] == out["games"]
    assert {f.rsplit("/", 1)[1] for f in out["files"]} >= {"by_strategy.csv", "ratings.csv", "imbalances.csv",
                                                           "win_rates.png", "ratings.png", "vp.png", "length.png"}
    assert main(["analyse", str(run)]) == 0
    assert "first-seat advantage" in capsys.readouterr().out


def test_compare_accepts_h1_for_a_stronger_strategy_and_h0_for_an_equal_one(capsys):
    strong = run_json(capsys, ["compare", "toy", "strong", "random", "--sprt", "--p0", "0.5", "--p1", "0.6",
                               "--json", "--quiet", "--seed", "5"])
    assert strong["decision"] == "H1" and strong["games"] % strong["block_size"] == 0
    equal = run_json(capsys, ["compare", "toy", "random", "random2", "--sprt", "--players", "3",
                              "--p0", "0.5", "--p1", "0.6", "--json", "--quiet", "--seed", "5"])
    assert equal["decision"] == "H0"
    weaker = run_json(capsys, ["compare", "toy", "weak", "random", "--sprt", "--elo0", "0", "--elo1", "30",
                               "--json", "--quiet", "--jobs", "2"])
    assert weaker["decision"] == "H0"
    capped = run_json(capsys, ["compare", "toy", "strong", "random", "--sprt", "--p0", "0.5", "--p1", "0.51",
                               "--max-games", "16", "--json", "--quiet"])
    assert capped["decision"] == "undecided" and capped["games"] == 16


def test_compare_prints_the_measured_score_beside_the_bounds(capsys):
    """The verdict line shows the score measured, not the H1 bound as if it were measured."""
    strong = run_json(capsys, ["compare", "toy", "strong", "random", "--sprt", "--p0", "0.5", "--p1", "0.6",
                               "--json", "--quiet", "--seed", "5"])
    assert main(["compare", "toy", "strong", "random", "--sprt", "--p0", "0.5", "--p1", "0.6", "--quiet",
                 "--seed", "5"]) == 0
    verdict = capsys.readouterr().out.splitlines()[0]
    assert f"measured score of strong {strong['score']:.4f}" in verdict
    assert "H0 score 0.5000, H1 score 0.6000" in verdict and "accept H1" in verdict


def test_compare_decision_does_not_depend_on_jobs_or_batch_size(capsys):
    argv = ["compare", "toy", "strong", "random", "--sprt", "--players", "3", "--p0", "0.5", "--p1", "0.55",
            "--json", "--quiet", "--seed", "8"]
    one = run_json(capsys, argv)
    two = run_json(capsys, argv + ["--jobs", "2", "--batch-size", "72"])
    assert one == two


@pytest.mark.parametrize("argv, message", [
    (["tournament", "toy", "--strategies", "strong,bogus"], "strategy: 'bogus' is not allowed"),
    (["tournament", "toy", "--players", "2", "--strategies", "strong,random,weak"], "3 strategies for 2 seats"),
    (["tournament", "toy", "--players", "5", "--strategies", "strong"], "--players 5 is out of range"),
    (["tournament", "toy", "--strategies", "strong", "--set", "a.b=1"], "has no component data"),
    (["tournament", "ghost", "--strategies", "x"], "engine sim.ghost_engine_not_written is not available"),
    (["tournament", "toy", "--strategies", "strong", "--scheduler", "bogus://x"], "--scheduler bogus://x: cannot connect"),
    (["compare", "toy", "strong", "bogus", "--sprt"], "strategy: 'bogus' is not allowed"),
    (["compare", "toy", "strong", "strong", "--sprt"], "give two different strategies"),
    (["compare", "toy", "strong", "random", "--sprt", "--alpha", "0.7"], "--alpha 0.7 is out of range"),
    (["compare", "toy", "strong", "random", "--sprt", "--p0", "0.6", "--p1", "0.5"], "SPRT bounds"),
])
def test_bad_input_is_one_line_and_exit_2(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    games.register("ghost", "sim.ghost_engine_not_written")
    try:
        assert main(argv) == 2
    finally:
        games._REGISTRY.pop("ghost")
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("empires: error: ") and message in err
    assert not [p for p in tmp_path.rglob("*") if p.is_file() or p.name.startswith("toy-")]  # no run left


def test_unknown_game_is_an_argparse_error_with_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["tournament", "chess", "--strategies", "a"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invalid choice: 'chess'" in err


@settings(max_examples=25)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz_0123456789", min_size=1, max_size=12)
       .filter(lambda s: s not in toygame.STRATEGIES),
       st.integers(2, 4))
def test_any_unknown_strategy_name_is_refused_in_one_line(tmp_path_factory, name, players):
    """Refused before the run starts: the output folder (a valid --out) is never created."""
    out = tmp_path_factory.mktemp("unknown-name") / "never-created"
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["tournament", "toy", "--players", str(players), "--strategies", f"strong,{name}",
                     "--out", str(out)]) == 2
    assert err.getvalue().count("\n") == 1 and f"strategy: {name!r} is not allowed" in err.getvalue()
    assert not out.exists()


@settings(max_examples=25)
@given(st.integers(-5, 70).filter(lambda p: not 2 <= p <= 4))
def test_player_counts_outside_the_game_are_refused_in_one_line(players):
    """1..64 reach the game's check (2..4 for the toy); others stop at argparse; both exit 2."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            code = main(["tournament", "toy", "--players", str(players), "--strategies", "strong"])
        except SystemExit as exc:
            code = exc.code
    assert code == 2 and err.getvalue().count("\n") == 1
