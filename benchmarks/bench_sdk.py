"""``sdk diff`` on the installed huaweicloudsdkmodelarts, against importing its model package.

Both as whole processes (interpreter start included), interleaved round by round, in one run;
min / median / max of ``--runs`` rounds each:

* floor -- ``python -c "import huaweicloudsdkmodelarts.v1.model"``: what any tool that reads
  the models by importing them pays before it has looked at one field;
* sdk diff -- ``modelarts-kit sdk diff --format json`` (locate the SDK, parse the ~100 model
  modules the three operations reach with ``ast``, load the spec and the ledger, walk, render);
* sdk diff, in process -- ``diff_sdk(installed())`` after warm-up (the walk itself).

Run from the repository root: ``.venv/bin/python benchmarks/bench_sdk.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from modelarts_kit_sdk import diff_sdk, installed

FLOOR = [sys.executable, "-c", "import huaweicloudsdkmodelarts.v1.model"]
COMMAND = [str(Path(sys.executable).parent / "modelarts-kit"), "sdk", "diff", "--format", "json"]


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def run(command: Sequence[str]) -> None:
    # Exit 1 (drift) is a result, not a failure; 2 is.
    result = subprocess.run(command, stdout=subprocess.DEVNULL, check=False)
    if result.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)}: exit {result.returncode}")


def row(label: str, samples: list[float], floor: float) -> str:
    low, mid, high = min(samples), statistics.median(samples), max(samples)
    return (
        f"{label:<28} min {low * 1000:7.1f}  median {mid * 1000:7.1f}  max {high * 1000:7.1f} ms"
        f"   ({mid / floor:.2f}x floor)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="rounds (each runs every variant)")
    args = parser.parse_args()
    source = installed()
    diff_sdk(source)  # warm-up: page cache, imports
    floor: list[float] = []
    command: list[float] = []
    in_process: list[float] = []
    for _ in range(max(1, args.runs)):
        floor.append(timed(lambda: run(FLOOR)))
        command.append(timed(lambda: run(COMMAND)))
        in_process.append(timed(lambda: diff_sdk(source)))
    base = statistics.median(floor)
    print(f"{source.label}, {args.runs} interleaved rounds")
    print(row("floor: import model package", floor, base))
    print(row("modelarts-kit sdk diff", command, base))
    print(row("diff_sdk, in process", in_process, base))


if __name__ == "__main__":
    main()
