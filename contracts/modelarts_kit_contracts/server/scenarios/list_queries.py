"""Scenarios about what a list answers: its filters are honoured, its default order is the
spec's, and another project's list holds none of this project's jobs.

They read the run's shared jobs (:mod:`.shared`) on one list page of the largest size the spec
allows, newest first (the default order): a crowded live target whose first page holds
neither shared job gets a note, not a verdict.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

from modelarts_kit_spec.meaning import Role

from modelarts_kit_contracts.core import Finding
from modelarts_kit_contracts.server.api_map import JSON, ApiMap, member
from modelarts_kit_contracts.server.evidence import operation_evidence
from modelarts_kit_contracts.server.listing import ListShape, Page, fetch, list_shape
from modelarts_kit_contracts.server.probe import Probe
from modelarts_kit_contracts.server.quotes import FILTER_OPERATORS, FILTERS, cite
from modelarts_kit_contracts.server.scenarios.shared import shared_jobs
from modelarts_kit_contracts.server.scenarios.steps import applicable, create_job

# The filter keys of the list page's example request, and where each is in a job (the
# pages name no field for ``user_id``: a job carries its creator as ``user_name``, so that
# key is not judged). ``phase`` is where the spec's lifecycle puts the phase.
PHASE = "phase"
FILTER_KEYS: Mapping[str, str | None] = {
    "name": "/metadata/name",
    "create_time": "/metadata/create_time",
    PHASE: None,
    "algorithm_name": "/algorithm/name",
    "kind": "/kind",
}
FILTERS_FIELD = "filters"  # the list page's request field (Table 2)
LIKE_FRAGMENT = 8  # ``like`` asks for the last characters of a value (a name's unique tail)


def _value(document: JSON, pointer: str) -> JSON:
    return member(document, *pointer.split("/")[1:])


def _text(value: JSON) -> str:
    return value if isinstance(value, str) else str(value)


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def holds(operator: str, value: JSON, wanted: Sequence[str]) -> bool | None:
    """Whether ``value`` meets the filter (None: the value is not there, nothing to judge)."""
    if value is None or isinstance(value, dict | list):
        return None
    text = _text(value)
    if operator == "in":
        return text in wanted
    if operator == "not":
        return text not in wanted
    if operator == "like":
        return any(w.lower() in text.lower() for w in wanted)
    low, high = [*wanted, "", ""][:2]
    number, floor, ceiling = _number(text), _number(low), _number(high)
    if number is not None and floor is not None and ceiling is not None:
        return floor <= number <= ceiling
    return low <= text <= high


def _operators(api: ApiMap) -> tuple[str, ...]:
    """The operators the list request documents (the Filter schema's values)."""
    schema = api.operation(Role.LIST).request_schema
    walker = api.spec.walker
    filters = walker.property(walker.view(schema), FILTERS_FIELD) if schema is not None else None
    item = walker.view(filters.items) if filters is not None and filters.items else None
    operator = walker.property(item, "operator") if item is not None else None
    documented = operator.documented if operator is not None else None
    return documented.values if documented is not None else ()


def _drawn(operator: str, value: JSON) -> list[str] | None:
    """The filter values that keep a job whose field is ``value`` (None: the operator states
    no rule for such a value: a range of text)."""
    text = _text(value)
    if operator == "between":
        return [text, text] if _number(text) is not None else None
    if operator == "like":
        return [text[-LIKE_FRAGMENT:]]
    return [text]


def _page_with(probe: Probe, shape: ListShape, check: str, ids: Sequence[str]) -> Page | None:
    page = fetch(probe, shape, offset=0, limit=shape.paging.limit.largest if shape.paging else 1)
    if page.ids is None:
        probe.record(
            check,
            Finding(
                title="Listing jobs failed",
                expected="a list of jobs",
                got=f"HTTP {page.response.status}: {page.response.body[:160]!r}",
                evidence=operation_evidence(probe.api, Role.LIST),
            ),
            role=Role.LIST,
            reproduce=page.response.curl,
        )
        return None
    if not all(job_id in page.ids for job_id in ids):
        probe.note(f"{check}: not evaluated: the run's jobs are not on the list's first page")
        return None
    return page


def list_filters_honoured(probe: Probe) -> None:
    """Each documented operator on each key of the list page's example: every job listed
    meets the filter, and a job of the run that meets it is listed (an unmet one is not)."""
    check = "list_filters_honoured"
    if (
        not applicable(probe, check, Role.LIST)
        or (shape := list_shape(probe.api, Role.LIST)) is None
    ):
        return
    ids = shared_jobs(probe, check)
    if ids is None or (base := _page_with(probe, shape, check, ids)) is None:
        return
    entries = shape.entries_of(base.response.json()) or []
    jobs = {probe.api.job_id_of(entry): entry for entry in entries}
    first, second = jobs[ids[0]], jobs[ids[1]]
    evidence = cite(FILTERS, FILTER_OPERATORS, head=operation_evidence(probe.api, Role.LIST))
    keys = {**FILTER_KEYS, PHASE: probe.api.phase_pointer}
    for (key, pointer), operator in itertools.product(keys.items(), _operators(probe.api)):
        assert pointer is not None
        wanted = (
            _drawn(operator, _value(first, pointer)) if _value(first, pointer) is not None else None
        )
        if wanted is None:
            continue
        condition = {"key": key, "operator": operator, "value": wanted}
        page = fetch(
            probe, shape, offset=0, limit=len(entries) or 1, extra={FILTERS_FIELD: [condition]}
        )
        found = shape.entries_of(page.response.json()) if page.ids is not None else None
        verdict = (
            _judged(probe, shape, condition, pointer, found, (first, second))
            if found is not None
            else Finding(
                title="A list with a documented filter was not answered",
                expected=f"a list of jobs for filter {condition}",
                got=f"HTTP {page.response.status}: {page.response.body[:160]!r}",
            )
        )
        probe.record(
            check,
            verdict.but(evidence=evidence) if verdict is not None else None,
            role=Role.LIST,
            reproduce=page.response.curl,
        )


def _judged(
    probe: Probe,
    shape: ListShape,
    condition: Mapping[str, JSON],
    pointer: str,
    found: list[JSON],
    run_jobs: tuple[JSON, JSON],
) -> Finding | None:
    operator, wanted = str(condition["operator"]), list(condition["value"])
    for entry in found:
        if holds(operator, _value(entry, pointer), wanted) is False:
            return Finding(
                title="A listed job does not meet the list's filter",
                expected=f"every job of /{shape.entries} meets {dict(condition)}",
                got=f"job {probe.api.job_id_of(entry)} with {pointer} == "
                f"{_value(entry, pointer)!r}",
                pointer=f"/{shape.entries}",
            )
    listed = {probe.api.job_id_of(entry) for entry in found}
    # A phase moves between two requests: whether a job is kept is judged on its other keys.
    if pointer == probe.api.phase_pointer:
        return None
    for job in run_jobs:
        kept = holds(operator, _value(job, pointer), wanted)
        job_id = probe.api.job_id_of(job)
        if kept and job_id not in listed:
            return Finding(
                title="A job that meets the list's filter is not listed",
                expected=f"job {job_id} ({pointer} == {_value(job, pointer)!r}) among the jobs "
                f"listed for {dict(condition)}",
                got=f"{len(found)} jobs, without it",
                pointer=f"/{shape.entries}",
            )
    return None


def list_default_order(probe: Probe) -> None:
    """Without ``sort_by`` and ``order`` the list is in the spec's order (``x-modelarts-paging``
    ``order``: the list page's ``create_time``, descending)."""
    check = "list_default_order"
    if (
        not applicable(probe, check, Role.LIST)
        or (shape := list_shape(probe.api, Role.LIST)) is None
    ):
        return
    order = shape.paging.order if shape.paging is not None else None
    pointer = FILTER_KEYS.get(order.key) if order is not None else None
    if order is None or order.direction is None or pointer is None:
        probe.note(f"{check}: not applicable: the spec states no default order of the list")
        return
    ids = shared_jobs(probe, check)
    if ids is None or (page := _page_with(probe, shape, check, ids)) is None:
        return
    entries = shape.entries_of(page.response.json()) or []
    keys = [_value(entry, pointer) for entry in entries]
    numbers = [k for k in keys if isinstance(k, int | float) and not isinstance(k, bool)]
    if len(numbers) != len(keys):
        probe.note(f"{check}: not evaluated: a listed job has no number at {pointer}")
        return
    descending = order.direction == "desc"
    broken = next(
        (
            i
            for i, (a, b) in enumerate(itertools.pairwise(numbers), 1)
            if (a < b if descending else a > b)
        ),
        None,
    )
    probe.record(
        check,
        None
        if broken is None
        else Finding(
            title="The list is not in its default order",
            expected=f"/{shape.entries} by {order.key} ({pointer}), "
            f"{'descending' if descending else 'ascending'}, when the request names no order",
            got=f"entry {broken} has {numbers[broken]} after {numbers[broken - 1]}",
            pointer=f"/{shape.entries}/{broken}{pointer}",
            evidence=shape.evidence("order"),
        ),
        role=Role.LIST,
        reproduce=page.response.curl,
    )


def list_isolated(probe: Probe) -> None:
    """Another project's list holds none of this project's jobs, and a job created here does
    not change the other project's counts."""
    check = "list_isolated"
    if (
        not applicable(probe, check, Role.LIST)
        or (shape := list_shape(probe.api, Role.LIST)) is None
    ):
        return
    other = probe.other_project_id
    before = _other_page(probe, shape, other)
    job_id, _ = create_job(probe, check)
    if job_id is None:
        return
    after = _other_page(probe, shape, other)
    if not 200 <= after.response.status < 300:
        probe.note(
            f"{check}: project {other!r} cannot be listed with these credentials "
            f"(HTTP {after.response.status}): nothing to compare"
        )
        return
    evidence = shape.evidence("total", "count") or operation_evidence(probe.api, Role.LIST)
    counts = [c for c in (shape.paging.total, shape.paging.count) if c] if shape.paging else []
    changed = [
        f"{c.field} {member(before.response.json(), c.field)!r} -> "
        f"{member(after.response.json(), c.field)!r}"
        for c in counts
        if member(before.response.json(), c.field) != member(after.response.json(), c.field)
    ]
    leaked = job_id in (after.ids or ())
    probe.record(
        check,
        None
        if not leaked and not changed
        else Finding(
            title="Another project's list shows this project's jobs"
            if leaked
            else "Another project's list counts this project's jobs",
            expected=f"the list of project {other!r} without job {job_id}, created in "
            f"project {probe.project_id!r}, and its counts unchanged by it",
            got=f"job {job_id} listed" if leaked else "; ".join(changed),
            evidence=evidence,
        ),
        role=Role.LIST,
        reproduce=after.response.curl,
    )


def _other_page(probe: Probe, shape: ListShape, project: str) -> Page:
    limit = shape.paging.limit.largest if shape.paging is not None else 1
    described = shape.paging
    body = {described.offset.field: 0, described.limit.field: limit} if described else {}
    if described is not None and described.location == "body":
        response = probe.send(Role.LIST, project_id=project, body=body)
    else:
        query = {name: str(value) for name, value in body.items()}
        response = probe.send(Role.LIST, project_id=project, query=query)
    entries = shape.entries_of(response.json()) if 200 <= response.status < 300 else None
    ids = None if entries is None else tuple(probe.api.job_id_of(e) for e in entries)
    return Page(0, response, ids)
