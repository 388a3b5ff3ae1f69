import numpy as np
from hypothesis import given, strategies as st

from sim.core.stats import wilson_interval


def test_wilson_known_value():
    # 20 successes in 100 trials: Wilson 95 % interval (0.1333, 0.2888), as in standard tables.
    low, high = wilson_interval(20, 100)
    assert abs(low - 0.1333) < 5e-4 and abs(high - 0.2888) < 5e-4


@given(st.integers(1, 10_000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_contains_the_estimate_and_stays_in_unit_interval(kn):
    k, n = kn
    low, high = wilson_interval(k, n)
    assert 0.0 <= low <= k / n <= high <= 1.0


def test_wilson_coverage_is_close_to_nominal():
    rng = np.random.default_rng(2024)
    p, n, reps = 0.3, 200, 4000
    k = rng.binomial(n, p, reps)
    low, high = wilson_interval(k, n)
    coverage = np.mean((low <= p) & (p <= high))
    # Nominal 0.95; the Monte Carlo SE of a coverage estimate from 4000 reps is ~0.0035.
    assert 0.93 < coverage < 0.97
