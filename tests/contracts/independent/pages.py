"""Readers of the vendor's pages in ``spec/sources``, written for this server alone.

Nothing here imports the kit: the pipe tables of the create page, the grid tables of the
family pages and the JSON examples of each page are read with the few lines below, so the
independent server shares no reading with the kit's own page parser.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

SOURCES = Path(__file__).resolve().parents[3] / "spec" / "sources"
CREATE_PAGE = SOURCES / "seeds" / "004_126c216e710dc1ec.txt"
TERMINATE_PAGE = SOURCES / "seeds" / "000_8e5e63a75c0c5722.txt"
SHOW_PAGE = SOURCES / "seeds" / "003_268fe6fc14cf50e2.txt"
FAMILY = SOURCES / "family"
LIST_PAGE = FAMILY / "querying_a_training_job_list_2024-11.rst"
EVENTS_PAGE = FAMILY / "obtaining_the_events_of_a_training_job_2025-08.rst"
FLAVORS_PAGE = (
    FAMILY / "obtaining_the_general_specifications_supported_by_a_training_job_2024-11.rst"
)
ENGINES_PAGE = FAMILY / "obtaining_the_preset_ai_frameworks_supported_by_a_training_job_2024-11.rst"
PREVIEW_PAGE = (
    FAMILY / "querying_the_logs_of_a_specified_task_in_a_given_training_job_preview_2024-11.rst"
)
LOGS_URL_PAGE = (
    FAMILY / "querying_the_logs_of_a_specified_task_in_a_training_job_obs_link_2024-11.rst"
)
METRICS_PAGE = (
    FAMILY / "querying_the_running_metrics_of_a_specified_task_in_a_training_job_2024-11.rst"
)
ERROR_CODES_PAGE = SOURCES / "reference" / "error_codes.rst"


@dataclass(frozen=True)
class Row:
    """One row of a request table: the page's four columns."""

    name: str
    mandatory: bool
    type: str
    description: str


_PIPE_HEADER = re.compile(
    r"\nParameter \|\nMandatory \|\nType \|\nDescription \|\n---\|---\|---\|---\|\n"
)


@cache
def pipe_tables(page: Path) -> tuple[tuple[Row, ...], ...]:
    """The request tables of a pipe-table page (page 004), in page order.

    A cell ends with ``|`` at the end of a line; a row is four cells. Response tables have no
    Mandatory column and are not read.
    """
    text = page.read_text(encoding="utf-8")
    text = text.split("\nResponse Parameters\n", 1)[0]
    tables = []
    for part in _PIPE_HEADER.split(text)[1:]:
        cells = [cell.strip() for cell in re.split(r"\|\n", part)]
        rows = []
        for at in range(0, len(cells) - 3, 4):
            name, mandatory, kind, description = cells[at : at + 4]
            if mandatory not in ("Yes", "No"):
                break
            rows.append(Row(name, mandatory == "Yes", kind, description))
        tables.append(tuple(rows))
    return tuple(tables)


@cache
def grid_tables(page: Path, section: str) -> tuple[tuple[Row, ...], ...]:
    """The four-column grid tables of an RST page under one section heading (``URI`` or
    ``Request Parameters``): wrapped cells are joined."""
    text = page.read_text(encoding="utf-8")
    body = text.split(f"\n{section}\n", 1)[1]
    body = re.split(r"\n(?:Response Parameters|Request Parameters)\n", body, maxsplit=1)[0]
    tables: list[tuple[Row, ...]] = []
    rows: list[list[str]] = []
    current: list[str] | None = None
    for line in body.splitlines():
        line = line.strip()
        if line.startswith("+="):
            rows, current = [], None
        elif line.startswith("+-"):
            if current is not None:
                rows.append(current)
            current = None
        elif line.startswith("|"):
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            if cells[:2] == ["Parameter", "Mandatory"]:
                if rows:
                    tables.append(_rows(rows))
                rows = []
                continue
            if current is None:
                current = cells
            else:
                current = [f"{a} {b}".strip() for a, b in zip(current, cells, strict=False)]
        elif not line and current is None and rows:
            tables.append(_rows(rows))
            rows = []
    if rows:
        tables.append(_rows(rows))
    return tuple(tables)


def _rows(cells: list[list[str]]) -> tuple[Row, ...]:
    return tuple(Row(c[0], c[1] == "Yes", c[2], c[3]) for c in cells if len(c) >= 4)


@cache
def examples(page: Path) -> tuple[Any, ...]:
    """Every JSON object a page prints as an example (request or response), in page order."""
    text = page.read_text(encoding="utf-8")
    found = []
    decoder = json.JSONDecoder()
    at = 0
    while (start := text.find("{", at)) != -1:
        try:
            value, end = decoder.raw_decode(text, start)
        except ValueError:
            at = start + 1
            continue
        if isinstance(value, dict) and value:
            found.append(value)
        at = end
    return tuple(found)


@cache
def error_codes() -> dict[str, int]:
    """``ModelArts.NNNN`` -> its status, from the error-code table (first row of a code)."""
    codes: dict[str, int] = {}
    pattern = re.compile(r"^\|\s*(\d{3})\s*\|\s*(ModelArts\.\d{4})\s*\|", re.M)
    for status, code in pattern.findall(ERROR_CODES_PAGE.read_text(encoding="utf-8")):
        codes.setdefault(code, int(status))
    return codes
