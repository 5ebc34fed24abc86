"""Snapshots of the contract reports people read: terminal, JUnit, JSON and Markdown.

A live run is not byte-for-byte repeatable (the stateful phase's case count depends on timing),
so the reporters render one fixed run: passes, two failures (one merged from several places,
each with a redacted ``curl`` line and its evidence), a guidance warning, a server choice
(observation), a note, response times. A one-word
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
    report.record(
        "invalid_job_rejected",
        Finding(
            title="an invalid job was accepted",
            expected="400 with a ModelArts.NNNN error code listed for invalid-parameter",
            got="201",
            pointer="/metadata/name",
            operation="CreateTrainingJob",
            rule="maxLength",
            reproduce=CURL,
            evidence="seeds/004_126c216e710dc1ec.txt, Table 3 metadata: name",
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
