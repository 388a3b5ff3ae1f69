"""The compiled copies of sim.compiled.MODULES: used only while they match their source, never
under EMPIRES_PURE_PYTHON=1, and playing exactly the games the pure-Python reference plays."""

import hashlib
import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim import compiled

ROOT = Path(__file__).resolve().parents[1]
# the results tables of games of every game (every scripted strategy; AFAoS seats rotated), hashed
PLAY = """
import hashlib, importlib, json
from sim import compiled
from sim.core.seating import Seating
afaos = [("hammer", "raider"), ("settler", "fortress"), ("balanced", "balanced"), ("random", "hammer")]
seatings = {
    "acres": [Seating(("british", "french"), p if i % 2 == 0 else p[::-1]) for p in afaos for i in range(6)],
    "conquest": [Seating(("red", "blue", "green", "yellow"), ("expansionist", "fortifier", "hunter", "siege_train"))] * 6,
    "discovery": [Seating(("red", "blue", "yellow", "green"), ("explorer", "colonist", "merchant", "builder"))] * 24,
    "struggle": [Seating(("great_britain", "france", "spain", "russia"),
                         ("colonial", "european", "mixed", "opportunist"))] * 24,
}
out = {}
for game, seats in seatings.items():
    table = importlib.import_module(f"sim.{game}.play").play_games(5, list(range(len(seats))), seats)
    out[game] = hashlib.sha256(table.to_csv().encode()).hexdigest()
print(json.dumps([out, compiled.in_use()]))
"""


def run_python(code: str, pure: bool) -> list:
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=compiled.environment(pure), capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def built() -> dict[str, str]:
    record = compiled.recorded()
    if not record:
        pytest.skip("no compiled modules built (a pure-Python install; the build test says why)")
    return record


def test_every_listed_module_has_a_py_source():
    for module in compiled.MODULES:
        assert compiled.source_path(module).is_file(), module


def test_a_compiled_copy_is_current_only_with_the_hash_of_its_source_as_it_is_now():
    module = compiled.MODULES[0]
    digest = hashlib.sha256(compiled.source_path(module).read_bytes()).hexdigest()
    assert compiled.current(module, {module: digest})
    assert not compiled.current(module, {module: "0" * 64})         # the source changed since the build
    assert not compiled.current(module, {})                         # never compiled
    assert not compiled.current("sim.acres.nowhere", {"sim.acres.nowhere": digest})


def test_the_finder_loads_the_source_unless_the_compiled_copy_is_current(monkeypatch):
    finder = compiled.SourceWhenStale()
    module = "sim.acres.raids"
    finder._record = {module: "0" * 64}                             # stale
    spec = finder.find_spec(module)
    assert spec is not None and spec.origin == str(compiled.source_path(module))
    finder._record = {module: compiled.source_hash(compiled.source_path(module))}
    assert finder.find_spec(module) is None                         # current: the normal import takes it
    monkeypatch.setenv(compiled.PURE_ENV, "1")
    assert finder.find_spec(module).origin.endswith("raids.py")     # the reference asked for
    assert finder.find_spec("sim.acres.play").origin.endswith("play.py")   # not a compiled module: its source
    assert finder.find_spec("sim.acres") is None                    # a package: the normal import
    assert finder.find_spec("numpy") is None                        # not ours


def test_a_compiled_copy_of_a_module_no_longer_listed_is_never_loaded():
    """An earlier build's copy of a module since dropped from MODULES (CotE's) stays in a checkout
    until `make clean`, and the normal import would take it before the source: the finder hands
    out the source of every module of sim that is not a current listed one."""
    finder = compiled.SourceWhenStale()
    finder._record = {}
    for module in ("sim.conquest.taxes", "sim.conquest.scripted"):
        assert module not in compiled.MODULES
        spec = finder.find_spec(module)
        assert spec.origin == str(compiled.source_path(module))
        assert isinstance(spec.loader, importlib.machinery.SourceFileLoader)


def test_the_build_compiled_every_listed_module_from_its_current_source():
    """A build that left a module out (a compile error) or a module edited since the last
    `make` shows here, not as a silent slowdown."""
    if os.environ.get(compiled.PURE_ENV) == "1":
        pytest.skip("EMPIRES_PURE_PYTHON=1")
    record = compiled.recorded()
    assert record, "no compiled modules were built (no C compiler?): run make, or test with EMPIRES_PURE_PYTHON=1"
    assert sorted(record) == sorted(compiled.MODULES)
    stale = [m for m in compiled.MODULES if not compiled.current(m, record)]
    assert not stale, f"edited since the build (run make): {stale}"


def test_compiled_and_pure_python_play_the_same_games_of_every_game():
    built()
    fast, fast_modules = run_python(PLAY, pure=False)
    reference, reference_modules = run_python(PLAY, pure=True)
    assert reference_modules == []
    with_copies = {m.split(".")[1] for m in compiled.MODULES} & set(fast)      # CotE has none, but shares core's
    assert set(fast_modules) >= {f"sim.{game}.{part}" for game in with_copies for part in ("engine", "scripted")}
    assert fast == reference
