"""The Conquest of the Empire seats section (analyses.conquest_seats): win rate by seat and Home
Province for each player count, the turn order told apart from the province (COE-8.2, COE-9)."""

import pandas as pd
import pytest

from analyses import conquest_seats as cs
from sim.conquest.play import load_data


def test_coe_9_1_each_rotation_keeps_the_cycle_and_starts_at_another_home():
    data = load_data()
    cycle = data.get("rules.cycle")
    for players in cs.PLAYER_COUNTS:
        homes = data.get(f"rules.homes.p{players}")
        orders = cs.rotations(cycle, homes)
        assert orders[0][0] == next(h for h in cycle if h in homes)          # rotation 0: the rulebook's start
        assert sorted(next(h for h in o if h in homes) for o in orders) == sorted(homes)
        for order in orders:                                                # the same cyclic order
            start = cycle.index(order[0])
            assert order == cycle[start:] + cycle[:start]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_games_per_rotation_are_whole_lineup_turns(players):
    for games in (1, 4, 60, 121):
        n = cs.games_per_rotation(games, players)
        assert n >= 4 and n % 4 == 0 and abs(n * players - games) <= 2 * players * 4
        assert cs.games_per_rotation(games, players, ("random",)) == max(1, round(games / players))


def test_coe_9_2_every_home_moves_in_every_position_once_and_rotation_0_is_the_rulebook():
    results = cs.play_count(4, 16, seed=3, jobs=1)
    assert sorted(results.rotation.unique()) == [0, 1, 2, 3]
    cells = results.groupby(["home", "position"]).rotation.nunique()
    assert len(cells) == 16 and (cells == 1).all()                         # a Latin square
    book = results[results.rotation == 0].groupby("position").home.first()
    assert list(book) == ["macedonia", "mesopotamia", "numidia", "hispania"]  # COE-9.2, four players
    assert (results.groupby("rotation").game_index.nunique() == 4).all()
    assert (results.block == results.game_index).all()


def test_the_same_games_give_the_same_rows_with_more_jobs():
    one, two = (cs.play_count(2, 8, seed=4, jobs=j) for j in (1, 2))
    pd.testing.assert_frame_equal(one, two)


def test_report_section_writes_each_count_and_states_what_carries_a_seat(tmp_path):
    finding, fragments = cs.report_section(tmp_path, games=16, seed=5, jobs=1, counts=(2, 4))
    table = pd.read_csv(tmp_path / "conquest_seats.csv")
    assert set(table.players) == {2, 4} and set(table.kind) == {"rulebook", "home", "position"}
    assert set(table.skill) == {"scripted", "random"}
    four = table[(table.players == 4) & (table.skill == "scripted")]
    assert len(four[four.kind == "home"]) == 4 and len(four[four.kind == "position"]) == 4
    pooled = four[four.kind == "home"].n.sum()
    assert pooled == four[four.kind == "position"].n.sum() == 4 * 4 * cs.games_per_rotation(16, 4)
    assert finding.startswith("With the scripted players in 4-player games ") and finding.endswith(".")
    assert "moving first wins" in finding and "With random-legal players the 4 provinces win" in finding
    assert any("<table>" in f for f in fragments) and any("rules.cycle" in f for f in fragments)
    worth = pd.read_csv(tmp_path / "conquest_homes.csv")
    assert set(zip(worth.skill, worth.players)) == {(s, n) for s in ("scripted", "random") for n in (2, 4)}
    assert set(worth[worth.grant > 0].players) == {4}                      # the grant arm at 4 players only
    assert "Over an average Home Province (4 players, scripted)" in finding
    assert any("What each Home Province is worth" in f for f in fragments)


def test_finding_names_the_turn_order_when_only_the_positions_differ():
    rows = [{"skill": "scripted", "players": 4, "kind": kind, "level": level, "n": 100, "win_rate": rate, "ci_low": rate - 0.05,
             "ci_high": rate + 0.05, "fair_share": 0.25}
            for kind, levels in (("home", {"a": 0.24, "b": 0.26, "c": 0.25, "d": 0.25}),
                                 ("position", {"1": 0.55, "2": 0.2, "3": 0.15, "4": 0.1}))
            for level, rate in levels.items()]
    assert "the turn order rather than the Home Province decides" in cs.finding_of(pd.DataFrame(rows))


@pytest.mark.parametrize("value", ["2,x", "1,4", "4,4", "2,7"])
def test_bad_player_counts_exit_2_with_one_line_before_any_game(capsys, tmp_path, value):
    assert cs.main(["--players", value, "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--players" in err and repr(value) in err
    assert not (tmp_path / "out").exists()


def test_player_counts_without_the_tournaments_are_refused(capsys, tmp_path):
    assert cs.main(["--players", "2,3", "--out", str(tmp_path / "out")]) == 2
    assert "must include 4" in capsys.readouterr().err and not (tmp_path / "out").exists()
