"""The generated client at run time: decoding a job response, its memory, and cold import.

Decoding the seed show-job response recorded in the spec, from bytes, interleaved:
- ``orjson.loads``: parsing alone, no model;
- pydantic's own floor: the same spec generated as *plain* pydantic v2 models
  (datamodel-code-generator defaults: unknown fields ignored, closed enums, lax types);
- ours: ``JobResponse.model_validate_json`` (unknown fields kept, unknown enum values
  tolerated, null kept apart from absent, no coercion);
- openapi-python-client's output for the same spec: ``JobResponse.from_dict(json.loads(...))``;
- OpenAPI Generator's python client for the same spec: ``JobResponse.from_json(...)``;
- the vendor SDK: ``huaweicloudsdkcore`` ``Client.deserialize`` into
  ``ShowTrainingJobDetailsResponse``.
Targets (issue #17): >= 4x faster than openapi-python-client, >= 3x faster than OpenAPI
Generator, >= 6x faster than the vendor SDK, and losslessness costing <= 1.25x the plain
pydantic floor. Peak memory of 10,000 decoded jobs is reported against orjson's dicts.

Import, whole process, compiled bytecode, interleaved: a floor process (imports httpx and
``BaseModel, ConfigDict, Field, TypeAdapter`` from pydantic, defines and uses one model;
``import pydantic`` alone is lazy and is not the floor) vs our package touching its client
class and ``JobResponse``. Our share (ours - floor) targets <= 40 ms. Also reported:
openapi-python-client's output and ``huaweicloudsdkmodelarts.v1``.

Benchmark-only tools (not project dependencies), into the venv:

    .venv/bin/pip install openapi-python-client openapi-generator-cli python-dateutil orjson

(OpenAPI Generator needs Java; a missing tool's rows are skipped with a note.)
Run from the repository root: ``.venv/bin/python benchmarks/bench_client.py [--quick]``.
"""

from __future__ import annotations

import argparse
import compileall
import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from harness import Sampler, interleave, per_call, python, table, verdict
from modelarts_kit_spec import SPEC_PATH, load_spec

BIN = Path(sys.executable).parent
TOOL_ENV = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}


def show_job_example() -> bytes:
    spec = load_spec()
    op = spec.operation("ShowTrainingJobDetails")
    media = spec.at(op.success.pointer)["content"]["application/json"]
    example = media.get("example") or spec.deref(next(iter(media["examples"].values())))["value"]
    return json.dumps(example).encode()


def _run(argv: list[str]) -> bool:
    tool = shutil.which(argv[0], path=str(BIN)) or shutil.which(argv[0])
    if tool is None:
        print(f"note: {argv[0]} is not installed: its rows are skipped")
        return False
    result = subprocess.run([tool, *argv[1:]], capture_output=True, env=TOOL_ENV, check=False)
    if result.returncode != 0:
        tail = (result.stdout + result.stderr).decode(errors="replace")[-800:]
        print(f"note: {argv[0]} failed, its rows are skipped:\n{tail}")
        return False
    return True


def build_peers(root: Path) -> dict[str, Path]:
    """Generate the peers' code for the curated spec into ``root``: name -> sys.path entry."""
    peers: dict[str, Path] = {}
    plain = root / "plain"
    plain.mkdir()
    if _run(
        [
            "datamodel-codegen",
            "--input", str(SPEC_PATH),
            "--input-file-type", "openapi",
            "--output", str(plain / "plain_models.py"),
            "--output-model-type", "pydantic_v2.BaseModel",
            "--enum-field-as-literal", "all",
            "--use-union-operator",
            "--target-python-version", "3.11",
            "--formatters", "ruff-format",
        ]
    ):  # fmt: skip
        peers["plain"] = plain
    if _run(
        [
            "openapi-python-client",
            "generate",
            "--path",
            str(SPEC_PATH),
            "--output-path",
            str(root / "opc"),
        ]
    ):
        peers["opc"] = root / "opc"
    # --skip-validate-spec: OpenAPI Generator's validator rejects a link's requestBody
    # expression (valid OpenAPI); see README "Using the published spec with other tools".
    oag = root / "oag"
    if _run(
        ["openapi-generator-cli", "generate", "-i", str(SPEC_PATH), "-g", "python", "-o", str(oag),
         "--package-name", "oag_client", "--skip-validate-spec"]
    ):  # fmt: skip
        peers["oag"] = oag
    return peers


def _package_of(directory: Path) -> str:
    return next(p.name for p in sorted(directory.iterdir()) if (p / "__init__.py").is_file())


def decoders(peers: dict[str, Path], raw: bytes) -> dict[str, Callable[[], object]]:
    import orjson
    from modelarts_training_client import JobResponse

    text = raw.decode()
    found: dict[str, Callable[[], object]] = {
        "orjson.loads (parse only)": lambda: orjson.loads(raw)
    }
    for path in peers.values():
        sys.path.insert(0, str(path))
    if "plain" in peers:
        plain = importlib.import_module("plain_models").JobResponse
        found["pydantic floor: plain models"] = lambda: plain.model_validate_json(raw)
    found["ours: JobResponse.model_validate_json"] = lambda: JobResponse.model_validate_json(raw)
    if "opc" in peers:
        opc = importlib.import_module(f"{_package_of(peers['opc'])}.models").JobResponse
        found["openapi-python-client: from_dict"] = lambda: opc.from_dict(json.loads(raw))
    if "oag" in peers:
        try:
            oag = importlib.import_module("oag_client.models.job_response").JobResponse
        except ImportError as exc:
            print(f"note: OpenAPI Generator's client does not import ({exc}): skipped")
        else:
            found["OpenAPI Generator: from_json"] = lambda: oag.from_json(text)
    try:
        from huaweicloudsdkmodelarts.v1 import ModelArtsClient
    except ImportError:
        print("note: huaweicloudsdkmodelarts is not installed: vendor decoding skipped")
    else:
        vendor = ModelArtsClient()
        response: Any = SimpleNamespace(
            text=text, content=raw, headers={"Content-Type": "application/json"}
        )
        found["vendor SDK: Client.deserialize"] = lambda: vendor.deserialize(
            response, "ShowTrainingJobDetailsResponse", None
        )
    return found


MEMORY_CODE = """
import sys, tracemalloc
sys.path[:0] = {paths!r}
raw = open({body!r}, "rb").read()
{setup}
tracemalloc.start()
kept = [decode(raw) for _ in range({count})]
print(tracemalloc.get_traced_memory()[1])
"""

MEMORY_DECODERS = {
    "orjson.loads (dicts)": "import orjson\ndecode = orjson.loads",
    "pydantic floor: plain models": (
        "from plain_models import JobResponse\ndecode = JobResponse.model_validate_json"
    ),
    "ours: JobResponse": (
        "from modelarts_training_client import JobResponse\n"
        "decode = JobResponse.model_validate_json"
    ),
}


def memory(peers: dict[str, Path], raw: bytes, count: int, root: Path) -> None:
    body = root / "body.json"
    body.write_bytes(raw)
    print(f"peak traced memory holding {count:,} decoded jobs (tracemalloc, one process each)")
    results: dict[str, int] = {}
    for name, setup in MEMORY_DECODERS.items():
        if "plain_models" in setup and "plain" not in peers:
            continue
        code = MEMORY_CODE.format(
            paths=[str(p) for p in peers.values()], body=str(body), setup=setup, count=count
        )
        output = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
        results[name] = int(output.stdout.split()[-1])
    base = results["orjson.loads (dicts)"]
    for name, peak in results.items():
        print(f"  {name:<32} {peak / 2**20:8.1f} MiB   {peak / base:5.2f}x orjson")


FLOOR_CODE = (
    "import httpx\n"
    "from pydantic import BaseModel, ConfigDict, Field, TypeAdapter\n"
    "class Job(BaseModel):\n"
    "    model_config = ConfigDict(extra='allow')\n"
    "    name: str = Field(default='')\n"
    "Job.model_validate({'name': 'x'}); TypeAdapter(int).validate_python(1)\n"
)


def importers(peers: dict[str, Path], root: Path) -> dict[str, Sampler]:
    import modelarts_training_client

    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    ours = root / "ours"
    shutil.copytree(
        Path(modelarts_training_client.__file__).resolve().parent,
        ours / "modelarts_training_client",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    compileall.compile_dir(ours, quiet=1)
    found = {
        "floor: httpx + pydantic, one model": python(FLOOR_CODE, env),
        "ours: client class + JobResponse": python(
            "import modelarts_training_client as m; m.TrainingJobsClient; m.JobResponse",
            {**env, "PYTHONPATH": str(ours)},
        ),
    }
    if "opc" in peers:
        out = peers["opc"]
        compileall.compile_dir(out, quiet=1)
        package = _package_of(out)
        show = next((out / package / "api").glob("*/show_training_job_details.py"))
        operation = ".".join(show.relative_to(out).with_suffix("").parts)
        found["openapi-python-client output"] = python(
            f"import {package} as m; m.AuthenticatedClient; import {operation}; "
            f"from {package}.models import JobResponse",
            {**env, "PYTHONPATH": str(out)},
        )
    try:
        import huaweicloudsdkmodelarts  # noqa: F401
    except ImportError:
        print("note: huaweicloudsdkmodelarts is not installed: skipped")
    else:
        found["vendor SDK: huaweicloudsdkmodelarts.v1"] = python(
            "import huaweicloudsdkmodelarts.v1 as v; v.ModelArtsClient; "
            "v.ShowTrainingJobDetailsResponse",
            env,
        )
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="interleaved rounds")
    parser.add_argument("--number", type=int, default=2000, help="decodes per sample")
    parser.add_argument("--memory-jobs", type=int, default=10_000)
    parser.add_argument("--quick", action="store_true", help="few rounds: a smoke run")
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.number, args.memory_jobs = 3, 200, 1000
    raw = show_job_example()
    with tempfile.TemporaryDirectory(prefix="bench-client-") as temp:
        root = Path(temp)
        peers = build_peers(root)
        decoded = interleave(
            {name: per_call(fn, args.number) for name, fn in decoders(peers, raw).items()},
            args.rounds,
        )
        ours_name = "ours: JobResponse.model_validate_json"
        table(
            f"decoding the seed show-job response ({len(raw)} bytes), per call",
            decoded,
            unit="us",
            scale=1e6,
            baseline=ours_name,
        )
        ours = decoded[ours_name].median
        for name, target in (
            ("openapi-python-client: from_dict", 4.0),
            ("OpenAPI Generator: from_json", 3.0),
            ("vendor SDK: Client.deserialize", 6.0),
        ):
            if name in decoded:
                speedup = decoded[name].median / ours
                verdict(f"{name} / ours", speedup, f">= {target:g}x", speedup >= target)
        if "pydantic floor: plain models" in decoded:
            cost = ours / decoded["pydantic floor: plain models"].median
            verdict("cost of losslessness (ours / plain pydantic)", cost, "<= 1.25x", cost <= 1.25)
        print()
        memory(peers, raw, args.memory_jobs, root)
        print()
        imported = interleave(importers(peers, root), args.rounds)
        table(
            "cold import, whole process, compiled",
            imported,
            unit="ms",
            scale=1e3,
            baseline="floor: httpx + pydantic, one model",
        )
        floor = imported["floor: httpx + pydantic, one model"]
        mine = imported["ours: client class + JobResponse"]
        share = (mine.median - floor.median) * 1e3
        print(
            f"  our share (ours - floor): median {share:.0f} ms, "
            f"min {(mine.min - floor.min) * 1e3:.0f} ms  "
            f"(target <= 40 ms: {'meets' if share <= 40 else 'MISSES'})"
        )


if __name__ == "__main__":
    main()
