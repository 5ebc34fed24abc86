"""The SDK's model classes, read from their source text: no SDK code runs.

Every model module of ``huaweicloudsdkmodelarts.v1.model`` declares its wire format as two
class-level dict literals, ``openapi_types`` (attribute -> type) and ``attribute_map``
(attribute -> JSON key). They are read with :mod:`ast` (``ast.literal_eval``), so reading a
release neither imports it nor needs ``huaweicloudsdkcore``; a module whose dicts are not
literals is refused, naming the file. The package ``__init__.py`` maps class names to modules.

SDK types map to JSON Schema types: ``str`` string, ``int`` integer, ``bool`` boolean,
``float`` number, ``datetime``/``date`` string, ``object`` any JSON value, ``list[X]`` array of
X, ``dict(str, X)`` object whose values are X, a model name an object with that model's fields.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from modelarts_kit_sdk.errors import SdkError
from modelarts_kit_sdk.sources import MODEL_PACKAGE, SdkSource

__all__ = [
    "SdkAttribute",
    "SdkField",
    "SdkModel",
    "SdkModels",
    "SdkType",
    "operation_roots",
    "walk_fields",
]

TypeKind = Literal["scalar", "list", "dict", "model", "any", "unknown"]

SCALARS: dict[str, tuple[str, str | None]] = {
    "str": ("string", None),
    "int": ("integer", None),
    "bool": ("boolean", None),
    "float": ("number", None),
    "datetime": ("string", "date-time"),
    "date": ("string", "date"),
}
_LIST_RE = re.compile(r"list\[(?P<inner>.+)\]")
_DICT_RE = re.compile(r"dict\(\s*str\s*,\s*(?P<inner>.+)\)")


@dataclass(frozen=True)
class SdkType:
    """One SDK type expression (``list[Input]``) and the JSON Schema type it stands for."""

    raw: str
    kind: TypeKind
    json_type: str | None  # None for "any" and "unknown"
    item: SdkType | None = None  # list items / dict values
    model: str | None = None

    @property
    def innermost(self) -> SdkType:
        node = self
        while node.item is not None:
            node = node.item
        return node

    def describe(self) -> str:
        if self.kind == "any":
            return f"{self.raw} (any JSON value)"
        if self.kind == "unknown":
            return f"{self.raw} (not a type this tool maps)"
        return f"{self.raw} ({self.json_type})"


@dataclass(frozen=True)
class SdkAttribute:
    model: str  # the SDK class
    attribute: str  # the Python attribute name (``_exec``)
    wire: str  # the JSON key (``exec``)
    type: SdkType


@dataclass(frozen=True)
class SdkModel:
    name: str
    module: str  # file name in the model package
    attributes: tuple[SdkAttribute, ...]

    def attribute(self, name: str) -> SdkAttribute | None:
        return next((a for a in self.attributes if a.attribute == name), None)


class SdkModels:
    """The model classes of one SDK release, parsed on first use."""

    def __init__(self, source: SdkSource) -> None:
        self.source = source
        self._modules = _module_index(source)
        self._parsed: dict[str, SdkModel] = {}

    @property
    def version(self) -> str:
        return self.source.version

    def __contains__(self, name: object) -> bool:
        return name in self._modules

    def get(self, name: str) -> SdkModel:
        parsed = self._parsed.get(name)
        if parsed is None:
            parsed = self._parsed[name] = self._parse(name)
        return parsed

    def _parse(self, name: str) -> SdkModel:
        module = self._modules.get(name)
        if module is None:
            raise SdkError(f"{self.source.label}: no model class {name!r}")
        filename = module + ".py"
        where = f"{self.source.label}: {MODEL_PACKAGE}/{filename}"
        try:
            tree = ast.parse(self.source.read_module(filename), filename=filename)
        except SyntaxError as exc:
            raise SdkError(f"{where}:{exc.lineno}: not valid Python: {exc.msg}") from None
        cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name), None)
        if cls is None:
            raise SdkError(f"{where}: no class {name}")
        types = _class_dict(cls, "openapi_types", where)
        wires = _class_dict(cls, "attribute_map", where)
        if set(types) != set(wires):
            raise SdkError(
                f"{where}: class {name}: openapi_types and attribute_map name different "
                f"attributes ({sorted(set(types) ^ set(wires))})"
            )
        return SdkModel(
            name=name,
            module=filename,
            attributes=tuple(
                SdkAttribute(name, attr, wires[attr], self.parse_type(raw))
                for attr, raw in types.items()
            ),
        )

    def parse_type(self, raw: str) -> SdkType:
        text = raw.strip()
        scalar = SCALARS.get(text)
        if scalar is not None:
            return SdkType(raw, "scalar", scalar[0])
        if text == "object":
            return SdkType(raw, "any", None)
        match = _LIST_RE.fullmatch(text)
        if match:
            return SdkType(raw, "list", "array", item=self.parse_type(match["inner"]))
        match = _DICT_RE.fullmatch(text)
        if match:
            return SdkType(raw, "dict", "object", item=self.parse_type(match["inner"]))
        if text in self._modules:
            return SdkType(raw, "model", "object", model=text)
        return SdkType(raw, "unknown", None)


def _module_index(source: SdkSource) -> dict[str, str]:
    """Class name -> module file stem, from the package's ``from ... import Class`` lines."""
    where = f"{source.label}: {MODEL_PACKAGE}/__init__.py"
    try:
        tree = ast.parse(source.read_module("__init__.py"))
    except SyntaxError as exc:
        raise SdkError(f"{where}:{exc.lineno}: not valid Python: {exc.msg}") from None
    index: dict[str, str] = {}
    prefix = MODEL_PACKAGE.replace("/", ".") + "."
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(prefix):
            stem = (node.module or "").removeprefix(prefix)
            for alias in node.names:
                index[alias.asname or alias.name] = stem
    if not index:
        raise SdkError(f"{where}: imports no model classes")
    return index


def _class_dict(cls: ast.ClassDef, name: str, where: str) -> dict[str, str]:
    for node in cls.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id == name
        ):
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                value = None
            if not (
                isinstance(value, dict)
                and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items())
            ):
                raise SdkError(
                    f"{where}:{node.lineno}: class {cls.name}: {name} is not a literal "
                    "dict of strings (this tool reads models without running them)"
                )
            return value
    raise SdkError(f"{where}: class {cls.name} has no {name}")


# --- walking ---------------------------------------------------------------------------------

Side = Literal["request", "response", "parameter"]
BODY_ATTRIBUTE = "body"


@dataclass(frozen=True)
class SdkField:
    """One wire field reached from an operation's root model."""

    operation: str
    side: Side
    path: str  # dotted from the body root: ``spec.volumes[].nfs.nfs_server_path``
    attribute: SdkAttribute


def operation_roots(models: SdkModels, operation_id: str) -> Iterator[tuple[Side, SdkAttribute]]:
    """The SDK's top-level attributes of one operation, by side.

    The SDK names an operation's classes ``<operationId>Request`` and ``<operationId>Response``.
    The request's ``body`` attribute is the request body; its other attributes are path, query
    and header parameters. Every attribute of the response class is a body field.
    """
    request = f"{operation_id}Request"
    if request in models:
        for attr in models.get(request).attributes:
            yield ("request" if attr.attribute == BODY_ATTRIBUTE else "parameter"), attr
    response = f"{operation_id}Response"
    if response in models:
        for attr in models.get(response).attributes:
            yield "response", attr


def walk_fields(models: SdkModels, operation_id: str) -> Iterator[SdkField]:
    """Every wire field of one operation, depth first (recursive models stop at a repeat)."""
    for side, attr in operation_roots(models, operation_id):
        if side == "request":
            yield from _walk_type(models, operation_id, side, attr.type, "", ())
        else:
            yield SdkField(operation_id, side, attr.wire, attr)
            yield from _walk_type(models, operation_id, side, attr.type, attr.wire, ())


def _walk_type(
    models: SdkModels,
    operation_id: str,
    side: Side,
    sdk_type: SdkType,
    path: str,
    stack: tuple[str, ...],
) -> Iterator[SdkField]:
    marks = ""
    node = sdk_type
    while node.item is not None:
        marks += "[]" if node.kind == "list" else "{}"
        node = node.item
    if node.model is None or node.model in stack:
        return
    prefix = f"{path}{marks}." if path else ""
    for attr in models.get(node.model).attributes:
        child = prefix + attr.wire
        yield SdkField(operation_id, side, child, attr)
        yield from _walk_type(models, operation_id, side, attr.type, child, (*stack, node.model))
