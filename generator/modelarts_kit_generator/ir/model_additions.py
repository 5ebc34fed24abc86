"""Code added to generated model classes: field-rule validators and the show -> create copy
method (from the model plan's rules and the spec's roles)."""

from __future__ import annotations

from collections.abc import Collection

from modelarts_kit_spec.meaning import Role
from modelarts_kit_spec.schemamodel import MUST_ACCEPT

from modelarts_kit_generator.copyplan import CopyIR, copy_plan_expression
from modelarts_kit_generator.ir.model import OperationIR
from modelarts_kit_generator.ir.resolved import ResolvedSpec
from modelarts_kit_generator.rules import FieldRule

__all__ = ["FIELD_RULES_IMPORT", "build_copy", "copy_method_lines", "field_rule_lines"]


def field_rule_lines(rules: tuple[FieldRule, ...]) -> tuple[str, ...]:
    """The class-body lines that make a request model check its field rules."""
    return (
        "# which fields go together (the spec's not and dependentRequired)",
        "_field_rules = field_rules_validator(",
        *(f"    {rule.expression}," for rule in rules),
        ")",
    )


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


def copy_method_lines(copy: CopyIR) -> tuple[str, ...]:
    """The response model's method that makes the copy (the work is in ``build_copy``)."""
    return (
        "",
        f'def {copy.method_name}(self) -> "{copy.request_model}":',
        f'    """This job as the body of ``{copy.create_method}``, to create a copy of it.',
        "",
        "    Only what the create request documents is copied: fields the service sets",
        "    (``readOnly``), answer-only fields and fields the spec does not know are left out,",
        "    ``null`` is never copied, and the spec's field rules are followed (e.g. of two",
        "    fields that exclude each other the first stays). The result has passed the",
        "    client's validation: ``RequestValidationError`` when the job breaks a rule of the",
        '    request that leaving fields out cannot mend."""',
        f"    from ._copy import {copy.function_name}",
        "",
        f"    return {copy.function_name}(self)",
    )


FIELD_RULES_IMPORT = "from ._field_rules import Excludes, Requires, field_rules_validator\n"
