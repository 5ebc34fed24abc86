"""Reporters: turn a finished :class:`RunReport` into text, JUnit XML, JSON or Markdown.

The API is shared by every ``modelarts-kit contract`` command (server, client, mock, proxy):

- ``render_text(report, stream=None, *, color=None, errors=None) -> None`` writes the human
  summary: a table (check, passed, failed), then each failure once per rule and operation
  (:meth:`RunReport.failure_groups`: one fault, one failure, with the count of cases that
  showed it) with its expected/got message, the ``curl`` lines (or other) reproducing one
  representative case (every request of a stateful sequence, in order) and the evidence of
  its rule, the
  "server choices" (observations: what the target chose where the spec leaves it free), then
  response-time figures and the verdict; the errors that kept the run from completing come
  last, on ``errors`` (stderr).
- ``parse_report_spec(spec) -> ReportTarget`` parses ``FORMAT:PATH`` (``junit:out.xml``,
  ``json:out.json``, ``markdown:out.md``); a bad spec, or a folder that does not exist, raises
  :class:`ReportSpecError` naming the rule.
- ``write_report(report, spec) -> Path`` writes one machine-readable report to the path in
  ``spec`` (its folder must exist; the file is written atomically, so a crash never
  leaves half a report).
- ``to_json(report) -> dict``, ``to_junit_xml(report) -> str`` and
  ``to_markdown(report, command=...) -> str`` return the documents without touching the file
  system. The Markdown has no timings, so the same seed renders the same document; its table
  gives each check's meaning from the registry.

Reporters only read a ``RunReport``; they never run checks. Each renders the report through
its scrubber (:func:`~modelarts_kit_contracts.core.findings.redacted`): every secret the run
knows, in its encodings, and every credential header are out of every string of it, the
``created_jobs`` included, so a token never reaches a report even if a check forgot.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TextIO

from modelarts_kit_wire.redaction import REDACTED, redact
from rich.console import Console
from rich.table import Table
from rich.text import Text

from modelarts_kit_contracts.core.findings import Finding, Observation, RunReport, redacted
from modelarts_kit_contracts.core.registry import REGISTRY
from modelarts_kit_contracts.errors import ContractError

__all__ = [
    "REDACTED",
    "REPORT_FORMATS",
    "ReportSpecError",
    "ReportTarget",
    "parse_report_spec",
    "redact",
    "render_text",
    "to_json",
    "to_junit_xml",
    "to_markdown",
    "write_report",
]

ReportFormat = Literal["junit", "json", "markdown"]
REPORT_FORMATS: tuple[ReportFormat, ...] = ("junit", "json", "markdown")
JSON_REPORT_VERSION = 1


class ReportSpecError(ContractError, ValueError):
    """A ``--report`` value is not ``FORMAT:PATH`` with a known format."""


@dataclass(frozen=True)
class ReportTarget:
    format: ReportFormat
    path: Path


def parse_report_spec(spec: str) -> ReportTarget:
    fmt, sep, path = spec.partition(":")
    if not sep or not path:
        raise ReportSpecError(
            f"--report {spec!r}: must be FORMAT:PATH with FORMAT one of {', '.join(REPORT_FORMATS)}"
        )
    fmt = fmt.strip().lower()
    for known in REPORT_FORMATS:
        if fmt == known:
            target = ReportTarget(known, Path(path))
            _check_folder(spec, target.path)
            return target
    raise ReportSpecError(
        f"--report {spec!r}: format {fmt!r} is not one of {', '.join(REPORT_FORMATS)}"
    )


def _check_folder(spec: str, path: Path) -> None:
    """A report goes into a folder that exists: a typo in it must not create folders."""
    folder = path.parent
    if not folder.is_dir():
        raise ReportSpecError(
            f"--report {spec!r}: the folder {str(folder)!r} does not exist (rule: a report is "
            "written into an existing folder; create it first)"
        )
    if path.is_dir():
        raise ReportSpecError(f"--report {spec!r}: {str(path)!r} is a folder, not a file")


def write_report(report: RunReport, spec: str, *, command: str = "") -> Path:
    """Write ``report`` in the format named by ``spec`` (``junit:``, ``json:``, ``markdown:``).

    ``command`` is the command line that produced the report, quoted in the Markdown.
    """
    target = parse_report_spec(spec)
    if target.format == "junit":
        content = to_junit_xml(report)
    elif target.format == "markdown":
        content = to_markdown(report, command=command)
    else:
        content = json.dumps(to_json(report), indent=2, sort_keys=False) + "\n"
    _write_atomically(target.path, content)
    return target.path


def _write_atomically(path: Path, content: str) -> None:
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(content)
        os.replace(tmp_name, path)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise


def _failure_dict(failure: Finding) -> dict[str, Any]:
    return {
        "check": failure.check,
        "operation": failure.operation,
        "title": redact(failure.title),
        "message": redact(failure.message),
        "pointer": failure.pointer,
        "rule": failure.rule,
        "reproduce": redact(failure.reproduce),
        "evidence": failure.evidence,
        "cases": failure.cases,
        "also_at": list(failure.also_at),
    }


def _observation_dict(observation: Observation) -> dict[str, str]:
    return {**observation.to_json(), "choice": redact(observation.choice)}


def _timing_summary(samples: list[float]) -> dict[str, float | int]:
    ordered = sorted(samples)
    p95_index = max(0, round(0.95 * len(ordered)) - 1)
    return {
        "count": len(ordered),
        "median_ms": round(statistics.median(ordered), 2),
        "p95_ms": round(ordered[p95_index], 2),
        "max_ms": round(ordered[-1], 2),
    }


def to_json(report: RunReport) -> dict[str, Any]:
    """The JSON report document (stable keys; ``version`` changes only on breaking edits)."""
    report = redacted(report)
    failures = report.failure_groups()
    return {
        "version": JSON_REPORT_VERSION,
        "target": report.target,
        "exit_code": int(report.exit_code),
        "seed": report.seed,
        "duration_s": round(report.duration_s, 3),
        "checks": [
            {"check": name, "passed": tally.passed, "failed": tally.failed}
            for name, tally in sorted(report.tallies.items())
        ],
        "failures": [_failure_dict(f) for f in failures],
        "failed_cases": sum(f.cases for f in failures),
        "warnings": [_failure_dict(w) for w in report.warning_groups()],
        "observations": [_observation_dict(o) for o in report.observations],
        "created_jobs": [
            {"id": job.id, "final_phase": job.final_phase} for job in report.created_jobs
        ],
        "errors": [redact(e) for e in report.errors],
        "notes": [redact(n) for n in report.notes],
        "response_times": {
            op: _timing_summary(samples)
            for op, samples in sorted(report.response_times_ms.items())
            if samples
        },
    }


def to_junit_xml(report: RunReport) -> str:
    """One ``<testsuite>``; one ``<testcase>`` per check, with one ``<failure>`` per violation."""
    report = redacted(report)
    failures_by_check: dict[str, list[Finding]] = {}
    for failure in report.failure_groups():
        failures_by_check.setdefault(failure.check, []).append(failure)
    checks = sorted(set(report.tallies) | set(failures_by_check))
    suite = ET.Element(
        "testsuite",
        {
            "name": f"modelarts-kit contract: {report.target}",
            "tests": str(len(checks) + (1 if report.errors else 0)),
            "failures": str(sum(1 for c in checks if c in failures_by_check)),
            "errors": str(1 if report.errors else 0),
            "time": f"{report.duration_s:.3f}",
        },
    )
    for check in checks:
        tally = report.tallies.get(check)
        case = ET.SubElement(
            suite,
            "testcase",
            {"classname": "modelarts_kit_contracts", "name": check},
        )
        if tally is not None:
            ET.SubElement(case, "system-out").text = f"passed={tally.passed} failed={tally.failed}"
        for failure in failures_by_check.get(check, []):
            element = ET.SubElement(
                case,
                "failure",
                {"message": redact(failure.title), "type": failure.operation or check},
            )
            body = [redact(failure.message)]
            if failure.pointer:
                body.append(f"at {failure.pointer}")
            if failure.cases > 1:
                body.append(_cases_line(failure))
            if failure.evidence:
                body.append(f"evidence: {failure.evidence}")
            if failure.reproduce:
                body.append(f"reproduce:\n{redact(failure.reproduce)}")
            element.text = "\n".join(body)
    if report.errors:
        case = ET.SubElement(
            suite, "testcase", {"classname": "modelarts_kit_contracts", "name": "run"}
        )
        ET.SubElement(case, "error", {"message": redact(report.errors[0])}).text = "\n".join(
            redact(e) for e in report.errors
        )
    ET.indent(suite)
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suite, encoding="unicode") + "\n"
    )


def render_text(
    report: RunReport,
    stream: TextIO | None = None,
    *,
    color: bool | None = None,
    errors: TextIO | None = None,
) -> None:
    """Write the human summary: table, each failure once, response times, verdict; then the
    errors that kept the run from completing, last, on ``errors`` (default: stderr, or
    ``stream`` when one is given), where every other command writes its errors."""
    report = redacted(report)
    out = stream if stream is not None else sys.stdout
    err = errors if errors is not None else stream if stream is not None else sys.stderr
    console = Console(
        file=out,
        force_terminal=color,
        no_color=color is False,
        highlight=False,
        soft_wrap=True,
        width=max(100, Console(file=out).width) if color else 120,
    )
    if report.tallies:
        table = Table(title=f"Contract checks: {report.target}", title_justify="left")
        table.add_column("check")
        table.add_column("passed", justify="right")
        table.add_column("failed", justify="right")
        for name, tally in sorted(report.tallies.items()):
            style = "red" if tally.failed else "green"
            table.add_row(name, str(tally.passed), Text(str(tally.failed), style=style))
        console.print(table)
    else:  # nothing was checked (e.g. the target was unreachable): no empty table
        console.print(Text(f"Contract checks: {report.target}"))

    failures = report.failure_groups()
    _render_failures(console, failures)

    for warning in report.warning_groups():
        where = f" [{warning.operation}]" if warning.operation else ""
        console.print(
            Text(f"warning: {warning.check}{where}: {redact(warning.title)}", style="yellow")
        )
        for line in redact(warning.message).splitlines():
            console.print(Text(f"   {line}"))
    _render_observations(console, report.observations)
    if report.created_jobs:
        shown = ", ".join(f"{job.id} ({job.final_phase})" for job in report.created_jobs[:10])
        more = f" and {len(report.created_jobs) - 10} more" if len(report.created_jobs) > 10 else ""
        console.print(Text(f"created jobs (last phase): {shown}{more}", style="yellow"))
    for note in report.notes:
        console.print(Text(f"note: {redact(note)}", style="yellow"))

    if report.response_times_ms:
        console.print()
        timing = Table(title="Response times (ms)", title_justify="left")
        for column in ("operation", "count", "median", "p95", "max"):
            timing.add_column(column, justify="left" if column == "operation" else "right")
        for op, samples in sorted(report.response_times_ms.items()):
            if samples:
                summary = _timing_summary(samples)
                timing.add_row(
                    op,
                    str(summary["count"]),
                    f"{summary['median_ms']:.1f}",
                    f"{summary['p95_ms']:.1f}",
                    f"{summary['max_ms']:.1f}",
                )
        console.print(timing)

    console.print()
    seed = f", seed {report.seed}" if report.seed is not None else ""
    verdict = {
        0: Text("PASSED: the target honours the spec", style="bold green"),
        1: Text(f"FAILED: {_violations(failures)}", style="bold red"),
        2: Text("ERROR: the run could not complete", style="bold red"),
    }[int(report.exit_code)]
    verdict.append(f" ({report.duration_s:.1f}s{seed})", style="default")
    console.print(verdict)
    if report.errors:
        out.flush()  # the errors come last, also where stdout and stderr share one log
        err_console = Console(
            file=err, force_terminal=color, no_color=color is False, highlight=False,
            soft_wrap=True,
        )  # fmt: skip
        for error in report.errors:
            err_console.print(Text(f"error: {redact(error)}", style="bold red"))


def _render_failures(console: Console, failures: list[Finding]) -> None:
    """Each failure once per rule and operation: its message, place, cases, evidence and the
    curl lines of its representative case."""
    for index, failure in enumerate(failures, 1):
        console.print()
        where = f" [{failure.operation}]" if failure.operation else ""
        console.print(
            Text(f"{index}. {failure.check}{where}: {redact(failure.title)}", style="bold red")
        )
        for line in redact(failure.message).splitlines():
            console.print(Text(f"   {line}"))
        if failure.pointer:
            console.print(Text(f"   at {failure.pointer}"))
        if failure.cases > 1:
            console.print(Text(f"   {_cases_line(failure)}"))
        if failure.evidence:
            console.print(Text(f"   evidence: {failure.evidence}"))
        if failure.reproduce:
            console.print(Text("   reproduce:"))
            for line in redact(failure.reproduce).splitlines():
                console.print(Text(f"     {line}", style="cyan"))


def _cases_line(finding: Finding) -> str:
    return f"cases: {finding.cases} (one shown)"


def _violations(failures: list[Finding]) -> str:
    """``N contract violation(s)``, and the cases they stand for where that is more."""
    cases = sum(f.cases for f in failures)
    more = f" in {cases} cases" if cases > len(failures) else ""
    return f"{len(failures)} contract violation(s){more}"


def _render_observations(console: Console, observations: list[Observation]) -> None:
    """The "server choices" section: what the target chose where the spec leaves it free."""
    if not observations:
        return
    console.print()
    console.print(Text("server choices (allowed either way, not failures):", style="bold"))
    for observation in observations:
        where = f" [{observation.operation}]" if observation.operation else ""
        at = f" at {observation.pointer}" if observation.pointer else ""
        console.print(Text(f"  -{where} {redact(observation.choice)}{at}"))


def to_markdown(report: RunReport, *, command: str = "", heading: str = "Contract check") -> str:
    """The report as Markdown, without timings: the same seed renders the same document."""
    report = redacted(report)
    failures = report.failure_groups()
    by = f"Generated by `{command}` (seed {report.seed}). Do not edit; rerun the command."
    lines = [
        f"# {heading}: {report.target}",
        "",
        *([by, ""] if command else []),
        f"Verdict: **{'passed' if report.exit_code == 0 else 'failed'}** "
        f"({len(failures)} finding(s), exit code {int(report.exit_code)}).",
        "",
        "| check | what it requires | passed | failed |",
        "| --- | --- | ---: | ---: |",
    ]
    for name, tally in sorted(report.tallies.items()):
        lines.append(f"| `{name}` | {REGISTRY.meaning(name)} | {tally.passed} | {tally.failed} |")
    groups = (("Findings", failures), ("Warnings", report.warning_groups()))
    for heading, findings in groups:
        if findings:
            lines += ["", f"## {heading}", ""]
        for index, finding in enumerate(findings, 1):
            where = f" ({finding.operation})" if finding.operation else ""
            lines += [f"### {index}. `{finding.check}`{where}: {redact(finding.title)}", ""]
            lines += ["```text", *redact(finding.message).splitlines()]
            if finding.cases > 1:
                lines.append(_cases_line(finding))
            if finding.evidence:
                lines.append(f"evidence: {finding.evidence}")
            if finding.reproduce:
                lines.append(redact(finding.reproduce))
            lines += ["```", ""]
    if report.observations:
        lines += [*([""] if lines[-1] else []), "## Server choices", ""]
        for observation in report.observations:
            where = f" ({observation.operation})" if observation.operation else ""
            at = f" at `{observation.pointer}`" if observation.pointer else ""
            lines.append(f"- {redact(observation.choice)}{where}{at}")
        lines.append("")
    if report.notes:
        # What was not checked, and why (an operation a client does not support, a check
        # without its option): a reader of the saved report must see it too.
        lines += [*([""] if lines[-1] else []), "## Not checked", ""]
        lines += [f"- {redact(note)}" for note in report.notes]
        lines.append("")
    for error in report.errors:
        lines += [f"Error: {redact(error)}", ""]
    return "\n".join(lines).rstrip() + "\n"
