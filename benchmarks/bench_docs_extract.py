"""``docs extract`` over the five seed pages: time, and ratio against reading the files.

Measured in one run, median of ``--runs`` rounds:

* baseline -- read the five pages and split them into lines (the floor any parser pays);
* extract -- ``extract_page`` on each page (format detection, reading, nesting, untitled-table
  inference, paths, enums), in process;
* command -- ``modelarts-kit docs extract`` on all five pages as a whole process (interpreter
  start and imports included), median of a few runs.

Run from the repository root: ``.venv/bin/python benchmarks/bench_docs_extract.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from modelarts_kit_vendordocs import extract_page

REPO = Path(__file__).resolve().parents[1]
SEEDS_DIR = REPO / "spec" / "sources" / "seeds"


def median_seconds(action: Callable[[], object], runs: int) -> float:
    samples: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="rounds per measurement")
    parser.add_argument("--seeds", type=Path, default=SEEDS_DIR, help="folder of seed pages")
    args = parser.parse_args()
    pages = sorted(args.seeds.glob("[0-9][0-9][0-9]_*.txt"))
    if not pages:
        sys.exit(f"no seed pages in {args.seeds}")

    def baseline() -> int:
        return sum(len(p.read_text(encoding="utf-8").splitlines()) for p in pages)

    def extract_all() -> int:
        return sum(len(extract_page(p).fields) for p in pages)

    extract_all()  # first call pays the imports; the whole-process figure below includes them
    floor = median_seconds(baseline, args.runs)
    total = median_seconds(extract_all, args.runs)
    print(f"pages: {len(pages)} ({sum(p.stat().st_size for p in pages) / 1024:.0f} KiB)")
    print(f"baseline read+split : {floor * 1000:8.2f} ms")
    print(f"extract, in process : {total * 1000:8.2f} ms   ({total / floor:,.0f}x baseline)")
    for page in pages:
        one = median_seconds(functools.partial(extract_page, page), max(3, args.runs // 4))
        print(f"  {page.name:<28} {one * 1000:8.2f} ms")

    command = [
        str(Path(sys.executable).parent / "modelarts-kit"),
        "docs",
        "extract",
        *map(str, pages),
    ]
    process_runs = max(3, args.runs // 5)
    cli = median_seconds(
        lambda: subprocess.run(command, check=True, stdout=subprocess.DEVNULL), process_runs
    )
    print(f"modelarts-kit docs extract (whole process, {process_runs} runs): {cli * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
