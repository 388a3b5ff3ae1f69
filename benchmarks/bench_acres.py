"""AFAoS bulk siege simulations per second (sim.acres.siege), against the numpy dice ceiling."""

from __future__ import annotations

from benchmarks.harness import Figure, median_seconds
from sim.acres import siege
from sim.acres.components import load
from sim.core.random import stream

N = 65_536  # one Monte Carlo block


def run(dice_rate: float) -> list[Figure]:
    acres = load()
    recruited = {s: acres.deck(s, {**acres.starting_deck(s).as_dict(), "regular_infantry": 2, "leader": 1})
                 for s in ("british", "french")}
    cases = {
        "siege, starting decks, GB vs Louisbourg (greedy)": siege.make_setup(acres, "louisbourg", "british"),
        "siege, starting decks, FR vs New York (greedy)": siege.make_setup(acres, "new_york", "french"),
        "siege, recruited decks, GB vs Louisbourg (greedy)": siege.make_setup(acres, "louisbourg", "british",
                                                                               recruited),
        "siege, recruited decks, GB vs Louisbourg (sufficient)": siege.make_setup(
            acres, "louisbourg", "british", recruited, policy=siege.POLICIES["sufficient"]),
    }
    figures = []
    for name, setup in cases.items():
        rate = N / median_seconds(lambda: siege.simulate(setup, stream(1, 0, "bench"), N), reps=5)
        figures.append(Figure(name, rate / 1e3, "k sieges/s", 1e3 * rate / dice_rate,
                              "numpy int8 dice rate (sieges per 1000 dice)"))
    return figures
