"""The intermediate page model every format reader produces.

A format reader only knows its layout (one cell per line, reStructuredText grids, pipe rows):
it turns a page into an ordered list of :class:`Block` (headings, the operation line, tables
with their raw cells). Everything that depends on meaning (which side a table documents,
nesting, dotted paths, enums) is derived afterwards from these blocks by one shared step,
:func:`modelarts_kit_vendordocs.inventory.build_inventory`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class HeadingKind(Enum):
    """Section headings that change how the tables after them are read."""

    REQUEST = "request"  # "Request Parameters" / "请求参数"
    RESPONSE = "response"  # "Response Parameters" / "响应参数"
    STATUS = "status"  # "Status code: 202" / "状态码: 202" (value holds the code)
    STATUS_CODES = "status-codes"  # the "Status Codes" section with its code table
    EXAMPLES = "examples"  # "Example Requests" / "请求示例": no parameter tables follow
    ERROR_CODES = "error-codes"  # "Error Codes" / "错误码"
    NONE = "none"  # a section saying "None" (no request body)


@dataclass(frozen=True)
class Heading:
    kind: HeadingKind
    line: int
    value: str = ""


@dataclass(frozen=True)
class OperationLine:
    """The ``METHOD /path`` line under "URI"."""

    method: str
    path: str
    line: int


@dataclass(frozen=True)
class RawRow:
    """One table row: cells in column order, as written (inline markup removed)."""

    cells: tuple[str, ...]
    line: int
    # Every cross-reference a cell writes (reStructuredText ``:ref:`text <target>```), as
    # (cell index, text, target): the anchors a type or description points at.
    refs: tuple[tuple[int, str, str], ...] = ()


@dataclass
class RawTable:
    """A table as printed: caption (if any), header cells, rows."""

    line: int  # line of the caption, or of the header when there is no caption
    label: str  # "Table 5 Status", "表5 Status", or "untitled table at line 44"
    caption_name: str | None  # the name after "Table N" ("Status"), None when untitled
    columns: tuple[str, ...]
    rows: list[RawRow] = field(default_factory=list)
    # The anchors a cross-reference may name this table by: the labels written right before
    # it, and those of the heading it is the first table under (reStructuredText).
    anchors: tuple[str, ...] = ()


Block = Heading | OperationLine | RawTable


@dataclass(frozen=True)
class RawPage:
    """A page as a format reader understood it."""

    source: str  # file name as given on the command line
    format: str  # "webtext" | "rst" | "pipe"
    title: str
    blocks: tuple[Block, ...]
    line_count: int
