"""The scripted players' array passes over a batch (sim.struggle.scripted): necessary conditions
for a build, a colony or a tile purchase, the focus regions, and the parameter rows they read.
Each is one numpy pass for every scripted player about to act, so no player builds them alone.
"""

from __future__ import annotations

import numpy as np

from sim.struggle.attack_scan import PARAMS, Batch, unrest_budget
from sim.struggle.state import N_REGIONS


def may_build(e, x: Batch) -> np.ndarray:
    """False where `ScriptedPlayer.choose_build` surely builds nothing (one array pass): its
    units below `max_units`, `upkeep_ratio` x income and income less `tile_budget` (SOE-15),
    and population to pay for a
    unit (SOE-9.1; none for a free rebuild, SOE-A14 option) above `population_keep`, or a
    free-unit tile usable (SOE-20.5 .. 20.7)."""
    s, k = e.view, e.k
    units = s.units[x.g, x.p].sum(axis=(1, 2))
    population = s.population[x.g, x.p]
    income = population + x.markers[np.arange(len(x.g)), x.p].sum(axis=1)
    rows = x.rows
    room = ((units < rows[:, COLUMN["max_units"]]) & (units < rows[:, COLUMN["upkeep_ratio"]] * income)
            & (units + rows[:, COLUMN["tile_budget"]] < income))
    usable = x.dev_owned > x.dev_used                                                     # (B,7,K)
    me = np.arange(len(x.g)), x.p
    free = (usable[me][:, k["mercenaries"]] | usable[me][:, k["pressgangs"]]
            | (x.dev_owned[me][:, k["trained_natives"]] > 0))
    free_rebuild = not e.opt("rebuild_pays_population")                                  # SOE-A14 option
    paid = ((population >= e.build_pop) | free_rebuild) & (population > rows[:, COLUMN["population_keep"]])
    return room & (paid | free)


def may_colonise(e, x: Batch) -> np.ndarray:
    """False where `Engine.colonise_targets` is surely empty (one array pass, SOE-13): not yet
    colonised this round, a marker left, and a Pop token on the map with the population to pay,
    or a Slave token on the map with a fleet in Africa."""
    s = e.view
    on = x.tokens_on
    pop = (s.population[x.g, x.p] >= e.colonise_pop) & (on & e.is_pop).any(axis=1)
    slave = (x.my_fleet[:, e.africa] > 0) & (on & e.is_slave).any(axis=1)
    return ~s.colonised[x.g, x.p] & x.can_place & (pop | slave)


# Columns of a scripted player's `params_row` for the array passes: these strategy values, then
# one 0/1 column per development tile (1 = on its priority list). PARAMS (attack_scan) come first.
ROW = (*PARAMS, "reform_at", "gold_reserve", "max_copies", "company_from_war", "focus_regions",
       "max_units", "upkeep_ratio", "tile_budget", "population_keep")
COLUMN = {name: i for i, name in enumerate(ROW)}


def may_buy_a_tile(e, x: Batch) -> np.ndarray:
    """False where `ScriptedPlayer.choose_tile` surely buys nothing (one array pass): a
    necessary condition of each of its purchases -- a Buy action left this round (SOE-7.2), and
    Government Reform past `reform_at`, or a priority tile on the display (SOE-8) within the
    copies kept and affordable above `gold_reserve` (Industry only inside the unrest budget), or
    an affordable company tile from `company_from_war`, or an affordable alliance tile early in
    the war with 2+ armies somewhere (SOE-23.2). Bans and raid targets are left to choose_tile."""
    s, t = e.view, e.t
    gs, ps = x.g, x.p
    reform_at, reserve, copies, company_war, margin, margin_last = (x.rows[:, COLUMN[name]] for name in (
        "reform_at", "gold_reserve", "max_copies", "company_from_war", "unrest_margin", "unrest_margin_last"))
    budget = unrest_budget(e, margin, margin_last)
    wanted = x.rows[:, len(ROW):] > 0                                                    # (B,K)
    k_reform, k_industry = e.k["government_reform"], e.k["industry"]
    gold, unrest = x.gold, x.unrest
    spare = (gold - reserve)[:, None]
    on_display = (s.dev_display[gs] > 0) & ~s.no_retake[gs, ps] & (t.dev_pop <= s.population[gs, ps][:, None])
    reform = on_display[:, k_reform] & (unrest >= reform_at)
    devs = on_display & wanted & (s.dev_owned[gs, ps] < copies[:, None]) & (t.dev_gold <= spare)
    devs[:, k_industry] &= unrest + t.dev_unrest[k_industry] < budget
    company = (s.war >= company_war) & ((s.company_owner[gs] < 0) & (t.company_gold <= spare)).any(axis=1)
    early = s.round <= np.asarray(e.n_rounds)[gs] - 2
    alliance = early & (x.my_army >= 2).any(axis=1) & ((s.alliance_owner[gs] < 0) & (t.alliance_gold <= spare)
                                                       & (t.alliance_gold + e.fee <= gold[:, None])).any(axis=1)
    return ~s.bought[gs, ps] & (reform | devs.any(axis=1) | company | alliance)


class FocusRegions:
    """Where each scripted player of a batch wants armies (SOE-23): regions with neutral tokens
    to take, enemy markers to take or own markers to defend, scored by weighted opportunity; the
    best `focus_regions` with a positive score, ties in region order (one array pass; a
    player's list is built when it asks)."""

    def __init__(self, e, x: Batch) -> None:
        b = np.arange(len(x.g))
        neutrals = (x.tokens_on & e.is_neutral).astype(float) @ e.player_work.attack_scan.token_regions        # (B,R) counts
        theirs = (x.markers * x.enemies[:, :, None]).sum(axis=1)
        weight = np.where(e.player_work.attack_scan.europe, x.params[PARAMS.index("europe_weight"), :, None],
                          x.params[PARAMS.index("colonial_weight"), :, None])
        score = weight * (neutrals + 0.7 * theirs + 0.3 * x.markers[b, x.p] + 0.1 * np.asarray(e.first_vp))
        order = np.argsort(-score, axis=1, kind="stable")
        top = np.arange(N_REGIONS) < x.rows[:, COLUMN["focus_regions"], None]
        keep = top & (np.take_along_axis(score, order, axis=1) > 0)
        self.kept = np.where(keep, order, -1).tolist()

    def regions(self, i: int) -> list[int]:
        return [r for r in self.kept[i] if r >= 0]


def strategy_columns(t, params: dict) -> tuple[np.ndarray, list[float], np.ndarray]:
    """A strategy's region weights (array and list) and its row of the array passes (ROW, then
    one 0/1 column per development tile on its priority list); shared, read-only."""
    weight = np.array([params["europe_weight"] if t.europe[r] else params["colonial_weight"] for r in range(N_REGIONS)])
    wanted = set(params["tiles"])
    row = np.array([params[name] for name in ROW] + [name in wanted for name in t.dev], dtype=float)
    return weight, weight.tolist(), row
