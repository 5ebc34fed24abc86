"""The nine family pages (``spec/sources/family/*.rst``): every table of every page is read,
and what the reStructuredText reader used to miss on them is read right, on page excerpts.

* a value list in brackets (the events page: ``The value range is [Info Error Warning].``);
* a value offered beside the default (the list page's ``order``: ``The default value is
  desc ... You can also set this parameter to asc``);
* a table that prints its rows twice (the logs preview page's path parameters): read once,
  with a note naming the repeated row;
* ``docs compare`` of two operations' pages, one shared object of each (``--old-root``,
  ``--new-root``): the list page's job against the show page's, the flavors page's flavor
  against the list page's task resource; list marks ("•", "-") alone are no change;
* the JSON examples: read (request line, ``//`` comments, status heading) and matched with
  the spec's examples of the operation (``docs diff`` kind ``example``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from modelarts_kit.main import cli
from modelarts_kit_vendordocs import Inventory, extract_page, extract_text
from modelarts_kit_vendordocs.drift import diff_pages
from modelarts_kit_vendordocs.pagediff import compare_pages

from .support import REPO, repository_copy

FAMILY = REPO / "spec" / "sources" / "family"
PAGES = sorted(FAMILY.glob("*.rst"))


def grid(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> list[str]:
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


def page(operation: str, *tables: tuple[str, tuple[str, ...], Sequence[tuple[str, ...]]]) -> str:
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


# --- docs compare across operations: one shared object of each page ----------------------

SHOW = REPO / "spec" / "sources" / "seeds" / "003_268fe6fc14cf50e2.txt"


def family(word: str) -> Path:
    (found,) = [p for p in PAGES if word in p.name]
    return found


def compare(*args: str | Path) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["docs", "compare", *map(str, args)])
    return result.exit_code, result.output


def test_the_list_pages_job_is_compared_with_the_show_pages_job() -> None:
    code, out = compare(
        SHOW, family("querying_a_training_job_list"), "--new-root", "response 200 items[]"
    )
    assert code == 1, out
    assert "(at response 200 items)" in out.splitlines()[1]
    changes = [line.split()[:2] for line in out.splitlines()[2:-1]]
    where = {path for _, path in changes}
    assert not any(path.startswith(("items", "total", "response")) for path in where)
    # The job's own fields line up: only what one page documents and the other does not moves.
    assert ["row-removed", "endpoints:"] in changes  # the list page has no endpoints
    assert not any(path.startswith("metadata.id") for path in where)
    assert ["table-renamed", "spec.volumes:"] in changes  # JobVolume on the show page


def test_the_flavors_pages_flavor_is_the_list_pages_task_resource() -> None:
    code, out = compare(
        family("general_specifications"),
        family("querying_a_training_job_list"),
        "--old-root",
        "response 200 flavors",
        "--new-root",
        "response 200 items.tasks.task_resource",
    )
    assert (code, out.splitlines()[-1]) == (0, "the two objects are the same"), out


@pytest.mark.parametrize(
    ("root", "rule"),
    [("response 200 itemz", "has no object field there"), ("body 200", "not SIDE [STATUS] [PATH]")],
)
def test_a_root_that_is_not_an_object_of_the_page_is_one_error_line(root: str, rule: str) -> None:
    code, out = compare(SHOW, family("querying_a_training_job_list"), "--new-root", root)
    assert code == 2
    (line,) = out.splitlines()
    assert line.startswith(f"error: --new-root {root!r}")
    assert rule in line


def _flavor_type(source: str, options: str) -> Inventory:
    row = ("flavor_type", "No", "String", f"Flavor type. Options: {options}")
    return extract_text(source, page(LIST, ("Table 2** Request body parameters", PARAMETER, [row])))


def test_list_marks_alone_are_no_description_change() -> None:
    old = _flavor_type("old.rst", "- CPU: central - GPU: graphics")
    assert compare_pages(old, _flavor_type("new.rst", "• CPU: central • GPU: graphics")).same
    changed = _flavor_type("new.rst", "• CPU: central • GPU: graphics cards")
    assert "description-changed" in {c.kind for c in compare_pages(old, changed).changes}


# --- examples: read from the page, matched with the spec's examples -----------------------

_EVENTS_SPEC = {
    "openapi": "3.1.0",
    "info": {"title": "events", "version": "1.0.0"},
    "paths": {
        "/v2/{project_id}/training-jobs/{training_job_id}/events": {
            "get": {
                "operationId": "ListTrainingJobEvents",
                "parameters": [
                    {"name": n, "in": "path", "required": True, "schema": {"type": "string"}}
                    for n in ("project_id", "training_job_id")
                ],
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {"total": {"type": "integer"}},
                                },
                                "examples": {
                                    "family-events-response": {"value": {"total": 27}},
                                },
                            }
                        },
                    }
                },
            }
        }
    },
}


def _events_page(example: str) -> str:
    body = page(
        EVENTS,
        ("Table 1** Path Parameters", PARAMETER, [_PROJECT, _JOB]),
    )
    response = [
        "Response Parameters",
        "-------------------",
        "",
        "**Status code: 200**",
        "",
        ".. table:: **Table 4** Response body parameters",
        "",
        *grid(("Parameter", "Type", "Description"), [("total", "Integer", "Total.")]),
        "",
        "Example Requests",
        "----------------",
        "",
        ".. code-block:: text",
        "",
        "   GET https://endpoint/v2/{project_id}/training-jobs/{training_job_id}/events",
        "",
        "Example Responses",
        "-----------------",
        "",
        "**Status code: 200**",
        "",
        "ok",
        "",
        ".. code-block::",
        "",
        *(f"   {line}" for line in example.splitlines()),
        "",
        "Status Codes",
        "------------",
        "",
        "=========== ===========",
        "Status Code Description",
        "=========== ===========",
        "200         ok",
        "=========== ===========",
    ]
    return body + "\n".join(response) + "\n"


@pytest.fixture
def events_spec(tmp_path: Path) -> Path:
    folder = tmp_path / "spec"
    folder.mkdir()
    (folder / "openapi.yaml").write_text(yaml.safe_dump(_EVENTS_SPEC), encoding="utf-8")
    (folder / "ledger.yaml").write_text(yaml.safe_dump({"entries": []}), encoding="utf-8")
    return folder / "openapi.yaml"


def _diff(tmp_path: Path, spec: Path, example: str) -> list[tuple[str, int | None, int | None]]:
    saved = tmp_path / "events.rst"
    saved.write_text(_events_page(example), encoding="utf-8")
    report = diff_pages([saved], spec_path=spec)
    return [(f.kind, f.status, f.line) for op in report.operations for f in op.findings]


def test_the_examples_of_a_page_are_read_with_side_status_and_line() -> None:
    text = _events_page('{\n  "total" : 27, // all of them\n  "url" : "http://x//y"\n}')
    inventory = extract_text("events.rst", text)
    ((side, status, value),) = [(x.side, x.status, x.value) for x in inventory.examples]
    assert (side, status, value) == ("response", 200, {"total": 27, "url": "http://x//y"})
    line = text.splitlines()[inventory.examples[0].line - 1]
    assert line.strip() == "{"


def test_an_example_the_spec_holds_is_no_finding(tmp_path: Path, events_spec: Path) -> None:
    assert _diff(tmp_path, events_spec, '{\n  "total" : 27\n}') == []


def test_an_example_the_spec_does_not_hold_is_a_finding(tmp_path: Path, events_spec: Path) -> None:
    found = _diff(tmp_path, events_spec, '{\n  "total" : 28\n}')
    ((kind, status, line),) = found
    assert (kind, status) == ("example", 200)
    assert line is not None
    saved = (tmp_path / "events.rst").read_text(encoding="utf-8").splitlines()
    assert saved[line - 1].strip() == "{"


def test_a_ledger_entry_records_an_example_left_out(tmp_path: Path, events_spec: Path) -> None:
    entry = {
        "id": "events-example-left-out",
        "pointer": "/paths/~1v2~1{project_id}~1training-jobs~1{training_job_id}~1events",
        "field": "(example)",
        "side": "response",
        "operations": ["ListTrainingJobEvents"],
        "kind": "example",
        "sources": [{"seed": "events.rst", "table": "Example Responses", "says": "(not embedded)"}],
        "decision": "the spec keeps its own example",
        "expect": {},
        "reason": "test",
    }
    (events_spec.parent / "ledger.yaml").write_text(
        yaml.safe_dump({"entries": [entry]}), encoding="utf-8"
    )
    assert _diff(tmp_path, events_spec, '{\n  "total" : 28\n}') == []


def test_an_example_that_is_not_json_is_a_page_note(tmp_path: Path, events_spec: Path) -> None:
    saved = tmp_path / "events.rst"
    saved.write_text(_events_page('{\n  "total" : 27,\n  ...\n}'), encoding="utf-8")
    report = diff_pages([saved], spec_path=events_spec)
    assert [f.kind for op in report.operations for f in op.findings] == []
    (note,) = [n for n in report.notes if "example" in n]
    assert "the response example is not JSON" in note


# --- docs update: a new revision of a family page --------------------------------------------

_DESCRIPTION_ROW = (
    "   | description | No        | String | Training job description, which consists of 0 to "
    "256 characters. The default value is **NULL**. |\n"
    "   +-------------+-----------+--------+---------------------------------------------------"
    "----------------------------------------------+\n"
)
_NAME_ROW = (
    "   | name        | No        | String | New name of the training job.                     "
    "                                              |\n"
    "   +-------------+-----------+--------+---------------------------------------------------"
    "----------------------------------------------+\n"
)


def test_docs_update_dry_run_on_a_revision_of_a_family_page(tmp_path: Path) -> None:
    spec = repository_copy(tmp_path / "repo")
    root = spec.parents[2]
    before = {p: p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
    text = family("modifying_the_description").read_text(encoding="utf-8")
    assert _DESCRIPTION_ROW in text
    page = tmp_path / "modifying_the_description_of_a_training_job_2026-01.rst"
    page.write_text(text.replace(_DESCRIPTION_ROW, _DESCRIPTION_ROW + _NAME_ROW), "utf-8")
    result = CliRunner().invoke(
        cli, ["docs", "update", str(page), "--spec", str(spec), "--dry-run"]
    )
    assert result.exit_code in (0, 1), result.output  # 1: decisions the ledger has not made
    out = result.output
    assert "a new revision of family/modifying_the_description_of_a_training_job_2024-11.rst" in out
    assert "row-added            request name: 'String'" in out
    assert "add property `name` (string) to `/components/schemas/" in out
    assert f"recorded as spec/sources/family/{page.name}" in out
    assert "dry run: nothing was written" in out.splitlines()
    assert {p: p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()} == before


def test_an_elided_item_of_an_example_array_is_no_difference(
    tmp_path: Path, events_spec: Path
) -> None:
    """The engines page elides engines with "......"; the spec's copy leaves the marker out."""
    document = yaml.safe_load(events_spec.read_text(encoding="utf-8"))
    media = document["paths"][EVENTS.split(" ", 1)[1]]["get"]["responses"]["200"]["content"]
    media["application/json"]["examples"]["family-events-response"]["value"] = {
        "total": 27,
        "events": [{"level": "Info"}, {"level": "Error"}],
    }
    events_spec.write_text(yaml.safe_dump(document), encoding="utf-8")
    elided = (
        '{\n  "total" : 27,\n  "events" : [ {"level" : "Info"}, "......", {"level" : "Error"} ]\n}'
    )
    assert _diff(tmp_path, events_spec, elided) == []
    dropped = '{\n  "total" : 27,\n  "events" : [ {"level" : "Info"}, "......" ]\n}'
    assert [kind for kind, _, _ in _diff(tmp_path, events_spec, dropped)] == ["example"]
