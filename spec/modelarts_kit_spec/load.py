"""The one place where the curated spec is read, resolved and indexed.

The generator, the contract kit, the reference server and the publisher all read the spec
through :func:`load_spec`; nobody else opens ``openapi.yaml``. Data flows one way:
YAML -> :class:`Spec` (resolved, indexed) -> each output.

``Spec`` is the front of the package: it imports its layers (meaning, walker, schema model,
routes, refs, ledger) on first use. Their floor is in modules that import none of them:
:mod:`~modelarts_kit_spec.document` (``JSON``, ``SpecError``, JSON pointers),
:mod:`~modelarts_kit_spec.reader` (the one reader of input files) and
:mod:`~modelarts_kit_spec.operation`; their names are also importable from here.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from modelarts_kit_spec.document import HTTP_METHODS as HTTP_METHODS
from modelarts_kit_spec.document import JSON as JSON
from modelarts_kit_spec.document import SpecError as SpecError
from modelarts_kit_spec.document import escape_pointer_token as escape_pointer_token
from modelarts_kit_spec.document import json_type as json_type
from modelarts_kit_spec.document import pointer_join as pointer_join
from modelarts_kit_spec.document import resolve_pointer as resolve_pointer
from modelarts_kit_spec.document import unescape_pointer_token as unescape_pointer_token
from modelarts_kit_spec.operation import Operation as Operation
from modelarts_kit_spec.operation import Parameter as Parameter
from modelarts_kit_spec.operation import Response as Response
from modelarts_kit_spec.paths import LEDGER_PATH as LEDGER_PATH
from modelarts_kit_spec.paths import PACKAGE_DIR as PACKAGE_DIR
from modelarts_kit_spec.paths import SPEC_PATH as SPEC_PATH
from modelarts_kit_spec.reader import MAX_DEPTH as MAX_DEPTH
from modelarts_kit_spec.reader import MAX_INPUT_BYTES as MAX_INPUT_BYTES
from modelarts_kit_spec.reader import MAX_NODES as MAX_NODES
from modelarts_kit_spec.reader import InputError as InputError
from modelarts_kit_spec.reader import decode_text as decode_text
from modelarts_kit_spec.reader import parse_yaml_text as parse_yaml_text
from modelarts_kit_spec.reader import read_input_bytes as read_input_bytes
from modelarts_kit_spec.reader import read_input_text as read_input_text
from modelarts_kit_spec.reader import read_yaml as read_yaml

if TYPE_CHECKING:
    # jsonschema and referencing take ~60 ms to import; only validator() needs them.
    from jsonschema import Draft202012Validator, ValidationError
    from referencing import Registry

    from modelarts_kit_spec.meaning import Meaning
    from modelarts_kit_spec.quickvalid import QuickValidity
    from modelarts_kit_spec.routes import RouteMatch
    from modelarts_kit_spec.schemamodel import SchemaModel
    from modelarts_kit_spec.walker import SchemaWalker


@dataclass(frozen=True)
class Spec:
    """A loaded OpenAPI 3.1 document, with $ref resolution and JSON Schema validators."""

    path: Path
    document: JSON
    operations: tuple[Operation, ...]
    _validators: dict[str, Draft202012Validator] = field(
        default_factory=dict, repr=False, compare=False
    )

    @property
    def title(self) -> str:
        return str(self.document.get("info", {}).get("title", ""))

    @property
    def version(self) -> str:
        return str(self.document.get("info", {}).get("version", ""))

    @property
    def schemas(self) -> Mapping[str, JSON]:
        components = self.document.get("components") or {}
        return components.get("schemas") or {}

    def operation(self, operation_id: str) -> Operation:
        found = self._operations_by_id.get(operation_id)
        if found is not None:
            return found
        raise KeyError(
            f"no operation {operation_id!r}; known: {[o.operation_id for o in self.operations]}"
        )

    @functools.cached_property
    def _operations_by_id(self) -> dict[str, Operation]:
        """The operations by id, the first of a repeated id (every check asks: indexed once)."""
        found: dict[str, Operation] = {}
        for op in self.operations:
            found.setdefault(op.operation_id, op)
        return found

    def at(self, pointer: str) -> JSON:
        """The value at a JSON pointer into the document."""
        return resolve_pointer(self.document, pointer)

    def deref(self, node: JSON) -> JSON:
        """Follow a ``$ref`` chain (local refs only; siblings apply, see
        :mod:`modelarts_kit_spec.refs`) until a non-ref node."""
        from modelarts_kit_spec.refs import resolve_ref

        return resolve_ref(self.document, node).node

    def inline(self, node: JSON) -> JSON:
        """A deep copy of ``node`` with every local ``$ref`` replaced by its target.

        Raises SpecError on a recursive schema (ours has none; callers that accept
        recursion use :meth:`validator` instead, which resolves lazily).
        """
        from modelarts_kit_spec.refs import resolve_ref

        def walk(value: JSON, stack: tuple[str, ...]) -> JSON:
            if isinstance(value, Mapping):
                if "$ref" in value:
                    resolved = resolve_ref(self.document, value)
                    if resolved.pointer in stack:
                        raise SpecError(
                            f"recursive $ref #{resolved.pointer} via {' -> '.join(stack)}"
                        )
                    return walk(resolved.node, (*stack, resolved.pointer))
                return {k: walk(v, stack) for k, v in value.items()}
            if isinstance(value, list):
                return [walk(v, stack) for v in value]
            return value

        return walk(copy.deepcopy(node), ())

    @functools.cached_property
    def meaning(self) -> Meaning:
        """Roles, lifecycle, error model and guidance (``x-modelarts-*``; MeaningError if bad)."""
        from modelarts_kit_spec.meaning import read_meaning

        return read_meaning(self)

    @functools.cached_property
    def walker(self) -> SchemaWalker:
        """The schema walker of this document ($ref, allOf merging, JSON types)."""
        from modelarts_kit_spec.walker import SchemaWalker

        return SchemaWalker(self.document)

    @functools.cached_property
    def schema_model(self) -> SchemaModel:
        """Every rule with its strength and evidence (:mod:`modelarts_kit_spec.schemamodel`):
        ``rule_at(pointer, keyword)``, ``rules``, ``counts()``, ``node(pointer)``."""
        from modelarts_kit_spec.schemamodel import SchemaModel

        return SchemaModel.of(self)

    def envelope(self, name: str) -> Spec:
        """The ``must-accept`` or ``must-reject`` view of this spec, a Spec of its own
        (``validator``, ``operations``; cached). See :mod:`modelarts_kit_spec.schemamodel.envelope`:
        must-accept = every rule at every strength, only documented fields, request objects
        closed; must-reject = only documented rules."""
        cache: dict[str, Spec] = self.__dict__.setdefault("_envelopes", {})
        cached = cache.get(name)
        if cached is None:
            from modelarts_kit_spec.schemamodel.envelope import build_envelope

            cached = parse_spec(build_envelope(self.document, name), self.path)
            cache[name] = cached
        return cached

    def obligations(self) -> Spec:
        """What a server must enforce: the ``must-reject`` envelope (the name it had first)."""
        return self.envelope("must-reject")

    def match(self, method: str, raw_path: str) -> RouteMatch | None:
        """The operation for ``method raw_path`` (rule: :mod:`modelarts_kit_spec.routes`)."""
        from modelarts_kit_spec.routes import match_route

        return match_route(self.operations, method, raw_path)

    def validator(self, schema: JSON) -> Draft202012Validator:
        """A JSON Schema 2020-12 validator for ``schema`` whose local $refs resolve in this spec.

        Validators are cached per schema (by its JSON text), so hot paths pay once. Python does
        not walk a member or item the quick verdict proves valid (:meth:`_validator_class`):
        the errors and verdicts are those of :meth:`walking_validator`.
        """

        from jsonschema import Draft202012Validator

        key = json.dumps(schema, sort_keys=True)
        cached = self._validators.get(key)
        if cached is None:
            cached = self._validator_class(
                _rebase(schema),
                registry=self._registry,
                format_checker=Draft202012Validator.FORMAT_CHECKER,
            )
            self._validators[key] = cached
        return cached

    def walking_validator(self, schema: JSON) -> Draft202012Validator:
        """:meth:`validator` without its short-cut: Python walks every value (uncached). The
        reference the short-cut is tested against; nothing else needs it."""
        from jsonschema import Draft202012Validator

        walking: Draft202012Validator = _validator_class(self.document)(
            _rebase(schema),
            registry=self._registry,
            format_checker=Draft202012Validator.FORMAT_CHECKER,
        )
        return walking

    def surely_valid(self, schema: JSON, instance: JSON) -> bool:
        """True only where ``validator(schema).is_valid(instance)`` is provably True, answered
        by ``jsonschema_rs`` (:mod:`modelarts_kit_spec.quickvalid`, an order of magnitude
        faster); False means "ask :meth:`validator`", which alone gives errors. The same
        True holds for the validator evolved to check the int32/int64 ranges (the server's)."""
        return self._quick.surely_valid(schema, instance)

    def iter_errors(self, schema: JSON, instance: JSON) -> Iterator[ValidationError]:
        """``validator(schema).iter_errors(instance)``, with no walk of the schema where the
        quick verdict already says valid (most bodies and answers a run judges)."""
        if self.surely_valid(schema, instance):
            return iter(())
        errors: Iterator[ValidationError] = self.validator(schema).iter_errors(instance)
        return errors

    def quick_verdict(self, schema: JSON, instance: JSON) -> bool | None:
        """``validator(schema).is_valid(instance)`` where ``jsonschema_rs`` provably gives the
        same answer (:mod:`modelarts_kit_spec.quickvalid`); None where only Python can say."""
        return self._quick.verdict(schema, instance)

    @functools.cached_property
    def _quick(self) -> QuickValidity:
        from modelarts_kit_spec.quickvalid import QuickValidity

        return QuickValidity(self.document)

    @functools.cached_property
    def _validator_class(self) -> Any:
        """The class of :meth:`validator`: Python's walk skips only what the quick verdict
        proves valid (:meth:`QuickValidity.pruning`), so its errors are the same."""
        return self._quick.pruning(_validator_class(self.document))

    @functools.cached_property
    def _registry(self) -> Registry[Any]:
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012

        resource: Resource[Any] = Resource.from_contents(
            self.document, default_specification=DRAFT202012
        )
        registry: Registry[Any] = Registry().with_resource(DOCUMENT_URI, resource)
        return registry


# Every local "#/..." ref is rewritten to point into the registered document, so a
# validator built for a sub-schema resolves refs against the whole spec.
DOCUMENT_URI = "urn:modelarts-kit:openapi"


def _rebase(schema: JSON) -> JSON:
    if isinstance(schema, Mapping):
        out: dict[str, JSON] = {}
        for key, value in schema.items():
            if key == "$ref" and isinstance(value, str) and value.startswith("#"):
                out[key] = DOCUMENT_URI + value
            else:
                out[key] = _rebase(value)
        return out
    if isinstance(schema, list):
        return [_rebase(v) for v in schema]
    return schema


def _iter_operations(document: JSON) -> Iterator[Operation]:
    paths = document.get("paths") or {}
    if not isinstance(paths, Mapping):
        raise SpecError("/paths: must be a mapping")
    for path, item in paths.items():
        if not isinstance(item, Mapping):
            raise SpecError(f"{pointer_join('/paths', path)}: must be a mapping")
        if "$ref" in item:
            item = _path_item_ref(document, item, pointer_join("/paths", path))
        shared = list(item.get("parameters") or [])
        for method in HTTP_METHODS:
            op = item.get(method)
            if op is None:
                continue
            pointer = pointer_join("/paths", path, method)
            operation_id = op.get("operationId")
            if not operation_id:
                raise SpecError(f"{pointer}: operationId is required")
            params = _parameters(document, [*shared, *(op.get("parameters") or [])])
            body = op.get("requestBody")
            request_schema: JSON | None = None
            request_required = False
            if body is not None:
                body = _deref(document, body)
                request_required = bool(body.get("required", False))
                media = (body.get("content") or {}).get("application/json")
                if media is not None:
                    request_schema = media.get("schema")
            responses = tuple(_responses(document, op.get("responses") or {}, pointer))
            yield Operation(
                operation_id=str(operation_id),
                method=method,
                path=str(path),
                summary=str(op.get("summary", "")),
                description=str(op.get("description", "")),
                parameters=params,
                request_schema=request_schema,
                request_required=request_required,
                responses=responses,
                pointer=pointer,
            )


def _path_item_ref(document: JSON, item: Mapping[str, JSON], pointer: str) -> Mapping[str, JSON]:
    """A path item given as ``$ref``: a local one is followed (its siblings win), an
    external one is refused (its operations would otherwise silently disappear)."""
    ref = item["$ref"]
    if not isinstance(ref, str) or not ref.startswith("#/"):
        raise SpecError(
            f"{pointer}/$ref: {ref!r} is not a local reference (rule: the spec is one "
            "self-contained document; bundle external path items into it)"
        )
    try:
        target = resolve_pointer(document, ref)
    except KeyError as exc:
        raise SpecError(f"{pointer}/$ref: {ref!r} does not resolve ({exc.args[0]})") from None
    if not isinstance(target, Mapping):
        raise SpecError(f"{pointer}/$ref: {ref!r} is not a path item")
    return {**target, **{k: v for k, v in item.items() if k != "$ref"}}


def _deref(document: JSON, node: JSON) -> JSON:
    from modelarts_kit_spec.refs import resolve_ref

    return resolve_ref(document, node).node


def _parameters(document: JSON, raw: list[JSON]) -> tuple[Parameter, ...]:
    merged: dict[tuple[str, str], Parameter] = {}
    for item in raw:
        param = _deref(document, item)
        key = (str(param["name"]), str(param["in"]))
        merged[key] = Parameter(
            name=key[0],
            location=key[1],
            required=bool(param.get("required", key[1] == "path")),
            schema=param.get("schema", {}),
            description=str(param.get("description", "")),
        )
    return tuple(merged.values())


def _responses(document: JSON, raw: Mapping[str, JSON], op_pointer: str) -> Iterator[Response]:
    for status, item in raw.items():
        response = _deref(document, item)
        media = (response.get("content") or {}).get("application/json")
        headers = {
            name: _deref(document, header)
            for name, header in (response.get("headers") or {}).items()
        }
        yield Response(
            status=str(status),
            description=str(response.get("description", "")),
            schema=None if media is None else media.get("schema"),
            headers=headers,
            pointer=pointer_join(op_pointer, "responses", str(status)),
        )


def require_openapi_document(document: JSON, path: Path) -> Mapping[str, JSON]:
    """``document`` if it is an OpenAPI 3.x document at all; a :class:`SpecError` (exit 2:
    the user named the wrong file) for anything else, the same in every command."""
    if not isinstance(document, Mapping):
        raise SpecError(f"{path}: the document must be a mapping, got {type(document).__name__}")
    if not str(document.get("openapi", "")).startswith("3."):
        raise SpecError(f"{path}: /openapi must be a 3.x version, got {document.get('openapi')!r}")
    return document


def _is_json_integer(checker: Any, instance: Any) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


def _validator_class(document: JSON) -> Any:
    """Draft 2020-12, except in the must-accept envelope, where an integer is a JSON integer:
    ``1.0`` is an integer to JSON Schema, but not every correct server takes it for one (a Go
    ``int`` field refuses it), so only must-reject reads it as one."""
    from jsonschema import Draft202012Validator, validators

    if not isinstance(document, Mapping) or document.get("x-modelarts-envelope") != "must-accept":
        return Draft202012Validator
    global _STRICT_INTEGERS
    if _STRICT_INTEGERS is None:
        checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_json_integer)
        _STRICT_INTEGERS = validators.extend(Draft202012Validator, type_checker=checker)
    return _STRICT_INTEGERS


_STRICT_INTEGERS: Any = None


def parse_spec(document: JSON, path: Path) -> Spec:
    """Index an already-parsed OpenAPI document."""
    document = require_openapi_document(document, path)
    from modelarts_kit_spec.refs import check_ref_cycles

    check_ref_cycles(document)  # before indexing: every later reader follows refs safely
    return Spec(path=path, document=document, operations=tuple(_iter_operations(document)))


@functools.lru_cache(maxsize=8)
def _load_cached(path: Path, mtime_ns: int) -> Spec:
    return parse_spec(read_yaml(path), path)


def load_spec(path: Path | str | None = None) -> Spec:
    """Load and index the spec (the curated one by default). Cached until the file changes."""
    resolved = Path(path).resolve() if path is not None else SPEC_PATH
    try:
        mtime = resolved.stat().st_mtime_ns
    except OSError as exc:
        raise SpecError(f"{resolved}: cannot read: {exc.strerror}") from exc
    return _load_cached(resolved, mtime)


def load_ledger(path: Path | str | None = None) -> list[dict[str, JSON]]:
    """The ledger's entries as written (plain mappings); a fresh copy of the one cached parse.

    Prefer :func:`modelarts_kit_spec.ledger.read_ledger`, which gives typed entries.
    """
    from modelarts_kit_spec.ledger import read_ledger

    return copy.deepcopy(list(read_ledger(path).raw))
