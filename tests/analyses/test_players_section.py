"""The report's players paragraph (analyses.players_section)."""

from analyses import player_audit
from analyses.players_section import cycling, large
from sim.core.audit import CYCLE, AuditRecords, Forecast, summarise


def test_the_paragraph_names_each_strategys_idle_cycles_where_the_game_logs_them():
    rec = AuditRecords(actions=[("a", CYCLE, False), ("a", "build", False), ("b", "move", False),
                                ("b", "move", False), ("b", CYCLE, False), ("b", "pass", False)])
    assert cycling(summarise([(("a", "b"), rec)], [])) == (
        " Share of actions spent only cycling cards, nothing else being worth doing: a 50%, b 25%.")
    quiet = summarise([(("a",), AuditRecords(actions=[("a", "build", False)]))], [])
    assert cycling(quiet) == ""


def test_the_paragraph_names_each_strategy_whose_forecasts_of_a_kind_fall_short_together(tmp_path):
    """`in_the_large` in a clause: the groups judged (30 forecasts or more), the ones off by name
    with their mean forecast, realised rate and n; the page shows every group in a table."""
    short = [Forecast("fortress", "siege", 0.9, i % 5 < 3) for i in range(100)]        # realised 0.6
    fine = [Forecast("settler", "raid", 0.5, i % 2 == 0) for i in range(40)]
    few = [Forecast("settler", "siege", 0.8, False)] * 5
    result = summarise([(("fortress", "settler"), AuditRecords(forecasts=short + fine + few))], ["action:Settle"])
    assert large(result) == "; taken together per strategy and kind, 1 of 2 groups do (fortress siege: forecast 0.90, " \
                            "realised 0.60, n 100)"
    assert large(summarise([(("settler",), AuditRecords(forecasts=fine))], [])) == (
        "; taken together per strategy and kind, 0 of 1 groups do")
    assert large(summarise([(("settler",), AuditRecords(forecasts=few))], [])) == ""
    result["provenance"] = {"seed": 1}
    page = player_audit.write_page(result, tmp_path, "audit").read_text()
    assert "taken together" in page and "too few" in page and "-10.0" in page
