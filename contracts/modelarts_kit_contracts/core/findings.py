"""The one result model of the kit: a :class:`Finding` per broken rule, a :class:`RunReport`.

Every product (server checker, client checker, mock, proxy) produces :class:`Finding` objects
through the checks of :mod:`modelarts_kit_contracts.core.registry`; a run collects them in a
:class:`RunReport`; the reporters (:mod:`modelarts_kit_contracts.core.reporters`) only read a
``RunReport``. Runners never format and reporters never run anything.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from enum import IntEnum
from typing import Any, ClassVar, Literal

from modelarts_kit_wire.records import JsonField, JsonRecord
from modelarts_kit_wire.redaction import Scrubber, scrubbed

__all__ = [
    "CheckTally",
    "CreatedJob",
    "ExitCode",
    "Finding",
    "Observation",
    "RunReport",
    "Severity",
    "clip",
    "group_findings",
    "redacted",
    "scrub_report",
    "short",
]

Severity = Literal["failure", "warning"]
_MAX_VALUE_CHARS = 80
_MAX_GOT_CHARS = 300
MAX_PLACES_LISTED = 6  # a group names at most this many other places, then "and N more"


class ExitCode(IntEnum):
    """Exit codes of every ``modelarts-kit contract`` command."""

    PASSED = 0
    CONTRACT_VIOLATION = 1
    USAGE_OR_CONNECTION_ERROR = 2


def short(value: Any) -> str:
    """A JSON rendering of ``value`` cut to a readable length."""
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= _MAX_VALUE_CHARS else text[: _MAX_VALUE_CHARS - 3] + "..."


def clip(text: str, limit: int = _MAX_GOT_CHARS) -> str:
    """``text`` on one line, cut to ``limit`` characters."""
    one_line = " ".join(text.split())
    return one_line if len(one_line) <= limit else one_line[: limit - 3] + "..."


@dataclass(frozen=True)
class Finding(JsonRecord):
    """One broken rule: the single typed failure every check of the kit returns.

    ``title`` names the rule in one line; ``expected`` and ``got`` say what the rule demands and
    what was seen (rendered "expected ..." / "got ..."). ``pointer`` is a JSON pointer into the
    body when one applies, ``rule`` the JSON Schema keyword or named wire rule that failed.
    ``check`` and ``operation`` are filled in by whoever runs the check when the check leaves
    them empty. ``reproduce`` is a command (a ``curl`` line, a case name) with credentials
    already redacted. A ``warning`` (a guidance rule, see issue 12) is reported but does not
    fail the run. ``evidence`` says where the rule comes from (the vendor page and table, the
    ledger entry, the spec node), so a reader can check the verdict without the kit's code.
    """

    title: str
    expected: str = ""
    got: str = ""
    pointer: str = ""
    check: str = ""
    operation: str = ""
    rule: str = ""
    reproduce: str = ""
    severity: Severity = "failure"
    also_at: tuple[str, ...] = ()  # other places the same problem occurred (merged findings)
    evidence: str = ""
    cases: int = 1  # the cases (evaluations) that showed it: one finding stands for them all

    json_fields: ClassVar[tuple[JsonField, ...]] = (
        "check",
        "operation",
        "title",
        "message",
        "pointer",
        "rule",
        "severity",
        "reproduce",
        "evidence",
    )

    @property
    def message(self) -> str:
        """Two lines, "expected ..." then "got ...", and where else it occurred."""
        lines = []
        if self.expected:
            lines.append(f"expected {self.expected}")
        if self.got:
            lines.append(f"got {clip(self.got)}")
        if self.also_at:
            lines.append(f"also at: {', '.join(self.also_at)}")
        return "\n".join(lines)

    @property
    def key(self) -> tuple[str, str, str, str]:
        """Findings with the same key are the same problem, met again by another case."""
        return (self.check, self.operation, self.title, self.pointer)

    @property
    def group(self) -> tuple[str, str]:
        """The rule (the check that judges it) and the operation: one fault, one group."""
        return (self.check, self.operation)

    def but(self, **changes: Any) -> Finding:
        """A copy with ``changes`` (``dataclasses.replace``)."""
        return replace(self, **changes)

    def __str__(self) -> str:
        op = f" [{self.operation}]" if self.operation else ""
        where = f" {self.pointer}" if self.pointer else ""
        rule = f" ({self.rule})" if self.rule else ""
        text = f"expected {self.expected}; got {self.got}" if self.expected else self.title
        return f"{self.check}{op}{where}{rule}: {text}"


@dataclass(frozen=True)
class Observation(JsonRecord):
    """A choice the target made where the spec leaves it free: never a failure.

    Between a body every correct server accepts (must-accept) and one every correct server
    refuses (outside must-reject) lies the server's own choice; ``choice`` says what it chose
    ("ignores unknown fields", "enforces: remote needs exactly one of dataset, obs").
    """

    choice: str
    check: str = ""
    operation: str = ""
    pointer: str = ""
    evidence: str = ""

    json_fields: ClassVar[tuple[JsonField, ...]] = (
        "choice",
        "check",
        "operation",
        "pointer",
        "evidence",
    )

    @property
    def key(self) -> tuple[str, str, str]:
        """Observations with the same key are the same choice; reports show each once."""
        return (self.operation, self.choice, self.pointer)


@dataclass(frozen=True)
class CreatedJob:
    """A job a run created on the target, and the last phase the run saw it in."""

    id: str
    final_phase: str | None


@dataclass
class CheckTally:
    passed: int = 0
    failed: int = 0


@dataclass
class RunReport:
    """Everything a reporter needs: per-check tallies, unique findings, timings, errors.

    A tally counts evaluations: one evaluation of a check (one request, one response, one
    call) passes or fails once, however many findings it produced; the findings themselves are
    kept once each (:attr:`Finding.key`). Reporters show them one per rule and operation
    (:meth:`failure_groups`), each with the count of cases (evaluations) that showed it.
    """

    target: str
    tallies: dict[str, CheckTally] = field(default_factory=dict)
    failures: list[Finding] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # usage/connection problems (exit 2)
    notes: list[str] = field(default_factory=list)  # checks not evaluated, and why
    observations: list[Observation] = field(default_factory=list)  # the target's own choices
    response_times_ms: dict[str, list[float]] = field(default_factory=dict)
    duration_s: float = 0.0
    seed: int | None = None
    created_jobs: list[CreatedJob] = field(default_factory=list)  # by a server check run
    # (check, operation, severity) -> the evaluations that failed there: the cases of a group
    group_cases: dict[tuple[str, str, str], int] = field(default_factory=dict)
    # The secrets this run knows: every reporter prints the report through it.
    scrubber: Scrubber = field(default_factory=Scrubber, repr=False, compare=False)

    def record(self, check: str, found: Finding | Iterable[Finding] | None) -> None:
        """Count one evaluation of ``check``: failed when it produced a failure.

        Each finding is kept unless an equal one is already reported; this evaluation is one
        more case of each rule and operation its findings fall in (:attr:`Finding.group`),
        however many findings it gave there. Warnings are kept apart and do not fail the
        evaluation.
        """
        findings = [] if found is None else [found] if isinstance(found, Finding) else list(found)
        tally = self.tallies.setdefault(check, CheckTally())
        failed = False
        groups: set[tuple[str, str, str]] = set()
        for finding in findings:
            stamped = finding if finding.check else finding.but(check=check)
            if stamped.severity == "warning":
                kept = self.warnings
            else:
                kept = self.failures
                failed = True
            groups.add((*stamped.group, stamped.severity))
            if all(existing.key != stamped.key for existing in kept):
                kept.append(stamped)
        for group in groups:
            self.group_cases[group] = self.group_cases.get(group, 0) + 1
        if failed:
            tally.failed += 1
        else:
            tally.passed += 1

    def failure_groups(self) -> list[Finding]:
        """The failures one per rule and operation, each with its count of cases."""
        return self._counted(group_findings(self.failures), "failure")

    def warning_groups(self) -> list[Finding]:
        """The warnings one per rule and operation, each with its count of cases."""
        return self._counted(group_findings(self.warnings), "warning")

    def _counted(self, groups: list[Finding], severity: Severity) -> list[Finding]:
        counted = []
        for group in groups:
            cases = self.group_cases.get((*group.group, severity))
            counted.append(group if cases is None else group.but(cases=max(cases, 1)))
        return counted

    def observe(self, observation: Observation) -> None:
        """Keep a choice the target made (once); it never fails the run."""
        if all(existing.key != observation.key for existing in self.observations):
            self.observations.append(observation)

    def record_all(self, checks: Iterable[str], findings: Iterable[Finding]) -> None:
        """Count one evaluation of each of ``checks`` with the findings that name it."""
        by_check: dict[str, list[Finding]] = {}
        for finding in findings:
            by_check.setdefault(finding.check, []).append(finding)
        for check in dict.fromkeys([*checks, *by_check]):
            self.record(check, by_check.get(check))

    def record_time(self, operation: str, milliseconds: float) -> None:
        self.response_times_ms.setdefault(operation, []).append(milliseconds)

    @property
    def exit_code(self) -> ExitCode:
        if self.errors:
            return ExitCode.USAGE_OR_CONNECTION_ERROR
        if self.failures:
            return ExitCode.CONTRACT_VIOLATION
        return ExitCode.PASSED

    def failed_checks(self) -> Counter[str]:
        return Counter(f.check for f in self.failures)


def _pointer_or_title(finding: Finding) -> str:
    return finding.pointer or finding.title


def group_findings(
    findings: Iterable[Finding], *, place: Callable[[Finding], str] = _pointer_or_title
) -> list[Finding]:
    """One finding per rule and operation (:attr:`Finding.group`): one fault, one failure.

    The first finding of a group is its representative (its reproduction and evidence are
    the ones shown); its ``cases`` becomes the group's count of cases, and ``also_at`` names
    the other places the group met (``place`` of each other finding: its pointer, else its
    title), at most :data:`MAX_PLACES_LISTED` of them and how many more. Grouping a grouped
    list changes nothing.
    """
    groups: dict[tuple[str, str], list[Finding]] = {}
    for finding in findings:
        groups.setdefault(finding.group, []).append(finding)
    return [_merged(members, place) for members in groups.values()]


def _merged(members: list[Finding], place: Callable[[Finding], str]) -> Finding:
    first = members[0]
    if len(members) == 1:
        return first
    own = place(first)
    others: dict[str, None] = {}
    for member in members:
        for where in (place(member), *member.also_at):
            if where and where != own and not where.startswith("and "):
                others.setdefault(where, None)
    listed = list(others)
    if len(listed) > MAX_PLACES_LISTED:
        listed = [*listed[:MAX_PLACES_LISTED], f"and {len(listed) - MAX_PLACES_LISTED} more"]
    return first.but(also_at=tuple(listed), cases=sum(m.cases for m in members))


def redacted(report: RunReport) -> RunReport:
    """A copy of ``report`` with every string scrubbed by ``report.scrubber``."""
    return scrubbed(report, report.scrubber)


def scrub_report(report: RunReport, secrets: Iterable[str | None] = ()) -> RunReport:
    """Learn ``secrets`` into ``report.scrubber`` and scrub ``report`` in place (returned)."""
    for secret in secrets:
        report.scrubber.learn(secret)
    clean = redacted(report)
    for f in dataclasses.fields(report):
        if f.init:
            setattr(report, f.name, getattr(clean, f.name))
    return report
