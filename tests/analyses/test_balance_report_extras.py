"""The report's game questions (`balance_report.EXTRAS`) play on the shipped data: a report run with
overrides says so above them, naming what was changed."""

from analyses import balance_report
from sim.core.data import load_game_data


def test_the_questions_note_names_the_overrides_they_do_not_use():
    data = load_game_data("conquest", ["rules.turn_cap=30"])
    note = balance_report.default_data_note(data)
    assert "rules.turn_cap" in note and "shipped data" in note


def test_the_shipped_strategy_tables_are_no_override_of_the_rules():
    data = load_game_data("acres", strategies=("hammer-tuned",))
    assert data.overrides and balance_report.rule_overrides(data) == []
