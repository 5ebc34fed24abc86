"""The client check on real clients: the generated client passes, the vendor SDK does not."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from modelarts_kit.main import cli
from modelarts_kit_contracts.client import (
    AdapterError,
    Case,
    ClientCheckSettings,
    build_cases,
    compare_json,
    load_adapter_factory,
    run_client_check,
)
from modelarts_kit_contracts.core.reporters import to_markdown
from modelarts_kit_spec import load_spec

from . import broken_clients

REPO = Path(__file__).resolve().parents[2]
VENDOR_REPORT = REPO / "docs" / "vendor-sdk-report.md"


SAVED = "docs/vendor-sdk-report.md"
VENDOR_ARGUMENTS = ("--adapter", "huaweicloudsdk", "--seed", "0", "--max-examples", "20")


@dataclass(frozen=True)
class VendorRun:
    """The saved report's command, run once as users run it, with a JSON report beside."""

    run: subprocess.CompletedProcess[str]
    markdown: Path
    document: dict[str, Any]


@pytest.fixture(scope="module")
def vendor_run(tmp_path_factory: pytest.TempPathFactory) -> VendorRun:
    """The installed console script in a fresh process: no test profile of hypothesis applies
    (``python -m modelarts_kit`` draws other cases for the same seed, see the report), and the
    SDK sends through requests on loopback, as it would to the real service. One run serves
    the saved report's test and the findings' (before, each ran the check: 17 s of CPU)."""
    out = tmp_path_factory.mktemp("vendor")
    markdown, report = out / "report.md", out / "report.json"
    run = subprocess.run(
        [str(Path(sys.executable).with_name("modelarts-kit")), "contract", "client",
         *VENDOR_ARGUMENTS, "--markdown", str(markdown), "--report", f"json:{report}"],
        cwd=REPO, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert run.returncode == 1, run.stderr[-2000:]  # the vendor SDK has findings
    return VendorRun(run, markdown, json.loads(report.read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def generated_cases() -> list[Case]:
    """The generated client's cases, built once for its three runs (2-3 s of CPU each)."""
    return build_cases(load_spec(), ClientCheckSettings(seed=1, max_examples=20))


def test_generated_client_passes_on_loopback_and_in_process(generated_cases: list[Case]) -> None:
    cases = generated_cases
    for in_process in (False, True):
        report = run_client_check(
            load_adapter_factory("generated"),
            settings=ClientCheckSettings(seed=1, max_examples=20, in_process=in_process),
            cases=cases,
        )
        assert report.failures == [], [f.check + ": " + f.message for f in report.failures]
        assert int(report.exit_code) == 0
        # Every family of checks actually ran.
        for check in (
            "request_body",
            "fidelity_unknown_field",
            "error_code_intact",
            "retry_safe",
            "no_blind_retry",
            "request_body_fidelity",
        ):
            assert report.tallies[check].passed > 0, check


def test_generated_client_passes_with_aksk_signing(generated_cases: list[Case]) -> None:
    report = run_client_check(
        load_adapter_factory("generated"),
        settings=ClientCheckSettings(seed=1, max_examples=20, auth="aksk", in_process=True),
        cases=generated_cases,
    )
    assert report.failures == []
    assert report.tallies["request_auth"].passed > 0


def test_vendor_sdk_findings(vendor_run: VendorRun) -> None:
    failures = vendor_run.document["failures"]
    failed = {failure["check"] for failure in failures}
    # What the issue says the vendor SDK gets wrong: nulls dropped, unknown fields dropped,
    # an integer handed back as a string; and the kit finds more.
    assert {
        "fidelity_null_to_absent",
        "fidelity_unknown_field",
        "fidelity_coerced_type",
        "fidelity_dropped_field",
        "retry_safe",
    } <= failed
    coerced = next(f for f in failures if f["check"] == "fidelity_coerced_type")
    expected, got = coerced["message"].splitlines()[:2]
    assert expected.startswith("expected ")
    assert "(integer)" in expected
    assert got.startswith("got ")
    assert "(string)" in got
    assert vendor_run.document["exit_code"] == vendor_run.run.returncode == 1


def test_vendor_report_is_deterministic_for_a_seed() -> None:
    # Two runs of the same seed (the budget is not the point: a small one, the findings of
    # the full one are test_vendor_sdk_findings').
    reports = [
        run_client_check(
            load_adapter_factory("huaweicloudsdk"),
            settings=ClientCheckSettings(seed=0, max_examples=5),
            target_name="client huaweicloudsdk",
        )
        for _ in range(2)
    ]
    assert reports[0].failures  # findings to compare, not two empty reports
    command = "modelarts-kit contract client --adapter huaweicloudsdk --seed 0"
    assert to_markdown(reports[0], command=command) == to_markdown(reports[1], command=command)


def test_saved_vendor_report_is_what_its_command_prints_today(vendor_run: VendorRun) -> None:
    """The saved report is regenerated whenever the spec or the checks change what it says
    (before: it still showed last round's finding counts)."""
    fresh = vendor_run.markdown
    expected = fresh.read_text(encoding="utf-8").replace(str(fresh), SAVED)
    assert VENDOR_REPORT.read_text(encoding="utf-8") == expected, (
        f"{SAVED} is stale: run `modelarts-kit contract client {' '.join(VENDOR_ARGUMENTS)} "
        f"--markdown {SAVED}`"
    )


def test_saved_vendor_report_names_the_headline_findings() -> None:
    text = VENDOR_REPORT.read_text(encoding="utf-8")
    assert "modelarts-kit contract client --adapter huaweicloudsdk" in text
    for check in ("fidelity_null_to_absent", "fidelity_unknown_field", "fidelity_coerced_type"):
        assert f"`{check}`" in text


def test_compare_json_is_strict_about_types() -> None:
    spec = load_spec()
    schema = spec.operation("ShowTrainingJobDetails").success.schema
    sent = {"kind": "job", "status": {"phase": "Running", "duration": 5, "tasks": None}}
    found = {
        check: pointer
        for check, pointer, _ in compare_json(
            spec,
            schema,
            {**sent, "x_new": 1},
            {"status": {"phase": "Running", "duration": "5"}, "metadata": None},
        )
    }
    assert found == {
        "fidelity_dropped_field": "/kind",
        "fidelity_unknown_field": "/x_new",
        "fidelity_coerced_type": "/status/duration",
        "fidelity_null_to_absent": "/status/tasks",
        "fidelity_absent_to_null": "/metadata",
    }
    assert (
        next(iter(compare_json(spec, schema, {"a": 1}, {"a": 1.0})))[0] == "fidelity_coerced_type"
    )
    assert (
        next(iter(compare_json(spec, schema, {"a": 1}, {"a": True})))[0] == "fidelity_coerced_type"
    )
    assert list(compare_json(spec, schema, sent, json.loads(json.dumps(sent)))) == []


def test_unknown_adapter_is_a_usage_error() -> None:
    with pytest.raises(AdapterError, match="MODULE:FACTORY"):
        load_adapter_factory("nonsense")
    result = CliRunner().invoke(
        cli, ["contract", "client", "--adapter", "no_such_module:factory", "--no-color"]
    )
    assert result.exit_code == 2
    assert "cannot import no_such_module" in result.output


@pytest.mark.parametrize("name", ["json:dumps", "builtins:repr"])
def test_a_callable_that_is_not_an_adapter_factory_is_one_line_exit_2(name: str) -> None:
    # Issue 14: --adapter module:not_a_factory gave a traceback.
    result = CliRunner().invoke(
        cli, ["contract", "client", "--adapter", name, "--in-process", "--no-color"]
    )
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    [line] = [line for line in result.output.splitlines() if line.strip()]
    assert line.startswith("error: --adapter:")
    assert "adapter" in line.removeprefix("error: --adapter:")


def test_cli_writes_reports_and_exits_with_findings(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    markdown = tmp_path / "report.md"
    result = CliRunner().invoke(
        cli,
        [
            "contract",
            "client",
            "--adapter",
            f"{broken_clients.__name__}:NullToAbsent",
            "--max-examples",
            "10",
            "--in-process",
            "--no-color",
            "--report",
            f"json:{out}",
            "--markdown",
            str(markdown),
        ],
    )
    assert result.exit_code == 1, result.output
    document = json.loads(out.read_text())
    assert document["exit_code"] == 1
    assert any(f["check"] == "fidelity_null_to_absent" for f in document["failures"])
    assert "fidelity_null_to_absent" in markdown.read_text()


@pytest.mark.parametrize(
    ("where", "said"), [("repo", "has no callable"), ("elsewhere", "cannot import")]
)
def test_an_adapter_module_imports_from_the_current_directory(
    tmp_path: Path, where: str, said: str
) -> None:
    """As README's Node adapter command runs it: the installed script, from the repository root
    (a console script does not put the current directory on sys.path by itself)."""
    repo = Path(__file__).resolve().parents[2]
    kit = Path(sys.executable).parent / "modelarts-kit"
    done = subprocess.run(
        [str(kit), "contract", "client", "--adapter", "examples.node_client.adapter:nope"],
        cwd=repo if where == "repo" else tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert said in line, line
