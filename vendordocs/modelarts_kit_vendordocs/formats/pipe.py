"""Pipe tables (``cell |`` per line, a ``---|---|`` separator under the header), no captions.

Every cell ends with ``|``; a cell whose text spans several lines ends on the first line that
ends with ``|``. Rows hold exactly as many cells as the separator has columns. The tables have
no titles: their names are inferred later, from the order in which the ``X object``
references that point to them appear (see :mod:`modelarts_kit_vendordocs.inventory`).
"""

from __future__ import annotations

import re

from modelarts_kit_vendordocs.errors import PageError
from modelarts_kit_vendordocs.model import Block, RawPage, RawRow, RawTable
from modelarts_kit_vendordocs.text import classify_heading, column_role, operation_line

__all__ = ["read_pipe"]

SEPARATOR_RE = re.compile(r"^(?:\s*-{3,}\s*\|)+\s*$")


def read_pipe(source: str, text: str) -> RawPage:
    lines = text.splitlines()
    separators = [i for i, line in enumerate(lines) if SEPARATOR_RE.match(line)]
    header_starts = {sep - line.count("|"): sep for sep in separators for line in [lines[sep]]}
    blocks: list[Block] = []
    title = lines[0].strip() if lines else ""
    seen_operation = False
    index = 0
    while index < len(lines):
        stripped = lines[index].strip()
        if index in header_starts:
            table, index = _read_table(source, lines, index, header_starts[index], header_starts)
            blocks.append(table)
            continue
        if not seen_operation:
            found = operation_line(stripped, index + 1)
            if found is not None:
                blocks.append(found)
                seen_operation = True
                index += 1
                continue
        heading = classify_heading(stripped, index + 1)
        if heading is not None:
            blocks.append(heading)
        index += 1
    return RawPage(
        source=source, format="pipe", title=title, blocks=tuple(blocks), line_count=len(lines)
    )


def _read_table(
    source: str, lines: list[str], start: int, separator: int, header_starts: dict[int, int]
) -> tuple[RawTable, int]:
    width = lines[separator].count("|")
    header = [line.strip().removesuffix("|").strip() for line in lines[start:separator]]
    label = f"untitled table at line {start + 1}"
    roles: list[str] = []
    for offset, cell in enumerate(header):
        role = column_role(cell)
        if role is None:
            raise PageError(source, start + 1 + offset, f"{label!r}: unknown column {cell!r}")
        roles.append(role)
    table = RawTable(line=start + 1, label=label, caption_name=None, columns=tuple(roles))
    cells: list[tuple[str, int]] = []
    current: list[str] = []
    current_line = 0
    index = separator + 1
    while index < len(lines):
        raw = lines[index].rstrip()
        if not current:
            if not raw.strip():
                index += 1
                continue
            if index in header_starts:
                break
            if classify_heading(raw, 0) is not None or operation_line(raw, 0) is not None:
                break
            current_line = index + 1
        if raw.endswith("|"):
            current.append(raw.removesuffix("|").strip())
            cells.append(("\n".join(part for part in current if part), current_line))
            current = []
        else:
            current.append(raw.strip())
        index += 1
    if current:
        raise PageError(source, current_line, f"{label!r}: cell is not closed by '|' (truncated?)")
    if not cells:
        raise PageError(
            source, start + 1, f"{label!r}: the header is not followed by any row (truncated?)"
        )
    if len(cells) % width:
        row_start = cells[len(cells) - len(cells) % width]
        raise PageError(
            source,
            row_start[1],
            f"{label!r}: last row has {len(cells) % width} of {width} cells (truncated table?)",
        )
    for offset in range(0, len(cells), width):
        row = cells[offset : offset + width]
        table.rows.append(RawRow(cells=tuple(text for text, _ in row), line=row[0][1]))
    return table, index
