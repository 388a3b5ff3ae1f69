"""The scripted players' attack scan (sim/struggle/attack_scan.py) and the law table
(sim/struggle/attack_laws.py): candidates as the engine lists them, batch invariance, the value
formula on a hand-built position, and configuration codes."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sim.core.seating import Seating
from sim.struggle import combat_exact
from sim.struggle.attack_laws import OFFSET, CODED, attack_summary
from sim.struggle.attack_scan import PARAMS, count_mask, dense_vp
from sim.struggle.components import default_components
from sim.struggle.choices import Choices
from sim.struggle.engine import Engine
from sim.struggle.play import new_engine
from sim.struggle.scripted import ScriptedPlayer, _vp_at
from sim.struggle.state import ARMY
from tests.struggle.test_engine_helpers import blank, give_tile, region
from tests.struggle.test_engine_invariants import random_seatings


def seats_of(e: Engine):
    for g in range(e.s.n):
        for p in range(int(e.s.n_players[g])):
            yield g, p


def test_candidates_are_the_engine_attack_targets_soe_12_1():
    """SOE-12.1/12.2: the scan's candidates of every seat, at every step of 2-7-player games of
    every strategy, are `Engine.attack_targets` in the same order."""
    seatings = random_seatings(np.random.default_rng(11), 12)
    e = new_engine(default_components(), seatings, 11, range(12))
    compared = []

    def check(e: Engine, where: str) -> None:
        if where != "action" or e.slots_played % 3:
            return
        pairs = list(seats_of(e))
        stand_ins = [SimpleNamespace(g=g, p=p, params_row=np.zeros(len(PARAMS))) for g, p in pairs]
        for (g, p), found in zip(pairs, e.player_work.attack_scan.targets(stand_ins)):
            assert found == e.attack_targets(g, p)
            compared.append(len(found))

    e.on_step = check
    e.play()
    assert sum(compared) > 1000                     # many candidates, of many positions


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.integers(-1, 9), min_size=7, max_size=7), min_size=1, max_size=20),
       st.lists(st.integers(0, 8), min_size=8, max_size=8), st.data())
def test_dense_vp_arrays_equal_the_scalar_dense_rank_soe_16_3(counts, values, data):
    """The scan's dense-rank VP (bit mask of the counts present) equals the players' scalar
    reading of SOE-16.3 for every seat, negative counts (a marker taken away) included."""
    seat = data.draw(st.lists(st.integers(0, 6), min_size=len(counts), max_size=len(counts)))
    c = np.array(counts)
    rows = np.arange(len(counts))
    got = dense_vp(count_mask(c), c[rows, seat], np.tile(values, (len(counts), 1)))
    assert got.tolist() == [_vp_at(row, values, q) for row, q in zip(counts, seat)]


def test_best_attack_alone_equals_best_in_a_batch():
    """A player's attack choice depends on its own game only: scored with every other seat of
    the batch or alone, the answer is the same."""
    seating = Seating(("great_britain", "france", "spain", "russia", "austria"),
                      ("colonial", "european", "mixed", "opportunist", "mixed"))
    e = new_engine(default_components(), [seating] * 6, 5, range(6))
    chosen = []

    def check(e: Engine, where: str) -> None:
        if where != "action" or e.slots_played % 7:
            return
        everyone = [e.players[g][p] for g, p in seats_of(e)]
        together = e.player_work.attack_scan.best(everyone, [True] * len(everyone))
        assert together == [e.player_work.attack_scan.best([pl], [True])[0] for pl in everyone]
        chosen.extend(best for best, _, _ in together if best is not None)

    e.on_step = check
    e.play()
    assert len(chosen) > 20


def test_attack_value_on_a_hand_built_position_soe_23_8():
    """SOE-16.3, SOE-23.8: 3 armies against 1 army holding the only marker of a European region.
    Value = P(control) x gain + kill x E[killed] - fee price - E[lost] x unit price, with gain =
    weight x wars left x (first-place VP + income + harm x his first-place VP)."""
    e = blank(["great_britain", "france"])
    x = region(e, "german_states")
    s = e.s
    s.units[0, 0, x, ARMY] = 3
    s.units[0, 1, x, ARMY] = 1
    s.markers[0, 1, x] = 1
    q = e.comp.data.tree["strategies"]["mixed"]
    player = ScriptedPlayer(e, 0, 0, np.random.default_rng(0), q)
    first = int(e.t.vp[x, 0])
    harm = q["harm_weight"] + q["leader_weight"]                      # both at 0 VP: he "leads"
    gain = q["europe_weight"] * 3 * (first + q["gold_vp"] + harm * first)
    odds = combat_exact.attack_odds(combat_exact.Attack(att_armies=3, def_armies=1, def_has_marker=True), e.comp.combat)
    killed = sum(k * p for k, p in odds.losses("def").items())
    lost = sum(k * p for k, p in odds.losses("att").items())
    expected = (odds.control_change * gain + q["kill_value"] * killed - q["gold_vp"] * e.fee
                - lost * (q["unit_vp"] + q["unrest_vp"]))
    (best, value, p_win), = e.player_work.attack_scan.best([player], [True])
    assert best == (x, ("player", 1)) and p_win == pytest.approx(odds.attacker_win, rel=1e-12)
    assert value == pytest.approx(expected, rel=1e-12)
    (best, value, _), = e.player_work.attack_scan.best([player], [False])               # War Office: no fee
    assert value == pytest.approx(expected + q["gold_vp"] * e.fee, rel=1e-12)


def test_attack_only_strictly_above_the_threshold():
    """A strategy attacks only when the value exceeds its `attack_threshold` (SOE-23): with the
    threshold at the position's best value there is no attack, just below it there is."""
    e = blank(["great_britain", "france"])
    x = region(e, "german_states")
    e.s.units[0, 0, x, ARMY] = 3
    e.s.units[0, 1, x, ARMY] = 1
    e.s.markers[0, 1, x] = 1
    q = dict(e.comp.data.tree["strategies"]["mixed"])
    (_, value, _), = e.player_work.attack_scan.best([ScriptedPlayer(e, 0, 0, None, q)], [True])
    at = ScriptedPlayer(e, 0, 0, None, dict(q, attack_threshold=value))
    below = ScriptedPlayer(e, 0, 0, None, dict(q, attack_threshold=np.nextafter(value, 0)))
    (none, v0, p0), (chosen, v1, p1) = e.player_work.attack_scan.best([at, below], [True, True])
    assert (none, v0, p0) == (None, value, None) and chosen == (x, ("player", 1)) and v1 == value and 0 < p1 < 1


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_configuration_codes_round_trip_and_give_the_exact_law(data):
    """Every configuration the players build codes to one integer and back, and the law table
    returns the exact law of that configuration (through its canonical form)."""
    e = blank(["great_britain", "france"])
    laws = e.player_work.attack_scan.laws
    fields = {name: np.array([data.draw(st.integers(0, r - 1))]) for name, r in zip(CODED, laws.radix)}
    for name, offset in OFFSET.items():
        fields[name] = fields[name] - offset
    attack = laws.decode(int(laws.encode(fields)[0]))
    assert {name: int(getattr(attack, name)) for name in CODED} == {k: int(v[0]) for k, v in fields.items()}
    row, known = laws.lookup(laws.encode(fields), compute=True)
    assert known.all()
    assert tuple(row[0]) == pytest.approx(attack_summary(attack, e.comp.combat), abs=1e-12)


def test_filters_never_hide_a_purchase_a_colony_or_a_build():
    """`may_buy_a_tile`, `may_colonise` and `may_build` are necessary conditions: whenever a
    scripted player's tile choice (SOE-8, SOE-23.1 .. 23.3) buys something, colonise / enslave
    targets exist (SOE-13), or its build choice (SOE-9) builds, the one-pass filter said they
    might."""
    from sim.struggle.attack_scan import Batch
    from sim.struggle.scripted_passes import may_build, may_buy_a_tile, may_colonise
    seatings = random_seatings(np.random.default_rng(3), 10, ("colonial", "european", "mixed", "opportunist"))
    e = new_engine(default_components(), seatings, 3, range(10))
    seen = {"tile": [], "colony": [], "build": []}

    def check(e: Engine, where: str) -> None:
        if where != "action":
            return
        everyone = [e.players[g][p] for g, p in seats_of(e)]
        batch = Batch(e, everyone)
        hopes = zip(may_buy_a_tile(e, batch).tolist(), may_colonise(e, batch).tolist(), may_build(e, batch).tolist())
        for player, (tile, colonise, build) in zip(everyone, hopes):
            player.hopes, player.focus, player._entry = None, None, (-1, {})     # decide afresh, now
            choices = Choices(e, player.g, player.p)
            choice = player.choose_tile(choices)
            assert tile or choice is None
            targets = choices.colonies
            assert colonise or not targets
            built = player.choose_build(choices)
            assert build or built is None
            seen["tile"].append(choice is not None)
            seen["colony"].append(bool(targets))
            seen["build"].append(built is not None)

    e.on_step = check
    e.play()
    for answers in seen.values():
        assert 0 < sum(answers) < len(answers)                       # both answers occur


def test_asking_only_tile_holders_for_free_actions_changes_nothing_soe_7_3(monkeypatch):
    """The engine asks for free actions only players holding a tile used that way (SOE-7.3),
    and for a War Office attack only players who may use one (SOE-20.4); asking every player
    instead gives the same games, logs included, for random and scripted players, and free
    actions and War Office attacks do happen."""
    seatings = random_seatings(np.random.default_rng(5), 16)

    def played() -> list:
        e = new_engine(default_components(), seatings, 7, range(16), log=True)
        e.play()
        return e.logs

    filtered = played()
    monkeypatch.setattr(Engine, "_free_action_holders", lambda self, games, seats: [True] * len(games))
    monkeypatch.setattr(Engine, "usable", lambda self, games, seats, tile: [True] * len(games))
    assert played() == filtered
    events = {x["event"] for log in filtered for x in log}
    assert {"agriculture", "company"} <= events
    assert any(x["event"] == "attack" and x["war_office"] for log in filtered for x in log)



def test_forecasts_are_exact_for_whole_stacks_soe_12_5():
    """The attack scan keeps two units of each kind and folds the rest of the strength into the
    attacker's margin: its forecast for 12 armies against 4 armies, a fort and an ally's 3 armies
    is the exact law of that whole configuration (no cap on a side's stack)."""
    e = blank(["great_britain", "france", "spain"], rows=[0, 1, 1])
    x = region(e, "german_states")
    e.s.units[0, 0, x, ARMY] = 12
    e.s.units[0, 1, x, ARMY], e.s.units[0, 1, x, 2] = 4, 1
    e.s.units[0, 2, x, ARMY] = 3
    e.s.markers[0, 1, x] = 1
    q = dict(e.comp.data.tree["strategies"]["mixed"], attack_threshold=-1e9, min_win=0.0)
    (best, _, p_win), = e.player_work.attack_scan.best([ScriptedPlayer(e, 0, 0, None, q)], [True])
    assert best == (x, ("player", 1))                            # France holds the marker, Spain helps
    whole = combat_exact.Attack(att_armies=12, def_armies=4, def_forts=1, def_ally_armies=3, def_has_marker=True)
    assert p_win == pytest.approx(combat_exact.attack_odds(whole, e.comp.combat).attacker_win, abs=1e-12)


@pytest.mark.parametrize("banking", [False, True])
def test_fee_price_borrows_as_the_engine_pays_soe_2_2_and_20_10(banking):
    """SOE-2.2 / SOE-20.10: the scan prices a fee it cannot pay at the unrest the engine's
    payment takes -- 2 gold per loan, 3 with Banking (a fee of 5 from 0 gold: 3 loans, or 2)."""
    from sim.struggle.components import load_components
    e = blank(["great_britain", "france"], comp=load_components(["rules.economy.attack_fee=5"]))
    x = region(e, "german_states")
    s = e.s
    s.units[0, 0, x, ARMY] = 3
    s.units[0, 1, x, ARMY] = 1
    s.markers[0, 1, x] = 1
    s.gold[0, 0] = 0
    if banking:
        give_tile(e, 0, "banking")
    q = e.comp.data.tree["strategies"]["mixed"]
    player = ScriptedPlayer(e, 0, 0, np.random.default_rng(0), q)
    (_, paid, _), = e.player_work.attack_scan.best([player], [True])
    (_, free, _), = e.player_work.attack_scan.best([player], [False])
    e.pay(0, 0, e.fee)
    loans = int(s.unrest[0, 0])
    assert loans == (2 if banking else 3)
    assert free - paid == pytest.approx(q["gold_vp"] * e.fee + loans * q["unrest_vp"], rel=1e-12)


def test_the_players_law_table_keeps_four_figures_not_whole_laws_soe_12_3():
    """The scripted players' law table solves attacks without filling `attack_odds`'s cache of
    whole laws (kept too, they grew a long run's worker past the pool's leak limit), and the
    uncached solver gives the cached law exactly."""
    combat_exact.attack_odds.cache_clear()
    e = new_engine(default_components(), [Seating(("great_britain", "france", "spain"), ("mixed",) * 3)] * 2, 7, range(2))
    e.play()
    assert len(e.player_work.attack_scan.laws.by_canon) > 0
    assert combat_exact.attack_odds.cache_info().currsize == 0
    attack = combat_exact.Attack(att_armies=3, def_armies=2, def_forts=1, att_reserves=1)
    assert combat_exact.solve_attack(attack, e.comp.combat) == combat_exact.attack_odds(attack, e.comp.combat)
