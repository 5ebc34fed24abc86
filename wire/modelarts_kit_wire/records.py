"""The one JSON serializer of the kit's typed records (findings, observations, changes).

A record class lists, once, the keys its JSON object has and the attribute (or property) each
is read from; :meth:`JsonRecord.to_json` writes them in that order. Values are written as JSON
holds them: a tuple or list as a list, a set as a sorted list, a nested record through its own
``to_json``, a mapping key by key; everything else (strings, numbers, booleans, ``None``) as
it is. Nothing is written that the class does not list, so a new field stays out of a report
until its class names it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

__all__ = ["JsonField", "JsonRecord", "json_value"]

# A key whose attribute has the same name, or (key, attribute) where they differ.
JsonField = str | tuple[str, str]


class JsonRecord:
    """A record written as one JSON object: the keys of :attr:`json_fields`, in order."""

    __slots__ = ()

    json_fields: ClassVar[tuple[JsonField, ...]] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for entry in self.json_fields:
            key, attribute = (entry, entry) if isinstance(entry, str) else entry
            out[key] = json_value(getattr(self, attribute))
        return out


def json_value(value: Any) -> Any:
    """``value`` as JSON holds it (see the module docstring)."""
    if isinstance(value, JsonRecord):
        return value.to_json()
    if isinstance(value, (list, tuple)):
        return [json_value(item) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted(json_value(item) for item in value)
    if isinstance(value, Mapping):
        return {key: json_value(item) for key, item in value.items()}
    return value
