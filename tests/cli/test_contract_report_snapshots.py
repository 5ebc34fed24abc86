"""Snapshots of the contract reports people read: terminal, JUnit, JSON and Markdown.

A live run is not byte-for-byte repeatable (the stateful phase's case count depends on timing),
so the reporters render one fixed run: passes, three failures (one merged from several places,
one fault met by three cases at three places of one operation: one group with its count,
one stateful: every request of its sequence as a ``curl`` line; each with redacted ``curl``
lines and its evidence), a guidance warning, a server choice (observation), a note, response
times. A one-word
change to any reporter changes a snapshot; update after an intended change with
``pytest tests/cli/test_contract_report_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import io
import json

import pytest
from modelarts_kit_contracts.core import Finding, Observation, RunReport
from modelarts_kit_contracts.core.reporters import (
    render_text,
    to_json,
    to_junit_xml,
    to_markdown,
    write_report,
)
from syrupy.assertion import SnapshotAssertion

from tests.cli_support import Kit

CURL = (
    "curl -X POST 'http://127.0.0.1:8000/v2/0a1b2c3d4e5f60718293a4b5c6d7e8f9/training-jobs' "
    "-H 'X-Auth-Token: [REDACTED]' -H 'Content-Type: application/json' "
    """-d '{"kind": "job", "metadata": {"name": "x"}}'"""
)


JOB_URL = "http://127.0.0.1:8000/v2/0a1b2c3d4e5f60718293a4b5c6d7e8f9/training-jobs/job-1"
TERMINATE_CURL = (
    f"curl -X POST '{JOB_URL}/actions' -H 'X-Auth-Token: [REDACTED]' "
    """-H 'Content-Type: application/json' -d '{"action_type": "terminate"}'"""
)
SHOW_CURL = f"curl -X GET '{JOB_URL}' -H 'X-Auth-Token: [REDACTED]'"


def fixed_run() -> RunReport:
    report = RunReport(target="http://127.0.0.1:8000", seed=7, duration_s=12.5)
    for _ in range(40):
        report.record("status_code_conformance", None)
        report.record("vendor_error_body", None)
    report.record(
        "response_schema_conformance",
        Finding(
            title="response body does not match the spec",
            expected="string at /status/phase (one of Creating, Pending, Running...)",
            got="42",
            pointer="/status/phase",
            operation="ShowTrainingJobDetails",
            rule="type",
            reproduce=CURL.replace("-X POST", "-X GET"),
            also_at=("/status/secondary_phase",),
            evidence="seeds/003_268fe6fc14cf50e2.txt, Table 4 Status: phase",
        ),
    )
    for pointer, rule in (
        ("/metadata/name", "maxLength"),
        ("/metadata/name", "maxLength"),  # the same place again: one more case
        ("/metadata/description", "maxLength"),
    ):
        report.record(
            "invalid_job_rejected",
            Finding(
                title="an invalid job was accepted",
                expected="400 with a ModelArts.NNNN error code listed for invalid-parameter",
                got="201",
                pointer=pointer,
                operation="CreateTrainingJob",
                rule=rule,
                reproduce=CURL,
                evidence="seeds/004_126c216e710dc1ec.txt, Table 3 metadata: name",
            ),
        )
    report.record(
        "terminate_takes_effect",
        Finding(
            title="Terminate was accepted but the job was not terminated",
            expected="phase in ['Terminated', 'Terminating']",
            got="phase == 'Running'",
            pointer="/status/phase",
            operation="GET /v2/{project_id}/training-jobs/{training_job_id}",
            reproduce="\n".join((CURL, TERMINATE_CURL, SHOW_CURL)),
            evidence=(
                'seeds/002_63ab89c891148f33.txt, URI: "POST /v2/{project_id}/training-jobs/'
                '{training_job_id}/actions"'
            ),
        ),
    )
    report.record(
        "guidance_rejected",
        Finding(
            title="a body breaking guidance was accepted",
            expected="rejection is optional: the pages never say the server must refuse it",
            got="202",
            operation="StopTrainingJob",
            rule="additionalProperties",
            severity="warning",
        ),
    )
    report.observe(
        Observation(
            "ignores unknown fields",
            check="positive_data_acceptance",
            operation="CreateTrainingJob",
            pointer="/metadata",
            evidence="ledger: closed-request-objects",
        )
    )
    report.notes.append("project_isolation: not evaluated (no --other-project-id)")
    for milliseconds in (1.5, 2.0, 2.5, 9.0, 40.0):
        report.record_time("POST /v2/{project_id}/training-jobs", milliseconds)
    report.record_time("GET /v2/{project_id}/training-jobs/{training_job_id}", 3.0)
    return report


def test_terminal(snapshot: SnapshotAssertion) -> None:
    out = io.StringIO()
    render_text(fixed_run(), out, color=False)
    assert out.getvalue() == snapshot


def test_junit(snapshot: SnapshotAssertion) -> None:
    assert to_junit_xml(fixed_run()) == snapshot


def test_json(snapshot: SnapshotAssertion) -> None:
    assert json.dumps(to_json(fixed_run()), indent=2, sort_keys=True) == snapshot


def test_markdown(snapshot: SnapshotAssertion) -> None:
    command = "modelarts-kit contract server http://127.0.0.1:8000 --seed 7"
    assert to_markdown(fixed_run(), command=command) == snapshot


@pytest.mark.parametrize("kind", ["junit", "json"])
def test_report_files_are_what_the_reporters_render(kit: Kit, kind: str) -> None:
    """``--report FORMAT:PATH`` writes exactly the snapshotted rendering."""
    path = write_report(fixed_run(), f"{kind}:{kit.tmp / 'report'}")
    written = path.read_text(encoding="utf-8")
    if kind == "junit":
        assert written == to_junit_xml(fixed_run())
    else:
        assert json.loads(written) == to_json(fixed_run())
