"""The optional-operation scenarios (issue 26) on hand-made answers: a scripted service that is
correct, or has one fault, behind a fake probe (no server, no HTTP)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from modelarts_kit_contracts.server.api_map import ApiMap
from modelarts_kit_contracts.server.scenarios.deletion import (
    deleted_job_unknown,
    second_delete_rejected,
)
from modelarts_kit_contracts.server.scenarios.description import description_visible
from modelarts_kit_contracts.server.scenarios.events import (
    events_include_transitions,
    events_ordered,
)
from modelarts_kit_contracts.server.scenarios.listing import (
    created_job_listed,
    deleted_job_not_listed,
    list_pages_consistent,
)
from modelarts_kit_contracts.server.scenarios.tasks import unknown_task_refused
from modelarts_kit_contracts.server.scenarios.waiting import Until, run_to_end
from modelarts_kit_spec.meaning import Role

from .fake_probe import Answer, FakeProbe, Sent
from .optional_operations_spec import family_api

NOT_FOUND = {"error_code": "ModelArts.2775", "error_msg": "Training job not found."}


@dataclass
class FakeService:
    """Jobs in memory, answered the way the small spec documents; ``faults`` break one rule."""

    api: ApiMap
    faults: frozenset[str] = frozenset()
    offset_counts: str = "records"  # or "pages"
    jobs: dict[str, dict[str, Any]] = field(default_factory=dict)
    deleted: set[str] = field(default_factory=set)
    history: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    clock: Callable[[], int] = field(default_factory=lambda: itertools.count(1000).__next__)

    def __call__(self, sent: Sent) -> Answer:
        handler = getattr(self, sent.role.name.lower())
        return handler(sent)  # type: ignore[no-any-return]

    def _phase(self, job_id: str, phase: str) -> None:
        self.jobs[job_id]["status"]["phase"] = phase
        self.history[job_id].append({"time": str(self.clock()), "message": f"job is {phase}"})

    def create(self, sent: Sent) -> Answer:
        job_id = f"job-{len(self.jobs) + len(self.deleted)}"
        self.jobs[job_id] = {
            "kind": "job",
            "metadata": {"id": job_id, "name": sent.body["metadata"]["name"], "create_time": 1},
            "status": {"phase": "", "tasks": ["worker-0"]},
        }
        self.history[job_id] = []
        self._phase(job_id, self.api.spec.meaning.lifecycle.initial)
        return 201, self.jobs[job_id]

    def show(self, sent: Sent) -> Answer:
        job_id = str(sent.job_id)
        if job_id in self.jobs and (job_id not in self.deleted or "show_deleted" in self.faults):
            return 200, self.jobs[job_id]
        return 400, NOT_FOUND

    def terminate(self, sent: Sent) -> Answer:
        lifecycle = self.api.spec.meaning.lifecycle
        job_id = str(sent.job_id)
        for phase in lifecycle.stop_course:
            self._phase(job_id, phase)
        shown = {**self.jobs[job_id], "status": {"phase": lifecycle.stopping}}
        return 202, shown

    def listed(self) -> list[dict[str, Any]]:
        kept = [j for i, j in self.jobs.items() if i not in self.deleted]
        if "delete_keeps_listed" in self.faults:
            kept = list(self.jobs.values())
        newest_first = kept[::-1]
        return newest_first[1:] if "newest_missing" in self.faults else newest_first

    def list(self, sent: Sent) -> Answer:
        limit = sent.body.get("limit", 50)
        offset = sent.body.get("offset", 0)
        if "ignore_limit" in self.faults:
            limit = 50
        start = offset if self.offset_counts == "records" else offset * limit
        if offset and "overlap" in self.faults:
            start -= 1
        if offset and "skip" in self.faults:
            start += 1
        return 200, {"total": len(self.jobs), "items": self.listed()[start : start + limit]}

    def delete(self, sent: Sent) -> Answer:
        job_id = str(sent.job_id)
        if job_id in self.deleted and "delete_twice" not in self.faults:
            return 400, NOT_FOUND
        self.deleted.add(job_id)
        return 202, None

    def describe(self, sent: Sent) -> Answer:
        if "description_dropped" not in self.faults:
            self.jobs[str(sent.job_id)]["metadata"]["description"] = sent.body["description"]
        return 200, None

    def events(self, sent: Sent) -> Answer:
        found = list(self.history[str(sent.job_id)])
        if "events_swapped" in self.faults:
            found[0], found[1] = found[1], found[0]
        if "events_missing" in self.faults:
            found = found[:-1]
        return 200, {"events": found}

    def logs_preview(self, sent: Sent) -> Answer:
        task = sent.params.get("task_id")
        if task in self.jobs[str(sent.job_id)]["status"]["tasks"] or "any_task" in self.faults:
            return 200, {"content": "log"}
        return 400, {"error_code": "ModelArts.2788", "error_msg": "Invalid parameter(task_id)."}


def run(
    scenario: Callable[[FakeProbe], Iterator[Until] | None],
    *faults: str,
    spec_counts: str = "items",
    **service: Any,
) -> FakeProbe:
    api = family_api(list_offset_counts=spec_counts)
    probe = FakeProbe(api, FakeService(api, frozenset(faults), **service))
    run_to_end(scenario(probe))
    return probe


SCENARIOS: dict[str, Callable[[FakeProbe], Iterator[Until] | None]] = {
    "created_job_listed": created_job_listed,
    "deleted_job_not_listed": deleted_job_not_listed,
    "deleted_job_unknown": deleted_job_unknown,
    "second_delete_rejected": second_delete_rejected,
    "description_visible": description_visible,
    "list_pages_consistent": list_pages_consistent,
    "events_ordered": events_ordered,
    "events_include_transitions": events_include_transitions,
    "unknown_task_refused": unknown_task_refused,
}


@pytest.mark.parametrize("check", sorted(SCENARIOS))
def test_a_correct_service_passes(check: str) -> None:
    probe = run(SCENARIOS[check])
    assert probe.report.failures == []
    assert probe.report.tallies[check].passed >= 1


# fault -> the check that must fail, and a word its finding's title has
FAULTS = {
    "newest_missing": ("created_job_listed", "not listed"),
    "delete_keeps_listed": ("deleted_job_not_listed", "still listed"),
    "show_deleted": ("deleted_job_unknown", "still be shown"),
    "delete_twice": ("second_delete_rejected", "second delete"),
    "description_dropped": ("description_visible", "description"),
    "overlap": ("list_pages_consistent", "overlap"),
    "skip": ("list_pages_consistent", "skip"),
    "ignore_limit": ("list_pages_consistent", "more entries than its limit"),
    "events_swapped": ("events_ordered", "not in time order"),
    "events_missing": ("events_include_transitions", "miss a transition"),
    "any_task": ("unknown_task_refused", "unknown task"),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_each_fault_fails_its_check_with_the_evidence(fault: str) -> None:
    check, words = FAULTS[fault]
    probe = run(SCENARIOS[check], fault)
    failures = probe.report.failures
    assert [f.check for f in failures] == [check], [f.title for f in failures]
    assert words in failures[0].title + failures[0].got
    # The evidence names the operation the rule is about, in the spec, and its vendor page.
    assert "spec /paths/" in failures[0].evidence
    assert "page family/" in failures[0].evidence


@pytest.mark.parametrize("spec_counts", ["items", "pages"])
def test_offset_counts_what_the_spec_says(spec_counts: str) -> None:
    """The check follows x-modelarts-paging: a service reading offset the spec's way passes,
    the other reading fails with the paging's quote of the page as evidence."""
    same = "records" if spec_counts == "items" else "pages"
    other = "pages" if spec_counts == "items" else "records"
    assert (
        run(list_pages_consistent, spec_counts=spec_counts, offset_counts=same).report.failures
        == []
    )
    failures = run(
        list_pages_consistent, spec_counts=spec_counts, offset_counts=other
    ).report.failures
    assert [f.check for f in failures] == ["list_pages_consistent"]
    assert f"offset counts {spec_counts}" in failures[0].expected
    assert (
        'page family/querying_a_training_job_list_2024-11.rst, Table 2, row offset: "offset"'
        in (failures[0].evidence)
    )


def test_events_that_name_no_phase_are_observed_not_failed() -> None:
    api = family_api()
    service = FakeService(api)
    probe = FakeProbe(api, service)

    def silent(sent: Sent) -> Answer:
        if sent.role is Role.EVENTS:
            return 200, {"events": [{"time": "1", "message": "something happened"}]}
        return service(sent)

    probe.script = silent
    run_to_end(events_include_transitions(probe))
    assert probe.report.failures == []
    assert "events_include_transitions" not in probe.report.tallies
    assert [o.choice for o in probe.report.observations] == ["events name no phase of the job"]


@pytest.mark.parametrize(
    ("check", "without"),
    [
        ("created_job_listed", ("list",)),
        ("deleted_job_not_listed", ("delete",)),
        ("deleted_job_unknown", ("delete",)),
        ("description_visible", ("describe",)),
        ("list_pages_consistent", ("list",)),
        ("events_ordered", ("events",)),
        ("unknown_task_refused", ("logs-preview",)),
    ],
)
def test_a_spec_without_the_operation_makes_the_check_not_applicable(
    check: str, without: tuple[str, ...]
) -> None:
    api = family_api(without)
    probe = FakeProbe(api, FakeService(api))
    run_to_end(SCENARIOS[check](probe))
    assert probe.sent == []
    assert check not in probe.report.tallies
    assert any(note.startswith(f"{check}: not applicable") for note in probe.report.notes)
