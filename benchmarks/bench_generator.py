"""Generation wall time: ``modelarts-kit generate`` vs openapi-python-client vs OpenAPI Generator.

Each tool generates a client from the same spec (the curated ModelArts spec) as a whole
process, several times; the script prints the median wall time of each and the ratios,
measured side by side in one run. Targets: at most 0.5x openapi-python-client and at most
0.15x OpenAPI Generator.

``cold`` is a run without the generation cache (``MODELARTS_KIT_CACHE_DIR=off``: every
step runs, datamodel-code-generator and ruff included); ``warm`` reuses the
content-addressed cache as a second run from an unchanged spec does (CI's ``--check``).

Benchmark-only tools (not project dependencies), into the venv:

    .venv/bin/pip install openapi-python-client openapi-generator-cli   # the latter needs Java

Run from the repository root: ``.venv/bin/python benchmarks/bench_generator.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from modelarts_kit_spec import SPEC_PATH

BIN = Path(sys.executable).parent


def timed(command: list[str], env: dict[str, str], runs: int, fresh: Callable[[], None]) -> float:
    """Median wall time of ``runs`` runs of ``command`` (``fresh`` resets its output first)."""
    samples = []
    for _ in range(runs):
        fresh()
        started = time.perf_counter()
        result = subprocess.run(command, env=env, capture_output=True, check=False)
        samples.append(time.perf_counter() - started)
        if result.returncode != 0:
            tail = (result.stdout + result.stderr).decode(errors="replace")[-2000:]
            raise SystemExit(f"{command[0]} failed ({result.returncode}):\n{tail}")
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--oag-runs", type=int, default=3, help="runs of OpenAPI Generator")
    args = parser.parse_args()
    spec = str(SPEC_PATH)
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    with tempfile.TemporaryDirectory(prefix="bench-generate-") as temp:
        root = Path(temp)
        ours, opc, oag = root / "ours", root / "opc", root / "oag"

        def reset(path: Path) -> Callable[[], None]:
            return lambda: shutil.rmtree(path, ignore_errors=True)

        results: dict[str, float] = {}
        cold_env = {**env, "MODELARTS_KIT_CACHE_DIR": "off"}
        command = [str(BIN / "modelarts-kit"), "generate", "--spec", spec, "--out", str(ours)]
        results["modelarts-kit generate (cold)"] = timed(command, cold_env, args.runs, reset(ours))
        # What generation cannot go below: the interpreter, the spec loader and the model
        # plan, then datamodel-code-generator imported and run once (mandated), nothing else.
        floor = [
            sys.executable, "-c",
            "from modelarts_kit_spec import load_spec\n"
            "from modelarts_kit_generator.ir import GeneratorOptions, build_ir\n"
            "from modelarts_kit_generator.modelgen import render_models\n"
            f"ir = build_ir(load_spec({spec!r}), GeneratorOptions())\n"
            "render_models(ir.model_schemas, title=ir.title, header='', use_cache=False)\n",
        ]  # fmt: skip
        results["floor: spec + IR + datamodel-code-generator"] = timed(
            floor, cold_env, args.runs, lambda: None
        )
        warm_env = {**env, "MODELARTS_KIT_CACHE_DIR": str(root / "cache")}
        subprocess.run(command, env=warm_env, check=True, capture_output=True)  # fill the cache
        results["modelarts-kit generate (warm)"] = timed(command, warm_env, args.runs, reset(ours))

        if shutil.which("openapi-python-client", path=env["PATH"]):
            opc_command = [
                str(BIN / "openapi-python-client"), "generate", "--path", spec,
                "--output-path", str(opc), "--overwrite",
            ]  # fmt: skip
            results["openapi-python-client"] = timed(opc_command, env, args.runs, reset(opc))
        else:
            print("openapi-python-client not installed: skipped")
        if shutil.which("openapi-generator-cli", path=env["PATH"]) and shutil.which("java"):
            # --skip-validate-spec: its validator rejects the spec's OpenAPI 3.1 link bodies.
            oag_command = [
                str(BIN / "openapi-generator-cli"), "generate", "--skip-validate-spec",
                "-i", spec, "-g", "python", "-o", str(oag), "--package-name", "oag_client",
            ]  # fmt: skip
            results["OpenAPI Generator (python)"] = timed(
                oag_command, env, args.oag_runs, reset(oag)
            )
        else:
            print("openapi-generator-cli or java not installed: skipped")

    width = max(len(name) for name in results)
    print(f"generation wall time, median of runs (spec: {SPEC_PATH.name})")
    for name, seconds in results.items():
        print(f"  {name:<{width}}  {seconds * 1000:8.0f} ms")
    labels = (
        "modelarts-kit generate (cold)",
        "modelarts-kit generate (warm)",
        "floor: spec + IR + datamodel-code-generator",
    )
    for ours_label in labels:
        for other, target in (("openapi-python-client", 0.5), ("OpenAPI Generator (python)", 0.15)):
            if other in results:
                ratio = results[ours_label] / results[other]
                verdict = "meets" if ratio <= target else "MISSES"
                print(f"  {ours_label} / {other}: {ratio:.2f}x ({verdict} target <= {target}x)")


if __name__ == "__main__":
    main()
