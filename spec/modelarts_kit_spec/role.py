"""The kit's one role vocabulary: what an operation does to a job (``x-modelarts-role``).

Read it through the meaning layer (``from modelarts_kit_spec.meaning import Role``).
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["CORE_ROLES", "ROLES", "Role"]


class Role(StrEnum):
    CREATE = "create"
    SHOW = "show"
    TERMINATE = "terminate"
    LIST = "list"
    DELETE = "delete"
    DESCRIBE = "describe"
    EVENTS = "events"
    LOGS_PREVIEW = "logs-preview"
    LOGS_URL = "logs-url"
    METRICS = "metrics"
    FLAVORS = "flavors"
    ENGINES = "engines"


ROLES: tuple[Role, ...] = tuple(Role)
# Every kit spec has these three (a job's lifecycle needs them); the others are optional, so a
# spec of the first edition (three operations) still loads and diffs against a newer one.
CORE_ROLES: tuple[Role, ...] = (Role.CREATE, Role.SHOW, Role.TERMINATE)
