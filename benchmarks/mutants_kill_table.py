"""Kill table: every mutant of tests/contracts/mutants.py over real HTTP, full default budget.

For each mutant (after the correct server and the lenient-but-correct variant, which must both
pass) the reference server is served on 127.0.0.1 and
checked twice with the same spec, budget and seed: by ``modelarts-kit contract server`` (the
library path, :func:`run_server_contract`) and by plain ``schemathesis run`` (its CLI in a
subprocess, every built-in check, token header). Prints one row per mutant: killed or not, the
checks that caught it, and the time each tool took; then totals.

    .venv/bin/python benchmarks/mutants_kill_table.py [--max-examples N] [--only NAME ...]

``--quick`` counts instead what ``contract server --quick`` kills (its phases and budget), the
kit alone, in-process on the embedded server's path (ASGI, as the quickstart runs it): one row
per mutant with its time, then the count (issue 36: benchmarks/README.md quotes it).

    .venv/bin/python benchmarks/mutants_kill_table.py --quick
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from harness import (
    SEED,
    contracts_setup,
    dev_run_options,
    load_average,
    machine,
    schemathesis_command,
)
from modelarts_kit_contracts.server.run import (
    DEFAULT_MAX_EXAMPLES,
    QUICK,
    ServerTarget,
    run_server_contract,
)
from modelarts_kit_server import serve_in_thread

contracts_setup()
from tests.contracts.mutants import (  # noqa: E402
    LENIENT,
    MUTANTS,
    Mutant,
    mutated_app,
    mutated_target,
)


@dataclass(frozen=True)
class Row:
    name: str
    kit_killed: bool
    kit_checks: str
    kit_s: float
    plain_failures: frozenset[str]
    plain_s: float


def run_kit(url: str, max_examples: int) -> tuple[bool, str, float]:
    options = dev_run_options(max_examples)
    started = time.perf_counter()
    report = run_server_contract(ServerTarget(url), options)
    elapsed = time.perf_counter() - started
    if report.errors:
        raise RuntimeError(f"{url}: {report.errors}")
    checks = ",".join(sorted({f.check for f in report.failures}))
    return bool(report.failures), checks, elapsed


def run_plain_schemathesis(url: str, max_examples: int) -> tuple[frozenset[str], float]:
    """The (code, operation) failures plain schemathesis reports, and its wall time."""
    report_path = Path(tempfile.gettempdir()) / f"mutants-kill-table-{os.getpid()}.json"
    command = schemathesis_command(
        url,
        max_examples,
        "--no-color",
        "--report",
        "json",
        "--report-json-path",
        str(report_path),
    )
    started = time.perf_counter()
    report_path.unlink(missing_ok=True)
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
        cwd="/tmp",
        env={**os.environ, "SCHEMATHESIS_HOOKS": ""},
    )
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise RuntimeError(f"schemathesis exited {done.returncode}: {done.stderr[-500:]}")
    document = json.loads(report_path.read_text(encoding="utf-8"))
    found = frozenset(
        f"{failure['code']} {operation}"
        for failure in document["failures"]
        for operation in failure["operations"]
    )
    return found, elapsed


def measure(mutant: Mutant | None, max_examples: int) -> Row:
    with mutated_app(mutant) as app, serve_in_thread(app=app) as url:
        kit_killed, checks, kit_s = run_kit(url, max_examples)
    with mutated_app(mutant) as app, serve_in_thread(app=app) as url:
        plain_failures, plain_s = run_plain_schemathesis(url, max_examples)
    name = mutant.name if mutant is not None else "(correct server)"
    return Row(name, kit_killed, checks, kit_s, plain_failures, plain_s)


def quick_counts(selected: list[Mutant]) -> int:
    """What ``--quick`` kills, in-process: rows, then the count; exit 1 on a false positive."""
    print(
        f"{machine()} (shared); --quick: phases {','.join(QUICK.phases)}, --max-examples "
        f"{QUICK.max_examples}, seed {SEED}, in-process (ASGI)"
    )
    killed, seconds, false_positive = 0, [], False
    for mutant in [None, LENIENT, *selected]:
        options = dev_run_options(QUICK.max_examples, phases=QUICK.phases)
        started = time.perf_counter()
        with mutated_target(mutant) as target:  # as contract server --quick's embedded target
            report = run_server_contract(target, options)
        elapsed = time.perf_counter() - started
        if report.errors:
            raise RuntimeError(f"{mutant.name if mutant else 'reference'}: {report.errors}")
        failed = bool(report.failures)
        checks = ",".join(sorted({f.check for f in report.failures}))
        if mutant is None or mutant is LENIENT:
            false_positive = false_positive or failed
            name = mutant.name if mutant else "(correct server)"
            print(f"{name:28} {'FAIL' if failed else 'pass':>6} {elapsed:6.1f}  {checks}")
            continue
        killed += failed
        seconds.append(elapsed)
        print(f"{mutant.name:28} {'KILL' if failed else '-':>6} {elapsed:6.1f}  {checks}")
    print(f"killed by --quick: {killed}/{len(selected)}; false positives: {int(false_positive)}")
    print(
        f"seconds per mutant: min {min(seconds):.1f}, median {statistics.median(seconds):.1f}, "
        f"max {max(seconds):.1f}; load average at the end {load_average()}"
    )
    return 1 if false_positive else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-examples", type=int, default=DEFAULT_MAX_EXAMPLES)
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--quick", action="store_true", help="count what --quick kills")
    args = parser.parse_args()
    selected = [m for m in MUTANTS if args.only is None or m.name in args.only]
    if args.quick:
        return quick_counts(selected)
    print(
        f"{machine()} (shared); budget: --max-examples {args.max_examples}, "
        f"seed {SEED}, all phases, real HTTP"
    )
    header = f"{'mutant':28} {'kit':>6} {'kit s':>6} {'plain':>6} {'plain s':>7}  kit checks"
    print(header)
    print("-" * len(header))
    correct = [measure(None, args.max_examples), measure(LENIENT, args.max_examples)]
    # Plain schemathesis fails the correct server too (the vendor's 400 for unknown ids and
    # duplicate names); a mutant counts as killed only by failures beyond these.
    baseline = correct[0].plain_failures
    for row in correct:
        kit_verdict = "FAIL" if row.kit_killed else "pass"
        plain_verdict = "FAIL" if row.plain_failures else "pass"
        print(
            f"{row.name:28} {kit_verdict:>6} {row.kit_s:6.1f} "
            f"{plain_verdict:>6} {row.plain_s:7.1f}  {row.kit_checks}",
            flush=True,
        )
    rows: list[Row] = []
    plain_kills = 0
    for mutant in selected:
        row = measure(mutant, args.max_examples)
        rows.append(row)
        plain_killed = bool(row.plain_failures - baseline)
        plain_kills += plain_killed
        print(
            f"{row.name:28} {'KILL' if row.kit_killed else '-':>6} {row.kit_s:6.1f} "
            f"{'KILL' if plain_killed else '-':>6} {row.plain_s:7.1f}  {row.kit_checks}",
            flush=True,
        )
    kit = sum(r.kit_killed for r in rows)
    kit_time = sum(r.kit_s for r in rows)
    plain_time = sum(r.plain_s for r in rows)
    print("-" * len(header))
    total = len(rows)
    print(f"killed: modelarts-kit {kit}/{total}, plain schemathesis {plain_kills}/{total}")
    print(
        f"time per mutant: modelarts-kit {kit_time / total:.1f}s, "
        f"plain schemathesis {plain_time / total:.1f}s (ratio {kit_time / plain_time:.2f})"
    )
    false_positives = sum(r.kit_killed for r in correct)
    print(
        f"false positives (reference, lenient): kit {false_positives}; plain schemathesis on the "
        f"reference {sorted(baseline)}, on the lenient variant beyond that "
        f"{sorted(correct[1].plain_failures - baseline)}"
    )
    return 0 if kit == total and not false_positives else 1


if __name__ == "__main__":
    sys.exit(main())
