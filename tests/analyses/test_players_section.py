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
    with their mean forecast, realised rate and n; the page shows every group in a table. Twenty
    games, each with five fortress sieges forecast at 0.9 of which three are won (0.6)."""
    def game(i: int) -> AuditRecords:
        return AuditRecords(forecasts=[Forecast("fortress", "siege", 0.9, j < 3) for j in range(5)]
                            + [Forecast("settler", "raid", 0.5, (i + j) % 2 == 0) for j in range(2)]
                            + [Forecast("settler", "siege", 0.8, False)] * (i < 5))
    result = summarise([(("fortress", "settler"), game(i)) for i in range(20)], ["action:Settle"])
    assert large(result) == "; taken together per strategy and kind, 1 of 2 groups do (fortress siege: forecast 0.90, " \
                            "realised 0.60, n 100)"
    fine = [(("settler",), AuditRecords(forecasts=[Forecast("settler", "raid", 0.5, j == 0) for j in range(2)]))] * 20
    assert large(summarise(fine, [])) == "; taken together per strategy and kind, 0 of 1 groups do"
    assert large(summarise(fine[:10], [])) == ""                # 20 forecasts: too few to judge
    result["provenance"] = {"seed": 1}
    page = player_audit.write_page(result, tmp_path, "audit").read_text()
    assert "taken together" in page and "too few" in page and "-4.5" in page   # games as clusters: -30 / sqrt(20 * 1.5^2)
