"""analyses.acres_hammer: the hammer table's shape, its intervals and verdicts, the CSV and the
HTML fragments, on a few games."""

import json

import pandas as pd
import pytest

from analyses import acres_hammer
from sim.acres import play


def test_hammer_table_cells_intervals_and_reasons():
    table = acres_hammer.hammer_table(4, 5, 1, rulesets={"first edition": (), "Scen4": ("rules.variants.scen4=true",)},
                                      pairings=(("hammer", "raider"),))
    assert table[["rules", "british", "french"]].values.tolist() == [["first edition", "hammer", "raider"],
                                                                      ["Scen4", "hammer", "raider"]]
    assert (table.games == 4).all() and ((table.low <= table.british_rate) & (table.british_rate <= table.high)).all()
    shares = table[[c for c in table.columns if c.startswith("end_")]].sum(axis=1)
    assert ((shares - 1).abs() < 1e-9).all()
    assert set(table.sprt) <= {"British favoured", "French favoured", "no edge either way", "no British edge",
                               "no French edge", "undecided"}


def test_the_sprt_verdicts():
    assert acres_hammer.verdict([1] * 60) == "British favoured"
    assert acres_hammer.verdict([0] * 60) == "French favoured"
    assert acres_hammer.verdict([1, 0] * 400) == "no edge either way"
    assert acres_hammer.verdict([0, 0, 1] * 30) in ("no British edge", "French favoured")
    assert acres_hammer.verdict([1, 0]) == "undecided"


def test_report_section_writes_the_csv_and_names_the_finding(tmp_path, monkeypatch):
    rulesets = {"first edition": (), "second edition": ('rules.game.edition="second"',)}
    monkeypatch.setattr(acres_hammer, "RULESETS", rulesets)
    monkeypatch.setattr(acres_hammer, "PAIRINGS", (("hammer", "raider"),))
    sentence, fragments = acres_hammer.report_section(tmp_path, 2, 3, 1)
    table = pd.read_csv(tmp_path / "acres_hammer.csv")
    assert len(table) == 2 and sentence.startswith("The British hammer") and "dominate" in sentence
    assert any("<table>" in f for f in fragments) and all(isinstance(f, str) for f in fragments)


def _row(rules, british, french, rate, low, high, sprt):
    return {"rules": rules, "british": british, "french": french, "games": 40, "british_rate": rate, "low": low,
            "high": high, "sprt": sprt}


def test_the_finding_weighs_the_tuned_ladder_apart_from_the_hand_set_tables():
    """The hammer against the hand-set French tables decides 'dominates'; each pairing of the tuned
    ladder gets its own clause, so a hammer that beats every hand-set table is not thereby called
    dominant of a French player tuned against it."""
    table = pd.DataFrame([_row("first edition", "hammer", "raider", 0.85, 0.71, 0.93, "British favoured"),
                          _row("first edition", "hammer", "fortress", 0.95, 0.84, 0.99, "British favoured"),
                          _row("first edition", "hammer", "raider-tuned", 0.45, 0.31, 0.60, "no British edge"),
                          _row("first edition", "hammer-tuned", "raider-tuned", 0.75, 0.60, 0.86, "British favoured"),
                          _row("Scen16", "hammer", "raider", 0.5, 0.35, 0.65, "undecided"),
                          _row("Scen16", "hammer", "fortress", 0.6, 0.45, 0.74, "undecided"),
                          _row("Scen16", "hammer", "raider-tuned", 0.2, 0.1, 0.35, "French favoured"),
                          _row("Scen16", "hammer-tuned", "raider-tuned", 0.42, 0.28, 0.57, "undecided")])
    sentence = acres_hammer.finding(table)
    assert sentence.startswith("The British hammer dominates the hand-set French strategies")
    assert "(British win rate 0.85-0.95); along the ladder of tuned replies the British win " in sentence
    assert ("hammer against raider-tuned 0.45 [0.31, 0.60] (no British edge), "
            "hammer-tuned against raider-tuned 0.75 [0.60, 0.86] (British favoured).") in sentence
    assert sentence.endswith("Scen16 brings these pairings closest to even (mean British rate 0.43; the game "
                             "between all the tables, below, weighs each side's best choice).")
    weaker = table.assign(low=table.low.where(table.french != "fortress", 0.45))
    assert acres_hammer.finding(weaker).startswith("The British hammer does not dominate")


def _table(reasons: list[str]) -> pd.DataFrame:
    """A results table as the runner returns it: British rows whose games end for `reasons`."""
    rows = [{"game_index": i, "power": power, "winner": power == "british", "turns": 50, "end_reason": reason}
            for i, reason in enumerate(reasons) for power in ("british", "french")]
    return pd.DataFrame(rows)


def test_hammer_table_counts_every_end_reason_of_the_engine(monkeypatch):
    """AFS-15.1 / A25: a second-edition game can end with the capital settled; its share is a
    column like the others, so the shares of a cell add up to 1 under every rule set."""
    ends = ["capital settled", "captures", "cubes out", "capital settled"]
    monkeypatch.setattr(acres_hammer.runner, "play_listed", lambda *args, **kw: _table(ends))
    table = acres_hammer.hammer_table(4, 5, 1, rulesets={"second edition": ()}, pairings=(("hammer", "raider"),))
    assert table.end_capital_settled.tolist() == [0.5]
    assert table[[c for c in table.columns if c.startswith("end_")]].sum(axis=1).tolist() == [1.0]


def test_games_changed_counts_the_games_a_rule_set_plays_otherwise_than_the_first_edition(monkeypatch):
    """Common random numbers: a game index under a variant is compared with the same index under
    the first edition; one game of four ending otherwise is one changed, the first edition none."""
    tables = iter([_table(["captures"] * 4), _table(["captures", "discs out", "captures", "captures"]),
                   _table(["captures"] * 4)])
    monkeypatch.setattr(acres_hammer.runner, "play_listed", lambda *args, **kw: next(tables))
    table = acres_hammer.hammer_table(4, 5, 1, rulesets={"first edition": (), "Scen4": (), "Scen19": ()},
                                      pairings=(("hammer", "raider"),))
    assert table.changed.isna().tolist() == [True, False, False]
    assert table.changed.tolist()[1:] == [1.0, 0.0]


def test_the_finding_names_the_rule_sets_that_change_few_games():
    rows = [_row("first edition", "hammer", "raider", 0.85, 0.71, 0.93, "British favoured") | {"changed": None},
            _row("Scen4", "hammer", "raider", 0.85, 0.71, 0.93, "British favoured") | {"changed": 2},
            _row("Scen16", "hammer", "raider", 0.5, 0.35, 0.65, "undecided") | {"changed": 38}]
    sentence = acres_hammer.finding(pd.DataFrame(rows))
    assert sentence.endswith("Some variants leave most games as the first edition played them (Scen4: 5 % changed): "
                             "the scripted games seldom meet what they change, so their rows say little about them.")
    rows[1]["changed"] = 10
    assert "leave most games" not in acres_hammer.finding(pd.DataFrame(rows))


def test_an_unbinding_variant_changes_no_game_of_the_engine():
    """Yucata's Scen4 takes 3 of the 6 British Regular Infantry away: in these four games the
    hammer never wants a fourth, so every game is played as under the first edition; the second
    edition changes them."""
    table = acres_hammer.hammer_table(4, 5, 1, rulesets={"first edition": (), "Scen4": ("rules.variants.scen4=true",),
                                                         "second edition": ('rules.game.edition="second"',)},
                                      pairings=(("hammer", "raider"),))
    assert table.changed.tolist()[1] == 0.0 and table.changed.tolist()[2] > 0


def test_hammer_table_refuses_an_end_reason_it_does_not_know(monkeypatch):
    monkeypatch.setattr(acres_hammer.runner, "play_listed", lambda *args, **kw: _table(["resigned"]))
    with pytest.raises(ValueError, match="resigned"):
        acres_hammer.hammer_table(1, 5, 1, rulesets={"first edition": ()}, pairings=(("hammer", "raider"),))



def test_the_standalone_page_writes_the_table_and_its_page(monkeypatch, tmp_path):
    monkeypatch.setattr(acres_hammer.runner, "play_listed", lambda *args, **kw: _table(["captures", "capital taken"]))
    assert acres_hammer.main(["--games", "2", "--seed", "1", "--out", str(tmp_path / "out")]) == 0
    page = (tmp_path / "out" / "index.html").read_text()
    assert "The Halifax hammer" in page and (tmp_path / "out" / "acres_hammer.csv").exists()
    meta = json.loads((tmp_path / "out" / "provenance.json").read_text())
    assert meta["engine_version"] == play.INFO.engine_version and meta["seed"] == 1 and meta["assumed"]
    assert "Provenance" in page and meta["data_hash"] in page


def test_the_standalone_page_plays_set_overrides_under_each_rule_set_and_says_so(monkeypatch, tmp_path):
    played = []

    def record(module, seed, listed, data, jobs=1):
        played.append(data)
        return _table(["captures"])

    monkeypatch.setattr(acres_hammer.runner, "play_listed", record)
    out = tmp_path / "out"
    assert acres_hammer.main(["--games", "2", "--set", "options.free_discard=once_per_turn", "--out", str(out)]) == 0
    assert played and all(d.get("options.free_discard") == "once_per_turn" for d in played)
    editions = {d.get("rules.game.edition") for d in played}
    assert editions == {"first", "second"}                       # each rule set's own edition on top
    meta = json.loads((out / "provenance.json").read_text())
    assert meta["overrides"] == {"options.free_discard": "once_per_turn"}


def test_the_standalone_page_refuses_a_bad_override_in_one_line(capsys, tmp_path):
    assert acres_hammer.main(["--set", "options.free_discard=sometimes", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "options.free_discard" in err and not (tmp_path / "out").exists()
