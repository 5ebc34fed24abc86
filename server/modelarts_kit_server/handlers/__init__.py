"""The reference server's handlers, by concept, and the table binding them to operations.

- :mod:`~modelarts_kit_server.handlers.job_core`: create, show, terminate, and what every
  handler shares (the body validated through the spec's envelopes, a job rendered as show does);
- :mod:`~modelarts_kit_server.handlers.job_records`: the project's stored jobs: list (search),
  delete, describe;
- :mod:`~modelarts_kit_server.handlers.tasks`: what a job's tasks produce: events, logs preview,
  logs URL (and the download it links to), metrics;
- :mod:`~modelarts_kit_server.handlers.catalogue`: flavors and engines.

The handler table: which handler answers each operation of the spec, by the operation's role.

:func:`default_handlers` binds each role the spec has (``x-modelarts-role``) to its handler;
roles the spec has no operation for are left out (an older three-operation spec still serves).
The server (:mod:`modelarts_kit_server.app`) dispatches through this table, which
``create_app(settings, handlers=...)`` replaces.
"""

from __future__ import annotations

from collections.abc import Mapping

from modelarts_kit_spec.meaning import Role, Roles

from modelarts_kit_server.context import Handler
from modelarts_kit_server.handlers import catalogue, job_core, job_records, tasks

__all__ = ["HANDLERS_BY_ROLE", "default_handlers"]

HANDLERS_BY_ROLE: Mapping[Role, Handler] = {
    Role.CREATE: job_core.create_job,
    Role.SHOW: job_core.show_job,
    Role.TERMINATE: job_core.terminate_job,
    Role.LIST: job_records.list_jobs,
    Role.DELETE: job_records.delete_job,
    Role.DESCRIBE: job_records.describe_job,
    Role.EVENTS: tasks.job_events,
    Role.LOGS_PREVIEW: tasks.task_log_preview,
    Role.LOGS_URL: tasks.task_log_url,
    Role.METRICS: tasks.task_metrics,
    Role.FLAVORS: catalogue.list_flavors,
    Role.ENGINES: catalogue.list_engines,
}


def default_handlers(roles: Roles) -> dict[str, Handler]:
    """The handler of each operation id, by the role the spec gives the operation."""
    table: dict[str, Handler] = {}
    for role, handler in HANDLERS_BY_ROLE.items():
        operation = roles.get(role)
        if operation is not None:
            table[operation.operation_id] = handler
    return table
