"""The intermediate representation's data: every decision about the generated client, as
frozen dataclasses the templates print (``ClientIR`` and its parts)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from modelarts_kit_generator.copyplan import CopyIR
from modelarts_kit_generator.options import GeneratorOptions

__all__ = [
    "DOC_INDENT",
    "DOC_WIDTH",
    "IDEMPOTENT_METHODS",
    "JSON",
    "LAZY_FACADE",
    "LAZY_MODULE",
    "BodyIR",
    "ClientIR",
    "ClientParameterIR",
    "ClientVariantIR",
    "ErrorClassIR",
    "FollowIR",
    "LazyGroupIR",
    "OperationIR",
    "PagingIR",
    "ParameterIR",
    "ServerVariableIR",
    "WaitIR",
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
    docstring: tuple[str, ...]  # escaped lines, indented as printed (see indented)
    signature: tuple[str, ...]
    arguments: tuple[tuple[str, str], ...]  # (wire name literal, python expression)
    params_model: str
    params_expression: str  # how the client names the params model (lazy: ``_models.X``)
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
class LazyGroupIR:
    """A module of models loaded on first use (see ``ir.lazy``)."""

    module: str
    models: tuple[str, ...]
    header: str  # the module's docstring, a complete literal


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
class PagingIR:
    """``iter_<items>``: every item of a paged operation, page after page (see ``ir.paging``)."""

    method_name: str  # iter_training_jobs
    method_name_literal: str
    operation: str  # the operation method each page calls
    signature: tuple[str, ...]
    call_arguments: tuple[str, ...]  # the page call's arguments (naming ``plan``)
    item_annotation: str
    item_model: str | None
    items_expression: str  # the page's items (naming ``page``), a list
    total_expression: str  # the page's total (naming ``page``), or None
    offset_counts_literal: str  # "items" | "pages"
    page_size: int
    docstring: tuple[str, ...]  # escaped lines, indented as printed


@dataclass(frozen=True)
class FollowIR:
    """``follow_<resource>``: the new events and log lines of a job until it ends (see
    ``ir.follow``)."""

    method_name: str  # follow_training_job
    method_name_literal: str
    id_argument: str
    events_iterator: str  # the PagingIR method of the events
    events_arguments: tuple[str, ...]  # the job id, and e.g. an ascending order
    page_size: int  # the events iterator's page size: what one poll reads is bounded by it
    event_annotation: str
    logs_method: str | None  # the logs-preview operation method, None: events only
    log_content_expression: str  # naming ``preview``
    log_size_expression: str  # naming ``preview``: the whole log's size, or None
    tasks_pointer_literal: str  # where a job lists its tasks' names
    docstring: tuple[str, ...]


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
    iterator_type: str  # what an iter_*/follow_* method returns
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
    paging: tuple[PagingIR, ...]
    follow: FollowIR | None
    error_classes: tuple[ErrorClassIR, ...]
    status_errors: tuple[ErrorClassIR, ...]
    error_exports: tuple[str, ...]
    models: tuple[str, ...]
    eager_models: tuple[str, ...]  # imported with the package
    lazy_models: tuple[str, ...]  # every model of lazy_groups: loaded on first use
    lazy_groups: tuple[LazyGroupIR, ...]
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
