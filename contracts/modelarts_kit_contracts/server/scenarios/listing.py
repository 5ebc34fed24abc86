"""Scenarios about the job list: a created job is listed, a deleted one is not, and the pages
of a list neither overlap nor skip."""

from __future__ import annotations

from modelarts_kit_spec.meaning import Role

from modelarts_kit_contracts.core import Finding
from modelarts_kit_contracts.server.api_map import JSON
from modelarts_kit_contracts.server.evidence import operation_evidence
from modelarts_kit_contracts.server.listing import (
    ListShape,
    Page,
    fetch,
    find_in_list,
    list_shape,
    walk,
)
from modelarts_kit_contracts.server.probe import Probe
from modelarts_kit_contracts.server.scenarios.deletion import delete_created_job
from modelarts_kit_contracts.server.scenarios.steps import applicable, create_job, expect_status

MIN_ENTRIES = 4  # the pages of two records at offset 1 tell the two readings of offset apart
COMPARED = 12  # the first entries walked one by one and two by two (a fault shows early)
DEFAULT_PAGE = 50  # the ground truth's page size when the spec gives limit no maximum


def _shape(probe: Probe, check: str) -> ListShape | None:
    shape = list_shape(probe.api, Role.LIST)
    if shape is None:
        probe.note(f"{check}: not applicable: the list answer has no array of jobs in the spec")
    return shape


def _listing_failed(probe: Probe, check: str, page: Page) -> bool:
    """Record ``check`` failed when ``page`` is not a documented list answer."""
    if page.ids is not None:
        return False
    operation = probe.api.operation(Role.LIST)
    violation = expect_status(
        page.response, int(operation.success.status), "Listing jobs failed", "a list of jobs"
    ) or Finding(
        title="A list answer carries no list of jobs",
        expected="the array of jobs the spec documents",
        got=f"HTTP {page.response.status}: {page.response.body[:160].decode('utf-8', 'replace')}",
    )
    evidence = operation_evidence(probe.api, Role.LIST)
    probe.record(
        check, violation.but(evidence=evidence), role=Role.LIST, reproduce=page.response.curl
    )
    return True


def created_job_listed(probe: Probe) -> None:
    """A job just created is on the list."""
    check = "created_job_listed"
    if not applicable(probe, check, Role.LIST) or (shape := _shape(probe, check)) is None:
        return
    job_id, _ = create_job(probe, check)
    if job_id is None:
        return
    found, page = find_in_list(probe, shape, job_id)
    if page is None or _listing_failed(probe, check, page):
        return
    probe.record(
        check,
        None
        if found
        else Finding(
            title="A created job is not listed",
            expected=f"job {job_id} among the {shape.entries} of the list",
            got=f"{len(page.ids or ())} entries on its page, without it",
            evidence=operation_evidence(probe.api, Role.LIST),
        ),
        role=Role.LIST,
        reproduce=page.response.curl,
    )


def deleted_job_not_listed(probe: Probe) -> None:
    """A job deleted is no longer on the list."""
    check = "deleted_job_not_listed"
    if not applicable(probe, check, Role.LIST, Role.DELETE):
        return
    if (shape := _shape(probe, check)) is None:
        return
    job_id = delete_created_job(probe, check)
    if job_id is None:
        return
    found, page = find_in_list(probe, shape, job_id)
    if page is None or _listing_failed(probe, check, page):
        return
    probe.record(
        check,
        Finding(
            title="A deleted job is still listed",
            expected=f"job {job_id} no longer among the {shape.entries} of the list",
            got=f"job {job_id} listed after its delete was accepted",
            evidence=f"{operation_evidence(probe.api, Role.DELETE)}; "
            f"{operation_evidence(probe.api, Role.LIST)}",
        )
        if found
        else None,
        role=Role.LIST,
        reproduce=page.response.curl,
    )


def list_pages_consistent(probe: Probe) -> None:
    """Walking the list page by page gives every job once: no page overlaps the next, none
    skips one, none holds more than ``limit``. What ``offset`` counts is the spec's
    (``x-modelarts-paging``, the list page's words), and its quote is the evidence."""
    check = "list_pages_consistent"
    if not applicable(probe, check, Role.LIST) or (shape := _shape(probe, check)) is None:
        return
    if not shape.paged:
        probe.note(f"{check}: not applicable: the spec does not say how the list pages")
        return
    size = shape.max_limit or DEFAULT_PAGE
    truth = fetch(probe, shape, offset=0, limit=size)
    for _ in range(MIN_ENTRIES):
        if truth.ids is None or len(truth.ids) >= MIN_ENTRIES:
            break
        if create_job(probe, check)[0] is None:
            return
        truth = fetch(probe, shape, offset=0, limit=size)
    if _listing_failed(probe, check, truth):
        return
    assert truth.ids is not None
    if _record_oversized(probe, check, shape, truth, size):
        return
    expected = truth.ids[:COMPARED]
    one_by_one = walk(probe, shape, limit=1, max_pages=len(expected))
    if _record_walk(probe, check, shape, one_by_one, 1, expected):
        return
    if len(expected) < MIN_ENTRIES:
        probe.note(f"{check}: pages of two not compared: only {len(expected)} jobs listed")
        return
    pages = walk(probe, shape, limit=2, max_pages=(len(expected) + 1) // 2)
    _record_walk(probe, check, shape, pages, 2, expected)


def _record_oversized(probe: Probe, check: str, shape: ListShape, page: Page, limit: int) -> bool:
    if page.ids is None or len(page.ids) <= limit:
        return False
    probe.record(
        check,
        Finding(
            title="A list page holds more entries than its limit",
            expected=f"at most {limit} entries (limit {limit}, offset {page.offset})",
            got=f"{len(page.ids)} entries",
            evidence=shape.evidence("limit") or operation_evidence(probe.api, Role.LIST),
        ),
        role=Role.LIST,
        reproduce=page.response.curl,
    )
    return True


def _record_walk(
    probe: Probe,
    check: str,
    shape: ListShape,
    pages: list[Page],
    limit: int,
    expected: tuple[JSON, ...],
) -> bool:
    """Record the walk's verdict against ``expected`` (the first page of the largest size);
    True when it failed."""
    seen: list[JSON] = []
    for page in pages:
        if page.ids is None:
            _listing_failed(probe, check, page)
            return True
        if _record_oversized(probe, check, shape, page, limit):
            return True
        seen.extend(page.ids)
    walked = seen[: len(expected)]
    problem = _first_gap(walked, expected)
    last = pages[-1].response.curl if pages else ""
    probe.record(
        check,
        None
        if problem is None
        else Finding(
            title=f"Pages of {limit} of the list {problem[0]}",
            expected=f"the {shape.entries} of one page of {len(expected)}, once each, in order "
            f"(offset counts {shape.paging.offset.counts if shape.paging else 'entries'})",
            got=problem[1],
            evidence=shape.evidence("offset") or operation_evidence(probe.api, Role.LIST),
        ),
        role=Role.LIST,
        reproduce=last,
    )
    return problem is not None


def _first_gap(walked: list[JSON], expected: tuple[JSON, ...]) -> tuple[str, str] | None:
    """(overlap or skip, what) where the walk first departs from ``expected``; None: none."""
    for index, wanted in enumerate(expected):
        if index >= len(walked):
            return "skip", f"the walk ended after {index} entries: {wanted!r} never came"
        got = walked[index]
        if got == wanted:
            continue
        if got in walked[:index]:
            return "overlap", f"entry {index} is {got!r} again (already at {walked.index(got)})"
        return "skip", f"entry {index} is {got!r}, {wanted!r} was skipped"
    return None
