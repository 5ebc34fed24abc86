"""What every benchmark here shares: interleaved rounds, min/median/max, ratios.

Contenders are measured in rounds, A B C A B C ..., so that a load that comes and goes on
the machine touches every contender alike; each prints min, median and max, and ratios
are taken between medians measured in the same run (the min ratio is printed beside it,
as the least disturbed estimate).
"""

from __future__ import annotations

import compileall
import logging
import os
import resource
import statistics
import subprocess
import sys
import time
import timeit
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from modelarts_kit_contracts.server.run import RunOptions

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


@dataclass(frozen=True)
class Run:
    """One whole process: wall seconds, CPU seconds (user + system) and its stderr.

    CPU time is what the process itself did: a loaded machine stretches the wall time
    (waiting for a core) far more than the CPU time, so it is the steadier estimate of
    what the wall time is on a quiet machine."""

    wall: float
    cpu: float
    stderr: str


def run_process(argv: Sequence[str], env: Mapping[str, str] | None = None) -> Run:
    """Run ``argv`` once (it must exit 0); only one child runs at a time, so the change in
    the children's resource usage is this process's."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(list(argv), env=env, capture_output=True, check=False)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        tail = (result.stdout + result.stderr).decode(errors="replace")[-2000:]
        raise SystemExit(f"{argv[0]} failed ({result.returncode}):\n{tail}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(elapsed, cpu, result.stderr.decode(errors="replace"))


def interleave_runs(
    commands: Mapping[str, tuple[Sequence[str], Mapping[str, str] | None]], rounds: int
) -> dict[str, list[Run]]:
    """``rounds`` runs of each command, taken in turn (A B C A B C ...)."""
    taken: dict[str, list[Run]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, (argv, env) in commands.items():
            taken[name].append(run_process(argv, env))
    return taken


def load_average() -> str:
    """``uptime``'s three load averages (1, 5, 15 minutes)."""
    if not hasattr(os, "getloadavg"):
        return "n/a"
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


# -- the contract-kit benchmarks' shared setup ---------------------------------------------

REPO = Path(__file__).resolve().parent.parent
SEED = 20261121  # the seed every contract benchmark passes to both tools
SCHEMATHESIS = str(Path(sys.executable).with_name("schemathesis"))


KIT_PACKAGES = (
    "wire",
    "spec",
    "contracts",
    "server",
    "cli",
    "generator",
    "publish",
    "sdk",
    "vendordocs",
)


def byte_compile(packages: tuple[str, ...] = KIT_PACKAGES) -> None:
    """Byte-compile the kit's packages (``compileall``), as installing a wheel does and as
    the peers' installed packages are: in a ``PYTHONDONTWRITEBYTECODE`` environment with an
    editable install every run would otherwise recompile the kit's sources, and only the
    kit's."""
    for package in packages:
        compileall.compile_dir(REPO / package, quiet=1)


def contracts_setup() -> None:
    """Make ``tests.contracts.mutants`` importable and silence the reference server's logs
    (some mutants fail on purpose; their tracebacks are expected noise)."""
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    logging.getLogger("modelarts_kit_server").setLevel(logging.CRITICAL)


def dev_run_options(max_examples: int, seed: int = SEED, **options: Any) -> RunOptions:
    """``RunOptions`` for the reference server's development credentials and project
    (another project: the same id reversed), at ``max_examples`` and ``seed``; ``options``
    are passed on (``phases``, ``final_phase_wait_s``...)."""
    from modelarts_kit_contracts.server.run import Budget, RunOptions
    from modelarts_kit_contracts.transport_auth import Credentials
    from modelarts_kit_server import DEV_PROJECT_ID, DEV_TOKEN

    return RunOptions(
        credentials=Credentials(token=DEV_TOKEN),
        project_id=DEV_PROJECT_ID,
        other_project_id=DEV_PROJECT_ID[::-1],
        budget=Budget(max_examples=max_examples, seed=seed),
        **options,
    )


def schemathesis_command(url: str, max_examples: int, *extra: str, seed: int = SEED) -> list[str]:
    """Plain ``schemathesis run`` on the curated spec at ``url``: the development token,
    every check, one worker, the same budget and seed as the kit; ``extra`` appended."""
    from modelarts_kit_server import DEV_TOKEN
    from modelarts_kit_spec import SPEC_PATH

    return [
        SCHEMATHESIS,
        "run",
        str(SPEC_PATH),
        "--url",
        url,
        "--header",
        f"X-Auth-Token: {DEV_TOKEN}",
        "--checks",
        "all",
        "--max-examples",
        str(max_examples),
        "--seed",
        str(seed),
        "--workers",
        "1",
        *extra,
    ]


def machine() -> str:
    return f"{os.cpu_count()} cores, load average {load_average()}"


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
