"""`sim.core.replay.article` and `count`: the accounts of every game write "an army", "2 leaders"."""

import pytest

from sim.core.replay import article, count


@pytest.mark.parametrize(("noun", "expected"), [("army", "an army"), ("infantry", "an infantry"),
                                                ("fleet", "a fleet"), ("galley", "a galley"),
                                                ("Indian Leader", "an Indian Leader"), ("merchant", "a merchant")])
def test_the_indefinite_article_follows_the_first_letter(noun, expected):
    assert article(noun) == expected


@pytest.mark.parametrize(("n", "one", "many", "expected"), [(1, "leader", None, "1 leader"), (2, "leader", None, "2 leaders"),
                                                            (3, "army", "armies", "3 armies"),
                                                            (4, "infantry", "infantry", "4 infantry")])
def test_count_writes_the_noun_in_its_number(n, one, many, expected):
    assert count(n, one, many) == expected
