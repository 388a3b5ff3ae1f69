"""Register the toy dice race (tests/runner/toygame.py) as game "toy" for every runner test.

Workers receive the engine's module path, not the module, and import it themselves; the
repository root is on sys.path under pytest and is passed on to loky and Dask workers."""

from sim import games

games.register("toy", "tests.runner.toygame")
