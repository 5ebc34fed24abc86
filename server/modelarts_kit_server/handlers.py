"""The reference server's operation handlers: what create, show and terminate do to a job.

A handler takes the :class:`RequestContext` of a routed, authenticated request and returns a
:class:`JsonResponse` (or raises :class:`~modelarts_kit_server.errors.ApiError`). It parses and
validates the body (:func:`validate_body`), builds the stored job (:func:`build_job`), persists
it (:class:`~modelarts_kit_server.store.JobStore`), moves the lifecycle
(:mod:`modelarts_kit_server.lifecycle`) and renders it (:func:`render_job`). Which operation each
handler serves comes from the spec's roles (:func:`default_handlers`); the server
(:mod:`modelarts_kit_server.app`) dispatches through that explicit table, which
``create_app(settings, handlers=...)`` replaces.

The steps are module-level functions called by name, so a test or a mutant of the contract kit
may patch one here, e.g. ``modelarts_kit_server.handlers.validate_body``.

Server-owned fields: ``metadata.id`` (a UUID), ``metadata.create_time`` (ms, simulated clock),
``metadata.user_name`` and ``status`` are always the server's; absent fields with a ``default``
in the request schema are filled; everything else the client sent comes back unchanged. A job
whose echo would violate the spec's response schema is refused as ``invalid-parameter``.
Request bodies are validated against one of the spec's envelopes, by
``ServerSettings.strictness``: ``lenient`` (the default) enforces ``must-reject`` (the
documented rules, not the guidance the spec infers from prose: both members of a choose-one
pair are accepted, as real services commonly do) and drops the request fields the spec does
not have before storing, so they are neither stored nor echoed; ``strict`` enforces
``must-accept`` (guidance too; undocumented and SDK-only fields refused). Test hook: the annotation
``metadata.annotations["modelarts-kit/simulate"] = "<final phase>"`` (any case, e.g.
``failed``) makes the job end in that final phase instead of the normal course's.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from modelarts_kit_spec import Operation, Spec
from modelarts_kit_spec.meaning import Roles
from modelarts_kit_spec.schemamodel import MUST_ACCEPT, MUST_REJECT
from modelarts_kit_spec.schemamodel.prune import known_fields
from modelarts_kit_spec.sensitive import is_sensitive, sensitive_fields

from modelarts_kit_server import errors
from modelarts_kit_server.auth import Principal
from modelarts_kit_server.clock import Clock
from modelarts_kit_server.errors import ApiError
from modelarts_kit_server.lifecycle import SIMULATE_ANNOTATION, Simulation, Timeline, can_terminate
from modelarts_kit_server.rendering import conform_to_schema
from modelarts_kit_server.settings import STRICT, ServerSettings
from modelarts_kit_server.store import DuplicateJobName, JobRecord, JobStore
from modelarts_kit_server.validation import (
    apply_defaults,
    describe_violation,
    parse_json_body,
    pointer,
    redacted_value,
    validate_instance,
)

__all__ = [
    "Handler",
    "JobServer",
    "JsonResponse",
    "RequestContext",
    "build_job",
    "create_job",
    "default_handlers",
    "echo_as_stored",
    "render_job",
    "show_job",
    "terminate_job",
    "validate_body",
]

logger = logging.getLogger("modelarts_kit_server")

MAX_ID_CHARS = 64
MAX_RENDERED_TASKS = 64  # node_count may be huge; the task list shown is capped


class JobServer(Protocol):
    """What a handler uses of the server: its collaborators and its job ids."""

    settings: ServerSettings
    spec: Spec
    store: JobStore
    clock: Clock
    simulation: Simulation

    def new_job_id(self) -> str: ...


@dataclass(frozen=True)
class JsonResponse:
    status: int
    body: Any
    headers: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class RequestContext:
    """What a handler needs about the request and the server."""

    server: JobServer
    operation: Operation
    path_params: Mapping[str, str]
    principal: Principal
    body: bytes
    content_type: str | None

    @property
    def project_id(self) -> str:
        return self.path_params["project_id"]

    @property
    def job_id(self) -> str:
        return self.path_params[self.server.spec.meaning.roles.job_id_parameter]


Handler = Callable[[RequestContext], JsonResponse]


def _short(text: str) -> str:
    return text if len(text) <= MAX_ID_CHARS else text[: MAX_ID_CHARS - 3] + "..."


def validate_body(context: RequestContext) -> Any:
    """The parsed body, valid against the operation's request schema in the envelope the
    server's strictness names; a lenient server keeps only the fields the spec has."""
    document = parse_json_body(context.body, context.content_type)
    schema = context.operation.request_schema
    if schema is None:
        return document
    spec = context.server.spec
    strict = context.server.settings.strictness == STRICT
    violation = validate_instance(
        spec.envelope(MUST_ACCEPT if strict else MUST_REJECT), schema, document
    )
    if violation is None:
        return document if strict else known_fields(spec, schema, document)
    if _is_unsupported_action(context, violation):
        raise ApiError(errors.UNSUPPORTED_ACTION_TYPE, _short(str(violation.instance)))
    fields = sensitive_fields(context.server.spec.walker, schema)
    message = describe_violation(violation, secret=lambda at: is_sensitive(fields, document, at))
    raise ApiError(errors.INVALID_PARAM, message)


def _is_unsupported_action(context: RequestContext, violation: Any) -> bool:
    """An action outside the enum: a value of a field the spec's terminate body sets."""
    roles = context.server.spec.meaning.roles
    path = list(violation.absolute_path)
    return (
        context.operation.operation_id == roles.terminate.operation_id
        and len(path) == 1
        and path[0] in roles.terminate_body
        and violation.validator in ("enum", "const")
        and isinstance(violation.instance, str)
    )


# -- jobs ---------------------------------------------------------------------------------------


def simulated_outcome(simulation: Simulation, document: Mapping[str, Any]) -> str:
    """The test hook: ``metadata.annotations["modelarts-kit/simulate"]`` names the final phase
    (any case) the job ends in; without it, the normal course's final phase."""
    metadata = document.get("metadata")
    annotations = metadata.get("annotations") if isinstance(metadata, Mapping) else None
    if not isinstance(annotations, Mapping) or SIMULATE_ANNOTATION not in annotations:
        return simulation.outcomes[0]
    value = annotations[SIMULATE_ANNOTATION]
    outcome = simulation.outcome_for(value) if isinstance(value, str) else None
    if outcome is None:
        path = ["metadata", "annotations", SIMULATE_ANNOTATION]
        known = " or ".join(repr(o.lower()) for o in simulation.outcomes)
        raise ApiError(
            errors.INVALID_PARAM,
            f"{pointer(path)}: value {redacted_value(value, path)} violates must be {known}",
        )
    return outcome


def build_job(context: RequestContext, document: Mapping[str, Any]) -> JobRecord:
    """The job to store: the client's document, spec defaults, and server-owned fields."""
    server = context.server
    schema = context.operation.request_schema
    job: dict[str, Any] = apply_defaults(server.spec, schema, copy.deepcopy(dict(document)))
    job.pop("status", None)  # the server owns the status
    metadata = dict(job.get("metadata") or {})
    now_ms = server.clock.now_ms()
    metadata["id"] = server.new_job_id()
    metadata["create_time"] = now_ms
    metadata["user_name"] = server.settings.user_name
    job["metadata"] = metadata
    return JobRecord(
        project_id=context.project_id,
        job_id=metadata["id"],
        name=str(metadata.get("name", "")),
        document=job,
        timeline=Timeline(created_ms=now_ms, outcome=simulated_outcome(server.simulation, job)),
    )


def node_count(document: Mapping[str, Any]) -> int:
    spec = document.get("spec")
    resource = spec.get("resource") if isinstance(spec, Mapping) else None
    count = resource.get("node_count") if isinstance(resource, Mapping) else None
    if isinstance(count, int) and not isinstance(count, bool) and count >= 1:
        return min(count, MAX_RENDERED_TASKS)
    return 1


def render_job(server: JobServer, record: JobRecord, now_ms: int | None = None) -> Any:
    """The API representation of a stored job at ``now_ms`` (default: the clock's now)."""
    moment = server.clock.now_ms() if now_ms is None else now_ms
    snapshot = server.simulation.snapshot_at(record.timeline, moment)
    status = server.simulation.render_status(snapshot, node_count(record.document))
    rendered: dict[str, Any] = {}
    for key, value in record.document.items():
        rendered[key] = value
        if key == "metadata":
            rendered["status"] = status
    if "status" not in rendered:
        rendered["status"] = status
    return rendered


def echo_as_stored(context: RequestContext, record: JobRecord) -> JobRecord:
    """The job as the server stores it: shaped to the documented success response schema."""
    schema = context.operation.success.schema
    if schema is None:
        return record
    rendered = render_job(context.server, record, record.timeline.created_ms)
    try:
        shaped = conform_to_schema(context.server.spec, schema, rendered)
    except ValueError:
        logger.error("job %s cannot be shaped to the response schema", record.job_id)
        raise
    document = {key: value for key, value in shaped.items() if key != "status"}
    return replace(record, document=document)


def create_job(context: RequestContext) -> JsonResponse:
    document = validate_body(context)
    record = echo_as_stored(context, build_job(context, document))
    try:
        context.server.store.insert(record)
    except DuplicateJobName:
        raise ApiError(errors.DUPLICATE_JOB_NAME, _short(record.name)) from None
    return JsonResponse(201, render_job(context.server, record, record.timeline.created_ms))


def show_job(context: RequestContext) -> JsonResponse:
    job_id = context.job_id
    record = context.server.store.get(context.project_id, job_id)
    if record is None:
        raise ApiError(errors.JOB_NOT_FOUND, _short(job_id))
    return JsonResponse(200, render_job(context.server, record))


def terminate_job(context: RequestContext) -> JsonResponse:
    validate_body(context)
    server = context.server
    job_id = context.job_id
    now_ms = server.clock.now_ms()

    def allowed(record: JobRecord) -> bool:
        return can_terminate(server.simulation.snapshot_at(record.timeline, now_ms))

    record, recorded = server.store.request_termination(context.project_id, job_id, now_ms, allowed)
    if record is None:
        raise ApiError(errors.JOB_NOT_FOUND, _short(job_id))
    if not recorded:
        phase = server.simulation.snapshot_at(record.timeline, now_ms).phase
        terminable = ", ".join(sorted(server.simulation.lifecycle.terminable))
        raise ApiError(
            errors.NOT_ALLOWED_TO_TERMINATE,
            detail=f"It is {phase}; only jobs in {terminable} can be.",
        )
    return JsonResponse(202, render_job(server, record, now_ms))


def default_handlers(roles: Roles) -> dict[str, Handler]:
    """The handler of each operation id, by the role the spec gives the operation."""
    return {
        roles.create.operation_id: create_job,
        roles.show.operation_id: show_job,
        roles.terminate.operation_id: terminate_job,
    }
