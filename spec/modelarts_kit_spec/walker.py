"""The one schema walker: ``$ref`` following, ``allOf`` merging, JSON types, and the traversal of
every schema object in a document.

- :meth:`SchemaWalker.view` resolves a schema node into a :class:`SchemaView`: ``$ref`` chains
  followed by the one resolver (:mod:`modelarts_kit_spec.refs`: 3.1 sibling keywords of a
  ``$ref`` apply, and override the target's where both state one), ``allOf`` parts merged
  (properties united, ``required`` united, ``type`` intersected, other keywords: the node's own
  first, then each part's in order), with the pointer of the node and the component its first
  ``$ref`` named.
- With ``alternatives=True`` the view also unites the properties of the ``anyOf``/``oneOf``
  branches (the node's own and ``allOf``'s first) and keeps each branch's own view in
  :attr:`SchemaView.branches`, for readers that describe every shape a value may take (docs
  diff's field list, the SDK comparison, the client fidelity check). Other keywords of a
  branch stay in its branch view: :meth:`SchemaView.find` looks there after the node.
- Every property of a view keeps the pointer of the schema that declares it
  (:attr:`SchemaView.property_pointers`), so a field of a shared component is one place however
  many paths reach it.
- :meth:`SchemaWalker.shared_view` is the same view of a node of the document, built once and
  shared by every caller (which reads it and never changes it): the reference server's
  per-request walks.
- :meth:`SchemaWalker.property` / :meth:`SchemaWalker.at_path` go down by property name (through
  array ``items`` with ``[]`` in a dotted path, as the vendor pages name fields).
- :func:`iter_subschemas` / :func:`iter_schemas` visit every schema object without following
  ``$ref`` (for rules that check each node once).
- :func:`json_types` is the set of JSON types a node allows.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from modelarts_kit_spec.document import SpecError, document_nodes, pointer_join
from modelarts_kit_spec.refs import resolve_ref
from modelarts_kit_spec.values import DocumentedValues, documented_values

__all__ = [
    "ALL_TYPES",
    "SUBSCHEMA_KEYWORDS",
    "SUBSCHEMA_LIST_KEYWORDS",
    "SUBSCHEMA_MAP_KEYWORDS",
    "SchemaView",
    "SchemaWalker",
    "iter_schemas",
    "iter_subschemas",
    "json_types",
]

JSON = Any

# Keywords whose value is a subschema, a list of subschemas, or a name -> subschema map.
SUBSCHEMA_KEYWORDS = (
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
)
SUBSCHEMA_LIST_KEYWORDS = ("allOf", "anyOf", "oneOf", "prefixItems")
SUBSCHEMA_MAP_KEYWORDS = ("properties", "patternProperties", "$defs", "dependentSchemas")
ALL_TYPES = frozenset({"string", "integer", "number", "boolean", "array", "object", "null"})
MAX_REF_CHAIN = 64


def _mapping(value: JSON) -> Mapping[str, JSON]:
    return value if isinstance(value, Mapping) else {}


def _list(value: JSON) -> list[JSON]:
    return list(value) if isinstance(value, list) else []


def _child(pointer: str, *tokens: str | int) -> str:
    """The pointer of a nested node ("" stays "": an inline node has no known place)."""
    return pointer_join(pointer, *tokens) if pointer else ""


def json_types(node: JSON) -> frozenset[str]:
    """The JSON types ``node`` allows (``integer`` implies nothing about ``number``).

    From ``type``; else from ``const``/``enum`` values; else the union over ``anyOf``/``oneOf``
    branches; else ``object`` if it has ``properties``; else every type. ``$ref`` is not followed.
    """
    from modelarts_kit_spec.document import json_type

    if not isinstance(node, Mapping):
        return ALL_TYPES if node is True or node == {} else frozenset()
    declared = node.get("type")
    if isinstance(declared, str):
        return frozenset({declared})
    if isinstance(declared, list):
        return frozenset(str(t) for t in declared)
    if "const" in node:
        return frozenset({json_type(node["const"])})
    if isinstance(node.get("enum"), list):
        return frozenset(json_type(v) for v in node["enum"])
    for key in ("anyOf", "oneOf"):
        branches = node.get(key)
        if isinstance(branches, list) and branches:
            found: set[str] = set()
            for branch in branches:
                found |= json_types(branch)
            return frozenset(found)
    if "properties" in node:
        return frozenset({"object"})
    return ALL_TYPES


@dataclass(frozen=True)
class SchemaView:
    """A schema node with ``$ref`` followed and ``allOf`` merged."""

    schema: Mapping[str, JSON]  # the merged node, without "allOf" and "$ref"
    pointer: str  # where the resolved node lives ("" for an inline node without a pointer)
    ref_name: str | None  # the component the first $ref named, if any
    parts: tuple[Mapping[str, JSON], ...] = field(default=(), repr=False)  # merged allOf parts
    # name -> pointer of the property's schema where it is declared ("" if unknown)
    property_pointers: Mapping[str, str] = field(default_factory=dict, repr=False)
    # keyword -> pointer of the schema node it was taken from ("" if unknown)
    keyword_pointers: Mapping[str, str] = field(default_factory=dict, repr=False)
    # anyOf/oneOf branches, each viewed (only with alternatives=True)
    branches: tuple[SchemaView, ...] = field(default=(), repr=False)

    @property
    def properties(self) -> Mapping[str, JSON]:
        return _mapping(self.schema.get("properties"))

    @property
    def required(self) -> frozenset[str]:
        return frozenset(str(n) for n in self.schema.get("required") or [])

    @property
    def types(self) -> frozenset[str]:
        r"""The JSON types the node allows; through ``$ref``\ ed branches when it was viewed
        with ``alternatives=True`` and states no type of its own."""
        if self.branches and not ({"type", "const", "enum"} & set(self.schema)):
            found: set[str] = set()
            for branch in self.branches:
                found |= branch.types
            return frozenset(found)
        return json_types(self.schema)

    @property
    def nullable(self) -> bool:
        return "null" in self.types

    @property
    def documented(self) -> DocumentedValues | None:
        return documented_values(self.schema)

    @property
    def items(self) -> JSON | None:
        items = self.schema.get("items")
        return items if isinstance(items, Mapping) else None

    def keyword_pointer(self, keyword: str) -> str:
        """The pointer of ``keyword``'s value where it is written ("" if unknown)."""
        base = self.keyword_pointers.get(keyword, "")
        return pointer_join(base, keyword) if base else ""

    def find(self, keyword: str) -> tuple[JSON, str] | None:
        """``keyword``'s value and pointer: the node's own (``allOf`` merged), else the first
        branch's that has it (depth first); None if no shape states it."""
        if keyword in self.schema:
            return self.schema[keyword], self.keyword_pointer(keyword)
        for branch in self.branches:
            found = branch.find(keyword)
            if found is not None:
                return found
        return None


@dataclass
class _Merged:
    schema: dict[str, JSON]
    property_pointers: dict[str, str]
    keyword_pointers: dict[str, str]


class SchemaWalker:
    """Resolves schema nodes of one OpenAPI document (local ``$ref`` only)."""

    def __init__(self, document: JSON) -> None:
        self.document = document
        self._nodes: dict[int, JSON] | None = None
        self._shared: dict[tuple[int, bool], SchemaView] = {}

    def deref(self, node: JSON, pointer: str = "") -> tuple[JSON, str, str | None]:
        """Follow a ``$ref`` chain (the one resolver, :mod:`modelarts_kit_spec.refs`: siblings
        apply, cycles refused): (target with siblings applied, its pointer, first ref name)."""
        resolved = resolve_ref(self.document, node, pointer)
        return resolved.node, resolved.pointer, resolved.ref_name

    def view(self, node: JSON, pointer: str = "", *, alternatives: bool = False) -> SchemaView:
        """``node`` resolved: refs followed, ``allOf`` parts (recursively) merged into it; with
        ``alternatives``, ``anyOf``/``oneOf`` branches viewed and their properties united."""
        return self._view(node, pointer, alternatives, 0)

    def shared_view(self, node: JSON, *, alternatives: bool = False) -> SchemaView:
        """``view(node, alternatives=...)``, built once for a node of the document and shared:
        the caller reads it and never changes it (another node: a view of its own)."""
        if self._nodes is None:
            self._nodes = document_nodes(self.document)
        if self._nodes.get(id(node)) is not node:
            return self.view(node, alternatives=alternatives)
        found = self._shared.get((id(node), alternatives))
        if found is None:
            found = self.view(node, alternatives=alternatives)
            self._shared[id(node), alternatives] = found
        return found

    def _view(self, node: JSON, pointer: str, alternatives: bool, depth: int) -> SchemaView:
        if depth > MAX_REF_CHAIN:
            raise SpecError(f"{pointer or '/'}: anyOf/oneOf nested too deeply")
        resolved, pointer, ref_name = self.deref(node, pointer)
        if not isinstance(resolved, Mapping):
            return SchemaView({}, pointer, ref_name)
        parts: list[Mapping[str, JSON]] = []
        merged = self._merge(resolved, pointer, parts, depth=0)
        branches: list[SchemaView] = []
        if alternatives:
            for key in ("anyOf", "oneOf"):
                for index, raw in enumerate(_list(merged.schema.get(key))):
                    branch_pointer = _child(merged.keyword_pointers.get(key, ""), key, index)
                    branches.append(self._view(raw, branch_pointer, True, depth + 1))
            props = dict(_mapping(merged.schema.get("properties")))
            for branch in branches:
                for name, value in branch.properties.items():
                    if name not in props:
                        props[name] = value
                        merged.property_pointers[name] = branch.property_pointers.get(name, "")
            if props:
                merged.schema["properties"] = props
        return SchemaView(
            merged.schema,
            pointer,
            ref_name,
            tuple(parts),
            merged.property_pointers,
            merged.keyword_pointers,
            tuple(branches),
        )

    def _merge(
        self, node: Mapping[str, JSON], pointer: str, parts: list[Mapping[str, JSON]], depth: int
    ) -> _Merged:
        if depth > MAX_REF_CHAIN:
            raise SpecError(f"{pointer or '/'}: allOf nested too deeply")
        merged = _Merged(
            {k: v for k, v in node.items() if k != "allOf"},
            {
                name: _child(pointer, "properties", name)
                for name in _mapping(node.get("properties"))
            },
            {k: pointer for k in node if k != "allOf"},
        )
        for index, raw in enumerate(node.get("allOf") or []):
            target, target_pointer, _ = self.deref(raw, _child(pointer, "allOf", index))
            if not isinstance(target, Mapping):
                continue
            sub = self._merge(target, target_pointer, parts, depth + 1)
            part = sub.schema
            parts.append(part)
            props = dict(_mapping(merged.schema.get("properties")))
            for name, value in _mapping(part.get("properties")).items():
                if name not in props:
                    props[name] = value
                    merged.property_pointers[name] = sub.property_pointers.get(name, "")
            if props:
                merged.schema["properties"] = props
            required = [*merged.schema.get("required", []), *part.get("required", [])]
            if required:
                merged.schema["required"] = list(dict.fromkeys(required))
            for key, value in part.items():
                if key in ("properties", "required"):
                    continue
                if key == "type" and "type" in merged.schema:
                    both = json_types(merged.schema) & json_types(part)
                    merged.schema["type"] = next(iter(both)) if len(both) == 1 else sorted(both)
                elif key not in merged.schema:
                    merged.schema[key] = value
                    merged.keyword_pointers[key] = sub.keyword_pointers.get(key, "")
        return merged

    def property(self, view: SchemaView, name: str) -> SchemaView | None:
        """The view of property ``name`` of an object view, or None."""
        raw = view.properties.get(name)
        if raw is None:
            return None
        return self.view(raw, view.property_pointers.get(name, ""))

    def at_path(self, root: JSON, path: str, pointer: str = "") -> SchemaView | None:
        """The view at a dotted field path such as ``status.phase`` or ``tasks[].role``."""
        current = self.view(root, pointer)
        for token in [t for t in path.split(".") if t]:
            name = token.removesuffix("[]")
            found = self.property(current, name)
            if found is None:
                return None
            current = found
            for _ in range(token.count("[]")):
                if current.items is None:
                    return None
                items_pointer = pointer_join(current.pointer, "items") if current.pointer else ""
                current = self.view(current.items, items_pointer)
        return current

    def at_pointer(self, root: JSON, instance_pointer: str, pointer: str = "") -> SchemaView | None:
        """The view describing the value at a JSON pointer into an instance (``/status/phase``)."""
        from modelarts_kit_spec.document import unescape_pointer_token

        current = self.view(root, pointer)
        for raw in instance_pointer.split("/")[1:]:
            token = unescape_pointer_token(raw)
            if token.isdigit() and current.items is not None:
                items_pointer = pointer_join(current.pointer, "items") if current.pointer else ""
                current = self.view(current.items, items_pointer)
                continue
            found = self.property(current, token)
            if found is None:
                return None
            current = found
        return current


def iter_subschemas(schema: JSON, pointer: str) -> Iterator[tuple[str, Mapping[str, JSON]]]:
    """``schema`` and every schema nested in it (``$ref`` not followed), with pointers."""
    if not isinstance(schema, Mapping):
        return
    yield pointer, schema
    for key in SUBSCHEMA_KEYWORDS:
        if isinstance(schema.get(key), Mapping):
            yield from iter_subschemas(schema[key], pointer_join(pointer, key))
    for key in SUBSCHEMA_LIST_KEYWORDS:
        if isinstance(schema.get(key), list):
            for index, sub in enumerate(schema[key]):
                yield from iter_subschemas(sub, pointer_join(pointer, key, index))
    for key in SUBSCHEMA_MAP_KEYWORDS:
        for name, sub in _mapping(schema.get(key)).items():
            yield from iter_subschemas(sub, pointer_join(pointer, key, name))


def iter_schemas(document: JSON) -> Iterator[tuple[str, Mapping[str, JSON]]]:
    """Every schema object in the document (components, paths, nested), with its pointer."""
    document = _mapping(document)
    for name, schema in _mapping(_mapping(document.get("components")).get("schemas")).items():
        yield from iter_subschemas(schema, pointer_join("/components/schemas", name))
    for key, value in document.items():
        if key == "components":
            for kind, members in _mapping(value).items():
                if kind != "schemas":
                    yield from _schemas_outside(members, pointer_join("/components", kind))
        elif key in ("paths", "webhooks"):
            yield from _schemas_outside(value, "/" + key)


def _schemas_outside(node: JSON, pointer: str) -> Iterator[tuple[str, Mapping[str, JSON]]]:
    """``schema`` keys in non-schema parts (parameters, media types, headers)."""
    if isinstance(node, Mapping):
        for key, value in node.items():
            here = pointer_join(pointer, key)
            if key == "schema" and isinstance(value, Mapping):
                yield from iter_subschemas(value, here)
            elif key not in ("example", "examples") and not str(key).startswith("x-"):
                yield from _schemas_outside(value, here)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _schemas_outside(value, pointer_join(pointer, index))
