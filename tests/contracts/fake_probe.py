"""A scripted :class:`~modelarts_kit_contracts.server.probe.Probe`: hand-made answers for
the scenario drivers, and the report they record into."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from modelarts_kit_contracts.core import Finding, Observation, RunReport
from modelarts_kit_contracts.server.api_map import ApiMap
from modelarts_kit_contracts.server.probe import ProbeResponse
from modelarts_kit_contracts.server.timeline import WALL_TIMELINE, Timeline
from modelarts_kit_spec.meaning import Role


@dataclass(frozen=True)
class Sent:
    role: Role
    job_id: str | None
    params: Mapping[str, str]
    query: Mapping[str, str]
    body: Any


Answer = tuple[int, Any]  # status, JSON body (None: no body)
Script = Callable[[Sent], Answer]


@dataclass
class FakeProbe:
    api: ApiMap
    script: Script
    project_id: str = "p" * 32
    other_project_id: str = "q" * 32
    final_phase_wait_s: float = 0.0
    timeline: Timeline = WALL_TIMELINE
    read_only: bool = False
    seed: int = 1
    state: dict[str, Any] = field(default_factory=dict)
    report: RunReport = field(default_factory=lambda: RunReport(target="fake"))
    sent: list[Sent] = field(default_factory=list)

    def send(
        self,
        role: Role,
        *,
        project_id: str | None = None,
        job_id: str | None = None,
        body: Any = None,
        credentials: str = "valid",
        params: Mapping[str, str] | None = None,
        query: Mapping[str, str] | None = None,
    ) -> ProbeResponse:
        request = Sent(role, job_id, dict(params or {}), dict(query or {}), body)
        self.sent.append(request)
        status, document = self.script(request)
        payload = b"" if document is None else json.dumps(document).encode("utf-8")
        return ProbeResponse(status, payload, "application/json", f"curl {role.value}")

    def record(
        self, check: str, violation: Finding | None, *, role: Role, reproduce: str = ""
    ) -> None:
        self.report.record(check, violation)

    def note(self, text: str) -> None:
        self.report.notes.append(text)

    def observe(self, observation: Observation) -> None:
        self.report.observe(observation)
