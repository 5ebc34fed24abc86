"""The list operation's search engine (``modelarts_kit_server.search``) against a plain reference.

The reference below is written the long way (explicit loops, an index tie-break instead of a
stable sort), so the engine and it can only agree by both doing what the list page says. The
SQL form the store runs (``modelarts_kit_server.search_sql``) is held to the same reference, and
to the Python engine on wider values (numbers as text, floats, case folding beyond ASCII).
"""

from __future__ import annotations

import functools
import itertools
import sqlite3
from collections.abc import Sequence
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from modelarts_kit_server.search import (
    FILTER_FIELDS,
    OPERATORS,
    Filter,
    SearchQuery,
    field_value,
    matches,
    search,
)
from modelarts_kit_server.search_sql import SqlSearch, column_values, stored_columns

NAMES = ["trainjob-a", "TrainJob-b", "other", "job-7", "x"]
PHASES = ["Creating", "Running", "Failed", "Completed"]
KEYS = [*FILTER_FIELDS, "no_such_key"]


@st.composite
def jobs(draw: st.DrawFn) -> dict[str, Any]:
    job: dict[str, Any] = {
        "kind": draw(st.sampled_from(["job", "hetero_job"])),
        "metadata": {
            "name": draw(st.sampled_from(NAMES)),
            "create_time": draw(st.integers(1_000, 1_010)),
            "user_name": draw(st.sampled_from(["alice", "bob"])),
        },
        "status": {"phase": draw(st.sampled_from(PHASES))},
    }
    if draw(st.booleans()):
        job["algorithm"] = {"name": draw(st.sampled_from(["algo-1", "algo-2"]))}
    return job


values = st.lists(
    st.sampled_from(["", "trainjob", "Running", "1003", "1007", "job", "alice", "algo-1", "zz"]),
    max_size=3,
)
filters = st.builds(Filter, st.sampled_from(KEYS), st.sampled_from(OPERATORS), values.map(tuple))
queries = st.builds(
    SearchQuery,
    filters=st.lists(filters, max_size=3).map(tuple),
    sort_by=st.sampled_from(KEYS),
    order=st.sampled_from(["asc", "desc"]),
    group_by=st.sampled_from(["", "phase", "kind"]),
    offset=st.integers(0, 4),
    limit=st.integers(1, 6),
)


# -- the reference ------------------------------------------------------------------------------


def reference_value(job: dict[str, Any], key: str) -> Any:
    paths = {
        "name": job["metadata"].get("name"),
        "create_time": job["metadata"].get("create_time"),
        "phase": job["status"].get("phase"),
        "algorithm_name": (job.get("algorithm") or {}).get("name"),
        "kind": job.get("kind"),
        "user_id": job["metadata"].get("user_name"),
    }
    return paths.get(key)


def reference_compare(value: Any, bound: str) -> int:
    if isinstance(value, int) and bound.lstrip("-").isdigit():
        return (value > int(bound)) - (value < int(bound))
    return (str(value) > bound) - (str(value) < bound)


def reference_matches(job: dict[str, Any], condition: Filter) -> bool:
    given_values = [v for v in condition.values if v]
    if len(given_values) == 0:
        return True
    value = reference_value(job, condition.key)
    if condition.operator == "not":
        return value is None or str(value) not in given_values
    if value is None:
        return False
    if condition.operator == "in":
        return str(value) in given_values
    if condition.operator == "like":
        return any(v.lower() in str(value).lower() for v in given_values)
    low, high = ([*list(condition.values), "", ""])[:2]
    return (low == "" or reference_compare(value, low) >= 0) and (
        high == "" or reference_compare(value, high) <= 0
    )


def reference_order(found: list[tuple[int, dict[str, Any]]], query: SearchQuery) -> list[int]:
    """Indexes of the found jobs in listing order: by value, ties by store index, the jobs
    without the field last."""
    sign = -1 if query.order == "desc" else 1

    def rank(item: tuple[int, dict[str, Any]]) -> tuple[int, Any]:
        value = reference_value(item[1], query.sort_by)
        return (0, value) if isinstance(value, int) else (1, value)

    def compare(a: tuple[int, dict[str, Any]], b: tuple[int, dict[str, Any]]) -> int:
        a_missing = reference_value(a[1], query.sort_by) is None
        b_missing = reference_value(b[1], query.sort_by) is None
        if a_missing != b_missing:
            return 1 if a_missing else -1
        if not a_missing and rank(a) != rank(b):
            return sign * (-1 if rank(a) < rank(b) else 1)
        return -1 if a[0] < b[0] else 1

    ordered = [i for i, _ in sorted(found, key=functools.cmp_to_key(compare))]
    if query.group_by:
        by_group: dict[str, list[int]] = {}
        jobs_by_index = dict(found)
        for i in ordered:
            group = repr(reference_value(jobs_by_index[i], query.group_by))
            by_group.setdefault(group, []).append(i)
        ordered = [i for members in by_group.values() for i in members]
    return ordered


# -- properties ---------------------------------------------------------------------------------


@given(st.lists(jobs(), max_size=12), queries)
def test_the_engine_agrees_with_the_reference(
    stored: list[dict[str, Any]], query: SearchQuery
) -> None:
    found = [
        (i, job)
        for i, job in enumerate(stored)
        if all(reference_matches(job, f) for f in query.filters)
    ]
    order = reference_order(found, query)
    start = query.offset * query.limit
    expected = [stored[i] for i in order[start : start + query.limit]]
    result = search(stored, query)
    assert result.total == len(stored)
    assert result.count == len(found)
    assert [id(job) for job in result.items] == [id(job) for job in expected]


@given(st.lists(jobs(), max_size=15), queries)
def test_pages_neither_overlap_nor_skip(stored: list[dict[str, Any]], query: SearchQuery) -> None:
    first = search(stored, query)
    seen: list[int] = []
    for page in range(first.count // query.limit + 2):  # bounded: one page past the last
        result = search(stored, SearchQuery(**{**query.__dict__, "offset": page}))
        seen.extend(id(job) for job in result.items)
    matching = [id(job) for job in stored if all(matches(job, f) for f in query.filters)]
    assert len(seen) == len(set(seen)) == first.count
    assert sorted(seen) == sorted(matching)


@given(st.lists(jobs(), min_size=2, max_size=12), st.sampled_from(["asc", "desc"]))
def test_the_sort_is_stable(stored: list[dict[str, Any]], order: str) -> None:
    query = SearchQuery(sort_by="phase", order=order, limit=50)
    listed = search(stored, query).items
    position = {id(job): index for index, job in enumerate(stored)}
    for before, after in itertools.pairwise(listed):
        if field_value(before, "phase") == field_value(after, "phase"):
            assert position[id(before)] < position[id(after)]


def test_the_pages_example_filters_restrict_only_by_what_they_give() -> None:
    """The list page's example request: empty values restrict nothing, like ignores case."""
    example = (
        Filter("name", "like", ("trainjob",)),
        Filter("create_time", "between", ("", "")),
        Filter("phase", "in", ("",)),
        Filter("algorithm_name", "like", ("",)),
        Filter("kind", "in", ()),
        Filter("user_id", "in", ("",)),
    )
    stored = [
        {"kind": "job", "metadata": {"name": "my-TrainJob-1", "create_time": 5}, "status": {}},
        {"kind": "job", "metadata": {"name": "other", "create_time": 6}, "status": {}},
    ]
    result = search(stored, SearchQuery(filters=example, limit=1))
    assert result.count == 1
    assert result.total == 2
    assert [job["metadata"]["name"] for job in result.items] == ["my-TrainJob-1"]


def test_offset_is_a_page_number() -> None:
    stored = [{"metadata": {"name": f"j{i}", "create_time": i}} for i in range(7)]
    result = search(stored, SearchQuery(order="asc", offset=1, limit=3))
    assert [job["metadata"]["name"] for job in result.items] == ["j3", "j4", "j5"]


def test_between_compares_times_as_numbers() -> None:
    stored = [{"metadata": {"create_time": t}} for t in (9, 10, 100, 1000)]
    condition = Filter("create_time", "between", ("10", "100"))
    assert [job["metadata"]["create_time"] for job in stored if matches(job, condition)] == [
        10,
        100,
    ]


def test_an_unknown_key_names_a_field_no_job_has() -> None:
    job = {"metadata": {"name": "a"}}
    assert not matches(job, Filter("no_such_key", "in", ("a",)))
    assert matches(job, Filter("no_such_key", "not", ("a",)))


# -- the SQL form -------------------------------------------------------------------------------

SQL_KEYS = list(FILTER_FIELDS)


def sql_search(stored: Sequence[dict[str, Any]], query: SearchQuery) -> tuple[int, int, list[int]]:
    """``query`` run as SQL over a table of ``stored`` (rows in the list's order): total,
    count and the indexes of the page's jobs."""
    columns = {key: stored_columns(key) for key in SQL_KEYS}
    names = [column for key in SQL_KEYS for column in columns[key].__dict__.values()]
    connection = sqlite3.connect(":memory:")
    types = {"text": "TEXT", "fold": "TEXT", "num": "REAL", "sortnum": "REAL", "grp": "TEXT"}
    declared = ", ".join(f"{name} {types[name.rsplit('_', 1)[1]]}" for name in names)
    connection.execute(f"CREATE TABLE jobs (position INTEGER, {declared})")
    for position, job in enumerate(stored):
        values = [v for key in SQL_KEYS for v in column_values(field_value(job, key))]
        marks = ", ".join("?" * (len(names) + 1))
        connection.execute(f"INSERT INTO jobs VALUES ({marks})", (position, *values))
    finder = SqlSearch("jobs", "1", (), columns, "position", "position")
    total = connection.execute(*finder.count_sql(None)).fetchone()[0]
    count = connection.execute(*finder.count_sql(query)).fetchone()[0]
    page = finder.page_sql(query, query.offset * query.limit, query.limit)
    return total, count, [row[0] for row in connection.execute(*page)]


@given(st.lists(jobs(), max_size=12), queries)
def test_the_sql_form_agrees_with_the_reference(
    stored: list[dict[str, Any]], query: SearchQuery
) -> None:
    found = [
        (i, job)
        for i, job in enumerate(stored)
        if all(reference_matches(job, f) for f in query.filters)
    ]
    order = reference_order(found, query)
    start = query.offset * query.limit
    assert sql_search(stored, query) == (
        len(stored),
        len(found),
        order[start : start + query.limit],
    )


# Wider values than the reference reads: numbers written as text, floats, mixed types in one
# field, and text whose case folds beyond ASCII.
wide_values = st.one_of(
    st.sampled_from(["Straße", "STRASSE", "ǅob", "1e3", " 12 ", "1_000", "nan", "-4.5", "b", ""]),
    st.integers(-5, 5),
    st.floats(-10, 10, allow_nan=False, width=16),
    st.booleans(),
    st.none(),
)


@st.composite
def wide_jobs(draw: st.DrawFn) -> dict[str, Any]:
    def value() -> Any:
        return draw(wide_values)

    job: dict[str, Any] = {"kind": value(), "metadata": {"name": value(), "create_time": value()}}
    job["status"] = {"phase": value()}
    if draw(st.booleans()):
        job["algorithm"] = {"name": value()}
    return {k: v for k, v in job.items() if v is not None}


wide_filters = st.builds(
    Filter,
    st.sampled_from(KEYS),
    st.sampled_from([*OPERATORS, "other"]),
    st.lists(
        st.sampled_from(["", "strasse", "ǆ", "1000", "12", "-5", "0.5", "a", "True", "b"]),
        max_size=3,
    ).map(tuple),
)
wide_queries = st.builds(
    SearchQuery,
    filters=st.lists(wide_filters, max_size=2).map(tuple),
    sort_by=st.sampled_from(KEYS),
    order=st.sampled_from(["asc", "desc"]),
    group_by=st.sampled_from(["", "phase", "kind", "name", "no_such_key"]),
    offset=st.integers(0, 3),
    limit=st.integers(1, 6),
)


@given(st.lists(wide_jobs(), max_size=12), wide_queries)
def test_the_sql_form_agrees_with_the_engine_on_wider_values(
    stored: list[dict[str, Any]], query: SearchQuery
) -> None:
    result = search(stored, query)
    position = {id(job): index for index, job in enumerate(stored)}
    expected = (result.total, result.count, [position[id(job)] for job in result.items])
    assert sql_search(stored, query) == expected


def test_the_sql_form_folds_case_beyond_ascii() -> None:
    stored: list[dict[str, Any]] = [
        {"metadata": {"name": "Straße"}},
        {"metadata": {"name": "STRASSE"}},
        {"kind": "x"},
    ]
    query = SearchQuery(filters=(Filter("name", "like", ("strasse",)),), order="asc")
    assert sql_search(stored, query) == (3, 2, [0, 1])


def test_the_sql_form_sorts_text_before_numbers_descending() -> None:
    stored: list[dict[str, Any]] = [
        {"kind": 2},
        {"kind": "b"},
        {"kind": 10},
        {"kind": "a"},
        {},
        {"kind": 2.0},
    ]
    for order in ("asc", "desc"):
        query = SearchQuery(sort_by="kind", order=order, limit=10)
        expected = [id(job) for job in search(stored, query).items]
        assert [id(stored[i]) for i in sql_search(stored, query)[2]] == expected
    assert sql_search(stored, SearchQuery(sort_by="kind", order="desc", limit=10))[2] == [
        1,
        3,
        2,
        0,
        5,
        4,
    ]


def test_the_sql_form_groups_by_value_and_type() -> None:
    stored: list[dict[str, Any]] = [{"kind": 1}, {"kind": "1"}, {"kind": 1}, {"kind": "1"}]
    query = SearchQuery(sort_by="name", group_by="kind", limit=10)
    assert sql_search(stored, query) == (4, 4, [0, 2, 1, 3])
