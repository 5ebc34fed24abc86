"""Requests per second of the reference server on loopback, against a trivial ASGI baseline.

Both apps are served the same way (uvicorn in a thread, ``serve_in_thread``); the load
generator runs in another process with a few keep-alive connections. Each scenario is bounded
by a request count and a time limit. Printed: requests/s per scenario and the ratio to the
baseline measured in the same run (reference / trivial: 1.0 would be "free").

    .venv/bin/python benchmarks/bench_server.py [--requests 2000] [--connections 4]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import httpx
from modelarts_kit_server import DEV_PROJECT_ID, DEV_TOKEN, ServerSettings, create_app
from modelarts_kit_server.runner import serve_in_thread

JOBS = f"/v2/{DEV_PROJECT_ID}/training-jobs"
HEADERS = {"X-Auth-Token": DEV_TOKEN}
TIME_LIMIT_S = 20.0

Scope = MutableMapping[str, Any]


async def trivial_app(
    scope: Scope,
    receive: Callable[[], Awaitable[MutableMapping[str, Any]]],
    send: Callable[[MutableMapping[str, Any]], Awaitable[None]],
) -> None:
    """The baseline: read the body, answer a fixed small JSON document."""
    if scope["type"] != "http":
        return
    more = True
    while more:
        message = await receive()
        more = bool(message.get("more_body", False))
    payload = b'{"kind":"job","metadata":{"id":"x"},"status":{"phase":"Running"}}'
    length = str(len(payload)).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", length)]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


@dataclass(frozen=True)
class Load:
    base_url: str
    method: str
    path: str
    create_bodies: bool  # POST a fresh job name per request
    requests: int
    connections: int
    label: str


def generate_load(load: Load) -> tuple[int, float, int]:
    """Runs in the load-generator process: (requests done, seconds, non-2xx count)."""
    deadline = time.monotonic() + TIME_LIMIT_S
    per_connection = load.requests // load.connections
    failures = 0
    lock = threading.Lock()

    def connection(index: int) -> int:
        nonlocal failures
        done = 0
        with httpx.Client(base_url=load.base_url, headers=HEADERS, timeout=10) as client:
            for number in range(per_connection):
                if time.monotonic() > deadline:
                    break
                body = None
                if load.create_bodies:
                    name = f"{load.label}-{index}-{number}"
                    body = {"kind": "job", "metadata": {"name": name}}
                response = client.request(load.method, load.path, json=body)
                if not 200 <= response.status_code < 300:
                    with lock:
                        failures += 1
                done += 1
        return done

    started = time.perf_counter()
    with ThreadPoolExecutor(load.connections) as pool:
        total = sum(pool.map(connection, range(load.connections)))
    return total, time.perf_counter() - started, failures


def measure(pool: ProcessPoolExecutor, load: Load) -> float:
    done, seconds, failures = pool.submit(generate_load, load).result()
    if failures:
        raise SystemExit(f"{load.label}: {failures} of {done} requests failed")
    return done / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000, help="per scenario (bounded)")
    parser.add_argument("--connections", type=int, default=4)
    args = parser.parse_args()
    context = multiprocessing.get_context("spawn")
    results: dict[str, float] = {}
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        pool.submit(time.sleep, 0).result()  # start the load process before timing
        with serve_in_thread(app=trivial_app) as url:
            for label, method in (("baseline GET", "GET"), ("baseline POST", "POST")):
                load = Load(
                    url, method, JOBS, method == "POST", args.requests, args.connections, "base"
                )
                results[label] = measure(pool, load)
        app = create_app(ServerSettings())
        with serve_in_thread(app=app) as url:
            created = httpx.post(
                f"{url}{JOBS}", json={"kind": "job", "metadata": {"name": "b"}}, headers=HEADERS
            )
            job_id = created.json()["metadata"]["id"]
            show = Load(
                url, "GET", f"{JOBS}/{job_id}", False, args.requests, args.connections, "show"
            )
            results["show"] = measure(pool, show)
            create = Load(url, "POST", JOBS, True, args.requests, args.connections, "create")
            results["create"] = measure(pool, create)
        app.close()
    report = {
        "requests_per_scenario": args.requests,
        "connections": args.connections,
        "rps": {label: round(value, 1) for label, value in results.items()},
        "ratio_show_to_baseline_get": round(results["show"] / results["baseline GET"], 3),
        "ratio_create_to_baseline_post": round(results["create"] / results["baseline POST"], 3),
    }
    for label, value in results.items():
        print(f"{label:>14}: {value:8.1f} requests/s")
    print(f"show   / baseline GET : {report['ratio_show_to_baseline_get']:.3f}")
    print(f"create / baseline POST: {report['ratio_create_to_baseline_post']:.3f}")
    print(json.dumps(report))


if __name__ == "__main__":
    main()
