"""Which models the package imports and which load on first use, and in which module.

A model goes where the operations that reach it need it: the models only request bodies
reach load with ``_request_models`` (the first call that sends a body), the models only one
operation's parameters and answer reach load with that operation's own module (its first
call), and the models several operations share are imported with the package. Importing
the client thus never defines the models of operations a program does not call.
"""

from __future__ import annotations

from collections.abc import Iterable

from modelarts_kit_generator.escaping import docstring_lines
from modelarts_kit_generator.ir.model import LAZY_MODULE, LazyGroupIR, OperationIR
from modelarts_kit_generator.schemas import ModelPlan

__all__ = ["lazy_groups", "operation_module"]


def operation_module(op: OperationIR) -> str:
    """The module of the models only ``op`` uses (not part of the package's API)."""
    return f"_{op.python_name}_models"


def _answer_models(op: OperationIR) -> Iterable[str]:
    return [name for name in (op.params_model, op.return_model) if name]


def lazy_groups(
    plan: ModelPlan, operations: tuple[OperationIR, ...], title: str
) -> tuple[LazyGroupIR, ...]:
    """The lazily loaded modules and their models (each closed downwards: no model outside
    a group refers to one inside it), in a stable order; groups without models left out."""
    request_only = plan.body_only(op.body.model for op in operations if op.body is not None)
    owners: dict[str, set[str]] = {}
    for op in operations:
        for name in plan.references(_answer_models(op)):
            owners.setdefault(name, set()).add(op.operation_id)
    # A model some body reaches that is not body-only is shared with answers: eager.
    from_bodies = plan.references(op.body.model for op in operations if op.body is not None)
    groups = [
        LazyGroupIR(
            LAZY_MODULE,
            tuple(sorted(request_only)),
            _header(
                f"Request-body models of the {title} API (modelarts-kit; do not edit).",
                "Only request bodies use these models, so they are loaded on first use: import "
                "them from ``models`` or the package (this module's name is not part of the API).",
            ),
        )
    ]
    for op in operations:
        own = sorted(
            name
            for name, reached_by in owners.items()
            if reached_by == {op.operation_id} and name not in from_bodies
        )
        groups.append(
            LazyGroupIR(
                operation_module(op),
                tuple(own),
                _header(
                    f"The models only ``{op.python_name}`` of the {title} API uses "
                    "(modelarts-kit; do not edit).",
                    "They are loaded with its first call: import them from ``models`` or the "
                    "package (this module's name is not part of the API).",
                ),
            )
        )
    return tuple(group for group in groups if group.models)


def _header(summary: str, text: str) -> str:
    """A module docstring, a complete literal (the parts are escaped here)."""
    lines = [*docstring_lines(summary, 96), "", *docstring_lines(text, 96)]
    return '"""' + "\n".join(lines) + '"""'
