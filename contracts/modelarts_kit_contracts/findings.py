"""The result model every contract check produces, whatever it checks (a server or a client).

Checks produce :class:`Failure` objects; a run collects them into a :class:`RunReport`;
reporters (text table, JUnit XML, JSON) only read a ``RunReport``. The runner never
formats and the reporters never run anything.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import IntEnum


class ExitCode(IntEnum):
    """Exit codes of every ``modelarts-kit contract`` command."""

    PASSED = 0
    CONTRACT_VIOLATION = 1
    USAGE_OR_CONNECTION_ERROR = 2


@dataclass(frozen=True)
class Failure:
    """One contract violation: which check, what was expected, what came back.

    ``title`` is one line naming the broken rule; ``message`` is two lines at most,
    "expected ..." then "got ...". ``reproduce`` is a command (a ``curl`` line for server
    checks) with credentials already redacted.
    """

    check: str
    title: str
    message: str
    operation: str = ""
    reproduce: str = ""
    pointer: str = ""  # JSON pointer into the request/response body, when one applies

    @property
    def key(self) -> tuple[str, str, str, str]:
        """Failures with the same key are the same problem; reports show each once."""
        return (self.check, self.operation, self.title, self.pointer)


@dataclass
class CheckTally:
    passed: int = 0
    failed: int = 0


@dataclass
class RunReport:
    """Everything a reporter needs: per-check tallies, unique failures, timings, errors."""

    target: str
    tallies: dict[str, CheckTally] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # usage/connection problems (exit 2)
    notes: list[str] = field(
        default_factory=list
    )  # checks not evaluated, and why (no effect on exit)
    response_times_ms: dict[str, list[float]] = field(default_factory=dict)
    duration_s: float = 0.0
    seed: int | None = None

    def record(self, check: str, failure: Failure | None) -> None:
        """Count one evaluation of ``check``; keep ``failure`` unless already reported."""
        tally = self.tallies.setdefault(check, CheckTally())
        if failure is None:
            tally.passed += 1
            return
        tally.failed += 1
        if all(existing.key != failure.key for existing in self.failures):
            self.failures.append(failure)

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
