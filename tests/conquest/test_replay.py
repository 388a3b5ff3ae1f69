"""The readable account of a CotE game (`empires replay`): every event a sentence a player can
read, with articles and plurals right (COE-20 purchases, COE-13 battles, COE-12.6 boarding)."""

from sim.cli import main
from sim.conquest.replay import account

HEAD = {"event": "game", "game_index": 1, "seed": 4, "powers": ["red", "blue"], "strategies": ["hunter", "random"]}


def lines(*events: dict) -> list[str]:
    return account(HEAD, list(events))[1:]


def test_purchases_take_the_right_article_and_a_phase_without_one_is_shown():
    assert lines({"event": "buy", "seat": 0, "item": "infantry", "price": 10, "where": "macedonia"},
                 {"event": "buy", "seat": 1, "item": "galley", "price": 20, "where": "aegyptus"},
                 {"event": "no_purchase", "seat": 0, "offered": ["galley"], "treasury": 165},
                 {"event": "no_purchase", "seat": 1, "offered": [], "treasury": 3}) == [
        "  red buys an infantry for 10 (macedonia)",
        "  blue buys a galley for 20 (aegyptus)",
        "  red buys nothing (165 talents; offered galley)",
        "  blue buys nothing (3 talents; offered nothing)"]


def test_repeated_purchases_and_placements_are_counted_on_one_line_coe_20_coe_22():
    """The same item bought again at the same price and place makes one line with the count and
    the total; another item, price, place or seat starts a new line; a placement counts its
    pieces by kind within each province, in the order placed."""
    inf = {"event": "buy", "seat": 0, "item": "infantry", "price": 10, "where": "macedonia"}
    city = {"event": "buy", "seat": 0, "item": "city", "price": 30, "where": "achaia"}
    place = {"event": "place", "seat": 0, "pieces": [["infantry", "macedonia"], ["city", "achaia"],
                                                     ["infantry", "macedonia"], ["cavalry", "macedonia"],
                                                     ["city", "thracia"]]}
    assert lines(inf, inf, inf, {**inf, "price": 20}, {**inf, "seat": 1}, city, city, inf, place) == [
        "  red buys 3 infantry for 30 (macedonia)",
        "  red buys an infantry for 20 (macedonia)",
        "  blue buys an infantry for 10 (macedonia)",
        "  red buys 2 cities for 60 (achaia)",
        "  red buys an infantry for 10 (macedonia)",
        "  red places 2 infantry, 1 cavalry in macedonia; 1 city in achaia; 1 city in thracia"]


def test_a_battle_names_its_leaders_units_and_hits_in_the_right_number():
    battle = {"event": "battle", "kind": "land", "space": "italia", "fortified": False, "attacker": 1,
              "attacker_units": [1, 0, 2], "attacker_leaders": 1, "defender": 0,
              "defender_units": [0, 1, 1], "defender_leaders": 2}
    pursuit = {"event": "pursuit", "seat": 1, "roll": {"cavalry": 1}, "hits": 1, "destroyed": [1, 0, 0]}
    assert lines(battle, pursuit) == [
        "  battle in italia: blue 1 infantry, 2 catapults with 1 leader vs red 1 cavalry, 1 catapult with 2 leaders",
        "    pursuit by blue: [cavalryx1] 1 hit, destroys 1 infantry"]


def test_one_general_boards_and_two_board():
    one = {"event": "move", "kind": "board", "galley": 0, "leaders": [1], "units": [3, 0, 0], "src": "macedonia"}
    two = {**one, "leaders": [1, 2]}
    assert lines(one, two) == ["  red General 1 with 3 infantry boards galley 0 in macedonia",
                               "  red General 1 and red General 2 with 3 infantry board galley 0 in macedonia"]


def test_the_play_table_names_the_vp_column_final_income(capsys):
    """CotE has no victory points: a seat's `vp` is its final income (COE-4), and the table says so."""
    assert main(["play", "conquest", "--players", "2", "--strategies", "random,random", "--games", "2",
                 "--seed", "5", "--quiet"]) == 0
    header = [line for line in capsys.readouterr().out.splitlines() if line.startswith("strategy")]
    assert header and "mean final income" in header[0] and "VP" not in header[0]
