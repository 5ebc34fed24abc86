"""The floor of the spec package: what a decoded document is (``JSON``, ``HTTP_METHODS``), the
error a bad one raises (:class:`SpecError`) and JSON pointers. It imports nothing of the
package, only the wire layer's error base and pointer tokens, so every layer may import it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from modelarts_kit_wire.errors import KitError
from modelarts_kit_wire.pointers import escape_pointer_token, unescape_pointer_token

__all__ = [
    "HTTP_METHODS",
    "JSON",
    "SpecError",
    "document_nodes",
    "escape_pointer_token",
    "json_type",
    "pointer_join",
    "resolve_pointer",
    "unescape_pointer_token",
]

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")

JSON = Any  # a decoded JSON/YAML value


class SpecError(KitError):
    """The spec file cannot be read or is not an OpenAPI document we can index."""


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


def document_nodes(document: JSON) -> dict[int, JSON]:
    """Every object and list of ``document``, by identity (for caches keyed by a node of a
    loaded document, which is never changed once loaded)."""
    found: dict[int, JSON] = {}
    pending = [document]
    while pending:
        node = pending.pop()
        if isinstance(node, dict | list) and id(node) not in found:
            found[id(node)] = node
            pending.extend(node.values() if isinstance(node, dict) else node)
    return found


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
