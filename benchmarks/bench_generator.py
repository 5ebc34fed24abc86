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

Beside wall time, each contender's CPU time (user + system, the process and every process
it starts) is printed for the same runs: on a shared machine wall time mostly measures
the queue for a core, CPU time what the work costs; both ratios are printed.

The kit's own packages are byte-compiled first (``compileall``), as installing a wheel
does and as the peers' installed packages are: a ``PYTHONDONTWRITEBYTECODE`` environment
would otherwise make every run recompile the kit's sources, and only the kit's.

Benchmark-only tools (not project dependencies), into the venv:

    .venv/bin/pip install openapi-python-client openapi-generator-cli   # the latter needs Java

Run from the repository root: ``.venv/bin/python benchmarks/bench_generator.py [--rounds N]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

from harness import Sampler, Stats, byte_compile, interleave, process, table, verdict
from modelarts_kit_spec import SPEC_PATH

BIN = Path(sys.executable).parent
REPO = Path(__file__).resolve().parents[1]


GENERATOR_PACKAGES = ("wire", "spec", "cli", "generator")


class CPU:
    """Records the CPU seconds (user + system, children included) of every sample taken
    through :meth:`track`, by contender."""

    def __init__(self) -> None:
        self.samples: dict[str, list[float]] = {}

    def track(self, samplers: Mapping[str, Sampler]) -> dict[str, Sampler]:
        return {name: self._tracked(name, sample) for name, sample in samplers.items()}

    def _tracked(self, name: str, sample: Sampler) -> Sampler:
        def tracked() -> float:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            elapsed = sample()
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            self.samples.setdefault(name, []).append(used)
            return elapsed

        return tracked

    def stats(self) -> dict[str, Stats]:
        return {name: Stats(tuple(values)) for name, values in self.samples.items()}


def load_average() -> str:
    return "load average " + " ".join(f"{value:.2f}" for value in os.getloadavg())


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
        "render_models(ir.model_schemas, ir.model_texts, header=ir.models_header, "
        "use_cache=False)\n"
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
    byte_compile(GENERATOR_PACKAGES)
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {load_average()}\n")

    cpu = CPU()
    checked = interleave(cpu.track(check_samplers(env)), args.rounds)
    full = "generate --check --no-cache (full)"
    table("generate --check, whole process, wall", checked, unit="ms", scale=1e3, baseline=full)
    table("generate --check, CPU (user+sys)", cpu.stats(), unit="ms", scale=1e3, baseline=full)
    manifest = checked["generate --check (manifest, cache off)"]
    verdict("generate --check, median", manifest.median, "<= 0.25 s", manifest.median <= 0.25, " s")
    verdict("generate --check, min", manifest.min, "<= 0.25 s", manifest.min <= 0.25, " s")
    print(f"  ({load_average()})\n")

    cpu = CPU()
    with tempfile.TemporaryDirectory(prefix="bench-generate-") as temp:
        samplers = generation_samplers(Path(temp), env, not args.no_oag)
        generated = interleave(cpu.track(samplers), args.rounds)
    peer = "openapi-python-client" if "openapi-python-client" in generated else None
    title = f"generation from {SPEC_PATH.name}, whole process"
    table(f"{title}, wall", generated, unit="ms", scale=1e3, baseline=peer)
    table(f"{title}, CPU (user+sys)", cpu.stats(), unit="ms", scale=1e3, baseline=peer)
    if peer is not None:
        ours, theirs = generated["modelarts-kit generate (cold)"], generated[peer]
        for label, ratio in (
            ("median", ours.median / theirs.median),
            ("min", ours.min / theirs.min),
        ):
            verdict(f"cold generation / {peer}, {label}", ratio, "<= 0.8x", ratio <= 0.8)
    print(f"  ({load_average()})")


if __name__ == "__main__":
    main()
