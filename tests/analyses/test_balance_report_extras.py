"""The report's game questions (`balance_report.EXTRAS`) play the report's `--set` / `--variant`
too, each arm's own paths on top: every section takes them, and a report run with overrides says
so above them, naming what was changed."""

import importlib
import inspect
import json

from analyses import balance_report, conquest_seats
from sim.core.data import load_game_data, override_texts, parse_assignment, user_overrides


def test_the_questions_note_names_the_overrides_they_play():
    note = balance_report.overrides_note(["rules.turn_cap"])
    assert "rules.turn_cap" in note and "in every game" in note


def test_the_shipped_strategy_tables_are_no_override_but_a_users_strategy_change_is():
    data = load_game_data("acres", strategies=("hammer-tuned",))
    assert data.overrides and user_overrides(data) == {}
    assert user_overrides(load_game_data("acres", ["options.free_discard=once_per_turn"])) == {
        "options.free_discard": "once_per_turn"}
    raze = load_game_data("conquest", ["strategies.fortifier.raze_at=0.9"])
    assert user_overrides(raze) == {"strategies.fortifier.raze_at": 0.9}


def test_every_question_section_takes_the_reports_overrides():
    for modules in balance_report.EXTRAS.values():
        for name in modules:
            section = importlib.import_module(name).report_section
            assert "overrides" in inspect.signature(section).parameters, name


def test_override_texts_read_back_as_the_same_values():
    values = {"rules.turn_cap": 12, "rules.cycle": ["hispania", "macedonia"], "options.free_discard": "once_per_turn",
              "options.ship_opens_siege": False, "rules.siege.p": 0.25}
    assert dict(parse_assignment(t) for t in override_texts(values)) == values


def test_a_question_section_plays_the_overrides_and_its_own_path_wins_where_both_set_one():
    """CotE seats: the report's turn cap reaches every rotation, while each rotation still sets
    its own turn cycle over the report's (COE-9.1, COE-25.3)."""
    reverse = list(reversed(load_game_data("conquest").get("rules.cycle")))
    table = conquest_seats.play_count(2, 4, seed=2, jobs=1, lineup=("random",),
                                      overrides=("rules.turn_cap=3", f"rules.cycle={json.dumps(reverse)}"))
    assert table.rounds.max() <= 3
    homes = load_game_data("conquest").get("rules.homes.p2")
    first = table[table.position == 1].groupby("rotation").home.first()
    assert sorted(first) == sorted(homes)                                   # each rotation's own cycle...
    assert first[0] == next(h for h in reverse if h in homes)              # ...turning the report's
