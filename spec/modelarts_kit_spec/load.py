"""The one place where the curated spec is read, resolved and indexed.

The generator, the contract kit, the reference server and the publisher all read the spec
through :func:`load_spec`; nobody else opens ``openapi.yaml``. Data flows one way:
YAML -> :class:`Spec` (resolved, indexed) -> each output.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from modelarts_kit_spec.errors import KitError
from modelarts_kit_spec.paths import LEDGER_PATH as LEDGER_PATH
from modelarts_kit_spec.paths import PACKAGE_DIR as PACKAGE_DIR
from modelarts_kit_spec.paths import SPEC_PATH as SPEC_PATH

if TYPE_CHECKING:
    # jsonschema and referencing take ~60 ms to import; only validator() needs them.
    from jsonschema import Draft202012Validator
    from referencing import Registry

    from modelarts_kit_spec.meaning import Meaning
    from modelarts_kit_spec.routes import RouteMatch
    from modelarts_kit_spec.schemamodel import SchemaModel
    from modelarts_kit_spec.walker import SchemaWalker

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")

JSON = Any  # a decoded JSON/YAML value


class SpecError(KitError):
    """The spec file cannot be read or is not an OpenAPI document we can index."""


# Bounds on every spec, ledger and vendor page the kit reads (each far above the real ones:
# the curated spec is ~90 KB, ~12,000 values, 20 levels deep). A hostile input fails fast
# with one line instead of exhausting memory or the stack.
MAX_INPUT_BYTES = 16 * 1024 * 1024
MAX_NODES = 1_000_000  # values after YAML aliases are expanded (an alias bomb is refused)
MAX_DEPTH = 128  # nesting levels of mappings and sequences


class InputError(SpecError):
    """An input file that is too large, not text, or nested/aliased beyond the bounds.

    ``source`` names the file, ``line`` the 1-based line (0 when unknown), ``rule`` what it
    breaks; the message is ``source[:line]: rule``."""

    def __init__(self, source: str, line: int, rule: str) -> None:
        self.source = source
        self.line = line
        self.rule = rule
        super().__init__(f"{source}:{line}: {rule}" if line else f"{source}: {rule}")


def read_input_bytes(path: Path | str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of ``path``, never more than ``limit`` read (``/dev/zero`` and endless
    streams are refused after ``limit`` bytes, not read whole)."""
    try:
        with open(path, "rb") as stream:
            data = stream.read(limit + 1)
    except OSError as exc:
        raise InputError(str(path), 0, f"cannot read: {exc.strerror or exc}") from exc
    if len(data) > limit:
        raise InputError(
            str(path), 0, f"larger than {limit} bytes (rule: inputs are at most {limit} bytes)"
        )
    return data


def decode_text(data: bytes, source: str) -> str:
    """``data`` as UTF-8 text (a BOM is dropped); binary data and other encodings refused."""
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise InputError(source, line, "binary content (NUL byte): not a text file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(
            source, line, f"not UTF-8 text (byte 0x{data[exc.start]:02x}; rule: inputs are UTF-8)"
        ) from None


def read_input_text(path: Path | str) -> str:
    """The text of a spec, ledger or page: size-capped, strict UTF-8 (see above)."""
    return decode_text(read_input_bytes(path), str(path))


def read_yaml(path: Path) -> JSON:
    """Parse a YAML or JSON file; the error names the file, line and column."""
    return parse_yaml_text(read_input_text(path), str(path))


def parse_yaml_text(text: str, source: str) -> JSON:
    """Parse YAML text read from ``source`` (a file name or ``git:REV:path``), within
    :data:`MAX_INPUT_BYTES`, :data:`MAX_NODES` and :data:`MAX_DEPTH`.

    A JSON document is parsed as JSON: YAML 1.1 refuses some valid JSON (raw U+007F-U+009F,
    a surrogate pair written as two escapes)."""
    if len(text) > MAX_INPUT_BYTES:
        raise InputError(source, 0, f"larger than {MAX_INPUT_BYTES} characters")
    if text.lstrip().startswith(("{", "[")):
        try:
            document = json.loads(text)
        except RecursionError:
            raise InputError(source, 0, f"nested deeper than {MAX_DEPTH} levels") from None
        except ValueError:
            pass  # YAML flow style, or broken JSON: the YAML parser says where
        else:
            _check_json_shape(document, source)
            return document
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        _check_yaml_shape(text, source, loader)
        return yaml.load(text, Loader=loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"{source}:{mark.line + 1}:{mark.column + 1}" if mark else source
        raise SpecError(f"{where}: invalid YAML: {exc.problem}") from exc
    except yaml.YAMLError as exc:
        raise SpecError(f"{source}: invalid YAML: {exc}") from exc


def _check_json_shape(document: JSON, source: str) -> None:
    """Depth and size of a parsed JSON document, walked without recursion."""
    count = 0
    stack: list[tuple[JSON, int]] = [(document, 1)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise InputError(source, 0, f"more than {MAX_NODES} values")
        if isinstance(node, dict | list):
            if depth > MAX_DEPTH:
                raise InputError(source, 0, f"nested deeper than {MAX_DEPTH} levels")
            children = node.values() if isinstance(node, dict) else node
            stack.extend((child, depth + 1) for child in children)


def _check_yaml_shape(text: str, source: str, loader: Any) -> None:
    """Refuse YAML nested deeper than :data:`MAX_DEPTH` or holding more than
    :data:`MAX_NODES` values once aliases are expanded, from the parser's event stream
    (iterative and flat: composing such a document first is what exhausts the stack or
    the memory). Each alias counts the size and depth of the node it repeats."""
    # Per open collection: [values so far, deepest level below it, anchor or None].
    open_nodes: list[list[Any]] = []
    anchors: dict[str, tuple[int, int]] = {}  # anchor -> (values, depth below)
    total = 0

    def add(values: int, depth: int, line: int) -> None:
        nonlocal total
        if len(open_nodes) + depth > MAX_DEPTH:
            raise InputError(source, line, f"nested deeper than {MAX_DEPTH} levels")
        if open_nodes:
            parent = open_nodes[-1]
            parent[0] += values
            parent[1] = max(parent[1], depth)
            count = parent[0]
        else:
            total += values
            count = total
        if count > MAX_NODES:
            raise InputError(
                source, line, f"more than {MAX_NODES} values once aliases are expanded"
            )

    for event in yaml.parse(text, Loader=loader):
        line = event.start_mark.line + 1 if event.start_mark else 0
        if isinstance(event, yaml.CollectionStartEvent):
            if len(open_nodes) >= MAX_DEPTH:
                raise InputError(source, line, f"nested deeper than {MAX_DEPTH} levels")
            open_nodes.append([1, 0, event.anchor])
        elif isinstance(event, yaml.CollectionEndEvent):
            values, below, anchor = open_nodes.pop()
            if anchor is not None:
                anchors[anchor] = (values, below + 1)
            add(values, below + 1, line)
        elif isinstance(event, yaml.ScalarEvent):
            if event.anchor is not None:
                anchors[event.anchor] = (1, 0)
            add(1, 0, line)
        elif isinstance(event, yaml.AliasEvent):
            values, depth = anchors.get(event.anchor or "", (1, 0))
            add(values, depth, line)


def escape_pointer_token(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def json_type(value: JSON) -> str:
    """The JSON Schema type name of a decoded JSON value (``bool`` is not an integer)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__


def unescape_pointer_token(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def pointer_join(base: str, *tokens: str | int) -> str:
    return base + "".join("/" + escape_pointer_token(str(t)) for t in tokens)


def resolve_pointer(document: JSON, pointer: str) -> JSON:
    """Return the value at a JSON pointer (``/a/b`` or ``#/a/b``); KeyError names the token."""
    pointer = pointer.removeprefix("#")
    if pointer == "":
        return document
    if not pointer.startswith("/"):
        raise KeyError(f"{pointer!r} is not a JSON pointer (must start with '/')")
    node = document
    for raw in pointer[1:].split("/"):
        token = unescape_pointer_token(raw)
        if isinstance(node, Mapping):
            if token not in node:
                raise KeyError(f"{pointer}: no key {token!r}")
            node = node[token]
        elif isinstance(node, list):
            if not token.isdigit() or int(token) >= len(node):
                raise KeyError(f"{pointer}: no index {token!r}")
            node = node[int(token)]
        else:
            raise KeyError(f"{pointer}: {token!r} goes into a scalar")
    return node


@dataclass(frozen=True)
class Parameter:
    name: str
    location: str  # "path" | "query" | "header" | "cookie"
    required: bool
    schema: JSON
    description: str


@dataclass(frozen=True)
class Response:
    status: str  # "201", "4XX", "default"
    description: str
    schema: JSON | None  # as written (may be a $ref)
    headers: Mapping[str, JSON]
    pointer: str  # JSON pointer of the response object in the document


@dataclass(frozen=True)
class Operation:
    operation_id: str
    method: str  # lower case
    path: str
    summary: str
    description: str
    parameters: tuple[Parameter, ...]
    request_schema: JSON | None  # application/json body schema as written
    request_required: bool
    responses: tuple[Response, ...]
    pointer: str  # JSON pointer of the operation object

    @property
    def success(self) -> Response:
        """The documented 2xx response (each of our operations has exactly one)."""
        for response in self.responses:
            if response.status.startswith("2"):
                return response
        raise SpecError(f"{self.operation_id}: no 2xx response")

    def response_for(self, status: int) -> Response | None:
        """The response documented for ``status``: exact code, then ``4XX``, then ``default``."""
        by_status = {r.status.upper(): r for r in self.responses}
        code = str(status)
        return by_status.get(code) or by_status.get(code[0] + "XX") or by_status.get("DEFAULT")


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
        for op in self.operations:
            if op.operation_id == operation_id:
                return op
        raise KeyError(
            f"no operation {operation_id!r}; known: {[o.operation_id for o in self.operations]}"
        )

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

        Validators are cached per schema (by its JSON text), so hot paths pay once.
        """
        import json

        from jsonschema import Draft202012Validator

        key = json.dumps(schema, sort_keys=True)
        cached = self._validators.get(key)
        if cached is None:
            cached = Draft202012Validator(
                _rebase(schema),
                registry=self._registry,
                format_checker=Draft202012Validator.FORMAT_CHECKER,
            )
            self._validators[key] = cached
        return cached

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


def parse_spec(document: JSON, path: Path) -> Spec:
    """Index an already-parsed OpenAPI document."""
    if not isinstance(document, Mapping):
        raise SpecError(f"{path}: the document must be a mapping, got {type(document).__name__}")
    if not str(document.get("openapi", "")).startswith("3."):
        raise SpecError(f"{path}: /openapi must be a 3.x version, got {document.get('openapi')!r}")
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
