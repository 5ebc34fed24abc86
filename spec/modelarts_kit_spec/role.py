"""The kit's one role vocabulary: what an operation does to a job (``x-modelarts-role``).

Read it through the meaning layer (``from modelarts_kit_spec.meaning import Role``).
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["ROLES", "Role"]


class Role(StrEnum):
    CREATE = "create"
    SHOW = "show"
    TERMINATE = "terminate"


ROLES: tuple[Role, ...] = tuple(Role)
