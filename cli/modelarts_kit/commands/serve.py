"""``modelarts-kit serve``: run the reference server on uvicorn (foreground).

Exit codes: 0 after a clean stop (Ctrl-C), 2 on a usage error, with one line on stderr (a bad
option value, a port in use, a database that cannot be opened or written, a non-loopback
``--host`` with the public development token).
"""

from __future__ import annotations

import ipaddress
import logging
from pathlib import Path

import click
from modelarts_kit_server.app import create_app
from modelarts_kit_server.faults import FaultPlan
from modelarts_kit_server.lifecycle import SIMULATE_ANNOTATION
from modelarts_kit_server.runner import (
    DEFAULT_HEADER_TIMEOUT_S,
    MAX_HEADER_TIMEOUT_S,
    base_url,
    bind_socket,
    uvicorn_server,
)
from modelarts_kit_server.settings import (
    DEV_PROJECT_ID,
    DEV_TOKEN,
    LENIENT,
    STRICTNESS,
    ServerSettings,
)
from modelarts_kit_server.store import StoreError
from modelarts_kit_wire.errors import KitError

from modelarts_kit import options

__all__ = ["is_loopback", "serve"]

EPILOG = f"""
\b
Create a job (the development token and project; README.md has the same body):
  curl -s -X POST -H 'X-Auth-Token: {DEV_TOKEN}' -H 'Content-Type: application/json' \\
    http://127.0.0.1:8000/v2/{DEV_PROJECT_ID}/training-jobs -d '{{
      "kind": "job",
      "metadata": {{"name": "my-first-job"}},
      "algorithm": {{
        "code_dir": "obs://my-bucket/code/",
        "boot_file": "obs://my-bucket/code/train.py",
        "engine": {{"engine_name": "TensorFlow",
                   "engine_version": "tensorflow_2.1.0-cuda_10.1-py_3.7-ubuntu_18.04-x86_64"}}
      }},
      "spec": {{"resource": {{"flavor_id": "modelarts.vm.cpu.8u", "node_count": 1}}}}
    }}'
then follow it with GET .../training-jobs/JOB_ID (the id is metadata.id of the answer).

\b
Test hook: create a job with
  "metadata": {{"annotations": {{"{SIMULATE_ANNOTATION}": "failed"}}}}
and it ends in that final phase (any final phase the running phase can move to) instead of
the normal one. Lifecycle: the spec's x-modelarts-lifecycle, on the simulated clock
(--clock-speed x real time): 15 s through the phases before the running one, 60 s running,
then the final phase; a terminated job spends 3 s in the stopping phase, then ends.

\b
Faults (--faults, comma-separated KIND=RATE[:PARAM], rates in [0, 1], seeded by --fault-seed):
  latency=RATE[:SECONDS]  429=RATE[:RETRY_AFTER]  503=RATE  drop=RATE
"""


def is_loopback(host: str) -> bool:
    """``localhost`` or a loopback address (127.0.0.0/8, ::1); names are not resolved."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@options.command(epilog=EPILOG)
@options.listening(
    default_port=8000,
    host_help="Interface to bind. A non-loopback address needs --token (the development token "
    "is public).",
    port_help="TCP port; 0 picks a free one (the URL is printed).",
)
@click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="SQLite file that keeps jobs across restarts (default: in memory).",
)
@click.option(
    "--token",
    "tokens",
    multiple=True,
    metavar="TOKEN[:PROJECT_ID]",
    help=f"Accepted X-Auth-Token, for all projects or bound to one; repeatable. "
    f"Without any, the development token {DEV_TOKEN!r} is accepted.",
)
@click.option(
    "--aksk",
    multiple=True,
    metavar="AK:SK:PROJECT_ID",
    help="Access key pair accepted for SDK-HMAC-SHA256 signed requests; repeatable.",
)
@click.option(
    "--clock-speed",
    default=1.0,
    show_default=True,
    type=click.FloatRange(min=0, min_open=True),
    help="How many times faster than real time job lifecycles run.",
)
@click.option(
    "--header-timeout",
    "header_timeout_s",
    default=DEFAULT_HEADER_TIMEOUT_S,
    show_default=True,
    type=click.FloatRange(min=0, min_open=True, max=MAX_HEADER_TIMEOUT_S),
    metavar="SECONDS",
    help="Close a connection whose request headers take longer than this (slowloris).",
)
@click.option(
    "--strictness",
    default=LENIENT,
    show_default=True,
    type=click.Choice(STRICTNESS),
    help="Which end of the spec's envelopes to play: lenient enforces only what every server "
    "must refuse and ignores (neither stores nor echoes) fields the spec does not have; strict "
    "accepts only what every server must accept (guidance enforced, undocumented and SDK-only "
    "fields refused).",
)
@click.option(
    "--catalogue",
    is_flag=True,
    help="Refuse to create a job whose flavor_id or engine is not in the catalogue of the "
    "training-job flavors and engines (the spec's examples of those operations).",
)
@click.option("--faults", metavar="SPEC", help="Inject faults (see below). Off by default.")
@click.option("--fault-seed", default=0, show_default=True, type=int, help="Seed for --faults.")
@click.option(
    "--log-level",
    default="info",
    show_default=True,
    type=click.Choice(["critical", "error", "warning", "info", "debug"]),
)
def serve(
    host: str,
    port: int,
    db_path: Path | None,
    tokens: tuple[str, ...],
    aksk: tuple[str, ...],
    clock_speed: float,
    header_timeout_s: float,
    strictness: str,
    catalogue: bool,
    faults: str | None,
    fault_seed: int,
    log_level: str,
) -> None:
    """Run the reference ModelArts training-job server."""
    if not tokens and not is_loopback(host):
        raise KitError(
            f"--host {host} is not a loopback address: without --token the server accepts the "
            f"public development token {DEV_TOKEN!r} from anyone who can reach it; "
            "give --token TOKEN[:PROJECT_ID]"
        )
    plan = FaultPlan.parse(faults, fault_seed) if faults is not None else None
    settings = ServerSettings(
        tokens=tokens,
        aksk=aksk,
        db_path=db_path,
        clock_speed=clock_speed,
        faults=plan,
        strictness=strictness,
        catalogue=catalogue,
    )
    try:
        app = create_app(settings)
    except StoreError as exc:
        raise KitError(f"--db {exc}") from None
    try:
        sock = bind_socket(host, port)
    except OSError as exc:
        app.close()
        raise KitError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    logging.basicConfig(level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    url = base_url(sock)
    click.echo(f"modelarts-kit reference server listening on {url}")
    click.echo(f"  storage: {db_path if db_path else 'in memory (lost at exit)'}")
    if settings.uses_dev_token:
        click.echo(f"  accepting the development token: X-Auth-Token: {DEV_TOKEN}")
        click.echo(f"  example project id: {DEV_PROJECT_ID}")
    else:
        click.echo(f"  accepting {len(settings.effective_tokens)} configured token(s)")
    if settings.credentials:
        click.echo(f"  accepting {len(settings.credentials)} AK/SK credential(s)")
    if catalogue:
        click.echo("  create checks flavors and engines against the catalogue")
    if plan is not None:
        click.echo(f"  fault injection on (seed {fault_seed})")
    try:
        server = uvicorn_server(app, log_level=log_level, header_timeout_s=header_timeout_s)
        server.run(sockets=[sock])
    finally:
        sock.close()
        app.close()
