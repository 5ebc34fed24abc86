"""Vendor type words, parsed once and mapped to JSON Schema in one table.

``String`` -> string; ``Integer`` -> integer/int32; ``Long`` -> integer/int64; ``Float``,
``Double``, ``Number`` -> number; ``Boolean`` -> boolean; ``Map<String,String>`` -> object
whose additionalProperties are strings; ``Array of X`` / ``Array<X>`` -> array of X;
``X object`` / ``X 对象`` -> object described by table X. Chinese type words map the same way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

__all__ = ["SCALARS", "VendorType", "parse_type"]

# written word (lower case) -> (JSON Schema type, format)
SCALARS: dict[str, tuple[str, str | None]] = {
    "string": ("string", None),
    "str": ("string", None),
    "字符串": ("string", None),
    "integer": ("integer", "int32"),
    "int": ("integer", "int32"),
    "int32": ("integer", "int32"),
    "整数": ("integer", "int32"),
    "整型": ("integer", "int32"),
    "long": ("integer", "int64"),
    "int64": ("integer", "int64"),
    "长整型": ("integer", "int64"),
    "float": ("number", None),
    "double": ("number", None),
    "number": ("number", None),
    "bigdecimal": ("number", None),
    "浮点数": ("number", None),
    "浮点型": ("number", None),
    "数字": ("number", None),
    "boolean": ("boolean", None),
    "bool": ("boolean", None),
    "布尔": ("boolean", None),
    "布尔型": ("boolean", None),
    "object": ("object", None),
    "jsonobject": ("object", None),
    "对象": ("object", None),
}

_ARRAY_OF_RE = re.compile(r"^Array\s+of\s+(.+?)\s*$", re.IGNORECASE)
_GENERIC_RE = re.compile(r"^(Array|List|Map)\s*<\s*(.+)\s*>$", re.IGNORECASE)
_OBJECT_RE = re.compile(r"^(.+?)\s*(?:objects?|对象)$", re.IGNORECASE)
_OBJECT_ARRAY_RE = re.compile(r"^(.+?)\s*对象数组$")


@dataclass(frozen=True)
class VendorType:
    """A parsed vendor type. ``ref`` names the table an ``X object`` points to."""

    kind: str  # string | integer | number | boolean | object | array | map | unknown
    format: str | None = None
    items: VendorType | None = None  # element type of an array, value type of a map
    ref: str | None = None

    @property
    def table_ref(self) -> str | None:
        """The table this type points to, through arrays (``Array of X objects`` -> X)."""
        node: VendorType | None = self
        while node is not None and node.kind == "array":
            node = node.items
        return node.ref if node is not None else None

    @property
    def array_depth(self) -> int:
        depth, node = 0, self
        while node.kind == "array" and node.items is not None:
            depth, node = depth + 1, node.items
        return depth

    def schema(self) -> dict[str, Any]:
        """The JSON Schema shape this type stands for (no properties: tables give those)."""
        if self.kind == "unknown":
            return {}
        if self.kind == "array":
            return {"type": "array", "items": self.items.schema() if self.items else {}}
        if self.kind == "map":
            values = self.items.schema() if self.items else {}
            return {"type": "object", "additionalProperties": values or True}
        out: dict[str, Any] = {"type": self.kind}
        if self.format:
            out["format"] = self.format
        return out


def _split_generic_args(text: str) -> list[str]:
    depth, start, parts = 0, 0, []
    for index, char in enumerate(text):
        if char == "<":
            depth += 1
        elif char == ">":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:index].strip())
            start = index + 1
    parts.append(text[start:].strip())
    return parts


def _singular(word: str) -> str:
    lower = word.lower()
    if lower in SCALARS:
        return lower
    if lower.endswith("s") and lower[:-1] in SCALARS:
        return lower[:-1]
    return lower


def parse_type(written: str) -> VendorType:
    """Parse a type cell as written; unrecognised text gives kind ``unknown``."""
    text = " ".join(written.split())
    scalar = SCALARS.get(_singular(text))
    if scalar is not None:
        return VendorType(kind=scalar[0], format=scalar[1])
    generic = _GENERIC_RE.match(text)
    if generic is not None:
        args = _split_generic_args(generic.group(2))
        if generic.group(1).lower() == "map":
            return VendorType(kind="map", items=parse_type(args[-1]))
        return VendorType(kind="array", items=parse_type(args[0]))
    array_of = _ARRAY_OF_RE.match(text)
    if array_of is not None:
        inner = array_of.group(1)
        element = parse_type(inner)
        if element.kind == "unknown" and not inner.lower().endswith(("object", "objects")):
            element = parse_type(inner.rstrip("s")) if inner.endswith("s") else element
        return VendorType(kind="array", items=element)
    object_array = _OBJECT_ARRAY_RE.match(text)
    if object_array is not None:
        return VendorType(kind="array", items=_object(object_array.group(1)))
    obj = _OBJECT_RE.match(text)
    if obj is not None:
        return _object(obj.group(1))
    return VendorType(kind="unknown")


def _object(name: str) -> VendorType:
    inner = parse_type(name)
    if inner.kind in ("map", "array"):
        # "Array of Map<String,String> objects": the object is the map itself.
        return inner
    if inner.kind == "object" or name.lower() in SCALARS:
        return VendorType(kind="object")
    return VendorType(kind="object", ref=name.strip())
