"""Decided stubs reach the spec: the next ``docs update`` applies what a person decided.

``docs update`` opens a question as a ledger stub (``decision: TODO``, ``expect: {}``). A
person decides it: writes the decision, the reason, and in ``expect`` what must hold at the
entry's ``pointer`` (``{maxLength: 512}``, ``{type: integer, format: int64}``, ``{anyOf:
[{enum: [..., visualization_job]}]}``). The next run makes the spec hold it, the way ``spec
validate`` reads ``expect`` (a subset: mappings recursively, lists by containment, ``$ref``
followed): a key the spec lacks is added, a scalar that differs is replaced, a list gains the
items it lacks (an item that is a mapping merges into the spec's mapping at the same
position: ``anyOf``'s first member keeps its ``enum``). The files are edited as text, only
the lines that change, so comments and layout survive. Once the spec holds the decision, the
entry asks nothing more: it is decided, and ``expect`` holds.

An entry whose ``expect`` already holds, a TODO entry, or one without a ``pointer`` is left
alone; a decision the text cannot take (a pointer that does not resolve) is reported, never
half-applied.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from modelarts_kit_spec import LedgerEntry, SpecError
from modelarts_kit_spec.document import resolve_pointer
from modelarts_kit_spec.emit import dump_block, dump_flow
from modelarts_kit_spec.load import parse_yaml_text
from modelarts_kit_spec.validate import subset_mismatch
from modelarts_kit_wire.pointers import escape_pointer_token, unescape_pointer_token

from modelarts_kit_vendordocs.yamltext import child_node, find_node, indent_of, is_content

__all__ = ["AppliedDecisions", "apply_decisions", "set_key", "undone_decisions"]

LINE_WIDTH = 96  # the curated files' line width (the emitter's)


@dataclass(frozen=True)
class AppliedDecisions:
    text: str  # the spec text with the decisions applied
    applied: tuple[str, ...]  # ids of the entries now held by the spec
    refused: tuple[str, ...]  # "id: why" for decisions the spec text could not take


def undone_decisions(document: Any, entries: Iterable[LedgerEntry]) -> list[LedgerEntry]:
    """The decided entries whose ``expect`` does not hold at their pointer yet."""
    out: list[LedgerEntry] = []
    for entry in entries:
        if entry.todo or not entry.expect or entry.pointer is None:
            continue
        try:
            actual = resolve_pointer(document, entry.pointer)
        except KeyError:
            continue  # spec validate's ledger-pointer reports it
        if subset_mismatch(document, actual, dict(entry.expect)) is not None:
            out.append(entry)
    return out


def _target(document: Any, pointer: str) -> str:
    """``pointer``, following a local ``$ref`` the node there holds (as ``expect`` is read)."""
    seen: set[str] = set()
    while pointer not in seen:
        seen.add(pointer)
        node = resolve_pointer(document, pointer)
        ref = node.get("$ref") if isinstance(node, Mapping) else None
        if not isinstance(ref, str) or not ref.startswith("#/"):
            break
        pointer = ref[1:]
    return pointer


def _merged(document: Any, actual: Any, expected: Any) -> Any:
    """``actual`` made to hold ``expected`` (the subset rule of ``spec validate``)."""
    if isinstance(expected, Mapping) and isinstance(actual, Mapping):
        out = dict(actual)
        for key, value in expected.items():
            out[key] = _merged(document, actual[key], value) if key in actual else value
        return out
    if isinstance(expected, list) and isinstance(actual, list):
        out_list = copy.deepcopy(actual)
        for position, item in enumerate(expected):
            if any(subset_mismatch(document, have, item) is None for have in out_list):
                continue
            beside = out_list[position] if position < len(out_list) else None
            if isinstance(item, Mapping) and isinstance(beside, Mapping):
                out_list[position] = _merged(document, beside, item)
                continue
            out_list.append(item)
        return out_list
    return expected


def _key_lines(key: str, value: Any, indent: int) -> list[str]:
    """``key: value`` at ``indent``, on one line in flow style when it fits the curated
    files' width (``maxLength: 512``, ``enum: [a, b]``), else as a block."""
    line = " " * indent + f"{dump_flow(key)}: {dump_flow(value)}"
    if len(line) <= LINE_WIDTH:
        return [line]
    return dump_block({key: value}, indent)


def set_key(text: str, pointer: str, key: str, value: Any) -> str | None:
    """``text`` with ``key`` of the block mapping at ``pointer`` set to ``value`` (replaced, or
    added after its last member), written by the emitter; None when the text has no such
    block mapping."""
    lines = text.splitlines()
    node = find_node(lines, pointer)
    if node is None:
        return None
    child = child_node(lines, node, key)
    if child is not None:
        block = _key_lines(key, value, child.indent)
        line = lines[child.line]
        if line.lstrip().startswith("- ") and indent_of(line) + 2 == child.indent:
            block[0] = line[: child.indent] + block[0][child.indent :]  # keep the item's "- "
        lines[child.line : max(child.end, child.line + 1)] = block
    else:
        members = [n for n in range(node.start, node.end) if is_content(lines[n])]
        if not members or node.start == node.line:
            return None  # an inline (flow) value, or a mapping held on a "- " line
        lines[node.end : node.end] = _key_lines(key, value, indent_of(lines[members[0]]))
    return "\n".join(lines) + ("\n" if text.endswith("\n") else "")


def _walk(text: str, document: Any, pointer: str, expected: Mapping[str, Any]) -> str | None:
    """``text`` with ``expected`` written at ``pointer``, key by key (deeper only through
    mappings on both sides); None when the text cannot take it."""
    pointer = _target(document, pointer)
    actual = resolve_pointer(document, pointer)
    if not isinstance(actual, Mapping):
        return None
    for key, value in expected.items():
        if key in actual and subset_mismatch(document, actual[key], value) is None:
            continue
        here = f"{pointer}/{escape_pointer_token(key)}"
        if (
            key in actual
            and isinstance(value, Mapping)
            and isinstance(_follow(document, here), Mapping)
        ):
            edited = _walk(text, document, here, value)
        else:
            new = _merged(document, actual[key], value) if key in actual else value
            edited = set_key(text, pointer, key, new)
        if edited is None:
            return None
        text = edited
    return text


def _whole(text: str, document: Any, pointer: str, expected: Mapping[str, Any]) -> str | None:
    """``text`` with the node at ``pointer`` rewritten whole, holding ``expected`` (for a
    node written inline: ``description: {type: string}``); None for a list item."""
    pointer = _target(document, pointer)
    parent, _, token = pointer.rpartition("/")
    holder = resolve_pointer(document, parent) if parent else document
    if not isinstance(holder, Mapping):
        return None
    new = _merged(document, resolve_pointer(document, pointer), expected)
    return set_key(text, parent, unescape_pointer_token(token), new)


def _follow(document: Any, pointer: str) -> Any:
    return resolve_pointer(document, _target(document, pointer))


def apply_decisions(text: str, entries: Iterable[LedgerEntry], name: str) -> AppliedDecisions:
    """The spec ``text`` (the file ``name``) made to hold every decided entry's ``expect``."""
    applied: list[str] = []
    refused: list[str] = []
    for entry in undone_decisions(parse_yaml_text(text, name), entries):
        document = parse_yaml_text(text, name)
        pointer, expect = entry.pointer or "", dict(entry.expect or {})
        edited = _walk(text, document, pointer, expect) or _whole(text, document, pointer, expect)
        check = (
            "the spec writes it in a form this edit cannot take"
            if edited is None
            else _still_holds(edited, name, pointer, expect)
        )
        if edited is None or check:
            refused.append(f"{entry.id}: {entry.pointer}: {check}")
            continue
        text = edited
        applied.append(entry.id)
    return AppliedDecisions(text, tuple(applied), tuple(refused))


def _still_holds(text: str, name: str, pointer: str, expect: Mapping[str, Any]) -> str | None:
    """Why the edited ``text`` does not hold ``expect`` at ``pointer`` (None when it reads
    back and holds)."""
    try:
        document = parse_yaml_text(text, name)
        actual = resolve_pointer(document, pointer)
    except (SpecError, KeyError) as exc:
        return f"the edit does not read back ({exc})"
    return subset_mismatch(document, actual, dict(expect))
