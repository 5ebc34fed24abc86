"""Other clients' latency while large create bodies are in flight, against the same latency idle.

The reference server runs in its own process (uvicorn, ``serve_in_thread``). A probe client
asks for a small job over a keep-alive connection, one request at a time, and times each
answer. Rounds alternate: probes with no large body in flight (the baseline), then probes while
``--loaders`` processes send large requests back to back:

- the 10 MB attack of issue 11: a create with 80,000 ``algorithm.parameters``;
- a valid create just under the server's body limit (2 MiB by default), which the server
  parses and validates in full;
- shows of a stored job of that size (a large answer rather than a large body). The server
  loads, renders and encodes such an answer on its worker thread; ``--inline-answers`` runs it
  with every answer built on the event loop instead (as before), for a before/after pair in
  the same conditions.

Printed per scenario: probe latency min / median / max in ms, the ratio of each to the
baseline's (interleaved rounds, same run), and the loaders' requests' own status and time.
Every round is bounded by ``--probes`` and ``--round-seconds``.

    .venv/bin/python benchmarks/bench_large_bodies.py [--rounds 3] [--probes 20] [--loaders 2]
        [--scenario show] [--inline-answers]

To measure another version of the server (for example main before a change), put its
``server/`` first on ``PYTHONPATH``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnContext
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event
from typing import Any

import httpx
from modelarts_kit_server import DEV_PROJECT_ID, DEV_TOKEN, ServerSettings, serve_in_thread

JOBS = f"/v2/{DEV_PROJECT_ID}/training-jobs"
HEADERS = {"X-Auth-Token": DEV_TOKEN, "Content-Type": "application/json"}
ATTACK_PARAMETERS = 80_000
PROBE_GAP_S = 0.05
NAME_PLACEHOLDER = "NAME-PLACEHOLDER-0000"


def serve(pipe: Connection, inline_answers: bool) -> None:
    """In the server process: serve until told to stop."""
    if inline_answers:  # the baseline: every answer built on the event loop
        import modelarts_kit_server.app

        modelarts_kit_server.app.INLINE_ANSWER_BYTES = 2**62
    with serve_in_thread(ServerSettings()) as url:
        pipe.send(url)
        pipe.recv()


def create_body(parameters: int) -> bytes:
    """A create with ``parameters`` algorithm parameters; the name is a placeholder."""
    body = {
        "kind": "job",
        "metadata": {"name": NAME_PLACEHOLDER},
        "algorithm": {
            "image_url": "swr.example.com/team/train:1",
            "command": "python train.py",
            "parameters": [
                {"name": f"param_{i:06d}", "value": "v" * 64, "description": "d" * 16}
                for i in range(parameters)
            ],
        },
        "spec": {"resource": {"flavor_id": "modelarts.vm.cpu.2u", "node_count": 1}},
    }
    return json.dumps(body, separators=(",", ":")).encode()


def near_limit_body(limit: int) -> tuple[bytes, int]:
    """The largest create (by whole parameters) that fits in ``limit`` bytes."""
    per_parameter = len(create_body(2)) - len(create_body(1))
    count = (limit - len(create_body(0))) // per_parameter - 1
    return create_body(count), count


@dataclass(frozen=True)
class Request:
    """What a loader sends back to back: a create (``body``) or a show (no body)."""

    method: str
    path: str
    body: bytes | None = None


def hammer(url: str, request: Request, prefix: str, stop: Event, out: Queue[Any]) -> None:
    """In a loader process: send ``request`` (a fresh job name each time) until ``stop``."""
    results: list[tuple[int, float]] = []
    with httpx.Client(base_url=url, headers=HEADERS, timeout=600) as client:
        while not stop.is_set():
            body = request.body
            if body is not None:
                name = f"{prefix}-{len(results):08d}".encode()
                body = body.replace(NAME_PLACEHOLDER.encode(), name, 1)
            started = time.perf_counter()
            response = client.request(request.method, request.path, content=body)
            results.append((response.status_code, time.perf_counter() - started))
    out.put(results)


class Loader:
    """``count`` processes sending ``request`` back to back while the block runs.

    Processes, not threads: the probe's own timing must not share a GIL with the loaders.
    """

    def __init__(self, context: SpawnContext, url: str, request: Request, count: int) -> None:
        self.stop = context.Event()
        self.queue: Queue[Any] = context.Queue()
        self.processes = [
            context.Process(
                target=hammer,
                args=(url, request, f"large-{index}-{time.monotonic_ns()}", self.stop, self.queue),
            )
            for index in range(count)
        ]
        self.results: list[tuple[int, float]] = []

    def __enter__(self) -> Loader:
        for process in self.processes:
            process.start()
        time.sleep(1.0)  # the loaders have started and their first bodies are in flight
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for _ in self.processes:  # each loader sends its results once, when it stops
            self.results += self.queue.get(timeout=600)
        for process in self.processes:
            process.join(60)


def probe_round(client: httpx.Client, path: str, probes: int, seconds: float) -> list[float]:
    """Latencies (s) of up to ``probes`` shows, one at a time, within ``seconds``."""
    deadline = time.monotonic() + seconds
    latencies: list[float] = []
    while len(latencies) < probes and time.monotonic() < deadline:
        started = time.perf_counter()
        response = client.get(path)
        latencies.append(time.perf_counter() - started)
        if response.status_code != 200:
            raise SystemExit(f"probe answered {response.status_code}: {response.text[:200]}")
        time.sleep(PROBE_GAP_S)
    return latencies


def summary(values: list[float]) -> tuple[float, float, float]:
    return min(values), statistics.median(values), max(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="interleaved pairs of rounds")
    parser.add_argument("--probes", type=int, default=20, help="probes per round (bounded)")
    parser.add_argument("--round-seconds", type=float, default=20.0, help="time bound per round")
    parser.add_argument("--loaders", type=int, default=2, help="processes posting large bodies")
    parser.add_argument(
        "--limit", type=int, help="size of the valid large create (default: the body limit)"
    )
    parser.add_argument(
        "--scenario",
        action="append",
        choices=["attack", "under", "show"],
        help="run only these (repeatable; default: all three)",
    )
    parser.add_argument(
        "--inline-answers",
        action="store_true",
        help="build every answer on the event loop (the behaviour before answers of large "
        "stored jobs moved to the worker thread)",
    )
    args = parser.parse_args()
    chosen = set(args.scenario or ["attack", "under", "show"])

    limit = args.limit or ServerSettings().max_body_bytes
    near, near_count = near_limit_body(limit)
    attack = f"10 MB create ({ATTACK_PARAMETERS:,} parameters)"
    under = f"create under the limit ({near_count:,} parameters, {len(near) / 2**20:.2f} MiB)"
    shown = f"show of a stored {len(near) / 2**20:.2f} MiB job"
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    server = context.Process(target=serve, args=(theirs, args.inline_answers), daemon=True)
    server.start()
    url = ours.recv()
    idle: list[float] = []
    loaded: dict[str, list[float]] = {label: [] for label in (attack, under, shown)}
    large: dict[str, list[tuple[int, float]]] = {label: [] for label in (attack, under, shown)}
    try:
        with httpx.Client(base_url=url, headers=HEADERS, timeout=600) as client:
            created = client.post(JOBS, json={"kind": "job", "metadata": {"name": "probe"}})
            path = f"{JOBS}/{created.json()['metadata']['id']}"
            probe_round(client, path, 5, 5)  # warm up
            stored = client.post(JOBS, content=near.replace(NAME_PLACEHOLDER.encode(), b"big"))
            everything = {
                "attack": (attack, Request("POST", JOBS, create_body(ATTACK_PARAMETERS))),
                "under": (under, Request("POST", JOBS, near)),
                "show": (shown, Request("GET", f"{JOBS}/{stored.json()['metadata']['id']}")),
            }
            scenarios = dict(everything[key] for key in everything if key in chosen)
            for _ in range(args.rounds):
                for label, request in scenarios.items():
                    idle += probe_round(client, path, args.probes, args.round_seconds)
                    with Loader(context, url, request, args.loaders) as loader:
                        loaded[label] += probe_round(client, path, args.probes, args.round_seconds)
                    large[label] += loader.results
    finally:
        ours.send("stop")
        server.join(30)

    base = summary(idle)
    report: dict[str, object] = {
        "max_body_bytes": ServerSettings().max_body_bytes,
        "near_limit_bytes": limit,
        "rounds": args.rounds,
        "loaders": args.loaders,
        "inline_answers": args.inline_answers,
        "idle_ms": [round(v * 1000, 1) for v in base],
    }
    print(f"server body limit: {ServerSettings().max_body_bytes} bytes; near-limit body: {limit}")
    where = "on the event loop" if args.inline_answers else "large ones on the worker thread"
    print(f"answers built {where}")
    print("probe latency in ms (min / median / max)")
    print(f"{'no large body in flight':<58} {len(idle):>4} probes  " + _ms(base))
    for label, values in loaded.items():
        if not values:
            continue
        stats = summary(values)
        ratios = [s / b for s, b in zip(stats, base, strict=True)]
        statuses = sorted({status for status, _ in large[label]})
        seconds = summary([t for _, t in large[label]]) if large[label] else (0.0, 0.0, 0.0)
        print(f"{label:<58} {len(values):>4} probes  " + _ms(stats))
        print(
            f"{'':<58} ratio to idle: {ratios[0]:.1f} / {ratios[1]:.1f} / {ratios[2]:.1f};"
            f" large requests: {len(large[label])}, status {statuses},"
            f" {seconds[0]:.2f} / {seconds[1]:.2f} / {seconds[2]:.2f} s"
        )
        report[label] = {
            "probes": len(values),
            "probe_ms": [round(v * 1000, 1) for v in stats],
            "ratio_to_idle": [round(r, 2) for r in ratios],
            "large_requests": len(large[label]),
            "large_statuses": statuses,
            "large_s": [round(v, 3) for v in seconds],
        }
    print(json.dumps(report))


def _ms(stats: tuple[float, float, float]) -> str:
    return " / ".join(f"{value * 1000:8.1f}" for value in stats)


if __name__ == "__main__":
    main()
