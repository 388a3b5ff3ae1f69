"""analyses.acres_equilibrium: the British-by-French win-rate matrix of each edition, its value as
a zero-sum game with a bootstrap interval, the finding, the CSVs and the page."""

import numpy as np
import pandas as pd
import pytest

from analyses import acres_equilibrium

# British win chance by (British, French) table: a game of matching pennies between two tables a side
PENNIES = {("hammer", "raider"): 1.0, ("hammer", "fortress"): 0.0, ("settler", "raider"): 0.0,
           ("settler", "fortress"): 1.0}


def _fake_play(module, seed, listed, data, jobs=1):
    """A results table whose British rows win as PENNIES says for each game's pairing, sorted by
    game (as the runner's) so that the pairings of one game index interleave."""
    rows = []
    for g, seating in listed:
        sides = dict(zip(seating.powers, seating.strategies))
        won = PENNIES[sides["british"], sides["french"]]
        rows += [{"game_index": g, "power": power, "strategy": sides[power], "winner": (power == "british") == bool(won)}
                 for power in ("british", "french")]
    return pd.DataFrame(rows).sort_values("game_index", kind="stable")


@pytest.fixture
def pennies(monkeypatch):
    monkeypatch.setattr(acres_equilibrium.runner, "play_listed", _fake_play)
    return acres_equilibrium.equilibria(6, 5, 1, rulesets={"first edition": ()}, british=("hammer", "settler"),
                                        french=("raider", "fortress"), resamples=50)


def test_the_matrix_and_its_value_mixing_two_tables_a_side(pennies):
    cells, values = pennies
    assert ((cells.low <= cells.british_rate) & (cells.british_rate <= cells.high)).all()
    assert cells[["british", "french", "british_rate"]].values.tolist() == [
        ["hammer", "raider", 1.0], ["hammer", "fortress", 0.0], ["settler", "raider", 0.0], ["settler", "fortress", 1.0]]
    value = values.iloc[0]
    assert value.value == pytest.approx(0.5) and value.low == pytest.approx(0.5) and value.high == pytest.approx(0.5)
    assert value.british_mix in ("hammer 0.50, settler 0.50", "settler 0.50, hammer 0.50")
    assert value.french_mix in ("raider 0.50, fortress 0.50", "fortress 0.50, raider 0.50")


def test_the_finding_gives_each_edition_s_value_interval_and_mixtures():
    values = pd.DataFrame([{"rules": "first edition", "value": 0.71, "low": 0.62, "high": 0.80,
                            "british_mix": "hammer-tuned 1.00", "french_mix": "raider-tuned 0.60, raider 0.40"},
                           {"rules": "second edition", "value": 0.48, "low": 0.39, "high": 0.57,
                            "british_mix": "hammer-tuned-2e 1.00", "french_mix": "raider-tuned-2e 1.00"}])
    assert acres_equilibrium.finding(values) == (
        "With each side playing its best mixture of the scripted tables, under the first edition the British win "
        "0.71 [0.62, 0.80] (British hammer-tuned 1.00; French raider-tuned 0.60, raider 0.40); under the second "
        "edition the British win 0.48 [0.39, 0.57] (British hammer-tuned-2e 1.00; French raider-tuned-2e 1.00).")


def test_the_interval_follows_the_games_resampled_together():
    """Two British tables, one French: the value is the better table's rate, and the bootstrap's
    interval holds it and stays inside [0, 1]; the same seed gives the same interval."""
    wins = np.array([[[1, 0, 1, 1, 0, 1, 1, 1]], [[0, 0, 1, 0, 0, 1, 0, 0]]], dtype=float)
    low, high = acres_equilibrium.value_interval(wins, 3, 200)
    assert 0 <= low <= wins[0].mean() <= high <= 1 and low < high
    assert acres_equilibrium.value_interval(wins, 3, 200) == (low, high)


def test_the_engine_plays_each_cell_with_the_british_in_every_game():
    """The British tables facing one French table are played in one call and told apart by their
    strategy: each cell is its own pairing's games, as when played alone."""
    both = acres_equilibrium.british_wins(4, 5, 1, (), ("hammer", "settler"), ("raider",))
    alone = acres_equilibrium.british_wins(4, 5, 1, (), ("settler",), ("raider",))
    assert both.shape == (2, 1, 4) and set(both.ravel()) <= {0.0, 1.0}
    assert (both[1] == alone[0]).all()
    with pytest.raises(ValueError, match="repeat one"):
        acres_equilibrium.british_wins(2, 5, 1, (), ("hammer", "hammer"), ("raider",))


def test_report_section_writes_both_tables_and_a_matrix_per_edition(tmp_path, monkeypatch):
    monkeypatch.setattr(acres_equilibrium.runner, "play_listed", _fake_play)
    monkeypatch.setattr(acres_equilibrium, "BRITISH", ("hammer", "settler"))
    monkeypatch.setattr(acres_equilibrium, "FRENCH", ("raider", "fortress"))
    monkeypatch.setattr(acres_equilibrium, "BOOTSTRAP", 20)
    sentence, fragments = acres_equilibrium.report_section(tmp_path, 4, 3, 1)
    rulesets = len(acres_equilibrium.RULESETS)
    assert len(pd.read_csv(tmp_path / "acres_equilibrium.csv")) == 4 * rulesets    # 2 x 2 cells a rule set
    assert len(pd.read_csv(tmp_path / "acres_equilibrium_values.csv")) == rulesets
    assert sentence.startswith("With each side playing its best mixture") and "of the variants" in sentence
    assert sum("<table>" in f for f in fragments) == 3          # every rule set's value, and the editions' matrices


def test_the_finding_names_the_variant_closest_to_even_after_the_editions():
    """The variants come after the editions, as the one whose value is nearest one half, by its
    name (an edition with its article)."""
    rows = [("first edition", 0.80), ("second edition", 0.55), ("Scen1 (fort in Louisbourg)", 0.57),
            ("Scen16 (no early siege)", 0.42), ("Scen19 (no Governors)", 0.81)]
    values = pd.DataFrame([{"rules": r, "value": v, "low": v - 0.05, "high": v + 0.05, "british_mix": "hammer 1.00",
                            "french_mix": "raider 1.00"} for r, v in rows])
    sentence = acres_equilibrium.finding(values)
    assert "under the second edition the British win 0.55 [0.50, 0.60]" in sentence
    assert sentence.endswith("; of the variants, Scen1 (fort in Louisbourg) brings it closest to even "
                             "(0.57 [0.52, 0.62]; British hammer 1.00).")
    assert "Scen19" not in sentence
