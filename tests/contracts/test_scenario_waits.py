"""A scenario that waits lets the next ones run (scenarios/waiting.py, issue 36).

The events scenarios wait for the seconds their job's phases need, and terminate_lifecycle for
a terminated job's final phase: they yield their waits, and the run resumes them between two
other scenarios. Their findings still reproduce from their own first request. On the embedded
server the waits move the server's clock instead of sleeping (server/timeline.py).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from unittest import mock

import pytest
from modelarts_kit.embedded import embedded_target
from modelarts_kit_contracts.core import ExitCode, Finding, RunReport
from modelarts_kit_contracts.server import run as server_run
from modelarts_kit_contracts.server.checks import SCENARIOS, Scenario
from modelarts_kit_contracts.server.probe import Probe
from modelarts_kit_contracts.server.run import Budget, RunOptions, run_server_contract
from modelarts_kit_contracts.server.scenarios.steps import create_job
from modelarts_kit_contracts.server.scenarios.waiting import (
    Parked,
    ScenarioSteps,
    Until,
    run_to_end,
    until,
)
from modelarts_kit_contracts.server.timeline import WALL_TIMELINE, SkippingTimeline
from modelarts_kit_contracts.transport_auth import Credentials
from modelarts_kit_server import DEV_PROJECT_ID, DEV_TOKEN
from modelarts_kit_spec.meaning import Role


class Steps:
    """A progress sink that keeps the scenarios in the order they finished."""

    def __init__(self) -> None:
        self.finished: list[str] = []

    def phase(self, name: str) -> None:
        pass

    def advance(self, label: str) -> None:
        self.finished.append(label)


def scenarios_only(scenarios: tuple[Scenario, ...], progress: Steps) -> RunReport:
    options = RunOptions(
        credentials=Credentials(token=DEV_TOKEN),
        project_id=DEV_PROJECT_ID,
        other_project_id=DEV_PROJECT_ID[::-1],
        budget=Budget(max_examples=1, seed=1),
        phases=(),
    )
    with (
        mock.patch.object(server_run, "SCENARIOS", scenarios),
        embedded_target(http=False) as target,
    ):
        return run_server_contract(target, options, progress=progress)


def test_the_earliest_wait_resumes_first_and_ties_in_the_order_parked() -> None:
    parked: Parked[str] = Parked()
    for at, name in ((3.0, "late"), (1.0, "first"), (1.0, "second"), (2.0, "middle")):
        parked.park(Until(at), iter(()), name)
    assert parked.next_due() == 1.0
    assert [kept for _, kept in parked.take_due(2.0)] == ["first", "second", "middle"]
    assert len(parked) == 1
    assert parked.take_due(2.9) == []


def test_a_scenario_run_on_its_own_waits_through_its_waits() -> None:
    done: list[str] = []

    def waits() -> Iterator[Until]:
        yield until(WALL_TIMELINE, 0.0)
        done.append("after the wait")

    run_to_end(waits())
    run_to_end(None)  # a scenario that never waits returns None
    assert done == ["after the wait"]


def test_a_skipping_timeline_moves_the_servers_clock_instead_of_sleeping() -> None:
    moved: list[float] = []
    timeline = SkippingTimeline(moved.append)

    def waits() -> Iterator[Until]:
        yield until(timeline, 30.0)
        yield until(timeline, 0.0)  # due already: the clock does not move
        yield until(timeline, 5.0)

    start = timeline.now()
    with mock.patch.object(time, "sleep", side_effect=AssertionError("slept")):
        run_to_end(waits(), timeline)
    assert len(moved) == 2
    assert sum(moved) == pytest.approx(35.0, abs=0.5)  # less what ran between the waits
    assert timeline.now() - start >= 35.0


def test_a_waiting_scenario_lets_the_next_run_and_reproduces_from_its_start() -> None:
    order: list[str] = []
    order_of_show: list[str] = []

    def waiting(probe: Probe) -> ScenarioSteps[None]:
        job_id, _ = create_job(probe, "events_ordered")
        assert job_id is not None
        order.append("waiting: created")
        yield until(probe.timeline, 0.0)  # due at once, yet resumed only between two others
        order.append("waiting: resumed")
        yield until(probe.timeline, 0.0)
        shown = probe.send(Role.SHOW, job_id=job_id)
        order_of_show.append(shown.curl)
        order.append("waiting: done")
        finding = Finding(title="made up", expected="nothing", got="something")
        probe.record("events_ordered", finding, role=Role.SHOW, reproduce=shown.curl)

    def other(name: str) -> Scenario:
        def run(probe: Probe) -> None:
            order.append(name)
            probe.send(Role.SHOW, job_id=f"{name}-job")

        return Scenario(name, run)

    progress = Steps()
    report = scenarios_only(
        (Scenario("waiting", waiting), other("first"), other("second")), progress
    )
    assert order == [
        "waiting: created",
        "waiting: resumed",
        "first",
        "waiting: done",
        "second",
    ]
    assert progress.finished == ["first", "waiting", "second"]
    (failure,) = report.failures
    steps = failure.reproduce.splitlines()
    # its creates (the first also chooses the job template), then its show, and nothing else:
    # the requests it sent before it waited are kept, the other scenarios' are not in it
    assert [step.split()[2] for step in steps] == ["POST", "POST", "GET"]
    assert steps[-1] == order_of_show[0]
    assert "first-job" not in failure.reproduce
    assert "second-job" not in failure.reproduce


def test_the_events_scenarios_wait_while_the_others_run() -> None:
    progress = Steps()
    report = scenarios_only(SCENARIOS, progress)
    assert report.exit_code == ExitCode.PASSED, report.failures
    assert [s.name for s in SCENARIOS[:3]] == [
        "events_ordered",
        "events_transitions",
        "events_paging",
    ]
    # First in the list, yet finished after scenarios that come later: they waited meanwhile.
    assert progress.finished.index("create_then_show") < progress.finished.index("events_ordered")
    assert sorted(progress.finished) == sorted(s.name for s in SCENARIOS)
    for check in ("events_ordered", "events_include_transitions", "events_paging_honoured"):
        assert report.tallies[check].passed >= 1, check


def test_on_the_embedded_server_the_scenarios_wait_without_sleeping() -> None:
    """The events job's phases a second apart, a terminated job's final phase: the run moves
    the embedded server's clock (and sees the phases) instead of sleeping through them."""
    slept: list[float] = []
    sleep = time.sleep

    def recorded(seconds: float) -> None:
        if threading.current_thread().name == "contract-server-run":
            slept.append(seconds)
        sleep(seconds)

    progress = Steps()
    with mock.patch.object(time, "sleep", recorded):
        report = scenarios_only(SCENARIOS, progress)
    assert report.exit_code == ExitCode.PASSED, report.failures
    for check in ("events_ordered", "events_include_transitions", "final_phase_not_terminable"):
        assert report.tallies[check].passed >= 1, check
    assert sum(slept) == 0.0
