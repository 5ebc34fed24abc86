"""Structural rules every consumer of a spec relies on, checked in one place.

``spec validate`` reports them as findings (rules ``schema-type`` and
``path-parameter-declared``) and the generator refuses a spec that breaks one
(:func:`require_sound_structure`), so neither accepts what the other refuses:

- ``schema-type``: every ``type`` of every schema node is a JSON Schema type (``string``,
  ``number``, ``integer``, ``boolean``, ``array``, ``object``, ``null``), alone or in a list;
- ``path-parameter-declared``: every ``{name}`` of a path template is a path parameter the
  operation declares (on the path item or the operation), and every declared path parameter is
  in the template.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from modelarts_kit_spec.document import HTTP_METHODS, JSON, SpecError, pointer_join
from modelarts_kit_spec.walker import SchemaWalker, iter_schemas

__all__ = [
    "JSON_TYPES",
    "PATH_TEMPLATE",
    "StructureProblem",
    "require_sound_structure",
    "structure_problems",
]

JSON_TYPES = ("string", "number", "integer", "boolean", "array", "object", "null")
PATH_TEMPLATE = re.compile(r"\{([^{}]+)\}")


@dataclass(frozen=True, order=True)
class StructureProblem:
    pointer: str
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.pointer or '/'}: {self.message} (rule: {self.rule})"


def _mapping(value: JSON) -> Mapping[str, JSON]:
    return value if isinstance(value, Mapping) else {}


def schema_type_problems(document: JSON) -> Iterator[StructureProblem]:
    for pointer, schema in iter_schemas(document):
        if "type" not in schema:
            continue
        raw = schema["type"]
        where = pointer_join(pointer, "type")
        listed = raw if isinstance(raw, list) else [raw]
        if not listed:
            yield StructureProblem(where, "schema-type", "type is an empty list")
        for value in listed:
            if not isinstance(value, str) or value not in JSON_TYPES:
                yield StructureProblem(
                    where,
                    "schema-type",
                    f"type {value!r} is not a JSON Schema type (one of {', '.join(JSON_TYPES)})",
                )


def _path_parameter_names(walker: SchemaWalker, parameters: JSON) -> set[str]:
    names: set[str] = set()
    for parameter in parameters if isinstance(parameters, list) else []:
        try:
            resolved = _mapping(walker.deref(parameter)[0])
        except SpecError:
            continue  # an unresolvable $ref: the ref-resolves rule reports it
        if resolved.get("in") == "path" and isinstance(resolved.get("name"), str):
            names.add(resolved["name"])
    return names


def path_parameter_problems(document: JSON) -> Iterator[StructureProblem]:
    walker = SchemaWalker(document)
    for path, item in _mapping(_mapping(document).get("paths")).items():
        try:
            item = _mapping(walker.deref(item)[0])
        except SpecError:
            continue
        in_template = PATH_TEMPLATE.findall(str(path))
        shared = _path_parameter_names(walker, item.get("parameters"))
        for method in HTTP_METHODS:
            op = item.get(method)
            if not isinstance(op, Mapping):
                continue
            declared = shared | _path_parameter_names(walker, op.get("parameters"))
            pointer = pointer_join("/paths", path, method)
            for name in sorted(set(in_template) - declared):
                yield StructureProblem(
                    pointer,
                    "path-parameter-declared",
                    f"path {path!r} has {{{name}}} but no path parameter {name!r} is declared",
                )
            for name in sorted(declared - set(in_template)):
                yield StructureProblem(
                    pointer,
                    "path-parameter-declared",
                    f"declared path parameter {name!r} is not in the path template {path!r}",
                )


def structure_problems(document: JSON) -> list[StructureProblem]:
    """Every structural problem of ``document``, sorted by pointer."""
    return sorted({*schema_type_problems(document), *path_parameter_problems(document)})


def require_sound_structure(document: JSON, source: str) -> None:
    """Raise :class:`SpecError` naming the first structural problem (and how many more)."""
    problems = structure_problems(document)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise SpecError(f"{source}: {problems[0]}{more}")
