"""A quick "valid" verdict: ``jsonschema_rs`` answers where it provably agrees with ``jsonschema``.

Every validator of the spec is Python ``jsonschema`` (:meth:`Spec.validator`): its errors
carry the paths the schema model cites. Most bodies and answers a run validates are valid, and
for those Python walks the whole schema, ``$ref`` by ``$ref``, for nothing. ``jsonschema_rs``
(schemathesis's own validator, so always installed beside it) gives the same yes ten times
faster, but the two libraries differ at the edges (regular expressions, formats, a float that is
an integer, integers beyond 64 bits). So :func:`surely_valid` answers True only where no edge
is in play, and the caller asks Python otherwise (and always for the errors):

- the schema, followed through its ``$ref``\\s, uses only the keywords of :data:`KEYWORDS`
  (annotations, ``x-`` extensions and the OpenAPI ones no validator reads aside), ``format``
  only with a name no Python checker here knows or one :data:`BOUNDED_FORMATS` makes pass,
  ``multipleOf`` only with integers, and each ``pattern`` only in :data:`SAFE_PATTERN`'s
  syntax, where the Rust engine matches the same strings or fewer (its ``$`` does not match
  before a final newline, Python's does);
- the instance holds only ``None``, booleans, strings, lists, string-keyed dicts and numbers
  of magnitude below 2**53 (exact in a double), no float with an integral value (must-accept
  reads ``1.0`` as no integer, the Rust crate as one), no lone surrogate; the int32 ranges
  the server checks are written into the Rust schema (the int64 ones hold below 2**53).

A True is then Python's True; anything else is "ask Python". Nothing is ever judged valid that
Python would refuse. :meth:`QuickValidity.verdict` (both ways, for the envelopes' placements)
also needs every string read alike by the patterns: none ending in a newline, none holding a
non-ASCII decimal digit (Python's ``\\d`` matches those, the Rust engine's does not).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

from modelarts_kit_wire.recent import Recent

from modelarts_kit_spec.document import JSON, document_nodes, resolve_pointer

__all__ = [
    "BOUNDED_FORMATS",
    "KEYWORDS",
    "SAFE_PATTERN",
    "Disagree",
    "QuickValidity",
    "rust_schema",
]

# Keywords whose meaning both libraries implement alike on the instances admitted below.
KEYWORDS = frozenset(
    {
        "type",
        "enum",
        "const",
        "properties",
        "additionalProperties",
        "required",
        "dependentRequired",
        "minProperties",
        "maxProperties",
        "items",
        "prefixItems",
        "minItems",
        "maxItems",
        "uniqueItems",
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "if",
        "then",
        "else",
        "$ref",
    }
)
# Read by no validator: annotations, and the OpenAPI words beside JSON Schema.
ANNOTATIONS = frozenset(
    {
        "title",
        "description",
        "default",
        "examples",
        "example",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$comment",
        "nullable",
        "discriminator",
        "xml",
        "externalDocs",
    }
)
# Formats the Rust schema checks as the server's checker does (int32: its range is written
# in), whose Python check passes on every admitted number (int64, below 2**53), or that no
# Python checker here knows ("double", "float"; the spec's own checker knows no int32 either).
BOUNDED_FORMATS = frozenset({"int32", "int64", "double", "float"})
INTEGER_BOUND = 2**53  # exact in a double: the Rust crate compares as Python does
INT32 = 2**31
MAX_DEPTH = 64  # deeper instances are left to Python
RESOLVED_REFS = 1024  # lookups kept per validator class (a document has fewer references)
# Anchors at the ends only, literal characters, escaped punctuation, \d, classes of ASCII
# ranges (never negated: a Rust \d may be ASCII only, so only where fewer matches is
# stricter), groups, alternatives and quantifiers: Python's re and the Rust engine agree
# there, but for Python's "$" also matching before a final newline (Python yes, Rust no).
_LITERAL = r"[A-Za-z0-9 _\-/:@,=]|\\[.\-_/:\\()\[\]{}+*?|^$]|\\d"
_CLASS = r"\[(?:[A-Za-z0-9 _\-.:/]|\\[d.\-_/])+\]"
_ATOM = rf"(?:{_LITERAL}|{_CLASS})"
_QUANTIFIER = r"(?:[+*?]|\{\d+(?:,\d*)?\})?"
# A pattern without its end anchors, in that syntax.
SAFE_PATTERN = re.compile(rf"(?:{_ATOM}{_QUANTIFIER}|\(\?:|[()|]{_QUANTIFIER})*")


def _safe_pattern(pattern: Any) -> bool:
    if not isinstance(pattern, str):
        return False
    body = pattern.removeprefix("^")
    body = body[:-1] if body.endswith("$") and not body.endswith("\\$") else body
    return SAFE_PATTERN.fullmatch(body) is not None


class Disagree(Exception):
    """The schema uses something on which the two libraries may disagree."""


def rust_schema(document: JSON, schema: JSON, *, integer_ranges: bool) -> JSON:
    """``schema`` as the Rust crate gets it: every ``$ref`` inlined (``{"$ref": X, ...}`` is
    ``{"allOf": [X], ...}``, as 2020-12 applies a ``$ref`` beside its siblings) and, with
    ``integer_ranges``, each int32 node bounded as the server's format checker bounds it.
    Raises :class:`Disagree` where the libraries may disagree (see the module), or on a
    recursive ``$ref``."""
    return _rust_node(document, schema, integer_ranges, ())


def _rust_node(document: JSON, node: JSON, ranges: bool, refs: tuple[str, ...]) -> JSON:
    if isinstance(node, bool):
        return node
    if not isinstance(node, Mapping):
        raise Disagree(f"not a schema: {node!r:.40}")
    out: dict[str, JSON] = {}
    inlined: list[JSON] = []
    for key, value in node.items():
        if key in ANNOTATIONS or key.startswith("x-"):
            continue
        if key not in KEYWORDS:
            raise Disagree(key)
        if key == "$ref":
            if not isinstance(value, str) or not value.startswith("#/") or "%" in value:
                raise Disagree(f"$ref {value!r:.60}")
            if value in refs:
                raise Disagree(f"recursive $ref {value}")
            try:
                target = resolve_pointer(document, value[1:])
            except (KeyError, IndexError, ValueError, TypeError) as exc:
                raise Disagree(f"$ref {value}") from exc
            inlined.append(_rust_node(document, target, ranges, (*refs, value)))
        elif key == "properties":
            if not isinstance(value, Mapping):
                raise Disagree("properties")
            out[key] = {
                name: _rust_node(document, sub, ranges, refs) for name, sub in value.items()
            }
        elif key in ("allOf", "anyOf", "oneOf", "prefixItems"):
            if not isinstance(value, list):
                raise Disagree(key)
            out[key] = [_rust_node(document, sub, ranges, refs) for sub in value]
        elif key in ("items", "additionalProperties", "not", "if", "then", "else"):
            out[key] = _rust_node(document, value, ranges, refs)
        elif key == "pattern" and not _safe_pattern(value):
            raise Disagree(f"pattern {value!r:.60}")
        elif key == "format":
            if value not in BOUNDED_FORMATS:
                raise Disagree(f"format {value!r:.40}")
            if ranges and value == "int32":
                inlined.append({"minimum": -INT32, "exclusiveMaximum": INT32})
        elif key == "multipleOf" and (isinstance(value, bool) or not isinstance(value, int)):
            raise Disagree("multipleOf")
        else:
            out[key] = value
    if inlined:
        out["allOf"] = [*inlined, *out.get("allOf", [])]
    return out


def _plain(instance: Any, depth: int = 0, alike: bool = False) -> bool:
    """Whether ``instance`` is JSON data on which both libraries agree: numbers of magnitude
    below 2**53 (exact in a double), no float with an integral value (``1.0``: an integer to
    JSON Schema and the Rust crate, none to must-accept), string keys, bounded depth; with
    ``alike``, also no string value a safe pattern reads differently (:func:`_same_strings`)."""
    # Loops, not all() over generators, and ASCII strings answered inline: this walks every
    # body a run validates, and most of a body is strings.
    if isinstance(instance, dict):
        if depth > MAX_DEPTH:
            return False
        for key, value in instance.items():
            if not (isinstance(key, str) and (key.isascii() or _unicode(key))):
                return False
            if isinstance(value, str) and value.isascii():
                if alike and value.endswith("\n"):
                    return False
                continue
            if not _plain(value, depth + 1, alike):
                return False
        return True
    if isinstance(instance, list):
        if depth > MAX_DEPTH:
            return False
        for item in instance:
            if isinstance(item, str) and item.isascii():
                if alike and item.endswith("\n"):
                    return False
                continue
            if not _plain(item, depth + 1, alike):
                return False
        return True
    return _plain_scalar(instance) and (not alike or _same_strings(instance))


def _plain_scalar(instance: Any) -> bool:
    if isinstance(instance, str):
        return _unicode(instance)
    if instance is None or isinstance(instance, bool):
        return True
    if isinstance(instance, int):
        return -INTEGER_BOUND < instance < INTEGER_BOUND
    if isinstance(instance, float):
        finite = math.isfinite(instance) and -INTEGER_BOUND < instance < INTEGER_BOUND
        return finite and not instance.is_integer()
    return False  # a tuple, bytes, anything else


def _unicode(text: str) -> bool:
    """Whether ``text`` is Unicode text the Rust crate takes as it is (no lone surrogate)."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _same_strings(instance: Any) -> bool:
    """Whether no string value of ``instance`` is one a safe pattern reads differently: Python's
    ``$`` also matches before a final newline, its ``\\d`` also matches non-ASCII digits."""
    if isinstance(instance, str):
        return not instance.endswith("\n") and (
            instance.isascii() or not any(c.isdecimal() for c in instance)
        )
    if isinstance(instance, list):
        return all(_same_strings(item) for item in instance)
    if isinstance(instance, dict):
        return all(_same_strings(value) for value in instance.values())
    return True


def _read_alike(instance: Any) -> bool:
    """``_plain(instance) and _same_strings(instance)`` in one walk (a verdict both ways asks
    both of every body it judges)."""
    return _plain(instance, alike=True)


class QuickValidity:
    """The Rust validators of one document's schemas (cached by the schema's JSON text): one
    with the int32 ranges the reference server checks (for :meth:`surely_valid`, then also
    valid for the spec's own validator, which checks no range), one without (for
    :meth:`verdict`, exactly the spec's validator)."""

    def __init__(self, document: JSON) -> None:
        self._document = document
        self._validators: dict[tuple[str, bool], Any] = {}
        # The document's own nodes (never changed once loaded) find their validators by
        # identity: no JSON text of the schema per call on the hot paths.
        self._nodes: dict[int, JSON] | None = None
        self._by_node: dict[tuple[int, bool], Any] = {}

    def surely_valid(self, schema: JSON, instance: Any) -> bool:
        """True only where ``instance`` is provably valid for ``schema``, for the spec's
        validator and for the same validator checking the int32/int64 ranges."""
        validator = self._validator(schema, ranges=True)
        if validator is None:
            return False
        # The crate's answer first: a "no" (most of the values a refused body's walk asks
        # about) needs no walk of the instance; only a "yes" must hold on plain data.
        return _is_valid(validator, instance) is True and _plain(instance)

    def verdict(self, schema: JSON, instance: Any) -> bool | None:
        """The spec's validator's ``is_valid`` where the Rust crate's answer is provably the
        same either way (also the strings: see :func:`_same_strings`); None: ask Python."""
        validator = self._validator(schema, ranges=False)
        if validator is None or not _read_alike(instance):
            return None
        return _is_valid(validator, instance)

    def pruning(self, base: Any) -> Any:
        """The jsonschema validator class ``base`` whose ``properties`` and ``items`` do not
        descend into a member or item that :meth:`surely_valid` proves valid for its schema.

        Python's walk of such a value yields no error (its verdict there is "valid", for the
        spec's validator and for the server's, which checks the int32/int64 ranges), so every
        error, its order and every verdict stay Python's own; only the walk of the valid parts
        of a body (most of an invalid one) is skipped. Scalars are left to Python, which checks
        them faster than a call to the Rust crate."""
        from jsonschema import validators

        properties = base.VALIDATORS["properties"]
        items = base.VALIDATORS["items"]
        skip = self._skippable

        def pruned_properties(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
            if validator.is_type(instance, "object") and isinstance(value, Mapping):
                value = {
                    name: sub
                    for name, sub in value.items()
                    if name in instance and not skip(sub, instance[name])
                }
            return properties(validator, value, instance, schema)

        def pruned_items(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
            if isinstance(value, Mapping) and validator.is_type(instance, "array"):
                rest = instance[len(schema.get("prefixItems", [])) :]
                if rest and all(skip(value, item) for item in rest):
                    return ()
            return items(validator, value, instance, schema)

        keywords = {"properties": pruned_properties, "items": pruned_items}
        if not self._reads_dynamic_scope(base):
            keywords["$ref"] = self._resolved_once(base.VALIDATORS["$ref"])
        return validators.extend(base, keywords)

    def _reads_dynamic_scope(self, base: Any) -> bool:
        """Whether a node of the document holds a keyword of ``base`` that reads a reference's
        dynamic scope (``$dynamicRef``, the legacy ``$recursiveRef``)."""
        from jsonschema import _keywords, _legacy_keywords

        dynamic = (_keywords.dynamicRef, _legacy_keywords.recursiveRef)
        names = {name for name, check in base.VALIDATORS.items() if check in dynamic}
        if self._nodes is None:
            self._nodes = document_nodes(self._document)
        return any(
            isinstance(node, dict) and not names.isdisjoint(node) for node in self._nodes.values()
        )

    @staticmethod
    def _resolved_once(ref: Any) -> Any:
        """The ``$ref`` keyword, each reference looked up once per base URI: a lookup (a third
        of Python's walk of a body) depends only on the two, but for the dynamic scope it
        carries, which only ``$dynamicRef`` reads (a document using it keeps every lookup)."""
        from referencing.exceptions import Unresolvable

        resolved: Recent[tuple[str, str], Any] = Recent(RESOLVED_REFS)

        def resolved_ref(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
            if validator._ref_resolver is not None:  # the deprecated RefResolver: as it was
                return ref(validator, value, instance, schema)
            key = (validator._resolver._base_uri, value)
            found = resolved.get(key)
            if found is None:
                try:
                    found = validator._resolver.lookup(value)
                except Unresolvable:  # jsonschema raises its own error for it
                    return ref(validator, value, instance, schema)
                resolved.put(key, found)
            return validator.descend(instance, found.contents, resolver=found.resolver)

        return resolved_ref

    def _skippable(self, schema: JSON, instance: Any) -> bool:
        """Whether ``instance``, a list or an object, is surely valid for the node ``schema``."""
        return isinstance(instance, dict | list) and self.surely_valid(schema, instance)

    def _validator(self, schema: JSON, *, ranges: bool) -> Any:
        if self._nodes is None:
            self._nodes = document_nodes(self._document)
        own = self._nodes.get(id(schema)) is schema
        if own and (id(schema), ranges) in self._by_node:
            return self._by_node[id(schema), ranges]
        key = (json.dumps(schema, sort_keys=True), ranges)
        if key not in self._validators:
            self._validators[key] = self._build(schema, ranges)
        if own:
            self._by_node[id(schema), ranges] = self._validators[key]
        return self._validators[key]

    def _build(self, schema: JSON, ranges: bool) -> Any:
        import jsonschema_rs

        try:
            prepared = rust_schema(self._document, schema, integer_ranges=ranges)
            return jsonschema_rs.Draft202012Validator(prepared, validate_formats=False)
        except (Disagree, ValueError, TypeError, jsonschema_rs.ReferencingError):
            return None  # Python alone


def _is_valid(validator: Any, instance: Any) -> bool | None:
    try:
        return bool(validator.is_valid(instance))
    except (ValueError, TypeError, OverflowError):
        return None
