"""The reference server's job handlers: what create, show and terminate do to a job.

The other operations' handlers are in :mod:`~modelarts_kit_server.handlers.job_records`
(list, delete, describe), :mod:`~modelarts_kit_server.handlers.tasks` (events, logs, metrics) and
:mod:`~modelarts_kit_server.handlers.catalogue` (flavors, engines); the table binding every
handler to its operation is :func:`~modelarts_kit_server.handlers.default_handlers`.

A handler takes the :class:`RequestContext` of a routed, authenticated request and returns a
:class:`JsonResponse` (or raises :class:`~modelarts_kit_server.errors.ApiError`). It parses and
validates the body (:func:`validate_body`), builds the stored job (:func:`build_job`), persists
it (:class:`~modelarts_kit_server.store.JobStore`), moves the lifecycle
(:mod:`modelarts_kit_server.lifecycle`) and renders it (:func:`render_job`). Which operation each
handler serves comes from the spec's roles (the handler table); the server
(:mod:`modelarts_kit_server.app`) dispatches through that explicit table, which
``create_app(settings, handlers=...)`` replaces. Create and terminate also record the job's
events (its planned phase transitions, :func:`record_events`), and with
``ServerSettings.catalogue`` create refuses a flavor or an engine the catalogue does not have
(:func:`check_catalogue`).

The steps are module-level functions called by name, so a test or a mutant of the contract kit
may patch one here, e.g. ``modelarts_kit_server.handlers.job_core.validate_body``.

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
import json
import logging
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from modelarts_kit_spec.schemamodel import MUST_ACCEPT, MUST_REJECT
from modelarts_kit_spec.schemamodel.prune import known_fields
from modelarts_kit_spec.schemamodel.sdk_fields import example_nulls, only_sdk_fields_break
from modelarts_kit_spec.sensitive import SensitiveField, is_sensitive, sensitive_fields
from modelarts_kit_spec.walker import SchemaWalker

from modelarts_kit_server import errors
from modelarts_kit_server.context import Handler, JobServer, JsonResponse, RequestContext, short
from modelarts_kit_server.errors import ApiError
from modelarts_kit_server.events import transition_events
from modelarts_kit_server.lifecycle import SIMULATE_ANNOTATION, Simulation, Timeline, can_terminate
from modelarts_kit_server.rendering import conform_to_schema
from modelarts_kit_server.settings import STRICT
from modelarts_kit_server.store import DuplicateJobName, JobRecord
from modelarts_kit_server.validation import (
    apply_defaults,
    describe_violation,
    ignored_fields,
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
    "check_catalogue",
    "create_job",
    "echo_as_stored",
    "find_job",
    "meaning_for",
    "record_events",
    "render_job",
    "show_job",
    "terminate_job",
    "validate_body",
]

logger = logging.getLogger("modelarts_kit_server")

MAX_RENDERED_TASKS = 64  # node_count may be huge; the task list shown is capped
MAX_LOGGED_FIELDS = 10  # of the ignored fields, the first are named, the rest counted
MAX_LOGGED_NAME_CHARS = 80


def validate_body(context: RequestContext, precheck: Callable[[Any], None] | None = None) -> Any:
    """The parsed body, valid against the operation's request schema in the envelope the
    server's strictness names; a lenient server keeps only the fields the spec has. An empty
    body where the envelope does not require one is None (a DELETE without a body; at the
    lenient end, a search without a body: only the ledger decided that it is required).

    ``precheck`` sees the parsed body before the schema does (cheap caps first: a huge body
    is refused before it is validated value by value)."""
    spec = context.server.spec
    strict = context.server.settings.strictness == STRICT
    envelope = spec.envelope(MUST_ACCEPT if strict else MUST_REJECT)
    required = envelope.operation(context.operation.operation_id).request_required
    if not context.body.strip() and not required:
        return None
    document = parse_json_body(context.body, context.content_type)
    if precheck is not None:
        precheck(document)
    schema = context.operation.request_schema
    if schema is None:
        return document
    violation = validate_instance(envelope, schema, document)
    if violation is None or (
        strict
        and only_sdk_fields_break(
            spec, envelope, schema, document, example_nulls(spec, context.operation.pointer)
        )
    ):
        # The strict end accepts what the vendor's SDK sends (workspace_id in a list body) and
        # the nulls of the spec's own request examples (a page's example sends them).
        if strict:
            return document
        kept = known_fields(spec, schema, document)
        log_ignored_fields(context, ignored_fields(document, kept))
        return kept
    if _is_unsupported_action(context, violation):
        raise ApiError(errors.UNSUPPORTED_ACTION_TYPE, short(str(violation.instance)))
    fields = request_secrets(context.server.spec.walker, context.operation.operation_id, schema)
    message = describe_violation(violation, secret=lambda at: is_sensitive(fields, document, at))
    raise ApiError(errors.INVALID_PARAM, message)


def log_ignored_fields(context: RequestContext, fields: Sequence[str]) -> None:
    """One log line naming the request fields a lenient server ignored (names, never values):
    a misspelled key (``filter`` for ``filters``) is otherwise silently without effect."""
    if not fields:
        return
    shown = [_printable(field) for field in fields[:MAX_LOGGED_FIELDS]]
    more = len(fields) - len(shown)
    logger.warning(
        "%s: ignored request fields the spec does not have: %s%s",
        context.operation.operation_id,
        ", ".join(shown),
        f" (and {more} more)" if more else "",
    )


def _printable(text: str) -> str:
    """``text`` on one line, cut to :data:`MAX_LOGGED_NAME_CHARS` (a field name is the client's)."""
    if len(text) > MAX_LOGGED_NAME_CHARS:
        text = text[: MAX_LOGGED_NAME_CHARS - 3] + "..."
    return text if text.isprintable() else json.dumps(text)[1:-1]


# Where the secrets of each operation's request body are, per spec (its walker): walking the
# schema is ~200 views, once per operation rather than once per refused body.
_SECRETS: weakref.WeakKeyDictionary[SchemaWalker, dict[str, tuple[SensitiveField, ...]]] = (
    weakref.WeakKeyDictionary()
)


def request_secrets(
    walker: SchemaWalker, operation_id: str, schema: Any
) -> tuple[SensitiveField, ...]:
    """``sensitive_fields(walker, schema)`` of the request body of ``operation_id``, computed
    once per spec and operation."""
    known = _SECRETS.setdefault(walker, {})
    fields = known.get(operation_id)
    if fields is None:
        fields = known[operation_id] = sensitive_fields(walker, schema)
    return fields


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


def meaning_for(context: RequestContext, meanings: Sequence[str]) -> str:
    """The first of ``meanings`` the spec lists for the operation (else the last)."""
    listed = context.server.spec.meaning.errors.meanings(context.operation.operation_id)
    return next((meaning for meaning in meanings if meaning in listed), meanings[-1])


def check_catalogue(context: RequestContext, document: Mapping[str, Any]) -> None:
    """With ``ServerSettings.catalogue``: the job's flavor and engine are in the catalogue."""
    if not context.server.settings.catalogue:
        return
    catalogue = context.server.catalogue
    resource = _at(document, "spec", "resource")
    flavor = resource.get("flavor_id")
    if isinstance(flavor, str) and not catalogue.has_flavor(flavor):
        meaning = meaning_for(context, errors.FLAVOR_NOT_FOUND_MEANINGS)
        raise ApiError(
            meaning,
            short(flavor),
            detail=f"/spec/resource/flavor_id: value {redacted_value(flavor, ['flavor_id'])} "
            "violates must be a flavor of the training-job flavors",
        )
    engine = _at(document, "algorithm", "engine")
    if any(key in engine for key in ("engine_id", "engine_name")) and not catalogue.has_engine(
        engine
    ):
        named = engine.get("engine_id", engine.get("engine_name"))
        meaning = meaning_for(context, errors.ENGINE_NOT_FOUND_MEANINGS)
        raise ApiError(
            meaning,
            short(str(named)),
            detail=f"/algorithm/engine: value {redacted_value(dict(engine), ['engine'])} "
            "violates must be an engine of the training-job engines (id, or name and version)",
        )


def _at(document: Mapping[str, Any], *path: str) -> Mapping[str, Any]:
    """The object at ``path`` in ``document`` ({} where there is none)."""
    node: Any = document
    for part in path:
        node = node.get(part) if isinstance(node, Mapping) else None
    return node if isinstance(node, Mapping) else {}


def record_events(server: JobServer, record: JobRecord, since_ms: int) -> None:
    """Store the job's phase transitions from ``since_ms`` on (its events)."""
    events = transition_events(server.simulation.transitions(record.timeline))
    server.store.plan_events(record.project_id, record.job_id, since_ms, events)


def create_job(context: RequestContext) -> JsonResponse:
    document = validate_body(context)
    check_catalogue(context, document)
    record = echo_as_stored(context, build_job(context, document))
    try:
        context.server.store.insert(record)
    except DuplicateJobName:
        raise ApiError(errors.DUPLICATE_JOB_NAME, short(record.name)) from None
    record_events(context.server, record, record.timeline.created_ms)
    return JsonResponse(201, render_job(context.server, record, record.timeline.created_ms))


def find_job(context: RequestContext) -> JobRecord:
    """The request's job in the request's project; the unknown-job error otherwise."""
    job_id = context.job_id
    record = context.server.store.get(context.project_id, job_id)
    if record is None:
        raise ApiError(errors.JOB_NOT_FOUND, short(job_id))
    return record


def show_job(context: RequestContext) -> JsonResponse:
    return JsonResponse(200, render_job(context.server, find_job(context)))


def terminate_job(context: RequestContext) -> JsonResponse:
    validate_body(context)
    server = context.server
    job_id = context.job_id
    now_ms = server.clock.now_ms()

    def allowed(record: JobRecord) -> bool:
        return can_terminate(server.simulation.snapshot_at(record.timeline, now_ms))

    record, recorded = server.store.request_termination(context.project_id, job_id, now_ms, allowed)
    if record is None:
        raise ApiError(errors.JOB_NOT_FOUND, short(job_id))
    if not recorded:
        phase = server.simulation.snapshot_at(record.timeline, now_ms).phase
        terminable = ", ".join(sorted(server.simulation.lifecycle.terminable))
        raise ApiError(
            errors.NOT_ALLOWED_TO_TERMINATE,
            detail=f"It is {phase}; only jobs in {terminable} can be.",
        )
    record_events(server, record, now_ms)
    return JsonResponse(202, render_job(server, record, now_ms))
