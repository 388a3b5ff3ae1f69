"""Conquest of the Empire: what each Home Province is worth, in win rate and in starting talents
(COE-8.2, COE-A29, issue 17 item 3).

A Home Province is not bought, so the asset-value arms "force" and "ban" do not apply; its place in
the game is assigned instead, by the seats design (`analyses.conquest_seats`): every province
moves in every turn-order position once, every strategy of the lineup sits at every province, and
every rotation plays the same seeds. That assignment is the intervention. Per block (a game and its
rotations, which share their dice):

- **value of province X** = win rate of the seats at X - win rate per seat-game of all seats (the
  average Home Province), a paired t interval over blocks (`sim.core.causal.paired_effect`);
- **value of one talent** = (focal seat starting with `grant` more talents - the same seat in the
  same games without) / grant, the focal seat moving through every position, province and
  strategy (`analyses.conquest_seats.focal_seat`);
- **worth of X in talents** = value of X / value of one talent: the starting talents that move an
  average province's holder as far as holding X does. Its negative is the handicap that would
  even X out (a weak province's holder gets that many talents at setup). Interval: a bootstrap over
  blocks, all arms of a block resampled together. Given only where one talent is clearly worth
  something (`sim.core.causal.currency_unpriced`), like every fair price; a worth beyond the
  measured dose is extrapolated on a linear rate and is flagged so.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analyses import html
from sim.core.causal import (NOT_IDENTIFIABLE, Effect, PriceVerdict, bootstrap_means, currency_unpriced,
                             paired_effect, percentile_interval)

AVERAGE, BASE, GRANT = "average", "focal", "focal+grant"
NOT_PLAYED = PriceVerdict(NOT_IDENTIFIABLE, "no grant of talents was played at this player count")
# The default dose: at 60 talents one talent's value was not distinguishable from zero in 64 blocks
# (four players, scripted), while the provinces differ by up to 0.19 win rate either way (docs).
GRANT_TALENTS = 150


def block_table(base: pd.DataFrame, granted: pd.DataFrame | None) -> pd.DataFrame:
    """Per block (rows): each province's win rate, the average seat's (AVERAGE), the focal seat's
    without (BASE) and with the grant (GRANT, when played), each over the block's rotations."""
    homes = base.pivot_table(index="block", columns="home", values="winner", aggfunc="mean")
    arms = {AVERAGE: base.groupby("block")["winner"].mean(), BASE: base[base.focal].groupby("block")["winner"].mean()}
    if granted is not None:
        arms[GRANT] = granted[granted.focal].groupby("block")["winner"].mean()
    return homes.join(pd.DataFrame(arms))


def talent_value(means: pd.DataFrame, grant: int) -> Effect:
    """Win-rate value of one starting talent (COE-A29), linear over the dose."""
    return paired_effect(means, GRANT, BASE).per_unit(grant)


def home_values(base: pd.DataFrame, granted: pd.DataFrame | None, grant: int, seed: int, skill: str) -> pd.DataFrame:
    """One row per Home Province of one player count at one skill level: its value over the average
    province and its worth in talents (none without a grant arm, `granted` None)."""
    means = block_table(base, granted)
    boot = bootstrap_means(means, seed)
    if granted is None:
        nan = float("nan")
        talent, unpriced = Effect(nan, (nan, nan), nan, 0, 0), NOT_PLAYED
        rate = np.full(len(boot), nan)
    else:
        talent = talent_value(means, grant)
        unpriced = currency_unpriced("talents", talent)
        rate = (boot[GRANT] - boot[BASE]).to_numpy() / grant
    rows = []
    for home in base.drop_duplicates("home").home:       # the rulebook's order of the player count
        value = paired_effect(means, home, AVERAGE)
        worth = value.estimate / talent.estimate if unpriced is None else float("nan")
        with np.errstate(divide="ignore", invalid="ignore"):
            low, high = (percentile_interval((boot[home] - boot[AVERAGE]).to_numpy() / rate)
                         if unpriced is None else (float("nan"), float("nan")))
        rows.append({"skill": skill, "players": int(base.players.iloc[0]), "home": home,
                     "blocks": value.blocks, "seat_games": int((base.home == home).sum()),
                     "value": value.estimate, "value_low": value.ci95[0], "value_high": value.ci95[1],
                     "talent_value": talent.estimate, "talent_low": talent.ci95[0], "talent_high": talent.ci95[1],
                     "grant": grant if granted is not None else 0, "worth_talents": worth, "worth_low": low, "worth_high": high,
                     "extrapolated": bool(np.isfinite(worth) and abs(worth) > grant),
                     "note": "" if unpriced is None else unpriced.note})
    return pd.DataFrame(rows)


def verdict(row: pd.Series) -> str:
    """Stronger / weaker than the average province when the value's interval excludes zero."""
    return ("stronger" if row.value_low > 0 else "weaker" if row.value_high < 0 else
            "not distinguishable" if np.isfinite(row.value_low) else "too few blocks")


def _worth_text(row: pd.Series) -> str:
    if not np.isfinite(row.worth_talents):
        return "no price"
    flag = " (beyond the dose)" if row.extrapolated else ""
    return f"{row.worth_talents:+.0f} talents [{row.worth_low:+.0f}, {row.worth_high:+.0f}]{flag}"


def finding_of(worth: pd.DataFrame, players: int, skill: str = "scripted") -> str:
    """One sentence: at the tournament's player count and the scripted level, the strongest and the
    weakest province over the average one, in win rate and in talents, or why no price is given."""
    at = worth[(worth.players == players) & (worth.skill == skill)]
    if not len(at):
        return ""
    best, worst = at.loc[at.value.idxmax()], at.loc[at.value.idxmin()]
    first = at.iloc[0]
    head = (f"Over an average Home Province ({players} players, {skill}), {best.home.title()} adds "
            f"{best.value:+.3f} ({best.value_low:+.3f} to {best.value_high:+.3f}) to the win rate and "
            f"{worst.home.title()} {worst.value:+.3f} ({worst.value_low:+.3f} to {worst.value_high:+.3f})")
    if not np.isfinite(first.worth_talents):
        return head + f"; no worth in talents is given: {first.note}."
    return (head + f"; one starting talent is worth {first.talent_value:+.5f} ({first.talent_low:+.5f} to "
            f"{first.talent_high:+.5f}), so {best.home.title()} is worth {_worth_text(best)} and "
            f"{worst.home.title()} {_worth_text(worst)}: {handicap(worst)}.")


def handicap(row: pd.Series) -> str:
    """The starting talents that would even a province out, said as firmly as the dose allows."""
    name, need, dose = row.home.title(), -row.worth_talents, int(row.grant)
    if not row.value_high < 0:
        return f"{name} is not clearly weaker than the average province, so no handicap is called for"
    if not row.extrapolated:
        return f"a handicap of {need:.0f} starting talents would even {name} out"
    nearest = min(abs(row.worth_low), abs(row.worth_high))
    if nearest > dose and np.sign(row.worth_low) == np.sign(row.worth_high):
        return (f"evening {name} out would take more than the {dose} starting talents measured (about {abs(need):.0f} "
                f"on a linear rate, which the value of talents need not follow that far)")
    return f"about {abs(need):.0f} starting talents would even {name} out on a linear rate, beyond the {dose} measured"


def fragments(worth: pd.DataFrame) -> list[str]:
    """The report's table of every Home Province's value and worth, with how to read it."""
    rows = [(r.skill, int(r.players), r.home.title(), int(r.seat_games), html.sig(r.value),
             html.interval(r.value_low, r.value_high), verdict(r),
             html.sig(r.talent_value) + " " + html.interval(r.talent_low, r.talent_high) if r.grant else "not played",
             _worth_text(r), r.note) for r in worth.itertuples()]
    dose = int(worth.grant.max())
    grants = sorted({int(n) for n in worth[worth.grant > 0].players})
    where = f" (at {', '.join(map(str, grants))} players)" if grants else ""
    return [
        "<h3>What each Home Province is worth</h3>",
        html.table(rows, ("skill", "players", "Home Province", "seat-games", "value over the average province",
                          "95 % interval", "verdict", "one talent's win-rate value [95 %]", "worth in talents [95 %]",
                          "note")),
        (f"<p>The value of a Home Province is its seats' win rate minus the average seat's, the same games "
         f"played with every province in every turn-order position (paired t interval over games and their "
         f"rotations). One talent's value is measured by starting one seat (moving through every position, "
         f"province and strategy) with {dose or 'some'} more talents (COE-A29) in the same games{where}. The worth in talents is "
         f"value / one talent's value, with a bootstrap interval over games: the starting talents that move an "
         f"average province's holder as far as holding this one; its negative is the handicap that would even the "
         f"province out. It is given only where one talent is clearly worth something, and a worth larger than the "
         f"dose rests on a linear rate beyond what was measured.</p>"),
    ]
