"""The IR of one operation: its method name, signature, parameters, body, return model,
retry eligibility, docstring (with the spec's error codes) and secret fields."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Mapping

from modelarts_kit_spec import Operation, Spec, SpecError
from modelarts_kit_spec.meaning import ErrorModel
from modelarts_kit_spec.sensitive import sensitive_fields

from modelarts_kit_generator.escaping import (
    docstring_inline,
    docstring_lines,
    markdown_code,
    python_string,
    shorten,
)
from modelarts_kit_generator.ir.literals import indented, sensitive_literal, tuple_literal
from modelarts_kit_generator.ir.model import (
    DOC_WIDTH,
    IDEMPOTENT_METHODS,
    JSON,
    LAZY_FACADE,
    BodyIR,
    ErrorClassIR,
    OperationIR,
    ParameterIR,
)
from modelarts_kit_generator.naming import pascal_case, snake_case
from modelarts_kit_generator.schemas import ModelPlan, Side, is_object_schema

__all__ = ["build_operation", "parameter_pointer", "success_status", "with_lazy_models"]


def _annotation(schema: JSON, spec: Spec) -> str:
    """The Python type a parameter is passed as (validation happens in the params model)."""
    schema = spec.deref(schema) if isinstance(schema, Mapping) else {}
    values = schema.get("enum")
    if isinstance(values, list) and values and all(_literal_value(v) for v in values):
        return "Literal[" + ", ".join(_python_literal(v) for v in values) + "]"
    kind = schema.get("type")
    if isinstance(kind, list):
        kinds = [k for k in kind if k != "null"]
        kind = kinds[0] if len(kinds) == 1 else None
    scalar = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}
    if kind in scalar:
        return scalar[kind]
    if kind == "array":
        return f"list[{_annotation(schema.get('items', {}), spec)}]"
    return "Any"


def _literal_value(value: JSON) -> bool:
    """Values ``typing.Literal`` can hold (a float or a mapping cannot)."""
    return value is None or isinstance(value, (str, int, bool))


def _python_literal(value: str | int | bool | None) -> str:
    return python_string(value) if isinstance(value, str) else repr(value)


def success_status(op: Operation) -> tuple[str, JSON | None]:
    for response in op.responses:
        if response.status.startswith("2"):
            return response.status, response.schema
    raise SpecError(f"{op.pointer}/responses: no 2xx response (rule: every operation needs one)")


def _error_codes(model: ErrorModel | None, op: Operation, status: int) -> list[str]:
    """Docstring lines: the codes the spec lists for ``op`` answering ``status``, by meaning."""
    if model is None:
        return []
    lines: list[str] = []
    for response in model.responses:
        if response.operation_id != op.operation_id or response.status != str(status):
            continue
        for meaning, codes in response.by_meaning.items():
            wrapped = docstring_lines(f"- {meaning}: {', '.join(codes)}", DOC_WIDTH - 8)
            lines += ["        " + wrapped[0], *("          " + line for line in wrapped[1:])]
    return ["        Error codes (``error_code``) by meaning:", *lines] if lines else []


def _docstring(
    op: Operation,
    params: list[ParameterIR],
    body: BodyIR | None,
    return_model: str | None,
    errors: tuple[ErrorClassIR, ...],
    success: str,
    codes: ErrorModel | None,
) -> tuple[str, ...]:
    lines = docstring_lines(op.summary or op.operation_id, DOC_WIDTH)
    if op.description.strip():
        lines += ["", *docstring_lines(op.description, DOC_WIDTH)]
    lines += ["", f"``{op.method.upper()} {docstring_inline(op.path)}``"]
    args = [
        (p.python_name, p.description or f"The {p.location} parameter ``{p.wire_name}``.")
        for p in params
    ]
    if body is not None:
        args.append(
            (
                "body",
                f"The request body, a ``{body.model}`` or a mapping validated "
                "into one before anything is sent; an ``UncheckedBody`` is sent as it is.",
            )
        )
    args.append(("deadline", "Seconds this call may take in all (default: the client's)."))
    if args:
        lines += ["", "Args:"]
        for name, text in args:
            wrapped = docstring_lines(f"{name}: {text}", DOC_WIDTH - 8)
            lines += ["    " + wrapped[0], *("        " + line for line in wrapped[1:])]
    lines += ["", "Returns:"]
    returned = (
        f"The ``{success}`` response, as ``{return_model}``."
        if return_model
        else (f"Nothing (``{success}``).")
    )
    lines.append("    " + returned)
    documented = sorted(
        {
            int(r.status)
            for r in op.responses
            if r.status.isdigit() and not r.status.startswith(("1", "2", "3"))
        }
    )
    by_status = {e.status: e.name for e in errors if e.status is not None}
    lines += ["", "Raises:"]
    for status in documented:
        family = "ClientError" if status < 500 else "ServerError"
        description = next((r.description for r in op.responses if r.status == str(status)), "")
        text = f"{by_status.get(status, family)}: HTTP {status}" + (
            f": {description.strip().rstrip('.')}." if description.strip() else "."
        )
        wrapped = docstring_lines(text, DOC_WIDTH - 8)
        lines += ["    " + wrapped[0], *("        " + line for line in wrapped[1:])]
        lines += _error_codes(codes, op, status)
    lines += [
        "    RequestValidationError: an argument breaks a rule of the spec (nothing is sent).",
        "    TransportError: the request could not be sent or no answer arrived.",
        "    DecodeError: the answer is not the documented JSON.",
    ]
    return tuple(lines)


def build_operation(
    op: Operation,
    spec: Spec,
    plan: ModelPlan,
    client_params: Mapping[str, str],
    errors: tuple[ErrorClassIR, ...],
    taken: set[str],
    codes: ErrorModel | None,
) -> OperationIR:
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
    prefix = pascal_case(op.operation_id)
    params: list[ParameterIR] = []
    used_names = {"self", "body"}
    for param in op.parameters:
        if param.location == "cookie":
            raise SpecError(
                f"{op.pointer}/parameters: cookie parameter {param.name!r} is not supported"
            )
        name = snake_case(param.name)
        if param.location == "path" and param.name in client_params:
            name = f"self._{snake_case(param.name)}"
        elif name in used_names:
            name = f"{name}_{param.location}"
        used_names.add(name)
        params.append(
            ParameterIR(
                wire_name=param.name,
                python_name=name,
                location=param.location,
                required=param.required,
                annotation=_annotation(param.schema, spec),
                description=" ".join(param.description.split()),
            )
        )

    params_model = "None"
    if params:
        properties = {p.name: p.schema for p in op.parameters}
        required = [p.name for p in op.parameters if p.required]
        params_model = plan.model(
            {
                "type": "object",
                "properties": properties,
                "required": required,
                "description": f"The parameters of ``{snake_case(op.operation_id)}``.",
            },
            Side.REQUEST,
            f"{prefix}Parameters",
            op.pointer + "/parameters",
        )

    body: BodyIR | None = None
    if op.request_schema is not None:
        model = plan.model(
            op.request_schema, Side.REQUEST, f"{prefix}Request", op.pointer + "/requestBody"
        )
        raw = "Mapping[str, Any]" if is_object_schema(spec.deref(op.request_schema)) else "Any"
        body = BodyIR(
            model=model,
            annotation=f"{model} | {raw} | UncheckedBody",
            required=op.request_required,
        )

    success, success_schema = success_status(op)
    return_model: str | None = None
    if success_schema is not None:
        return_model = plan.model(
            success_schema, Side.RESPONSE, f"{prefix}Response", op.pointer + f"/responses/{success}"
        )

    call_params = [p for p in params if not p.python_name.startswith("self.")]
    positional = [p for p in call_params if p.location == "path"]
    keyword = [p for p in call_params if p.location != "path"]
    signature: list[str] = [f"{p.python_name}: {p.annotation}" for p in positional]
    if body is not None and body.required:
        signature.append(f"body: {body.annotation}")
    if keyword or (body is not None and not body.required):
        signature.append("*")
    if body is not None and not body.required:
        signature.append(f"body: {body.annotation} | None = None")
    for p in keyword:
        signature.append(
            f"{p.python_name}: {p.annotation}"
            if p.required
            else f"{p.python_name}: {p.annotation} | None = None"
        )
    if "*" not in signature:
        signature.append("*")
    signature.append("deadline: float | None = None")
    # Required keyword-only parameters may follow optional ones in Python; no reordering needed.

    name_literal = python_string(python_name)
    call_constant = f"_{python_name.upper()}"
    body_expression = "None" if body is None else _body_expression(call_constant, body.model, ())
    result_expression = _result_expression(call_constant, return_model, ())
    secrets = {
        "parameter_secrets": sensitive_fields(
            spec.walker, {"type": "object", "properties": {p.name: p.schema for p in op.parameters}}
        ),
        "body_secrets": ()
        if op.request_schema is None
        else sensitive_fields(spec.walker, op.request_schema),
        "answer_secrets": ()
        if success_schema is None
        else sensitive_fields(spec.walker, success_schema),
    }
    return OperationIR(
        operation_id=op.operation_id,
        call_constant=call_constant,
        call_secrets=tuple(
            (name, sensitive_literal(fields)) for name, fields in secrets.items() if fields
        ),
        body_expression=body_expression,
        response_target="" if return_model is None else "response = ",
        result_expression=result_expression,
        python_name=python_name,
        python_name_literal=name_literal,
        method=op.method.upper(),
        method_literal=python_string(op.method.upper()),
        path_literal=python_string(op.path),
        path_md=markdown_code(f"{op.method.upper()} {op.path}", op.pointer),
        docstring=indented(_docstring(op, call_params, body, return_model, errors, success, codes)),
        forward=tuple(
            [p.python_name for p in positional]
            + (["body"] if body is not None and body.required else [])
            + (["body=body"] if body is not None and not body.required else [])
            + [f"{p.python_name}={p.python_name}" for p in keyword]
            + ["deadline=deadline"]
        ),
        endpoint_doc=f"{op.method.upper()} {docstring_inline(op.path)}",
        signature=tuple(signature),
        arguments=tuple((python_string(p.wire_name), p.python_name) for p in params),
        params_model=params_model,
        params_expression=params_model,
        path_names_literal=tuple_literal(p.wire_name for p in params if p.location == "path"),
        query_names_literal=tuple_literal(p.wire_name for p in params if p.location == "query"),
        header_names_literal=tuple_literal(p.wire_name for p in params if p.location == "header"),
        body=body,
        return_model=return_model,
        return_annotation=return_model or "None",
        retryable=op.method.upper() in IDEMPOTENT_METHODS,
    )


def _reference(model: str, lazy: Collection[str]) -> str:
    """How the client names ``model``: one of a lazily loaded module is reached through the
    ``models`` facade (``_models.X``), which loads that module on first use."""
    return f"{LAZY_FACADE}.{model}" if model in lazy else model


def _body_expression(call_constant: str, model: str, lazy: Collection[str]) -> str:
    return f"encode_body({call_constant}, {_reference(model, lazy)}, body)"


def _result_expression(call_constant: str, model: str | None, lazy: Collection[str]) -> str:
    if model is None:
        return "None"
    return f"decode_response({call_constant}, response, {_reference(model, lazy)})"


def with_lazy_models(op: OperationIR, lazy: Collection[str]) -> OperationIR:
    """``op`` naming its models through the facade where they load lazily."""
    return dataclasses.replace(
        op,
        body_expression="None"
        if op.body is None
        else _body_expression(op.call_constant, op.body.model, lazy),
        params_expression=_reference(op.params_model, lazy),
        result_expression=_result_expression(op.call_constant, op.return_model, lazy),
    )


def parameter_pointer(spec: Spec, op: Operation, name: str, location: str) -> str:
    """The JSON pointer of a parameter object: in the operation, else in its path item."""
    path_item = op.pointer.rsplit("/", 1)[0]
    for owner in (op.pointer, path_item):
        for index, raw in enumerate(spec.at(owner).get("parameters") or []):
            param = spec.deref(raw)
            if param.get("name") == name and param.get("in") == location:
                return f"{owner}/parameters/{index}"
    return f"{op.pointer}/parameters"
