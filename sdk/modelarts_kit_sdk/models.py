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
    "MAX_MODEL_DEPTH",
    "MAX_TYPE_DEPTH",
    "SdkAttribute",
    "SdkField",
    "SdkModel",
    "SdkModels",
    "SdkType",
    "operation_model_names",
    "operation_roots",
    "too_deep",
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
# Bounds on what a release can nest (3.1.219: types 2 levels deep, models 7 along a path), so
# that a hostile module is one error line, not a RecursionError.
MAX_TYPE_DEPTH = 16  # list[...] / dict(str, ...) levels in one type
MAX_MODEL_DEPTH = 64  # models inside models along one path
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
            raise SdkError(f"{self.source.where}: no model class {name!r}")
        filename = module + ".py"
        where = f"{self.source.where}: {MODEL_PACKAGE}/{filename}"
        tree = _parse_module(self.source.read_module(filename), where)
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
                SdkAttribute(
                    name, attr, wires[attr], self.parse_type(raw, f"{where}: {name}.{attr}")
                )
                for attr, raw in types.items()
            ),
        )

    def parse_type(self, raw: str, where: str = "type") -> SdkType:
        """``raw`` as a type, its containers unwrapped in a loop (at most MAX_TYPE_DEPTH)."""
        containers: list[tuple[str, TypeKind, str]] = []  # outermost first
        current = raw
        while True:
            text = current.strip()
            match = _LIST_RE.fullmatch(text)
            kind: TypeKind = "list"
            if match is None:
                match, kind = _DICT_RE.fullmatch(text), "dict"
            if match is None:
                break
            if len(containers) == MAX_TYPE_DEPTH:
                raise SdkError(
                    f"{where}: type {raw[:40]!r}... nests more than {MAX_TYPE_DEPTH} list/dict "
                    f"levels (rule: a type is at most {MAX_TYPE_DEPTH} levels deep)"
                )
            containers.append((current, kind, "array" if kind == "list" else "object"))
            current = match["inner"]
        node = self._leaf_type(current)
        for container_raw, container_kind, json_type in reversed(containers):
            node = SdkType(container_raw, container_kind, json_type, item=node)
        return node

    def _leaf_type(self, raw: str) -> SdkType:
        text = raw.strip()
        scalar = SCALARS.get(text)
        if scalar is not None:
            return SdkType(raw, "scalar", scalar[0])
        if text == "object":
            return SdkType(raw, "any", None)
        if text in self._modules:
            return SdkType(raw, "model", "object", model=text)
        return SdkType(raw, "unknown", None)


def _parse_module(text: str, where: str) -> ast.Module:
    """The syntax tree of a model module (never run); one error line when it cannot be had."""
    try:
        return ast.parse(text)
    except SyntaxError as exc:
        raise SdkError(f"{where}:{exc.lineno}: not valid Python: {exc.msg}") from None
    except (RecursionError, MemoryError):  # CPython's parser gives up on deep nesting so
        raise SdkError(
            f"{where}: nested too deeply to parse (rule: a model module is the SDK's flat "
            "generated code)"
        ) from None


def too_deep(where: str, operation: str, chain: tuple[str, ...]) -> SdkError:
    """The error for models nested beyond MAX_MODEL_DEPTH along one path."""
    shown = " -> ".join((*chain[:3], "...", chain[-1]))
    return SdkError(
        f"{where}: {operation}: models nest more than {MAX_MODEL_DEPTH} levels ({shown}) "
        f"(rule: models are at most {MAX_MODEL_DEPTH} levels deep)"
    )


def _module_index(source: SdkSource) -> dict[str, str]:
    """Class name -> module file stem, from the package's ``from ... import Class`` lines."""
    where = f"{source.where}: {MODEL_PACKAGE}/__init__.py"
    tree = _parse_module(source.read_module("__init__.py"), where)
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
            except (ValueError, TypeError, RecursionError):  # not a literal; {[]: 1}; deep
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


def operation_model_names(operation_id: str) -> tuple[str, str]:
    """The SDK's classes of one operation: ``<operationId>Request``, ``<operationId>Response``
    (the pages' ``:original_name:`` and the SDK share the operation ids)."""
    return f"{operation_id}Request", f"{operation_id}Response"


def operation_roots(models: SdkModels, operation_id: str) -> Iterator[tuple[Side, SdkAttribute]]:
    """The SDK's top-level attributes of one operation, by side.

    The request's ``body`` attribute is the request body; its other attributes are path, query
    and header parameters. Every attribute of the response class is a body field.
    """
    request, response = operation_model_names(operation_id)
    if request in models:
        for attr in models.get(request).attributes:
            yield ("request" if attr.attribute == BODY_ATTRIBUTE else "parameter"), attr
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
    if len(stack) >= MAX_MODEL_DEPTH:
        raise too_deep(models.source.where, operation_id, (*stack, node.model))
    prefix = f"{path}{marks}." if path else ""
    for attr in models.get(node.model).attributes:
        child = prefix + attr.wire
        yield SdkField(operation_id, side, child, attr)
        yield from _walk_type(models, operation_id, side, attr.type, child, (*stack, node.model))
