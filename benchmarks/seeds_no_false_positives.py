"""Zero false positives, seed after seed: correct servers at both ends of the envelopes pass.

``contract server`` must pass every correct server, however it decides what the spec leaves
open (issue 23): the reference server at both ends (``--strictness lenient``: it enforces
only must-reject; ``strict``: it accepts only must-accept), and, with ``--servers``, the
independent server written from the vendor pages (``tests/contracts/pages_server.py``, lenient
and strict) and the lenient mutant of the reference server. This runs each, in-process, for
``--seeds`` seeds (default 20) at ``--max-examples`` (default: the CLI's) with every phase,
prints one row per seed and the choices each server made (observations); exit 1 if any run
fails or errors.

    .venv/bin/python benchmarks/seeds_no_false_positives.py [--seeds 20] [--max-examples 25]
        [--servers reference-lenient,reference-strict,pages-lenient,pages-strict,mutant-lenient,
                   independent-lenient,independent-strict] [--quick]

``independent-*`` is the second server written from the pages alone (issue 31,
``tests/contracts/independent``); ``--quick`` runs what ``contract server --quick`` runs
(the scenarios, phases examples and fuzzing, at most 5 examples).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from harness import contracts_setup, dev_run_options, machine
from modelarts_kit_contracts.server.run import (
    DEFAULT_MAX_EXAMPLES,
    QUICK,
    RunOptions,
    ServerTarget,
    run_server_contract,
)

contracts_setup()
from tests.contracts.independent import PROJECT as INDEPENDENT_PROJECT  # noqa: E402
from tests.contracts.independent import TOKEN as INDEPENDENT_TOKEN  # noqa: E402
from tests.contracts.independent import IndependentServer  # noqa: E402
from tests.contracts.mutants import LENIENT, MUTANT_TIMINGS, Mutant, mutated_target  # noqa: E402
from tests.contracts.pages_server import PROJECT, TOKEN, PagesServer  # noqa: E402

DEFAULT_SERVERS = ("reference-lenient", "reference-strict")


@contextmanager
def reference(strictness: str) -> Iterator[ServerTarget]:
    """The reference server at one end (``serve --strictness``), its clock the run's to move
    forward as the embedded default target's is."""
    from modelarts_kit_contracts.server.timeline import SkippingTimeline
    from modelarts_kit_server import ServerSettings, SimulatedClock, create_app

    clock = SimulatedClock()
    app = create_app(ServerSettings(clock=clock, timings=MUTANT_TIMINGS, strictness=strictness))
    try:
        yield ServerTarget.asgi(app, timeline=SkippingTimeline(clock.advance))
    finally:
        app.close()


@contextmanager
def mutant_target(mutant: Mutant) -> Iterator[ServerTarget]:
    with mutated_target(mutant) as target:
        yield target


@contextmanager
def pages(mode: Any) -> Iterator[ServerTarget]:
    yield ServerTarget.asgi(PagesServer(mode))


def pages_options(max_examples: int, seed: int) -> RunOptions:
    from modelarts_kit_contracts.server.run import Budget
    from modelarts_kit_contracts.transport_auth import Credentials

    return RunOptions(
        credentials=Credentials(token=TOKEN),
        project_id=PROJECT,
        other_project_id=PROJECT[::-1],
        budget=Budget(max_examples=max_examples, seed=seed),
        final_phase_wait_s=5.0,
    )


@contextmanager
def independent(mode: Any) -> Iterator[ServerTarget]:
    yield ServerTarget.asgi(IndependentServer(mode))


def independent_options(max_examples: int, seed: int) -> RunOptions:
    from modelarts_kit_contracts.server.run import Budget
    from modelarts_kit_contracts.transport_auth import Credentials

    return RunOptions(
        credentials=Credentials(token=INDEPENDENT_TOKEN),
        project_id=INDEPENDENT_PROJECT,
        other_project_id=INDEPENDENT_PROJECT[::-1],
        budget=Budget(max_examples=max_examples, seed=seed),
        final_phase_wait_s=5.0,
    )


def dev_options(max_examples: int, seed: int) -> RunOptions:
    return dev_run_options(max_examples, seed, final_phase_wait_s=5.0)


# name -> (the target, as a context manager; the run options for its credentials)
SERVERS: dict[
    str,
    tuple[Callable[[], AbstractContextManager[ServerTarget]], Callable[[int, int], RunOptions]],
] = {
    "reference-lenient": (lambda: reference("lenient"), dev_options),
    "reference-strict": (lambda: reference("strict"), dev_options),
    "pages-lenient": (lambda: pages("lenient"), pages_options),
    "pages-strict": (lambda: pages("strict"), pages_options),
    "mutant-lenient": (lambda: mutant_target(LENIENT), dev_options),
    "independent-lenient": (lambda: independent("lenient"), independent_options),
    "independent-strict": (lambda: independent("strict"), independent_options),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--max-examples", type=int, default=DEFAULT_MAX_EXAMPLES)
    parser.add_argument("--servers", default=",".join(DEFAULT_SERVERS))
    parser.add_argument("--quick", action="store_true", help="contract server --quick's run")
    args = parser.parse_args()
    if args.quick:
        args.max_examples = min(args.max_examples, QUICK.max_examples)
    names = [name.strip() for name in args.servers.split(",") if name.strip()]
    unknown = [name for name in names if name not in SERVERS]
    if unknown:
        parser.error(f"--servers: unknown {', '.join(unknown)} (known: {', '.join(SERVERS)})")
    print(
        f"{machine()} (shared); --max-examples {args.max_examples}, "
        f"{'--quick phases' if args.quick else 'all phases'}, "
        f"seeds {args.first_seed}..{args.first_seed + args.seeds - 1}, in-process"
    )
    print(f"{'seed':>6} " + " ".join(f"{name:>18}" for name in names) + f" {'s':>6}  failures")
    bad = 0
    choices: dict[str, set[str]] = {name: set() for name in names}
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        started = time.perf_counter()
        verdicts = []
        details = []
        for name in names:
            target_of, options_of = SERVERS[name]
            options = options_of(args.max_examples, seed)
            if args.quick:
                options = dataclasses.replace(options, phases=QUICK.phases)
            with target_of() as target:
                report = run_server_contract(target, options)
            ok = not report.failures and not report.errors
            bad += not ok
            verdicts.append("pass" if ok else "FAIL")
            details += [f"{name}: {f.check}: {f.title}" for f in report.failures]
            details += [f"{name}: {error}" for error in report.errors]
            choices[name].update(o.choice for o in report.observations)
        elapsed = time.perf_counter() - started
        row = " ".join(f"{verdict:>18}" for verdict in verdicts)
        print(f"{seed:>6} {row} {elapsed:6.1f}  {'; '.join(details)}", flush=True)
    print(f"runs failed: {bad} of {len(names) * args.seeds}")
    for name in names:
        print(f"observations, {name} ({len(choices[name])} distinct choices):")
        for choice in sorted(choices[name]):
            print(f"  - {choice}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
