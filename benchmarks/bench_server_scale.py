"""Benchmark: the reference server's create/s, show/s and list/s as a project grows.

For each project size (default 1,000, 10,000 and 100,000 jobs) a fresh process builds the
reference server on an in-memory store, seeds the project directly through the store
(``JobStore.insert`` of copies of one job the server created, each with its own id, name and
creation time), then drives the ASGI app in-process (no sockets: the server's own cost) with
creates, shows, lists without filters (the first page, and a page deep in the project) and
lists with filters (``like`` on the name, ``not`` on the phase, ``between`` on the creation
time). It prints operations per second (median of ``--repeats`` timed batches), the process's
peak RSS after seeding and after the lists, and the peak Python allocation of one filtered
list (tracemalloc).

``--baseline PATH`` runs the same worker on another checkout's packages (``PATH/server``,
``PATH/spec``, ``PATH/wire`` first on ``PYTHONPATH``), interleaved with this one size by size
and round by round, and prints the ratios (ours / baseline, ops/s).

    .venv/bin/python benchmarks/bench_server_scale.py [--sizes 1000 10000 100000]
        [--rounds 1] [--baseline /tmp/base-checkout]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from harness import load_average, machine

HERE = Path(__file__).resolve()
BODY: dict[str, Any] = {
    "kind": "job",
    "metadata": {"name": "seed", "description": "a job of the scale benchmark"},
    "algorithm": {
        "code_dir": "obs://my-bucket/code/",
        "boot_file": "obs://my-bucket/code/train.py",
        "engine": {
            "engine_name": "PyTorch",
            "engine_version": "pytorch_1.8.0-cuda_10.2-py_3.7-ubuntu_18.04-x86_64",
        },
    },
    "spec": {"resource": {"flavor_id": "modelarts.vm.cpu.8u", "node_count": 1}},
}
SIZES = (1_000, 10_000, 100_000)
MEASURES = ("create", "show", "list first page", "list deep page", "list filtered")


def _rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


async def _worker(size: int, repeats: int, batch: int) -> dict[str, Any]:
    import httpx
    from modelarts_kit_server import DEV_PROJECT_ID, DEV_TOKEN, JobStore, create_app

    store = JobStore()
    app = create_app(store=store)
    jobs = f"/v2/{DEV_PROJECT_ID}/training-jobs"
    searches = f"/v2/{DEV_PROJECT_ID}/training-job-searches"
    headers = {"X-Auth-Token": DEV_TOKEN}
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
        first = await client.post(jobs, json=BODY, headers=headers)
        first.raise_for_status()
        template = store.get(DEV_PROJECT_ID, first.json()["metadata"]["id"])
        assert template is not None
        started = time.perf_counter()
        for index in range(size - 1):
            job_id = f"seed-{index:08d}"
            metadata = {**template.document["metadata"], "id": job_id, "name": f"seed-{index}"}
            created = template.timeline.created_ms + index
            metadata["create_time"] = created
            store.insert(
                replace(
                    template,
                    job_id=job_id,
                    name=f"seed-{index}",
                    document={**template.document, "metadata": metadata},
                    timeline=replace(template.timeline, created_ms=created),
                )
            )
        seeded_s = time.perf_counter() - started
        rss_seeded = _rss_mib()
        counter = iter(range(10**9))

        async def create() -> None:
            body = {**BODY, "metadata": {**BODY["metadata"], "name": f"new-{next(counter)}"}}
            (await client.post(jobs, json=body, headers=headers)).raise_for_status()

        async def show() -> None:
            job = f"seed-{next(counter) % (size - 1):08d}"
            (await client.get(f"{jobs}/{job}", headers=headers)).raise_for_status()

        def lister(body: dict[str, Any]) -> Callable[[], Awaitable[None]]:
            async def run() -> None:
                answer = await client.post(searches, json=body, headers=headers)
                answer.raise_for_status()
                assert answer.json()["items"], answer.text[:200]

            return run

        filtered = {
            "limit": 10,
            "filters": [
                {"key": "name", "operator": "like", "value": ["seed-1"]},
                {"key": "phase", "operator": "not", "value": ["Terminated"]},
                {"key": "create_time", "operator": "between", "value": ["0", ""]},
            ],
        }
        deep = {"limit": 10, "offset": (size // 10) // 2}
        runs: dict[str, Callable[[], Awaitable[None]]] = {
            "create": create,
            "show": show,
            "list first page": lister({"limit": 10}),
            "list deep page": lister(deep),
            "list filtered": lister(filtered),
        }
        rates: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(repeats):
            for name, run in runs.items():  # interleaved within the process too
                count = batch if name in ("create", "show") else max(2, batch // 10)
                began = time.perf_counter()
                for _ in range(count):
                    await run()
                rates[name].append(count / (time.perf_counter() - began))
        tracemalloc.start()
        await lister(filtered)()
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return {
        "size": size,
        "seeded_s": seeded_s,
        "rates": rates,
        "rss_seeded_mib": rss_seeded,
        "rss_end_mib": _rss_mib(),
        "list_peak_mib": peak / 2**20,
    }


def run_worker(size: int, repeats: int, batch: int, baseline: str | None) -> dict[str, Any]:
    env = dict(os.environ)
    if baseline:
        paths = [str(Path(baseline) / part) for part in ("server", "spec", "wire")]
        env["PYTHONPATH"] = os.pathsep.join([*paths, env.get("PYTHONPATH", "")])
    command = [sys.executable, str(HERE), "--worker", str(size), "--repeats", str(repeats)]
    done = subprocess.run(
        [*command, "--batch", str(batch)], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"worker {size} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3, help="timed batches per measure")
    parser.add_argument("--batch", type=int, default=200, help="requests per create/show batch")
    parser.add_argument("--baseline", default=None, help="another checkout to compare with")
    parser.add_argument("--worker", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        print(json.dumps(asyncio.run(_worker(args.worker, args.repeats, args.batch))))
        return 0
    variants = {"ours": None, **({"baseline": args.baseline} if args.baseline else {})}
    print(f"{machine()} (shared: compare ratios); rounds {args.rounds}, repeats {args.repeats}")
    found: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for _ in range(args.rounds):
        for size in args.sizes:
            for name, path in variants.items():  # interleaved: A B per size, per round
                found.setdefault((name, size), []).append(
                    run_worker(size, args.repeats, args.batch, path)
                )
    print(f"load average at the end: {load_average()}")
    header = f"{'jobs':>7} {'code':8} " + " ".join(f"{m:>16}" for m in MEASURES)
    print("ops/s, median (min-max) of every timed batch;", "RSS MiB after seeding / at end;")
    print("peak MiB allocated by one filtered list (tracemalloc)")
    print(header + f" {'RSS seed/end':>14} {'list peak':>9}")
    for (name, size), results in found.items():
        cells = []
        for measure in MEASURES:
            samples = [rate for result in results for rate in result["rates"][measure]]
            cells.append(
                f"{statistics.median(samples):7.1f} ({min(samples):.0f}-{max(samples):.0f})"
            )
        rss = f"{max(r['rss_seeded_mib'] for r in results):.0f}/"
        rss += f"{max(r['rss_end_mib'] for r in results):.0f}"
        peak = max(r["list_peak_mib"] for r in results)
        print(
            f"{size:>7} {name:8} " + " ".join(f"{c:>16}" for c in cells) + f" {rss:>14} {peak:9.2f}"
        )
    if args.baseline:
        print("ours / baseline (ratio of medians, ops/s):")
        for size in args.sizes:
            ratios = []
            for measure in MEASURES:
                ours = statistics.median(
                    rate for r in found[("ours", size)] for rate in r["rates"][measure]
                )
                base = statistics.median(
                    rate for r in found[("baseline", size)] for rate in r["rates"][measure]
                )
                ratios.append(f"{measure} {ours / base:.2f}x")
            print(f"  {size:>7}: " + ", ".join(ratios))
    return 0


if __name__ == "__main__":
    sys.exit(main())
