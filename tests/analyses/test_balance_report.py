"""The balance report builds, and every image and link it references exists."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analyses.balance_report import BAND, ReportSize, build_report
from analyses.tournament import imbalance_flags


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("report")
    size = ReportSize(games=28, tile_blocks=2, tiles=("war_office",), jobs=1, quick=True)
    return build_report(out, size)


def referenced(page: Path) -> list[Path]:
    text = page.read_text(encoding="utf-8")
    targets = re.findall(r'(?:src|href)="([^"#:]+)"', text)
    return [page.parent / t for t in targets]


def test_report_has_a_section_per_game(report):
    text = report.read_text(encoding="utf-8")
    for game in ("struggle", "conquest", "acres", "discovery"):
        assert f'id="{game}"' in text
    assert text.count('class="summary"') >= 5 and "ASSUMED values these numbers depend on" in text


def test_every_image_and_link_exists(report):
    pages = [report] + [p for p in referenced(report) if p.suffix == ".html"]
    missing = [str(t) for page in pages for t in referenced(page) if not t.exists()]
    assert referenced(report) and not missing


@pytest.mark.skipif(not (shutil.which("chromium") or shutil.which("chromium-browser")), reason="no Chromium here")
def test_report_renders_in_a_headless_browser_with_no_missing_resources(report):
    """Chromium loads each page over a loopback HTTP server; the server's log shows every
    resource the browser asked for, and none may be missing (404)."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    root = report.parent
    server = subprocess.Popen([sys.executable, "-m", "http.server", "0", "--bind", "127.0.0.1", "-d", str(root)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        port = int(re.search(r"port (\d+)", server.stdout.readline()).group(1))
        pages = [report] + [p for p in referenced(report) if p.suffix == ".html"]
        for page in pages:
            url = f"http://127.0.0.1:{port}/{page.relative_to(root).as_posix()}"
            dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                                  "--virtual-time-budget=5000", "--dump-dom", url],
                                 capture_output=True, text=True)
            assert dom.returncode == 0 and "<h1>" in dom.stdout
    finally:
        server.terminate()
        log = server.communicate()[1]
    requests = re.findall(r'"GET (\S+) HTTP/[\d.]+" (\d{3})', log)
    assert any(path.endswith(".png") for path, _ in requests)
    assert [path for path, status in requests if status == "404" and not path.endswith("favicon.ico")] == []


def test_imbalance_flags_use_the_band_and_family_wise_correction():
    rng = np.random.default_rng(3)
    rows = []
    for g in range(400):
        winner = 0 if rng.random() < 0.55 else int(rng.integers(1, 4))  # power "a" is far too strong
        for s, power in enumerate("abcd"):
            rows.append({"game_index": g, "seat": s, "power": power, "strategy": "x", "winner": s == winner,
                         "vp": float(s == winner), "rank": 1 if s == winner else 2, "players": 4})
    table = pd.DataFrame(rows)
    flags = imbalance_flags(table, band=BAND, factors=("power", "strategy")).set_index(["factor", "level"])
    assert flags.loc[("power", "a"), "flag"] == "too strong"
    assert flags.loc[("strategy", "x"), "flag"] == ""
    # Power "b" wins about 0.15 against a fair share of 0.25: clearly unfair (band 0), but not
    # further from fair than a band of 0.2; power "a" (about 0.55) is beyond both.
    exact = imbalance_flags(table, band=0.0, factors=("power",)).set_index("level")
    wide = imbalance_flags(table, band=0.2, factors=("power",)).set_index("level")
    assert exact.loc["b", "flag"] == "too weak" and wide.loc["b", "flag"] == ""
    assert wide.loc["a", "flag"] == "too strong"
