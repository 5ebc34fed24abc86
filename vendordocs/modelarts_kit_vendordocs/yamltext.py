"""Where a node sits in YAML text, found without parsing it: ``docs diff --propose`` and
``docs update`` edit the spec and the ledger as text (only the lines that change), and find
the lines to edit here, by JSON pointer (:func:`find_node`) or key by key (:func:`child_node`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from modelarts_kit_spec import SpecError
from modelarts_kit_spec.load import parse_yaml_text
from modelarts_kit_wire.pointers import unescape_pointer_token

__all__ = [
    "Node",
    "block_end",
    "child_node",
    "find_node",
    "indent_of",
    "inline_value",
    "is_content",
    "item_node",
    "members_of",
    "parse_inline",
    "sequence_items",
    "split_key",
]


def indent_of(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def is_content(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


@dataclass(frozen=True)
class Node:
    """Where a node sits: its key line, and the lines of its block value (start, end)."""

    line: int  # the line holding ``key:`` (or ``- `` for a sequence item)
    indent: int  # the indentation of the key (of the item's content for a sequence item)
    start: int  # first line of the block below the key
    end: int  # one past its last content line


def block_end(lines: list[str], start: int, indent: int) -> int:
    end = start
    for number in range(start, len(lines)):
        if is_content(lines[number]):
            if indent_of(lines[number]) <= indent:
                break
            end = number + 1
    return end


def _quoted_end(text: str) -> int:
    """One past the closing quote of the quoted scalar ``text`` starts with; -1 if unclosed."""
    quote, index = text[0], 1
    while index < len(text):
        char = text[index]
        if quote == '"' and char == "\\":
            index += 2
            continue
        if char == quote:
            if quote == "'" and text[index + 1 : index + 2] == "'":
                index += 2  # '' is a quote inside a single-quoted scalar
                continue
            return index + 1
        index += 1
    return -1


def split_key(text: str) -> tuple[str, str] | None:
    """``key: value`` -> (the key as YAML reads it, the text after the colon); None if no key.

    A quoted key is decoded by the YAML reader ('a: b', "x\\ny", 'it''s'); a plain key is
    taken as written (``'200'`` and ``200`` both name the status code 200)."""
    if text[:1] in ("'", '"'):
        end = _quoted_end(text)
        if end < 0:
            return None
        rest = text[end:].lstrip(" ")
        if not rest.startswith(":") or rest[1:2] not in ("", " "):
            return None
        key = parse_yaml_text(text[:end], "<key>")
        return (key if isinstance(key, str) else text[:end]), rest[1:]
    colon = text.find(": ")
    if colon < 0:
        if not text.endswith(":"):
            return None
        colon = len(text) - 1
    return text[:colon].rstrip(), text[colon + 1 :]


def members_of(lines: list[str], node: Node) -> list[tuple[int, int]]:
    """(line, indent) of each key or item of ``node``'s block, at its first content indent."""
    members: list[tuple[int, int]] = []
    level: int | None = None
    for number in range(node.start, node.end):
        line = lines[number]
        if not is_content(line):
            continue
        indent = indent_of(line)
        if number == node.line and line.lstrip().startswith("- "):
            continue
        if level is None:
            level = indent
        if indent == level:
            members.append((number, indent))
    return members


def sequence_items(lines: list[str], members: list[tuple[int, int]]) -> list[tuple[int, int]]:
    return [(n, i) for n, i in members if lines[n].lstrip().startswith("- ")]


def item_node(lines: list[str], number: int, indent: int) -> Node:
    # The item's own mapping starts on the "- " line, two columns in.
    return Node(number, indent + 2, number, block_end(lines, number + 1, indent))


def child_node(lines: list[str], node: Node, token: str) -> Node | None:
    """The child ``token`` (a key, or a sequence index) of ``node``'s block."""
    members = members_of(lines, node)
    if token.isdigit():
        items = sequence_items(lines, members)
        return item_node(lines, *items[int(token)]) if int(token) < len(items) else None
    for number, indent in members:
        text = lines[number].strip()
        if text.startswith("- "):
            continue
        split = split_key(text)
        if split is not None and split[0] == token:
            return Node(number, indent, number + 1, block_end(lines, number + 1, indent))
    # Keys of a sequence item: the first one sits on the "- " line itself.
    if node.line < len(lines) and lines[node.line].lstrip().startswith("- "):
        split = split_key(lines[node.line].lstrip()[2:].strip())
        if split is not None and split[0] == token:
            return Node(
                node.line, node.indent, node.line + 1, block_end(lines, node.line + 1, node.indent)
            )
    return None


def find_node(lines: list[str], pointer: str) -> Node | None:
    node: Node | None = Node(-1, -1, 0, len(lines))
    for token in pointer.removeprefix("#").strip("/").split("/"):
        if node is None or not token:
            break
        token = unescape_pointer_token(token)
        node = child_node(lines, node, token)
    return node


def inline_value(lines: list[str], node: Node) -> str:
    """The text after the node's key, on the key's line and any continuation lines (a flow
    list may wrap); "" when the value is a block below the key."""
    text = lines[node.line].strip()
    if text.startswith("- "):
        text = text[2:].strip()
    split = split_key(text)
    first = split[1].strip() if split is not None else ""
    if not first or first.startswith("#"):
        return ""
    more = [lines[n].strip() for n in range(node.start, node.end) if is_content(lines[n])]
    return " ".join([first, *more])


def parse_inline(value: str) -> tuple[Any, str] | None:
    """A one-line YAML value read by the one reader, and the comment that followed it."""
    cut = len(value)
    while cut > 0:
        try:
            return parse_yaml_text(value[:cut], "<value>"), value[cut:]
        except SpecError:
            cut = value.rfind(" #", 0, cut)  # try again without a trailing comment
    return None
