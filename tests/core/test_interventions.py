"""Interventions as filters over legal choices (sim.core.interventions): ban drops, force keeps
only the choices acquiring its asset until it is held, specs are checked."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from sim.core.errors import UserError
from sim.core.interventions import Intervention, parse

ASSETS = ("a", "b", "c", "d")
choices = st.lists(st.tuples(st.sampled_from((*ASSETS, None)), st.integers(0, 3)), max_size=12)


def acquires(choice):
    return choice[0]


@given(choices, st.sets(st.sampled_from(ASSETS)), st.sampled_from((*ASSETS, None)), st.booleans())
def test_ban_never_acquires_and_force_keeps_only_its_asset_while_not_held(options, ban, force, held):
    iv = Intervention(force=force, ban=frozenset(ban))
    kept = iv.allowed(options, acquires)
    assert kept == [c for c in options if c[0] not in ban]
    forced = iv.forced(options, acquires, held={force} if held else ())
    assert set(forced) <= set(kept)
    if force is not None and not held and any(c[0] == force for c in kept):
        assert forced and all(c[0] == force for c in forced)
    else:
        assert forced == []


def test_no_intervention_keeps_every_choice():
    options = [("a", 1), (None, 2)]
    assert Intervention().allowed(options, acquires) == options
    assert Intervention().forced(options, acquires) == []


def test_parse_reads_force_ban_and_grants():
    name, iv = parse("mixed+force=a+grant_gold=3", ("mixed",), ASSETS, ("gold",))
    assert name == "mixed" and iv.force == "a" and iv.grants == {"gold": 3} and not iv.ban
    assert parse("mixed+ban=b")[1].ban == frozenset({"b"})


@pytest.mark.parametrize(("spec", "words"), [
    ("mixed+force=zz", "asset 'zz' is unknown; allowed: a, b, c, d"),
    ("mixed+grant_gold=x", "whole number"),
    ("mixed+grant_food=1", "intervention 'grant_food' is unknown"),
    ("clever", "strategy 'clever' is unknown"),
    ("mixed+ban", "malformed")])
def test_parse_names_what_is_allowed(spec, words):
    with pytest.raises(UserError, match=words):
        parse(spec, ("mixed",), ASSETS, ("gold",))
