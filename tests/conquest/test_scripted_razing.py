"""The scripted players' razing (COE-19, COE-32 phase 4, engine version 16): a City is razed when
the exact chance that the strongest neighbouring enemy force takes it reaches `raze_at`; the
home's City and the Caesar's are never weighed; every City weighed is logged with its chance
(`city_risk`), and the audit counts each razing as a choice."""

from sim.conquest.audit import audit_items, audit_records
from sim.conquest.scripted import ODDS
from tests.conquest.engine_setup import control, engine, events, leader, seat_of, units
from tests.conquest.test_scripted_plans import scripted


def _frontier_city(guard: tuple[int, int, int]):
    """Aegyptus holds a City in Cyrenaica with `guard`; Hispania's two Generals stand with 14 units
    next door in Africa."""
    e = engine(2)
    me, them = seat_of(e, "aegyptus"), seat_of(e, "hispania")
    control(e, me, "cyrenaica", city=True)
    units(e, me, "cyrenaica", guard)
    control(e, them, "africa")
    units(e, them, "africa", (10, 4, 0))
    leader(e, them, 1, "africa")
    leader(e, them, 2, "africa")
    return e, me


def test_coe_19_a_city_the_threat_takes_for_sure_is_razed_and_its_chance_logged():
    e, me = _frontier_city((1, 0, 0))
    q = e.t.index("cyrenaica")
    player = scripted(e, me, "expansionist", raze_at=0.8)
    p = player.city_risk(q)
    assert p == ODDS.solve(e.comp, (10, 4, 0), 2, (1, 0, 0), 1, False, player.weights, True).win and p > 0.8
    assert player.raze([q]) == q
    logged = events(e, "city_risk")[-1]
    assert (logged["seat"], logged["space"], logged["p_lost"]) == (me, "cyrenaica", round(p, 4))


def test_coe_19_a_city_held_well_enough_or_with_raze_at_above_one_is_kept():
    e, me = _frontier_city((12, 4, 2))
    q = e.t.index("cyrenaica")
    assert scripted(e, me, "expansionist", raze_at=0.8).raze([q]) is None
    e, me = _frontier_city((0, 0, 0))
    assert scripted(e, me, "expansionist", raze_at=1.01).raze([q]) is None      # "never"...
    assert not events(e, "city_risk")                                           # ...weighs nothing


def test_coe_19_the_home_city_the_caesars_and_an_unthreatened_one_are_not_weighed():
    e, me = _frontier_city((0, 0, 0))
    player = scripted(e, me, "expansionist", raze_at=0.0)
    home = e.t.index("aegyptus")
    assert player.city_risk(home) is None                                        # where units are placed
    control(e, me, "palaestina", city=True)
    assert player.city_risk(e.t.index("palaestina")) is None                         # no enemy next to it
    leader(e, me, 0, "cyrenaica")                                                # the Caesar walks in
    assert player.city_risk(e.t.index("cyrenaica")) is None


def test_the_audit_counts_a_razing_as_a_choice_and_scores_no_city_risk():
    events_ = [{"event": "setup", "homes": ["a", "b"]}, {"event": "turn", "seat": 0},
               {"event": "city_risk", "seat": 0, "space": "x", "p_lost": 0.95},
               {"event": "raze", "seat": 0, "space": "x"}]
    rec = audit_records({"strategies": ["fortifier", "hunter"]}, events_)
    assert rec.chosen == [("fortifier", 0, "raze")] and not rec.forecasts
    assert "raze" in audit_items()


def test_coe_19_scripted_games_that_raze_keep_every_invariant_and_raze_only_weighed_cities():
    """Every strategy razing at 0.5: whole games under the invariant checks after every step, each
    razing preceded by the City's weighing in the same phase at a chance of 0.5 or more (engine
    version 16)."""
    import tempfile
    from pathlib import Path

    from sim.conquest import checks, play
    from sim.core.replay import read_games
    from sim.core.seating import Seating

    data = play.load_data([f"strategies.{s}.raze_at=0.5" for s in play.INFO.lineup])
    seatings = [Seating(play.INFO.powers[:4], play.INFO.lineup)]
    table = checks.check_games(11, [0], seatings, data)
    assert len(table) == 4
    with tempfile.TemporaryDirectory() as tmp:
        play.play_games(11, [0], seatings, data, log=Path(tmp) / "g.jsonl")
        (_, events), = read_games(Path(tmp) / "g.jsonl")
    razed = [e for e in events if e["event"] == "raze"]
    assert razed and int(table.cities_razed.sum()) == len(razed)
    weighed: dict[tuple, float] = {}
    for e in events:
        if e["event"] == "city_risk":
            weighed[(e["round"], e["seat"], e["space"])] = e["p_lost"]
        elif e["event"] == "raze":
            assert weighed[(e["round"], e["seat"], e["space"])] >= 0.5           # razed at its threshold
