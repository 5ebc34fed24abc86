"""The probe: what a scenario may do (send requests, record outcomes); the runner gives it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from modelarts_kit_spec.meaning import Role
from modelarts_kit_wire.wirejson import WireJsonError, decode_wire_json

from modelarts_kit_contracts.core import Finding, Observation
from modelarts_kit_contracts.server.api_map import JSON, ApiMap
from modelarts_kit_contracts.server.timeline import Timeline


@dataclass(frozen=True)
class ProbeResponse:
    """What a scenario gets back from :meth:`Probe.send`."""

    status: int
    body: bytes
    content_type: str
    curl: str  # reproduces the request, credentials redacted

    def json(self) -> JSON:
        """The decoded body; None when it is not JSON (or not JSON the kit accepts: too deep...)."""
        try:
            return decode_wire_json(self.body)
        except WireJsonError:
            return None


class Probe(Protocol):
    """What a scenario may do: send requests and record check outcomes."""

    api: ApiMap
    project_id: str
    other_project_id: str
    final_phase_wait_s: float
    timeline: Timeline  # the time the target's jobs move on: what the scenarios wait on
    read_only: bool  # send no create a correct target could accept
    seed: int  # the run's seed: values drawn by scenarios repeat with it
    state: dict[str, JSON]  # scenario-shared memo (the job template chosen)

    def send(
        self,
        role: Role,
        *,
        project_id: str | None = None,
        job_id: str | None = None,
        body: JSON = None,
        credentials: str = "valid",  # "valid" | "none" | "invalid"
        params: Mapping[str, str] | None = None,  # other path parameters (a task id)
        query: Mapping[str, str] | None = None,
    ) -> ProbeResponse: ...

    def record(
        self, check: str, violation: Finding | None, *, role: Role, reproduce: str = ""
    ) -> None: ...

    def note(self, text: str) -> None: ...

    def observe(self, observation: Observation) -> None: ...
