"""Benchmark: time to a verdict on the reference server, and mutants killed per minute.

Measured in one run, with the default budget (``--max-examples`` default, every phase):

1. the default ``modelarts-kit contract server`` run (embedded server, in-process), against the
   60 s target, and the same run over real HTTP (``--http``);
2. the baseline: plain ``schemathesis run`` (CLI, same spec, same budget, same seed) against the
   same server over real HTTP; the kit's time is printed as a ratio of it;
3. the mutation suite in-process: mutants killed per minute of checking.

    .venv/bin/python benchmarks/bench_contracts.py [--mutants N]
"""

from __future__ import annotations

import argparse
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
# Some mutants make the server fail on purpose (500s); their tracebacks are expected noise.
logging.getLogger("modelarts_kit_server").setLevel(logging.CRITICAL)

from modelarts_kit_contracts.core.findings import RunReport  # noqa: E402
from modelarts_kit_contracts.server.run import (  # noqa: E402
    DEFAULT_MAX_EXAMPLES,
    Budget,
    RunOptions,
    ServerTarget,
    run_server_contract,
)
from modelarts_kit_contracts.server_cli import embedded_target  # noqa: E402
from modelarts_kit_contracts.transport_auth import Credentials  # noqa: E402
from modelarts_kit_server import DEV_PROJECT_ID, DEV_TOKEN, serve_in_thread  # noqa: E402
from modelarts_kit_spec import SPEC_PATH  # noqa: E402

from tests.contracts.mutants import MUTANTS, mutated_app  # noqa: E402

TARGET_S = 60.0
SEED = 20261121


def options() -> RunOptions:
    return RunOptions(
        credentials=Credentials(token=DEV_TOKEN),
        project_id=DEV_PROJECT_ID,
        other_project_id=DEV_PROJECT_ID[::-1],
        budget=Budget(max_examples=DEFAULT_MAX_EXAMPLES, seed=SEED),
    )


def timed(target: ServerTarget) -> tuple[float, RunReport]:
    started = time.perf_counter()
    report = run_server_contract(target, options())
    return time.perf_counter() - started, report


def plain_schemathesis(url: str) -> float:
    command = [
        str(Path(sys.executable).with_name("schemathesis")),
        "run",
        str(SPEC_PATH),
        "--url",
        url,
        "--header",
        f"X-Auth-Token: {DEV_TOKEN}",
        "--checks",
        "all",
        "--max-examples",
        str(DEFAULT_MAX_EXAMPLES),
        "--seed",
        str(SEED),
        "--workers",
        "1",
    ]
    started = time.perf_counter()
    subprocess.run(command, capture_output=True, check=False, cwd="/tmp", env=dict(os.environ))
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=int, default=len(MUTANTS), help="how many to run")
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}, budget: --max-examples {DEFAULT_MAX_EXAMPLES}, all phases")

    with embedded_target(http=False) as target:
        in_process_s, report = timed(target)
    verdict = "PASSED" if not report.failures and not report.errors else "NOT PASSED"
    print(
        f"default run (in-process): {in_process_s:.1f}s, {verdict}; "
        f"{in_process_s / TARGET_S:.2f} of the {TARGET_S:.0f}s target"
    )
    with embedded_target(http=True) as target:
        http_s, _ = timed(target)
    with serve_in_thread() as url:
        baseline_s = plain_schemathesis(url)
    print(f"default run (--http): {http_s:.1f}s")
    print(
        f"plain schemathesis run, same budget (baseline): {baseline_s:.1f}s; "
        f"kit/baseline: in-process {in_process_s / baseline_s:.2f}, http {http_s / baseline_s:.2f}"
    )

    killed = 0
    started = time.perf_counter()
    selected = MUTANTS[: args.mutants]
    for mutant in selected:
        with mutated_app(mutant) as app:
            mutant_report = run_server_contract(ServerTarget.asgi(app), options())
        killed += bool(mutant_report.failures)
    minutes = (time.perf_counter() - started) / 60
    print(
        f"mutants: {killed}/{len(selected)} killed in {minutes * 60:.0f}s = "
        f"{killed / minutes:.1f} killed per minute"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
