"""Zero false positives, seed after seed: the reference server and the lenient variant pass.

``contract server`` must pass the reference server and a correct but lenient variant (it
ignores unknown fields and accepts both members of a choose-one pair, rules the spec states as
guidance) with every seed. This runs both, in-process, for ``--seeds`` seeds (default 20) at
``--max-examples`` (default: the CLI's) with every phase, and prints one row per seed; exit 1
if any run fails or errors.

    .venv/bin/python benchmarks/seeds_no_false_positives.py [--seeds 20] [--max-examples 25]
"""

from __future__ import annotations

import argparse
import sys
import time

from harness import contracts_setup, dev_run_options, machine
from modelarts_kit_contracts.server.run import (
    DEFAULT_MAX_EXAMPLES,
    ServerTarget,
    run_server_contract,
)

contracts_setup()
from tests.contracts.mutants import LENIENT, mutated_app  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--max-examples", type=int, default=DEFAULT_MAX_EXAMPLES)
    args = parser.parse_args()
    print(
        f"{machine()} (shared); --max-examples {args.max_examples}, all phases, "
        f"seeds {args.first_seed}..{args.first_seed + args.seeds - 1}, in-process"
    )
    print(f"{'seed':>6} {'reference':>10} {'lenient':>10} {'s':>6}  failures")
    bad = 0
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        started = time.perf_counter()
        verdicts = []
        details = []
        for variant in (None, LENIENT):
            options = dev_run_options(args.max_examples, seed, final_phase_wait_s=5.0)
            with mutated_app(variant) as app:
                report = run_server_contract(ServerTarget.asgi(app), options)
            ok = not report.failures and not report.errors
            bad += not ok
            verdicts.append("pass" if ok else "FAIL")
            details += [f"{f.check}: {f.title}" for f in report.failures] + report.errors
        elapsed = time.perf_counter() - started
        print(
            f"{seed:>6} {verdicts[0]:>10} {verdicts[1]:>10} {elapsed:6.1f}  {'; '.join(details)}",
            flush=True,
        )
    print(f"runs failed: {bad} of {2 * args.seeds}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
