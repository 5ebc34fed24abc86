"""What every benchmark here shares: interleaved rounds, min/median/max, ratios.

Contenders are measured in rounds, A B C A B C ..., so that a load that comes and goes on
the machine touches every contender alike; each prints min, median and max, and ratios
are taken between medians measured in the same run (the min ratio is printed beside it,
as the least disturbed estimate).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
import timeit
from collections.abc import Callable, Mapping
from dataclasses import dataclass

Sampler = Callable[[], float]


@dataclass(frozen=True)
class Stats:
    samples: tuple[float, ...]

    @property
    def min(self) -> float:
        return min(self.samples)

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def max(self) -> float:
        return max(self.samples)


def interleave(samplers: Mapping[str, Sampler], rounds: int) -> dict[str, Stats]:
    """``rounds`` samples of each sampler, taken in turn (A B C A B C ...)."""
    taken: dict[str, list[float]] = {name: [] for name in samplers}
    for _ in range(rounds):
        for name, sample in samplers.items():
            taken[name].append(sample())
    return {name: Stats(tuple(values)) for name, values in taken.items()}


def per_call(function: Callable[[], object], number: int) -> Sampler:
    """A sampler: the mean seconds of one call over ``number`` calls."""
    function()  # warm: first-use costs (lazy validator builds, caches) are not decoding

    def sample() -> float:
        return timeit.timeit(function, number=number) / number

    return sample


def process(
    argv: list[str], env: Mapping[str, str] | None = None, cwd: str | None = None
) -> Sampler:
    """A sampler: the wall seconds of one whole process (it must exit 0)."""

    def sample() -> float:
        started = time.perf_counter()
        result = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, check=False)
        elapsed = time.perf_counter() - started
        if result.returncode != 0:
            tail = (result.stdout + result.stderr).decode(errors="replace")[-2000:]
            raise SystemExit(f"{argv[0]} failed ({result.returncode}):\n{tail}")
        return elapsed

    return sample


def python(code: str, env: Mapping[str, str] | None = None) -> Sampler:
    """A sampler: one fresh interpreter running ``code``."""
    return process([sys.executable, "-c", code], env=env)


def machine() -> str:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"{os.cpu_count()} cores, load average {load:.1f}"


def table(
    title: str,
    stats: Mapping[str, Stats],
    *,
    unit: str,
    scale: float,
    baseline: str | None = None,
) -> None:
    """Print min/median/max per contender and its ratio (median and min) to ``baseline``."""
    print(f"{title}  [{machine()}, {len(next(iter(stats.values())).samples)} rounds]")
    width = max(len(name) for name in stats)
    header = f"  {'':<{width}}  {'min':>9} {'median':>9} {'max':>9}  ({unit})"
    print(header + ("   x baseline (median, min)" if baseline else ""))
    for name, value in stats.items():
        row = (
            f"  {name:<{width}}  {value.min * scale:9.1f} {value.median * scale:9.1f} "
            f"{value.max * scale:9.1f}"
        )
        if baseline:
            base = stats[baseline]
            row += f"        {value.median / base.median:6.2f}x {value.min / base.min:6.2f}x"
        print(row)


def verdict(label: str, value: float, target: str, met: bool, unit: str = "x") -> None:
    print(f"  {label}: {value:.2f}{unit}  (target {target}: {'meets' if met else 'MISSES'})")
