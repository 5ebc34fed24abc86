"""The ledger settles with its evidence: an entry settles a finding for the page its sources
name (or the page that page replaces, given with ``--replaces`` or found in the sources index),
a value the entry already weighed for its schema is settled on any page (issue 33), and an
entry that records a whole list (the create page's status codes) settles item by item."""

from __future__ import annotations

from pathlib import Path

from modelarts_kit_vendordocs.drift import DriftFinding, DriftReport, diff_pages

from .support import SEED_003, SEED_004, edit, seed_path, seed_text


def open_findings(report: DriftReport) -> list[DriftFinding]:
    return [f for op in report.operations for f in op.findings]


def settled_by(report: DriftReport) -> dict[str, str]:
    return {
        f"{f.operation} {f.field}": entry for op in report.operations for f, entry in op.reconciled
    }


def _page(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_value_the_ledger_already_decided_for_the_schema_is_settled(tmp_path: Path) -> None:
    # status-start-time-type records that the terminate pages 001 and 002 said String, and
    # decided int64; a revision of the show page saying String asks the same question again:
    # settled by that decision (issue 33), not reopened.
    text = edit(seed_text(SEED_003), "start_time\n\nLong\n", "start_time\n\nString\n")
    new = _page(tmp_path, "new-003.txt", text)
    report = diff_pages([new], replaces=seed_path(SEED_003))
    assert not [f for f in open_findings(report) if f.field == "status.start_time"]
    assert settled_by(report)["ShowTrainingJobDetails status.start_time"] == (
        "status-start-time-type"
    )


def test_a_value_no_page_said_is_reported_and_reopens_the_entry(tmp_path: Path) -> None:
    text = edit(seed_text(SEED_003), "start_time\n\nLong\n", "start_time\n\nBoolean\n")
    new = _page(tmp_path, "new-003.txt", text)
    report = diff_pages([new], replaces=seed_path(SEED_003))
    (finding,) = [f for f in open_findings(report) if f.field == "status.start_time"]
    assert finding.kind == "type"
    assert finding.page == "new-003.txt"
    assert finding.reopened == "status-start-time-type"


def test_a_revision_inherits_the_evidence_of_the_page_it_replaces(tmp_path: Path) -> None:
    new = _page(tmp_path, "new-003.txt", seed_text(SEED_003))
    report = diff_pages([new], replaces=seed_path(SEED_003))
    assert open_findings(report) == []
    # What 003 recorded settles its revision: Array<Array<Integer>> for node_count_metrics.
    assert settled_by(report)["ShowTrainingJobDetails status.node_count_metrics"] == (
        "node-count-metrics-int64"
    )


def test_a_page_alone_finds_the_page_it_replaces(tmp_path: Path) -> None:
    # docs diff NEW with no --replaces: the sources index names the current page of the same
    # operation, language and format (003), and the new page inherits its evidence.
    text = edit(seed_text(SEED_003), "start_time\n\nLong\n", "start_time\n\nBoolean\n")
    other = _page(tmp_path, "mirror-of-show.txt", text)
    report = diff_pages([other])
    assert [f.field for f in open_findings(report)] == ["status.start_time"]
    assert settled_by(report)["ShowTrainingJobDetails status.node_count_metrics"] == (
        "node-count-metrics-int64"
    )


def test_a_recorded_page_under_another_name_stands_for_itself(tmp_path: Path) -> None:
    copy = _page(tmp_path, "copy-of-003.txt", seed_text(SEED_003))
    assert open_findings(diff_pages([copy])) == []


def test_a_revision_s_changed_example_is_recorded_without_asking(tmp_path: Path) -> None:
    text = edit(seed_text(SEED_003), '"start_time" : 0', '"start_time" : 12')
    new = _page(tmp_path, "new-003.txt", text)
    report = diff_pages([new], replaces=seed_path(SEED_003))
    assert open_findings(report) == []
    assert [f.kind for op in report.operations for f in op.layout] == ["example"]


_ERROR_BODY = (
    "Format of the body for a common error response. The following shows the returned "
    "information when an algorithm with ID 3f5d6706-7b67-408d-8ba0-ec08048c45ee is not found."
)
_EXAMPLE_400 = (
    '{ "error_msg" : "algorithm not found.", "error_code" : "ModelArts.2755", "error_solution" : '
    '"Check whether the training project information in the request is valid." }\n'
)
_TABLE_400 = (
    "Status code: 400\nParameter |\nType |\nDescription |\n---|---|---|\nerror_msg |\nString |\n"
    "Error message |\nerror_code |\nString |\nError code |\nerror_solution |\nString |\n"
    "Solution |\n"
)


def create_page_without_400() -> str:
    """The create page as a revision listing 201 only: no 400 row, body table or example."""
    text = edit(seed_text(SEED_004), f"400 |\n{_ERROR_BODY} |\n", "")
    text = edit(text, f"Status code: 400\n{_ERROR_BODY}\n{_EXAMPLE_400}", "")
    return edit(text, _TABLE_400, "")


def test_a_list_entry_reopens_only_the_item_that_changed(tmp_path: Path) -> None:
    # create-status-codes recorded "201 ok; 400 error body": a revision listing only 201
    # changes one fact (400 is no longer listed), not the spec's eight other codes.
    new = _page(tmp_path, "new-004.txt", create_page_without_400())
    report = diff_pages([new], replaces=seed_path(SEED_004))
    codes = [f for f in open_findings(report) if f.kind == "status-code"]
    assert [(f.field, f.direction) for f in codes] == [("400", "spec")]
    assert codes[0].reopened is not None
    settled_codes = {k for k in settled_by(report) if k.split()[-1].isdigit()}
    assert len(settled_codes) == 7  # 401, 403, 404, 413, 429, 500 and 503


def test_a_code_the_revision_adds_is_reported_alone(tmp_path: Path) -> None:
    text = edit(
        seed_text(SEED_004), "Error Codes\nSee Error Codes.", "409 |\nConflict. |\nError Codes\n"
    )
    new = _page(tmp_path, "new-004.txt", text)
    report = diff_pages([new], replaces=seed_path(SEED_004))
    codes = [f for f in open_findings(report) if f.kind == "status-code"]
    assert [(f.field, f.direction) for f in codes] == [("409", "docs")]


def test_inline_value_forms_of_real_pages_are_read() -> None:
    from modelarts_kit_vendordocs.enums import extract_enum
    from modelarts_kit_vendordocs.types import parse_type

    string = parse_type("String")
    joined = (
        "Running metric. Options: cpuUsage: CPU usage memUsage: physical memory usage "
        "gpuUtil: GPU utilization"
    )
    assert extract_enum(joined, string) == ["cpuUsage", "memUsage", "gpuUtil"]
    which = "Search criteria, which can be **between**, **like**, **in**, or **not**"
    assert extract_enum(which, string) == ["between", "like", "in", "not"]
    inline = "The value can be: JobStarted: the job started, JobFailed: the job failed."
    assert extract_enum(inline, string) == ["JobStarted", "JobFailed"]
    assert extract_enum("A name which can be used to find the job.", string) == []
    assert extract_enum("Options: Note: read this. Minimum: 1", string) == []


def test_a_region_tagged_item_is_a_value() -> None:
    from modelarts_kit_vendordocs.enums import extract_enum
    from modelarts_kit_vendordocs.types import parse_type

    text = (
        "Training job type. Options:\n- job: Training job\n"
        "- mrs_job: MRS job [- edge_job: Edge job] (tag:hk,hc,fcs,fcs-super)"
    )
    assert extract_enum(text, parse_type("String")) == ["job", "mrs_job", "edge_job"]
