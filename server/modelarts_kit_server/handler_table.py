"""The handler table: which handler answers each operation of the spec, by the operation's role.

:func:`default_handlers` binds each role the spec has (``x-modelarts-role``) to its handler;
roles the spec has no operation for are left out (an older three-operation spec still serves).
The server (:mod:`modelarts_kit_server.app`) dispatches through this table, which
``create_app(settings, handlers=...)`` replaces.
"""

from __future__ import annotations

from collections.abc import Mapping

from modelarts_kit_spec.meaning import Role, Roles

from modelarts_kit_server import handlers, handlers_catalogue, handlers_jobs, handlers_tasks
from modelarts_kit_server.context import Handler

__all__ = ["HANDLERS_BY_ROLE", "default_handlers"]

HANDLERS_BY_ROLE: Mapping[Role, Handler] = {
    Role.CREATE: handlers.create_job,
    Role.SHOW: handlers.show_job,
    Role.TERMINATE: handlers.terminate_job,
    Role.LIST: handlers_jobs.list_jobs,
    Role.DELETE: handlers_jobs.delete_job,
    Role.DESCRIBE: handlers_jobs.describe_job,
    Role.EVENTS: handlers_tasks.job_events,
    Role.LOGS_PREVIEW: handlers_tasks.task_log_preview,
    Role.LOGS_URL: handlers_tasks.task_log_url,
    Role.METRICS: handlers_tasks.task_metrics,
    Role.FLAVORS: handlers_catalogue.list_flavors,
    Role.ENGINES: handlers_catalogue.list_engines,
}


def default_handlers(roles: Roles) -> dict[str, Handler]:
    """The handler of each operation id, by the role the spec gives the operation."""
    table: dict[str, Handler] = {}
    for role, handler in HANDLERS_BY_ROLE.items():
        operation = roles.get(role)
        if operation is not None:
            table[operation.operation_id] = handler
    return table
