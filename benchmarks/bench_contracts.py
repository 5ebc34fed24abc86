"""Benchmark: time to a verdict, default and ``--quick``, the kit vs plain schemathesis.

One run, interleaved: each round measures, in turn,

1. ``modelarts-kit contract server --seed S``, the user's command: every phase at the default
   ``--max-examples``, on the embedded server in-process (the quickstart path), a fresh process
   in an empty directory, as plain's run is (start-up and first-use costs count on both sides);
2. the same with ``--quick``;
3. plain ``schemathesis run`` (its CLI, same spec, every check, same seed) at the default
   budget against the reference server over real HTTP (schemathesis cannot run an ASGI app
   from its CLI), a fresh server each run as the kit's is (plain stops an operation at its
   first failure, so a store left full by earlier rounds would change its work);
4. plain ``schemathesis run`` at the ``--quick`` budget (same phases and examples);
5. plain ``schemathesis run`` at the default budget with ``--continue-on-failure`` (its CLI's
   flag, schemathesis 4.32.5: "Continue executing all test cases within a scenario, even after
   encountering failures"): the same generation, but an operation's test no longer ends at its
   first failure. Plain fails the correct reference server (a 400 for an unknown id or a name
   in use reads to it as valid data rejected), so variant 3's work depends on where it first
   fails; this one does the work a run that goes on does, as the kit's passing run does. It is
   an additional, equal-work baseline, printed beside the issue's (variant 3), never instead;
6. plain ``schemathesis run`` at the default budget as variant 3, but from an empty directory:
   variant 3 runs in ``/tmp``, where hypothesis's example database (``.hypothesis/``, on by
   default in schemathesis's CLI) holds the failures earlier runs saved, any checkout's, and
   replays them first, so its work shrinks as the machine's database grows (592 to 161 cases
   over one afternoon, same seed); from an empty directory it is a fresh machine's first run,
   the same every time. Another additional baseline, beside the issue's, never instead.

The kit's packages are byte-compiled first (``harness.byte_compile``), as installing a wheel
does and as schemathesis's installed package is: with an editable install in a
``PYTHONDONTWRITEBYTECODE`` environment every run of the kit would otherwise recompile its
sources (about 0.2 s of CPU a run), and plain's would not.

Every variant of a round runs with the same seed. ``--seeds`` gives each round another one
(``SEED``, ``SEED + 1``, ...): where plain first fails, and so how much it does, is the seed's
draw (from an empty directory, seeds 1 to 5 gave 147 to 345 test cases), so a ratio measured
on one seed is one draw; the round-by-round ratios over several seeds are the measure. Without
``--seeds`` every round uses ``SEED``.

It prints min/median/max seconds per variant over ``--rounds`` rounds, the kit/plain ratios
(default vs default, quick vs quick) of the medians, of the minima and round by round (each
round's kit over the same round's plain run, same seed: min/median/max), in wall time and in
CPU time (the process's own, the kit's or plain's with its server: what a loaded machine
stretches least), the load average at the start and the end, the test cases each plain run
generated (its summary line), and the verdicts against issue 36's targets (default at most
1.3x plain; ``--quick`` at most 10 s, a target for 2 quiet cores: read it with the load beside
it, and beside its CPU time, which is what a quiet machine takes: the run sleeps on no clock).
The machine is shared: compare ratios, not absolute seconds.

    .venv/bin/python benchmarks/bench_contracts.py [--rounds 3] [--seeds]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from harness import (
    SEED,
    Stats,
    byte_compile,
    contracts_setup,
    load_average,
    machine,
    schemathesis_command,
    table,
    verdict,
)
from modelarts_kit_contracts.server.run import ALL_PHASES, DEFAULT_MAX_EXAMPLES, QUICK
from modelarts_kit_server import serve_in_thread

contracts_setup()

MODELARTS_KIT = str(Path(sys.executable).with_name("modelarts-kit"))

# One variant's run at a seed: its verdict ("PASSED", "exit N").
Variant = Callable[[int], str]


def cpu_seconds() -> float:
    """CPU seconds so far of this process (the served server of plain's runs) and of its
    finished children (the kit's command, plain schemathesis): on a loaded machine the
    steadier measure."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def kit(*extra: str) -> Variant:
    """The user's command, ``modelarts-kit contract server``, on the embedded server, in a
    fresh process and an empty directory."""

    def run(seed: int) -> str:
        with tempfile.TemporaryDirectory() as empty:
            done = subprocess.run(
                [MODELARTS_KIT, "contract", "server", "--no-color", "--seed", str(seed), *extra],
                capture_output=True,
                check=False,
                cwd=empty,
            )
        return "PASSED" if done.returncode == 0 else f"exit {done.returncode}"

    return run


# Plain's summary: "Test cases:" then "N generated, ..." (schemathesis 4.x CLI).
GENERATED = re.compile(r"(\d+) generated")


def plain(
    phases: tuple[str, ...],
    max_examples: int,
    *extra: str,
    cases: list[int] | None = None,
    empty_directory: bool = False,
) -> Variant:
    def run(seed: int) -> str:
        # A fresh server each run, as the kit's embedded one: what plain meets (and where it
        # first fails, which ends its test of an operation) must not depend on the jobs and
        # names earlier rounds left in a shared store.
        with serve_in_thread() as url, tempfile.TemporaryDirectory() as empty:
            command = schemathesis_command(
                url, max_examples, "--phases", ",".join(phases), *extra, seed=seed
            )
            done = subprocess.run(
                command,
                capture_output=True,
                check=False,
                cwd=empty if empty_directory else "/tmp",
                env=dict(os.environ),
            )
        found = GENERATED.findall(done.stdout.decode("utf-8", "replace"))
        if cases is not None and found:
            cases.append(int(found[-1]))
        return f"exit {done.returncode}"

    return run


KIT_DEFAULT, KIT_QUICK = "kit default (user's command)", "kit --quick (user's command)"
PLAIN_DEFAULT, PLAIN_QUICK = "plain schemathesis default (http)", "plain schemathesis quick (http)"
EQUAL_WORK = "plain default, --continue-on-failure (http)"
FIRST_RUN = "plain default, from an empty directory (http)"


@dataclass
class Measured:
    """Every variant's seconds (wall and CPU) and verdicts, round by round, and each round's
    seed."""

    wall: dict[str, list[float]]
    cpu: dict[str, list[float]]
    verdicts: dict[str, set[str]]
    seeds: list[int] = field(default_factory=list)


def measure(variants: dict[str, Variant], rounds: int, *, new_seed_each_round: bool) -> Measured:
    measured = Measured(
        wall={name: [] for name in variants},
        cpu={name: [] for name in variants},
        verdicts={name: set() for name in variants},
    )
    for index in range(rounds):
        seed = SEED + index if new_seed_each_round else SEED
        measured.seeds.append(seed)
        for name, run in variants.items():  # interleaved: one of each per round
            started, cpu_started = time.perf_counter(), cpu_seconds()
            measured.verdicts[name].add(run(seed))
            measured.wall[name].append(time.perf_counter() - started)
            measured.cpu[name].append(cpu_seconds() - cpu_started)
    return measured


def ratio_line(label: str, ours: list[float], theirs: list[float]) -> float:
    """Print the kit/plain ratios (of medians, of minima, round by round); return the median
    of the round-by-round ratios (each round's pair: same seed, run one after the other)."""
    rounds = [a / b for a, b in zip(ours, theirs, strict=True)]
    print(
        f"kit/plain {label}: medians {statistics.median(ours) / statistics.median(theirs):.2f}, "
        f"minima {min(ours) / min(theirs):.2f}, round by round min {min(rounds):.2f} / "
        f"median {statistics.median(rounds):.2f} / max {max(rounds):.2f}"
    )
    return statistics.median(rounds)


def report(measured: Measured, cases: dict[str, list[int]]) -> None:
    for title, taken in (
        ("time to a verdict", measured.wall),
        ("CPU time to a verdict (the kit's process; plain's, + its server's)", measured.cpu),
    ):
        table(
            title,
            {name: Stats(tuple(values)) for name, values in taken.items()},
            unit="s",
            scale=1.0,
        )
    print(f"  seeds, round by round: {', '.join(str(seed) for seed in measured.seeds)}")
    for name, verdicts in measured.verdicts.items():
        print(f"  {name}: {', '.join(sorted(verdicts))}")
    for name, generated in cases.items():
        if generated:
            print(
                f"  {name}: test cases generated, round by round: "
                f"{' / '.join(str(n) for n in generated)}"
            )
    # Beside the measure (variant 3), never instead of it: plain stops each failing
    # operation at its first failure, so its work depends on where that is; the equal-work
    # baseline goes on, and the empty directory's is a fresh machine's first run.
    baselines = {
        PLAIN_DEFAULT: (KIT_DEFAULT, "default (the issue's)"),
        PLAIN_QUICK: (KIT_QUICK, "quick"),
        EQUAL_WORK: (KIT_DEFAULT, "default, equal work (plain with --continue-on-failure)"),
        FIRST_RUN: (KIT_DEFAULT, "default, plain from an empty directory"),
    }
    for baseline, (ours, label) in baselines.items():
        for what, taken in (("wall", measured.wall), ("CPU", measured.cpu)):
            paired = ratio_line(f"{label} ({what})", taken[ours], taken[baseline])
            if ours == KIT_DEFAULT and baseline in (PLAIN_DEFAULT, FIRST_RUN):
                verdict(
                    f"{label}, {what}, round by round (median)", paired, "<= 1.3x", paired <= 1.3
                )
    quick_wall = statistics.median(measured.wall[KIT_QUICK])
    quick_cpu = statistics.median(measured.cpu[KIT_QUICK])
    verdict(
        "--quick wall (median)", quick_wall, "<= 10 s on 2 quiet cores", quick_wall <= 10, unit=" s"
    )
    # One process that sleeps on no clock: on quiet cores its wall time is about its CPU time.
    verdict("--quick CPU (median)", quick_cpu, "<= 10 s", quick_cpu <= 10, unit=" s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--seeds", action="store_true", help="each round another seed (SEED + round)"
    )
    args = parser.parse_args()
    byte_compile()
    started_load = load_average()
    print(
        f"{machine()} (shared with other work: compare ratios), rounds: {args.rounds}; "
        f"default = all phases, --max-examples {DEFAULT_MAX_EXAMPLES}; "
        f"--quick = {','.join(QUICK.phases)}, --max-examples {QUICK.max_examples}"
    )
    cases: dict[str, list[int]] = {
        name: [] for name in (PLAIN_DEFAULT, PLAIN_QUICK, EQUAL_WORK, FIRST_RUN)
    }
    variants: dict[str, Variant] = {
        KIT_DEFAULT: kit(),
        KIT_QUICK: kit("--quick"),
        PLAIN_DEFAULT: plain(ALL_PHASES, DEFAULT_MAX_EXAMPLES, cases=cases[PLAIN_DEFAULT]),
        PLAIN_QUICK: plain(QUICK.phases, QUICK.max_examples, cases=cases[PLAIN_QUICK]),
        EQUAL_WORK: plain(
            ALL_PHASES, DEFAULT_MAX_EXAMPLES, "--continue-on-failure", cases=cases[EQUAL_WORK]
        ),
        FIRST_RUN: plain(
            ALL_PHASES, DEFAULT_MAX_EXAMPLES, cases=cases[FIRST_RUN], empty_directory=True
        ),
    }
    measured = measure(variants, args.rounds, new_seed_each_round=args.seeds)
    report(measured, cases)
    print(f"load average: start {started_load}, end {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
