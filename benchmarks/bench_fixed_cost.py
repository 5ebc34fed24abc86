"""CPU of the user's command ``modelarts-kit contract server --seed S`` (embedded server,
in-process) as a whole process: this tree against another checkout, fresh processes,
interleaved; by default its fixed cost (``--phases examples --max-examples 1``: start-up,
spec load, preflight, scenarios, the engine runs' set-up, the report and the process's exit,
with a handful of cases), ``--default`` the default run.

Unlike ``bench_case_cost.py``, which reads the CPU inside the process before it ends, this
reads the child's whole CPU (user + system, ``resource.getrusage`` of the children): the
report's rendering and the interpreter's exit count, as they do for a user. The baseline's
packages are put first on ``PYTHONPATH`` (``--baseline DIR``: a checkout, e.g.
``git worktree add /tmp/base REV``; ``--candidate DIR`` measures another checkout the same
way instead of this tree). Both trees run through ``python -c`` with hypothesis's
pool of the kit's constants held empty, so that two trees whose modules differ draw the same
cases (see ``bench_case_cost.py --same-cases``); each run must exit 0.

    .venv/bin/python benchmarks/bench_fixed_cost.py --baseline /tmp/base [--rounds 6] [--default]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

from harness import REPO, SEED, Run, load_average, run_process

PACKAGES = ("cli", "spec", "generator", "contracts", "server", "vendordocs", "publish", "sdk")
PACKAGES_MORE = ("wire", "generated")
FIXED = ("--phases", "examples", "--max-examples", "1")

# The user's command, with hypothesis's pool of the kit's own constants empty in both trees.
COMMAND = """\
import sys
from hypothesis.internal.conjecture import providers
providers._get_local_constants = providers.Constants
from modelarts_kit.entry import main
sys.argv = ["modelarts-kit", *sys.argv[1:]]
main()
"""


def one_run(tree: Path | None, arguments: list[str]) -> Run:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join(str(tree / p) for p in PACKAGES + PACKAGES_MORE)
    return run_process([sys.executable, "-c", COMMAND, *arguments], env)


def summary(values: list[float]) -> str:
    return f"{min(values):6.2f} / {statistics.median(values):6.2f} / {max(values):6.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", type=Path, required=True, help="another checkout")
    parser.add_argument(
        "--candidate", type=Path, help="measure this checkout instead of this tree (its packages)"
    )
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--default", action="store_true", help="the default run, every phase")
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    arguments = ["contract", "server", "--seed", str(args.seed)]
    arguments += [] if args.default else list(FIXED)
    print(f"modelarts-kit {' '.join(arguments)}")
    print(f"load average at start: {load_average()}", flush=True)
    runs: dict[str, list[Run]] = {"baseline": [], "this tree": []}
    for index in range(args.rounds):
        order = ["baseline", "this tree"] if index % 2 == 0 else ["this tree", "baseline"]
        for name in order:
            tree = args.baseline if name == "baseline" else args.candidate
            runs[name].append(one_run(tree, arguments))
        line = "  ".join(f"{n} {runs[n][-1].cpu:5.2f} s" for n in runs)
        print(f"round {index + 1}: CPU {line}  (load {load_average()})", flush=True)
    print(f"load average at end: {load_average()}")
    print(f"{'':10s} {'CPU s, min / median / max':28s} wall s, min / median / max")
    for name, taken in runs.items():
        cpu, wall = summary([r.cpu for r in taken]), summary([r.wall for r in taken])
        print(f"{name:10s} {cpu:28s} {wall}")
    base = [r.cpu for r in runs["baseline"]]
    this = [r.cpu for r in runs["this tree"]]
    paired = [t / b for t, b in zip(this, base, strict=True)]
    print(
        f"CPU this/baseline: medians {statistics.median(this) / statistics.median(base):.3f}, "
        f"minima {min(this) / min(base):.3f}, rounds {' '.join(f'{p:.3f}' for p in paired)}; "
        f"median saved {statistics.median(base) - statistics.median(this):+.2f} s"
    )


if __name__ == "__main__":
    sys.path.insert(0, str(REPO / "benchmarks"))
    main()
