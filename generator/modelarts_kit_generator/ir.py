"""The intermediate representation: every decision about the generated client, as data.

``build_ir(spec, options)`` reads the loaded spec (operations, parameters, bodies,
responses, servers, security schemes) and decides names, signatures, docstrings, model
names, retry eligibility and error classes. The templates only print these values.

Every spec-derived string is escaped here, for the one target it is printed in, through
:mod:`modelarts_kit_generator.escaping`: ``*_literal`` fields are Python string literals,
``*_doc`` fields and docstring lines are docstring text, ``*_toml`` is a TOML string and
``*_md`` is Markdown. Names printed as code are identifiers built by
:mod:`modelarts_kit_generator.naming` (ASCII only).
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from modelarts_kit_spec import Operation, Spec, SpecError
from modelarts_kit_spec.load import escape_pointer_token
from modelarts_kit_spec.meaning import ErrorModel, uses_meaning
from modelarts_kit_spec.schemamodel import MUST_ACCEPT
from modelarts_kit_spec.sensitive import SensitiveField, sensitive_fields
from modelarts_kit_spec.structure import require_sound_structure

from modelarts_kit_generator.copyplan import CopyIR, copy_plan_expression
from modelarts_kit_generator.escaping import (
    docstring_inline,
    docstring_lines,
    markdown_code,
    markdown_text,
    normalise_whitespace,
    python_literal,
    python_string,
    shorten,
    toml_string,
)
from modelarts_kit_generator.naming import pascal_case, snake_case
from modelarts_kit_generator.options import GeneratorOptions
from modelarts_kit_generator.rules import FieldRule
from modelarts_kit_generator.schemas import ModelPlan, Side, is_object_schema

__all__ = [
    "BodyIR",
    "ClientIR",
    "ClientParameterIR",
    "ClientVariantIR",
    "ErrorClassIR",
    "GeneratorOptions",
    "OperationIR",
    "ParameterIR",
    "ServerVariableIR",
    "build_ir",
]

JSON = Any
DOC_WIDTH = 88  # docstring text width inside a method body (line length 100, indent 8)
DOC_INDENT = " " * 8

# Methods HTTP defines as idempotent: only these are retried automatically; a create
# (POST) is never retried blindly.
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})

# The module of the models only request bodies reach, loaded on first use (PEP 562
# ``__getattr__`` in ``models`` and the package), and the name the client reaches them by.
LAZY_MODULE = "_request_models"
LAZY_FACADE = "_models"


@dataclass(frozen=True)
class ParameterIR:
    wire_name: str
    python_name: str
    location: str  # path | query | header
    required: bool
    annotation: str
    description: str


@dataclass(frozen=True)
class BodyIR:
    model: str
    annotation: str
    required: bool


@dataclass(frozen=True)
class OperationIR:
    operation_id: str
    python_name: str
    python_name_literal: str
    method: str  # one of the HTTP methods, upper case
    method_literal: str
    path_literal: str
    path_md: str
    docstring: tuple[str, ...]  # escaped lines, indented as printed (see _indented)
    signature: tuple[str, ...]
    arguments: tuple[tuple[str, str], ...]  # (wire name literal, python expression)
    params_model: str
    call_constant: str
    forward: tuple[str, ...]  # how a wrapper passes its own arguments on
    endpoint_doc: str  # "METHOD /path" as docstring text
    body_expression: str
    response_target: str
    result_expression: str
    path_names_literal: str
    query_names_literal: str
    header_names_literal: str
    # (Call field, ``Sensitive(...)`` expression): where the parameters, the body and the
    # answer hold secret values (x-modelarts-sensitive); only the ones that have any.
    call_secrets: tuple[tuple[str, str], ...]
    body: BodyIR | None
    return_model: str | None
    return_annotation: str
    retryable: bool


@dataclass(frozen=True)
class WaitIR:
    """``wait_for_<resource>``: poll the show operation until a phase is reached (from the
    spec's roles and lifecycle, ``x-modelarts-lifecycle``)."""

    method_name: str  # wait_for_training_job
    method_name_literal: str
    id_argument: str  # training_job_id
    show_method: str  # show_training_job_details
    return_model: str
    phase_pointer_literal: str  # "/status/phase"
    final_constant: str  # TRAINING_JOB_FINAL_PHASES
    final_literal: str  # a tuple literal of the final phases
    final_md: str  # the final phases as Markdown
    phases_constant: str  # TRAINING_JOB_PHASES
    phases_literal: str
    docstring: tuple[str, ...]  # escaped lines, indented as printed


@dataclass(frozen=True)
class ServerVariableIR:
    name_literal: str
    python_name: str
    default_literal: str  # a Python literal: the default or None
    doc: str  # "description (default ...)" as docstring text


@dataclass(frozen=True)
class ClientParameterIR:
    python_name: str
    doc: str  # the description as docstring text


@dataclass(frozen=True)
class ErrorClassIR:
    name: str
    base: str
    status: int | None
    doc: str


@dataclass(frozen=True)
class ClientVariantIR:
    """What differs between the sync and the async client: printed, never decided, by
    the one client template."""

    class_name: str
    is_async: bool
    def_: str
    await_: str
    with_: str
    http_client_type: str
    transport_type: str
    sleep_type: str
    default_sleep: str
    enter: str
    exit: str
    close_name: str
    close_http: str
    summary: str
    for_: str
    iter_bytes: str
    close_response: str
    deadline_scope: str
    raw_class_name: str


@dataclass(frozen=True)
class ClientIR:
    options: GeneratorOptions
    title_doc: str
    version_doc: str
    version_literal: str
    package_version: str  # digits and dots only
    package_version_literal: str
    user_agent_literal: str
    description: tuple[str, ...]  # docstring lines
    models_header: str  # the models module's docstring, a complete literal
    pyproject_description_toml: str
    title_md: str
    version_md: str
    token_header_md: str
    base_url_literal: str  # the spec's absolute server URL, or None
    base_url_doc: str
    server_variables: tuple[ServerVariableIR, ...]
    client_parameters: tuple[ClientParameterIR, ...]
    token_header_literal: str
    token_header_doc: str
    operations: tuple[OperationIR, ...]
    variants: tuple[ClientVariantIR, ...]
    wait: WaitIR | None
    error_classes: tuple[ErrorClassIR, ...]
    status_errors: tuple[ErrorClassIR, ...]
    error_exports: tuple[str, ...]
    models: tuple[str, ...]
    eager_models: tuple[str, ...]  # imported with the package
    lazy_models: tuple[str, ...]  # only request bodies reach them: LAZY_MODULE, on first use
    lazy_module: str
    lazy_models_header: str  # the lazy module's docstring, a complete literal
    request_models: tuple[str, ...]
    response_models: tuple[str, ...]
    model_schemas: Mapping[str, JSON]  # prose replaced by placeholders (see model_texts)
    model_texts: Mapping[str, str]  # placeholder -> spec prose
    exports: tuple[str, ...]
    client_model_imports: tuple[str, ...]  # eager models the client names
    client_lazy_imports: tuple[str, ...]  # lazy ones: for type checkers only
    lazy_facade: str
    uses_secrets: bool  # some operation has a secret field (the client imports Sensitive)
    readme_arguments: str
    readme_base_url: str  # the spec's server URL with <variables>, as a Python literal
    readme_body: str  # ``body = {...}``: the shortest request example, or "" when none
    readme_call: str  # the call the README shows, e.g. ``create_training_job(body)``
    # model class -> code lines appended to its body (field rules, the copy method), and
    # the imports they need (see modelgen.add_to_classes)
    model_additions: Mapping[str, tuple[str, ...]]
    model_imports: str
    copy: CopyIR | None  # the show -> create copy, when the spec states roles


def error_classes() -> tuple[ErrorClassIR, ...]:
    """The subclasses of ``ApiError``, most general first (a base precedes its children)."""
    return (
        ErrorClassIR("ClientError", "ApiError", None, "A 4xx answer: the request was refused."),
        ErrorClassIR("BadRequestError", "ClientError", 400, "400: the request is invalid."),
        ErrorClassIR(
            "AuthenticationError", "ClientError", 401, "401: missing or invalid credentials."
        ),
        ErrorClassIR(
            "PermissionDeniedError", "ClientError", 403, "403: the credentials may not do this."
        ),
        ErrorClassIR("NotFoundError", "ClientError", 404, "404: the resource does not exist."),
        ErrorClassIR(
            "ConflictError", "ClientError", 409, "409: the resource's state forbids this."
        ),
        ErrorClassIR(
            "UnprocessableEntityError",
            "ClientError",
            422,
            "422: the request was understood but not processed.",
        ),
        ErrorClassIR("RateLimitError", "ClientError", 429, "429: too many requests."),
        ErrorClassIR("ServerError", "ApiError", None, "A 5xx answer: the server failed."),
    )


def _variants(client_name: str) -> tuple[ClientVariantIR, ...]:
    return (
        ClientVariantIR(
            class_name=f"{client_name}Client",
            is_async=False,
            def_="def",
            await_="",
            with_="with",
            http_client_type="httpx.Client",
            transport_type="httpx.BaseTransport",
            sleep_type="Callable[[float], None]",
            default_sleep="time.sleep",
            enter="__enter__",
            exit="__exit__",
            close_name="close",
            close_http="self._http.close()",
            summary="Synchronous client; use it as a context manager (``with``) or call close().",
            for_="for",
            iter_bytes="iter_bytes",
            close_response="streamed.close()",
            deadline_scope="_sync_scope",
            raw_class_name=f"{client_name}ClientWithRawResponse",
        ),
        ClientVariantIR(
            class_name=f"Async{client_name}Client",
            is_async=True,
            def_="async def",
            await_="await ",
            with_="async with",
            http_client_type="httpx.AsyncClient",
            transport_type="httpx.AsyncBaseTransport",
            sleep_type="Callable[[float], Awaitable[None]]",
            default_sleep="_asyncio_sleep",
            enter="__aenter__",
            exit="__aexit__",
            close_name="aclose",
            close_http="await self._http.aclose()",
            summary="Asynchronous client; use it with ``async with`` or await aclose().",
            for_="async for",
            iter_bytes="aiter_bytes",
            close_response="await streamed.aclose()",
            deadline_scope="_async_scope",
            raw_class_name=f"Async{client_name}ClientWithRawResponse",
        ),
    )


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


def _client_parameters(spec: Spec) -> dict[str, str]:
    """Path parameters every operation has (ModelArts' ``project_id``) belong to the client."""
    operations = spec.operations
    if len(operations) < 2:
        return {}
    common: dict[str, str] | None = None
    for op in operations:
        names = {p.name: p.description for p in op.parameters if p.location == "path"}
        common = names if common is None else {k: v for k, v in common.items() if k in names}
    return dict(sorted((common or {}).items()))


def _success_status(op: Operation) -> tuple[str, JSON | None]:
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


def _indented(lines: tuple[str, ...]) -> tuple[str, ...]:
    """Docstring lines as printed in a method body: the first follows the opening quotes,
    the others are indented; a blank line stays empty (no trailing whitespace)."""
    return (lines[0], *(DOC_INDENT + line if line else "" for line in lines[1:]))


def _operation(
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

    success, success_schema = _success_status(op)
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
    result_expression = (
        "None"
        if return_model is None
        else f"decode_response({call_constant}, response, {return_model})"
    )
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
            (name, _sensitive_literal(fields)) for name, fields in secrets.items() if fields
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
        docstring=_indented(
            _docstring(op, call_params, body, return_model, errors, success, codes)
        ),
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
        path_names_literal=_tuple_literal(p.wire_name for p in params if p.location == "path"),
        query_names_literal=_tuple_literal(p.wire_name for p in params if p.location == "query"),
        header_names_literal=_tuple_literal(p.wire_name for p in params if p.location == "header"),
        body=body,
        return_model=return_model,
        return_annotation=return_model or "None",
        retryable=op.method.upper() in IDEMPOTENT_METHODS,
    )


def _body_expression(call_constant: str, model: str, lazy: Collection[str]) -> str:
    """How a method encodes its body: a model of the lazily loaded module is reached
    through the ``models`` facade (``_models.X``), which loads that module on first use."""
    reference = f"{LAZY_FACADE}.{model}" if model in lazy else model
    return f"encode_body({call_constant}, {reference}, body)"


def _with_lazy_bodies(op: OperationIR, lazy: Collection[str]) -> OperationIR:
    if op.body is None:
        return op
    expression = _body_expression(op.call_constant, op.body.model, lazy)
    return dataclasses.replace(op, body_expression=expression)


def _wait(spec: Spec, operations: tuple[OperationIR, ...]) -> WaitIR | None:
    """The wait helper, when the spec states roles and a lifecycle (ModelArts' does)."""
    if not uses_meaning(spec):
        return None
    meaning = spec.meaning
    roles, lifecycle = meaning.roles, meaning.lifecycle
    show = next(op for op in operations if op.operation_id == roles.show.operation_id)
    if show.return_model is None:
        raise SpecError(f"{roles.show.pointer}: the show operation returns no body to poll")
    id_argument = snake_case(roles.job_id_parameter)
    if [a for a in show.forward if a != "deadline=deadline"] != [id_argument]:
        raise SpecError(
            f"{roles.show.pointer}: the show operation must take only the job id "
            f"{roles.job_id_parameter!r} (besides client-wide parameters) to be polled"
        )
    resource = id_argument.removesuffix("_id")
    final = tuple(p for p in lifecycle.phases if p in lifecycle.final)
    phase_field = lifecycle.phase_field.strip("/").replace("/", ".")
    doc = [
        *docstring_lines(
            f"Poll ``{show.python_name}`` until the job's ``{phase_field}`` is one of "
            f"``until`` (by default the final phases: {', '.join(final)}).",
            DOC_WIDTH,
        ),
        "",
        *docstring_lines(
            "The first poll is immediate; the wait between polls starts at ``poll`` seconds "
            "and doubles after each poll, up to ``max_poll``. Errors of the polls are "
            "raised as they are (retries of idempotent requests happen inside each poll).",
            DOC_WIDTH,
        ),
        "",
        "Returns:",
        f"    The last ``{show.return_model}``, whose phase is in ``until``.",
        "",
        "Raises:",
        "    WaitTimeoutError: ``timeout`` seconds passed first; it carries the last",
        "        response (``last_response``, an ``ApiResponse``) and its phase.",
        "    ValueError: ``until`` is empty, or ``timeout``/``poll``/``max_poll`` is negative.",
    ]
    method_name = f"wait_for_{resource}"
    return WaitIR(
        method_name=method_name,
        method_name_literal=python_string(method_name),
        id_argument=id_argument,
        show_method=show.python_name,
        return_model=show.return_model,
        phase_pointer_literal=python_string(lifecycle.phase_field),
        final_constant=f"{resource.upper()}_FINAL_PHASES",
        final_literal=_tuple_literal(final),
        final_md=", ".join(markdown_text(p, "/x-modelarts-lifecycle/final") for p in final),
        phases_constant=f"{resource.upper()}_PHASES",
        phases_literal=_tuple_literal(lifecycle.phases),
        docstring=_indented(tuple(doc)),
    )


def _code_tuple(items: list[str]) -> str:
    """A Python tuple expression of already printed items."""
    if len(items) == 1:
        return f"({items[0]},)"
    return "(" + ", ".join(items) + ")"


def _sensitive_literal(fields: tuple[SensitiveField, ...]) -> str:
    """The ``Sensitive(...)`` expression the generated client masks secret values with."""

    def path(names: tuple[str | None, ...]) -> str:
        return _code_tuple(["None" if n is None else python_string(n) for n in names])

    always = [path(f.path) for f in fields if f.when is None]
    when = [_code_tuple([path(f.path), path(f.when)]) for f in fields if f.when is not None]
    return f"Sensitive(always={_code_tuple(always)}, when={_code_tuple(when)})"


def _tuple_literal(values: Any) -> str:
    """A Python tuple literal of strings."""
    items = [python_string(str(v)) for v in values]
    return f"({items[0]},)" if len(items) == 1 else "(" + ", ".join(items) + ")"


def _servers(spec: Spec) -> tuple[str | None, tuple[ServerVariableIR, ...]]:
    servers = spec.document.get("servers") or []
    if not servers or not isinstance(servers, list) or not isinstance(servers[0], Mapping):
        return None, ()
    server = servers[0]
    url = str(server.get("url", ""))
    if not re.match(r"https?://", url):
        # A relative server URL says nothing usable about the host.
        return None, ()
    variables = []
    taken: set[str] = set()
    for name in re.findall(r"\{([^}]+)\}", url):
        declared = (server.get("variables") or {}).get(name) or {}
        default = declared.get("default")
        python_name = snake_case(name)
        if python_name in taken:
            continue  # the same variable twice in the URL
        taken.add(python_name)
        description = normalise_whitespace(str(declared.get("description", ""))).rstrip(".")
        default_text = None if default is None else str(default)
        doc = docstring_inline(description or "server variable") + (
            "" if default_text is None else f" (default ``{docstring_inline(default_text)}``)"
        )
        variables.append(
            ServerVariableIR(
                name_literal=python_string(name),
                python_name=python_name,
                default_literal="None" if default_text is None else python_string(default_text),
                doc=doc + ".",
            )
        )
    return url.rstrip("/"), tuple(variables)


# RFC 9110 token: the characters an HTTP field name may hold.
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")


def _token_header(spec: Spec) -> str:
    schemes = (spec.document.get("components") or {}).get("securitySchemes") or {}
    for key, scheme in schemes.items():
        scheme = spec.deref(scheme)
        if (
            scheme.get("type") == "apiKey"
            and scheme.get("in") == "header"
            and str(scheme.get("name", "")).lower() != "authorization"
        ):
            name = str(scheme["name"])
            if not _HEADER_NAME.fullmatch(name):
                raise SpecError(
                    f"/components/securitySchemes/{escape_pointer_token(str(key))}/name: "
                    f"{shorten(name)} is not an HTTP header name (rule: RFC 9110 token "
                    "characters only)"
                )
            return name
    return "Authorization"


def _parameter_pointer(spec: Spec, op: Operation, name: str, location: str) -> str:
    """The JSON pointer of a parameter object: in the operation, else in its path item."""
    path_item = op.pointer.rsplit("/", 1)[0]
    for owner in (op.pointer, path_item):
        for index, raw in enumerate(spec.at(owner).get("parameters") or []):
            param = spec.deref(raw)
            if param.get("name") == name and param.get("in") == location:
                return f"{owner}/parameters/{index}"
    return f"{op.pointer}/parameters"


def _field_rule_lines(rules: tuple[FieldRule, ...]) -> tuple[str, ...]:
    """The class-body lines that make a request model check its field rules."""
    return (
        "# which fields go together (the spec's not and dependentRequired)",
        "_field_rules = field_rules_validator(",
        *(f"    {rule.expression}," for rule in rules),
        ")",
    )


def _copy(spec: Spec, operations: tuple[OperationIR, ...], lazy: Collection[str]) -> CopyIR | None:
    """The show -> create copy (see copyplan.py), when the spec states roles."""
    if not uses_meaning(spec):
        return None
    roles = spec.meaning.roles
    create = next(op for op in operations if op.operation_id == roles.create.operation_id)
    show = next(op for op in operations if op.operation_id == roles.show.operation_id)
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
            spec.envelope(MUST_ACCEPT),
            request_pointer,
            roles.show.success.pointer + "/content/application~1json/schema",
        ),
    )


def _copy_method_lines(copy: CopyIR) -> tuple[str, ...]:
    """The response model's method that makes the copy (the work is in ``_copy``)."""
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


def _package_version(version: str) -> str:
    return version if re.fullmatch(r"\d+(\.\d+){0,3}", version) else "0.0.0"


def build_ir(spec: Spec, options: GeneratorOptions) -> ClientIR:
    """Decide everything about the generated package for ``spec``.

    Raises SpecError for a spec the generator cannot use, and
    :class:`~modelarts_kit_generator.escaping.UnrepresentableText` for a spec string a
    target file cannot hold; both name the field, the value and the rule."""
    require_sound_structure(spec.document, str(spec.path))
    if not spec.operations:
        raise SpecError("/paths: no operations (rule: the client needs at least one)")
    plan = ModelPlan(spec)
    plan.prepare(
        request_roots=[
            *(
                (op.pointer + "/requestBody/content/application~1json/schema", op.request_schema)
                for op in spec.operations
                if op.request_schema is not None
            ),
            *(
                (_parameter_pointer(spec, op, p.name, p.location) + "/schema", p.schema)
                for op in spec.operations
                for p in op.parameters
            ),
        ],
        response_roots=[
            (f"{op.pointer}/responses/{status}/content/application~1json/schema", schema)
            for op in spec.operations
            for status, schema in [_success_status(op)]
        ],
    )
    client_params = _client_parameters(spec)
    errors = error_classes()
    taken: set[str] = set()
    codes = spec.meaning.errors if uses_meaning(spec) else None
    operations = tuple(
        _operation(op, spec, plan, client_params, errors, taken, codes) for op in spec.operations
    )
    lazy = plan.body_only(op.body.model for op in operations if op.body is not None)
    operations = tuple(_with_lazy_bodies(op, lazy) for op in operations)
    wait = _wait(spec, operations)
    copy = _copy(spec, operations, lazy)
    additions = {name: _field_rule_lines(rules) for name, rules in plan.rules.items()}
    if copy is not None:
        additions[copy.response_model] = (
            *additions.get(copy.response_model, ()),
            *_copy_method_lines(copy),
        )
    if wait is not None and wait.method_name in taken:
        raise SpecError(f"the wait method {wait.method_name!r} collides with an operation method")
    base_url, variables = _servers(spec)
    variants = _variants(options.client_name)
    info = spec.document.get("info") or {}
    exceptions = (
        options.error_base,
        "ApiError",
        *(("WaitTimeoutError",) if wait is not None else ()),
        *(e.name for e in errors),
        "DeadlineExceededError",
        "DecodeError",
        "RequestValidationError",
        "ResponseTooLargeError",
        "ResponseValidationError",
        "TransportError",
    )
    exports = sorted(
        {
            *(v.class_name for v in variants),
            *(v.raw_class_name for v in variants),
            *((wait.final_constant, wait.phases_constant) if wait is not None else ()),
            "ApiResponse",
            *exceptions,
            "AkSkAuth",
            "RetryPolicy",
            "TokenAuth",
            "UncheckedBody",
            *plan.all_names,
        }
    )
    title = spec.title or options.package
    token_header = _token_header(spec)
    package_version = _package_version(spec.version)
    pyproject_description = toml_string(
        f"Typed Python client for the {normalise_whitespace(title)} API, generated from "
        "its OpenAPI document.",
        "/info/title",
    )
    models_header = (
        f'"""Pydantic models of the {docstring_inline(title)} API, generated by modelarts-kit; '
        "do not edit.\n\n"
        "Request models validate strictly and keep fields the spec does not know (sent as "
        "given);\nresponse models keep unknown fields and accept enum values the spec does not "
        'know yet."""'
    )
    lazy_models_header = (
        f'"""Request-body models of the {docstring_inline(title)} API (modelarts-kit; do not '
        "edit).\n\n"
        "Only request bodies use these models, so they are loaded on first use: import them "
        "from\n``models`` or the package (this module's name is not part of the API)."
        '"""'
    )
    client_models = {
        name
        for op in operations
        for name in (op.params_model, op.return_model, op.body.model if op.body else None)
        if name and name != "None"
    }
    return ClientIR(
        options=options,
        title_doc=docstring_inline(title),
        version_doc=docstring_inline(spec.version),
        version_literal=python_string(spec.version),
        package_version=package_version,
        package_version_literal=python_string(package_version),
        user_agent_literal=python_string(f"{options.distribution}/{package_version}"),
        description=tuple(docstring_lines(str(info.get("description", "")), 96)),
        models_header=models_header,
        pyproject_description_toml=pyproject_description,
        title_md=markdown_text(title, "/info/title"),
        version_md=markdown_text(spec.version, "/info/version"),
        token_header_md=markdown_code(token_header, "/components/securitySchemes"),
        base_url_literal="None" if base_url is None else python_string(base_url),
        base_url_doc="none: base_url is then required"
        if base_url is None
        else docstring_inline(base_url),
        server_variables=variables,
        client_parameters=tuple(
            ClientParameterIR(snake_case(name), docstring_inline(text))
            for name, text in client_params.items()
        ),
        token_header_literal=python_string(token_header),
        token_header_doc=docstring_inline(token_header),
        operations=operations,
        variants=variants,
        wait=wait,
        error_classes=errors,
        status_errors=tuple(e for e in errors if e.status is not None),
        error_exports=tuple(sorted(exceptions)),
        models=tuple(plan.all_names),
        eager_models=tuple(name for name in plan.all_names if name not in lazy),
        lazy_models=tuple(name for name in plan.all_names if name in lazy),
        lazy_module=LAZY_MODULE,
        lazy_models_header=lazy_models_header,
        request_models=tuple(sorted(plan.request_models)),
        response_models=tuple(sorted(plan.response_models)),
        model_schemas=dict(sorted(plan.schemas.items())),
        model_texts=dict(plan.texts),
        exports=tuple(exports),
        uses_secrets=any(op.call_secrets for op in operations),
        client_model_imports=tuple(sorted(client_models - lazy)),
        client_lazy_imports=tuple(sorted(client_models & lazy)),
        lazy_facade=LAZY_FACADE,
        readme_arguments="".join(
            f'{p}="<{p}>", ' for p in (snake_case(name) for name in client_params)
        ),
        readme_base_url=python_string(
            re.sub(r"\{(\w+)\}", r"<\1>", base_url) if base_url else "<base_url>"
        ),
        **_readme_call(spec, operations),
        model_additions=additions,
        model_imports=FIELD_RULES_IMPORT if plan.rules else "",
        copy=copy,
    )


def _readme_call(spec: Spec, operations: tuple[OperationIR, ...]) -> dict[str, str]:
    """The README's example call: the first operation with a request example, sent with the
    shortest one (a body a reader can send as it is), else the first operation."""
    for op, op_ir in zip(spec.operations, operations, strict=True):
        raw = spec.at(op.pointer).get("requestBody")
        media = (spec.deref(raw).get("content") or {}).get("application/json") if raw else None
        if not isinstance(media, dict):
            continue
        named = [spec.deref(e).get("value") for e in (media.get("examples") or {}).values()]
        examples = [e for e in [*named, media.get("example")] if isinstance(e, dict)]
        if examples:
            body = min(examples, key=lambda e: len(json.dumps(e)))
            return {
                "readme_body": f"body = {python_literal(body)}",
                "readme_call": f"{op_ir.python_name}(body)",
            }
    return {"readme_body": "", "readme_call": f"{operations[0].python_name}(...)"}
