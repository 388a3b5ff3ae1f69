"""Golden playthroughs: fixed workloads whose results tables and JSONL logs must stay
byte-identical while a game's `INFO.engine_version` is unchanged (OpenSpiel's playthrough tests).

Each game keeps `tests/<game>/playthroughs/workloads.py` (a `WORKLOADS` dict: name -> (seed,
game indices, seatings)) and, beside it, the recorded `<name>.csv.gz`, `<name>.jsonl.gz` and
`manifest.json` (the engine version and a SHA-256 of every file's content). A deliberate change of
rules or players bumps the engine version and re-records in the same change:

    python -m tests.golden struggle
"""

from __future__ import annotations

import gzip
import hashlib
import importlib
import io
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def folder(game: str) -> Path:
    return ROOT / game / "playthroughs"


def workloads(game: str) -> dict:
    return importlib.import_module(f"tests.{game}.playthroughs.workloads").WORKLOADS


def play(game: str, name: str) -> tuple[bytes, bytes]:
    """The results table (CSV) and the event log (JSONL) of one workload, as bytes."""
    from sim import games

    module = games.load(game)
    seed, indices, seatings = workloads(game)[name]
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "games.jsonl"
        table = module.play_games(seed, indices, seatings, None, log=log)
        text = io.StringIO()
        table.to_csv(text, index=False, lineterminator="\n")
        return text.getvalue().encode(), log.read_bytes()


def digest(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def record(game: str) -> dict:
    """Play every workload and write its files and the manifest."""
    from sim import games

    out = folder(game)
    manifest = {"engine_version": games.info(game).engine_version, "files": {}}
    for name in workloads(game):
        for suffix, content in zip(("csv", "jsonl"), play(game, name)):
            path = out / f"{name}.{suffix}.gz"
            path.write_bytes(gzip.compress(content, mtime=0))
            manifest["files"][path.name] = digest(content)
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", "utf-8")
    return manifest


def recorded(game: str) -> dict:
    return json.loads((folder(game) / "manifest.json").read_text("utf-8"))


def first_difference(expected: bytes, got: bytes) -> str:
    """The first differing line, for a readable failure."""
    for i, (a, b) in enumerate(zip(expected.splitlines(), got.splitlines())):
        if a != b:
            return f"line {i + 1}: expected {a[:300]!r}, got {b[:300]!r}"
    return f"lengths differ: {len(expected.splitlines())} vs {len(got.splitlines())} lines"


if __name__ == "__main__":
    for g in sys.argv[1:]:
        print(json.dumps(record(g), indent=2))
