"""The balance report builds, and every image and link it references exists."""

import hashlib
import json
import os
import html as html_lib
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from analyses import balance_report
from analyses.balance_report import BAND, SKILL_LADDER, ReportSize, build_report, skill_levels, tiles_summary
from analyses.tournament import fair_share, imbalance_flags
from sim import games
from sim.cli import main
from sim.core.causal import MIN_BLOCKS, NOT_IDENTIFIABLE, SKILL_DEPENDENT


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("report")
    size = ReportSize(games=28, tile_blocks=MIN_BLOCKS, tiles=("war_office", "bateaux", "cathedral", "catapult"), jobs=1,
                      quick=True, extra_games=4, robust_games=8, audit_games=6)
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


def test_every_playable_game_audits_its_players_and_links_the_audit(report):
    """A balance number is only as good as its players: each section says whether their forecasts
    are calibrated and what no scripted strategy chose, and links the full audit page."""
    text = report.read_text(encoding="utf-8")
    for game in ("struggle", "conquest", "acres", "discovery"):
        page = report.parent / game / "players" / "index.html"
        assert page.exists() and f'href="{game}/players/index.html"' in text
        result = json.loads((report.parent / game / "players" / "audit.json").read_text(encoding="utf-8"))
        assert result["games"] == 6 and "never_chosen_by_any" in result
    assert text.count("<h3>Players (audit)</h3>") == 4 and "Player audit (6 games of " in text


def test_the_soe_section_states_its_skill_levels_and_explains_its_statistics(report):
    """Issue 12 item 5 and issue 13 items 1 and 4: skill levels named; fair share, design
    effect and effective sample size explained; settings as a table; cross-checks judged."""
    text = report.read_text(encoding="utf-8")
    assert "Skill levels measured: <strong>mixed, mixed-tuned</strong>" in text   # the shipped tuned level
    assert "Values of tiles at skill levels mixed, mixed-tuned" in text
    assert "the random baseline too with <code>--skill random,&lt;default&gt;,&lt;default&gt;-tuned</code>" in text
    assert "fair share</strong>" in text and "shared first place" in text and "effective n" in text
    assert "What this report is of" in text and "{&quot;" not in text and '{"games"' not in text
    odds = (report.parent / "struggle" / "odds" / "index.html").read_text(encoding="utf-8")
    assert "Bonferroni" in odds and "pass (|z| &lt;" in odds


def test_skill_levels_pick_up_a_tuned_strategy_once_it_exists():
    def engine(*strategies):
        return SimpleNamespace(INFO=SimpleNamespace(strategies=strategies, default_strategy="mixed"))

    assert skill_levels(engine("random", "mixed", "colonial"), SKILL_LADDER) == ("mixed",)
    assert skill_levels(engine("random", "mixed", "mixed-tuned"), SKILL_LADDER) == ("mixed", "mixed-tuned")
    assert skill_levels(engine("random", "mixed"), ("colonial", "mixed", "<default>")) == ("colonial", "mixed")
    shipped = ("random", "mixed", "mixed-tuned")                  # a named strategy the data folder ships
    assert skill_levels(engine("random", "mixed"), SKILL_LADDER, shipped) == ("mixed", "mixed-tuned")
    assert skill_levels(engine("random", "mixed"), ("random", *SKILL_LADDER), shipped) == ("random", "mixed", "mixed-tuned")


def test_every_games_default_values_reach_a_shipped_tuned_level():
    """The report's asset values of each game end at a tuned table (docs/tuning.md): the default
    strategy's where the game has one, AFAoS's balanced plan (its default is the random baseline);
    the random baseline of every game is one flag away, with the game's own levels kept."""
    expected = {"struggle": ("mixed", "mixed-tuned"), "discovery": ("builder", "builder-tuned"),
                "conquest": ("fortifier", "fortifier-tuned"), "acres": ("random", "balanced", "balanced-tuned")}
    for game, levels in expected.items():
        engine = games.load(game)
        size = ReportSize().for_game(game, engine.INFO)
        experiments = balance_report.tile_experiments(game, engine, engine.load_data(), size)
        assert tuple(e.strategy for e in experiments) == levels, game
        with_random = replace(size, tile_strategies=("random", *SKILL_LADDER))
        experiments = balance_report.tile_experiments(game, engine, engine.load_data(), with_random)
        assert tuple(e.strategy for e in experiments) == ("random", *levels[levels[0] == "random":]), game


def test_the_summary_lists_each_asset_once_with_its_verdict_per_level():
    """Issue 13: no asset twice, no level unnamed; a sign change is skill-dependent, apart."""
    assets = pd.DataFrame([
        {"tile": "navigation", "verdict random": "under-priced", "verdict mixed": "fair", "finding": "under-priced",
         "skill_dependent": False, "sign_changes": ""},
        {"tile": "industry", "verdict random": "under-priced", "verdict mixed": "over-priced",
         "finding": SKILL_DEPENDENT, "skill_dependent": True, "sign_changes": "random vs mixed"},
        {"tile": "venice", "verdict random": NOT_IDENTIFIABLE, "verdict mixed": "fair", "finding": "",
         "skill_dependent": False, "sign_changes": ""}])
    resources = pd.DataFrame([{"resource": "gold", "strategy": "random", "measured": True},
                              {"resource": "gold", "strategy": "mixed", "measured": False}])
    text = tiles_summary(assets, resources, ["random", "mixed"], 8)
    assert text.count("navigation") == 1 and "navigation (random: under-priced, mixed: fair)" in text
    assert text.count("industry") == 1 and "Skill-dependent" in text and "Over-priced" not in text
    assert "No fair prices at mixed" in text and "1 other asset is consistent" in text


def test_an_unidentified_level_names_the_command_that_would_settle_it(report):
    """"About N blocks would settle its sign" comes with the command that plays them: the CLI
    accepts it as written and it repeats the level's seed, players, tiles and overrides; a level
    whose prices are given, or whose blocks to settle are unknown, gets none."""
    from analyses import tile_value as tv
    from sim.cli import build_parser
    experiment = tv.Experiment(game="struggle", strategy="mixed", tiles=("war_office",), players=4, blocks=5,
                               seed=3, overrides=("tiles.war_office.cost_gold=6",))
    group = pd.DataFrame({"tile": ["war_office", "bateaux"], "verdict": [NOT_IDENTIFIABLE] * 2,
                          "settle_blocks": [22.0, 22.0]})
    text = balance_report.settle_command(experiment, group, True)
    command = re.search(r"<code>(.*)</code>", text)[1]
    assert "(4.4 times this level's games)" in text
    args = build_parser().parse_args(shlex.split(html_lib.unescape(command))[1:])
    assert (args.game, args.strategy, args.blocks, args.seed, args.players, args.jobs) == ("struggle", ["mixed"], 22, 3,
                                                                                            4, 2)
    assert args.tiles == "war_office" and args.overrides == ["tiles.war_office.cost_gold=6"]
    assert balance_report.settle_command(experiment, group.assign(settle_blocks=float("nan")), False) == ""
    assert balance_report.settle_command(experiment, group.assign(verdict="fair"), False) == ""
    sides = pd.DataFrame({"tile": ["a (british)", "b (british)", "a (french)"],
                          "price_note": ["about 70 blocks would settle its sign", "about 70 blocks would settle its sign",
                                         "no number of blocks"]})
    assert balance_report._price_notes(sides) == "british: about 70 blocks would settle its sign; french: no number of blocks"
    levels = [part for part in report.read_text(encoding="utf-8").split("<h4>") if "No fair prices at this level" in part]
    assert levels and all(("would settle its sign" in part) == ("To settle it at this level" in part) for part in levels)
    assert any("To settle it at this level" in part for part in levels)


def test_fair_share_counts_shared_wins():
    """The fair share is wins per seat-game: above 1/N by the games with a shared first place."""
    rows = [{"game_index": g, "players": 4, "seat": s, "winner": s == 0 or (g % 4 == 0 and s == 1)}
            for g in range(40) for s in range(4)]
    share = fair_share(pd.DataFrame(rows))
    assert share["shared_games"] == pytest.approx(0.25) and share["one_over_n"] == 0.25
    assert share["share"] == pytest.approx(50 / 160)


def test_each_section_ties_its_findings_to_assumption_groups_with_verdicts(report):
    """Issue 13 item 2: a findings table at the top of each section; the perturbed runs' numbers
    in robustness.csv; the verdicts in headline.json; the ASSUMED values collapsed by group."""
    text = report.read_text(encoding="utf-8")
    for game in ("struggle", "conquest", "acres", "discovery"):
        section = text[text.index(f'id="{game}"'):]
        assert section.index("Findings and the assumptions behind them") < section.index("<h3>Odds</h3>")
    soe = text[text.index('id="struggle"'):text.index('id="conquest"')]
    assert "strongest strategy:" in soe and "weakest seat:" in soe and "token mix reshuffled" in soe
    for game, after in (("conquest", "acres"), ("acres", "discovery"), ("discovery", None)):
        section = text[text.index(f'id="{game}"'):text.index(f'id="{after}"') if after else None]
        assert "strongest strategy:" in section and "<h3>Win rates" in section
        assert (report.parent / game / "headline.json").exists() and (report.parent / game / "questions").is_dir()
    assert "<details><summary><strong>ASSUMED values these numbers depend on</strong>" in soe
    assert "tiles.*.cost_gold" in soe and "<code>tiles.war_office.name</code>" not in soe
    numbers = pd.read_csv(report.parent / "struggle" / "robustness.csv")
    assert numbers["perturbation"].nunique() == 8 and set(numbers["factor"]) == {"strategy", "power", "seat"}
    verdicts = json.loads((report.parent / "struggle" / "headline.json").read_text("utf-8"))["findings"]
    assert verdicts and all(v["verdict"] in ("robust", "fragile", "untested") for v in verdicts)
    assert all(bool(v["flips"]) == (v["verdict"] == "fragile") for v in verdicts)


def test_the_cote_section_tells_the_turn_order_from_the_home_province(report):
    """Issue 17 item 3: win rate by seat and Home Province for each player count (COE-8.2, COE-9)."""
    text = report.read_text(encoding="utf-8")
    section = text[text.index('id="conquest"'):text.index('id="acres"')]
    assert "<h3>Seats and Home Provinces by player count</h3>" in section and "moving first wins" in section
    seats = pd.read_csv(report.parent / "conquest" / "questions" / "conquest_seats.csv")
    assert set(seats.players) == {2, 3, 4, 5, 6} and set(seats.kind) == {"rulebook", "home", "position"}
    assert "<h3>What each Home Province is worth</h3>" in section             # issue 17 item 3: its value
    worth = pd.read_csv(report.parent / "conquest" / "questions" / "conquest_homes.csv")
    assert set(worth.players) == {2, 3, 4, 5, 6} and set(worth[worth.grant > 0].players) == {4}


def test_the_cote_section_says_how_its_games_ended(report):
    """Issue 17 item 3: draw and turn-cap rates and eliminations, with intervals (COE-25)."""
    text = report.read_text(encoding="utf-8")
    section = text[text.index('id="conquest"'):text.index('id="acres"')]
    assert "<h4>How the games ended</h4>" in section and "Seats eliminated per game" in section
    results = pd.read_csv(report.parent / "conquest" / "tournament" / "results.csv")
    top = results.groupby("game_index").end_reason.first().value_counts()
    assert f"% of the games ended by {top.index[0]}" in section


def test_the_afaos_section_reads_no_first_seat_advantage_into_its_seat_labels(report):
    """AFS-5.1.1: the British move first whoever sits in seat 0, so a seat is only a label; the
    games whose seats move in order still measure seat 0 against the fair share."""
    text = report.read_text(encoding="utf-8")
    acres = text[text.index('id="acres"'):text.index('id="discovery"')]
    conquest = text[text.index('id="conquest"'):text.index('id="acres"')]
    assert "A seat is only a label: the British always move first, whoever sits in seat 0 (AFS-5.1.1)." in acres
    assert "against a fair share" not in acres
    assert "Seat 0 wins" in conquest and "A seat is only a label" not in conquest
    groups = {game: {r["group"] for r in json.loads((report.parent / game / "headline.json").read_text("utf-8"))["numbers"]}
              for game in ("acres", "conquest")}
    assert "first seat" not in groups["acres"] and "first seat" in groups["conquest"]


def test_every_image_and_link_exists(report):
    pages = [report] + [p for p in referenced(report) if p.suffix == ".html"]
    missing = [str(t) for page in pages for t in referenced(page) if not t.exists()]
    assert referenced(report) and not missing


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


# CI (.ci/run) installs Chromium and sets EMPIRES_REQUIRE_BROWSER=1: there a missing browser fails.
NEEDS_BROWSER = pytest.mark.skipif(not chromium() and not os.environ.get("EMPIRES_REQUIRE_BROWSER"),
                                   reason="no Chromium here (CI installs it)")


@NEEDS_BROWSER
def test_report_renders_in_a_headless_browser_with_no_missing_resources_and_no_console_errors(report):
    """Chromium loads each page over a loopback HTTP server; the server's log shows every
    resource the browser asked for, and none may be missing (404, the favicon included); the
    browser's log shows every console message, and there may be none (the pages have no script)."""
    browser = chromium()
    assert browser, "EMPIRES_REQUIRE_BROWSER is set but Chromium is not installed (apt-get install chromium)"
    root = report.parent
    server = subprocess.Popen([sys.executable, "-m", "http.server", "0", "--bind", "127.0.0.1", "-d", str(root)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    console = []
    try:
        port = int(re.search(r"port (\d+)", server.stdout.readline()).group(1))
        pages = [report] + [p for p in referenced(report) if p.suffix == ".html"]
        for page in pages:
            url = f"http://127.0.0.1:{port}/{page.relative_to(root).as_posix()}"
            dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                                  "--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000", "--dump-dom", url],
                                 capture_output=True, text=True)
            assert dom.returncode == 0 and "<h1>" in dom.stdout
            console += [line for line in dom.stderr.splitlines() if ":CONSOLE" in line]
    finally:
        server.terminate()
        log = server.communicate()[1]
    requests = re.findall(r'"GET (\S+) HTTP/[\d.]+" (\d{3})', log)
    assert len(pages) >= 5 and any(path.endswith(".png") for path, _ in requests)
    assert [path for path, status in requests if status != "200"] == []
    assert console == []


def test_every_page_has_an_inline_favicon(report):
    """Without one a browser asks every folder's server for /favicon.ico and logs a 404."""
    pages = [report] + [p for p in referenced(report) if p.suffix == ".html"]
    assert all('<link rel="icon" href="data:image/svg+xml,' in p.read_text(encoding="utf-8") for p in pages)


def test_headline_numbers_are_saved_with_intervals(report):
    payload = json.loads((report.parent / "struggle" / "headline.json").read_text("utf-8"))
    assert payload["format"] == "empires-headline/1" and payload["provenance"]["data_hash"]
    groups = {r["group"] for r in payload["numbers"]}
    assert {"win rate by strategy", "win rate by power", "win rate by seat", "first seat"} <= groups
    assert any(g.startswith("tile effect") for g in groups)
    assert all(r["low"] <= r["value"] <= r["high"] for r in payload["numbers"])


def test_the_index_opens_with_what_the_report_is_of(report):
    text = report.read_text(encoding="utf-8")
    assert text.index("What this report is of") < text.index('id="struggle"')
    assert "default rules" in text and "code version" in text
    assert re.search(r"default share \(--scale\)</td><td>1</td>", text)


def test_a_variant_report_shows_its_provenance_and_compares_with_a_base(report, tmp_path, capsys):
    """SOE-26.5 prices as a variant: --set and --variant reach the played games, the index names them
    (the file with its hash), and --compare puts both reports' headline numbers side by side."""
    variant = tmp_path / "cheap.toml"
    variant.write_text("[tiles.war_office]\ncost_gold = 2\n", encoding="utf-8")
    out = tmp_path / "variant"
    assert main(["report", "--game", "struggle", "--games", "28", "--tile-blocks", "2", "--tiles", "war_office",
                 "--quick", "--jobs", "1",
                 "--set", "tiles.banking.cost_gold=6", "--variant", str(variant), "--compare", str(report.parent),
                 "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    text = (out / "index.html").read_text(encoding="utf-8")
    digest = hashlib.sha256(variant.read_bytes()).hexdigest()[:16]
    assert "tiles.war_office.cost_gold = 2; tiles.banking.cost_gold = 6" in text and digest in text
    prov = json.loads((out / "struggle" / "headline.json").read_text("utf-8"))["provenance"]
    assert prov["overrides"] == {"tiles.war_office.cost_gold": 2, "tiles.banking.cost_gold": 6}
    assert prov["variants"] == {str(variant): digest}
    compared = json.loads((out / "compare.json").read_text("utf-8"))["games"]["struggle"]
    base = {(r["group"], r["key"]): r for r in
            json.loads((report.parent / "struggle" / "headline.json").read_text("utf-8"))["numbers"]}
    for row in compared["rows"]:
        assert row["base"] == base[(row["group"], row["key"])]["value"]
        assert row["diff"] == pytest.approx(row["new"] - row["base"]) and row["low"] <= row["diff"] <= row["high"]
    assert 'href="compare.html"' in text and (out / "compare.html").exists()
    assert "against " in printed and "win rate by strategy" in printed


def test_an_interrupted_report_leaves_the_old_one_whole(report, tmp_path, monkeypatch):
    """The report is built beside its folder and swapped in only when complete: interrupted after
    the odds pages, the old report is byte for byte as it was and no temporary folder is left."""
    out = tmp_path / "copy"
    shutil.copytree(report.parent, out)
    (out / "README.md").write_text("kept\n")
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(balance_report, "play_tournament", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build_report(out, ReportSize(games=28, tile_blocks=2, tiles=("war_office",), jobs=1, quick=True, only=("struggle",)))
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy"]


def test_a_rebuilt_report_keeps_files_no_report_wrote(report, tmp_path):
    """reports/README.md (and pages other commands write there) survive `make report`; the
    report's own files are replaced."""
    out = tmp_path / "again"
    shutil.copytree(report.parent, out)
    (out / "README.md").write_text("kept\n")
    (out / "struggle" / "audit").mkdir()
    (out / "struggle" / "audit" / "index.html").write_text("audit page\n")
    build_report(out, ReportSize(games=28, tile_blocks=2, tiles=("war_office",), jobs=1, quick=True, only=("struggle",)))
    assert (out / "README.md").read_text() == "kept\n"
    assert (out / "struggle" / "audit" / "index.html").read_text() == "audit page\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["again"]


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


def test_tiles_section_prices_where_gold_is_worth_something(tmp_path):
    """On the synthetic tile game (known answers) both skill levels price the tiles: the page
    shows fair price against current cost, and the summary names each tile once with its
    verdict per level."""
    from analyses import tile_value as tv
    from analyses.balance_report import tiles_section
    from sim import games

    engine = games.load("tilegame")
    experiments = [tv.Experiment(game="tilegame", strategy=s, tiles=("good", "dud"), players=4, blocks=60, seed=11,
                                 grants=dict(engine.GRANTS)) for s in ("plain", "random")]
    body, summary = tiles_section(engine, None, experiments, ReportSize(jobs=1), tmp_path, "tiles")
    page = "".join(body)
    assert "tiles/fair_prices.png" in page and (tmp_path / "fair_prices.png").exists()
    assert "good (plain: under-priced, random: under-priced)" in summary
    assert "dud (plain: over-priced, random: over-priced)" in summary and summary.count("good") == 1


def test_a_game_size_takes_the_game_defaults_and_clamps_players_to_its_range():
    info = SimpleNamespace(min_players=2, max_players=2)
    own = ReportSize().for_game("two_player_game", info)
    assert (own.games, own.tile_blocks, own.players) == (balance_report.FALLBACK_SIZE.games,
                                                          balance_report.FALLBACK_SIZE.tile_blocks, 2)
    soe = ReportSize().for_game("struggle", SimpleNamespace(min_players=2, max_players=7))
    assert soe.games == balance_report.GAME_SIZES["struggle"].games and soe.players == 4
    given = ReportSize(games=50, players=3, tile_blocks=4).for_game("struggle", SimpleNamespace(min_players=2, max_players=7))
    assert (given.games, given.players, given.tile_blocks) == (50, 3, 4)


def test_scale_multiplies_every_default_share_but_keeps_given_sizes_and_the_fewest_blocks():
    """`--scale F`: bigger (or smaller) runs one flag away; a size given by its own flag stays, tile
    blocks never fall below MIN_BLOCKS, a share that is off stays off."""
    info = SimpleNamespace(min_players=2, max_players=7)
    base, doubled = ReportSize().for_game("conquest", info), ReportSize(scale=2).for_game("conquest", info)
    default = balance_report.GAME_SIZES["conquest"]
    assert (doubled.games, doubled.tile_blocks, doubled.extra_games, doubled.audit_games) == (
        2 * default.games, 2 * default.tile_blocks, 2 * default.extra_games, 2 * default.audit_games)
    assert base.games == default.games
    small = ReportSize(scale=0.1).for_game("conquest", info)
    assert small.tile_blocks == MIN_BLOCKS and small.games == round(default.games * 0.1) and small.extra_games >= 1
    assert ReportSize(scale=3).for_game("struggle", info).extra_games == 0      # SoE has no questions: still off
    given = ReportSize(scale=3, games=50, tile_blocks=6).for_game("conquest", info)
    assert (given.games, given.tile_blocks, given.extra_games) == (50, 6, 3 * default.extra_games)


def test_the_report_plays_only_the_games_named_and_refuses_one_games_data_for_several(monkeypatch):
    monkeypatch.setattr(balance_report.games, "PACKAGES", ("struggle", "toy"))
    assert balance_report.playable_games(ReportSize()) == ("struggle", "toy")
    assert balance_report.playable_games(ReportSize(only=("toy",))) == ("toy",)
    with pytest.raises(balance_report.UserError, match="--game chess: not a game"):
        balance_report.playable_games(ReportSize(only=("chess",)))
    with pytest.raises(balance_report.UserError, match="--set applies to one game's data; name the game with --game"):
        balance_report.playable_games(ReportSize(overrides=("rules.x=1",)))
    assert balance_report.playable_games(ReportSize(only=("toy",), overrides=("rules.x=1",))) == ("toy",)


def test_a_question_sections_files_are_linked_from_the_index():
    fragment = '<img src="money.png"><a href="table.csv">t</a><a href="https://x.org/a">x</a><a href="#top">top</a>'
    assert balance_report.rebase(fragment, "acres/questions") == (
        '<img src="acres/questions/money.png"><a href="acres/questions/table.csv">t</a>'
        '<a href="https://x.org/a">x</a><a href="#top">top</a>')


def test_every_games_default_size_gives_its_asset_values_intervals():
    """Fewer than MIN_BLOCKS blocks give no interval (sim.core.causal): the report's defaults never do."""
    assert all(size.tile_blocks >= MIN_BLOCKS for size in (*balance_report.GAME_SIZES.values(),
                                                          balance_report.FALLBACK_SIZE))
