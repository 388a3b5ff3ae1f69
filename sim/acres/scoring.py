"""AFS-15: the normal end and final scoring of A Few Acres of Snow, vectorised over a batch.

Positions are arrays with a leading batch axis: `control` (batch, locations) holds 0 for a
neutral location, 1 for British, 2 for French (location order = `Acres.locations`); `town`
(batch, locations) marks a disc; `captured` (batch, 2, 2) counts the enemy cubes and discs each
side (British, French) has captured.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from sim.acres.components import SIDES, Acres, ScoringRules
from sim.core.errors import UserError
from sim.core.scoring import dense_places

PIECES = ("village", "town")


def captured_points(captured: np.ndarray, rules: ScoringRules) -> np.ndarray:
    """AFS-15.3.2 / AFS-8.9.1: 2 per captured cube, 4 per captured disc; shape (batch, 2)."""
    captured = np.asarray(captured, dtype=np.int64)
    return captured[..., 0] * rules.captured_cube + captured[..., 1] * rules.captured_disc


def final_scores(vp: np.ndarray, control: np.ndarray, town: np.ndarray, captured: np.ndarray,
                 rules: ScoringRules) -> dict[str, np.ndarray]:
    """AFS-15.3: each side scores the printed VP of every location it controls, doubled for a
    town (AFS-15.3.1), plus its captures (AFS-15.3.2); the higher total wins and a tie goes to
    the French (AFS-15.3.3). Fort discs, money and cards score nothing (AFS-15.3.4).

    Returns `location`, `captures`, `total` (batch, 2) and `winner` (batch,): 0 British, 1 French.
    The winner is place 0 of `sim.core.scoring.dense_places` over (total, tie-break)."""
    vp = np.asarray(vp, dtype=np.int64)
    control = np.asarray(control)
    worth = vp * np.where(np.asarray(town, dtype=bool), rules.town_multiplier, 1)
    location = np.stack([(worth * (control == s + 1)).sum(axis=-1) for s in range(len(SIDES))], axis=-1)
    captures = captured_points(captured, rules)
    total = location + captures
    tie_break = np.array([0, 1]) if rules.tie_winner == "french" else np.array([1, 0])
    winner = (dense_places(2 * total + tie_break) == 0).argmax(axis=-1)
    return {"location": location, "captures": captures, "total": total, "winner": winner}


def normal_end(cubes_left: np.ndarray, discs_left: np.ndarray, captured: np.ndarray,
               siege_in_progress: np.ndarray, rules: ScoringRules) -> np.ndarray:
    """AFS-15.2 for the player whose turn starts (after the siege checks, AFS-18 A22): with no
    siege in progress, the game ends if he has run out of cubes or discs (AFS-18 A5: either
    kind, recommended; `end_when = "both"` is the alternative) or has captured 12 points.
    `captured` is (batch, 2): his captured enemy cubes and discs."""
    cubes_out = np.asarray(cubes_left) == 0
    discs_out = np.asarray(discs_left) == 0
    ran_out = cubes_out | discs_out if rules.end_when == "either" else cubes_out & discs_out
    points = captured_points(captured, rules) >= rules.capture_end_points
    return ~np.asarray(siege_in_progress, dtype=bool) & (ran_out | points)


def position(acres: Acres, holdings: Mapping[str, Mapping[str, str]]) -> tuple[np.ndarray, np.ndarray]:
    """One position as (control, town) rows from {side: {location: "village" | "town"}}."""
    ids = list(acres.locations)
    control = np.zeros(len(ids), dtype=np.int8)
    town = np.zeros(len(ids), dtype=bool)
    for s, side in enumerate(SIDES):
        for name, piece in holdings.get(side, {}).items():
            loc = acres.location(name)
            if piece not in PIECES:
                raise UserError(f"{side} {loc.id}={piece!r}: piece is not allowed; choose one of: {', '.join(PIECES)}")
            i = ids.index(loc.id)
            if control[i]:
                raise UserError(f"location {loc.id!r} is held by both sides; a location holds one piece (AFS-3.1.1)")
            control[i] = s + 1
            town[i] = piece == "town"
    return control, town


def location_vp(acres: Acres) -> np.ndarray:
    """AFS-3.2: printed VP of every location, in `Acres.locations` order."""
    return np.array([loc.vp for loc in acres.locations.values()], dtype=np.int64)
