"""Golden playthroughs (tests/golden.py): every game with recorded workloads replays them
byte-identically while its engine version is unchanged."""

from __future__ import annotations

import gzip

import pytest

from sim import games
from tests import golden

GAMES = [g for g in games.PACKAGES if (golden.folder(g) / "manifest.json").exists()]
CASES = [(g, name) for g in GAMES for name in golden.workloads(g)]


def test_struggle_has_golden_playthroughs():
    assert "struggle" in GAMES and {c[1] for c in CASES if c[0] == "struggle"} == {"four_players", "mixed_players"}


@pytest.mark.parametrize("game", GAMES)
def test_recorded_engine_version_is_current(game):
    recorded = golden.recorded(game)["engine_version"]
    current = games.info(game).engine_version
    assert recorded == current, (f"{game}: engine version {current}, playthroughs recorded with {recorded}: "
                                 f"re-record them in the same change (python -m tests.golden {game})")


@pytest.mark.parametrize(("game", "name"), CASES)
def test_playthrough_is_byte_identical(game, name):
    manifest = golden.recorded(game)
    if manifest["engine_version"] != games.info(game).engine_version:
        pytest.skip("engine version bumped: see test_recorded_engine_version_is_current")
    for suffix, got in zip(("csv", "jsonl"), golden.play(game, name)):
        path = golden.folder(game) / f"{name}.{suffix}.gz"
        expected = gzip.decompress(path.read_bytes())
        assert golden.digest(expected) == manifest["files"][path.name], f"{path} does not match its manifest"
        assert got == expected, f"{game} {name}.{suffix} changed: {golden.first_difference(expected, got)}"
