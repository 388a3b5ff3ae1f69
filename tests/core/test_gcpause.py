"""The collector pause (sim/core/gcpause.py) and the claim it rests on: playing Struggle of
Empires games makes no reference cycles, so pausing the cyclic collector leaks nothing."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from sim.core.gcpause import collector_paused
from sim.struggle.components import default_components
from sim.struggle.play import new_engine
from tests.struggle.test_engine_invariants import random_seatings


@pytest.mark.parametrize("enabled", [True, False])
def test_collector_state_is_restored_even_on_error(enabled):
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        with pytest.raises(ZeroDivisionError), collector_paused():
            assert not gc.isenabled()
            1 / 0
        assert gc.isenabled() == enabled
    finally:
        gc.enable() if was else gc.disable()


@pytest.mark.parametrize("log", [False, True])
def test_playing_games_makes_no_reference_cycles(log):
    """Every object a batch of 2-7-player games (random and scripted seats) drops while the
    engine plays is freed by reference counting: the collector finds nothing afterwards."""
    e = new_engine(default_components(), random_seatings(np.random.default_rng(11), 12), 5, range(12), log=log)
    gc.collect()
    with collector_paused():                    # no automatic pass may free anything before we look
        e.play()
        cyclic_garbage = gc.collect()
    assert cyclic_garbage == 0
    assert e.s.war == 3                                   # the games were played to the end
