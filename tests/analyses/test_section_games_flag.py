"""The AFAoS section pages that take `--games` (the hammer table, the game between the tables)
refuse a bad count in one line, exit 2 and write nothing."""

import pytest

from analyses import acres_equilibrium, acres_hammer


@pytest.mark.parametrize("module", [acres_hammer, acres_equilibrium])
@pytest.mark.parametrize("value", ["0", "x", "-3"])
def test_the_standalone_page_refuses_a_bad_game_count_in_one_line(capsys, tmp_path, module, value):
    with pytest.raises(SystemExit) as exit_:
        module.main(["--games", value, "--out", str(tmp_path / "out")])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--games" in err and not (tmp_path / "out").exists()
