"""Text copied from a rendered web page: one table cell per paragraph.

The layout carries no row boundaries, so rows are recognised by shape: a parameter name,
then (when the table has that column) a mandatory flag, then a type; every paragraph after
that up to the next row or table belongs to the description (bullet lists, notes). Everything
before the ``METHOD /path`` line (site navigation, breadcrumbs) is ignored.
"""

from __future__ import annotations

import re

from modelarts_kit_vendordocs.errors import PageError
from modelarts_kit_vendordocs.model import Block, HeadingKind, RawPage, RawRow, RawTable
from modelarts_kit_vendordocs.text import (
    CAPTION_RE,
    FIELD_NAME_RE,
    classify_heading,
    column_role,
    is_mandatory_cell,
    is_type_cell,
    operation_line,
)

__all__ = ["read_webtext"]

_CODE_RE = re.compile(r"^\d{3}$")


class _Cells:
    """The non-blank paragraphs of a page with their 1-based line numbers."""

    def __init__(self, text: str) -> None:
        self.items: list[tuple[int, str]] = [
            (number, line.strip())
            for number, line in enumerate(text.splitlines(), start=1)
            if line.strip()
        ]

    def __len__(self) -> int:
        return len(self.items)

    def text(self, index: int) -> str:
        return self.items[index][1] if index < len(self.items) else ""

    def line(self, index: int) -> int:
        return self.items[index][0] if index < len(self.items) else 0


def read_webtext(source: str, text: str) -> RawPage:
    cells = _Cells(text)
    blocks: list[Block] = []
    title = ""
    index = 0
    # Site navigation comes first: skip to the operation line, keeping the page title
    # (the paragraph before "Function").
    while index < len(cells):
        found = operation_line(cells.text(index), cells.line(index))
        if found is not None:
            blocks.append(found)
            index += 1
            break
        if cells.text(index) in ("Function", "功能介绍"):
            # The title is the paragraph before "Function", skipping the "Updated on" line.
            back = index - 1
            while back >= 0 and cells.text(back).startswith(("Updated on", "更新时间")):
                back -= 1
            title = cells.text(back) if back >= 0 else ""
        index += 1
    while index < len(cells):
        cell = cells.text(index)
        if _is_caption(cells, index):
            table, index = _read_table(source, cells, index, caption=True)
            blocks.append(table)
            continue
        heading = classify_heading(cell, cells.line(index))
        if heading is not None:
            blocks.append(heading)
            index += 1
            if heading.kind is HeadingKind.STATUS_CODES and column_role(cells.text(index)):
                table, index = _read_table(source, cells, index, caption=False)
                blocks.append(table)
            continue
        index += 1
    return RawPage(
        source=source,
        format="webtext",
        title=title,
        blocks=tuple(blocks),
        line_count=len(text.splitlines()),
    )


def _is_caption(cells: _Cells, index: int) -> bool:
    return (
        CAPTION_RE.match(cells.text(index)) is not None
        and column_role(cells.text(index + 1)) is not None
    )


def _is_table_end(cells: _Cells, index: int) -> bool:
    if index >= len(cells):
        return True
    text = cells.text(index)
    heading = classify_heading(text, 0)
    # A paragraph reading "None" inside a table is a description, not the "no body" marker.
    return (
        _is_caption(cells, index)
        or (heading is not None and heading.kind is not HeadingKind.NONE)
        or operation_line(text, 0) is not None
    )


def _read_table(source: str, cells: _Cells, index: int, *, caption: bool) -> tuple[RawTable, int]:
    start_line = cells.line(index)
    label = f"untitled table at line {start_line}"
    caption_name: str | None = None
    if caption:
        label = cells.text(index)
        match = CAPTION_RE.match(label)
        caption_name = match.group(2) if match else None
        index += 1
    roles: list[str] = []
    while index < len(cells) and len(roles) < 5:
        role = column_role(cells.text(index))
        if role is None or role in roles:
            break
        roles.append(role)
        index += 1
    table = RawTable(line=start_line, label=label, caption_name=caption_name, columns=tuple(roles))
    if "status" in roles:
        index = _read_status_rows(cells, index, table)
    elif "name" in roles and "type" in roles:
        index = _read_field_rows(source, cells, index, table)
    else:
        raise PageError(
            source, start_line, f"{label!r}: header {roles} has no Parameter and Type columns"
        )
    if not table.rows:
        raise PageError(
            source,
            start_line,
            f"{label!r}: the header is not followed by any row (truncated table?)",
        )
    return table, index


def _row_starts(cells: _Cells, index: int, has_mandatory: bool) -> bool:
    if FIELD_NAME_RE.match(cells.text(index)) is None:
        return False
    follower = cells.text(index + 1)
    return is_type_cell(follower) or (has_mandatory and is_mandatory_cell(follower))


def _read_field_rows(source: str, cells: _Cells, index: int, table: RawTable) -> int:
    has_mandatory = "mandatory" in table.columns
    while not _is_table_end(cells, index):
        name, line = cells.text(index), cells.line(index)
        if not _row_starts(cells, index, has_mandatory):
            if index + 1 >= len(cells) and FIELD_NAME_RE.match(name):
                raise PageError(source, line, f"{table.label!r}: row {name!r} has no type cell")
            raise PageError(
                source,
                line,
                f"{table.label!r}: expected a parameter row (name, type, description), "
                f"found {name[:60]!r}",
            )
        index += 1
        mandatory = ""
        if has_mandatory and is_mandatory_cell(cells.text(index)):
            mandatory = cells.text(index)
            index += 1
        type_text = cells.text(index)
        index += 1
        description: list[str] = []
        while not _is_table_end(cells, index) and not _row_starts(cells, index, has_mandatory):
            description.append(cells.text(index))
            index += 1
        values = {"name": name, "mandatory": mandatory, "type": type_text}
        values["description"] = "\n".join(description)
        table.rows.append(
            RawRow(cells=tuple(values.get(role, "") for role in table.columns), line=line)
        )
    return index


def _read_status_rows(cells: _Cells, index: int, table: RawTable) -> int:
    while not _is_table_end(cells, index) and _CODE_RE.match(cells.text(index)):
        code, line = cells.text(index), cells.line(index)
        index += 1
        description: list[str] = []
        while not _is_table_end(cells, index) and not _CODE_RE.match(cells.text(index)):
            description.append(cells.text(index))
            index += 1
        values = {"status": code, "description": "\n".join(description)}
        table.rows.append(
            RawRow(cells=tuple(values.get(role, "") for role in table.columns), line=line)
        )
    return index
