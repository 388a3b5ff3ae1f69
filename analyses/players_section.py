"""The balance report's player audit (sim.core.audit, docs/player_audit.md): a balance number is
only as good as the players that produced it, so every playable game's section says whether the
forecasts its scripted players act on are calibrated and which items they leave unused between
them, and links the full audit page (calibration plot, coverage grid, idleness, waste).

The audit plays every scripted strategy of the game (the random baseline aside), cycled over the
seats with seats and powers rotated, under the report's rules, seed and overrides.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from analyses import player_audit
from sim.core import audit


def scripted(engine: Any) -> list[str]:
    """The strategies the audit plays: every built-in one but the random baseline."""
    return [s for s in engine.INFO.strategies if s != "random"] or ["random"]


def report_section(engine: Any, data: Any, players: int, games: int, seed: int, folder: Path,
                   rel: str, jobs: int = 1) -> tuple[str, list[str]]:
    """(one summary sentence, HTML fragments) of an audit of `games` games, on `jobs` worker
    processes (its progress shown, as the report's other steps'), written to `folder`."""
    strategies = scripted(engine)
    result = audit.audit(engine, data, strategies, players, games, seed, jobs, quiet=False)
    player_audit.write_page(result, folder, f"{engine.INFO.title}: player audit")
    bins = result["calibration"]
    off = audit.miscalibrated(bins)
    forecasts = sum(b["n"] for b in bins)
    unused = result["never_chosen_by_any"]
    if forecasts:
        judged = (f"{len(off)} of {len(bins)} forecast bins ({forecasts} forecasts) differ from what happened "
                  f"beyond chance" + (f" ({', '.join(_bin(b) for b in off)})" if off else ""))
        judged += large(result)
    else:
        judged = "the players log no forecasts to check"
    summary = (f"Player audit ({result['games']} games of {', '.join(strategies)}): {judged}; "
               + (f"no scripted strategy chose {_items(unused)}." if unused
                  else "between them the scripted strategies chose every item.") + cycling(result))
    body = [(f"<h3>Players (audit)</h3><p>{summary} A balance figure measures the game only as far as the "
            f"players play it well: an item nobody chooses has a value the force/ban experiments measure "
            f"poorly, and a miscalibrated forecast means attacks or sieges taken at the wrong odds. "
            f"Items no side can choose under these rules: {_items(result['unavailable']) or 'none'}. "
            f'<a href="{rel}/index.html">The full audit</a> (calibration, coverage per strategy, idleness, '
            f"waste).</p>")]
    return summary, body


def large(result: dict) -> str:
    """A clause on each strategy's forecasts of each kind taken together (`audit.in_the_large`):
    how many of the groups large enough to judge fall outside chance, and which."""
    judged = [g for g in result.get("in_the_large", []) if g["calibrated"] is not None]
    if not judged:
        return ""
    off = [g for g in judged if not g["calibrated"]]
    return (f"; taken together per strategy and kind, {len(off)} of {len(judged)} groups do"
            + (" (" + ", ".join(f"{g['strategy']} {g['kind']}: forecast {g['predicted']:.2f}, realised "
                                f"{g['realised']:.2f}, n {g['n']}" for g in off) + ")" if off else ""))


def cycling(result: dict) -> str:
    """A sentence on the actions spent only cycling cards for want of anything worth doing, where
    the game logs them (their idleness, as its sides seldom pass), else nothing."""
    shares = {s: v["cycle_share"] for s, v in result["idle"].items() if v["cycle_share"] is not None}
    if not shares:
        return ""
    return (" Share of actions spent only cycling cards, nothing else being worth doing: "
            + ", ".join(f"{s} {share:.0%}" for s, share in shares.items()) + ".")


def _bin(b: dict) -> str:
    return f"forecast {b['predicted']:.2f}, realised {b['realised']:.2f}, n {b['n']}"


def _items(items: list[str]) -> str:
    return ", ".join(i.split(":", 1)[-1] + (" (action)" if i.startswith("action:") else "") for i in items)
