"""Generation: ``generate --check`` and cold full generation, against peers and floors.

Whole processes, interleaved in rounds (A B C A B C ...), min/median/max; ratios between
medians of the same run.

``generate --check`` (target: at most 0.25 s, cold cache included): answered from the
committed manifest (``generated/.modelarts-kit-manifest.json``), with the generation
cache off. Baselines: ``modelarts-kit --version`` (interpreter and CLI start-up, the
floor of any subcommand) and ``generate --check --no-cache`` (a full regeneration and
diff, what the check did before the manifest).

Cold full generation (target: at most 0.8x openapi-python-client): ``modelarts-kit
generate`` with the cache off vs ``openapi-python-client generate`` and OpenAPI
Generator's python client for the same spec, and the floor that generation cannot go
below: the interpreter, the spec loader, the IR and one datamodel-code-generator run
(mandated by the project), nothing else. ``warm`` reuses the content-addressed cache.

Benchmark-only tools (not project dependencies), into the venv:

    .venv/bin/pip install openapi-python-client openapi-generator-cli   # the latter needs Java

Run from the repository root: ``.venv/bin/python benchmarks/bench_generator.py [--rounds N]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

from harness import Sampler, interleave, process, table, verdict
from modelarts_kit_spec import SPEC_PATH

BIN = Path(sys.executable).parent
REPO = Path(__file__).resolve().parents[1]


def fresh(sampler: Sampler, path: Path) -> Sampler:
    """``sampler`` run against an output directory that does not exist yet."""

    def sample() -> float:
        shutil.rmtree(path, ignore_errors=True)
        return sampler()

    return sample


def check_samplers(env: dict[str, str]) -> dict[str, Sampler]:
    kit = str(BIN / "modelarts-kit")
    cold = {**env, "MODELARTS_KIT_CACHE_DIR": "off"}
    return {
        "modelarts-kit --version (start-up floor)": process([kit, "--version"], cold),
        "generate --check (manifest, cache off)": process([kit, "generate", "--check"], cold),
        "generate --check --no-cache (full)": process(
            [kit, "generate", "--check", "--no-cache"], cold
        ),
    }


def generation_samplers(root: Path, env: dict[str, str], with_oag: bool) -> dict[str, Sampler]:
    spec = str(SPEC_PATH)
    ours = root / "ours"
    kit = [str(BIN / "modelarts-kit"), "generate", "--spec", spec, "--out", str(ours)]
    cold = {**env, "MODELARTS_KIT_CACHE_DIR": "off"}
    warm = {**env, "MODELARTS_KIT_CACHE_DIR": str(root / "cache")}
    floor_code = (
        "from modelarts_kit_spec import load_spec\n"
        "from modelarts_kit_generator.ir import GeneratorOptions, build_ir\n"
        "from modelarts_kit_generator.modelgen import render_models\n"
        f"ir = build_ir(load_spec({spec!r}), GeneratorOptions())\n"
        "render_models(ir.model_schemas, title=ir.title, header='', use_cache=False)\n"
    )
    samplers = {
        "modelarts-kit generate (cold)": fresh(process(kit, cold), ours),
        "modelarts-kit generate (warm cache)": fresh(process(kit, warm), ours),
        "floor: spec + IR + datamodel-code-generator": process(
            [sys.executable, "-c", floor_code], cold
        ),
    }
    if shutil.which("openapi-python-client", path=env["PATH"]):
        opc = root / "opc"
        samplers["openapi-python-client"] = fresh(
            process(
                [str(BIN / "openapi-python-client"), "generate", "--path", spec,
                 "--output-path", str(opc)],
                env,
            ),
            opc,
        )  # fmt: skip
    else:
        print("note: openapi-python-client is not installed: skipped")
    has_oag = bool(shutil.which("openapi-generator-cli", path=env["PATH"]) and shutil.which("java"))
    if with_oag and has_oag:
        oag = root / "oag"
        # --skip-validate-spec: its validator rejects the spec's link request bodies.
        samplers["OpenAPI Generator (python)"] = fresh(
            process(
                [str(BIN / "openapi-generator-cli"), "generate", "--skip-validate-spec",
                 "-i", spec, "-g", "python", "-o", str(oag), "--package-name", "oag_client"],
                env,
            ),
            oag,
        )  # fmt: skip
    elif with_oag:
        print("note: openapi-generator-cli or java is not installed: skipped")
    return samplers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds")
    parser.add_argument("--no-oag", action="store_true", help="skip OpenAPI Generator (slow)")
    args = parser.parse_args()
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    os.chdir(REPO)  # `generate --check` checks this repository's generated/

    checked = interleave(check_samplers(env), args.rounds)
    table(
        "generate --check, whole process",
        checked,
        unit="ms",
        scale=1e3,
        baseline="generate --check --no-cache (full)",
    )
    seconds = checked["generate --check (manifest, cache off)"].median
    verdict("generate --check, median", seconds, "<= 0.25 s", seconds <= 0.25, unit=" s")
    print()

    with tempfile.TemporaryDirectory(prefix="bench-generate-") as temp:
        generated = interleave(generation_samplers(Path(temp), env, not args.no_oag), args.rounds)
    if "openapi-python-client" in generated:
        table(
            f"generation from {SPEC_PATH.name}, whole process",
            generated,
            unit="ms",
            scale=1e3,
            baseline="openapi-python-client",
        )
        ratio = (
            generated["modelarts-kit generate (cold)"].median
            / generated["openapi-python-client"].median
        )
        verdict("cold generation / openapi-python-client", ratio, "<= 0.8x", ratio <= 0.8)
    else:
        table("generation, whole process", generated, unit="ms", scale=1e3)


if __name__ == "__main__":
    main()
