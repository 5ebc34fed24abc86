"""What each operation means, resolved once from the spec for every builder of the IR.

The builders of the IR (operations, wait, follow, copy, the README's call) used to ask the
spec again, each for itself, whether it states meaning, which operation has which role and
which error codes an operation lists. :func:`resolve` reads it once: a
:class:`ResolvedSpec` holds every :class:`ResolvedOperation` (the operation, its role, its
success response, its error codes by status), the roles and the lifecycle (``None`` when the
spec states no meaning) and the client-wide parameters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from modelarts_kit_spec import Operation, Spec, SpecError
from modelarts_kit_spec.meaning import ErrorModel, Lifecycle, Role, Roles, uses_meaning

from modelarts_kit_generator.ir.client import client_parameters

__all__ = ["ResolvedOperation", "ResolvedSpec", "resolve", "success_status"]

JSON = Any
T = TypeVar("T")
# (meaning, its error codes) in the spec's order.
CodesByMeaning = tuple[tuple[str, tuple[str, ...]], ...]


def success_status(op: Operation) -> tuple[str, JSON | None]:
    """The first 2xx response of ``op``: its status and schema."""
    for response in op.responses:
        if response.status.startswith("2"):
            return response.status, response.schema
    raise SpecError(f"{op.pointer}/responses: no 2xx response (rule: every operation needs one)")


@dataclass(frozen=True)
class ResolvedOperation:
    """One operation and what it means."""

    op: Operation
    role: Role | None  # its x-modelarts-role, None when the spec states none
    success: str  # the status of its first 2xx response
    success_schema: JSON | None  # that response's schema, None: no body
    error_codes: Mapping[str, CodesByMeaning]  # status -> the codes it lists, by meaning

    @property
    def operation_id(self) -> str:
        return self.op.operation_id


@dataclass(frozen=True)
class ResolvedSpec:
    """Every operation with its meaning, and the spec-wide meaning the builders share."""

    spec: Spec
    operations: tuple[ResolvedOperation, ...]
    roles: Roles | None  # None: the spec states no meaning (no wait, copy or follow)
    lifecycle: Lifecycle | None
    client_parameters: Mapping[str, str]  # path parameter -> description, held by the client

    def with_role(self, role: Role) -> ResolvedOperation | None:
        """The operation with ``role``, None when no operation has it."""
        return next((r for r in self.operations if r.role == role), None)

    def ir_with_role(self, role: Role, built: Sequence[T]) -> T | None:
        """The part of ``built`` (one per operation, in order) for the operation with ``role``."""
        index = next((i for i, r in enumerate(self.operations) if r.role == role), None)
        return None if index is None else built[index]


def resolve(spec: Spec) -> ResolvedSpec:
    """Read what every operation of ``spec`` means, once."""
    meaning = spec.meaning if uses_meaning(spec) else None
    roles = meaning.roles if meaning is not None else None
    operations = []
    for op in spec.operations:
        status, schema = success_status(op)
        operations.append(
            ResolvedOperation(
                op=op,
                role=roles.role_of(op.operation_id) if roles is not None else None,
                success=status,
                success_schema=schema,
                error_codes=_error_codes(meaning.errors, op) if meaning is not None else {},
            )
        )
    return ResolvedSpec(
        spec=spec,
        operations=tuple(operations),
        roles=roles,
        lifecycle=meaning.lifecycle if meaning is not None else None,
        client_parameters=client_parameters(spec),
    )


def _error_codes(errors: ErrorModel, op: Operation) -> dict[str, CodesByMeaning]:
    """The codes the spec lists for ``op``, by status, then by meaning."""
    found: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for response in errors.responses:
        if response.operation_id != op.operation_id:
            continue
        found.setdefault(response.status, []).extend(
            (meaning, tuple(codes)) for meaning, codes in response.by_meaning.items()
        )
    return {status: tuple(pairs) for status, pairs in found.items()}
