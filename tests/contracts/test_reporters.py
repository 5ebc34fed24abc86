"""Reporters: one RunReport -> text table, JUnit XML, JSON; credentials always redacted."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from modelarts_kit_contracts.core.findings import Finding, RunReport
from modelarts_kit_contracts.core.reporters import (
    ReportSpecError,
    parse_report_spec,
    redact,
    render_text,
    to_json,
    write_report,
)

SECRET = "tok-0123456789-secret"


def sample_report() -> RunReport:
    report = RunReport(target="http://127.0.0.1:9", seed=7, duration_s=1.5)
    report.record("vendor_error_body", None)
    failure = Finding(
        check="second_terminate_rejected",
        title="A second terminate of the same job was accepted",
        expected="HTTP 409 with error_code ModelArts.2796",
        got="HTTP 202, error_code None",
        operation="POST /v2/{project_id}/training-jobs/{training_job_id}/actions",
        reproduce=f"curl -X POST http://h/x -H 'X-Auth-Token: {SECRET}'",
    )
    report.record("second_terminate_rejected", failure)
    report.record("second_terminate_rejected", failure)  # the same problem, reported once
    report.record_time("GET /x", 2.0)
    report.notes.append("final_phase_not_terminable: not evaluated")
    return report


def test_text_table_failure_once_and_redacted() -> None:
    out = io.StringIO()
    render_text(sample_report(), out, color=False)
    text = out.getvalue()
    assert "second_terminate_rejected" in text
    assert text.count("A second terminate of the same job was accepted") == 1
    assert "expected HTTP 409" in text
    assert "[REDACTED]" in text
    assert SECRET not in text
    assert "FAILED: 1 contract violation" in text
    assert "note: final_phase_not_terminable" in text


def test_json_and_junit_files(tmp_path: Path) -> None:
    report = sample_report()
    json_path = write_report(report, f"json:{tmp_path / 'out' / 'r.json'}")
    document = json.loads(json_path.read_text())
    assert document["exit_code"] == 1
    assert {"check": "second_terminate_rejected", "passed": 0, "failed": 2} in document["checks"]
    assert len(document["failures"]) == 1
    assert SECRET not in json_path.read_text()

    junit_path = write_report(report, f"junit:{tmp_path / 'r.xml'}")
    suite = ET.parse(junit_path).getroot()
    assert suite.get("failures") == "1"
    failed = [c for c in suite.iter("testcase") if c.find("failure") is not None]
    assert [c.get("name") for c in failed] == ["second_terminate_rejected"]
    assert SECRET not in junit_path.read_text()


def test_passed_report_exit_zero() -> None:
    report = RunReport(target="t")
    report.record("a", None)
    assert to_json(report)["exit_code"] == 0


@pytest.mark.parametrize("spec", ["junit", "xml:out.xml", "json:", ":x"])
def test_bad_report_spec_is_named(spec: str) -> None:
    with pytest.raises(ReportSpecError, match="--report"):
        parse_report_spec(spec)


def test_redact_covers_credential_headers() -> None:
    assert redact("Authorization: SDK-HMAC-SHA256 Access=AK") == "Authorization: [REDACTED]"
    assert redact("x-auth-token:abc") == "x-auth-token:[REDACTED]"
