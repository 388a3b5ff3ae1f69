"""The report's players paragraph (analyses.players_section)."""

from analyses.players_section import cycling
from sim.core.audit import CYCLE, AuditRecords, summarise


def test_the_paragraph_names_each_strategys_idle_cycles_where_the_game_logs_them():
    rec = AuditRecords(actions=[("a", CYCLE, False), ("a", "build", False), ("b", "move", False),
                                ("b", "move", False), ("b", CYCLE, False), ("b", "pass", False)])
    assert cycling(summarise([(("a", "b"), rec)], [])) == (
        " Share of actions spent only cycling cards, nothing else being worth doing: a 50%, b 25%.")
    quiet = summarise([(("a",), AuditRecords(actions=[("a", "build", False)]))], [])
    assert cycling(quiet) == ""
