"""``docs diff`` and ``docs compare`` on the five seed pages, against reading the files.

One run, interleaved: every round times each measurement once, in turn, so machine noise
lands on all of them alike; min / median / max over ``--rounds`` rounds, and the ratio of
each median to the baseline's.

* baseline -- read the five pages and split them into lines (the floor any parser pays);
* diff -- ``diff_pages`` on the five pages against the curated spec and ledger (extraction,
  spec walk, comparison, ledger settling), in process;
* compare -- ``compare_paths`` on each page against itself (both read and extracted, every
  row, table, status and example compared), in process;
* a few whole-process runs of ``modelarts-kit docs diff`` (interpreter start and imports
  included), for scale.

Run from the repository root: ``.venv/bin/python benchmarks/bench_docs_diff.py [--rounds N]``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from modelarts_kit_vendordocs.drift import diff_pages
from modelarts_kit_vendordocs.pagediff import compare_paths

REPO = Path(__file__).resolve().parents[1]
SEEDS_DIR = REPO / "spec" / "sources" / "seeds"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="interleaved rounds (bounded)")
    parser.add_argument("--seeds", type=Path, default=SEEDS_DIR, help="folder of seed pages")
    args = parser.parse_args()
    rounds = max(3, min(args.rounds, 200))
    pages = sorted(args.seeds.glob("[0-9][0-9][0-9]_*.txt"))
    if not pages:
        sys.exit(f"no seed pages in {args.seeds}")

    def baseline() -> object:
        return sum(len(p.read_text(encoding="utf-8").splitlines()) for p in pages)

    def diff() -> object:
        report = diff_pages(pages)
        assert report.unreconciled_count == 0, "the seeds must still settle"
        return report

    def compare() -> object:
        return [compare_paths(p, p) for p in pages]

    measurements: dict[str, Callable[[], object]] = {
        "baseline read+split": baseline,
        "docs diff (5 pages)": diff,
        "docs compare (5 x self)": compare,
    }
    for action in measurements.values():
        action()  # imports, caches of the spec and ledger (as a long-lived process would)
    samples: dict[str, list[float]] = {name: [] for name in measurements}
    for _ in range(rounds):
        for name, action in measurements.items():
            start = time.perf_counter()
            action()
            samples[name].append(time.perf_counter() - start)
    floor = statistics.median(samples["baseline read+split"])
    print(
        f"pages: {len(pages)} ({sum(p.stat().st_size for p in pages) / 1024:.0f} KiB), "
        f"{rounds} rounds"
    )
    print(f"{'':<26} {'min ms':>9} {'median ms':>10} {'max ms':>9} {'x baseline':>11}")
    for name, values in samples.items():
        median = statistics.median(values)
        print(
            f"{name:<26} {min(values) * 1000:9.2f} {median * 1000:10.2f} "
            f"{max(values) * 1000:9.2f} {median / floor:11.0f}"
        )
    command = [str(Path(sys.executable).parent / "modelarts-kit"), "docs", "diff", *map(str, pages)]
    runs: list[float] = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        runs.append(time.perf_counter() - start)
    print(
        f"modelarts-kit docs diff, whole process (3 runs): min {min(runs) * 1000:.0f} ms, "
        f"median {statistics.median(runs) * 1000:.0f} ms, max {max(runs) * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
