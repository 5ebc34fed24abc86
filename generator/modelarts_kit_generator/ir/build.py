"""``build_ir``: the client IR's assembly from the spec, the model plan and the parts built by
the sibling modules."""

from __future__ import annotations

import json
import re

from modelarts_kit_spec import Spec, SpecError
from modelarts_kit_spec.meaning import uses_meaning
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
    client_parameters,
    client_variants,
    package_version_of,
    spec_servers,
    spec_token_header,
)
from modelarts_kit_generator.ir.errors import error_classes
from modelarts_kit_generator.ir.model import (
    LAZY_FACADE,
    LAZY_MODULE,
    ClientIR,
    ClientParameterIR,
    OperationIR,
)
from modelarts_kit_generator.ir.model_additions import (
    FIELD_RULES_IMPORT,
    build_copy,
    copy_method_lines,
    field_rule_lines,
)
from modelarts_kit_generator.ir.operations import (
    build_operation,
    parameter_pointer,
    success_status,
    with_lazy_bodies,
)
from modelarts_kit_generator.ir.wait import build_wait
from modelarts_kit_generator.naming import snake_case
from modelarts_kit_generator.options import GeneratorOptions
from modelarts_kit_generator.schemas import ModelPlan

__all__ = ["build_ir"]


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
                (parameter_pointer(spec, op, p.name, p.location) + "/schema", p.schema)
                for op in spec.operations
                for p in op.parameters
            ),
        ],
        response_roots=[
            (f"{op.pointer}/responses/{status}/content/application~1json/schema", schema)
            for op in spec.operations
            for status, schema in [success_status(op)]
        ],
    )
    client_params = client_parameters(spec)
    errors = error_classes()
    taken: set[str] = set()
    codes = spec.meaning.errors if uses_meaning(spec) else None
    operations = tuple(
        build_operation(op, spec, plan, client_params, errors, taken, codes)
        for op in spec.operations
    )
    lazy = plan.body_only(op.body.model for op in operations if op.body is not None)
    operations = tuple(with_lazy_bodies(op, lazy) for op in operations)
    wait = build_wait(spec, operations)
    copy = build_copy(spec, operations, lazy)
    additions = {name: field_rule_lines(rules) for name, rules in plan.rules.items()}
    if copy is not None:
        additions[copy.response_model] = (
            *additions.get(copy.response_model, ()),
            *copy_method_lines(copy),
        )
    if wait is not None and wait.method_name in taken:
        raise SpecError(f"the wait method {wait.method_name!r} collides with an operation method")
    base_url, variables = spec_servers(spec)
    variants = client_variants(options.client_name)
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
    token_header = spec_token_header(spec)
    package_version = package_version_of(spec.version)
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
    shortest one (a body a reader can send as it is), else the first operation. Where the
    spec names the operation that creates a job, it comes first: a reader's first call makes
    the job the other operations act on (the list operation's path precedes it)."""
    pairs = list(zip(spec.operations, operations, strict=True))
    if uses_meaning(spec):
        create = spec.meaning.roles.create.operation_id
        pairs.sort(key=lambda pair: pair[0].operation_id != create)  # stable: order kept
    for op, op_ir in pairs:
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
