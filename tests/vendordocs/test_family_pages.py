"""The nine family pages (``spec/sources/family/*.rst``): every table of every page is read,
and what the reStructuredText reader used to miss on them is read right, on page excerpts.

* a value list in brackets (the events page: ``The value range is [Info Error Warning].``);
* a value offered beside the default (the list page's ``order``: ``The default value is
  desc ... You can also set this parameter to asc``);
* a table that prints its rows twice (the logs preview page's path parameters): read once,
  with a note naming the repeated row.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from modelarts_kit_vendordocs import extract_page, extract_text
from modelarts_kit_vendordocs.drift import diff_pages

from .support import REPO

FAMILY = REPO / "spec" / "sources" / "family"
PAGES = sorted(FAMILY.glob("*.rst"))


def grid(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    """A reStructuredText grid table, indented under a ``.. table::`` directive."""
    widths = [max(len(cell) for cell in column) for column in zip(header, *rows, strict=True)]

    def border(char: str) -> str:
        return "   +" + "+".join(char * (w + 2) for w in widths) + "+"

    def line(cells: tuple[str, ...]) -> str:
        return (
            "   |" + "|".join(f" {c.ljust(w)} " for c, w in zip(cells, widths, strict=True)) + "|"
        )

    out = [border("-"), line(header), border("=")]
    for row in rows:
        out += [line(row), border("-")]
    return out


def page(operation: str, *tables: tuple[str, tuple[str, ...], list[tuple[str, ...]]]) -> str:
    lines = ["Excerpt", "=======", "", "URI", "---", "", operation, ""]
    for caption, header, rows in tables:
        lines += [f".. table:: **{caption}", "", *grid(header, rows), ""]
    return "\n".join(lines) + "\n"


PARAMETER = ("Parameter", "Mandatory", "Type", "Description")
EVENTS = "GET /v2/{project_id}/training-jobs/{training_job_id}/events"


def test_every_table_of_every_family_page_is_read() -> None:
    assert len(PAGES) == 9, f"the family pages are missing: {FAMILY}"
    for path in PAGES:
        text = path.read_text(encoding="utf-8")
        inventory = extract_page(path)
        directives = re.findall(r"^\.\. table::", text, re.MULTILINE)
        assert len(inventory.tables) == len(directives), path.name
        assert all(table.fields for table in inventory.tables), path.name
        assert inventory.unresolved == [], path.name
        assert inventory.unattached == [], path.name
        assert inventory.cycles == [], path.name
        assert inventory.status_codes, path.name


def test_the_events_page_reads_query_header_and_both_response_bodies() -> None:
    (events,) = [p for p in PAGES if "events" in p.name]
    inventory = extract_page(events)
    sides = {(e.side, e.status, e.path) for e in inventory.fields}
    for name in ("offset", "limit", "order", "start_time", "end_time", "level", "pattern"):
        assert ("query", None, name) in sides
    assert ("header", None, "X-Language") in sides
    assert ("response", 200, "events[].message") in sides
    assert ("response", 400, "error_code") in sides
    level = next(e for e in inventory.fields if (e.side, e.path) == ("query", "level"))
    assert level.field.enum == ["Info", "Error", "Warning"]


@pytest.mark.parametrize(
    ("description", "values"),
    [
        ("Level of the event to be returned. The value range is [Info Error Warning].",
         ["Info", "Error", "Warning"]),
        ("Source of the returned event. The value range is [**K8S Job Task**].",
         ["K8S", "Job", "Task"]),
        ("Source. The value range is [K8S, Job, Task].", ["K8S", "Job", "Task"]),
        ("Pattern. The value range is [a sentence, not values].", []),
        ("Limit. The value range is [1, 100].", []),
    ],
)  # fmt: skip
def test_a_bracketed_value_range_lists_the_values(description: str, values: list[str]) -> None:
    text = page(
        EVENTS, ("Table 2** Query Parameters", PARAMETER, [("level", "No", "String", description)])
    )
    (entry,) = [e for e in extract_text("events.rst", text).fields if e.path == "level"]
    assert entry.side == "query"
    assert entry.field.enum == values


LIST = "POST /v2/{project_id}/training-job-searches"
_ORDER = (
    "Order of queried jobs. The default value is **desc**, indicating the descending order. "
    "You can also set this parameter to **asc**, indicating the ascending order."
)


@pytest.mark.parametrize(
    ("description", "values"),
    [
        (_ORDER, ["desc", "asc"]),
        ("Order. You can also set this parameter to asc.", []),  # no default: no list
        ("Training job description. The default value is **NULL**.", []),
    ],
)
def test_a_value_offered_beside_the_default_is_listed(description: str, values: list[str]) -> None:
    text = page(
        LIST,
        ("Table 2** Request body parameters", PARAMETER, [("order", "No", "String", description)]),
    )
    (entry,) = [e for e in extract_text("list.rst", text).fields if e.path == "order"]
    assert entry.side == "request"
    assert entry.field.enum == values


_PROJECT = ("project_id", "Yes", "String", "Project ID.")
_JOB = ("training_job_id", "Yes", "String", "ID of a training job.")
_TASK = ("task_id", "Yes", "String", "Name of a training job.")
PREVIEW = "GET /v2/{project_id}/training-jobs/{training_job_id}/tasks/{task_id}/logs/preview"


def test_a_row_printed_twice_is_read_once_and_named(tmp_path: Path) -> None:
    rows = [_PROJECT, _JOB, _TASK, _PROJECT, _JOB, _TASK]
    text = page(PREVIEW, ("Table 1** Path Parameters", PARAMETER, rows))
    inventory = extract_text("preview.rst", text)
    assert [e.path for e in inventory.fields] == ["project_id", "training_job_id", "task_id"]
    assert [(r.field, r.line - r.first_line) for r in inventory.repeated] == [
        ("project_id", 6),
        ("training_job_id", 6),
        ("task_id", 6),
    ]
    assert inventory.to_json()["repeated_rows"][0]["field"] == "project_id"
    saved = tmp_path / "preview.rst"
    saved.write_text(text, encoding="utf-8")
    notes = diff_pages([saved]).notes
    assert any(
        "repeats row 'task_id'" in note and "Table 1 Path Parameters" in note for note in notes
    )


def test_a_row_that_differs_from_an_earlier_one_is_kept() -> None:
    """Two rows of one name that say different things are the page's own conflict: both stay."""
    rows = [_PROJECT, _JOB, _TASK, ("task_id", "No", "String", "Name of a task.")]
    text = page(PREVIEW, ("Table 1** Path Parameters", PARAMETER, rows))
    inventory = extract_text("preview.rst", text)
    assert [e.path for e in inventory.fields].count("task_id") == 2
    assert inventory.repeated == []
