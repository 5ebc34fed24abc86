"""A field whose fields are in another table, pointed at with ``:ref:`` (reStructuredText), is
read from that table whatever anchor the page names it by: the label right before the table,
the label before the heading it is the first table under, its caption or title, in the type
cell or in the description -- also when the table was renamed so its name no longer matches
the reference's text (issue 33: a metrics revision renames its table, and the fields under it
were read as removed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from modelarts_kit.main import cli
from modelarts_kit_vendordocs import extract_text

from .support import REPO
from .test_rst_pages_read import grid

METRICS = (
    REPO
    / "spec"
    / "sources"
    / "family"
    / "querying_the_running_metrics_of_a_specified_task_in_a_training_job_2024-11.rst"
)
LABEL = ".. _en-us_topic_0000002042965024__response_metrics:"
REF = ":ref:`metrics <en-us_topic_0000002042965024__response_metrics>`"
RENAMED = (".. table:: **Table 3** metrics", ".. table:: **Table 3** MetricObject")
FIELDS = ["metrics", "metrics[].metric", "metrics[].value"]


def _with_table_2(text: str, written: str, description: str) -> str:
    """The page with Table 2's one row written anew (type cell, description)."""
    start = text.index(".. table:: **Table 2** Response body parameters")
    first = text.index("   +", start)
    end = text.index("\n\n", first)
    table = grid(("Parameter", "Type", "Description"), [("metrics", written, description)])
    return text[:first] + "\n".join(table) + text[end:]


def _variant(form: str) -> str:
    text = METRICS.read_text(encoding="utf-8").replace(*RENAMED)
    assert LABEL in text
    if form == "label before the table":
        return text
    if form == "label before the heading":
        heading = f"{LABEL}\n\nMetricObject\n^^^^^^^^^^^^\n\nThe fields of a metric."
        return text.replace(LABEL, heading)
    if form == "the table's title":
        text = text.replace(LABEL + "\n", "")
        return _with_table_2(text, "Array of :ref:`metrics <MetricObject>` objects", "Metrics.")
    if form == "the table's caption":
        text = text.replace(LABEL + "\n", "")
        return _with_table_2(text, "Array of :ref:`metrics <Table 3>` objects", "Metrics.")
    if form == "a description's reference":
        text = text.replace(LABEL, ".. _tbl-metrics:")
        return _with_table_2(
            text, "Array of objects", "Running metrics (see :ref:`Table 3 <tbl-metrics>`)."
        )
    raise AssertionError(form)


@pytest.mark.parametrize(
    "form",
    [
        "label before the table",
        "label before the heading",
        "the table's title",
        "the table's caption",
        "a description's reference",
    ],
)
def test_a_ref_finds_its_table_by_any_anchor(form: str) -> None:
    inventory = extract_text(METRICS.name, _variant(form))
    assert [e.path for e in inventory.fields if e.side == "response"] == FIELDS
    assert inventory.unattached == []
    assert inventory.unresolved == []


def test_names_still_come_first_where_they_resolve() -> None:
    # The page as recorded: the reference's text names the table; the anchor agrees.
    inventory = extract_text(METRICS.name, METRICS.read_text(encoding="utf-8"))
    assert [e.path for e in inventory.fields if e.side == "response"] == FIELDS


def test_a_reference_to_another_page_links_nothing() -> None:
    text = _with_table_2(
        METRICS.read_text(encoding="utf-8").replace(*RENAMED),
        "Array of objects",
        "Running metrics (see :ref:`Error Codes <modelarts_03_0095>`).",
    )
    inventory = extract_text(METRICS.name, text)
    assert [e.path for e in inventory.fields if e.side == "response"] == ["metrics"]
    assert [t.label for t in inventory.unattached] == ["Table 3 MetricObject"]


def test_a_renamed_table_is_no_api_change_for_docs_diff_and_compare(tmp_path: Path) -> None:
    page = tmp_path / "querying_the_running_metrics_of_a_specified_task_in_a_training_job_2026.rst"
    page.write_text(_variant("label before the table"), encoding="utf-8")
    runner = CliRunner()
    diff = runner.invoke(cli, ["docs", "diff", str(page)])
    assert diff.exit_code == 0, diff.output
    assert "not referenced by any field" not in diff.output
    compare = runner.invoke(cli, ["docs", "compare", str(METRICS), str(page)])
    assert "removed" not in compare.output, compare.output
