"""``docs update --dry-run`` of real page revisions: this tree against another checkout.

One run, interleaved: every round starts one fresh interpreter per contender, in turn (A B A
B ...), so machine noise lands on both alike. Each interpreter imports the kit, then times
one in-process ``update(..., dry_run=True)`` of the given revisions against the curated spec
and ledger of the tree it imports (dry run: nothing is written); the table gives that call's
wall and CPU time, the whole process's wall and CPU time (CPU: the steadier figure on a busy
machine), min / median / max over ``--rounds`` rounds, and each median's ratio to the
baseline's.

* baseline -- the checkout given with ``--baseline DIR`` (its packages put first on
  ``PYTHONPATH``: e.g. ``git archive REV | tar -x -C DIR`` of the commit before a change);
* this tree -- the packages this interpreter imports.

Run from the repository root: ``.venv/bin/python benchmarks/bench_docs_update.py --baseline
DIR [--rounds N] [PAGE...]`` (default pages: the create 2024-03 and the delete 2024-06
revisions of ``benchmarks/revisions/``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

from harness import Run, interleave_runs, machine

REPO = Path(__file__).resolve().parents[1]
REVISIONS = REPO / "benchmarks" / "revisions"
DEFAULT_PAGES = (
    REVISIONS / "core" / "create_v2024-03_46fa9fb.rst",
    REVISIONS / "family" / "deleting_a_training_job_2024-06.rst",
)
PACKAGES = ("spec", "wire", "vendordocs", "cli", "generator", "publish", "sdk")

# The child: one update, timed in process; the seconds go to stderr for the parent.
CHILD = """
import sys, time
from pathlib import Path
from modelarts_kit_vendordocs.update import Release, update
release = Release(lambda s, o: None, lambda s, f: None, lambda e, v, p, c: "")
pages = [Path(p) for p in sys.argv[1:]]
started, cpu = time.perf_counter(), time.process_time()
update(pages, release, dry_run=True)
print(f"{time.perf_counter() - started:.6f} {time.process_time() - cpu:.6f}", file=sys.stderr)
"""


def _env(tree: Path | None) -> dict[str, str] | None:
    if tree is None:
        return None
    paths = [str(tree / package) for package in PACKAGES]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


def _row(name: str, values: list[float], base: list[float] | None) -> str:
    median = statistics.median(values)
    row = f"    {name:<10} {min(values):8.2f} {median:8.2f} {max(values):8.2f}"
    if base is not None:
        row += f"   {median / statistics.median(base):5.2f}x {min(values) / min(base):5.2f}x"
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="another checkout")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (bounded)")
    parser.add_argument("pages", type=Path, nargs="*", default=list(DEFAULT_PAGES))
    args = parser.parse_args()
    rounds = max(3, min(args.rounds, 50))
    argv = [sys.executable, "-c", CHILD, *map(str, args.pages)]
    commands = {"baseline": (argv, _env(args.baseline)), "this tree": (argv, _env(None))}
    runs = interleave_runs(commands, rounds)
    print(f"docs update --dry-run of {len(args.pages)} page(s)  [{machine()}, {rounds} rounds]")
    figures: dict[str, Callable[[Run], float]] = {
        "update wall": lambda run: float(run.stderr.split()[-2]),
        "update CPU": lambda run: float(run.stderr.split()[-1]),
        "process wall": lambda run: run.wall,
        "process CPU": lambda run: run.cpu,
    }
    for label, figure in figures.items():
        print(f"  {label} (s)      min   median      max   x baseline (median, min)")
        taken: dict[str, list[float]] = {
            name: [figure(run) for run in values] for name, values in runs.items()
        }
        for name, values in taken.items():
            base = None if name == "baseline" else taken["baseline"]
            print(_row(name, values, base))


if __name__ == "__main__":
    main()
