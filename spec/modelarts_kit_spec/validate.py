"""``spec validate``: openapi-spec-validator plus the project's own rules.

Each rule is a small function registered in :data:`RULES` with an id; it receives a
:class:`Context` and yields :class:`SpecProblem` objects that name the JSON pointer, the rule and
what is wrong. Rules are written defensively: a malformed document yields findings (from the
``openapi`` rule), never a crash in another rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from jsonschema.exceptions import SchemaError, UnknownType
from openapi_spec_validator.shortcuts import get_validator_cls
from openapi_spec_validator.validation.exceptions import ValidatorDetectError
from referencing.exceptions import Unresolvable

from modelarts_kit_spec.ledger import Ledger, LedgerEntry, ledger_for, parse_ledger
from modelarts_kit_spec.load import (
    JSON,
    Spec,
    SpecError,
    escape_pointer_token,
    parse_spec,
    pointer_join,
    require_openapi_document,
    resolve_pointer,
)
from modelarts_kit_spec.meaning import meaning_problems, uses_meaning
from modelarts_kit_spec.paging import quote_problems
from modelarts_kit_spec.quotes import quote_problem
from modelarts_kit_spec.refs import check_ref_cycles
from modelarts_kit_spec.schemamodel.extension import SOURCES_DIR, extension_problems
from modelarts_kit_spec.schemamodel.page_evidence import undocumented_rules, unquoted_rules
from modelarts_kit_spec.schemamodel.parameters import quotes_of as parameter_quotes
from modelarts_kit_spec.sensitive import marker_problems
from modelarts_kit_spec.structure import path_parameter_problems, schema_type_problems
from modelarts_kit_spec.walker import SUBSCHEMA_MAP_KEYWORDS, SchemaWalker, iter_schemas

__all__ = [
    "LEDGER_KINDS",
    "LEDGER_SIDES",
    "RULES",
    "Context",
    "Rule",
    "SpecProblem",
    "iter_schemas",
    "ledger_for",
    "subset_mismatch",
    "validate_document",
]

LEDGER_KINDS = frozenset(
    {
        "type",
        "mandatory",
        "enum",
        "presence",
        "name",
        "required-response",
        "nullable",
        "constraint",
        "default",
        "example",
        "status-code",
        "guidance",
        "sensitive",
    }
)
LEDGER_SIDES = frozenset({"request", "response", "both"})

COMPONENT_KINDS = (
    "schemas",
    "responses",
    "parameters",
    "headers",
    "examples",
    "requestBodies",
    "links",
    "callbacks",
    "pathItems",
)
HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


@dataclass(frozen=True, order=True)
class SpecProblem:
    pointer: str  # JSON pointer into the spec, or "<ledger file>#/entries/N/..." for ledger entries
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.pointer or '/'}: [{self.rule}] {self.message}"

    def as_dict(self) -> dict[str, str]:
        return {"pointer": self.pointer, "rule": self.rule, "message": self.message}


@dataclass(frozen=True)
class Context:
    """What every rule sees: the raw document, an index for validators, the ledger."""

    document: JSON
    spec: Spec  # for Spec.validator; operations may be empty if the loader rejected the doc
    ledger: Ledger | None  # None: no ledger given, ledger rules have nothing to check
    ledger_name: str = "ledger.yaml"


@dataclass(frozen=True)
class Rule:
    id: str
    summary: str
    check: Callable[[Context], Iterable[SpecProblem]]


RULES: list[Rule] = []


def rule(
    rule_id: str, summary: str
) -> Callable[[Callable[[Context], Iterable[SpecProblem]]], Rule]:
    """Register a rule function in :data:`RULES` under ``rule_id``."""

    def register(check: Callable[[Context], Iterable[SpecProblem]]) -> Rule:
        registered = Rule(rule_id, summary, check)
        RULES.append(registered)
        return registered

    return register


# --------------------------------------------------------------------------- helpers


def _mapping(value: JSON) -> Mapping[str, JSON]:
    return value if isinstance(value, Mapping) else {}


def _try_resolve(document: JSON, ref: str) -> tuple[bool, JSON]:
    if not ref.startswith("#"):
        return False, None
    try:
        return True, resolve_pointer(document, ref)
    except KeyError:
        return False, None


def _deref(document: JSON, node: JSON) -> JSON:
    """Follow local $ref chains (the spec's walker); an unresolvable one stays as it is (the
    ref-resolves rule reports it)."""
    try:
        return SchemaWalker(document).deref(node)[0]
    except SpecError:
        return node


def _iter_refs(node: JSON, pointer: str, parent: str = "", grandparent: str = "") -> Iterator[str]:
    """Every ``$ref`` string in ``node``, skipping example and default data."""
    if isinstance(node, Mapping):
        ref = node.get("$ref")
        if isinstance(ref, str):
            yield ref
        names_map = parent in SUBSCHEMA_MAP_KEYWORDS or parent in COMPONENT_KINDS
        for key, value in node.items():
            if not names_map:
                if key in ("example", "default", "const", "enum") or str(key).startswith("x-"):
                    continue
                if key == "value" and grandparent == "examples":
                    continue
                if key == "examples" and isinstance(value, list):
                    continue
            yield from _iter_refs(value, pointer_join(pointer, key), str(key), parent)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _iter_refs(value, pointer_join(pointer, index), parent, grandparent)


def _has_description(document: JSON, schema: JSON, seen: frozenset[str] = frozenset()) -> bool:
    if not isinstance(schema, Mapping):
        return False
    description = schema.get("description")
    if isinstance(description, str) and description.strip():
        return True
    ref = schema.get("$ref")
    if isinstance(ref, str):
        ok, target = _try_resolve(document, ref)
        return ok and ref not in seen and _has_description(document, target, seen | {ref})
    # A 3.0-style "allOf: [{$ref}]" wrapper carries the description of what it wraps.
    all_of = schema.get("allOf")
    return (
        isinstance(all_of, list)
        and len(all_of) == 1
        and isinstance(all_of[0], Mapping)
        and _has_description(document, all_of[0], seen)
    )


def _types_equal(a: JSON, b: JSON) -> bool:
    # bool is an int in Python; YAML's true must not match 1.
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    return bool(type(a) is type(b) and a == b)


def subset_mismatch(document: JSON, actual: JSON, expected: JSON, where: str = "") -> str | None:
    """Where ``expected`` is not a subset of ``actual`` (None when it is).

    Dicts match recursively (every expected key present and matching), lists by containment
    (each expected item matches some actual item), scalars by equality. ``$ref`` in the
    actual value is followed at every level.
    """
    actual = _deref(document, actual)
    if isinstance(expected, Mapping):
        if not isinstance(actual, Mapping):
            return f"{where or '/'}: expected a mapping, the spec has {actual!r}"
        for key, value in expected.items():
            here = pointer_join(where, key)
            if key not in actual:
                return f"{here}: missing (expected {value!r})"
            problem = subset_mismatch(document, actual[key], value, here)
            if problem:
                return problem
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return (
                f"{where or '/'}: expected a list containing {expected!r}, the spec has {actual!r}"
            )
        for item in expected:
            if all(subset_mismatch(document, candidate, item) for candidate in actual):
                return f"{where or '/'}: {item!r} not in {actual!r}"
        return None
    if not _types_equal(actual, expected):
        return f"{where or '/'}: expected {expected!r}, the spec has {actual!r}"
    return None


def _ledger_pointer(ctx: Context, index: int, *tokens: str) -> str:
    return pointer_join(f"{ctx.ledger_name}#/entries/{index}", *tokens)


# --------------------------------------------------------------------------- rules


@rule("openapi", "the document is a valid OpenAPI document (openapi-spec-validator)")
def check_openapi(ctx: Context) -> Iterator[SpecProblem]:
    try:
        validator_cls = get_validator_cls(ctx.document)
    except ValidatorDetectError:
        yield SpecProblem("/openapi", "openapi", "no supported OpenAPI version (expected 3.1.x)")
        return
    # The meta-schema pass reports absolute pointers; the keyword pass (schemas, defaults,
    # parameters) only runs on a structurally valid document because it assumes one.
    structural = list(validator_cls.schema_validator.iter_errors(ctx.document))
    for error in structural:
        pointer = pointer_join("", *error.absolute_path)
        yield SpecProblem(pointer, "openapi", error.message)
    if structural or any(True for _ in _unresolved_refs(ctx.document)):
        return
    validator = validator_cls(ctx.document)
    try:
        for error in validator.root_validator(validator.schema_path):
            relative = "/".join(str(p) for p in error.absolute_path)
            suffix = f" (at {relative} inside the checked object)" if relative else ""
            yield SpecProblem("", "openapi", f"{error.message}{suffix}")
    except (Unresolvable, SchemaError) as exc:
        yield SpecProblem(
            "", "openapi", f"openapi-spec-validator could not check the document: {exc}"
        )


def _unresolved_refs(document: JSON) -> Iterator[tuple[str, str]]:
    for ref in sorted(set(_iter_refs(document, ""))):
        ok, _ = _try_resolve(document, ref)
        if not ok:
            yield (
                ref,
                ("external $ref: the spec must be one file" if not ref.startswith("#") else ""),
            )


@rule("ref-resolves", "every $ref points at something in this document")
def check_refs(ctx: Context) -> Iterator[SpecProblem]:
    for ref, why in _unresolved_refs(ctx.document):
        yield SpecProblem(
            ref.removeprefix("#"), "ref-resolves", why or f"$ref {ref!r} resolves to nothing"
        )


@rule("schema-description", "every component schema has a description")
def check_schema_descriptions(ctx: Context) -> Iterator[SpecProblem]:
    schemas = _mapping(_mapping(ctx.document.get("components")).get("schemas"))
    for name, schema in schemas.items():
        if not _has_description(ctx.document, schema):
            pointer = pointer_join("/components/schemas", name)
            yield SpecProblem(pointer, "schema-description", "schema has no description")


@rule("property-description", "every property of every schema has a description")
def check_property_descriptions(ctx: Context) -> Iterator[SpecProblem]:
    for pointer, schema in iter_schemas(ctx.document):
        for name, prop in _mapping(schema.get("properties")).items():
            if not _has_description(ctx.document, prop):
                yield SpecProblem(
                    pointer_join(pointer, "properties", name),
                    "property-description",
                    "property has no description",
                )


@rule("ledger-entry", "every ledger entry has the documented fields, with a unique id")
def check_ledger_entries(ctx: Context) -> Iterator[SpecProblem]:
    if ctx.ledger is None:
        return
    for problem in ctx.ledger.problems:
        tokens = () if problem.key is None or problem.missing else (problem.key,)
        yield SpecProblem(
            _ledger_pointer(ctx, problem.index or 0, *tokens), "ledger-entry", problem.message
        )
    for entry in ctx.ledger.entries:
        if entry.kind and entry.kind not in LEDGER_KINDS:
            yield SpecProblem(
                _ledger_pointer(ctx, entry.index, "kind"),
                "ledger-entry",
                f"kind {entry.kind!r} is not one of {sorted(LEDGER_KINDS)}",
            )


@rule("ledger-todo", "no ledger entry still waits for a decision (decision: TODO)")
def check_ledger_todos(ctx: Context) -> Iterator[SpecProblem]:
    for entry in ctx.ledger.todos if ctx.ledger is not None else ():
        yield SpecProblem(
            _ledger_pointer(ctx, entry.index, "decision"),
            "ledger-todo",
            f"entry {entry.id!r} ({entry.kind} of {entry.field or entry.pointer}) still says "
            "decision: TODO; decide, set expect, and write the reason",
        )


def _ledger_targets(ctx: Context) -> Iterator[tuple[int, str, LedgerEntry]]:
    for entry in ctx.ledger.entries if ctx.ledger is not None else ():
        if entry.pointer is not None:
            yield entry.index, entry.pointer, entry


@rule("ledger-pointer", "every ledger entry's pointer resolves in the spec")
def check_ledger_pointers(ctx: Context) -> Iterator[SpecProblem]:
    for index, pointer, entry in _ledger_targets(ctx):
        try:
            resolve_pointer(ctx.document, pointer)
        except KeyError as exc:
            yield SpecProblem(
                _ledger_pointer(ctx, index, "pointer"),
                "ledger-pointer",
                f"entry {entry.id!r}: pointer does not resolve: {exc.args[0]}",
            )


@rule("ledger-expect", "what each ledger entry expects holds at its pointer")
def check_ledger_expectations(ctx: Context) -> Iterator[SpecProblem]:
    for _, pointer, entry in _ledger_targets(ctx):
        expected = entry.expect
        if expected is None:
            continue
        try:
            actual = resolve_pointer(ctx.document, pointer)
        except KeyError:
            continue  # reported by ledger-pointer
        problem = subset_mismatch(ctx.document, actual, expected)
        if problem:
            yield SpecProblem(
                pointer,
                "ledger-expect",
                f"ledger entry {entry.id!r} expects {dict(expected)!r}; {problem}",
            )


def _example_values(
    node: Mapping[str, JSON], pointer: str, document: JSON
) -> Iterator[tuple[str, JSON]]:
    """The example values of a media type, parameter or header object, with pointers."""
    if "example" in node:
        yield pointer_join(pointer, "example"), node["example"]
    for name, example in _mapping(node.get("examples")).items():
        resolved = _deref(document, example)
        if isinstance(resolved, Mapping) and "value" in resolved:
            where = pointer_join(pointer, "examples", name)
            if "$ref" in _mapping(example):
                where = str(example["$ref"]).removeprefix("#")
            yield pointer_join(where, "value"), resolved["value"]


def _holders_of_examples(node: JSON, pointer: str) -> Iterator[tuple[str, Mapping[str, JSON]]]:
    """Media type, parameter and header objects: mappings with a ``schema`` next to examples."""
    if isinstance(node, Mapping):
        if isinstance(node.get("schema"), Mapping) and ("example" in node or "examples" in node):
            yield pointer, node
        for key, value in node.items():
            if key not in ("schema", "example", "examples") and not str(key).startswith("x-"):
                yield from _holders_of_examples(value, pointer_join(pointer, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _holders_of_examples(value, pointer_join(pointer, index))


def _example_findings(ctx: Context, schema: JSON, where: str, value: JSON) -> Iterator[SpecProblem]:
    try:
        validator = ctx.spec.validator(schema)
        errors = sorted(validator.iter_errors(value), key=lambda e: list(map(str, e.absolute_path)))
    except UnknownType:
        return  # a schema with an unknown type: the schema-type rule names it
    except (Unresolvable, SchemaError) as exc:
        yield SpecProblem(where, "example-valid", f"cannot check the example: {exc}")
        return
    for error in errors:
        yield SpecProblem(
            pointer_join(where, *error.absolute_path),
            "example-valid",
            f"example does not match its schema: {error.message}",
        )


@rule("example-valid", "every example validates against its schema")
def check_examples(ctx: Context) -> Iterator[SpecProblem]:
    for key in ("paths", "webhooks", "components"):
        for pointer, holder in _holders_of_examples(ctx.document.get(key), "/" + key):
            for where, value in _example_values(holder, pointer, ctx.document):
                yield from _example_findings(ctx, holder["schema"], where, value)
    for pointer, schema in iter_schemas(ctx.document):
        examples = schema.get("examples")
        if isinstance(examples, list):
            for index, value in enumerate(examples):
                where = pointer_join(pointer, "examples", index)
                yield from _example_findings(ctx, schema, where, value)
        if "example" in schema:
            where = pointer_join(pointer, "example")
            yield from _example_findings(ctx, schema, where, schema["example"])


def _security_names(document: JSON) -> set[str]:
    names: set[str] = set()
    requirements = list(document.get("security") or [])
    for item in _mapping(document.get("paths")).values():
        for method in HTTP_METHODS:
            requirements.extend(_mapping(_mapping(item).get(method)).get("security") or [])
    for requirement in requirements:
        names.update(_mapping(requirement))
    return names


@rule("unused-component", "every component is reachable by $ref from the paths")
def check_unused_components(ctx: Context) -> Iterator[SpecProblem]:
    document = ctx.document
    roots = {k: v for k, v in _mapping(document).items() if k != "components"}
    reachable: set[str] = set()
    pending = [ref for ref in _iter_refs(roots, "") if ref.startswith("#/")]
    while pending:
        ref = pending.pop()
        if ref in reachable:
            continue
        reachable.add(ref)
        ok, target = _try_resolve(document, ref)
        if ok:
            pending.extend(r for r in _iter_refs(target, "") if r.startswith("#/"))
    # A ref into a component (e.g. #/components/schemas/A/properties/b) uses that component.
    used = {"/".join(ref.removeprefix("#").split("/")[:4]) for ref in reachable}
    components = _mapping(document.get("components"))
    for kind in COMPONENT_KINDS:
        for name in _mapping(components.get(kind)):
            pointer = f"/components/{kind}/{escape_pointer_token(str(name))}"
            if pointer not in used:
                yield SpecProblem(
                    pointer, "unused-component", "not referenced (by $ref) from any path"
                )
    security_used = _security_names(document)
    for name in _mapping(components.get("securitySchemes")):
        if name not in security_used:
            yield SpecProblem(
                pointer_join("/components/securitySchemes", name),
                "unused-component",
                "security scheme not used by any security requirement",
            )


@rule("operation-id-unique", "operationIds are unique")
def check_operation_ids(ctx: Context) -> Iterator[SpecProblem]:
    first: dict[str, str] = {}
    for path, item in _mapping(ctx.document.get("paths")).items():
        for method in HTTP_METHODS:
            op = _mapping(item).get(method)
            if not isinstance(op, Mapping):
                continue
            pointer = pointer_join("/paths", path, method, "operationId")
            op_id = op.get("operationId")
            if not isinstance(op_id, str) or not op_id:
                yield SpecProblem(pointer, "operation-id-unique", "operation has no operationId")
            elif op_id in first:
                yield SpecProblem(
                    pointer, "operation-id-unique", f"{op_id!r} is already used at {first[op_id]}"
                )
            else:
                first[op_id] = pointer


@rule("schema-type", "every schema's type is a JSON Schema type (string, number, integer, ...)")
def check_schema_types(ctx: Context) -> Iterator[SpecProblem]:
    for problem in schema_type_problems(ctx.document):
        yield SpecProblem(problem.pointer, problem.rule, problem.message)


@rule("path-parameter-declared", "every {name} in a path is a declared path parameter, and back")
def check_path_parameters(ctx: Context) -> Iterator[SpecProblem]:
    for problem in path_parameter_problems(ctx.document):
        yield SpecProblem(problem.pointer, problem.rule, problem.message)


@rule(
    "meaning",
    "the x-modelarts-* extensions (roles, lifecycle, error codes, guidance) are consistent",
)
def check_meaning(ctx: Context) -> Iterator[SpecProblem]:
    # A document that uses none of the extensions is a plain OpenAPI document (the kit's
    # consumers then fail with a MeaningError naming what is missing).
    if not ctx.spec.operations or not uses_meaning(ctx.spec):
        return
    for problem in meaning_problems(ctx.spec):
        yield SpecProblem(problem.pointer, "meaning", problem.message)


@rule(
    "paging",
    "every x-modelarts-paging quote stands in the page it cites (a file under spec/sources)",
)
def check_paging_quotes(ctx: Context) -> Iterator[SpecProblem]:
    if not ctx.spec.operations or not uses_meaning(ctx.spec) or meaning_problems(ctx.spec):
        return
    for pointer, message in quote_problems(ctx.spec.meaning.paging, SOURCES_DIR):
        yield SpecProblem(pointer, "paging", message)


@rule("sensitive", "every x-modelarts-sensitive marker is true or {when: a boolean beside it}")
def check_sensitive(ctx: Context) -> Iterator[SpecProblem]:
    for pointer, message in marker_problems(ctx.document):
        yield SpecProblem(pointer, "sensitive", message)


@rule(
    "schema-model",
    "x-modelarts-schema-model: known strengths, evidence pages in spec/sources, ledger ids "
    "exist, agrees with x-modelarts-guidance and the ledger; a page a documented rule cites "
    "states its field (a table in spec/sources)",
)
def check_schema_model(ctx: Context) -> Iterator[SpecProblem]:
    for pointer, message in extension_problems(ctx.document, ctx.ledger):
        yield SpecProblem(pointer, "schema-model", message)
    for found, field in undocumented_rules(ctx.document, SOURCES_DIR, uncited=False):
        stated = f"states {field!r}" if field is not None else "prints it"
        yield SpecProblem(
            found.pointer,
            "schema-model",
            (
                f"documented rule {found.keyword!r} names no page table under spec/sources that "
                f"{stated} (a rule is documented only with page evidence: give it its strength "
                "and evidence in x-modelarts-schema-model)"
            ),
        )


@rule(
    "schema-model-quote",
    "every documented or guidance rule quotes its page, and each quote stands in the recorded "
    "page (spec/sources) as the page reader reads it",
)
def check_schema_model_quotes(ctx: Context) -> Iterator[SpecProblem]:
    for found, _quote, problem in unquoted_rules(ctx.document, SOURCES_DIR):
        single = found.keyword == "enum" and not isinstance(found.value, list | type(None))
        what = f"enum value {found.value!r}" if single else found.keyword
        yield SpecProblem(
            found.pointer, "schema-model-quote", f"{found.strength} rule {what}: {problem}"
        )
    for operation in ctx.spec.operations:
        for quote in parameter_quotes(ctx.spec, operation):
            stray = quote_problem(quote, SOURCES_DIR)
            if stray is not None:
                yield SpecProblem(
                    operation.pointer, "schema-model-quote", f"parameter rule: {stray}"
                )


# --------------------------------------------------------------------------- entry point


def validate_document(
    document: JSON,
    *,
    path: Path,
    ledger: Ledger | list[JSON] | None,
    ledger_name: str = "ledger.yaml",
    rules: Iterable[Rule] = RULES,
) -> list[SpecProblem]:
    """Run ``rules`` over a parsed document; findings sorted by pointer, then rule.

    A file that is not an OpenAPI 3.x document at all is the wrong file, not an invalid spec:
    :class:`SpecError` (exit 2), as every other command that reads a spec says.
    """
    require_openapi_document(document, path)
    findings: list[SpecProblem] = []
    # A $ref cycle is refused before any rule runs: rules follow refs, and no reader can
    # give a finding about a document whose references never end (one line, exit 2).
    check_ref_cycles(document)
    try:
        spec = parse_spec(document, path)
    except (SpecError, KeyError, TypeError, AttributeError) as exc:
        # The loader indexes operations; a document it rejects is still checked by every
        # rule, and the loader's complaint is a finding of its own.
        findings.append(SpecProblem("", "loader", f"the spec loader rejects the document: {exc}"))
        spec = Spec(path=path, document=document, operations=())
    if ledger is not None and not isinstance(ledger, Ledger):
        ledger = parse_ledger(ledger)
    ctx = Context(document=document, spec=spec, ledger=ledger, ledger_name=ledger_name)
    for registered in rules:
        findings.extend(registered.check(ctx))
    return sorted(set(findings))
