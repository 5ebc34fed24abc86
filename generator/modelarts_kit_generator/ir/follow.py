"""The IR of the generated ``follow`` method: poll a job until it ends, giving each new event
and each new line of its tasks' logs once (from the spec's roles and lifecycle)."""

from __future__ import annotations

from modelarts_kit_spec import SpecError
from modelarts_kit_spec.meaning import Role

from modelarts_kit_generator.escaping import docstring_lines, python_string
from modelarts_kit_generator.ir.literals import indented
from modelarts_kit_generator.ir.model import DOC_WIDTH, FollowIR, OperationIR, PagingIR, WaitIR
from modelarts_kit_generator.ir.paging import model_attribute
from modelarts_kit_generator.ir.resolved import ResolvedSpec
from modelarts_kit_generator.naming import snake_case

__all__ = ["ASCENDING", "TASKS_FIELD", "build_follow"]

# The events' order value that gives them oldest first, when the spec documents it.
ASCENDING = "asc"
# The field beside the job's phase that lists its tasks' names (``status.tasks``), and the
# logs answer's fields: the text, and the size of the whole log in bytes.
TASKS_FIELD = "tasks"
LOG_CONTENT = "content"
LOG_FULL_SIZE = "full_size"


def build_follow(
    resolved: ResolvedSpec,
    operations: tuple[OperationIR, ...],
    wait: WaitIR | None,
    paging: tuple[PagingIR, ...],
) -> FollowIR | None:
    """The follow helper, when the spec has a lifecycle (``wait``) and a paged events
    operation; log lines too when it has a logs-preview operation."""
    spec, roles, lifecycle = resolved.spec, resolved.roles, resolved.lifecycle
    if wait is None or roles is None or lifecycle is None:
        return None
    events_resolved = resolved.with_role(Role.EVENTS)
    events_ir = resolved.ir_with_role(Role.EVENTS, operations)
    if events_resolved is None or events_ir is None:
        return None
    events_op = events_resolved.op
    events = next((p for p in paging if p.operation == events_ir.python_name), None)
    if events is None:
        return None
    first = events_ir.call_signature.positional[:1]
    if not first or first[0].name != wait.id_argument:
        raise SpecError(f"{events_op.pointer}: the events operation must take the job id first")
    arguments: tuple[str, ...] = (wait.id_argument,)
    order = next((p for p in events_op.parameters if p.name == "order"), None)
    if order is not None:
        documented = spec.walker.view(order.schema).documented
        if documented is not None and ASCENDING in documented.values:
            arguments += (f"{snake_case(order.name)}={python_string(ASCENDING)}",)
    phase = lifecycle.phase_field
    tasks_pointer = phase.rsplit("/", 1)[0] + "/" + TASKS_FIELD
    show_schema = roles.show.success.schema
    tasks = spec.walker.at_pointer(show_schema, tasks_pointer) if show_schema else None
    logs_resolved = resolved.with_role(Role.LOGS_PREVIEW)
    logs_op = logs_resolved.op if logs_resolved is not None else None
    logs = resolved.ir_with_role(Role.LOGS_PREVIEW, operations)
    content = size = None
    if logs is not None and logs_op is not None and tasks is not None:
        answer = spec.walker.view(logs_op.success.schema) if logs_op.success.schema else None
        fields = answer.properties if answer is not None else {}
        content = model_attribute(LOG_CONTENT) if LOG_CONTENT in fields else None
        size = model_attribute(LOG_FULL_SIZE) if LOG_FULL_SIZE in fields else None
        positional = [a.name for a in logs.call_signature.positional]
        if len(positional) != 2 or positional[0] != wait.id_argument:
            raise SpecError(
                f"{logs_op.pointer}: the logs operation must take the job id and a task name"
            )
    if content is None:
        logs = None
    resource = wait.id_argument.removesuffix("_id")
    method_name = f"follow_{resource}"
    doc = _follow_docstring(events, logs, wait)
    return FollowIR(
        method_name=method_name,
        method_name_literal=python_string(method_name),
        id_argument=wait.id_argument,
        events_iterator=events.method_name,
        events_arguments=arguments,
        page_size=events.page_size,
        event_annotation=events.item_annotation,
        logs_method=logs.python_name if logs else None,
        log_content_expression=f"preview.{content}" if content else "None",
        log_size_expression=f"preview.{size}" if size else "None",
        tasks_pointer_literal=python_string(tasks_pointer),
        docstring=indented(tuple(doc)),
    )


def _follow_docstring(events: PagingIR, logs: OperationIR | None, wait: WaitIR) -> list[str]:
    """The follow helper's docstring lines: what it yields, how it polls, what it raises."""
    return [
        *docstring_lines(
            f"Every new event of the job (``{events.method_name}``)"
            + (f" and every new line of its tasks' logs (``{logs.python_name}``)" if logs else "")
            + ", as they come, until the job reaches a phase of ``until`` (by default the "
            f"final ones: ``{wait.final_constant}``).",
            DOC_WIDTH,
        ),
        "",
        *docstring_lines(
            "Each poll shows the job, then reads its events and the logs of the tasks it "
            "lists; nothing is given twice (an event by its content, a log line by its "
            "place in the log). The polls wait as ``"
            + wait.method_name
            + "``'s do; after the last poll the last line of each log is given even without "
            "a line break.",
            DOC_WIDTH,
        ),
        "",
        *docstring_lines(
            "Events are given as their pages arrive. One poll reads at most "
            "``pages_per_poll`` pages of events (the next poll reads again from the first), "
            "each page within the time ``timeout`` leaves, and the deadline is checked after "
            "every event; the follow remembers a bounded number of events (twice what one "
            "poll reads), so a server whose event pages never end costs neither unbounded "
            "time nor unbounded memory.",
            DOC_WIDTH,
        ),
        "",
        "Yields:",
        f"    The events (``{events.item_annotation}``)"
        + (" and the log lines (``LogLine``: ``task``, ``line``)." if logs else "."),
        "",
        "Raises:",
        "    WaitTimeoutError: ``timeout`` seconds passed before the job ended.",
        "    ValueError: ``until`` is empty, ``timeout``/``poll``/``max_poll`` is negative, or",
        "        ``pages_per_poll`` is not a positive integer.",
    ]
