"""``docs diff``: each edit of a seed produces exactly the finding it should.

Every case diffs the edited page and the original page against the same small spec (without a
ledger) and compares the two finding sets, so the result does not depend on how complete the
spec is. Line numbers are left out of the comparison: an inserted row shifts them.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from modelarts_kit.main import cli
from modelarts_kit_spec import LEDGER_PATH, SPEC_PATH, parse_ledger
from modelarts_kit_vendordocs import compare, extract_text
from modelarts_kit_vendordocs.drift import (
    DriftFinding,
    decisions_from_entries,
    load_decisions,
    normalise_field,
)

from .support import ALL_SEEDS, SEED_000, SEED_002, SEED_003, SEED_004, edit, seed_path, seed_text

Key = tuple[str, str, str, int | None, str, str]


def _key(finding: DriftFinding) -> Key:
    return (
        finding.operation,
        finding.kind,
        finding.side,
        finding.status,
        finding.field,
        finding.direction,
    )


def _findings(seed: str, text: str, spec: Path) -> set[Key]:
    report = compare([extract_text(seed, text)], spec, [])
    assert not report.unmatched_pages
    return {_key(f) for op in report.operations for f in op.findings}


# Each case: seed, the edit (old -> new, old occurs once), the one finding the edit adds, and
# the one it removes (if any).
CASES = {
    "field added": (
        SEED_003,
        "exit_code\n\nInteger\n\nExit code of a training job task.\n",
        "exit_code\n\nInteger\n\nExit code of a training job task.\n\n"
        "signal\n\nInteger\n\nSignal that ended the task.\n",
        (
            "ShowTrainingJobDetails",
            "presence",
            "response",
            200,
            "status.task_statuses[].signal",
            "docs",
        ),
        None,
    ),
    "field removed": (
        SEED_003,
        "message\n\nString\n\nError message of a training job task.\n\n",
        "",
        (
            "ShowTrainingJobDetails",
            "presence",
            "response",
            200,
            "status.task_statuses[].message",
            "spec",
        ),
        None,
    ),
    "type changed": (
        SEED_003,
        "create_time\n\nLong\n",
        "create_time\n\nString\n",
        ("ShowTrainingJobDetails", "type", "response", 200, "metadata.create_time", "both"),
        None,
    ),
    "mandatory flipped": (
        SEED_003,
        "training_job_id\n\nYes\n",
        "training_job_id\n\nNo\n",
        ("ShowTrainingJobDetails", "mandatory", "path", None, "training_job_id", "both"),
        None,
    ),
    "enum value added": (
        SEED_003,
        "  • Abnormal: abnormal\n",
        "  • Abnormal: abnormal\n\n  • Paused: paused\n",
        ("ShowTrainingJobDetails", "enum", "response", 200, "status.phase", "both"),
        None,
    ),
    "table renamed": (
        SEED_003,
        "Array of TaskStatuses objects\n\nStatus of a training job task.\n",
        "Array of TaskState objects\n\nStatus of a training job task.\n",
        ("ShowTrainingJobDetails", "name", "response", 200, "status.task_statuses", "both"),
        None,
    ),
    "status code added": (
        SEED_003,
        "Description\n\n200\n\nok\n",
        "Description\n\n200\n\nok\n\n404\n\nThe training job does not exist.\n",
        ("ShowTrainingJobDetails", "status-code", "response", 404, "404", "docs"),
        None,
    ),
    "type changed in a reStructuredText grid": (
        SEED_002,
        "| create_time  | Long               |",
        "| create_time  | String             |",
        ("StopTrainingJob", "type", "response", 202, "metadata.create_time", "both"),
        None,
    ),
    "mandatory flipped in web text": (
        SEED_000,
        "action_type\n\nYes\n",
        "action_type\n\nNo\n",
        ("StopTrainingJob", "mandatory", "request", None, "action_type", "both"),
        None,
    ),
    "field added to an untitled pipe table": (
        SEED_004,
        "annotations |\nMap<String,String> |",
        "owner |\nString |\nOwner of the training job. |\nannotations |\nMap<String,String> |",
        ("CreateTrainingJob", "presence", "response", 201, "metadata.owner", "docs"),
        None,
    ),
}


def _rename_table(text: str) -> str:
    # A rename touches the title and the reference that points at the table.
    text = edit(text, "Table 5 TaskStatuses\n", "Table 5 TaskState\n")
    return text


@pytest.mark.parametrize("case", sorted(CASES))
def test_an_edit_produces_exactly_its_finding(case: str, small_spec: Path) -> None:
    seed, old, new, added, removed = CASES[case]
    original = seed_text(seed)
    changed = edit(original, old, new)
    if case == "table renamed":
        changed = _rename_table(changed)
    before = _findings(seed, original, small_spec)
    after = _findings(seed, changed, small_spec)
    assert after - before == {added}
    assert before - after == (set() if removed is None else {removed})


def test_the_small_spec_sees_the_seeds_it_should(small_spec: Path) -> None:
    # Guard for the cases above: the original pages do not already carry those findings.
    before = _findings(SEED_003, seed_text(SEED_003), small_spec)
    assert not {k for k in before if k[4].startswith("status.task_statuses[].")}
    assert (
        "ShowTrainingJobDetails",
        "type",
        "response",
        200,
        "metadata.create_time",
        "both",
    ) not in before


def test_findings_name_page_line_and_spec_pointer(small_spec: Path) -> None:
    text = edit(seed_text(SEED_003), "create_time\n\nLong\n", "create_time\n\nString\n")
    report = compare([extract_text("003.txt", text)], small_spec, [])
    finding = next(
        f for op in report.operations for f in op.findings if f.field == "metadata.create_time"
    )
    assert (finding.page, finding.line) == ("003.txt", 135)
    assert finding.docs == "String"
    assert finding.spec == "integer/int64"
    assert finding.pointer == "/components/schemas/JobMetadata/properties/create_time"


LEDGER = """\
entries:
  - id: create-time-string
    pointer: /components/schemas/JobMetadata/properties/create_time
    field: metadata.create_time
    side: response
    operations: [ShowTrainingJobDetails]
    kind: type
    sources: [{seed: 003.txt, table: Table 3 JobMetadata, says: String}]
    decision: integer
  - id: exit-code-gone
    field: "status.task_statuses[*].exit_code"
    side: both
    operations: [ShowTrainingJobDetails]
    kind: presence
    sources: [{seed: 003.txt, table: Table 4 Status, says: (absent)}]
    decision: kept
  - id: wrong-operation
    field: metadata.name
    side: response
    operations: [StopTrainingJob]
    kind: presence
    decision: only for another operation
"""


def _write_ledger(small_spec: Path, text: str = LEDGER) -> Path:
    path = small_spec.parent / "ledger.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_ledger_entries_move_matching_findings_to_reconciled(small_spec: Path) -> None:
    text = edit(seed_text(SEED_003), "create_time\n\nLong\n", "create_time\n\nString\n")
    text = edit(text, "exit_code\n\nInteger\n\nExit code of a training job task.\n\n", "")
    text = edit(text, "name\n\nString\n\nName of a training job.", "label\n\nString\n\nName.")
    _write_ledger(small_spec)
    decisions = load_decisions(None, small_spec)  # the ledger next to the spec
    # The entries cite the page as 003.txt: their evidence is about that page.
    report = compare([extract_text("003.txt", text)], small_spec, decisions)
    (op,) = report.operations
    reconciled = {(f.field, entry) for f, entry in op.reconciled}
    assert reconciled == {
        ("metadata.create_time", "create-time-string"),
        ("status.task_statuses[].exit_code", "exit-code-gone"),
    }
    open_fields = {f.field for f in op.findings}
    assert "metadata.create_time" not in open_fields
    # The entry for another operation does not reconcile this one.
    assert "metadata.name" in open_fields


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ("- id: x\n  kind: type\n  side: sideways\n  field: a", "/entries/0/side (x)"),
        ("- id: x\n  side: request\n  field: a", "/entries/0/kind (x)"),
        ("- id: x\n  kind: type\n  field: [a]", "/entries/0/field (x)"),
        ("- id: x\n  kind: type\n  field: a\n  operations: Create", "/entries/0/operations (x)"),
        ("- just a string", "/entries/0: entry is not a mapping"),
    ],
)
def test_a_bad_ledger_entry_is_a_usage_error_naming_it(
    small_spec: Path, entry: str, words: str
) -> None:
    ledger = _write_ledger(
        small_spec, "entries:\n" + "".join(f"  {line}\n" for line in entry.splitlines())
    )
    result = CliRunner().invoke(
        cli,
        [
            "docs",
            "diff",
            str(seed_path(SEED_003)),
            "--spec",
            str(small_spec),
            "--ledger",
            str(ledger),
        ],
    )
    assert result.exit_code == 2
    assert words in result.output


def test_normalise_field_drops_array_markers() -> None:
    assert normalise_field("a.b[].c[*].d[0].e") == "a.b.c.d.e"


def test_status_code_entries_with_responses_cover_every_code() -> None:
    ledger = parse_ledger(
        [
            {
                "id": "codes",
                "kind": "status-code",
                "field": "(responses)",
                "side": "response",
                "operations": ["ShowTrainingJobDetails"],
                "sources": [{"seed": "003.txt", "table": "Status Codes", "says": "200 ok"}],
            }
        ]
    )
    (decision,) = decisions_from_entries(ledger.entries)
    finding = DriftFinding(
        "ShowTrainingJobDetails",
        "status-code",
        "response",
        404,
        "404",
        "spec",
        "",
        "",
        None,
        None,
        None,
        value="404 unlisted",  # no page lists 404, and the entry recorded 200 only
    )
    assert decision.covers(finding)
    other = replace(finding, operation="StopTrainingJob")
    assert not decision.covers(other)
    # SDK evidence records no page value: it does not settle what a page says.
    sdk_only = parse_ledger(
        [
            {
                "id": "t",
                "kind": "type",
                "field": "a",
                "side": "response",
                "sources": [{"sdk": "3.1.219", "model": "M", "attribute": "a", "says": "int"}],
            }
        ]
    )
    (sdk_decision,) = decisions_from_entries(sdk_only.entries)
    assert sdk_decision.recorded == frozenset()
    # A page that now lists a code the entry did not record reopens that code alone ...
    listed = replace(finding, field="404", direction="docs", page="003.txt", value="404 listed")
    assert decision.applies(listed)
    assert not decision.covers(listed)
    # ... and one that stops listing a recorded code reopens that one.
    assert not decision.covers(replace(finding, field="200", value="200 unlisted"))
    # Evidence is the page's own: another page listing 200 is not what 003.txt recorded.
    other_page = replace(finding, field="200", direction="docs", value="200 listed")
    assert decision.covers(replace(other_page, page="003.txt"))
    assert not decision.covers(replace(other_page, page="other.txt"))


# --- the command ------------------------------------------------------------------------


def test_cli_diff_exits_1_on_drift_and_lists_it(small_spec: Path, tmp_path: Path) -> None:
    page = tmp_path / "003.txt"
    page.write_text(
        edit(seed_text(SEED_003), "create_time\n\nLong\n", "create_time\n\nString\n"),
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, ["docs", "diff", str(page), "--spec", str(small_spec)])
    assert result.exit_code == 1, result.output
    assert (
        "  - change type of `create_time` in `/components/schemas/JobMetadata` from "
        "integer/int64 to string or record a ledger decision\n"
        "      ShowTrainingJobDetails response 200 metadata.create_time: "
        "docs String (003.txt:135) vs spec integer/int64"
    ) in result.output


def test_cli_diff_json_is_machine_readable(small_spec: Path) -> None:
    result = CliRunner().invoke(
        cli,
        ["docs", "diff", str(seed_path(SEED_003)), "--spec", str(small_spec), "--format", "json"],
    )
    assert result.exit_code == 1
    document = json.loads(result.output)
    (op,) = document["operations"]
    assert op["operation"] == "ShowTrainingJobDetails"
    assert document["unreconciled"] == len(op["findings"]) > 0
    assert {"kind", "side", "field", "page", "line", "pointer"} <= set(op["findings"][0])


def test_cli_diff_reports_a_page_for_an_operation_the_spec_lacks(
    small_spec: Path, tmp_path: Path
) -> None:
    page = tmp_path / "other.txt"
    page.write_text(
        edit(
            seed_text(SEED_003),
            "GET /v2/{project_id}/training-jobs/{training_job_id}",
            "DELETE /v2/{project_id}/training-jobs/{training_job_id}",
        ),
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, ["docs", "diff", str(page), "--spec", str(small_spec)])
    assert result.exit_code == 1
    assert "UNMATCHED  other.txt: DELETE" in result.output


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (["{bad}"], ("empty page",)),
        (["{seed}", "--spec", "{missing}"], ("cannot read",)),
        (["{seed}", "--format", "xml"], ("--format", "xml")),  # the option and the value
    ],
)
def test_cli_diff_exits_2_on_usage_and_parse_errors(
    tmp_path: Path, arguments: list[str], words: tuple[str, ...]
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("", encoding="utf-8")
    values = {
        "bad": str(bad),
        "seed": str(seed_path(SEED_003)),
        "missing": str(tmp_path / "no.yaml"),
    }
    result = CliRunner().invoke(cli, ["docs", "diff", *(a.format(**values) for a in arguments)])
    assert result.exit_code == 2
    assert all(word in result.output for word in words), result.output


def test_the_seeds_have_no_unreconciled_drift_against_the_curated_spec() -> None:
    """The issue's acceptance check: every disagreement is in the spec or the ledger."""
    result = CliRunner().invoke(
        cli,
        [
            "docs",
            "diff",
            *(str(seed_path(s)) for s in ALL_SEEDS),
            "--spec",
            str(SPEC_PATH),
            "--ledger",
            str(LEDGER_PATH),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "no unreconciled drift" in result.output


def test_cli_diff_exits_2_on_a_spec_ref_that_does_not_resolve(small_spec: Path) -> None:
    text = small_spec.read_text(encoding="utf-8")
    small_spec.write_text(
        text.replace(
            "items: {$ref: '#/components/schemas/TaskStatuses'}",
            "items: {$ref: '#/components/schemas/Nope'}",
        ),
        encoding="utf-8",
    )
    result = CliRunner().invoke(
        cli, ["docs", "diff", str(seed_path(SEED_003)), "--spec", str(small_spec)]
    )
    assert result.exit_code == 2
    assert (
        "/components/schemas/Status/properties/task_statuses/items: "
        "$ref '#/components/schemas/Nope' does not resolve" in result.output
    )
