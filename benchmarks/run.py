"""Run every `benchmarks/bench_*.py` and print throughputs with ratios to the dice ceiling.

Each module has `run(dice_rate: float) -> list[Figure]`; the dice rate is measured once at
the start of the run and again at the end, and the figures quote ratios to the mean of both.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil

import benchmarks
from benchmarks.harness import Figure, dice_ceiling


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="run only bench modules whose name contains this")
    args = parser.parse_args(argv)
    before = dice_ceiling()
    print(f"ceiling: numpy Generator.integers(1, 7, int8) = {before / 1e6:.1f} M dice/s (median of 7)")
    for info in sorted(pkgutil.iter_modules(benchmarks.__path__), key=lambda m: m.name):
        if not info.name.startswith("bench_") or (args.only and args.only not in info.name):
            continue
        module = importlib.import_module(f"benchmarks.{info.name}")
        print(f"\n[{info.name[len('bench_'):]}]")
        for figure in module.run(before):
            show(figure)
    after = dice_ceiling()
    print(f"\nceiling again at the end: {after / 1e6:.1f} M dice/s (drift {after / before - 1:+.0%})")
    return 0


def show(figure: Figure) -> None:
    ratio = f"  ratio {figure.ratio:.2f} to {figure.ratio_to}" if figure.ratio is not None else ""
    print(f"  {figure.name:<58} {figure.value:>14,.1f} {figure.unit}{ratio}")


if __name__ == "__main__":
    raise SystemExit(main())
