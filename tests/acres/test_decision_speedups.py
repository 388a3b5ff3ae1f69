"""The decision layer's shortcuts against their definitions: the connected set (AFS-6.2) found
with the sea network opened at once equals the closure over every supply link."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.acres.engine_kit import Game

GAME = Game()


def _closure(t, control: list[int], side: int) -> frozenset[int]:
    """AFS-6.2 by definition: own locations reached from the capital along any supply link."""
    cap, mine = t.capital[side], side + 1
    seen, todo = {cap}, [cap]
    while todo:
        for n in t.supply_adj[todo.pop()]:
            if n not in seen and control[n] == mine:
                seen.add(n)
                todo.append(n)
    return frozenset(seen)


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_afs_6_2_connected_set_is_the_closure_over_all_supply_links(data):
    e, s, t = GAME.e, GAME.s, GAME.t
    control = data.draw(st.lists(st.sampled_from((0, 1, 2)), min_size=len(t.locs), max_size=len(t.locs)))
    for side in (0, 1):
        control[t.capital[side]] = side + 1           # the option that drops a lost capital's set aside
    s.control[0][:] = control
    s.version[0] += 1
    for side in (0, 1):
        assert e.connected(0, side) == _closure(t, control, side)
