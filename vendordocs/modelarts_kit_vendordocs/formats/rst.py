"""reStructuredText pages: section titles, ``.. table::`` captions, grid and simple tables.

Cell boundaries are explicit here, so rows are read by position, not by shape. Inline markup
(``**bold**``, ``:ref:`Name <anchor>```, literals) is reduced to its text. ``:ref:`` anchors are
not trusted first for nesting (the vendor's generator reuses one anchor for distinct tables of
the same name); nesting is derived from names and order like for every other format. The
anchors are kept, though (a row's ``refs``, a table's ``anchors``: the labels right before it,
or before the heading it is the first table under), so a reference the names cannot resolve
(a table renamed, a description pointing at a table) still finds its table by its anchor.
"""

from __future__ import annotations

import itertools
import re

from modelarts_kit_vendordocs.errors import PageError
from modelarts_kit_vendordocs.model import Block, RawPage, RawRow, RawTable
from modelarts_kit_vendordocs.text import CAPTION_RE, classify_heading, column_role, operation_line

__all__ = ["read_rst", "strip_markup"]

_TABLE_DIRECTIVE_RE = re.compile(r"^\s*\.\.\s+table::\s*(.*?)\s*$")
_UNDERLINE_RE = re.compile(r"^([=\-~^\"'`#*+])\1{2,}\s*$")
_REF_RE = re.compile(r":ref:`([^`<]*?)\s*(?:<[^`>]*>)?`")
_REF_TARGET_RE = re.compile(r":ref:`([^`<]*?)\s*(?:<([^`>]*)>)?`")
_LABEL_RE = re.compile(r"^\.\.\s+_([^:`]+):\s*$")
_LITERAL_RE = re.compile(r"``([^`]*)``")
_STRONG_RE = re.compile(r"\*\*([^*]+)\*\*")
_BULLET_LINE_RE = re.compile(r"^\s*(?:[-*+•]|\d+\.)\s+\S")
_GRID_BORDER_RE = re.compile(r"^\+(?:[-=]+\+)+$")
_SIMPLE_BORDER_RE = re.compile(r"^=+(?:\s+=+)+$")


def strip_markup(text: str) -> str:
    text = _REF_RE.sub(lambda m: m.group(1).strip(), text)
    text = _LITERAL_RE.sub(r"\1", text)
    return _STRONG_RE.sub(r"\1", text)


def cell_refs(cells: list[str]) -> tuple[tuple[int, str, str], ...]:
    """(cell index, text, target) of every ``:ref:`` in the raw ``cells`` (a reference
    without ``<target>`` names its label as its text)."""
    return tuple(
        (column, m.group(1).strip(), (m.group(2) or m.group(1)).strip())
        for column, cell in enumerate(cells)
        for m in _REF_TARGET_RE.finditer(" ".join(cell.split()))
    )


def read_rst(source: str, text: str) -> RawPage:
    lines = text.splitlines()
    blocks: list[Block] = []
    title = ""
    seen_operation = False
    pending_caption: tuple[str, int] | None = None
    labels: list[str] = []  # labels right before the next element
    heading_labels: list[str] = []  # labels of the last heading, until its first table
    anchors: list[str] = []  # the next table's
    index = 0
    while index < len(lines):
        raw = lines[index]
        stripped = raw.strip()
        number = index + 1
        anchor = _LABEL_RE.match(raw)
        if anchor is not None:
            labels.append(anchor.group(1).strip())
            index += 1
            continue
        if raw.startswith(("   ", "\t")) and stripped.startswith(".. code-block"):
            index = _skip_indented(lines, index + 1)
            continue
        if stripped.startswith(".. code-block"):
            index = _skip_indented(lines, index + 1)
            continue
        directive = _TABLE_DIRECTIVE_RE.match(raw)
        if directive is not None:
            pending_caption = (strip_markup(directive.group(1)), number)
            anchors, labels, heading_labels = [*labels, *heading_labels], [], []
            index += 1
            continue
        if _GRID_BORDER_RE.match(stripped) or _SIMPLE_BORDER_RE.match(stripped):
            if pending_caption is None:
                anchors, labels, heading_labels = [*labels, *heading_labels], [], []
            label, line = pending_caption or (f"untitled table at line {number}", number)
            table, index = _read_table(source, lines, index, label, line)
            table.anchors, anchors = tuple(anchors), []
            if pending_caption is not None:
                match = CAPTION_RE.match(label)
                table.caption_name = match.group(2) if match else label
            pending_caption = None
            blocks.append(table)
            continue
        next_line = lines[index + 1] if index + 1 < len(lines) else ""
        if stripped and _UNDERLINE_RE.match(next_line.strip()) and not raw.startswith(" "):
            heading = classify_heading(stripped, number)
            # A page's own label (before its title) names the page, not a table.
            heading_labels, labels = (labels if heading is not None or title else []), []
            if heading is not None:
                blocks.append(heading)
            elif not title:
                title = stripped
            index += 2
            continue
        if stripped:
            labels = []  # a label anchors the element right after it
        if not seen_operation:
            found = operation_line(stripped, number)
            if found is not None:
                blocks.append(found)
                seen_operation = True
                index += 1
                continue
        if stripped.startswith("**"):
            heading = classify_heading(stripped, number)
            if heading is not None:
                blocks.append(heading)
        index += 1
    return RawPage(
        source=source, format="rst", title=title, blocks=tuple(blocks), line_count=len(lines)
    )


def _skip_indented(lines: list[str], index: int) -> int:
    while index < len(lines) and (not lines[index].strip() or lines[index].startswith(" ")):
        index += 1
    return index


def _roles(source: str, header: list[str], line: int, label: str) -> tuple[str, ...]:
    roles: list[str] = []
    for cell in header:
        role = column_role(cell)
        if role is None:
            raise PageError(source, line, f"{label!r}: unknown column {cell!r}")
        roles.append(role)
    return tuple(roles)


def _read_table(
    source: str, lines: list[str], index: int, label: str, line: int
) -> tuple[RawTable, int]:
    border = lines[index].strip()
    if border.startswith("+"):
        header, rows, index = _read_grid(source, lines, index)
    else:
        header, rows, index = _read_simple(source, lines, index)
    if header is None:
        raise PageError(source, line, f"{label!r}: no header row (truncated table?)")
    roles = _roles(source, header[0], header[1], label)
    if not rows:
        raise PageError(
            source, line, f"{label!r}: the header is not followed by any row (truncated table?)"
        )
    table = RawTable(line=line, label=label, caption_name=None, columns=roles)
    for cells, row_line, refs in rows:
        table.rows.append(RawRow(cells=tuple(cells), line=row_line, refs=refs))
    return table, index


_Row = tuple[list[str], int, tuple[tuple[int, str, str], ...]]  # cells, line, refs


def _cell_text(parts: list[str]) -> str:
    """Join the lines of one cell: blank lines separate paragraphs, and so does a bullet
    (list items written without blank lines between them are still separate items)."""
    paragraphs: list[str] = []
    current: list[str] = []
    for part in parts:
        if part.strip() and _BULLET_LINE_RE.match(part) and current:
            paragraphs.append(" ".join(current))
            current = [part.strip()]
        elif part.strip():
            current.append(part.strip())
        elif current:
            paragraphs.append(" ".join(current))
            current = []
    if current:
        paragraphs.append(" ".join(current))
    return strip_markup("\n".join(paragraphs))


def _read_grid(
    source: str, lines: list[str], index: int
) -> tuple[tuple[list[str], int] | None, list[_Row], int]:
    first = lines[index]
    indent = len(first) - len(first.lstrip())
    bounds = [pos for pos, char in enumerate(first) if char == "+"]
    header: tuple[list[str], int] | None = None
    rows: list[_Row] = []
    parts: list[list[str]] = [[] for _ in bounds[:-1]]
    row_line = 0
    index += 1
    while index < len(lines):
        raw = lines[index]
        stripped = raw.strip()
        if not stripped.startswith(("|", "+")):
            break
        if _GRID_BORDER_RE.match(stripped):
            if row_line:
                cells = [_cell_text(p) for p in parts]
                if "=" in stripped:
                    header = (cells, row_line)
                else:
                    rows.append((cells, row_line, cell_refs([" ".join(p) for p in parts])))
            parts = [[] for _ in bounds[:-1]]
            row_line = 0
        else:
            if len(raw.rstrip()) < bounds[-1] + 1 or raw[indent] != "|":
                raise PageError(
                    source, index + 1, "grid table row does not line up with its border"
                )
            row_line = row_line or index + 1
            for column, (left, right) in enumerate(itertools.pairwise(bounds)):
                parts[column].append(raw[left + 1 : right])
        index += 1
    if row_line:
        raise PageError(source, row_line, "grid table row is not closed by a border (truncated?)")
    return header, rows, index


def _read_simple(
    source: str, lines: list[str], index: int
) -> tuple[tuple[list[str], int] | None, list[_Row], int]:
    border = lines[index]
    starts = [m.start() for m in re.finditer(r"=+", border)]
    borders_seen = 1
    header: tuple[list[str], int] | None = None
    rows: list[_Row] = []
    index += 1
    while index < len(lines):
        raw = lines[index]
        stripped = raw.strip()
        if _SIMPLE_BORDER_RE.match(stripped):
            borders_seen += 1
            index += 1
            if borders_seen == 3:
                return header, rows, index
            continue
        if not stripped:
            break
        cells = [
            raw[left:right].strip() if right else raw[left:].strip()
            for left, right in zip(starts, [*starts[1:], 0], strict=True)
        ]
        refs = cell_refs(cells)
        cells = [strip_markup(cell) for cell in cells]
        if borders_seen == 1:
            header = (cells, index + 1)
        elif cells[0] == "" and rows:
            previous, line, before = rows[-1]
            merged = [f"{a} {b}".strip() for a, b in zip(previous, cells, strict=True)]
            rows[-1] = (merged, line, before + refs)
        else:
            rows.append((cells, index + 1, refs))
        index += 1
    raise PageError(source, index, "simple table is not closed by a border line (truncated?)")
