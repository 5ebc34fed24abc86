"""The ledger settles only with its own evidence: an entry settles a finding only for the page
its sources name (or the page that page replaces, given with ``--replaces``), and an entry that
records a whole list (the create page's status codes) settles item by item."""

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


def test_another_page_saying_what_one_page_once_said_is_reported(tmp_path: Path) -> None:
    # status-start-time-type records that the terminate pages 001 and 002 said String; the
    # show page (003) said Long. A revision of the show page saying String is a new statement.
    text = edit(seed_text(SEED_003), "start_time\n\nLong\n", "start_time\n\nString\n")
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


def test_a_page_that_replaces_nothing_has_no_evidence_of_its_own(tmp_path: Path) -> None:
    # The same words under another name, not given as a revision: no entry names this page.
    other = _page(tmp_path, "mirror-of-show.txt", seed_text(SEED_003))
    report = diff_pages([other])
    reopened = {f.reopened for f in open_findings(report) if f.page == "mirror-of-show.txt"}
    assert "node-count-metrics-int64" in reopened


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
