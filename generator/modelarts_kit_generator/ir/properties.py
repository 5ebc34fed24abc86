"""The typed schema node and its property kinds: what a value of a schema is in Python.

A :class:`SchemaNode` joins the spec's two handles on one schema: the walker's view for its
structure (``$ref`` followed, ``allOf`` merged, JSON types, documented values) and the schema
model for the strength of each of its rules (documented, guidance, sdk, example). Its
:meth:`~SchemaNode.property` is one object per kind of value, the way openapi-python-client
has one class per property kind: :class:`StringProperty`, :class:`IntProperty`,
:class:`FloatProperty`, :class:`BooleanProperty`, :class:`EnumProperty`,
:class:`ListProperty`, :class:`ObjectProperty` and :class:`AnyProperty`. Each knows

* its ``annotation``: the Python type a caller passes (validation itself happens in the
  generated pydantic models, which datamodel-code-generator writes from the model plan);
* its ``imports``: the ``typing`` names that annotation needs;
* its ``validators``: the rules a value is checked against, each with its keyword, value and
  strength (from the schema model);
* its ``strength``: the weakest strength among them (a caller may rely on the node's rules
  only that far); ``documented`` when it has none.

The IR builds parameters, bodies and iterators' items from these objects and prints their
annotations; nothing parses an annotation back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from modelarts_kit_spec import Spec
from modelarts_kit_spec.schemamodel import Strength
from modelarts_kit_spec.walker import SchemaView

from modelarts_kit_generator.escaping import python_string

__all__ = [
    "VALIDATION_KEYWORDS",
    "AnyProperty",
    "BooleanProperty",
    "EnumProperty",
    "FloatProperty",
    "IntProperty",
    "ListProperty",
    "ObjectProperty",
    "Property",
    "SchemaNode",
    "StringProperty",
    "Validator",
]

JSON = Any

# The keywords a value of a node is checked against (those datamodel-code-generator turns
# into field constraints, and enum), in a stable order.
VALIDATION_KEYWORDS = (
    "enum",
    "const",
    "pattern",
    "format",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "uniqueItems",
)
# Weakest first: a node's strength is the weakest of its rules.
_WEAKEST_FIRST = (Strength.EXAMPLE, Strength.SDK, Strength.GUIDANCE, Strength.DOCUMENTED)


@dataclass(frozen=True)
class Validator:
    """One rule of a node: its keyword, the value the spec gives it, and its strength."""

    keyword: str
    value: JSON
    strength: Strength


@dataclass(frozen=True)
class SchemaNode:
    """One schema with both handles: ``view`` (the walker's, for structure) and the spec's
    schema model (for the strength of its rules, read only when asked)."""

    view: SchemaView
    spec: Spec = field(repr=False, compare=False)

    @classmethod
    def of(cls, spec: Spec, schema: JSON, pointer: str = "") -> SchemaNode:
        """The node of ``schema`` (at ``pointer`` when known; anything but a mapping is the
        empty schema)."""
        raw = schema if isinstance(schema, Mapping) else {}
        return cls(spec.walker.view(raw, pointer), spec)

    @property
    def schema(self) -> Mapping[str, JSON]:
        return self.view.schema

    def strength_of(self, keyword: str) -> Strength:
        """The strength of the rule ``keyword`` here (``documented`` for an inline node the
        schema model cannot place)."""
        if not self.view.pointer:
            return Strength.DOCUMENTED
        return Strength(self.spec.schema_model.rule_at(self.view.pointer, keyword).strength)

    def validators(self) -> tuple[Validator, ...]:
        return tuple(
            Validator(keyword, self.schema[keyword], self.strength_of(keyword))
            for keyword in VALIDATION_KEYWORDS
            if keyword in self.schema
        )

    @property
    def declares_fields(self) -> bool:
        """An object with declared properties (or merged ``allOf`` parts): a model."""
        if "properties" in self.schema:
            return True
        combined = bool(self.view.parts) or any(k in self.schema for k in ("anyOf", "oneOf"))
        return combined and self.schema.get("type") in (None, "object")

    def child(self, schema: JSON) -> SchemaNode:
        """The node of a schema below this one (an array's items)."""
        raw = schema if isinstance(schema, Mapping) else {}
        return SchemaNode(self.spec.walker.view(raw), self.spec)

    def property(self) -> Property:
        """The property kind of this node (see the module docstring)."""
        values = self.schema.get("enum")
        if isinstance(values, list) and values and all(_literal_value(v) for v in values):
            return EnumProperty(self, tuple(values))
        kind = _single_type(self.schema.get("type"))
        if kind == "array":
            return ListProperty(self, self.child(self.schema.get("items", {})).property())
        if kind == "object" or self.declares_fields:
            return ObjectProperty(self)
        scalar = _SCALAR_KINDS.get(kind) if isinstance(kind, str) else None
        return scalar(self) if scalar is not None else AnyProperty(self)


@dataclass(frozen=True)
class Property:
    """A kind of value: its node, and what the generated code writes for it."""

    node: SchemaNode
    python_type: ClassVar[str] = "Any"
    typing_names: ClassVar[frozenset[str]] = frozenset()

    @property
    def annotation(self) -> str:
        return self.python_type

    @property
    def imports(self) -> frozenset[str]:
        return self.typing_names

    @property
    def validators(self) -> tuple[Validator, ...]:
        return self.node.validators()

    @property
    def strength(self) -> Strength:
        found = {v.strength for v in self.validators}
        return next((s for s in _WEAKEST_FIRST if s in found), Strength.DOCUMENTED)


@dataclass(frozen=True)
class StringProperty(Property):
    python_type: ClassVar[str] = "str"


@dataclass(frozen=True)
class IntProperty(Property):
    python_type: ClassVar[str] = "int"


@dataclass(frozen=True)
class FloatProperty(Property):
    python_type: ClassVar[str] = "float"


@dataclass(frozen=True)
class BooleanProperty(Property):
    python_type: ClassVar[str] = "bool"


@dataclass(frozen=True)
class AnyProperty(Property):
    """A value of no single JSON type the client can name (or of none at all)."""

    typing_names: ClassVar[frozenset[str]] = frozenset({"Any"})


@dataclass(frozen=True)
class ObjectProperty(Property):
    """An object: passed as a mapping when it declares fields (its model validates it), as
    any value when it is a bare map."""

    typing_names: ClassVar[frozenset[str]] = frozenset({"Any"})

    @property
    def annotation(self) -> str:
        return "Mapping[str, Any]" if self.node.declares_fields else "Any"


@dataclass(frozen=True)
class EnumProperty(Property):
    """A closed set of values ``typing.Literal`` can hold (no float, no mapping)."""

    values: tuple[str | int | bool | None, ...] = ()
    typing_names: ClassVar[frozenset[str]] = frozenset({"Literal"})

    @property
    def annotation(self) -> str:
        return "Literal[" + ", ".join(_python_literal(v) for v in self.values) + "]"


@dataclass(frozen=True)
class ListProperty(Property):
    """An array: ``list`` of its items' kind."""

    inner: Property | None = None

    @property
    def annotation(self) -> str:
        return f"list[{self.inner.annotation if self.inner is not None else 'Any'}]"

    @property
    def imports(self) -> frozenset[str]:
        return self.inner.imports if self.inner is not None else frozenset({"Any"})

    @property
    def validators(self) -> tuple[Validator, ...]:
        inner = self.inner.validators if self.inner is not None else ()
        return (*self.node.validators(), *inner)


_SCALAR_KINDS: dict[str, type[Property]] = {
    "string": StringProperty,
    "integer": IntProperty,
    "number": FloatProperty,
    "boolean": BooleanProperty,
}


def _single_type(kind: JSON) -> JSON:
    """The one JSON type of ``type`` (``null`` aside), else None."""
    if isinstance(kind, list):
        kinds = [k for k in kind if k != "null"]
        return kinds[0] if len(kinds) == 1 else None
    return kind


def _literal_value(value: JSON) -> bool:
    """Values ``typing.Literal`` can hold (a float or a mapping cannot)."""
    return value is None or isinstance(value, (str, int, bool))


def _python_literal(value: str | int | bool | None) -> str:
    return python_string(value) if isinstance(value, str) else repr(value)
