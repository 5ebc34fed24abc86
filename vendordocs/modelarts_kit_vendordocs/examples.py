"""The JSON examples of a page: every object or array under "Example Requests" / "Example
Responses" (any page format), with its side, the status code heading above it and its line.

A request example may start with the request line (``POST https://endpoint/...``), on a
line of its own or before the body on the same line; it is skipped. ``//`` comments after a
value (outside strings) are removed before decoding; an example that still does not decode
is a :class:`BrokenExample` (a page note, never a guess at part of it). Scalars (``""``,
``null``: "No Content") are not examples of a body.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from modelarts_kit_vendordocs.model import HeadingKind
from modelarts_kit_vendordocs.text import classify_heading

__all__ = ["BrokenExample", "PageExample", "page_examples"]

_SECTION_RE = re.compile(
    r"^\s*(?:\*\*)?(example (?P<side>requests?|responses?)|(?P<zh>请求|响应)示例)(?:\*\*)?\s*$",
    re.I,
)
# Headings that end the example sections (a "Status code: 200" inside them does not).
_ENDS = frozenset({HeadingKind.STATUS_CODES, HeadingKind.ERROR_CODES})
# Where a body starts: at the start of a line, or after the request line on the same line.
_BODY_START_RE = re.compile(r"^\s*(?:(?:GET|POST|PUT|DELETE|PATCH)\s+\S+\s+)?(?=[{\[])")
# Examples are small: a page's example this long is not one (and is not read further).
MAX_EXAMPLE_LINES = 2000


@dataclass(frozen=True)
class PageExample:
    side: str  # request | response
    status: int | None  # the "Status code: NNN" heading above a response example
    line: int  # the line the JSON starts on
    value: Any


@dataclass(frozen=True)
class BrokenExample:
    side: str
    line: int
    reason: str


def _without_comment(line: str) -> str:
    """``"a" : 1, // why`` -> ``"a" : 1,``: a ``//`` outside strings ends the line."""
    in_string = escaped = False
    for index, char in enumerate(line):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = in_string
        elif char == '"':
            in_string = not in_string
        elif char == "/" and not in_string and line[index + 1 : index + 2] == "/":
            return line[:index].rstrip()
    return line


def _decode(lines: list[str], start: int, column: int) -> tuple[Any, int] | str:
    """The JSON value starting at ``lines[start][column:]`` and the number of lines it spans,
    or why it does not decode."""
    window = [lines[start][column:], *lines[start + 1 : start + MAX_EXAMPLE_LINES]]
    window = [_without_comment(line) for line in window]
    text = "\n".join(window)
    try:
        value, end = json.JSONDecoder().raw_decode(text.lstrip())
    except json.JSONDecodeError as exc:
        return f"not JSON ({exc.msg} at its line {exc.lineno})"
    offset = len(text) - len(text.lstrip())
    return value, text[: offset + end].count("\n") + 1


def page_examples(text: str) -> tuple[list[PageExample], list[BrokenExample]]:
    lines = text.splitlines()
    found: list[PageExample] = []
    broken: list[BrokenExample] = []
    side: str | None = None
    status: int | None = None
    index = 0
    while index < len(lines):
        line = lines[index]
        section = _SECTION_RE.match(line)
        heading = classify_heading(line, index + 1)
        if section is not None:
            word = (section.group("side") or section.group("zh") or "").lower()
            side = "request" if word.startswith(("request", "请求")) else "response"
            status = None
        elif heading is not None and heading.kind in _ENDS:
            side = None
        elif heading is not None and heading.kind is HeadingKind.STATUS:
            status = int(heading.value)
        elif side is not None and (body := _BODY_START_RE.match(line)) is not None:
            decoded = _decode(lines, index, body.end())
            if isinstance(decoded, str):
                broken.append(BrokenExample(side, index + 1, decoded))
                index = _block_end(lines, index)
                continue
            value, spanned = decoded
            found.append(
                PageExample(side, status if side == "response" else None, index + 1, value)
            )
            index += spanned
            continue
        index += 1
    return found, broken


def _block_end(lines: list[str], start: int) -> int:
    """Past an example that does not decode: the next line as little indented as its first
    that closes it (``}`` / ``]``), or the next blank line after one."""
    indent = len(lines[start]) - len(lines[start].lstrip())
    for index in range(start + 1, min(len(lines), start + MAX_EXAMPLE_LINES)):
        stripped = lines[index].strip()
        here = len(lines[index]) - len(lines[index].lstrip())
        if stripped[:1] in ("}", "]") and here <= indent:
            return index + 1
    return start + 1
