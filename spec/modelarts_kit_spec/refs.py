"""The one ``$ref`` resolver of the kit: every reader that follows a ``$ref`` (the loader's
parameters, request bodies, responses and headers, ``Spec.deref``/``Spec.inline``, the schema
walker) follows it here, so they cannot disagree.

The rules:

- only local references (``#/...``) resolve; anything else is refused;
- **siblings apply** (OpenAPI 3.1 / JSON Schema 2020-12): the keywords written beside a
  ``$ref`` are kept with the target's, and where both state the same keyword the sibling wins
  (it is the more specific statement, as 3.1 says of ``summary`` and ``description``);
- a **cycle** of references (a chain of ``$ref`` that comes back to a pointer it already
  followed: two parameters referring to each other, a schema that is only a ``$ref`` to
  itself) is refused with :class:`RefCycleError`, naming the pointers. A schema that refers
  to itself *inside* its properties is recursion, not a cycle, and is not refused here.

:func:`ref_cycles` finds every cycle of a document at once; the loader calls it before it
indexes anything, so no later reader can loop.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from modelarts_kit_wire.pointers import escape_pointer_token, unescape_pointer_token

from modelarts_kit_spec.document import SpecError

__all__ = [
    "RefCycleError",
    "RefError",
    "Resolved",
    "check_ref_cycles",
    "ref_cycles",
    "resolve_ref",
]

JSON = Any


class RefError(SpecError):
    """A ``$ref`` that does not resolve or is not local."""


class RefCycleError(RefError):
    """A chain of ``$ref`` that comes back to itself; ``cycle`` lists the pointers in order."""

    def __init__(self, cycle: tuple[str, ...]) -> None:
        self.cycle = cycle
        chain = " -> ".join((*cycle, cycle[0]))
        super().__init__(
            f"$ref cycle: {chain} (rule: a $ref chain must end at a value that is not a $ref)"
        )


@dataclass(frozen=True)
class Resolved:
    """A node with its ``$ref`` chain followed."""

    node: JSON  # the target, with the siblings of every $ref on the way applied
    pointer: str  # where the target lives (the input pointer when there was no $ref)
    ref_name: str | None  # the last token of the first $ref followed, if any


def _lookup(document: JSON, ref: str, where: str) -> JSON:
    if not ref.startswith("#"):
        raise RefError(f"{where or '/'}: $ref {ref!r} is not local (rule: only '#/...' refs)")
    pointer = ref[1:]
    if pointer == "":
        return document
    if not pointer.startswith("/"):
        raise RefError(f"{where or '/'}: $ref {ref!r} is not a JSON pointer")
    node = document
    for raw in pointer[1:].split("/"):
        token = unescape_pointer_token(raw)
        if isinstance(node, Mapping) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            raise RefError(f"{where or '/'}: $ref {ref!r} does not resolve (no {token!r})")
    return node


def _ref_of(node: JSON) -> str | None:
    if isinstance(node, Mapping):
        ref = node.get("$ref")
        if isinstance(ref, str):
            return ref
    return None


def resolve_ref(document: JSON, node: JSON, pointer: str = "") -> Resolved:
    """``node`` (found at ``pointer``) with its ``$ref`` chain followed; siblings applied."""
    ref_name: str | None = None
    seen: list[str] = [pointer] if pointer else []
    siblings: dict[str, JSON] = {}
    ref = _ref_of(node)
    while ref is not None:
        here = pointer
        target_pointer = ref[1:] if ref.startswith("#") else ref
        if target_pointer in seen:
            start = seen.index(target_pointer)
            raise RefCycleError(tuple(seen[start:]))
        # Siblings seen earlier in the chain are closer to the reader: they win.
        siblings = {**{k: v for k, v in node.items() if k != "$ref"}, **siblings}
        node = _lookup(document, ref, here)
        pointer = target_pointer
        seen.append(pointer)
        ref_name = ref_name or ref.rsplit("/", 1)[-1]
        ref = _ref_of(node)
    if siblings and isinstance(node, Mapping):
        node = {**node, **siblings}
    return Resolved(node, pointer, ref_name)


def _iter_refs(node: JSON, pointer: str) -> Iterator[tuple[str, str]]:
    """Every ``(pointer, ref)`` of the document, walked without recursion."""
    stack: list[tuple[JSON, str]] = [(node, pointer)]
    while stack:
        value, here = stack.pop()
        if isinstance(value, Mapping):
            ref = value.get("$ref")
            if isinstance(ref, str):
                yield here, ref
            for key, child in value.items():
                token = escape_pointer_token(str(key))
                stack.append((child, f"{here}/{token}"))
        elif isinstance(value, list):
            stack.extend((child, f"{here}/{index}") for index, child in enumerate(value))


def ref_cycles(document: JSON) -> list[tuple[str, ...]]:
    """Every cycle of ``$ref`` chains in ``document`` (each once, from its smallest pointer)."""
    edges = {here: ref[1:] for here, ref in _iter_refs(document, "") if ref.startswith("#")}
    cycles: set[tuple[str, ...]] = set()
    done: set[str] = set()
    for start in sorted(edges):
        path: list[str] = []
        current: str | None = start
        while current is not None and current not in done and current not in path:
            path.append(current)
            current = edges.get(current)
        if current is not None and current in path:
            cycle = path[path.index(current) :]
            first = cycle.index(min(cycle))
            cycles.add(tuple(cycle[first:] + cycle[:first]))
        done.update(path)
    return sorted(cycles)


def check_ref_cycles(document: JSON) -> None:
    """Raise :class:`RefCycleError` for the first cycle of ``document`` (by pointer)."""
    cycles = ref_cycles(document)
    if cycles:
        raise RefCycleError(cycles[0])
