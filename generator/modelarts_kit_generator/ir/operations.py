"""The IR of one operation: its method name, signature, parameters, body, return model,
retry eligibility, docstring (with the spec's error codes) and secret fields.

:func:`build_operation` is a short list of named builders, each reading one thing of the
operation, whose meaning (role, success response, error codes) is resolved once
(:mod:`.resolved`); parameters and bodies are typed properties (:mod:`.properties`) and the
signature is typed arguments (:class:`~.model.SignatureIR`), printed by the templates."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection

from modelarts_kit_spec import Operation, Spec, SpecError
from modelarts_kit_spec.sensitive import sensitive_fields

from modelarts_kit_generator.escaping import (
    docstring_inline,
    markdown_code,
    python_string,
    shorten,
)
from modelarts_kit_generator.ir.docstrings import operation_docstring
from modelarts_kit_generator.ir.literals import indented, sensitive_literal, tuple_literal
from modelarts_kit_generator.ir.model import (
    DEADLINE_ARGUMENT,
    IDEMPOTENT_METHODS,
    ArgumentIR,
    BodyIR,
    ErrorClassIR,
    OperationIR,
    ParameterIR,
    SignatureIR,
)
from modelarts_kit_generator.ir.properties import AnyProperty, ObjectProperty, SchemaNode
from modelarts_kit_generator.ir.resolved import ResolvedOperation, ResolvedSpec
from modelarts_kit_generator.naming import pascal_case, snake_case
from modelarts_kit_generator.schemas import ModelPlan, Side

__all__ = ["build_operation", "parameter_pointer", "with_lazy_models"]


def build_operation(
    resolved: ResolvedOperation,
    spec: ResolvedSpec,
    plan: ModelPlan,
    errors: tuple[ErrorClassIR, ...],
    taken: set[str],
) -> OperationIR:
    """The IR of one operation (``taken``: the method names given so far, extended)."""
    op = resolved.op
    python_name = _method_name(op, taken)
    prefix = pascal_case(op.operation_id)
    params = _parameters(spec, op)
    # The models are planned in this order: parameters, body, answer.
    params_model = _params_model(op, plan, prefix) if params else None
    body = _body(spec.spec, op, plan, prefix)
    return_model = _return_model(resolved, plan, prefix)
    signature = _signature(params, body)
    call_constant = f"_{python_name.upper()}"
    docstring = operation_docstring(
        resolved, signature_parameters(params), body, return_model, errors
    )
    return OperationIR(
        operation_id=op.operation_id,
        python_name=python_name,
        python_name_literal=python_string(python_name),
        method=op.method.upper(),
        method_literal=python_string(op.method.upper()),
        path_literal=python_string(op.path),
        path_md=markdown_code(f"{op.method.upper()} {op.path}", op.pointer),
        docstring=indented(docstring),
        call_signature=signature,
        parameters=tuple(params),
        params_model=params_model,
        call_constant=call_constant,
        endpoint_doc=f"{op.method.upper()} {docstring_inline(op.path)}",
        path_names_literal=_names_literal(params, "path"),
        query_names_literal=_names_literal(params, "query"),
        header_names_literal=_names_literal(params, "header"),
        call_secrets=_call_secrets(spec.spec, resolved),
        body=body,
        return_model=return_model,
        retryable=op.method.upper() in IDEMPOTENT_METHODS,
    )


def _method_name(op: Operation, taken: set[str]) -> str:
    """The method's name, from the operation id: ASCII, unique, not private."""
    if not re.search(r"[A-Za-z0-9]", op.operation_id):
        raise SpecError(
            f"{op.pointer}/operationId: {shorten(op.operation_id)} has no ASCII letter or digit "
            "(rule: the method name is built from them)"
        )
    python_name = snake_case(op.operation_id)
    if python_name in taken or python_name.startswith("_"):
        raise SpecError(
            f"{op.pointer}/operationId: {op.operation_id!r} gives method name {python_name!r}, "
            "which is already used (rule: operation method names must be unique)"
        )
    taken.add(python_name)
    return python_name


def _parameters(spec: ResolvedSpec, op: Operation) -> list[ParameterIR]:
    """Every parameter, typed; a path parameter the client holds is not the caller's, and a
    name used twice gets its location as a suffix."""
    params: list[ParameterIR] = []
    used_names = {"self", "body"}
    for param in op.parameters:
        if param.location == "cookie":
            raise SpecError(
                f"{op.pointer}/parameters: cookie parameter {param.name!r} is not supported"
            )
        name = snake_case(param.name)
        client_wide = param.location == "path" and param.name in spec.client_parameters
        if client_wide:
            used_names.add(f"self._{name}")
        elif name in used_names:
            name = f"{name}_{param.location}"
        if not client_wide:
            used_names.add(name)
        pointer = parameter_pointer(spec.spec, op, param.name, param.location) + "/schema"
        params.append(
            ParameterIR(
                wire_name=param.name,
                python_name=name,
                location=param.location,
                required=param.required,
                kind=SchemaNode.of(spec.spec, param.schema, pointer).property(),
                description=" ".join(param.description.split()),
                client_wide=client_wide,
            )
        )
    return params


def signature_parameters(params: list[ParameterIR]) -> list[ParameterIR]:
    """The parameters the caller passes (not the client-wide ones)."""
    return [p for p in params if not p.client_wide]


def _params_model(op: Operation, plan: ModelPlan, prefix: str) -> str:
    """The model that validates the parameters, one object of them all."""
    return plan.model(
        {
            "type": "object",
            "properties": {p.name: p.schema for p in op.parameters},
            "required": [p.name for p in op.parameters if p.required],
            "description": f"The parameters of ``{snake_case(op.operation_id)}``.",
        },
        Side.REQUEST,
        f"{prefix}Parameters",
        op.pointer + "/parameters",
    )


def _body(spec: Spec, op: Operation, plan: ModelPlan, prefix: str) -> BodyIR | None:
    """The request body: its model, and what else a caller may pass instead."""
    if op.request_schema is None:
        return None
    pointer = op.pointer + "/requestBody"
    model = plan.model(op.request_schema, Side.REQUEST, f"{prefix}Request", pointer)
    node = SchemaNode.of(spec, op.request_schema, pointer + "/content/application~1json/schema")
    raw = ObjectProperty(node) if node.declares_fields else AnyProperty(node)
    return BodyIR(model=model, raw=raw, required=op.request_required)


def _return_model(resolved: ResolvedOperation, plan: ModelPlan, prefix: str) -> str | None:
    """The model of the success answer, None when it has no body."""
    if resolved.success_schema is None:
        return None
    return plan.model(
        resolved.success_schema,
        Side.RESPONSE,
        f"{prefix}Response",
        resolved.op.pointer + f"/responses/{resolved.success}",
    )


def _signature(params: list[ParameterIR], body: BodyIR | None) -> SignatureIR:
    """Path parameters and a required body positional; the rest keyword-only, then the
    deadline."""
    caller = signature_parameters(params)
    arguments = [ArgumentIR(p.python_name, p.annotation) for p in caller if p.location == "path"]
    if body is not None:
        arguments.append(
            ArgumentIR("body", body.annotation)
            if body.required
            else ArgumentIR("body", f"{body.annotation} | None", "None", keyword_only=True)
        )
    for p in caller:
        if p.location != "path":
            arguments.append(
                ArgumentIR(p.python_name, p.annotation, keyword_only=True)
                if p.required
                else ArgumentIR(p.python_name, f"{p.annotation} | None", "None", keyword_only=True)
            )
    return SignatureIR((*arguments, DEADLINE_ARGUMENT))


def _names_literal(params: list[ParameterIR], location: str) -> str:
    return tuple_literal(p.wire_name for p in params if p.location == location)


def _call_secrets(spec: Spec, resolved: ResolvedOperation) -> tuple[tuple[str, str], ...]:
    """(Call field, ``Sensitive(...)``) where the parameters, the body and the answer hold
    secret values; only the ones that have any."""
    op = resolved.op
    secrets = {
        "parameter_secrets": sensitive_fields(
            spec.walker, {"type": "object", "properties": {p.name: p.schema for p in op.parameters}}
        ),
        "body_secrets": ()
        if op.request_schema is None
        else sensitive_fields(spec.walker, op.request_schema),
        "answer_secrets": ()
        if resolved.success_schema is None
        else sensitive_fields(spec.walker, resolved.success_schema),
    }
    return tuple((name, sensitive_literal(fields)) for name, fields in secrets.items() if fields)


def with_lazy_models(op: OperationIR, lazy: Collection[str]) -> OperationIR:
    """``op`` naming its models through the facade where they load lazily."""
    return dataclasses.replace(op, lazy=frozenset(name for name in op.models if name in lazy))


def parameter_pointer(spec: Spec, op: Operation, name: str, location: str) -> str:
    """The JSON pointer of a parameter object: in the operation, else in its path item."""
    path_item = op.pointer.rsplit("/", 1)[0]
    for owner in (op.pointer, path_item):
        for index, raw in enumerate(spec.at(owner).get("parameters") or []):
            param = spec.deref(raw)
            if param.get("name") == name and param.get("in") == location:
                return f"{owner}/parameters/{index}"
    return f"{op.pointer}/parameters"
