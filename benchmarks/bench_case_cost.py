"""CPU of one default ``contract server`` run on the embedded server (in-process): this tree
against another checkout, fresh processes, interleaved.

Each round runs one default run (every phase, the default budget, the benchmarks' seed) in a
fresh interpreter for each tree, alternating which goes first, and reads the process's CPU
seconds (user + system, ``resource.getrusage``) at its end: imports, the reference server,
the kit's checks and schemathesis's generation alike. The baseline's packages are put first
on ``PYTHONPATH`` (``--baseline DIR``: a checkout, e.g. ``git worktree add /tmp/base REV``).

Hypothesis draws constants from the kit's own modules (every loaded module outside
site-packages), so two trees whose modules differ draw different cases from the same seed,
and a run's work moves with them. ``--same-cases`` holds that pool empty in both trees: both
then generate the same cases, the runs do the same work, and each round checks that both
recorded the same tally for every check (the same evaluations passed and failed).

    .venv/bin/python benchmarks/bench_case_cost.py --baseline /tmp/base [--rounds 5] [--same-cases]
        [--seeds]  (round N runs seed SEED+N in both trees: other workloads)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from harness import REPO, SEED, load_average

PACKAGES = ("cli", "spec", "generator", "contracts", "server", "vendordocs", "publish", "sdk")
PACKAGES_MORE = ("wire", "generated")


def child(same_cases: bool, seed: int) -> None:
    """One default in-process run; its CPU seconds, tallies and request count as JSON."""
    if same_cases:
        from hypothesis.internal.conjecture import providers

        providers._get_local_constants = providers.Constants  # type: ignore[attr-defined]
    from harness import contracts_setup, dev_run_options
    from modelarts_kit.embedded import embedded_target

    contracts_setup()
    from modelarts_kit_contracts.server.run import (
        ALL_PHASES,
        DEFAULT_MAX_EXAMPLES,
        run_server_contract,
    )

    with embedded_target(http=False) as target:
        report = run_server_contract(
            target, dev_run_options(DEFAULT_MAX_EXAMPLES, seed=seed, phases=ALL_PHASES)
        )
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(
        json.dumps(
            {
                "cpu": usage.ru_utime + usage.ru_stime,
                "tallies": {k: [v.passed, v.failed] for k, v in sorted(report.tallies.items())},
                "failures": len(report.failures),
                "requests": sum(len(v) for v in report.response_times_ms.values()),
            }
        )
    )


def one_run(tree: Path, baseline: bool, same_cases: bool, seed: int) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if baseline:
        env["PYTHONPATH"] = os.pathsep.join(str(tree / p) for p in PACKAGES + PACKAGES_MORE)
    argv = [sys.executable, __file__, "--child", "--seed", str(seed)]
    argv += ["--same-cases"] if same_cases else []
    done = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the run in {tree} failed:\n{done.stderr[-2000:]}")
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def _differ(base: dict[str, Any], mine: dict[str, Any]) -> str:
    """The checks whose tallies differ: ``name [passed, failed] -> [passed, failed]``."""
    names = sorted(set(base["tallies"]) | set(mine["tallies"]))
    moved = [
        f"{name} {base['tallies'].get(name)} -> {mine['tallies'].get(name)}"
        for name in names
        if base["tallies"].get(name) != mine["tallies"].get(name)
    ]
    return "tallies DIFFER: " + "; ".join(moved)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", type=Path, help="another checkout (its packages)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--same-cases", action="store_true")
    parser.add_argument(
        "--seeds", action="store_true", help="round N runs seed SEED+N (both trees the same)"
    )
    parser.add_argument("--seed", type=int, default=SEED, help=argparse.SUPPRESS)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.same_cases, args.seed)
        return
    if args.baseline is None:
        parser.error("--baseline DIR is required")
    print(f"load average at start: {load_average()}", flush=True)
    cpu: dict[str, list[float]] = {"baseline": [], "this tree": []}
    for index in range(args.rounds):
        order = ["baseline", "this tree"] if index % 2 == 0 else ["this tree", "baseline"]
        seed = args.seed + index if args.seeds else args.seed
        runs = {
            name: one_run(
                args.baseline if name == "baseline" else REPO,
                name == "baseline",
                args.same_cases,
                seed,
            )
            for name in order
        }
        for name, run in runs.items():
            cpu[name].append(run["cpu"])
        base, mine = runs["baseline"], runs["this tree"]
        same = "same tallies" if base["tallies"] == mine["tallies"] else _differ(base, mine)
        print(
            f"round {index + 1} (seed {seed}): "
            f"baseline {base['cpu']:.2f} s ({base['requests']} requests), "
            f"this tree {mine['cpu']:.2f} s ({mine['requests']} requests), "
            f"ratio {mine['cpu'] / base['cpu']:.3f}, {same}, load {load_average()}",
            flush=True,
        )
    for name, values in cpu.items():
        print(
            f"{name}: CPU s min {min(values):.2f} median {statistics.median(values):.2f} "
            f"max {max(values):.2f}"
        )
    ratios = sorted(m / b for b, m in zip(cpu["baseline"], cpu["this tree"], strict=True))
    medians = statistics.median(cpu["this tree"]) / statistics.median(cpu["baseline"])
    print(
        f"this tree / baseline: ratio of medians {medians:.3f}; round by round min "
        f"{ratios[0]:.3f} median {statistics.median(ratios):.3f} max {ratios[-1]:.3f}"
    )
    print(f"load average at end: {load_average()}")


if __name__ == "__main__":
    main()
