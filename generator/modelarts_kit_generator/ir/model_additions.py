"""The show -> create copy method of the generated show answer's model, from the spec's roles
(``build_copy``); the code added to the model classes (this method, the field rules) is
printed by ``templates/_model_additions.py.jinja``."""

from __future__ import annotations

from collections.abc import Collection

from modelarts_kit_spec.meaning import Role
from modelarts_kit_spec.schemamodel import MUST_ACCEPT

from modelarts_kit_generator.copyplan import CopyIR, copy_plan_expression
from modelarts_kit_generator.ir.model import OperationIR
from modelarts_kit_generator.ir.resolved import ResolvedSpec

__all__ = ["build_copy"]


def build_copy(
    resolved: ResolvedSpec, operations: tuple[OperationIR, ...], lazy: Collection[str]
) -> CopyIR | None:
    """The show -> create copy (see copyplan.py), when the spec states roles."""
    roles = resolved.roles
    create = resolved.ir_with_role(Role.CREATE, operations)
    show = resolved.ir_with_role(Role.SHOW, operations)
    if roles is None or create is None or show is None:
        return None
    request, response = roles.create.request_schema, roles.show.success.schema
    if create.body is None or show.return_model is None or request is None or response is None:
        return None
    request_pointer = roles.create.pointer + "/requestBody/content/application~1json/schema"
    return CopyIR(
        method_name=f"to_{create.python_name}_body",
        function_name=f"{create.python_name}_body",
        response_model=show.return_model,
        request_model=create.body.model,
        request_model_lazy=create.body.model in lazy,
        call_constant=create.call_constant,
        create_method=create.python_name,
        show_method=show.python_name,
        plan_expression=copy_plan_expression(
            resolved.spec.envelope(MUST_ACCEPT),
            request_pointer,
            roles.show.success.pointer + "/content/application~1json/schema",
        ),
    )
