"""The typed game contract (sim.core.contract): GameInfo validation, the registry's check, the
engine version in run folders and `--resume` refusing another engine version."""

from __future__ import annotations

import json
import types

import pytest

from sim import games
from sim.cli import main
from sim.core.contract import GameInfo, check, has_assets
from sim.core.errors import UserError
from sim.core.seating import Seating
from tests.runner import toygame

GOOD = dict(name="g", title="G", rule_prefix="G", powers=("a", "b"), min_players=2, max_players=2,
            strategies=("random",), rules_edition="e", engine_version=1)


@pytest.mark.parametrize(("field", "value", "words"), [
    ("name", "not a name", "identifier"), ("min_players", 3, "not a range"), ("powers", ("a",), "powers"),
    ("powers", ("a", "a"), "distinct"), ("strategies", ("good",), "random"), ("engine_version", 0, "engine_version"),
    ("default_strategy", "none", "default strategy")])
def test_game_info_refuses_an_inconsistent_description(field, value, words):
    with pytest.raises(ValueError, match=words):
        GameInfo(**{**GOOD, field: value})


def test_game_info_names_what_is_allowed_for_a_bad_seating():
    info = GameInfo(**GOOD)
    with pytest.raises(UserError, match="use 2..2"):
        info.check_seating(Seating(("a",), ("random",)))
    with pytest.raises(UserError, match="allowed: a, b"):
        info.check_seating(Seating(("a", "c"), ("random", "random")))
    with pytest.raises(UserError, match="allowed: random"):
        info.check_seating(Seating(("a", "b"), ("random", "clever")))


def test_registry_checks_modules_against_the_contract():
    bare = types.ModuleType("bare")
    with pytest.raises(UserError, match="no INFO"):
        check(bare, "bare")
    bare.INFO = GameInfo(**GOOD)
    with pytest.raises(UserError, match="registered as 'other'"):
        check(bare, "other")
    with pytest.raises(UserError, match="lacks load_data, play_games"):
        check(bare, "g")
    assert games.load("struggle").INFO.title == "Struggle of Empires"
    assert games.title("acres") == "A Few Acres of Snow"          # no engine yet: the package's title
    assert has_assets(games.load("struggle")) and not has_assets(toygame)


def test_run_folder_records_the_engine_version_and_resume_refuses_another(tmp_path, capsys, monkeypatch):
    run = tmp_path / "run"
    assert main(["tournament", "toy", "--players", "2", "--strategies", "strong,weak", "--games", "16",
                 "--out", str(run), "--quiet"]) == 0
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["engine_version"] == toygame.INFO.engine_version
    monkeypatch.setattr(toygame, "INFO", GameInfo(**{**toygame.INFO.__dict__, "engine_version": 2}))
    capsys.readouterr()
    assert main(["tournament", "toy", "--resume", str(run)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "engine version 1" in err[0] and "this is version 2" in err[0]
