"""`sim.core.replay.article`: the accounts of every game write "an army", "a fleet"."""

import pytest

from sim.core.replay import article


@pytest.mark.parametrize(("noun", "expected"), [("army", "an army"), ("infantry", "an infantry"),
                                                ("fleet", "a fleet"), ("galley", "a galley"),
                                                ("Indian Leader", "an Indian Leader"), ("merchant", "a merchant")])
def test_the_indefinite_article_follows_the_first_letter(noun, expected):
    assert article(noun) == expected
