"""The results store: a run folder of Parquet part files plus a JSON manifest.

    RUN_DIR/manifest.json            what was asked, provenance, progress
    RUN_DIR/parts/part-000017.parquet  the rows of batch 17, one row per game and seat

Every write is atomic (a temporary file in the same folder, flushed, then `os.replace`), so a
killed process leaves only whole parts behind: a part file exists exactly when its batch is
done. The manifest is rewritten after each part; if a kill falls between the two, the part
files are the truth and resuming repairs the manifest. No server to run, nothing to install. Whole output folders (the
balance report) are built beside their target and swapped in when complete (`staged_folder`).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import Iterable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow.parquet as pq

from sim.core.errors import UserError

FORMAT = "empires-run/1"
MANIFEST = "manifest.json"
PARTS = "parts"


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def atomic_write(path: Path, write) -> None:
    """Call `write(tmp_path)`, flush it to disk, then move it over `path` in one step."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write(tmp)
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


BUILT_FILES = ".built-files.json"   # what a staged build wrote, so the next one knows what is its own


@contextlib.contextmanager
def staged_folder(out: Path) -> Iterator[Path]:
    """Build a whole output folder (a report) in a fresh temporary folder beside `out` and swap it
    in only when the build is complete: an error or an interrupt removes the temporary folder and
    leaves `out` as it was, never a mix of old and new pages. Files in `out` that no earlier build
    wrote (a README, a page written by another command) are copied into the new folder first.
    The swap is two renames in the same parent folder (`out` to an old name, the new folder to
    `out`), then the old folder is removed."""
    out = out.absolute()
    _recover(out)
    new = out.with_name(f".{out.name}.new-{os.getpid()}")
    shutil.rmtree(new, ignore_errors=True)
    new.mkdir()
    try:
        yield new
        _swap_in(new, out)
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise


def _recover(out: Path) -> None:
    """Tidy what a killed build (SIGKILL, power loss) left beside `out`: its unfinished folder is
    removed; had it died between the two renames of the swap, its old folder is put back."""
    for kind in ("new", "old"):
        for left in out.parent.glob(f".{out.name}.{kind}-*"):
            pid = left.name.rsplit("-", 1)[1]
            if not pid.isdigit() or _alive(int(pid)):
                continue
            if kind == "old" and not out.exists():
                os.rename(left, out)
            else:
                shutil.rmtree(left, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _files(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def _swap_in(new: Path, out: Path) -> None:
    built = _files(new)
    (new / BUILT_FILES).write_text(json.dumps(built, indent=1) + "\n", "utf-8")
    if not out.exists():
        os.rename(new, out)
        return
    try:
        own = set(json.loads((out / BUILT_FILES).read_text("utf-8")))
    except (OSError, ValueError):
        own = set()                       # a folder no staged build wrote: keep all it holds
    for rel in _files(out):
        if rel not in own and rel != BUILT_FILES and not (new / rel).exists():
            (new / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(out / rel, new / rel)
    old = out.with_name(f".{out.name}.old-{os.getpid()}")
    os.rename(out, old)
    os.rename(new, out)
    shutil.rmtree(old, ignore_errors=True)


class RunStore:
    """One run folder. Create with `RunStore.create`, reopen with `RunStore.open`."""

    def __init__(self, folder: Path, manifest: dict[str, Any]) -> None:
        self.folder = folder
        self.manifest = manifest

    @classmethod
    def create(cls, folder: str | Path, manifest: dict[str, Any]) -> RunStore:
        """A new run folder; refuses a folder that already holds anything."""
        folder = Path(folder)
        if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
            raise UserError(f"--out {folder}: exists and is not empty; use --resume {folder} or another --out")
        (folder / PARTS).mkdir(parents=True, exist_ok=True)
        store = cls(folder, {"format": FORMAT, **manifest, "batches_done": [], "games_done": 0,
                             "started": now(), "finished": None})
        store.save()
        return store

    @classmethod
    def open(cls, folder: str | Path) -> RunStore:
        """Reopen a run folder, refusing anything that is not a sound one."""
        folder = Path(folder)
        path = folder / MANIFEST
        if not path.is_file():
            raise UserError(f"{folder}: not a run folder (no {MANIFEST})")
        try:
            manifest = json.loads(path.read_text("utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            raise UserError(f"{folder}: {MANIFEST} is unreadable or corrupt") from None
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise UserError(f"{folder}: not an empires run folder (manifest format is not {FORMAT})")
        for key in ("game", "seed", "players", "design", "games", "batch_size", "batches_total"):
            if key not in manifest:
                raise UserError(f"{folder}: {MANIFEST} lacks {key!r}; the folder is corrupt")
        store = cls(folder, manifest)
        store.manifest["batches_done"] = store._check_parts()
        store.manifest["games_done"] = sum(store.batch_games(b) for b in store.manifest["batches_done"])
        return store

    def batch_games(self, batch: int) -> int:
        size, total = self.manifest["batch_size"], self.manifest["games"]
        return min(size, total - batch * size)

    def part_path(self, batch: int) -> Path:
        return self.folder / PARTS / f"part-{batch:06d}.parquet"

    def _check_parts(self) -> list[int]:
        """The batches whose part files are present and whole; anything else is refused."""
        done = []
        players = self.manifest["players"]
        for path in sorted((self.folder / PARTS).glob("part-*.parquet")):
            try:
                batch = int(path.stem.split("-")[1])
                rows = pq.read_metadata(path).num_rows
            except (ValueError, IndexError, OSError):
                raise UserError(f"{path}: unreadable part file; the run folder is corrupt") from None
            if not 0 <= batch < self.manifest["batches_total"] or rows != self.batch_games(batch) * players:
                raise UserError(f"{path}: does not fit this run ({rows} rows); the run folder is corrupt")
            done.append(batch)
        return done

    def pending(self) -> list[int]:
        done = set(self.manifest["batches_done"])
        return [b for b in range(self.manifest["batches_total"]) if b not in done]

    def write_part(self, batch: int, table: pd.DataFrame) -> None:
        """Commit one finished batch, then record it in the manifest."""
        atomic_write(self.part_path(batch), lambda tmp: table.to_parquet(tmp, index=False))
        self.manifest["batches_done"] = sorted({*self.manifest["batches_done"], batch})
        self.manifest["games_done"] += self.batch_games(batch)
        self.save()

    def note(self, **fields: Any) -> None:
        self.manifest.update(fields)
        self.save()

    def save(self) -> None:
        text = json.dumps(self.manifest, indent=2, default=str)
        atomic_write(self.folder / MANIFEST, lambda tmp: tmp.write_text(text + "\n", "utf-8"))

    def discard(self) -> None:
        """Remove a run that has not finished a single batch (nothing to resume from)."""
        if self.manifest["batches_done"]:
            raise ValueError(f"{self.folder}: holds finished batches; refusing to discard it")
        (self.folder / MANIFEST).unlink(missing_ok=True)
        for path in (self.folder / PARTS, self.folder):
            with contextlib.suppress(OSError):
                path.rmdir()  # only if empty: nothing but what `create` made is removed

    @property
    def complete(self) -> bool:
        return not self.pending()

    def results(self) -> pd.DataFrame:
        """Every finished row, in game and seat order."""
        return concat(pd.read_parquet(self.part_path(b)) for b in self.manifest["batches_done"])


def concat(tables: Iterable[pd.DataFrame]) -> pd.DataFrame:
    """Batch tables as one table sorted by game and seat (order of arrival never matters)."""
    tables = list(tables)
    if not tables:
        return pd.DataFrame()
    return pd.concat(tables, ignore_index=True).sort_values(["game_index", "seat"], kind="stable").reset_index(drop=True)
