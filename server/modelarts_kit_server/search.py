"""The training-job search of the list operation: filter, group, sort and paginate job documents.

A pure function over job documents as show renders them (:func:`search`); the list handler
(:mod:`modelarts_kit_server.handlers.job_records`) reads the query from the request body and answers
with the result. What the list page (``querying_a_training_job_list``) says, and how the gaps
are filled:

- **filters** (all must hold): ``{"key", "operator", "value": [strings]}``. The keys are those
  of the page's example (:data:`FILTER_FIELDS`: ``name``, ``create_time``, ``phase``,
  ``algorithm_name``, ``kind``, ``user_id``), each read from its place in the job; a key the
  server does not know names a field no job has. The operators are the page's four:
  ``in`` (the field equals one of the values), ``not`` (it equals none of them), ``like`` (it
  contains one of the values, ignoring case: the example finds the jobs "with names containing
  trainjob") and ``between`` (``[low, high]``, both included; numbers compare as numbers). An
  empty value (``""``) means "any": the page's example sends ``"value": [""]`` and
  ``["", ""]`` for the filters it does not use, so a filter with no non-empty value, and an
  empty bound of ``between``, restrict nothing. A job without the field matches no ``in``,
  ``like`` or ``between`` and every ``not``.
- **sort** by ``sort_by`` (a filter key; default ``create_time``) in ``order`` (``asc`` or
  ``desc``, the default); jobs with equal keys keep the store's order (the sort is stable), and
  jobs without the field come last.
- **group_by** (a filter key): the jobs of one group are listed together (groups in the sort
  order of their first job), sorted within the group.
- **pages**: ``offset`` is a page number, as the page says ("if this parameter is set to 0, the
  query starts from the first page"): the page holds the jobs ``offset * limit`` up to
  ``offset * limit + limit``.
- **counts**: ``total`` is the number of jobs searched (the project's), ``count`` the number that
  meet the filters.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ASCENDING",
    "DESCENDING",
    "FILTER_FIELDS",
    "OPERATORS",
    "PHASE_KEY",
    "STORED_KEYS",
    "Fields",
    "Filter",
    "SearchQuery",
    "SearchResult",
    "field_value",
    "matches",
    "number_value",
    "search",
    "text_value",
]

# Where each filter key of the list page's example is in a job document (the list handler puts
# the phase where the spec's lifecycle says it is).
FILTER_FIELDS: Mapping[str, tuple[str, ...]] = {
    "name": ("metadata", "name"),
    "create_time": ("metadata", "create_time"),
    "phase": ("status", "phase"),
    "algorithm_name": ("algorithm", "name"),
    "kind": ("kind",),
    "user_id": ("metadata", "user_name"),  # the job carries its creator as user_name
}
PHASE_KEY = "phase"  # the one key computed when the job is read (the rest are stored)
STORED_KEYS = tuple(key for key in FILTER_FIELDS if key != PHASE_KEY)
OPERATORS = ("between", "like", "in", "not")
ASCENDING = "asc"
DESCENDING = "desc"
DEFAULT_SORT = "create_time"


@dataclass(frozen=True)
class Filter:
    key: str
    operator: str  # one of OPERATORS; another matches no job
    values: tuple[str, ...]


@dataclass(frozen=True)
class SearchQuery:
    filters: tuple[Filter, ...] = ()
    sort_by: str = DEFAULT_SORT
    order: str = DESCENDING
    group_by: str = ""
    offset: int = 0  # page number, from 0
    limit: int = 50  # jobs per page, >= 1


@dataclass(frozen=True)
class SearchResult:
    total: int  # jobs searched
    count: int  # jobs meeting the filters
    items: list[Mapping[str, Any]]  # the requested page of them


Fields = Mapping[str, tuple[str, ...]]  # filter key -> its path in a job document


def field_value(job: Mapping[str, Any], key: str, fields: Fields = FILTER_FIELDS) -> Any:
    """The value of filter key ``key`` in ``job`` (None: the job has no such field)."""
    node: Any = job
    for part in fields.get(key, ()):
        if not isinstance(node, Mapping):
            return None
        node = node.get(part)
    return None if node is job else node


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return None
        return number if number == number and abs(number) != float("inf") else None
    return None


def _text(value: Any) -> str:
    return value if isinstance(value, str) else str(value)


def _compare(value: Any, bound: str) -> int:
    """-1, 0 or 1 as ``value`` is below, at or above ``bound`` (numbers as numbers)."""
    number, limit = _number(value), _number(bound)
    if number is not None and limit is not None:
        return (number > limit) - (number < limit)
    text = _text(value)
    return (text > bound) - (text < bound)


def _between(value: Any, bounds: Sequence[str]) -> bool:
    low = bounds[0] if bounds else ""
    high = bounds[1] if len(bounds) > 1 else ""
    return (low == "" or _compare(value, low) >= 0) and (high == "" or _compare(value, high) <= 0)


def matches(job: Mapping[str, Any], condition: Filter, fields: Fields = FILTER_FIELDS) -> bool:
    """Whether ``job`` meets one filter (a filter without a non-empty value always holds)."""
    wanted = [value for value in condition.values if value != ""]
    if not wanted:
        return True
    value = field_value(job, condition.key, fields)
    if condition.operator == "not":
        return value is None or _text(value) not in wanted
    if value is None:
        return False
    if condition.operator == "in":
        return _text(value) in wanted
    if condition.operator == "like":
        text = _text(value).casefold()
        return any(part.casefold() in text for part in wanted)
    if condition.operator == "between":
        return _between(value, condition.values)
    return False


def number_value(value: Any) -> float | None:
    """The number a field's value counts as in ``between`` (None: it is no number)."""
    return _number(value)


def text_value(value: Any) -> str:
    """The text a field's value counts as in ``in``, ``not``, ``like`` and text order."""
    return _text(value)


def _sort_key(
    key: str, fields: Fields
) -> Callable[[Mapping[str, Any]], tuple[int, int, float, str]]:
    """Jobs with the field first (numbers before text), then by value."""

    def sort_key(job: Mapping[str, Any]) -> tuple[int, int, float, str]:
        value = field_value(job, key, fields)
        if value is None:
            return (1, 0, 0.0, "")
        number = _number(value) if not isinstance(value, str) else None
        if number is not None:
            return (0, 0, number, "")
        return (0, 1, 0.0, _text(value))

    return sort_key


def _sorted(
    jobs: Sequence[Mapping[str, Any]], key: str, descending: bool, fields: Fields
) -> list[Any]:
    """Stable sort by ``key``; jobs without the field last in either order."""
    sort_key = _sort_key(key, fields)
    keyed = [(sort_key(job), job) for job in jobs]  # each key computed once
    present = [(k, job) for k, job in keyed if k[0] == 0]
    absent = [job for k, job in keyed if k[0] != 0]
    ordered = sorted(present, key=lambda pair: pair[0], reverse=descending)
    return [job for _, job in ordered] + absent


def search(
    jobs: Sequence[Mapping[str, Any]], query: SearchQuery, fields: Fields = FILTER_FIELDS
) -> SearchResult:
    """The page of ``jobs`` (in the store's order) that ``query`` asks for, with its counts;
    ``fields`` says where each filter key is in a job."""
    found = [job for job in jobs if all(matches(job, f, fields) for f in query.filters)]
    ordered = _sorted(found, query.sort_by, query.order != ASCENDING, fields)
    if query.group_by:
        groups: dict[str, list[Any]] = {}
        for job in ordered:
            groups.setdefault(repr(field_value(job, query.group_by, fields)), []).append(job)
        ordered = [job for members in groups.values() for job in members]
    limit = max(1, query.limit)
    start = max(0, query.offset) * limit
    return SearchResult(total=len(jobs), count=len(found), items=ordered[start : start + limit])
