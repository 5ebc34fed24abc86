"""The server takes its collaborators through ``create_app``, dispatches through an explicit
handler table, and its package imports nothing heavy until a name is used."""

from __future__ import annotations

import subprocess
import sys

import httpx
import pytest
from modelarts_kit_server import DEV_PROJECT_ID, DEV_TOKEN, ManualClock, ServerSettings, create_app
from modelarts_kit_server.context import JsonResponse, RequestContext
from modelarts_kit_server.handlers import default_handlers
from modelarts_kit_server.store import JobStore
from modelarts_kit_spec import Spec

from .server_support import SyncASGITransport, job_body

JOBS = f"/v2/{DEV_PROJECT_ID}/training-jobs"
HEADERS = {"X-Auth-Token": DEV_TOKEN, "Content-Type": "application/json"}


def test_importing_the_package_loads_neither_uvicorn_nor_the_app() -> None:
    probe = (
        "import sys, modelarts_kit_server as s; s.DEV_TOKEN; "
        "print(sorted(m for m in ('uvicorn', 'modelarts_kit_server.app') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "[]"


def test_create_app_uses_the_collaborators_it_is_given(spec: Spec) -> None:
    clock = ManualClock(start_ms=1_234_000)
    store = JobStore()
    app = create_app(ServerSettings(), spec=spec, store=store, clock=clock)
    try:
        assert app.spec is spec
        assert app.store is store
        assert app.clock is clock
        client = httpx.Client(transport=SyncASGITransport(app), base_url="http://127.0.0.1")
        created = client.post(JOBS, json=job_body("given-clock"), headers=HEADERS)
        assert created.status_code == 201
        assert created.json()["metadata"]["create_time"] == 1_234_000
        assert store.get(DEV_PROJECT_ID, created.json()["metadata"]["id"]) is not None
    finally:
        app.close()


def test_the_server_dispatches_through_its_handler_table(spec: Spec) -> None:
    show = spec.meaning.roles.show.operation_id
    seen: list[str] = []

    def teapot(context: RequestContext) -> JsonResponse:
        seen.append(context.job_id)
        return JsonResponse(200, {"answered_by": "injected"})

    handlers = {**default_handlers(spec.meaning.roles), show: teapot}
    app = create_app(ServerSettings(clock=ManualClock()), spec=spec, handlers=handlers)
    try:
        client = httpx.Client(transport=SyncASGITransport(app), base_url="http://127.0.0.1")
        shown = client.get(f"{JOBS}/job-1", headers=HEADERS)
        assert (shown.status_code, shown.json(), seen) == (
            200,
            {"answered_by": "injected"},
            ["job-1"],
        )
        created = client.post(JOBS, json=job_body("still-default"), headers=HEADERS)
        assert created.status_code == 201
    finally:
        app.close()


def test_an_operation_without_a_handler_is_not_routed(spec: Spec) -> None:
    """Show's path without a handler for any of its operations (delete and describe share it
    in a spec that has them) is not routed at all."""
    show = spec.meaning.roles.show.operation_id
    unrouted = {op.operation_id for op in spec.operations if op.path == spec.operation(show).path}
    handlers = {k: v for k, v in default_handlers(spec.meaning.roles).items() if k not in unrouted}
    app = create_app(ServerSettings(clock=ManualClock()), spec=spec, handlers=handlers)
    try:
        assert show not in {route.operation.operation_id for route in app.routes}
        client = httpx.Client(transport=SyncASGITransport(app), base_url="http://127.0.0.1")
        assert client.get(f"{JOBS}/job-1", headers=HEADERS).status_code == 404
    finally:
        app.close()


def test_a_path_matched_again_resolves_as_the_first_time_with_its_own_parameters() -> None:
    from modelarts_kit_server.app import MATCHED_PATHS, build_routes, resolve_route
    from modelarts_kit_server.errors import ApiError
    from modelarts_kit_spec import load_spec

    spec = load_spec()
    routes = build_routes(spec, {op.operation_id: object() for op in spec.operations})  # type: ignore[misc]
    path = f"/v2/{DEV_PROJECT_ID}/training-jobs/job-1"
    first = resolve_route(routes, "GET", path)
    first.path_params["training_job_id"] = "changed by a handler"
    again = resolve_route(routes, "GET", path)
    assert again.route is first.route
    assert again.path_params == {"project_id": DEV_PROJECT_ID, "training_job_id": "job-1"}
    assert resolve_route(routes, "DELETE", path).route.operation.method == "delete"
    with pytest.raises(ApiError) as refused:  # a wrong method is refused the second time too
        resolve_route(routes, "PATCH", path)
    assert "Allow" in refused.value.headers
    for n in range(MATCHED_PATHS + 1):  # the memo stays bounded
        resolve_route(routes, "GET", f"/v2/{DEV_PROJECT_ID}/training-jobs/job-{n}")
    assert len(routes.matched) <= MATCHED_PATHS


def test_path_parameters_once_taken_are_taken_again_and_others_still_judged(spec: Spec) -> None:
    # The server validates each operation's path parameter values once (a run names the same
    # project and jobs again and again); other values are judged as before, each end by its
    # own envelope.
    from unittest import mock

    from modelarts_kit_server import app as app_module
    from modelarts_kit_server.validation import validate_path_parameters as original

    calls: list[dict[str, str]] = []

    def counted(envelope: Spec, operation: object, values: dict[str, str]) -> None:
        calls.append(dict(values))
        original(envelope, operation, values)  # type: ignore[arg-type]

    answers: list[str] = []
    with mock.patch.object(app_module, "validate_path_parameters", counted):
        for strictness in ("lenient", "strict"):
            app = create_app(ServerSettings(strictness=strictness), spec=spec)
            client = httpx.Client(transport=SyncASGITransport(app), base_url="http://127.0.0.1")
            try:
                for project in (DEV_PROJECT_ID, DEV_PROJECT_ID, "bad project!", "bad project!"):
                    job = "00000000-0000-4000-8000-000000000000"
                    shown = client.get(f"/v2/{project}/training-jobs/{job}", headers=HEADERS)
                    answers.append(shown.json()["error_code"])
            finally:
                app.close()
    # The lenient end takes any project id (only the ledger decided its pattern), the strict
    # end refuses one breaking it.
    unknown, invalid = "ModelArts.2775", "ModelArts.2788"
    assert answers == [unknown] * 4 + [unknown, unknown, invalid, invalid]
    # Taken once per server; a refused value is judged every time.
    bad = "bad project!"
    assert [c["project_id"] for c in calls] == [DEV_PROJECT_ID, bad, DEV_PROJECT_ID, bad, bad]
