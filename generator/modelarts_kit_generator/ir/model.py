"""The intermediate representation's data: every decision about the generated client, as
frozen dataclasses the templates print (``ClientIR`` and its parts)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from modelarts_kit_generator.copyplan import CopyIR
from modelarts_kit_generator.escaping import python_string
from modelarts_kit_generator.ir.properties import Property
from modelarts_kit_generator.options import GeneratorOptions
from modelarts_kit_generator.rules import FieldRule

__all__ = [
    "DOC_INDENT",
    "DOC_WIDTH",
    "IDEMPOTENT_METHODS",
    "JSON",
    "LAZY_FACADE",
    "LAZY_MODULE",
    "ArgumentIR",
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
    "SignatureIR",
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
    kind: Property  # the kind of value (its annotation, imports, validators, strength)
    description: str
    client_wide: bool = False  # a path parameter the client holds (``self._<name>``)

    @property
    def annotation(self) -> str:
        return self.kind.annotation

    @property
    def expression(self) -> str:
        """How the client's method names the value it sends."""
        return f"self._{self.python_name}" if self.client_wide else self.python_name


@dataclass(frozen=True)
class BodyIR:
    model: str
    raw: Property  # what else a caller may pass: a mapping for an object, else any value
    required: bool

    @property
    def annotation(self) -> str:
        return f"{self.model} | {self.raw.annotation} | UncheckedBody"


@dataclass(frozen=True)
class ArgumentIR:
    """One argument of a generated method: positional unless ``keyword_only``."""

    name: str
    annotation: str
    default: str | None = None  # a Python expression; None: the argument is required
    keyword_only: bool = False

    @property
    def declaration(self) -> str:
        """As the signature prints it: ``name: annotation`` and `` = default`` if any."""
        default = "" if self.default is None else f" = {self.default}"
        return f"{self.name}: {self.annotation}{default}"

    @property
    def forward(self) -> str:
        """How a wrapper passes its own argument of this name on."""
        return f"{self.name}={self.name}" if self.keyword_only else self.name


# Every generated call takes an overall deadline, keyword-only, last.
DEADLINE_ARGUMENT = ArgumentIR("deadline", "float | None", "None", keyword_only=True)


@dataclass(frozen=True)
class SignatureIR:
    """A method's arguments after ``self``: the positional ones, then ``*``, then the
    keyword-only ones (required keyword-only arguments may follow optional ones)."""

    arguments: tuple[ArgumentIR, ...]

    @property
    def positional(self) -> tuple[ArgumentIR, ...]:
        return tuple(a for a in self.arguments if not a.keyword_only)

    @property
    def keyword(self) -> tuple[ArgumentIR, ...]:
        return tuple(a for a in self.arguments if a.keyword_only)

    @property
    def lines(self) -> tuple[str, ...]:
        """The declarations as printed, ``*`` between the two kinds."""
        return (
            *(a.declaration for a in self.positional),
            "*",
            *(a.declaration for a in self.keyword),
        )

    @property
    def forward(self) -> tuple[str, ...]:
        return tuple(a.forward for a in (*self.positional, *self.keyword))

    def names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.arguments)

    def without(self, names: Collection[str]) -> SignatureIR:
        return SignatureIR(tuple(a for a in self.arguments if a.name not in names))

    def plus(self, *arguments: ArgumentIR) -> SignatureIR:
        return SignatureIR((*self.arguments, *arguments))


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
    call_signature: SignatureIR
    parameters: tuple[ParameterIR, ...]  # every parameter, client-wide ones included
    params_model: str | None  # None: the operation takes no parameters
    call_constant: str
    endpoint_doc: str  # "METHOD /path" as docstring text
    path_names_literal: str
    query_names_literal: str
    header_names_literal: str
    # (Call field, ``Sensitive(...)`` expression): where the parameters, the body and the
    # answer hold secret values (x-modelarts-sensitive); only the ones that have any.
    call_secrets: tuple[tuple[str, str], ...]
    body: BodyIR | None
    return_model: str | None
    retryable: bool
    # The models the client reaches through the lazy facade (set once the groups are known).
    lazy: frozenset[str] = field(default_factory=frozenset)

    @property
    def signature(self) -> tuple[str, ...]:
        return self.call_signature.lines

    @property
    def forward(self) -> tuple[str, ...]:
        """How a wrapper passes its own arguments on."""
        return self.call_signature.forward

    @property
    def arguments(self) -> tuple[tuple[str, str], ...]:
        """(wire name literal, python expression) of every parameter."""
        return tuple((python_string(p.wire_name), p.expression) for p in self.parameters)

    @property
    def return_annotation(self) -> str:
        return self.return_model or "None"

    @property
    def response_target(self) -> str:
        return "" if self.return_model is None else "response = "

    def reference(self, model: str) -> str:
        """How the client names ``model``: one of a lazily loaded module is reached through
        the ``models`` facade (``_models.X``), which loads that module on first use."""
        return f"{LAZY_FACADE}.{model}" if model in self.lazy else model

    @property
    def params_expression(self) -> str:
        return "None" if self.params_model is None else self.reference(self.params_model)

    @property
    def body_expression(self) -> str:
        if self.body is None:
            return "None"
        return f"encode_body({self.call_constant}, {self.reference(self.body.model)}, body)"

    @property
    def result_expression(self) -> str:
        if self.return_model is None:
            return "None"
        return (
            f"decode_response({self.call_constant}, response, {self.reference(self.return_model)})"
        )

    @property
    def models(self) -> tuple[str, ...]:
        """The models the client names for this operation."""
        return tuple(
            name
            for name in (
                self.params_model,
                self.return_model,
                self.body.model if self.body else None,
            )
            if name
        )


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
    # request model class -> the field rules its validator checks (printed by
    # templates/_model_additions.py.jinja into the class, see modelgen.add_to_classes)
    field_rules: Mapping[str, tuple[FieldRule, ...]]
    copy: CopyIR | None  # the show -> create copy, when the spec states roles
