"""The generated client at run time: decoding one show-job response, and cold import time.

Decoding: the seed show-job response example recorded in the spec, from bytes, with
``JobResponse.model_validate_json`` (strict types, unknown fields kept) vs ``orjson.loads``
alone (the floor: no model, no checks; target at most 2.5x) vs the vendor SDK's own
deserializer (``huaweicloudsdkcore`` ``Client.deserialize`` into
``huaweicloudsdkmodelarts.v1`` ``ShowTrainingJobDetailsResponse``; target at least 7x
faster).

Import: a fresh interpreter that imports the package and its show-job model, as a whole
process (median of runs): our generated package vs openapi-python-client's output for the
same spec (target: at most equal) vs ``huaweicloudsdkmodelarts.v1`` (target: at most half).

Benchmark-only tools (not project dependencies), into the venv:

    .venv/bin/pip install openapi-python-client huaweicloudsdkmodelarts orjson

Run from the repository root: ``.venv/bin/python benchmarks/bench_client.py``.
"""

from __future__ import annotations

import argparse
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


def imports(runs: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    results = {
        "python -c pass (interpreter)": import_time("pass", runs, env),
        "ours: modelarts_training_client": import_time(
            "from modelarts_training_client import TrainingJobsClient, JobResponse", runs, env
        ),
    }
    with tempfile.TemporaryDirectory(prefix="bench-import-") as temp:
        out = Path(temp) / "opc"
        tool = shutil.which("openapi-python-client", path=str(BIN))
        if tool:
            subprocess.run(
                [tool, "generate", "--path", str(SPEC_PATH), "--output-path", str(out)],
                check=True,
                capture_output=True,
                env={**env, "PATH": f"{BIN}{os.pathsep}{env.get('PATH', '')}"},
            )
            package = next(p.name for p in out.iterdir() if (p / "__init__.py").is_file())
            # The client, the show-job operation module and the models it returns.
            show = next((out / package / "api").glob("*/show_training_job_details.py"))
            operation = ".".join(show.relative_to(out).with_suffix("").parts)
            code = (
                f"from {package} import AuthenticatedClient; import {operation}; "
                f"from {package}.models import JobResponse"
            )
            opc_env = {**env, "PYTHONPATH": str(out)}
            results["openapi-python-client output"] = import_time(code, runs, opc_env)
        else:
            print("openapi-python-client not installed: skipped")
    try:
        import huaweicloudsdkmodelarts  # noqa: F401
    except ImportError:
        print("huaweicloudsdkmodelarts not installed: skipped")
    else:
        results["vendor SDK: huaweicloudsdkmodelarts.v1"] = import_time(
            "import huaweicloudsdkmodelarts.v1", runs, env
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
        print(f"  {name:<40} {seconds * 1000:9.0f} ms")
    ours_import = imported["ours: modelarts_training_client"]
    if "openapi-python-client output" in imported:
        ratio = ours_import / imported["openapi-python-client output"]
        verdict = "meets" if ratio <= 1 else "MISSES"
        print(f"  ours / openapi-python-client: {ratio:.2f}x ({verdict} <= 1x)")
    if "vendor SDK: huaweicloudsdkmodelarts.v1" in imported:
        ratio = ours_import / imported["vendor SDK: huaweicloudsdkmodelarts.v1"]
        verdict = "meets" if ratio <= 0.5 else "MISSES"
        print(f"  ours / vendor SDK: {ratio:.2f}x ({verdict} <= 0.5x)")


if __name__ == "__main__":
    main()
