"""Age of Discovery odds page: expedition success by party strength against a face-down token
and against the discovery deck (exact, AOD-8), with a bulk cross-check, and the trade income of
random holdings of goods and ships (bulk, using the exact vectorised optimiser of AOD-10)."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from analyses import html
from analyses.odds import judged
from sim.core.metadata import result_metadata
from sim.core.montecarlo import run_blocks
from sim.core.stats import Z95, binomial_se
from sim.discovery import discovery, trade
from sim.discovery.components import load_components

TITLE = "Age of Discovery: expedition odds and trade income"
SEED = 20070101
ASSUMED_PREFIXES = ("discovery.", "goods.")
SOLDIERS = (0, 1, 2)


def build(out_dir: Path, quick: bool = False):
    from analyses.battle_odds import OddsPage

    c = load_components()
    explore = _explore_table(c)
    explore.to_csv(out_dir / "discovery.csv", index=False)
    _plot_explore(explore, out_dir / "discovery.png")
    check, verdict = judged(_cross_check(c, 20_000 if quick else 400_000))
    check.to_csv(out_dir / "cross_check.csv", index=False)
    income = _income_table(c, range(0, 13 if quick else 19), range(0, 4), 2_000 if quick else 20_000)
    income.to_csv(out_dir / "trade.csv", index=False)
    _plot_income(income, out_dir / "trade.png")

    tok = explore[(explore.target == "token") & (explore.soldiers == 0)].set_index("strength")
    card = explore[(explore.target == "card") & (explore.soldiers == 0)].set_index("strength")
    ten = income[(income.goods == 9) & (income.ships == 1)].iloc[0]
    summary = (f"Against an unseen token a party of 3 succeeds {tok.p_success[3]:.0%} of the time, of 4 "
               f"{tok.p_success[4]:.0%}, and 5 always; the deck needs more: strength 4 wins "
               f"{card.p_success[4]:.0%}, 6 always. Nine random goods and one ship pay ${ten.mean_income:.1f} "
               f"a round on average.")
    meta = result_metadata(c.data, SEED, ASSUMED_PREFIXES, quick=quick)
    body = "".join([
        html.summary(summary),
        "<h2>Expeditions (AOD-8): success by party strength</h2>",
        "<p>Exact, by counting: every unseen token is equally likely to lie under any face-down region "
        "(AOD-3.4, AOD-19.6), so at the start of the game every region other than the Caribbean has the "
        "same odds &mdash; the data give no region its own tokens, and only a token shown by an earlier "
        "failed expedition (AOD-8.4) makes one region differ (then the odds are 0 or 1; "
        "<code>empires odds discovery explore --known</code>). The deck (AOD-8.7) is uniform because a "
        "failed card is shuffled back. Strength: captains 2, every other unit 1; each soldier sent "
        "adds the loot per soldier on success.</p>",
        html.figure("discovery.png", "P(success) and expected money by party strength"),
        html.table(_wide(explore).itertuples(index=False), list(_wide(explore).columns)),
        "<h2>Cross-check: exact against bulk Monte Carlo</h2>",
        "<p>The bulk kernel shuffles the unseen tokens (or the deck) and reads the region's slot "
        "(the top card); it must agree with the count.</p>",
        html.table(check.itertuples(index=False), list(check.columns)), verdict,
        "<h2>Trade income (AOD-10) of random holdings</h2>",
        "<p>Each holding is the first k tokens of a shuffled stock of the 46 goods (English set, "
        "AOD-18.3) plus s ships; its income is the exact optimum (sets of any three = $1, three of a "
        "kind = $3, four of a kind = $6, a ship is wild, at most one per set). Means with 95 % "
        "intervals (bars on the plot, brackets in the table: narrow, as each mean rests on many "
        "shuffles); the same shuffles are used for every k and s (common random numbers).</p>",
        html.figure("trade.png", "mean trade income by number of goods and ships"),
        html.table(_income_wide(income).itertuples(index=False), list(_income_wide(income).columns)),
        "<p>Data: <a href=\"discovery.csv\">discovery.csv</a>, <a href=\"cross_check.csv\">cross_check.csv</a>, "
        "<a href=\"trade.csv\">trade.csv</a>.</p>",
        html.provenance(meta),
    ])
    (out_dir / "index.html").write_text(html.page(TITLE, body), encoding="utf-8")
    return OddsPage(TITLE, "index.html", summary)


def _explore_table(c) -> pd.DataFrame:
    rows = []
    for target, pool in (("token", discovery.token_pool(c)), ("card", discovery.card_pool(c))):
        top = max(d.natives for d in pool)
        for strength in range(1, top + 1):
            for soldiers in SOLDIERS:
                if soldiers > strength:
                    continue
                odds = discovery.expedition_odds(pool, strength, soldiers, colonist=target == "token")
                rows.append({"target": target, "strength": strength, "soldiers": soldiers,
                             "p_success": float(odds.p_success), "p_success_exact": str(odds.p_success),
                             "expected_money": float(odds.expected_money), "expected_vp": float(odds.expected_vp)})
    return pd.DataFrame(rows)


def _wide(explore: pd.DataFrame) -> pd.DataFrame:
    base = explore[explore.soldiers == 0].pivot(index="strength", columns="target", values="p_success_exact")
    money = explore.pivot_table(index="strength", columns=["target", "soldiers"], values="expected_money")
    out = pd.DataFrame({"strength": base.index, "P(token)": base["token"].values, "P(card)": base["card"].values})
    for target in ("token", "card"):
        for s in SOLDIERS:
            values = money[(target, s)].values if (target, s) in money else np.full(len(out), np.nan)
            out[f"E$ {target}, {s} soldiers"] = ["" if np.isnan(v) else f"{v:.3f}" for v in values]
    return out.fillna("")


def _plot_explore(explore: pd.DataFrame, path: Path) -> None:
    fig, (left, right) = plt.subplots(1, 2, figsize=(10.5, 4), constrained_layout=True)
    for target, style in (("token", "o-"), ("card", "s--")):
        sub = explore[(explore.target == target) & (explore.soldiers == 0)]
        left.plot(sub.strength, sub.p_success, style, label=f"{target}s")
        for s in SOLDIERS:
            part = explore[(explore.target == target) & (explore.soldiers == s)]
            right.plot(part.strength, part.expected_money, style, label=f"{target}s, {s} soldiers")
    left.set(xlabel="party strength", ylabel="P(success)", ylim=(0, 1.05), title="success")
    right.set(xlabel="party strength", ylabel="expected money ($)", title="expected loot")
    left.legend(loc="lower right")
    right.legend(loc="upper left", fontsize=8, frameon=False)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _cross_check(c, n: int) -> pd.DataFrame:
    rows = []
    for target, pool, strength, soldiers in (("token", discovery.token_pool(c), 3, 1),
                                             ("token", discovery.token_pool(c), 2, 0),
                                             ("card", discovery.card_pool(c), 4, 2)):
        exact = discovery.expedition_odds(pool, strength, soldiers, colonist=target == "token")
        mc = discovery.expedition_mc(pool, strength, soldiers, n, SEED)
        p = float(exact.p_success)
        z = (mc["success"]["estimate"] - p) / float(binomial_se(p, n))
        rows.append({"target": target, "strength": strength, "soldiers": soldiers, "exact": p,
                     "mc": mc["success"]["estimate"], "n": n, "ci95_low": mc["success"]["ci95"][0],
                     "ci95_high": mc["success"]["ci95"][1], "z": round(z, 2)})
    return pd.DataFrame(rows)


def _income_table(c, goods_counts, ships_counts, n: int) -> pd.DataFrame:
    g = c.goods
    stock = np.repeat(np.arange(len(g.names)), g.stock)
    rows = []
    for k in goods_counts:
        for s in ships_counts:
            def kernel(rng, size, k=k, s=s):
                drawn = stock[rng.random((size, len(stock))).argsort(axis=1)[:, :k]]
                counts = (drawn[..., None] == np.arange(len(g.names))).sum(axis=1)
                return {"income": np.bincount(trade.income(g, counts, np.full(size, s)))}

            hist = run_blocks(kernel, n, SEED, "discovery.trade.holdings")["income"]
            values = np.arange(len(hist))
            mean = float(hist @ values / n)
            se = float(np.sqrt(max(hist @ values ** 2 / n - mean ** 2, 0.0) / n))
            rows.append({"goods": k, "ships": s, "n": n, "mean_income": mean, "ci95_low": mean - Z95 * se,
                         "ci95_high": mean + Z95 * se, "max_seen": int(values[hist > 0].max())})
    return pd.DataFrame(rows)


def _income_wide(income: pd.DataFrame) -> pd.DataFrame:
    """Mean income with its 95 % interval, goods down, ships across."""
    cells = income.assign(cell=[f"{m:.3g} [{lo:.3g}, {hi:.3g}]" for m, lo, hi
                                in zip(income.mean_income, income.ci95_low, income.ci95_high)])
    out = cells.pivot(index="goods", columns="ships", values="cell")
    out.columns = [f"{s} ships: mean [95% CI]" for s in out.columns]
    return out.reset_index()


def _plot_income(income: pd.DataFrame, path: Path) -> None:
    fig, ax = plt.subplots(figsize=(7.5, 4.2), constrained_layout=True)
    for s, sub in income.groupby("ships"):
        ax.errorbar(sub.goods, sub.mean_income, yerr=[sub.mean_income - sub.ci95_low, sub.ci95_high - sub.mean_income],
                    fmt="o-", ms=3, capsize=3, elinewidth=1.5, label=f"{s} ships")
    widest = float((income.ci95_high - income.ci95_low).max() / 2)
    ax.set(xlabel="random goods held", ylabel="mean income per round ($), 95 % interval",
           title=f"trade income (exact optimum); intervals at most \u00b1${widest:.2g}")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False, title="ships held")
    fig.savefig(path, dpi=110)
    plt.close(fig)
