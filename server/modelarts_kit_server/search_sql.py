"""The list's search as SQL: the rules of :mod:`modelarts_kit_server.search`, run by SQLite.

:func:`~modelarts_kit_server.search.search` is the rule (filters, stable sort, groups, pages)
over job documents in Python; this module says the same rules in SQL over columns, so that the
store (:meth:`modelarts_kit_server.store.JobStore.search`) answers a list with indexes and
query-side filtering instead of reading, decoding and scanning every job of the project in
Python. Both are checked against the same reference implementation
(``tests/server/test_server_search.py``).

Each filter key is a :class:`FieldColumns`: five SQL expressions derived from the field's value
exactly as the Python rules read it (:func:`column_values`): its text (``in``, ``not``, and
``between`` on text), its case-folded text (``like``), its number (``between`` on numbers:
``"1003"`` counts as 1003), its sort number (numbers sort before text, a numeric string sorts
as text) and its group (``repr``: ``1`` and ``"1"`` are different groups). An absent field is
NULL in all five. Stored fields are columns of the jobs table, filled when a job is written;
the phase is computed at the query's "now" by :func:`phase_columns` (a ``CASE`` over the job's
timeline columns, from the same schedule as :meth:`Simulation.snapshot_at`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from modelarts_kit_server.lifecycle import Simulation
from modelarts_kit_server.search import (
    ASCENDING,
    Filter,
    SearchQuery,
    number_value,
    text_value,
)

__all__ = [
    "FieldColumns",
    "SqlSearch",
    "column_values",
    "phase_columns",
    "sql_literal",
    "stored_columns",
]

ColumnValues = tuple[str | None, str | None, float | None, float | None, str | None]
SUFFIXES = ("text", "fold", "num", "sortnum", "grp")


@dataclass(frozen=True)
class FieldColumns:
    """The SQL expressions of one filter key (see the module docstring)."""

    text: str
    fold: str
    num: str
    sortnum: str
    grp: str


def stored_columns(key: str) -> FieldColumns:
    """The columns of the jobs table that hold filter key ``key`` (``f_<key>_<part>``)."""
    return FieldColumns(*(f"f_{key}_{suffix}" for suffix in SUFFIXES))


def column_values(value: Any) -> ColumnValues:
    """What the five columns of a field hold for ``value`` (None: the job has no such field)."""
    if value is None:
        return (None, None, None, None, None)
    text = text_value(value)
    number = number_value(value)
    return (text, text.casefold(), number, None if isinstance(value, str) else number, repr(value))


def sql_literal(value: str | int) -> str:
    """A SQL literal of a value the server itself chose (a phase name, a moment)."""
    if isinstance(value, int):
        return str(int(value))
    return "'" + value.replace("'", "''") + "'"


def _condition(condition: Filter, columns: Mapping[str, FieldColumns]) -> tuple[str, list[Any]]:
    """One filter as SQL (same rules as :func:`modelarts_kit_server.search.matches`)."""
    wanted = [value for value in condition.values if value != ""]
    if not wanted:
        return "1", []
    field = columns.get(condition.key)
    operator = condition.operator
    if field is None:  # a key no job has: only "not" holds
        return ("1" if operator == "not" else "0"), []
    marks = ", ".join("?" * len(wanted))
    if operator == "not":
        return f"({field.text} IS NULL OR {field.text} NOT IN ({marks}))", list(wanted)
    if operator == "in":
        return f"({field.text} IN ({marks}))", list(wanted)
    if operator == "like":
        found = " OR ".join(f"instr({field.fold}, ?) > 0" for _ in wanted)
        return f"({field.fold} IS NOT NULL AND ({found}))", [w.casefold() for w in wanted]
    if operator == "between":
        return _between(field, condition.values)
    return "0", []


def _between(field: FieldColumns, bounds: Sequence[str]) -> tuple[str, list[Any]]:
    low = bounds[0] if bounds else ""
    high = bounds[1] if len(bounds) > 1 else ""
    parts: list[str] = [f"{field.text} IS NOT NULL"]
    params: list[Any] = []
    for bound, operator in ((low, ">="), (high, "<=")):
        if bound == "":
            continue
        limit = number_value(bound)
        if limit is None:  # text against text
            parts.append(f"{field.text} {operator} ?")
            params.append(bound)
        else:  # numbers as numbers, a value that is no number as text
            parts.append(
                f"(CASE WHEN {field.num} IS NOT NULL THEN {field.num} {operator} ?"
                f" ELSE {field.text} {operator} ? END)"
            )
            params.extend([limit, bound])
    return "(" + " AND ".join(parts) + ")", params


@dataclass(frozen=True)
class SqlSearch:
    """A search over the rows of table ``source`` that meet ``scope`` (an SQL condition with
    ``scope_params``: the searched set, e.g. one project's jobs), whose filter keys are
    ``columns``; ``store_order`` orders the rows as the store keeps them (ties of the sort
    keep it) and ``key`` names a row."""

    source: str
    scope: str
    scope_params: tuple[Any, ...]
    columns: Mapping[str, FieldColumns]
    store_order: str
    key: str

    def where(self, query: SearchQuery) -> tuple[str, list[Any]]:
        parts: list[str] = [f"({self.scope})"]
        params: list[Any] = list(self.scope_params)
        for condition in query.filters:
            sql, values = _condition(condition, self.columns)
            parts.append(sql)
            params.extend(values)
        return " AND ".join(parts), params

    def order(self, query: SearchQuery) -> str:
        """Jobs with the field first; numbers before text ascending, text before numbers
        descending (the reverse of the Python key); ties in the store's order."""
        field = self.columns.get(query.sort_by)
        if field is None:
            return self.store_order
        way = "ASC" if query.order == ASCENDING else "DESC"
        return (
            f"({field.text} IS NULL), ({field.sortnum} IS NULL) {way}, {field.sortnum} {way}, "
            f"(CASE WHEN {field.sortnum} IS NULL THEN {field.text} END) {way}, {self.store_order}"
        )

    def count_sql(self, query: SearchQuery | None) -> tuple[str, list[Any]]:
        """How many rows there are (``query`` None) or meet ``query``'s filters."""
        where, params = self.where(query or SearchQuery())
        return f"SELECT COUNT(*) FROM {self.source} WHERE {where}", params

    def page_sql(self, query: SearchQuery, start: int, limit: int) -> tuple[str, list[Any]]:
        """The keys of the rows ``start`` to ``start + limit`` in listing order."""
        where, params = self.where(query)
        order = self.order(query)
        group = self.columns.get(query.group_by) if query.group_by else None
        bounds = [max(1, limit), max(0, start)]
        if group is None:  # no grouping, or by a key no job has: one group
            sql = (
                f"SELECT {self.key} FROM {self.source} WHERE {where}"
                f" ORDER BY {order} LIMIT ? OFFSET ?"
            )
            return sql, [*params, *bounds]
        # Groups in the order of their first job, the sort order within each.
        sql = (
            f"SELECT k FROM (SELECT {self.key} AS k, {group.grp} AS g,"
            f" ROW_NUMBER() OVER (ORDER BY {order}) AS pos FROM {self.source} WHERE {where})"
            " ORDER BY MIN(pos) OVER (PARTITION BY g), pos LIMIT ? OFFSET ?"
        )
        return sql, [*params, *bounds]


def _current(schedule: Sequence[tuple[str, int]], elapsed: str) -> str:
    """SQL: the phase of ``schedule`` (phase, offset) that has begun last ``elapsed`` ms after
    its start, the first one if none has (``lifecycle._current``)."""
    whens = " ".join(
        f"WHEN {elapsed} >= {sql_literal(offset)} THEN {sql_literal(phase)}"
        for phase, offset in reversed(schedule)
    )
    return f"(CASE {whens} ELSE {sql_literal(schedule[0][0])} END)"


def phase_sql(
    simulation: Simulation, now_ms: int, created: str, outcome: str, terminate: str
) -> str:
    """SQL: the phase at ``now_ms`` of the job whose timeline columns are ``created``,
    ``outcome`` and ``terminate`` (the rules of :meth:`Simulation.snapshot_at`)."""
    plan = simulation.schedule()
    now = sql_literal(now_ms)
    age = f"({now} - {created})"
    clamped = f"(max({now}, {terminate}) - {terminate})"  # a read before the request: clamped
    if plan.stopping:
        stop = (
            f"(CASE WHEN {clamped} >= {sql_literal(plan.terminating_ms)}"
            f" THEN {sql_literal(plan.stopped)} ELSE {_current(plan.stopping, clamped)} END)"
        )
    else:
        stop = sql_literal(plan.stopped)
    outcomes = " ".join(
        f"WHEN {sql_literal(o.lower())} THEN {sql_literal(o)}" for o in simulation.outcomes
    )
    branches = [
        f"WHEN {terminate} IS NOT NULL AND {terminate} < {created} + "
        f"{sql_literal(plan.finished_ms)} THEN {stop}"
    ]
    if plan.starting:
        branches.append(
            f"WHEN {age} < {sql_literal(plan.running_ms)} THEN {_current(plan.starting, age)}"
        )
    if plan.running:
        running_age = f"({age} - {sql_literal(plan.running_ms)})"
        branches.append(
            f"WHEN {age} < {sql_literal(plan.finished_ms)} THEN "
            f"{_current(plan.running, running_age)}"
        )
    default = sql_literal(simulation.outcomes[0])
    final = f"(CASE lower(trim({outcome})) {outcomes} ELSE {default} END)"
    return f"(CASE {' '.join(branches)} ELSE {final} END)"


def phase_columns(
    simulation: Simulation,
    now_ms: int,
    created: str = "created_ms",
    outcome: str = "outcome",
    terminate: str = "terminate_requested_ms",
) -> FieldColumns:
    """The phase at ``now_ms`` as the five columns of a filter key (a phase name is text)."""
    phase = phase_sql(simulation, now_ms, created, outcome, terminate)
    phases = sorted(
        {
            *simulation.lifecycle.normal_course,
            *simulation.lifecycle.stop_course,
            *simulation.outcomes,
        }
    )

    def mapped(part: int) -> str:
        whens = " ".join(
            f"WHEN {sql_literal(p)} THEN {_literal_or_null(column_values(p)[part])}" for p in phases
        )
        return f"(CASE {phase} {whens} END)"

    return FieldColumns(text=phase, fold=mapped(1), num=mapped(2), sortnum=mapped(3), grp=mapped(4))


def _literal_or_null(value: str | float | None) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, float):
        return repr(value)
    return sql_literal(value)
