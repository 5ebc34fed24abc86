"""``build_ir``: the client IR's assembly from the spec, the model plan and the parts built by
the sibling modules, each by a small named builder.

What the operations mean (roles, success responses, error codes) is resolved once
(:func:`~.resolved.resolve`) and handed to every builder; the model plan is prepared from
the operations' roots before any operation names a model."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

from modelarts_kit_spec import Spec, SpecError
from modelarts_kit_spec.meaning import Role
from modelarts_kit_spec.structure import require_sound_structure

from modelarts_kit_generator.escaping import (
    docstring_inline,
    docstring_lines,
    markdown_code,
    markdown_text,
    normalise_whitespace,
    python_literal,
    python_string,
    toml_string,
)
from modelarts_kit_generator.ir.client import (
    client_variants,
    package_version_of,
    spec_servers,
    spec_token_header,
)
from modelarts_kit_generator.ir.errors import error_classes
from modelarts_kit_generator.ir.follow import build_follow
from modelarts_kit_generator.ir.lazy import lazy_groups
from modelarts_kit_generator.ir.model import (
    LAZY_FACADE,
    ClientIR,
    ClientParameterIR,
    ClientVariantIR,
    ErrorClassIR,
    FollowIR,
    LazyGroupIR,
    OperationIR,
    PagingIR,
    ServerVariableIR,
    WaitIR,
)
from modelarts_kit_generator.ir.model_additions import build_copy
from modelarts_kit_generator.ir.operations import (
    build_operation,
    parameter_pointer,
    with_lazy_models,
)
from modelarts_kit_generator.ir.paging import build_paging, paging_models
from modelarts_kit_generator.ir.resolved import ResolvedSpec, resolve
from modelarts_kit_generator.ir.wait import build_wait
from modelarts_kit_generator.naming import snake_case
from modelarts_kit_generator.options import GeneratorOptions
from modelarts_kit_generator.schemas import ModelPlan

__all__ = ["build_ir"]


class _Texts(TypedDict):
    title_doc: str
    version_doc: str
    version_literal: str
    package_version: str
    package_version_literal: str
    user_agent_literal: str
    description: tuple[str, ...]
    models_header: str
    pyproject_description_toml: str
    title_md: str
    version_md: str


class _Servers(TypedDict):
    token_header_md: str
    base_url_literal: str
    base_url_doc: str
    server_variables: tuple[ServerVariableIR, ...]
    client_parameters: tuple[ClientParameterIR, ...]
    token_header_literal: str
    token_header_doc: str
    readme_arguments: str
    readme_base_url: str


class _Models(TypedDict):
    models: tuple[str, ...]
    eager_models: tuple[str, ...]
    lazy_models: tuple[str, ...]
    lazy_groups: tuple[LazyGroupIR, ...]
    request_models: tuple[str, ...]
    response_models: tuple[str, ...]
    model_schemas: Mapping[str, Any]
    model_texts: Mapping[str, str]


class _ClientImports(TypedDict):
    client_model_imports: tuple[str, ...]
    client_lazy_imports: tuple[str, ...]


class _ReadmeCall(TypedDict):
    readme_body: str
    readme_call: str


@dataclass(frozen=True)
class _Helpers:
    """The methods built beside the operations' own: wait, iterators, follow."""

    wait: WaitIR | None
    paging: tuple[PagingIR, ...]
    follow: FollowIR | None


def build_ir(spec: Spec, options: GeneratorOptions) -> ClientIR:
    """Decide everything about the generated package for ``spec``.

    Raises SpecError for a spec the generator cannot use, and
    :class:`~modelarts_kit_generator.escaping.UnrepresentableText` for a spec string a
    target file cannot hold; both name the field, the value and the rule."""
    require_sound_structure(spec.document, str(spec.path))
    if not spec.operations:
        raise SpecError("/paths: no operations (rule: the client needs at least one)")
    resolved = resolve(spec)
    plan = _prepared_plan(resolved)
    errors = error_classes()
    taken: set[str] = set()
    operations = tuple(
        build_operation(op, resolved, plan, errors, taken) for op in resolved.operations
    )
    title = spec.title or options.package
    groups = lazy_groups(plan, operations, title)
    lazy = {name for group in groups for name in group.models}
    operations = tuple(with_lazy_models(op, lazy) for op in operations)
    helpers = _helpers(resolved, operations, plan, taken)
    copy = build_copy(resolved, operations, lazy)
    variants = client_variants(options.client_name)
    exceptions = _exceptions(options, errors, helpers)
    return ClientIR(
        options=options,
        **_texts(spec, options, title),
        **_servers(resolved),
        operations=operations,
        variants=variants,
        wait=helpers.wait,
        paging=helpers.paging,
        follow=helpers.follow,
        error_classes=errors,
        status_errors=tuple(e for e in errors if e.status is not None),
        error_exports=tuple(sorted(exceptions)),
        **_models(plan, groups, lazy),
        exports=_exports(variants, helpers, exceptions, plan),
        uses_secrets=any(op.call_secrets for op in operations),
        **_client_imports(operations, helpers.paging, lazy),
        lazy_facade=LAZY_FACADE,
        **_readme_call(resolved, operations),
        field_rules=dict(plan.rules),
        copy=copy,
    )


def _prepared_plan(resolved: ResolvedSpec) -> ModelPlan:
    """The model plan, prepared with every request and response root of the operations."""
    spec = resolved.spec
    plan = ModelPlan(spec)
    plan.prepare(
        request_roots=[
            *(
                (
                    r.op.pointer + "/requestBody/content/application~1json/schema",
                    r.op.request_schema,
                )
                for r in resolved.operations
                if r.op.request_schema is not None
            ),
            *(
                (parameter_pointer(spec, r.op, p.name, p.location) + "/schema", p.schema)
                for r in resolved.operations
                for p in r.op.parameters
            ),
        ],
        response_roots=[
            (
                f"{r.op.pointer}/responses/{r.success}/content/application~1json/schema",
                r.success_schema,
            )
            for r in resolved.operations
        ],
    )
    return plan


def _helpers(
    resolved: ResolvedSpec, operations: tuple[OperationIR, ...], plan: ModelPlan, taken: set[str]
) -> _Helpers:
    """The wait, iterator and follow methods; none may take an operation's method name."""
    wait = build_wait(resolved, operations)
    paging = build_paging(resolved.spec, operations, plan)
    follow = build_follow(resolved, operations, wait, paging)
    names = [
        *((wait.method_name,) if wait is not None else ()),
        *(p.method_name for p in paging),
        *((follow.method_name,) if follow is not None else ()),
    ]
    for name in names:
        if name in taken or names.count(name) > 1:
            raise SpecError(f"the helper method {name!r} collides with another method")
    return _Helpers(wait, paging, follow)


def _exceptions(
    options: GeneratorOptions, errors: tuple[ErrorClassIR, ...], helpers: _Helpers
) -> tuple[str, ...]:
    """Every exception class the package defines."""
    return (
        options.error_base,
        "ApiError",
        *(("WaitTimeoutError",) if helpers.wait is not None else ()),
        *(("PagingError",) if helpers.paging else ()),
        *(e.name for e in errors),
        "DeadlineExceededError",
        "DecodeError",
        "RequestValidationError",
        "ResponseTooLargeError",
        "ResponseValidationError",
        "TransportError",
    )


def _exports(
    variants: tuple[ClientVariantIR, ...],
    helpers: _Helpers,
    exceptions: tuple[str, ...],
    plan: ModelPlan,
) -> tuple[str, ...]:
    """The package's public names, sorted."""
    wait, follow = helpers.wait, helpers.follow
    return tuple(
        sorted(
            {
                *(v.class_name for v in variants),
                *(v.raw_class_name for v in variants),
                *((wait.final_constant, wait.phases_constant) if wait is not None else ()),
                "ApiResponse",
                *(("LogLine",) if follow is not None and follow.logs_method else ()),
                *exceptions,
                "AkSkAuth",
                "RetryPolicy",
                "TokenAuth",
                "UncheckedBody",
                *plan.all_names,
            }
        )
    )


def _texts(spec: Spec, options: GeneratorOptions, title: str) -> _Texts:
    """The spec's title, version and description in every target they are printed in."""
    package_version = package_version_of(spec.version)
    info = spec.document.get("info") or {}
    return {
        "title_doc": docstring_inline(title),
        "version_doc": docstring_inline(spec.version),
        "version_literal": python_string(spec.version),
        "package_version": package_version,
        "package_version_literal": python_string(package_version),
        "user_agent_literal": python_string(f"{options.distribution}/{package_version}"),
        "description": tuple(docstring_lines(str(info.get("description", "")), 96)),
        "models_header": (
            f'"""Pydantic models of the {docstring_inline(title)} API, generated by '
            "modelarts-kit; do not edit.\n\n"
            "Request models validate strictly and keep fields the spec does not know (sent as "
            "given);\nresponse models keep unknown fields and accept enum values the spec does "
            'not know yet."""'
        ),
        "pyproject_description_toml": toml_string(
            f"Typed Python client for the {normalise_whitespace(title)} API, generated from "
            "its OpenAPI document.",
            "/info/title",
        ),
        "title_md": markdown_text(title, "/info/title"),
        "version_md": markdown_text(spec.version, "/info/version"),
    }


def _servers(resolved: ResolvedSpec) -> _Servers:
    """Where the client connects and how it authenticates: base URL, server variables,
    client-wide parameters, token header (and the README's example arguments)."""
    spec = resolved.spec
    base_url, variables = spec_servers(spec)
    token_header = spec_token_header(spec)
    names = [snake_case(name) for name in resolved.client_parameters]
    return {
        "token_header_md": markdown_code(token_header, "/components/securitySchemes"),
        "base_url_literal": "None" if base_url is None else python_string(base_url),
        "base_url_doc": "none: base_url is then required"
        if base_url is None
        else docstring_inline(base_url),
        "server_variables": variables,
        "client_parameters": tuple(
            ClientParameterIR(snake_case(name), docstring_inline(text))
            for name, text in resolved.client_parameters.items()
        ),
        "token_header_literal": python_string(token_header),
        "token_header_doc": docstring_inline(token_header),
        "readme_arguments": "".join(f'{p}="<{p}>", ' for p in names),
        "readme_base_url": python_string(
            re.sub(r"\{(\w+)\}", r"<\1>", base_url) if base_url else "<base_url>"
        ),
    }


def _models(plan: ModelPlan, groups: tuple[LazyGroupIR, ...], lazy: set[str]) -> _Models:
    """The models by side and by module (imported with the package, or on first use)."""
    return {
        "models": tuple(plan.all_names),
        "eager_models": tuple(name for name in plan.all_names if name not in lazy),
        "lazy_models": tuple(name for name in plan.all_names if name in lazy),
        "lazy_groups": groups,
        "request_models": tuple(sorted(plan.request_models)),
        "response_models": tuple(sorted(plan.response_models)),
        "model_schemas": dict(sorted(plan.schemas.items())),
        "model_texts": dict(plan.texts),
    }


def _client_imports(
    operations: tuple[OperationIR, ...], paging: tuple[PagingIR, ...], lazy: set[str]
) -> _ClientImports:
    """The models the client names: eager ones imported, lazy ones for type checkers."""
    named = {name for op in operations for name in op.models} | paging_models(paging)
    return {
        "client_model_imports": tuple(sorted(named - lazy)),
        "client_lazy_imports": tuple(sorted(named & lazy)),
    }


def _readme_call(resolved: ResolvedSpec, operations: tuple[OperationIR, ...]) -> _ReadmeCall:
    """The README's example call: the first operation with a request example, sent with the
    shortest one (a body a reader can send as it is), else the first operation. Where the
    spec names the operation that creates a job, it comes first: a reader's first call makes
    the job the other operations act on (the list operation's path precedes it)."""
    spec = resolved.spec
    pairs = list(zip(resolved.operations, operations, strict=True))
    if resolved.roles is not None:
        pairs.sort(key=lambda pair: pair[0].role != Role.CREATE)  # stable: order kept
    for r, op_ir in pairs:
        raw = spec.at(r.op.pointer).get("requestBody")
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
