"""Actions as data (sim.struggle.actions): every kind is applied by `Engine.apply`, an unknown one
is a RuleViolation, and actions are frozen."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from sim.core.lockstep import RuleViolation
from sim.struggle import actions
from sim.struggle.actions import Pass, UseAgriculture
from tests.struggle.test_engine_helpers import blank

KINDS = [c for _, c in inspect.getmembers(actions, inspect.isclass) if dataclasses.is_dataclass(c)]


def test_every_action_kind_cites_its_rule_and_has_a_handler():
    e = blank(["great_britain", "france"])
    assert len(KINDS) == 10 and set(KINDS) == set(e._handlers)
    assert all("SOE-" in (c.__doc__ or "") for c in KINDS)


def test_actions_are_frozen_and_slotted():
    with pytest.raises(dataclasses.FrozenInstanceError):
        actions.Buy("dev", 1).index = 2
    assert not hasattr(Pass(), "__dict__")


def test_apply_refuses_an_unknown_action_and_an_illegal_free_action_soe_7_3():
    e = blank(["great_britain", "france"])
    with pytest.raises(RuleViolation, match="unknown action"):
        e.apply(0, 0, ("pass",))
    with pytest.raises(RuleViolation, match="Improved Agriculture"):
        e.apply(0, 0, UseAgriculture())             # SOE-20.13: only with the tile
    e.apply(0, 0, Pass())
    assert e.s.stats["passes"][0, 0] == 1 and e.logs[0][-1]["event"] == "pass"


def test_choices_are_the_engines_legal_lists_computed_once_and_banned_tiles_are_absent():
    """SOE-7 .. SOE-13: a decision's Choices are what the engine's rules allow; a ban (sim.core
    interventions) is applied before the player sees the tiles."""
    from sim.core.seating import Seating
    from sim.struggle.choices import Choices
    from sim.struggle.components import default_components
    from sim.struggle.play import new_engine

    e = new_engine(default_components(), [Seating(("great_britain", "france"), ("random+ban=war_office", "random"))],
                   3, [0])
    e.setup()
    for p in (0, 1):
        c = Choices(e, 0, p)
        assert c.tiles == e.buyable(0, p) and c.tiles is c.tiles            # computed once per decision
        assert c.builds == e.build_options(0, p) and c.attacks == e.attack_targets(0, p)
        assert c.moves and all(e.may_move(0, p, *m) for m in c.moves)
        names = {e.asset_of(t) for t in c.tiles}
        assert ("war_office" in names) == (p == 1)
