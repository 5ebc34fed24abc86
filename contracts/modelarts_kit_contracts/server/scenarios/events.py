"""Scenarios about a job's events: they are in time order, and they include the transitions
the job went through (as show reported its phases).

Both read the events of one job the run takes through its life (created, terminated, until a
final phase or ``--final-phase-wait``), shared through the probe's memo. The pages leave the
default order and the wording of an event open: the order a server chooses is observed, and
an event names a phase only when its text has the phase's name as a word. A server whose
events name no phase at all is observed, not failed: only a server that names some of the
job's phases and leaves out one show reported misses a transition.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from modelarts_kit_spec.meaning import Role

from modelarts_kit_contracts.core import Finding, Observation
from modelarts_kit_contracts.server.api_map import JSON, member
from modelarts_kit_contracts.server.evidence import operation_evidence
from modelarts_kit_contracts.server.listing import ListShape, Page, fetch, list_shape
from modelarts_kit_contracts.server.meaning import lifecycle
from modelarts_kit_contracts.server.probe import Probe
from modelarts_kit_contracts.server.scenarios.steps import applicable, create_job
from modelarts_kit_contracts.server.scenarios.waiting import POLL_S, ScenarioSteps, Until

TIME = "time"  # the event's time (the events page's Event table)
HISTORY_KEY = "events_job"
# Event times may be given to the second (the events page's example): the job's phases are
# spread over more than one, so that an order is there to be kept.
PHASE_SPACING_S = 1.1
EVENTS_NEEDED = 3  # pages of two at the second offset differ by what offset counts
PAGE_OF_TWO = 2
ORDER = "order"  # the events page's query parameter (its values are the spec's)
DIRECTIONS = 2  # an order one way and the other


@dataclass(frozen=True)
class JobHistory:
    """A job the run took through its life, and the phases show reported, in order."""

    job_id: str
    phases: tuple[str, ...]


@dataclass
class _HistoryUnderway:
    """The history job between its steps: each step is due at a time, and the scenarios
    that read the job wait for it (other scenarios run meanwhile: scenarios/waiting.py)."""

    job_id: str
    phases: list[str]
    due: float  # when the next step may be taken, on the probe's timeline
    deadline: float | None = None  # after the terminate: the end of the final-phase wait

    def seen(self, probe: Probe, body: JSON) -> Any:
        phase = probe.api.phase_of(body)
        if isinstance(phase, str) and (not self.phases or self.phases[-1] != phase):
            self.phases.append(phase)
        return phase


@dataclass(frozen=True)
class _CreateRefused:
    """The history job's create was refused, and ``check`` recorded it."""

    check: str


def job_history(probe: Probe, check: str) -> ScenarioSteps[JobHistory | None]:
    """The memo's job, else a new one: created, shown, terminated a phase spacing later,
    shown until a final phase. Every scenario that reads it may take its next step."""
    while True:  # bounded: each wait is for a due time the final-phase wait caps
        memo = probe.state.get(HISTORY_KEY)
        if isinstance(memo, JobHistory):
            return memo
        if isinstance(memo, _CreateRefused) and memo.check == check:
            return None  # recorded under this check already
        if not isinstance(memo, _HistoryUnderway):
            if _create_history_job(probe, check) is None:
                return None
            continue
        if memo.due > probe.timeline.now():
            yield Until(memo.due)
            continue
        _next_step(probe, memo)


def _create_history_job(probe: Probe, check: str) -> _HistoryUnderway | None:
    """Create the job and show it once; its terminate is due a phase spacing later."""
    job_id, _ = create_job(probe, check)
    if job_id is None:
        probe.state[HISTORY_KEY] = _CreateRefused(check)
        return None
    underway = _HistoryUnderway(job_id, [], 0.0)
    underway.seen(probe, probe.send(Role.SHOW, job_id=job_id).json())
    underway.due = probe.timeline.now() + min(PHASE_SPACING_S, probe.final_phase_wait_s)
    probe.state[HISTORY_KEY] = underway
    return underway


def _next_step(probe: Probe, memo: _HistoryUnderway) -> None:
    """Terminate (once), then show; the history is done at a final phase or the wait's end."""
    if memo.deadline is None:
        body = probe.api.example_body(Role.TERMINATE)
        memo.seen(probe, probe.send(Role.TERMINATE, job_id=memo.job_id, body=body).json())
        memo.deadline = probe.timeline.now() + probe.final_phase_wait_s
    phase = memo.seen(probe, probe.send(Role.SHOW, job_id=memo.job_id).json())
    if phase in lifecycle(probe.api).final_phases or probe.timeline.now() >= memo.deadline:
        probe.state[HISTORY_KEY] = JobHistory(memo.job_id, tuple(memo.phases))
    else:
        memo.due = probe.timeline.now() + POLL_S


def _events(probe: Probe, check: str) -> ScenarioSteps[tuple[ListShape, Page] | None]:
    """The events of the history job, on one page of the largest size the spec allows."""
    shape = list_shape(probe.api, Role.EVENTS)
    if shape is None:
        probe.note(f"{check}: not applicable: the events answer has no array in the spec")
        return None
    history = yield from job_history(probe, check)
    if history is None:
        return None
    if shape.paging is not None:
        largest = shape.paging.limit.largest
        page = fetch(probe, shape, offset=0, limit=largest, job_id=history.job_id)
    else:
        response = probe.send(Role.EVENTS, job_id=history.job_id)
        entries = shape.entries_of(response.json()) if 200 <= response.status < 300 else None
        page = Page(0, response, None if entries is None else tuple(entries))
    entries = shape.entries_of(page.response.json())
    if entries is None:
        operation = probe.api.operation(Role.EVENTS)
        probe.record(
            check,
            Finding(
                title="The events of a job the run created cannot be read",
                expected=f"HTTP {operation.success.status} with the {shape.entries} array",
                got=f"HTTP {page.response.status}: "
                f"{page.response.body[:160].decode('utf-8', 'replace')}",
                evidence=operation_evidence(probe.api, Role.EVENTS),
            ),
            role=Role.EVENTS,
            reproduce=page.response.curl,
        )
        return None
    return shape, page


def instant(value: JSON) -> float | None:
    """An event time as a number (milliseconds or seconds as sent; ISO 8601 as seconds)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if not isinstance(value, str):
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def events_ordered(probe: Probe) -> ScenarioSteps[None]:
    """The events of a job are in time order, one way or the other."""
    check = "events_ordered"
    if not applicable(probe, check, Role.EVENTS):
        return
    found = yield from _events(probe, check)
    if found is None:
        return
    shape, page = found
    entries = shape.entries_of(page.response.json()) or []
    times = [instant(member(entry, TIME)) for entry in entries]
    operation_id = probe.api.operation(Role.EVENTS).operation_id
    evidence = operation_evidence(probe.api, Role.EVENTS)
    if any(t is None for t in times):
        probe.note(f"{check}: not evaluated: an event {TIME} is not a time: {times}")
        return
    known = [t for t in times if t is not None]
    rising = all(a <= b for a, b in itertools.pairwise(known))
    falling = all(a >= b for a, b in itertools.pairwise(known))
    if len(set(known)) > 1 and (rising or falling):
        probe.observe(
            Observation(
                f"lists events {'oldest' if rising else 'newest'} first",
                check=check,
                operation=operation_id,
                pointer=f"/{shape.entries}",
                evidence=evidence,
            )
        )
    disorder = None if rising or falling else _first_disorder(known)
    probe.record(
        check,
        None
        if disorder is None
        else Finding(
            title="Events are not in time order",
            expected=f"every {TIME} of /{shape.entries} in one order",
            got=f"{[member(e, TIME) for e in entries]} (first out of order: entry {disorder})",
            pointer=f"/{shape.entries}/{disorder}/{TIME}",
            evidence=evidence,
        ),
        role=Role.EVENTS,
        reproduce=page.response.curl,
    )


def _first_disorder(times: list[float]) -> int:
    """The first entry that breaks the order the first two distinct times set."""
    direction = next((b > a for a, b in itertools.pairwise(times) if a != b), True)
    for index in range(1, len(times)):
        if times[index] != times[index - 1] and (times[index] > times[index - 1]) != direction:
            return index
    return len(times) - 1


def named_phases(entries: list[JSON], phases: tuple[str, ...]) -> set[str]:
    """The phases some event's text names as a word (any case)."""
    texts = " ".join(_texts(entry) for entry in entries)
    return {p for p in phases if re.search(rf"\b{re.escape(p)}\b", texts, re.IGNORECASE)}


def _texts(value: JSON) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return " ".join(_texts(v) for v in value.values())
    if isinstance(value, list):
        return " ".join(_texts(v) for v in value)
    return ""


def events_include_transitions(probe: Probe) -> ScenarioSteps[None]:
    """The events name every phase show saw the job move into (its first phase aside)."""
    check = "events_include_transitions"
    if not applicable(probe, check, Role.EVENTS):
        return
    found = yield from _events(probe, check)
    history = probe.state.get(HISTORY_KEY)
    if found is None or not isinstance(history, JobHistory):
        return
    shape, page = found
    entries = shape.entries_of(page.response.json()) or []
    operation_id = probe.api.operation(Role.EVENTS).operation_id
    evidence = operation_evidence(probe.api, Role.EVENTS)
    named = named_phases(entries, probe.api.spec.meaning.lifecycle.phases)
    if not named:
        probe.observe(
            Observation(
                "events name no phase of the job",
                check=check,
                operation=operation_id,
                pointer=f"/{shape.entries}",
                evidence=evidence,
            )
        )
        return
    entered = history.phases[1:]
    missing = [phase for phase in entered if phase not in named]
    probe.record(
        check,
        None
        if not missing
        else Finding(
            title="Events miss a transition the job went through",
            expected=f"an event naming each phase show saw job {history.job_id} enter: "
            f"{list(entered)}",
            got=f"no event names {missing}; the events name {sorted(named)}",
            pointer=f"/{shape.entries}",
            evidence=evidence,
        ),
        role=Role.EVENTS,
        reproduce=page.response.curl,
    )


def events_paging_honoured(probe: Probe) -> ScenarioSteps[None]:
    """The events' ``limit`` and ``offset`` are honoured as the spec's paging says (a page of
    at most ``limit``; ``offset`` naming the entry, or the page, ``x-modelarts-paging``
    says); the ``order`` asked for is observed (the page says only "instance order")."""
    check = "events_paging_honoured"
    if not applicable(probe, check, Role.EVENTS):
        return
    found = yield from _events(probe, check)
    history = probe.state.get(HISTORY_KEY)
    if found is None or not isinstance(history, JobHistory):
        return
    shape, whole = found
    if shape.paging is None:
        probe.note(f"{check}: not applicable: the spec does not say how the events page")
        return
    if not history.phases or history.phases[-1] not in lifecycle(probe.api).final_phases:
        # a job still moving adds events between two pages: nothing to compare
        probe.note(f"{check}: not evaluated: job {history.job_id} did not reach a final phase")
        return
    entries = shape.entries_of(whole.response.json()) or []
    if len(entries) < EVENTS_NEEDED:
        probe.note(f"{check}: not evaluated: {len(entries)} events, {EVENTS_NEEDED} needed")
        return
    offset = shape.paging.offset
    second = offset.after(0, PAGE_OF_TWO)  # the offset of the second page of two
    start = offset.first_entry(second, PAGE_OF_TWO)
    for at, limit, evidence in (
        (0, 1, shape.evidence("limit")),
        (second, PAGE_OF_TWO, shape.evidence("offset", "limit")),
    ):
        page = fetch(probe, shape, offset=at, limit=limit, job_id=history.job_id)
        got = shape.entries_of(page.response.json())
        wanted = entries[:1] if at == 0 else entries[start : start + PAGE_OF_TWO]
        probe.record(
            check,
            None
            if got == wanted
            else Finding(
                title="The events page is not the one its offset and limit name",
                expected=f"offset {at}, limit {limit}: entries {start if at else 0} to "
                f"{(start if at else 0) + len(wanted) - 1} of the job's events "
                f"(offset counts {offset.counts}): {wanted}",
                got=f"{got}",
                pointer=f"/{shape.entries}",
                evidence=evidence,
            ),
            role=Role.EVENTS,
            reproduce=page.response.curl,
        )
    _observe_order(probe, check, shape, history.job_id)


def _observe_order(probe: Probe, check: str, shape: ListShape, job_id: str) -> None:
    """Whether the ``order`` asked for is followed: the pages leave it open, so observed."""
    operation = probe.api.operation(Role.EVENTS)
    parameter = next((p for p in operation.parameters if p.name == ORDER), None)
    documented = (
        probe.api.spec.walker.view(parameter.schema).documented if parameter is not None else None
    )
    if documented is None or len(documented.values) != DIRECTIONS:
        return
    largest = shape.paging.limit.largest if shape.paging is not None else 1
    first, second = (
        shape.entries_of(
            fetch(
                probe, shape, offset=0, limit=largest, job_id=job_id, extra={ORDER: order}
            ).response.json()
        )
        for order in documented.values
    )
    if first is None or second is None or first == second[::-1]:
        return
    probe.observe(
        Observation(
            f"does not reverse the events between {ORDER}={documented.values[0]} and "
            f"{ORDER}={documented.values[1]}",
            check=check,
            operation=operation.operation_id,
            pointer=f"/{shape.entries}",
            evidence=shape.evidence("order"),
        )
    )
