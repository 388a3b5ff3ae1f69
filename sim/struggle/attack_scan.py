"""The scripted players' attack choice, scored as arrays over every game of a step.

In one action slot every game of the batch has one player to move. `AttackScan.best` takes the
scripted players about to act and finds each one's best attack at once: the candidates of
`Engine.attack_targets` (SOE-12.1/12.2) of all games become one flat array in the same order
(game, region, then enemy seat, neutral token, Slave Revolt tile, Pirates tile), and their
control-marker gains (dense ranks, SOE-16.3), foreseen configurations and exact odds are
computed with array operations. A player's answer depends only on its own game, so it is the
same whether it is scored alone or with 1,000 other games.

The value of a candidate (SOE-23.8): P(control change) x VP gain + kill value x E[enemy units
lost] - fee price - E[own units lost] x unit price, for candidates whose exact win probability
reaches `min_win`; the best is the first maximum above `attack_threshold`. The VP gain of a
marker is its dense-rank VP for every scoring left plus its income, times the strategy's region
weight, plus the harm done to the victim (weighted up for the VP leader). A player foresees
that allies on both sides commit everything (SOE-12.5), training as superiority and tiles as
owned; of each kind the first two units are kept (a battle takes at most a loss and a 7 from a side) and
the strength of the rest goes into the attacker's margin (`att_bonus`, `att_naval_bonus`), so
the odds are exact for any stack. Exact odds come from `attack_laws`; a candidate whose upper bound cannot reach the best value already known
skips its odds (the bound needs the non-negative prices that data/strategies.toml enforces).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.struggle.attack_laws import BONUS_CLIP, CODED, duel_odds, law_table
from sim.struggle.state import ARMY, FLEET, FORT, MAX_SEATS, N_REGIONS, ON_MAP

KEPT = 2               # units of a kind a battle can take (a loss and a 7); the rest only add strength
CAP_PIRATE_FLEETS = 9                          # fleets against the Pirates tile (margin >= 6 beyond)
MAX_KILLS = 4          # most units a defending side can lose in one attack (naval + land, 7s)
PARAMS = ("attack_threshold", "gold_vp", "unit_vp", "unrest_vp", "unrest_margin", "unrest_margin_last", "kill_value",
          "min_win", "harm_weight", "leader_weight", "europe_weight", "colonial_weight")


def unrest_budget(e: Any, first: float | np.ndarray, last: float | np.ndarray) -> float | np.ndarray:
    """The unrest a strategy is willing to reach this war: the revolution threshold (SOE-18)
    less a margin that moves linearly from `first` (first war) to `last` (last war), so the
    budget follows the rules' threshold and spends the margin as the end nears."""
    wars = e.wars
    share = (e.view.war - 1) / (wars - 1) if wars > 1 else 1.0
    return e.rule("end.revolution_unrest") - (first + (last - first) * share)


def count_mask(counts: np.ndarray) -> np.ndarray:
    """The counts present along the last axis (seats) as a bit mask (bit n: some seat has n;
    counts below 1 never matter, as they score nothing and are below every scoring count)."""
    return np.bitwise_or.reduce(np.left_shift(np.int64(1), np.maximum(counts, 0)), axis=-1)


def dense_vp(mask: np.ndarray, mine: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Dense-rank VP (SOE-16.3) of a count `mine` among counts given by `count_mask`: place =
    number of distinct higher counts; `values` the region's place values, 0-padded to 8
    places; no marker scores nothing."""
    place = np.bitwise_count(mask >> (np.maximum(mine, 0) + 1))
    vp = np.take_along_axis(values, place[..., None].astype(np.intp), axis=-1)[..., 0]
    return np.where(mine > 0, vp, 0)


class Batch:
    """The part of the state the scan reads, for the games of the acting players (B games)."""

    def __init__(self, e: Any, players: list, rows: np.ndarray | None = None) -> None:
        """`rows`: every seat's `params_row` (games, seats, columns), when the caller has them."""
        s = e.view
        self.g = gs = np.fromiter((pl.g for pl in players), dtype=np.int64, count=len(players))
        self.p = ps = np.fromiter((pl.p for pl in players), dtype=np.int64, count=len(players))
        self.rows = np.stack([pl.params_row for pl in players]) if rows is None else rows[gs, ps]   # PARAMS first
        self.params = self.rows[:, : len(PARAMS)].T
        b = np.arange(len(gs))
        seat = np.arange(MAX_SEATS)
        take = slice(None) if len(gs) == s.n and (gs == b).all() else gs     # all games: views, no copies
        units = s.units[take][:, :, :N_REGIONS]                                          # (B,7,R,3)
        self.army, self.fleet, self.fort = units[..., ARMY], units[..., FLEET], units[..., FORT]
        self.markers = s.markers[take]                                                    # (B,7,R)
        self.present = seat[None, :] < s.n_players[take][:, None]
        rows = s.row[take]
        mine = rows[b, ps][:, None]
        me = seat[None, :] == ps[:, None]
        self.allies = self.present & ~me & (mine >= 0) & (rows == mine)                  # (B,7)
        self.enemies = self.present & ~me & ((mine < 0) | (rows != mine))
        self.allies_of = (self.present[:, None, :] & (seat[:, None] != seat[None, :])[None]
                          & (rows[:, :, None] >= 0) & (rows[:, :, None] == rows[:, None, :]))   # (B,d,q)
        self.my_army, self.my_fleet = self.army[b, ps], self.fleet[b, ps]               # (B,R)
        self.tokens_on = s.token_state[take] == ON_MAP
        self.revolt = (s.revolt_region[take], s.revolt_victim[take])
        self.pirates = (s.pirates_region[take], s.pirates_victim[take])
        self.unrest, self.gold = s.own_unrest(gs, ps), s.gold[gs, ps]
        self.vp = s.vp[take]
        self.dev_owned, self.dev_used = s.dev_owned[take], s.dev_used[take]
        self.alliance_owner = s.alliance_owner[take]                                        # (B,tiles)
        held = (self.pirates[0] >= 0) & (self.pirates[1] == ps)
        held = held.astype(int) + ((self.revolt[0] >= 0) & (self.revolt[1] == ps))
        self.can_place = e.marker_limit - self.markers[b, ps].sum(axis=1) - held > 0   # SOE-A32


class Candidates:
    """The attack candidates of a batch as flat arrays in `Engine.attack_targets` order."""

    def __init__(self, scan: "AttackScan", x: Batch) -> None:
        region = np.arange(N_REGIONS)[None, :]
        land, sea_only = x.my_army > 0, (x.my_army == 0) & (x.my_fleet > 0)
        cand = np.zeros((len(x.g), N_REGIONS, scan.pirates_slot + 1), dtype=bool)
        present = (x.markers > 0) | (x.army > 0) | (x.fleet > 0) | (x.fort > 0)        # (B,7,R)
        cand[:, :, :MAX_SEATS] = x.enemies[:, None, :] & (land[:, :, None] & present.transpose(0, 2, 1)
                                                          | sea_only[:, :, None] & (x.fleet > 0).transpose(0, 2, 1))
        cand[:, :, MAX_SEATS: scan.revolt_slot] = land[:, :, None] & (scan.ntok >= 0) & x.tokens_on[:, scan.ntok]
        cand[:, :, scan.revolt_slot] = land & (x.revolt[0][:, None] == region) & (x.revolt[1] != x.p)[:, None]
        cand[:, :, scan.pirates_slot] = (x.my_fleet > 0) & (x.pirates[0][:, None] == region) & (
            x.pirates[1] != x.p)[:, None]
        self.b, self.r, self.c = np.nonzero(cand)
        self.p = x.p[self.b]
        self.player = self.c < MAX_SEATS
        self.d = np.where(self.player, self.c, 0)
        self.neutral = (self.c >= MAX_SEATS) & (self.c < scan.revolt_slot)
        self.token = np.where(self.neutral, scan.ntok[self.r, np.clip(self.c - MAX_SEATS, 0, scan.ntok.shape[1] - 1)],
                              0)
        self.revolt, self.pirates = self.c == scan.revolt_slot, self.c == scan.pirates_slot

    def target(self, scan: "AttackScan", m: int) -> tuple[int, tuple]:
        """Candidate m as `Engine.attack_targets` writes it: (region, target)."""
        c = int(self.c[m])
        if c < MAX_SEATS:
            target: tuple = ("player", c)
        elif c == scan.revolt_slot:
            target = ("revolt",)
        elif c == scan.pirates_slot:
            target = ("pirates",)
        else:
            target = ("neutral", int(self.token[m]))
        return int(self.r[m]), target


class AttackScan:
    """Static tables of one engine for scoring attack candidates (built once per engine)."""

    def __init__(self, engine: Any) -> None:
        e, t = engine, engine.t
        self.e = e
        nav = np.asarray(t.naval_region)
        self.has_nav = nav >= 0
        self.nav = np.where(self.has_nav, nav, 0)
        width = max(len(x) for x in e.neutral_tokens)
        self.ntok = np.full((N_REGIONS, width), -1)
        for r, toks in enumerate(e.neutral_tokens):
            self.ntok[r, : len(toks)] = toks
        self.revolt_slot, self.pirates_slot = MAX_SEATS + width, MAX_SEATS + width + 1
        self.vp_pad = np.zeros((N_REGIONS, MAX_SEATS + 1), dtype=np.int64)
        self.vp_pad[:, : t.vp.shape[1]] = t.vp
        self.tile_army_t = (t.alliance_regions & t.alliance_army[:, None]).astype(bool).T     # (R, tiles)
        self.europe = np.asarray(t.europe, dtype=bool)
        self.token_regions = (t.token_region[:, None] == np.arange(N_REGIONS)).astype(float)   # (T,R), for BLAS
        self.tok_gold, self.tok_vp = np.asarray(t.token_gold), np.asarray(t.token_vp)
        self.tok_strength = np.asarray(t.token_strength)
        self.revolt_strength = e.rule("raids.slave_revolt_strength")
        pirates = e.rule("raids.pirates_strength")
        self.pirate_win = np.array([duel_odds(f, pirates)[0] for f in range(CAP_PIRATE_FLEETS + 1)])
        radix = {f: 2 for f in CODED}
        radix.update({f: KEPT + 1 for f in ("att_armies", "def_armies", "def_forts", "att_fleets", "def_fleets",
                                            "att_ally_armies", "att_ally_fleets", "def_ally_armies",
                                            "def_ally_fleets")},
                     neutral=int(max(self.tok_strength.max(), self.revolt_strength)) + 2,
                     att_bonus=2 * BONUS_CLIP + 1, att_naval_bonus=2 * BONUS_CLIP + 1)
        self.laws = law_table(e.comp.combat, tuple(radix[f] for f in CODED))
        self.k = {name: e.k[name] for name in ("reserves", "army_training", "naval_training", "refuse_battle",
                                                      "banking")}

    def targets(self, players: list) -> list[list[tuple[int, tuple]]]:
        """Each player's attack candidates, as `Engine.attack_targets` lists them."""
        cands = Candidates(self, Batch(self.e, players))
        out: list[list[tuple[int, tuple]]] = [[] for _ in players]
        for m, b in enumerate(cands.b.tolist()):
            out[b].append(cands.target(self, m))
        return out

    def gains(self, x: Batch, c: Candidates) -> np.ndarray:
        """VP value of winning each candidate: the control marker placed (and the victim's
        removed, SOE-12.10) by dense ranks (SOE-16.3), plus a neutral's gold and VP (SOE-12.14)
        or 0.5 for a tile's return."""
        _, gold_vp, *_, harm_w, lead_w, eur_w, col_w = x.params
        b, m = c.b, np.arange(len(c.b))
        counts = x.markers[b, :, c.r]                                                     # (M,7)
        values = self.vp_pad[c.r]
        after = counts.copy()
        after[m, c.p] += 1
        after[m, c.d] -= c.player
        before_d, after_d = count_mask(counts), count_mask(after)
        weight = np.where(self.europe[c.r], eur_w[b], col_w[b]) * (self.e.wars - self.e.view.war + 1)
        top = np.where(x.present, x.vp, np.iinfo(x.vp.dtype).min).max(axis=1)
        harm = harm_w[b] + np.where(x.vp[b, c.d] >= top[b], lead_w[b], 0.0)
        mine = dense_vp(after_d, after[m, c.p], values) - dense_vp(before_d, counts[m, c.p], values) + gold_vp[b]
        harmed = harm * (dense_vp(before_d, counts[m, c.d], values) - dense_vp(after_d, after[m, c.d], values))
        gain = np.where(x.can_place[b], weight * np.where(c.player, mine + harmed, mine), 0.0)
        gain = np.where(c.neutral, gain + gold_vp[b] * self.tok_gold[c.token] + self.tok_vp[c.token], gain)
        return np.where(c.revolt | c.pirates, gain + 0.5, gain)

    def configurations(self, x: Batch, c: Candidates) -> dict[str, np.ndarray]:
        """The CODED `combat_exact.Attack` fields each candidate foresees (SOE-12.5 .. 12.8)."""
        e, k, b, r, d, player = self.e, self.k, c.b, c.r, c.d, c.player
        own, used = x.dev_owned, x.dev_used
        reserves = np.minimum(own[..., k["reserves"]] - used[..., k["reserves"]], 1)          # (B,7)
        training, naval_training = own[..., k["army_training"]], own[..., k["naval_training"]]
        m = np.arange(len(b))
        has_nav = self.has_nav[r]
        army_r = x.army[b, :, r]                                                       # (M,7) every seat's
        fleet_r = np.where(has_nav[:, None], x.fleet[b, :, self.nav[r]], 0)           # ... in the naval region
        any_tile = (x.alliance_owner >= 0).any()
        owners, army_tiles = x.alliance_owner[b], self.tile_army_t[r]                  # (M,tiles)

        def alliance(seat: np.ndarray) -> np.ndarray:        # alliance army tile of `seat` in r (M,)
            if not any_tile:
                return np.zeros(len(b), dtype=np.int64)
            return np.minimum(e.alliance_plus * ((owners == seat[:, None]) & army_tiles).sum(axis=1), 1)

        rules = e.comp.combat
        own_armies = army_r[m, c.p]
        own_fleets = np.where(c.revolt, x.my_fleet[b, r], fleet_r[m, c.p])
        allies = x.allies[b]                                                           # (M,7)
        at, dat = training[b, c.p], training[b, d]
        naval = np.where(player, has_nav, has_nav | c.revolt)
        on_land = player & (own_armies > 0)
        theirs = x.allies_of[b, d]                                                             # (M,7)
        full = {                                    # whole stacks; a battle can take KEPT of each
            "att_armies": own_armies,
            "def_armies": np.where(on_land, army_r[m, d], 0),
            "def_forts": np.where(on_land, x.fort[b, d, r], 0),
            # against a neutral or a tile the own fleet counts only as naval support (SOE-12.14)
            "att_fleets": np.where(player, own_fleets, naval & (own_fleets > 0)),
            "def_fleets": np.where(player, fleet_r[m, d], 0),
            "att_ally_armies": np.where(player & ~on_land, 0, (army_r * allies).sum(axis=1)),
            "att_ally_fleets": np.where(player, (fleet_r * allies).sum(axis=1), 0),
            "def_ally_armies": np.where(on_land, (army_r * theirs).sum(axis=1), 0),
            "def_ally_fleets": np.where(player, (fleet_r * theirs).sum(axis=1), 0),
        }
        kept = {name: np.minimum(v, KEPT) for name, v in full.items()}
        extra = {name: full[name] - kept[name] for name in full}
        land = (rules.army_strength * (extra["att_armies"] + extra["att_ally_armies"] - extra["def_armies"]
                                       - extra["def_ally_armies"]) - rules.fort_strength * extra["def_forts"])
        sea = rules.fleet_strength * (extra["att_fleets"] + extra["att_ally_fleets"] - extra["def_fleets"]
                                      - extra["def_ally_fleets"])
        fought = player & (kept["att_fleets"] > 0) & (kept["def_fleets"] > 0)
        ant, dnt = naval_training[b, c.p], naval_training[b, d]
        return {
            **kept,
            "att_bonus": np.clip(land, -BONUS_CLIP, BONUS_CLIP),
            "att_naval_bonus": np.where(fought, np.clip(sea, -BONUS_CLIP, BONUS_CLIP), 0),
            "att_army_training": np.where(on_land, at > dat, ~player & (at > 0)),
            "def_army_training": on_land & (dat > at),
            "att_naval_training": fought & (ant > dnt),
            "def_naval_training": fought & (dnt > ant),
            "att_alliance_army": np.where(player & ~on_land, 0, alliance(c.p)),
            "def_alliance_army": np.where(on_land, alliance(d), 0),
            "naval_phase": naval,
            "neutral": np.where(c.neutral, self.tok_strength[c.token], np.where(c.revolt, self.revolt_strength, -1)),
            "att_reserves": reserves[b, c.p],
            "def_reserves": np.where(player, reserves[b, d], 0),
            "def_refuse": player & (own[b, d, k["refuse_battle"]] > 0),
            "def_has_marker": ~player | (own_armies == 0) | (x.markers[b, d, r] > 0),
        }

    def best(self, x: Batch | list, fees: list[bool]) -> list[tuple[tuple | None, float, float | None]]:
        """For each scripted player of a batch (or list of players, one per game), (best
        (region, target) or None, its value, its exact probability of winning the battle or
        None); `fees[i]`: whether player i pays the attack fee (not with War Office, SOE-20.4)."""
        if not isinstance(x, Batch):
            x = Batch(self.e, x)
        threshold, gold_vp, unit_vp, unrest_vp, margin, margin_last, kill, min_win, *_ = x.params
        budget = unrest_budget(self.e, margin, margin_last)
        out: list[tuple[tuple | None, float, float | None]] = [(None, v, None) for v in threshold.tolist()]
        c = Candidates(self, x)
        if not len(c.b):
            return out
        unrest_price = unrest_vp * np.where(x.unrest < budget, 1.0, 4.0)
        fee = np.array(fees, dtype=bool) * self.e.fee
        loans, _ = self.e.loans(fee - x.gold, x.dev_owned[np.arange(len(x.g)), x.p, self.k["banking"]] > 0)
        fixed = np.where(fee > 0, gold_vp * fee + loans * self.e.borrow[2] * unrest_price, 0.0)[c.b]   # SOE-2.2
        per_loss = (unit_vp + unrest_price)[c.b]
        gain = self.gains(x, c)
        f = self.configurations(x, c)
        codes = self.laws.encode(f)
        odds, known = self.laws.lookup(np.where(c.pirates, -1, codes))
        win = self.pirate_win[np.minimum(x.my_fleet[c.b, c.r], CAP_PIRATE_FLEETS)]         # SOE-20.16.7
        odds[c.pirates] = np.stack([win, win, (1 - win) + 1 / 6, np.zeros_like(win)], axis=1)[c.pirates]
        known |= c.pirates

        def value(o: np.ndarray, m: np.ndarray | slice) -> np.ndarray:
            v = o[:, 1] * gain[m] + kill[c.b[m]] * o[:, 3] - fixed[m] - o[:, 2] * per_loss[m]
            return np.where(o[:, 0] >= min_win[c.b[m]], v, -np.inf)

        v = np.where(known, value(np.nan_to_num(odds), slice(None)), -np.inf)
        floor = np.maximum(threshold, _segment_max(v, c.b, len(x.g)))
        at_stake = np.minimum(MAX_KILLS, f["def_armies"] + f["def_forts"] + f["def_fleets"] + f["def_ally_armies"]
                              + f["def_ally_fleets"])
        bound = np.maximum(gain, 0.0) + kill[c.b] * np.where(c.player, at_stake, 0) - fixed
        need = ~known & (bound >= floor[c.b])
        if need.any():
            odds[need] = self.laws.lookup(codes[need], compute=True)[0]
            v[need] = value(odds[need], need)
        best = np.maximum(threshold, _segment_max(v, c.b, len(x.g)))
        chosen = np.flatnonzero((v > threshold[c.b]) & (v == best[c.b]))
        games, first = np.unique(c.b[chosen], return_index=True)
        for b, m in zip(games.tolist(), chosen[first].tolist()):
            out[b] = (c.target(self, m), float(v[m]), float(odds[m, 0]))
        return out


def _segment_max(v: np.ndarray, seg: np.ndarray, n: int) -> np.ndarray:
    """Max of v per segment id (-inf for an empty segment)."""
    out = np.full(n, -np.inf)
    np.maximum.at(out, seg, v)
    return out
