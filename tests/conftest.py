"""Shared test settings: hypothesis without deadlines (the machine is shared and noisy), and the
test games registered for every test: the toy dice race (tests/runner/toygame.py) as "toy" and
the synthetic tile game (tests/analyses/tilegame.py) as "tilegame".

Workers receive an engine's module path, not the module, and import it themselves; the
repository root is on sys.path under pytest and is passed on to loky and Dask workers."""

import os

from hypothesis import settings

from sim import games

settings.register_profile("project", deadline=None, max_examples=60, print_blob=True)
# CI (`.ci/run` sets HYPOTHESIS_PROFILE=ci) draws the same examples on every run, so a red build is
# a change's doing and can be rerun; `make test` elsewhere keeps exploring new examples.
settings.register_profile("ci", parent=settings.get_profile("project"), derandomize=True, database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "project"))

TEST_GAMES = {"toy": "tests.runner.toygame", "tilegame": "tests.analyses.tilegame"}
for _name, _path in TEST_GAMES.items():
    games.register(_name, _path)
