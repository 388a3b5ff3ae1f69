"""Sequential probability ratio tests for strategy comparisons, as engine-testing frameworks use.

Paired blocks of games (common random numbers, seats and powers rotated) give one score per
block: the candidate's mean score in [0, 1]. The blocks are independent, so the test runs on
their scores like Stockfish's fishtest runs on game pairs: a generalised SPRT (GSPRT) with the
Brownian approximation of the log-likelihood ratio between H0: mean score = s0 and
H1: mean score = s1, with the per-block variance estimated from the data,

    LLR = n (s1 - s0) (2 mean - s0 - s1) / (2 var),

(var: the variance of the block scores shrunk towards 1/4, the largest variance a score in
[0, 1] can have, with the weight of one block: the plain sample variance is too small too often
after a few blocks, which would stop tests early and wrongly -- fourfold error rates in
simulation -- and identical early scores, frequent when common random numbers cancel most
luck, would give a zero variance),

stopping when LLR <= ln(beta / (1 - alpha)) (accept H0) or LLR >= ln((1 - beta) / alpha)
(accept H1). Elo bounds convert to scores with the logistic Elo curve.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sim.core.errors import UserError

MAX_VARIANCE = 0.25  # of any score in [0, 1]; the prior weight of one block in the variance


def elo_to_score(elo: float) -> float:
    """Expected score of a player `elo` Elo points stronger: 1 / (1 + 10^(-elo/400))."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's stopping bounds (lower, upper) on the LLR."""
    for name, value in (("--alpha", alpha), ("--beta", beta)):
        if not 0.0 < value < 0.5:
            raise UserError(f"{name} {value} is out of range; allowed 0 < value < 0.5")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def llr(scores, s0: float, s1: float) -> float:
    """GSPRT log-likelihood ratio of H1 (mean s1) over H0 (mean s0) for i.i.d. block scores."""
    x = np.asarray(scores, dtype=float)
    if x.size == 0:
        return 0.0
    var = (x.size * float(x.var()) + MAX_VARIANCE) / (x.size + 1)
    return x.size * (s1 - s0) * (2 * x.mean() - s0 - s1) / (2 * var)


@dataclass
class Sprt:
    """Running state of one test; feed block scores in a fixed order with `add`."""

    s0: float
    s1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not 0.0 <= self.s0 < self.s1 <= 1.0:
            raise UserError(f"SPRT bounds: need 0 <= H0 score {self.s0:.4f} < H1 score {self.s1:.4f} <= 1")
        self.lower, self.upper = bounds(self.alpha, self.beta)
        self.scores: list[float] = []

    def add(self, score: float) -> str | None:
        """Add one block score; returns "H0" or "H1" once a bound is crossed, else None."""
        self.scores.append(float(score))
        return self.decision

    @property
    def llr(self) -> float:
        return llr(self.scores, self.s0, self.s1)

    @property
    def decision(self) -> str | None:
        value = self.llr
        if value >= self.upper:
            return "H1"
        if value <= self.lower:
            return "H0"
        return None


def block_scores(table, a: str, b: str):
    """Strategy a's score per block of a paired comparison, in block order.

    A game scores a's share of the winners among a and b seats (1: only a won, 0: only b won,
    shared first places count by head, 0.5 when neither won); a block scores its games' mean.
    """
    winners = table[table["winner"]]
    per_game = winners.groupby("game_index")["strategy"].agg(
        lambda s: (s == a).sum() / max((s == a).sum() + (s == b).sum(), 1) if (s.isin((a, b))).any() else 0.5)
    blocks = table.groupby("game_index")["block"].first()
    return per_game.reindex(blocks.index, fill_value=0.5).groupby(blocks).mean().sort_index()
