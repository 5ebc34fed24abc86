"""Split the spec's schemas into request-side and response-side model schemas.

The generated client validates what it sends strictly and reads what it receives
tolerantly, so one spec schema can need two models. This module decides, for every schema
the operations reach, which model it becomes on which side and under what name; the
result is a plain ``components/schemas`` mapping that datamodel-code-generator turns into
code without further decisions:

* every object schema is a named model (inline objects are hoisted and named after their
  parent model and property, so names never depend on the order of unrelated schemas);
* non-object ``$ref`` targets (enums, constrained strings, arrays) are inlined;
* request side: objects open unless the spec closes them (``additionalProperties: false``):
  a caller may send a field the vendor added before the spec has it, and it is sent as
  given; readOnly properties removed, enums closed;
* response side: ``additionalProperties: true`` (unknown fields are kept), writeOnly
  properties removed, enums open (a value the spec does not know is still accepted and
  visible), OpenAPI 3.0 ``nullable`` turned into JSON Schema ``null``;
* request side: ``not: {required}`` and ``dependentRequired``, which datamodel-code-generator
  drops, become field rules of the model (:mod:`modelarts_kit_generator.rules`,
  :attr:`ModelPlan.rules`), checked by a model validator;
* open enums (``modelarts_kit_spec.values``: ``anyOf: [{enum}, {type: string}]``) are open on
  both sides: ``Literal[documented values] | str``;
* a component used on both sides gets the plain name on the response side and an
  ``Input`` suffix on the request side;
* only the JSON Schema keywords in :data:`MODEL_KEYWORDS` reach datamodel-code-generator:
  every other key is dropped, above all its own extensions (``x-python-import``,
  ``x-python-type``, ``customTypePath``, ``customBasePath``, ``x-enum-varnames``, ...),
  which would let a spec choose what the generated code imports or runs;
* prose (``description``, ``title``) is replaced by placeholders (:attr:`ModelPlan.texts`)
  that the generator substitutes, through its own escaping, in the code
  datamodel-code-generator returns.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from modelarts_kit_spec import Spec, SpecError
from modelarts_kit_spec.load import escape_pointer_token
from modelarts_kit_spec.values import DocumentedValues, documented_values

from modelarts_kit_generator.escaping import shorten
from modelarts_kit_generator.naming import pascal_case
from modelarts_kit_generator.rules import FieldRule, field_rules

__all__ = [
    "DESCRIPTION_WIDTH",
    "MODEL_KEYWORDS",
    "PLACEHOLDER",
    "ModelPlan",
    "Side",
    "referenced_models",
]

JSON = Any

# The keywords datamodel-code-generator is given (an allowlist: a key it would honour that
# is not here, such as its x-python-* extensions, never reaches it).
MODEL_KEYWORDS = frozenset(
    {
        "$ref",
        "additionalProperties",
        "allOf",
        "anyOf",
        "const",
        "default",
        "dependentRequired",
        "description",
        "enum",
        "exclusiveMaximum",
        "exclusiveMinimum",
        "format",
        "items",
        "maxItems",
        "maxLength",
        "maxProperties",
        "maximum",
        "minItems",
        "minLength",
        "minProperties",
        "minimum",
        "multipleOf",
        "not",
        "nullable",
        "oneOf",
        "pattern",
        "properties",
        "readOnly",
        "required",
        "title",
        "type",
        "uniqueItems",
        "writeOnly",
    }
)
_PROSE_KEYS = ("description", "title")
_COMBINATORS = ("allOf", "anyOf", "oneOf")
DESCRIPTION_WIDTH = 84  # docstrings of nested fields stay under the 100-column limit
# Stands for one prose string in the schemas given to datamodel-code-generator.
PLACEHOLDER = re.compile(r"MKT[0-9a-f]{12}N[0-9]+X")
# Carries a converted node's field rules up to the model that owns them; never reaches
# datamodel-code-generator (taken off when the model is registered).
_RULES = "x-modelarts-kit-field-rules"


class Side(Enum):
    REQUEST = "request"
    RESPONSE = "response"


def is_object_schema(node: JSON) -> bool:
    """An object with declared properties becomes a model; a bare map stays ``dict``."""
    if not isinstance(node, Mapping):
        return False
    if "properties" in node:
        return True
    if _is_union_of_values(node):
        return False
    return any(key in node for key in _COMBINATORS) and node.get("type") in (None, "object")


def _is_union_of_values(node: Mapping[str, JSON]) -> bool:
    """``anyOf``/``oneOf`` of typed shapes none of which declares properties (a map or a list
    of maps): one value of several shapes, a field's union, not a model of its own."""
    if "type" in node or "allOf" in node:
        return False
    branches = [part for key in ("anyOf", "oneOf") for part in node.get(key) or ()]
    return bool(branches) and all(
        isinstance(part, Mapping) and "type" in part and "properties" not in part
        for part in branches
    )


@dataclass
class ModelPlan:
    """The model schemas for one spec, named per side, ready for datamodel-code-generator."""

    spec: Spec
    schemas: dict[str, JSON] = field(default_factory=dict)
    request_models: set[str] = field(default_factory=set)
    response_models: set[str] = field(default_factory=set)
    texts: dict[str, str] = field(default_factory=dict)  # placeholder -> spec prose
    # request model name -> the field rules its validator checks (see rules.py)
    rules: dict[str, tuple[FieldRule, ...]] = field(default_factory=dict)
    _component_names: dict[tuple[str, Side], str] = field(default_factory=dict)
    _shared_components: frozenset[str] = frozenset()
    _text_prefix: str = ""

    def prepare(
        self, request_roots: list[tuple[str, JSON]], response_roots: list[tuple[str, JSON]]
    ) -> None:
        """Record which components each side reaches (decides the ``Input`` suffix).

        Roots are ``(JSON pointer, schema)`` pairs; a ``$ref`` that does not resolve is
        reported with the pointer of the schema that holds it.
        """
        request_refs = set(self._reachable_components(request_roots))
        response_refs = set(self._reachable_components(response_roots))
        self._shared_components = frozenset(request_refs & response_refs)

    def _placeholder(self, text: str) -> str:
        """A placeholder for ``text``; the prefix is derived from the document, so no string
        in it can be mistaken for a placeholder."""
        if not self._text_prefix:
            digest = hashlib.sha256(
                json.dumps(self.spec.document, sort_keys=True, default=str).encode()
            ).hexdigest()
            self._text_prefix = f"MKT{digest[:12]}N"
        key = f"{self._text_prefix}{len(self.texts)}X"
        self.texts[key] = text
        return key

    def model(self, node: JSON, side: Side, name: str, pointer: str) -> str:
        """Register ``node`` as a top-level model (named ``name`` unless it is a component
        ref, which keeps the component's name) and return the model's name."""
        target = self._follow(node, pointer)
        if isinstance(node, Mapping) and "$ref" in node and is_object_schema(target):
            return self._component(str(node["$ref"]), side)
        converted = self._convert(node, side, name, pointer, top=True)
        return self._register(name, converted, side)

    @property
    def all_names(self) -> list[str]:
        return sorted(self.schemas)

    def references(self, names: Iterable[str]) -> set[str]:
        """``names`` and every model their schemas refer to, directly or through others."""
        found: set[str] = set()
        pending = list(names)
        while pending:
            name = pending.pop()
            if name in found:
                continue
            found.add(name)
            pending.extend(referenced_models(self.schemas[name]))
        return found

    def body_only(self, bodies: Iterable[str]) -> set[str]:
        """The models only request bodies reach: the models ``bodies`` refer to that no
        other model (response, parameters) refers to. A model both reach is not among them."""
        from_bodies = self.references(bodies)
        elsewhere = self.references(set(self.schemas) - from_bodies)
        return from_bodies - elsewhere

    # -- internals -------------------------------------------------------------------

    def _follow(self, node: JSON, pointer: str) -> JSON:
        try:
            return self.spec.deref(node)
        except (KeyError, SpecError) as exc:
            raise SpecError(f"{pointer}: unresolvable $ref: {exc}") from exc

    def _reachable_components(self, roots: list[tuple[str, JSON]]) -> Iterator[str]:
        seen: set[str] = set()
        stack = list(roots)
        while stack:
            pointer, node = stack.pop()
            if isinstance(node, Mapping):
                ref = node.get("$ref")
                if isinstance(ref, str) and ref not in seen:
                    seen.add(ref)
                    target = self._resolve(ref, pointer)
                    if is_object_schema(self.spec.deref(target)):
                        yield ref
                    stack.append((ref.removeprefix("#"), target))
                stack.extend(
                    (f"{pointer}/{escape_pointer_token(str(key))}", value)
                    for key, value in node.items()
                    if key != "$ref"
                )
            elif isinstance(node, list):
                stack.extend((f"{pointer}/{index}", value) for index, value in enumerate(node))

    def _resolve(self, ref: str, pointer: str) -> JSON:
        if not ref.startswith("#/"):
            raise SpecError(
                f"{pointer}/$ref: {ref!r} is not a local reference (rule: the generator "
                "reads one self-contained document)"
            )
        try:
            return self.spec.at(ref)
        except KeyError as exc:
            raise SpecError(
                f"{pointer}/$ref: {ref!r} does not resolve ({exc.args[0]}; rule: every $ref "
                "must point into the document)"
            ) from None

    def _component(self, ref: str, side: Side) -> str:
        key = (ref, side)
        name = self._component_names.get(key)
        if name is not None:
            return name
        base = pascal_case(ref.rsplit("/", 1)[-1])
        if side is Side.REQUEST and ref in self._shared_components:
            base += "Input"
        name = self._unique(base)
        self._component_names[key] = name
        # Reserve the name before converting: a recursive schema refers to itself.
        self.schemas[name] = {}
        converted = self._convert(self.spec.at(ref), side, name, ref.removeprefix("#"), top=True)
        self._store(name, converted, side)
        return name

    def _register(self, name: str, schema: JSON, side: Side) -> str:
        unique = self._unique(name)
        self._store(unique, schema, side)
        return unique

    def _store(self, name: str, schema: JSON, side: Side) -> None:
        if isinstance(schema, dict):
            rules = schema.pop(_RULES, ())
            if rules:
                self.rules[name] = tuple(rules)
        self.schemas[name] = schema
        self._side_set(side).add(name)

    def _unique(self, name: str) -> str:
        candidate, number = name, 2
        while candidate in self.schemas:
            candidate = f"{name}{number}"
            number += 1
        return candidate

    def _side_set(self, side: Side) -> set[str]:
        return self.request_models if side is Side.REQUEST else self.response_models

    def _convert(self, node: JSON, side: Side, name: str, pointer: str, *, top: bool) -> JSON:
        if isinstance(node, bool):
            return node
        if not isinstance(node, Mapping):
            raise SpecError(f"{pointer}: a schema must be an object, got {type(node).__name__}")
        if "$ref" in node:
            ref = str(node["$ref"])
            target = self._follow(node, pointer)
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            if is_object_schema(target):
                result: JSON = {"$ref": f"#/components/schemas/{self._component(ref, side)}"}
                if isinstance(siblings.get("description"), str):
                    result = {
                        "allOf": [result],
                        "description": self._placeholder(siblings["description"]),
                    }
                return result
            merged = {**target, **siblings}
            return self._convert(merged, side, name, ref.removeprefix("#"), top=top)
        split = _split_by_type(node)
        if split is not None:
            # One value of several shapes, not a model of its own: never hoisted.
            shapes: dict[str, JSON] = {
                "anyOf": [
                    self._convert(branch, side, f"{name}Option{index + 1}", pointer, top=False)
                    for index, branch in enumerate(split)
                ]
            }
            for key in _PROSE_KEYS:
                if isinstance(node.get(key), str):
                    shapes[key] = self._placeholder(node[key])
            if "default" in node:
                shapes["default"] = node["default"]
            return shapes
        documented = documented_values(node)
        if documented is not None and (documented.open or side is Side.RESPONSE):
            return self._open_enum(node, documented)
        if not top and is_object_schema(node):
            hoisted = self._convert(node, side, name, pointer, top=True)
            return {"$ref": f"#/components/schemas/{self._register(name, hoisted, side)}"}

        rules: list[FieldRule] = []
        if side is Side.REQUEST and top:
            stated, node = field_rules(node, pointer, self.spec.schema_model)
            rules.extend(stated)
        out: dict[str, JSON] = {}
        for key, value in node.items():
            if key not in MODEL_KEYWORDS or key == "nullable":
                continue
            if key == "properties":
                out[key] = self._properties(value, side, name, pointer)
            elif key == "items":
                out[key] = self._convert(value, side, name + "Item", pointer + "/items", top=False)
            elif key == "additionalProperties" and isinstance(value, Mapping):
                out[key] = self._convert(
                    value, side, name + "Value", pointer + "/additionalProperties", top=False
                )
            elif key in _COMBINATORS:
                out[key] = [
                    self._combinator_part(key, index, part, side, name, pointer)
                    for index, part in enumerate(value)
                ]
                # An inline allOf part extends this model: its rules are this model's.
                for part in out[key]:
                    if isinstance(part, dict):
                        rules.extend(part.pop(_RULES, ()))
            elif key == "not":
                out[key] = self._convert(value, side, name + "Not", pointer + "/not", top=False)
            elif key in _PROSE_KEYS:
                if isinstance(value, str):
                    out[key] = self._placeholder(value)
            elif key == "pattern":
                out[key] = _checked_pattern(value, f"{pointer}/pattern")
            elif key == "required" and "properties" in node:
                out[key] = [
                    prop for prop in value if not self._dropped(node["properties"].get(prop), side)
                ]
            else:
                out[key] = value
        if "properties" in node or out.get("type") == "object":
            # Open unless the spec closes it; a response is never closed (tolerant reading).
            closed_response = side is Side.RESPONSE and not isinstance(
                node.get("additionalProperties"), Mapping
            )
            if "additionalProperties" not in node or closed_response:
                out["additionalProperties"] = True
        if node.get("nullable") is True:
            out = {"anyOf": [out, {"type": "null"}]}
        if rules:
            out[_RULES] = rules
        return out

    def _combinator_part(
        self, key: str, index: int, part: JSON, side: Side, name: str, pointer: str
    ) -> JSON:
        part_pointer = f"{pointer}/{key}/{index}"
        if key == "allOf":
            # Inline allOf parts extend the model itself; referenced parts stay models.
            return self._convert(part, side, name, part_pointer, top=True)
        return self._convert(part, side, f"{name}Option{index + 1}", part_pointer, top=False)

    def _properties(
        self, properties: Mapping[str, JSON], side: Side, name: str, pointer: str
    ) -> dict[str, JSON]:
        return {
            prop: self._convert(
                schema, side, name + pascal_case(prop), f"{pointer}/properties/{prop}", top=False
            )
            for prop, schema in properties.items()
            if not self._dropped(schema, side)
        }

    def _dropped(self, schema: JSON, side: Side) -> bool:
        if not isinstance(schema, Mapping):
            return False
        flag = "readOnly" if side is Side.REQUEST else "writeOnly"
        return schema.get(flag) is True

    def _open_enum(self, node: Mapping[str, JSON], documented: DocumentedValues) -> JSON:
        """A value list the client reads, or an open one (spec: ``anyOf: [{enum}, {type:
        string}]``): documented values stay typed (``Literal[...]``), any other string is
        accepted as it is (a new job phase or flavor type must not break parsing)."""
        branches: list[JSON] = [
            {"type": "string", "enum": list(documented.values)},
            {"type": "string"},
        ]
        if documented.nullable or node.get("nullable") is True:
            branches.append({"type": "null"})
        opened: dict[str, JSON] = {"anyOf": branches}
        if "default" in node:
            opened["default"] = node["default"]
        for key in _PROSE_KEYS:
            if isinstance(node.get(key), str):
                opened[key] = self._placeholder(node[key])
        return opened


# The keywords that apply to one JSON type only (JSON Schema 2020-12, validation vocabulary).
_TYPE_KEYWORDS: dict[str, tuple[str, ...]] = {
    "object": (
        "properties",
        "additionalProperties",
        "required",
        "minProperties",
        "maxProperties",
        "dependentRequired",
    ),
    "array": ("items", "minItems", "maxItems", "uniqueItems"),
    "string": ("pattern", "minLength", "maxLength", "format"),
    "integer": (
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "format",
    ),
    "number": (
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "format",
    ),
}


def _split_by_type(node: Mapping[str, JSON]) -> list[dict[str, JSON]] | None:
    """``type: [object, array]`` with keywords of each type, as one schema per type holding
    its own keywords, for an ``anyOf`` (datamodel-code-generator would otherwise type the
    object branch ``dict[str, Any]``); None when ``node`` needs no split."""
    kinds = node.get("type")
    if not isinstance(kinds, list) or "anyOf" in node:
        return None
    typed = [kind for kind in kinds if kind != "null"]
    specific = {key for kind in typed for key in _TYPE_KEYWORDS.get(str(kind), ()) if key in node}
    if len(typed) < 2 or not specific:
        return None
    return [
        {"type": kind, **{k: node[k] for k in _TYPE_KEYWORDS.get(str(kind), ()) if k in node}}
        for kind in kinds
    ]


_MODEL_REF = "#/components/schemas/"


def referenced_models(node: JSON) -> Iterator[str]:
    """The model names a converted schema refers to (``$ref`` to a plan schema)."""
    if isinstance(node, Mapping):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(_MODEL_REF):
            yield ref.removeprefix(_MODEL_REF)
        for value in node.values():
            yield from referenced_models(value)
    elif isinstance(node, list):
        for value in node:
            yield from referenced_models(value)


def _checked_pattern(value: JSON, pointer: str) -> str:
    """A ``pattern`` the generated model can compile (checked with pydantic-core's own
    regex engine, which the model uses); anything else is refused here, naming the field,
    rather than as a model that does not build."""
    from pydantic_core import SchemaError, SchemaValidator, core_schema

    if not isinstance(value, str):
        raise SpecError(f"{pointer}: {value!r} is not a string (rule: a pattern is a regex)")
    try:
        SchemaValidator(core_schema.str_schema(pattern=value))
    except SchemaError as exc:
        reason = " ".join(str(exc).split())
        raise SpecError(
            f"{pointer}: {shorten(value)} is not a valid regular expression ({reason[:200]})"
        ) from None
    return value
