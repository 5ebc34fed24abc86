"""The generated client at run time: decoding one show-job response, and cold import time.

Decoding: the seed show-job response example recorded in the spec, from bytes, with
``JobResponse.model_validate_json`` (strict types, unknown fields kept) vs ``orjson.loads``
alone (the floor: no model, no checks; target at most 2.5x) vs the vendor SDK's own
deserializer (``huaweicloudsdkcore`` ``Client.deserialize`` into
``huaweicloudsdkmodelarts.v1`` ``ShowTrainingJobDetailsResponse``; target at least 7x
faster).

Import: a fresh interpreter that imports the package and touches its client class and its
show-job response model, as a whole process (median of runs): our generated package vs
openapi-python-client's output for the same spec (target: at most equal) vs
``huaweicloudsdkmodelarts.v1`` (target: at most half). The generated packages are measured
from compiled bytecode (as ``pip install`` leaves them, and as the vendor SDK is measured)
and from source.

Benchmark-only tools (not project dependencies), into the venv:

    .venv/bin/pip install openapi-python-client huaweicloudsdkmodelarts orjson

Run from the repository root: ``.venv/bin/python benchmarks/bench_client.py``.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from modelarts_kit_spec import SPEC_PATH, load_spec

BIN = Path(sys.executable).parent


def show_job_example() -> bytes:
    op = load_spec().operation("ShowTrainingJobDetails")
    media = load_spec().at(op.success.pointer)["content"]["application/json"]
    example = media.get("example") or next(iter(media["examples"].values()))["value"]
    return json.dumps(example).encode()


def per_call(function: Callable[[], object], number: int) -> float:
    """Best-of-5 mean seconds per call (the least disturbed sample)."""
    return min(timeit.repeat(function, number=number, repeat=5)) / number


def decoding(number: int) -> dict[str, float]:
    import orjson
    from modelarts_training_client import JobResponse

    raw = show_job_example()
    results = {
        "orjson.loads (floor)": per_call(lambda: orjson.loads(raw), number),
        "ours: JobResponse.model_validate_json": per_call(
            lambda: JobResponse.model_validate_json(raw), number
        ),
    }
    try:
        from huaweicloudsdkmodelarts.v1 import ModelArtsClient
    except ImportError:
        print("huaweicloudsdkmodelarts not installed: vendor decoding skipped")
        return results
    vendor = ModelArtsClient()
    response: Any = SimpleNamespace(
        text=raw.decode(), content=raw, headers={"Content-Type": "application/json"}
    )
    results["vendor SDK: Client.deserialize"] = per_call(
        lambda: vendor.deserialize(response, "ShowTrainingJobDetailsResponse", None),
        max(1, number // 10),
    )
    return results


def import_time(code: str, runs: int, env: dict[str, str]) -> float:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, env=env)
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def our_package_dir() -> Path:
    import modelarts_training_client

    return Path(modelarts_training_client.__file__).resolve().parent


def imports(runs: int) -> dict[str, float]:
    """Whole-process import times, each program importing the package AND touching the
    client class and the show-job response model (so lazy loading cannot skip the work).

    Two conditions for the generated packages: ``bytecode`` (compiled, as ``pip install``
    leaves a package; the vendor SDK in site-packages is always measured that way) and
    ``source`` (no bytecode: every run compiles the sources)."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    results = {
        "python -c pass (interpreter)": import_time("pass", runs, env),
        # The generated package's two runtime dependencies alone: no client can import
        # faster than this in this environment.
        "floor: import httpx, pydantic": import_time(
            "import httpx, pydantic; pydantic.BaseModel", runs, env
        ),
    }
    ours_code = "import modelarts_training_client as m; m.TrainingJobsClient; m.JobResponse"
    with tempfile.TemporaryDirectory(prefix="bench-import-") as temp:
        ours_root = Path(temp) / "ours"
        shutil.copytree(
            our_package_dir(),
            ours_root / "modelarts_training_client",
            ignore=shutil.ignore_patterns("__pycache__"),
        )
        out = Path(temp) / "opc"
        tool = shutil.which("openapi-python-client", path=str(BIN))
        opc_code = ""
        if tool:
            subprocess.run(
                [tool, "generate", "--path", str(SPEC_PATH), "--output-path", str(out)],
                check=True,
                capture_output=True,
                env={**env, "PATH": f"{BIN}{os.pathsep}{env.get('PATH', '')}"},
            )
            package = next(p.name for p in out.iterdir() if (p / "__init__.py").is_file())
            # The client, the show-job operation module and the model it returns.
            show = next((out / package / "api").glob("*/show_training_job_details.py"))
            operation = ".".join(show.relative_to(out).with_suffix("").parts)
            opc_code = (
                f"import {package} as m; m.AuthenticatedClient; import {operation}; "
                f"from {package}.models import JobResponse"
            )
        else:
            print("openapi-python-client not installed: skipped")
        for condition in ("source", "bytecode"):
            if condition == "bytecode":
                for root in (ours_root, out):
                    if root.is_dir():
                        compileall.compile_dir(root, quiet=1)
            ours_env = {**env, "PYTHONPATH": str(ours_root)}
            results[f"ours: modelarts_training_client ({condition})"] = import_time(
                ours_code, runs, ours_env
            )
            if opc_code:
                opc_env = {**env, "PYTHONPATH": str(out)}
                results[f"openapi-python-client output ({condition})"] = import_time(
                    opc_code, runs, opc_env
                )
    try:
        import huaweicloudsdkmodelarts  # noqa: F401
    except ImportError:
        print("huaweicloudsdkmodelarts not installed: skipped")
    else:
        results["vendor SDK: huaweicloudsdkmodelarts.v1"] = import_time(
            "import huaweicloudsdkmodelarts.v1 as v; v.ModelArtsClient; "
            "v.ShowTrainingJobDetailsResponse",
            runs,
            env,
        )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=20000, help="decodes per sample")
    parser.add_argument("--runs", type=int, default=7, help="interpreter starts per package")
    args = parser.parse_args()

    decoded = decoding(args.number)
    print(f"decoding the seed show-job response ({len(show_job_example())} bytes)")
    for name, seconds in decoded.items():
        print(f"  {name:<40} {seconds * 1e6:9.1f} us")
    ours = decoded["ours: JobResponse.model_validate_json"]
    floor = ours / decoded["orjson.loads (floor)"]
    print(f"  ours / orjson: {floor:.2f}x ({'meets' if floor <= 2.5 else 'MISSES'} <= 2.5x)")
    if "vendor SDK: Client.deserialize" in decoded:
        speedup = decoded["vendor SDK: Client.deserialize"] / ours
        verdict = "meets" if speedup >= 7 else "MISSES"
        print(f"  vendor / ours: {speedup:.1f}x faster ({verdict} >= 7x)")

    imported = imports(args.runs)
    print("cold import, whole process, median")
    for name, seconds in imported.items():
        print(f"  {name:<46} {seconds * 1000:9.0f} ms")
    vendor = imported.get("vendor SDK: huaweicloudsdkmodelarts.v1")
    for condition in ("bytecode", "source"):
        ours_import = imported[f"ours: modelarts_training_client ({condition})"]
        opc = imported.get(f"openapi-python-client output ({condition})")
        if opc is not None:
            ratio = ours_import / opc
            verdict = "meets" if ratio <= 1 else "MISSES"
            print(f"  {condition}: ours / openapi-python-client: {ratio:.2f}x ({verdict} <= 1x)")
        if vendor is not None:
            ratio = ours_import / vendor
            verdict = "meets" if ratio <= 0.5 else "MISSES"
            print(f"  {condition}: ours / vendor SDK: {ratio:.2f}x ({verdict} <= 0.5x)")


if __name__ == "__main__":
    main()
