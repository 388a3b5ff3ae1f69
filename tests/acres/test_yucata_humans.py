"""analyses/acres_humans.py on the five imported games: lengths, winners, recruits, sieges,
raids and money over time, checked against the decoded pages."""

import pandas as pd
import pytest

from analyses import acres_humans
from sim.acres import play, yucata
from sim.acres.snapshot import REASONS
from sim.core.lockstep import write_jsonl
from sim.core.replay import read_games
from tests.acres.yucata_pages import pages as decoded


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    """The five games through the record file format, as `empires import acres` writes them."""
    out, recs = tmp_path_factory.mktemp("humans"), []
    for name, game in decoded().items():
        path = out / name.replace(".js", ".jsonl")
        write_jsonl(path, [yucata.record(game)])
        recs += list(read_games(path))
    return recs


@pytest.fixture(scope="module")
def pages():
    return {int(game.game_id): game for game in decoded().values()}


def _new(move):
    return move.actions[move.repeated:]


def test_one_row_per_game_with_length_winner_and_end(records, pages):
    table = acres_humans.humans_table(records).set_index("game")
    assert sorted(table.index) == sorted(pages)
    for gid, game in pages.items():
        row = table.loc[gid]
        assert row["moves"] == len(game.moves)
        assert (row["winner"], row["end_reason"]) == (game.statuses[-1].end.winner, game.statuses[-1].end.reason)
    # AFS-5.1: an out-of-turn settle and the turn part recorded before it are not turns
    assert table.loc[10415909, "turns"] == 186 - 2 and table.loc[8604012, "turns"] == 123


def test_recruits_sieges_and_raids_per_side(records, pages):
    table = acres_humans.humans_table(records).set_index("game")
    for gid, game in pages.items():
        for side in ("british", "french"):
            acts = [a for m in game.moves if m.side == side for a in _new(m)]
            assert table.loc[gid, f"{side}_recruited"] == sum(a.kind == "recruit" for a in acts)
            assert table.loc[gid, f"{side}_sieges_started"] == sum(a.kind == "besiege" for a in acts)
            hits = [a for a in acts if a.kind == "raid" and "blocked_by" not in a.detail]
            assert table.loc[gid, f"{side}_raids_hit"] == len(hits)
            assert table.loc[gid, f"{side}_sieges_won"] <= table.loc[gid, f"{side}_sieges_started"]
            assert table.loc[gid, f"{side}_discards"] == sum(a.kind == "discard" for a in acts)      # AFS-13.2
            assert table.loc[gid, f"{side}_home_support"] == sum(a.kind == "home_support" for a in acts)  # AFS-13.7
    # people play Home Support: 38 British and 51 French plays in the five games (none by the French in 10400521)
    assert (table.british_home_support.sum(), table.french_home_support.sum()) == (38, 51)
    assert table.british_discards.sum() == 87 and table.french_discards.sum() == 101
    # game 10415909: the French give Port Royal up at move 119, a British siege won
    assert table.loc[10415909, "british_sieges_won"] >= 1


def test_captured_pieces_equal_the_raids_and_sieges_won(records, pages):
    """AFS-8.9.1 / AFS-9.7: every captured piece comes from a raid that hit or a siege won."""
    table = acres_humans.humans_table(records).set_index("game")
    for gid, game in pages.items():
        for side in ("british", "french"):
            st = game.statuses[-1].sides[side]
            hits = table.loc[gid, f"{side}_raids_hit"] + table.loc[gid, f"{side}_sieges_won"]
            assert st.captured_cubes + st.captured_discs == hits


def test_money_over_time_follows_every_snapshot(records, pages):
    money = acres_humans.money_table(records)
    for gid, game in pages.items():
        rows = money[money.game == gid]
        assert len(rows) == 2 * (len(game.moves) + 1)
        british = rows[rows.side == "british"].sort_values("move")["money"].tolist()
        assert british == [game.start.sides["british"].money] + [s.sides["british"].money for s in game.statuses]


def test_csv_writer_writes_both_tables(records, tmp_path):
    table_path, money_path = acres_humans.write_csv(records, tmp_path / "humans.csv")
    assert money_path.name == "humans_money.csv"
    assert len(pd.read_csv(table_path)) == 5 and set(pd.read_csv(money_path).columns) == {"game", "move", "side", "money"}


@pytest.fixture(scope="module")
def simulated():
    return acres_humans.simulate(9, 5, jobs=1)


def test_simulated_rows_agree_with_the_results_table(simulated):
    """The log-derived columns (AFS-5.1 turns, AFS-8 sieges, AFS-15 end) equal the engine's own
    results of the same games played without a log."""
    listed = acres_humans.scripted_seatings(9)
    table = play.play_games(5, [i for i, _ in listed], [s for _, s in listed], play.load_data(acres_humans.SECOND_EDITION))
    rows = pd.DataFrame([acres_humans.simulated_row(r) for r in simulated]).set_index("game")
    for r in table.itertuples():
        row = rows.loc[r.game_index]
        assert row.turns == r.turns and row[f"{r.power}_final_vp"] == r.score
        assert row[f"{r.power}_sieges_started"] == r.sieges
        assert (row.winner == r.power) == bool(r.winner)
        assert row.end_reason == REASONS.get(r.end_reason, r.end_reason)
        assert row[f"{r.power}_raids_hit"] <= row[f"{r.power}_raids"]
        assert row[f"{r.power}_sieges_won"] <= row[f"{r.power}_sieges_started"]
    logged = [e for _, events in simulated for e in events if e["event"] == "action"]
    for side, q in (("british", 0), ("french", 1)):
        assert rows[f"{side}_discards"].sum() == sum(e["side"] == q and e["action"] == "Discard" for e in logged)
        assert rows[f"{side}_home_support"].sum() == sum(e["side"] == q and e["action"] == "HomeSupport" for e in logged)
    assert rows.british_discards.sum() > 0


def test_simulated_money_starts_at_the_setup_money(simulated):
    money = acres_humans.simulated_money(simulated)
    first = money[money.move == -1].groupby("side").money.unique()
    assert list(first["british"]) == [12] and list(first["french"]) == [5]      # AFS-4.5
    assert money.groupby("game").move.max().tolist() == [r.turns - 2 for r in
                                                          pd.DataFrame([acres_humans.simulated_row(x) for x in simulated]).itertuples()]


def test_simulation_does_not_depend_on_jobs(simulated):
    assert acres_humans.simulate(9, 5, jobs=2) == simulated


def test_report_section_puts_humans_and_scripted_side_by_side(tmp_path):
    sentence, fragments = acres_humans.report_section(tmp_path, games=6, seed=3, jobs=1)
    compare = pd.read_csv(tmp_path / "acres_humans_compare.csv").set_index("figure")
    assert compare.loc["games"].tolist() == [5, 6]
    assert compare.loc["median turns", "humans"] == 173                  # the five shared games
    assert (tmp_path / "acres_humans_money.png").stat().st_size > 0
    assert sentence.startswith("Scripted games last a median") and sentence.endswith(".")
    assert any("<table" in f for f in fragments) and any("acres_humans_money.png" in f for f in fragments)
    games = pd.read_csv(tmp_path / "acres_humans.csv")
    assert (games.source == "yucata").sum() == 5 and (games.source == "engine").sum() == 6
