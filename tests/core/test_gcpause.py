"""The collector pause (sim/core/gcpause.py): the collector's state is restored, and the count of
cyclic garbage a paused block leaves (what the conformance suite's `check_no_reference_cycles`
asks of every game) sees a cycle when there is one."""

from __future__ import annotations

import gc

import pytest

from sim.core.gcpause import collector_paused, cycles_counted


@pytest.fixture(autouse=True)
def _collector_as_it_was():
    was = gc.isenabled()
    yield
    gc.enable() if was else gc.disable()


@pytest.mark.parametrize("enabled", [True, False])
def test_collector_state_is_restored_even_on_error(enabled):
    gc.enable() if enabled else gc.disable()
    with pytest.raises(ZeroDivisionError), collector_paused():
        assert not gc.isenabled()
        1 / 0
    assert gc.isenabled() == enabled


def test_the_count_sees_a_cycle_made_while_paused_and_nothing_else():
    class Node:
        pass

    with cycles_counted() as left:
        with collector_paused():
            a, b = Node(), Node()
            a.other, b.other = b, a          # a cycle: reference counting alone cannot free it
            del a, b
        with collector_paused():
            kept = [Node() for _ in range(100)]
            del kept                          # freed by reference counting
    assert left[0] >= 2 and left[1] == 0


def test_garbage_from_before_the_block_is_not_counted():
    class Node:
        pass

    a = Node()
    a.me = a
    gc.disable()
    del a                                     # cyclic garbage made before the paused block
    with cycles_counted() as left, collector_paused():
        pass
    assert left == [0]


def test_blocks_outside_the_count_record_nothing():
    with cycles_counted() as left:
        pass
    with collector_paused():
        pass
    assert left == []
