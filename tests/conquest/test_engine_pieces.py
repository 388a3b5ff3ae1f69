"""Pieces leaving a province through the engine (COE-2.3): what the bookkeeping keeps."""

from tests.conquest.engine_setup import engine, units


def test_coe_2_3_units_taken_off_a_province_leave_as_many_movement_points_behind():
    """Destroyed or retreating units leave the movement-point buckets they held, fewest points
    first, one bucket entry per unit: the buckets never count more units than the province holds."""
    e = engine(2)
    q = e.t.index("lusitania")
    units(e, 0, "lusitania", (3, 0, 0))
    e.s.ready[0, 0, q, 0] = (1, 2, 0)                # one infantry spent, two with a point left
    e.remove_units(0, 0, q, (2, 0, 0))
    assert e.s.land[0, 0, q, 0] == 1 and e.s.ready[0, 0, q, 0].tolist() == [0, 1, 0]
