"""Request validation against the spec itself (no hand-copied rules).

The JSON Schemas come from the loaded spec (``Operation.request_schema`` and each path
parameter's schema) and are checked with ``Spec.validator``. Failures become vendor errors:

- not JSON, not UTF-8, a non-JSON ``Content-Type``, a non-finite number, a lone surrogate:
  ``malformed-body`` (:func:`parse_json_body`);
- a schema violation: ``invalid-parameter`` whose message names the field (JSON pointer), the
  value (truncated; redacted where the spec marks it secret, ``x-modelarts-sensitive``, read
  through ``modelarts_kit_spec.sensitive``, and under secret-looking names) and the rule
  (:func:`validate_instance`, :func:`describe_violation`).

Functions: :func:`parse_json_body`, :func:`validate_instance`, :func:`validate_path_parameters`,
:func:`best_violation`, :func:`describe_violation`, :func:`apply_defaults`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from jsonschema import FormatChecker
from jsonschema.exceptions import WEAK_MATCHES, ValidationError, best_match, by_relevance
from jsonschema.protocols import Validator
from modelarts_kit_spec import Operation, Spec
from modelarts_kit_spec.load import escape_pointer_token
from modelarts_kit_wire.wirejson import WireJsonError, decode_wire_json

from modelarts_kit_server import errors
from modelarts_kit_server.errors import ApiError

__all__ = [
    "apply_defaults",
    "best_violation",
    "describe_violation",
    "ignored_fields",
    "is_json_media_type",
    "openapi_validator",
    "parse_json_body",
    "pointer",
    "redacted_value",
    "validate_instance",
    "validate_path_parameters",
]

MAX_VALUE_CHARS = 60
MAX_DEPTH = 64
# Which values are secret is the spec's word (x-modelarts-sensitive). Beyond it, a value under
# a secret-looking name is not echoed either: free-form maps (annotations, labels) have keys
# the spec cannot know.
SECRET_NAME = re.compile(
    r"(password|passwd|secret|token|credential|private|(^|[_-])sk$|(^|[_-])ak$|access[_-]?key)",
    re.IGNORECASE,
)
# Whether the value at a path of the body is secret (or holds a secret), as the spec says.
SecretTest = Callable[[Sequence[str | int]], bool]


def is_json_media_type(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    structured = media.startswith("application/") and media.endswith("+json")
    return media == "application/json" or structured


def parse_json_body(raw: bytes, content_type: str | None) -> Any:
    """Decode a JSON request body; ``malformed-body`` saying why it is not valid JSON."""
    if content_type is not None and content_type.strip() and not is_json_media_type(content_type):
        shown = content_type[:MAX_VALUE_CHARS]
        raise ApiError(
            errors.INVALID_JSON_BODY,
            detail=f"Content-Type must be application/json, got {shown!r}.",
        )
    if not raw.strip():
        raise ApiError(errors.INVALID_JSON_BODY, detail="The request body is empty.")
    try:
        return decode_wire_json(raw, max_bytes=len(raw), max_depth=MAX_DEPTH)
    except WireJsonError as exc:
        detail = f"The body is not valid JSON: {exc.reason}."
        raise ApiError(errors.INVALID_JSON_BODY, detail=detail) from None


def pointer(path: Iterable[str | int]) -> str:
    """JSON pointer of a path of keys/indexes ("" is the root, shown as "/")."""
    text = "".join(f"/{escape_pointer_token(str(part))}" for part in path)
    return text or "/"


def ignored_fields(sent: Any, kept: Any, path: tuple[str | int, ...] = ()) -> list[str]:
    """JSON pointers of the object members of ``sent`` that ``kept`` (``sent`` with the fields
    the spec does not have left out) no longer has: the fields a lenient server ignored."""
    if len(path) > MAX_DEPTH:
        return []
    if isinstance(sent, Mapping) and isinstance(kept, Mapping):
        found: list[str] = []
        for key, value in sent.items():
            if key in kept:
                found += ignored_fields(value, kept[key], (*path, key))
            else:
                found.append(pointer((*path, key)))
        return found
    if isinstance(sent, list) and isinstance(kept, list) and len(sent) == len(kept):
        return [
            p
            for i, pair in enumerate(zip(sent, kept, strict=True))
            for p in ignored_fields(*pair, (*path, i))
        ]
    return []


def _is_secret_name(path: Iterable[str | int]) -> bool:
    return any(SECRET_NAME.search(str(p)) for p in path)


def redacted_value(value: Any, path: Iterable[str | int], secret: bool = False) -> str:
    """A short, safe rendering of a value for an error message (``secret``: the spec marks
    it, or something under it, as secret)."""
    if secret or _is_secret_name(path):
        return "<redacted>"
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) > MAX_VALUE_CHARS:
        text = text[: MAX_VALUE_CHARS - 3] + "..."
    return text


def _missing(error: ValidationError) -> str:
    names = [n for n in error.validator_value if n not in error.instance]
    return str(names[0]) if names else "?"


def _rule(error: ValidationError) -> str:
    keyword = str(error.validator)
    expected = error.validator_value
    if keyword == "required":
        missing = [name for name in expected if name not in error.instance]
        return f"required property {missing[0]!r} is missing" if missing else "required"
    if keyword == "additionalProperties":
        return "additional properties are not allowed" + (
            f" ({error.message.split('(')[-1]}" if "(" in error.message else ""
        )
    if keyword == "type":
        return f"must be of type {expected if isinstance(expected, str) else ' or '.join(expected)}"
    if keyword == "enum":
        return f"must be one of {json.dumps(expected)[:200]}"
    if keyword == "const":
        return f"must be {json.dumps(expected)[:100]}"
    if keyword == "pattern":
        return f"must match pattern {expected!r}"
    if keyword in (
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "minProperties",
        "maxProperties",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "uniqueItems",
        "format",
    ):
        return f"{keyword} {json.dumps(expected)}"
    if keyword in ("oneOf", "anyOf") and error.context:
        branches = [e for e in error.context if e.validator == "required"]
        if len(branches) == len(error.context):
            names = [repr(_missing(e)) for e in branches]
            how = "exactly one" if keyword == "oneOf" else "at least one"
            return f"must have {how} of the properties {' or '.join(dict.fromkeys(names))}"
    if keyword in ("oneOf", "anyOf"):
        how_many = "exactly one" if keyword == "oneOf" else "at least one"
        return f"must match {how_many} of the allowed shapes"
    if keyword == "not":
        return "must not match the forbidden shape"
    return f"{keyword} {json.dumps(expected, default=str)[:100]}"


def describe_violation(
    error: ValidationError, prefix: Iterable[str | int] = (), secret: SecretTest | None = None
) -> str:
    """``<pointer>: value <value> violates <rule>`` for one schema violation; ``secret`` says
    which values of the validated document (paths without ``prefix``) must not be shown."""
    path = [*prefix, *error.absolute_path]
    where = pointer(path)
    if error.validator == "required":
        return f"{where}: {_rule(error)}"
    if error.validator == "additionalProperties" and isinstance(error.instance, Mapping):
        allowed = set((error.schema or {}).get("properties", {}))
        extra = sorted(k for k in error.instance if k not in allowed)
        if extra:
            name = extra[0]
            return f"{pointer([*path, name])}: property {name!r} is not allowed here"
    hidden = secret is not None and secret(list(error.absolute_path))
    return f"{where}: value {redacted_value(error.instance, path, hidden)} violates {_rule(error)}"


# A wrong type explains more than the shapes it then fails to match ("not", "anyOf").
RELEVANCE = by_relevance(weak=WEAK_MATCHES | {"not"}, strong=frozenset({"type"}))


def best_violation(errors_: Iterable[ValidationError]) -> ValidationError | None:
    """The most relevant violation, chosen deterministically."""
    collected = sorted(errors_, key=lambda e: (list(map(str, e.absolute_path)), str(e.validator)))
    return best_match(collected, key=RELEVANCE) if collected else None


# The OpenAPI format registry gives int32/int64 their ranges; jsonschema's checker does not
# know them, so the spec's validators are evolved with a checker that does.
OPENAPI_FORMATS = FormatChecker()
INTEGER_RANGES = {"int32": 2**31, "int64": 2**63}


def _integer_format(name: str) -> None:
    bound = INTEGER_RANGES[name]

    def check(instance: object) -> bool:
        if isinstance(instance, bool) or not isinstance(instance, int | float):
            return True
        return -bound <= instance < bound

    OPENAPI_FORMATS.checks(name)(check)


for _name in INTEGER_RANGES:
    _integer_format(_name)

_validators: dict[int, tuple[Validator, Validator]] = {}


def openapi_validator(spec: Spec, schema: Any) -> Validator:
    """``spec.validator(schema)``, also checking the OpenAPI integer formats."""
    base = spec.validator(schema)
    cached = _validators.get(id(base))
    if cached is None or cached[0] is not base:
        cached = (base, base.evolve(format_checker=OPENAPI_FORMATS))
        _validators[id(base)] = cached
    return cached[1]


def validate_instance(spec: Spec, schema: Any, instance: Any) -> ValidationError | None:
    """The best violation of ``schema`` by ``instance``, or None when it is valid."""
    if spec.surely_valid(schema, instance):
        return None
    return best_violation(openapi_validator(spec, schema).iter_errors(instance))


def validate_path_parameters(spec: Spec, operation: Operation, values: Mapping[str, str]) -> None:
    """``invalid-parameter`` when a path parameter violates its schema in ``spec`` (the
    envelope of the server's end: a pattern only the ledger decided binds the strict end); for an
    operation whose responses list no ``invalid-parameter`` (the engines operation documents
    no 400), ``path-not-found``: a path whose parameter breaks its pattern is not a path of the
    operation, and the server answers only what the operation documents."""
    listed = spec.meaning.errors.meanings(operation.operation_id)
    meaning = errors.INVALID_PARAM if errors.INVALID_PARAM in listed else errors.PATH_NOT_FOUND
    # ``spec`` may be an envelope: its own operation carries its parameters' schemas.
    for parameter in spec.operation(operation.operation_id).parameters:
        if parameter.location != "path" or parameter.name not in values:
            continue
        violation = validate_instance(spec, parameter.schema, values[parameter.name])
        if violation is not None:
            value = redacted_value(values[parameter.name], [parameter.name])
            raise ApiError(
                meaning,
                f"path parameter {parameter.name}: value {value} violates {_rule(violation)}",
            )


def apply_defaults(spec: Spec, schema: Any, instance: Any) -> Any:
    """A copy of ``instance`` with each absent property that has a ``default`` in the spec filled.

    Only objects the client sent are filled (absent sub-objects are not invented); values the
    client sent are never changed. ``$ref`` and ``allOf`` are followed (the spec's walker).
    """
    if not isinstance(schema, Mapping):
        return instance
    view = spec.walker.shared_view(schema)  # read only
    if isinstance(instance, dict):
        result = dict(instance)
        for name, subschema in view.properties.items():
            if name in result:
                result[name] = apply_defaults(spec, subschema, result[name])
                continue
            default = spec.walker.shared_view(subschema).schema.get("default", _MISSING)
            if default is not _MISSING:
                result[name] = json.loads(json.dumps(default))
        return result
    if isinstance(instance, list) and view.items is not None:
        return [apply_defaults(spec, view.items, item) for item in instance]
    return instance


_MISSING: Any = object()
