"""Force, ban and grant interventions (AOD-14, AOD-3, sim.core.interventions): with
`options.force_saving` = "none" a forced building saves nothing before its first chance, so the
force arm plays exactly as the plain strategy until the building can be bought, like the ban arm;
with "reserve" (the default) it saves for it."""

from __future__ import annotations

from sim.core.seating import Seating
from sim.discovery import play
from sim.discovery.checks import start_resources

GAMES = 6
AGE_III = 7                    # AOD-4.1: the first round of Age III, the Factory's age (AOD-14.3)


def logs(focal: str, saving: str = "none") -> list[list[dict]]:
    powers = play.INFO.powers[:4]
    seatings = [Seating(powers, (focal, "colonist", "merchant", "explorer")) for _ in range(GAMES)]
    comp = play.components_of(play.load_data([f"options.force_saving={saving}"]))
    engine = play.new_engine(comp, seatings, 9, list(range(GAMES)), log=True)
    engine.play()
    return [events for _, events in engine.game_logs()]


def before_age_iii(events: list[dict]) -> list[dict]:
    return [e for e in events if e["round"] < AGE_III]


def test_force_and_ban_play_as_the_plain_strategy_before_the_buildings_age_aod_14_3():
    plain, forced, banned = logs("builder"), logs("builder+force=factory"), logs("builder+ban=factory")
    for a, b, c in zip(plain, forced, banned):
        assert before_age_iii(a) == before_age_iii(b) == before_age_iii(c)
    reserved = logs("builder+force=factory", saving="reserve")
    assert any(before_age_iii(a) != before_age_iii(b) for a, b in zip(plain, reserved))


def test_force_buys_the_factory_and_ban_never_does_aod_6_5():
    forced = [[e for e in ev if e["event"] == "buy" and e["seat"] == 0] for ev in logs("builder+force=factory")]
    banned = [[e for e in ev if e["event"] == "buy" and e["seat"] == 0] for ev in logs("builder+ban=factory")]
    assert any(e["building"] == "factory" for buys in forced for e in buys)
    assert not any(e["building"] == "factory" for buys in banned for e in buys)


def test_each_grant_moves_only_the_focal_seats_units_aod_3_2():
    """`grant_<specialist>=1` puts one more of that specialist in the focal seat's pool at setup
    (`grant_money` adds dollars); no other seat and no other resource changes."""
    powers = play.INFO.powers[:4]
    base = start_resources(3, 0, Seating(powers, ("builder",) * 4))
    for resource, dose in play.GRANTS.items():
        after = start_resources(3, 0, Seating(powers, (f"builder+grant_{resource}={dose}",) + ("builder",) * 3))
        for name in base:
            want = [base[name][0] + (dose if name == resource else 0), *base[name][1:]]
            assert after[name] == want, (resource, name)
    assert set(play.GRANTS) == {"money", "captain", "merchant", "missionary", "soldier"}
