"""Job persistence: SQLite (stdlib), in memory by default, a file with ``--db PATH``.

One row per job holds the job document as the client sent it plus the server-generated fields
(JSON text), and the lifecycle facts (:class:`~modelarts_kit_server.lifecycle.Timeline`). Every
write is one transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``), so a crash mid-request leaves
either the whole job or nothing; a file database runs in WAL mode with ``synchronous=FULL``,
so a job acknowledged with 201 survives a restart or power loss. The uniqueness of a job name
within a project is a table constraint, so concurrent creates cannot both win.

One connection is shared behind a lock: SQLite serialises writers anyway, and the lock makes
the store safe to use from uvicorn's event loop and from test threads at once.

Storage faults: opening a database the server cannot write (a read-only file or directory, a
path that is not a database) raises :class:`StoreError` at start-up (``serve`` exits 2); a
failure later (a full disk, an I/O error, a lock held too long) raises
:class:`StorageUnavailable`, which the server answers with 503. A write that fails is rolled
back whole, so nothing is acknowledged that is not stored.

Beside the jobs: each job's events (the phase transitions of its lifecycle, with their moments:
:meth:`JobStore.plan_events`, :meth:`JobStore.events`) and the ids of deleted jobs
(:meth:`JobStore.delete`, :meth:`JobStore.was_deleted`), so a deleted job stays deleted across a
restart. The database's schema version is SQLite's ``user_version``: a file of an older version
is migrated when it is opened (:data:`MIGRATIONS`, each step in one transaction), a file of a
newer version is refused.

Functions: :meth:`JobStore.insert`, :meth:`JobStore.get`, :meth:`JobStore.jobs`,
:meth:`JobStore.request_termination`, :meth:`JobStore.change_document`, :meth:`JobStore.delete`,
:meth:`JobStore.count`, :meth:`JobStore.latest_time_ms`.
"""

from __future__ import annotations

import copy
import json
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from modelarts_kit_server.errors import ServerError
from modelarts_kit_server.lifecycle import Timeline
from modelarts_kit_server.search import (
    FILTER_FIELDS,
    STORED_KEYS,
    SearchQuery,
    field_value,
)
from modelarts_kit_server.search_budget import budgeted
from modelarts_kit_server.search_sql import (
    FieldColumns,
    SqlSearch,
    column_values,
    stored_columns,
)

__all__ = [
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "DuplicateJobName",
    "JobRecord",
    "JobStore",
    "Listing",
    "StorageUnavailable",
    "StoreError",
    "StoredEvent",
    "listing_finder",
]

SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    project_id TEXT NOT NULL,
    job_id TEXT NOT NULL,
    name TEXT NOT NULL,
    document TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    terminate_requested_ms INTEGER,
    PRIMARY KEY (project_id, job_id),
    UNIQUE (project_id, name)
)
"""

# Step N brings a database of version N to version N + 1 (version 0: the jobs table alone); a
# step is SQL statements and functions of the connection, run in one transaction.
Migration = tuple["str | Callable[[sqlite3.Connection], None]", ...]
MIGRATIONS: tuple[Migration, ...] = (
    (
        """
        CREATE TABLE IF NOT EXISTS events (
            project_id TEXT NOT NULL,
            job_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            time_ms INTEGER NOT NULL,
            document TEXT NOT NULL,
            PRIMARY KEY (project_id, job_id, seq)
        )
        """,
        """
        CREATE TABLE IF NOT EXISTS deleted_jobs (
            project_id TEXT NOT NULL,
            job_id TEXT NOT NULL,
            deleted_ms INTEGER NOT NULL,
            PRIMARY KEY (project_id, job_id)
        )
        """,
    ),
)
DEFAULT_WORKSPACE = "0"  # the list page: a job without workspace_id is in workspace "0"
# The list's search columns (search_sql): each stored filter key as five columns, and the
# workspace; filled from the document whenever it is written, so a list reads no document
# it does not answer with.
SEARCH_COLUMNS = tuple(
    column for key in STORED_KEYS for column in stored_columns(key).__dict__.values()
)
_COLUMN_TYPES = {"text": "TEXT", "fold": "TEXT", "num": "REAL", "sortnum": "REAL", "grp": "TEXT"}


_SEARCH_NAMES = ", ".join((*SEARCH_COLUMNS, "workspace"))
_SEARCH_MARKS = ", ".join("?" * (len(SEARCH_COLUMNS) + 1))
_SEARCH_SETS = ", ".join(f"{column} = ?" for column in (*SEARCH_COLUMNS, "workspace"))
_STORE_ORDER = "created_ms, rowid"


def _workspace(document: Any) -> str:
    metadata = document.get("metadata") if isinstance(document, dict) else None
    value = metadata.get("workspace_id") if isinstance(metadata, dict) else None
    return value if isinstance(value, str) and value else DEFAULT_WORKSPACE


def _search_values(document: Any) -> tuple[Any, ...]:
    """The search columns' values of a stored document (SEARCH_COLUMNS, then the workspace)."""
    values: list[Any] = []
    for key in STORED_KEYS:
        value = field_value(document, key) if isinstance(document, dict) else None
        values.extend(column_values(value))
    return (*values, _workspace(document))


def _fill_search_columns(connection: sqlite3.Connection) -> None:
    """Fill the search columns of every job stored before they existed."""
    rows = connection.execute("SELECT rowid, document FROM jobs").fetchall()
    for rowid, document in rows:
        connection.execute(
            f"UPDATE jobs SET {_SEARCH_SETS} WHERE rowid = ?",
            (*_search_values(json.loads(document) if document else None), rowid),
        )


def listing_finder(project_id: str, workspace: str | None, phase: FieldColumns) -> SqlSearch:
    """The SQL search of :meth:`JobStore.search` over one project's (one workspace's) jobs."""
    columns = {key: stored_columns(key) for key in STORED_KEYS}
    columns = {key: columns.get(key, phase) for key in FILTER_FIELDS}
    if workspace is None:
        return SqlSearch("jobs", "project_id = ?", (project_id,), columns, _STORE_ORDER, "job_id")
    return SqlSearch(
        "jobs",
        "project_id = ? AND workspace = ?",
        (project_id, workspace),
        columns,
        _STORE_ORDER,
        "job_id",
    )


def _order_indexes() -> tuple[str, ...]:
    """Indexes in the listing order of each stored key, both ways: a page of a project sorted
    by a stored key reads the page, not the project (SQLite matches the expressions)."""
    statements = []
    for key in STORED_KEYS:
        for way in ("asc", "desc"):
            finder = SqlSearch("jobs", "1", (), {key: stored_columns(key)}, _STORE_ORDER, "job_id")
            order = finder.order(SearchQuery(sort_by=key, order=way))
            terms = order.removesuffix(", rowid")
            statements.append(
                f"CREATE INDEX IF NOT EXISTS jobs_sorted_{key}_{way} ON jobs (project_id, {terms})"
            )
    return tuple(statements)


def _add_search_columns(connection: sqlite3.Connection) -> None:
    """Add the search columns the jobs table lacks (a file whose version was set back, as a
    test of an older file does, may have them already)."""
    present = {str(row[1]) for row in connection.execute("PRAGMA table_info(jobs)")}
    types = {column: _COLUMN_TYPES[column.rsplit("_", 1)[1]] for column in SEARCH_COLUMNS}
    types["workspace"] = "TEXT"
    for column, kind in types.items():
        if column not in present:
            connection.execute(f"ALTER TABLE jobs ADD COLUMN {column} {kind}")


def _search_migration() -> tuple[str | Callable[[sqlite3.Connection], None], ...]:
    """Step 2: the search columns, filled for the jobs already stored, and their indexes."""
    return (
        _add_search_columns,
        _fill_search_columns,
        "CREATE INDEX IF NOT EXISTS jobs_by_workspace ON jobs (project_id, workspace, created_ms)",
        *_order_indexes(),
    )


MIGRATIONS = (*MIGRATIONS, _search_migration())
SCHEMA_VERSION = len(MIGRATIONS)
JOB_COLUMNS = "project_id, job_id, name, document, created_ms, outcome, terminate_requested_ms"


class StoreError(ServerError):
    """The job store cannot be opened or written."""


class DuplicateJobName(StoreError):
    """A job with this name already exists in the project."""


class StorageUnavailable(StoreError):
    """The database failed under a request (full disk, I/O error, ...); nothing was changed."""


@contextmanager
def _storage_errors(what: str) -> Iterator[None]:
    """Turn an SQLite failure into :class:`StorageUnavailable`, naming the operation."""
    try:
        yield
    except sqlite3.IntegrityError:
        raise
    except sqlite3.Error as exc:
        raise StorageUnavailable(f"cannot {what}: {exc}") from exc


@dataclass(frozen=True)
class StoredEvent:
    """One event of a job: when it happened and its API document (without the time)."""

    time_ms: int
    document: dict[str, Any]


@dataclass(frozen=True)
class JobRecord:
    project_id: str
    job_id: str
    name: str
    document: dict[str, Any]  # what the client sent + server-generated fields, no "status"
    timeline: Timeline


def _tables(connection: sqlite3.Connection) -> dict[str, frozenset[str]]:
    """The tables of a database (SQLite's own left out) and the names of their columns."""
    names = [
        row[0]
        for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    return {
        name: frozenset(
            row[0] for row in connection.execute("SELECT name FROM pragma_table_info(?)", (name,))
        )
        for name in names
    }


def _run_step(connection: sqlite3.Connection, step: Migration) -> None:
    """The statements and functions of one migration step, in order."""
    for statement in step:
        if callable(statement):
            statement(connection)
        else:
            connection.execute(statement)


def _expected_tables(version: int) -> dict[str, frozenset[str]]:
    """The tables and columns of a database of schema ``version``, made by the very
    statements that make one (:data:`SCHEMA`, then the first ``version`` migrations)."""
    memory = sqlite3.connect(":memory:")
    try:
        memory.execute(SCHEMA)
        for step in MIGRATIONS[:version]:
            _run_step(memory, step)
        return _tables(memory)
    finally:
        memory.close()


def _check_schema(connection: sqlite3.Connection, target: str) -> None:
    """Refuse a database whose tables are not those its ``user_version`` says (a damaged
    file, or another program's database): the version number alone is not trusted.

    A file without a ``jobs`` table at version 0 is new (or empty) and is made whole."""
    version = int(connection.execute("PRAGMA user_version").fetchone()[0])
    found = _tables(connection)
    if not 0 <= version <= SCHEMA_VERSION or (version == 0 and "jobs" not in found):
        return  # a newer version is refused by the migration, with its own message
    problems = []
    for table, columns in sorted(_expected_tables(version).items()):
        missing = sorted(columns - found.get(table, frozenset()))
        if table not in found:
            problems.append(f"has no table {table!r}")
        elif missing:
            problems.append(f"table {table!r} lacks the column(s) {', '.join(missing)}")
    if problems:
        raise StoreError(
            f"{target}: the job database says schema version {version} but "
            f"{'; '.join(problems)} (rule: a job database of version {version} has the tables "
            "and columns its version makes); it is damaged or not a modelarts-kit job "
            "database, and was not changed"
        )


@dataclass(frozen=True)
class Listing:
    """A page of a project's jobs: ``total`` jobs searched, ``count`` meet the filters,
    ``records`` the page of them in listing order."""

    total: int
    count: int
    records: list[JobRecord]


class JobStore:
    """Thread-safe SQLite store of training jobs."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else None
        target = str(self.path) if self.path is not None else ":memory:"
        if self.path is not None and not self.path.parent.is_dir():
            # SQLite would say only "unable to open database file".
            raise StoreError(
                f"{target}: the folder {str(self.path.parent)!r} does not exist (rule: the job "
                "database is created in an existing folder)"
            )
        try:
            self._connection = sqlite3.connect(
                target, isolation_level=None, check_same_thread=False
            )
            # Before anything is written: a damaged file is refused as it is.
            _check_schema(self._connection, target)
            if self.path is not None:
                self._connection.execute("PRAGMA journal_mode=WAL")
                self._connection.execute("PRAGMA synchronous=FULL")
            self._connection.execute("PRAGMA busy_timeout=5000")
            self._connection.execute(SCHEMA)
            self._migrate(target)
            self._check_writable()
        except sqlite3.Error as exc:
            with suppress(AttributeError, sqlite3.Error):
                self._connection.close()
            raise StoreError(f"{target}: cannot use the job database: {exc}") from exc
        except StoreError:
            self._connection.close()
            raise
        self._lock = threading.Lock()

    def _migrate(self, target: str) -> None:
        """Bring the database to :data:`SCHEMA_VERSION`, one step per transaction."""
        connection = self._connection
        version = int(connection.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{target}: the job database has schema version {version}; this server knows "
                f"versions up to {SCHEMA_VERSION} (rule: a database written by a newer "
                "modelarts-kit is not opened by an older one)"
            )
        for step in range(version, SCHEMA_VERSION):
            connection.execute("BEGIN IMMEDIATE")
            try:
                _run_step(connection, MIGRATIONS[step])
                connection.execute(f"PRAGMA user_version = {step + 1}")
                connection.execute("COMMIT")
            finally:
                if connection.in_transaction:
                    connection.execute("ROLLBACK")

    def _check_writable(self) -> None:
        """Write and roll back one row: a read-only file shows only when something is written."""
        connection = self._connection
        connection.execute("BEGIN IMMEDIATE")
        try:
            connection.execute(
                "INSERT INTO jobs (project_id, job_id, name, document, created_ms, outcome)"
                " VALUES ('', '', '', '', 0, '')"
            )
        finally:
            if connection.in_transaction:
                connection.execute("ROLLBACK")

    def __repr__(self) -> str:
        return f"JobStore({str(self.path) if self.path else ':memory:'})"

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            connection = self._connection
            connection.execute("BEGIN IMMEDIATE")
            try:
                yield connection
                connection.execute("COMMIT")
            except BaseException:
                # A failed COMMIT (a full disk) may leave the transaction open: roll it back so
                # the next request starts clean. If even that fails, SQLite has rolled back.
                if connection.in_transaction:
                    with suppress(sqlite3.Error):
                        connection.execute("ROLLBACK")
                raise

    def insert(self, record: JobRecord) -> None:
        """Store a new job atomically; :class:`DuplicateJobName` if the name is taken."""
        document = _encode(record.document)
        searched = _search_values(record.document)
        try:
            with _storage_errors("store the job"), self._transaction() as connection:
                connection.execute(
                    "INSERT INTO jobs (project_id, job_id, name, document, created_ms, outcome,"
                    f" terminate_requested_ms, {_SEARCH_NAMES}) VALUES (?, ?, ?, ?, ?, ?, ?,"
                    f" {_SEARCH_MARKS})",
                    (
                        record.project_id,
                        record.job_id,
                        record.name,
                        document,
                        record.timeline.created_ms,
                        record.timeline.outcome,
                        record.timeline.terminate_requested_ms,
                        *searched,
                    ),
                )
        except sqlite3.IntegrityError as exc:
            if "name" in str(exc):
                raise DuplicateJobName(record.name) from exc
            raise StoreError(f"job {record.job_id} already exists") from exc

    def get(self, project_id: str, job_id: str) -> JobRecord | None:
        """The job ``job_id`` of ``project_id``, or None (jobs of other projects are invisible)."""
        with _storage_errors("read the job"), self._lock:
            row = _job_row(self._connection, project_id, job_id)
        return None if row is None else _record(row)

    def jobs(self, project_id: str) -> list[JobRecord]:
        """Every job of ``project_id``, in the order they were stored."""
        with _storage_errors("read the jobs"), self._lock:
            rows = self._connection.execute(
                f"SELECT {JOB_COLUMNS} FROM jobs WHERE project_id = ? ORDER BY created_ms, rowid",
                (project_id,),
            ).fetchall()
        return [_record(row) for row in rows]

    def search(
        self,
        project_id: str,
        query: SearchQuery,
        *,
        phase: FieldColumns,
        workspace: str | None = None,
        start: int = 0,
        limit: int = 50,
        over_budget: Callable[[], bool] | None = None,
    ) -> Listing:
        """The jobs ``start`` to ``start + limit`` (items, not pages: the caller says what its
        offset counts) of ``project_id`` (of ``workspace`` only, if given) that meet
        ``query``'s filters, in its order and groups (:mod:`modelarts_kit_server.search`,
        run as SQL by :mod:`modelarts_kit_server.search_sql`); ``phase`` is the phase key's
        columns at the moment searched (``search_sql.phase_columns``). Only the page's
        documents are read. ``over_budget`` is asked while SQLite works; once it says yes the
        search stops with :class:`~modelarts_kit_server.search_budget.SearchOverBudget`."""
        finder = listing_finder(project_id, workspace, phase)
        with (
            _storage_errors("search the jobs"),
            self._lock,
            budgeted(self._connection, over_budget),
        ):
            connection = self._connection
            total = int(connection.execute(*finder.count_sql(None)).fetchone()[0])
            count = total  # without filters: the second count would walk the same entries
            if query.filters:
                count = int(connection.execute(*finder.count_sql(query)).fetchone()[0])
            keys: list[str] = []
            if 0 <= start < count:  # bounded by the count: SQLite takes 64-bit integers only
                page = finder.page_sql(query, start, min(limit, count))
                keys = [str(row[0]) for row in connection.execute(*page)]
            rows = _rows_of(connection, project_id, keys)
        return Listing(total, count, [_record(rows[key]) for key in keys])

    def document_size(self, project_id: str, job_id: str) -> int | None:
        """The stored size in bytes of the job's document (without reading it), or None."""
        with _storage_errors("read the job"), self._lock:
            row = self._connection.execute(
                "SELECT length(CAST(document AS BLOB)) FROM jobs"
                " WHERE project_id = ? AND job_id = ?",
                (project_id, job_id),
            ).fetchone()
        return None if row is None else int(row[0])

    def request_termination(
        self, project_id: str, job_id: str, now_ms: int, allowed: Callable[[JobRecord], bool]
    ) -> tuple[JobRecord | None, bool]:
        """Mark a job as terminating at ``now_ms`` if ``allowed(job)`` holds, atomically.

        Returns ``(job after the call, whether termination was recorded)``; ``(None, False)``
        when the project has no such job.
        """
        with _storage_errors("record the termination"), self._transaction() as connection:
            row = _job_row(connection, project_id, job_id)
            if row is None:
                return None, False
            record = _record(row)
            if not allowed(record):
                return record, False
            connection.execute(
                "UPDATE jobs SET terminate_requested_ms = ? WHERE project_id = ? AND job_id = ?",
                (now_ms, project_id, job_id),
            )
        timeline = replace(record.timeline, terminate_requested_ms=now_ms)
        return replace(record, timeline=timeline), True

    def change_document(
        self, project_id: str, job_id: str, change: Callable[[dict[str, Any]], dict[str, Any]]
    ) -> JobRecord | None:
        """Replace the job's document with ``change(document)``, atomically; None: no such job."""
        with _storage_errors("change the job"), self._transaction() as connection:
            row = _job_row(connection, project_id, job_id)
            if row is None:
                return None
            record = _record(row)
            document = change(copy.deepcopy(record.document))
            connection.execute(
                f"UPDATE jobs SET document = ?, {_SEARCH_SETS} WHERE project_id = ? AND job_id = ?",
                (_encode(document), *_search_values(document), project_id, job_id),
            )
        return replace(record, document=document)

    def delete(self, project_id: str, job_id: str, now_ms: int) -> JobRecord | None:
        """Remove the job and its events, remembering its id as deleted; None: no such job."""
        with _storage_errors("delete the job"), self._transaction() as connection:
            row = _job_row(connection, project_id, job_id)
            if row is None:
                return None
            for table in ("jobs", "events"):
                connection.execute(
                    f"DELETE FROM {table} WHERE project_id = ? AND job_id = ?",
                    (project_id, job_id),
                )
            connection.execute(
                "INSERT OR REPLACE INTO deleted_jobs (project_id, job_id, deleted_ms)"
                " VALUES (?, ?, ?)",
                (project_id, job_id, now_ms),
            )
        return _record(row)

    def was_deleted(self, project_id: str, job_id: str) -> bool:
        """Whether ``project_id`` had a job ``job_id`` that was deleted."""
        with _storage_errors("read the job"), self._lock:
            row = self._connection.execute(
                "SELECT 1 FROM deleted_jobs WHERE project_id = ? AND job_id = ?",
                (project_id, job_id),
            ).fetchone()
        return row is not None

    def plan_events(
        self, project_id: str, job_id: str, since_ms: int, events: Sequence[StoredEvent]
    ) -> None:
        """Replace the job's events from ``since_ms`` on with those of ``events`` from then on.

        The events before ``since_ms`` have happened and stay; a job that no longer exists
        (deleted meanwhile) gets none."""
        with _storage_errors("record the events"), self._transaction() as connection:
            exists = connection.execute(
                "SELECT 1 FROM jobs WHERE project_id = ? AND job_id = ?", (project_id, job_id)
            ).fetchone()
            if exists is None:
                return
            connection.execute(
                "DELETE FROM events WHERE project_id = ? AND job_id = ? AND time_ms >= ?",
                (project_id, job_id, since_ms),
            )
            row = connection.execute(
                "SELECT COALESCE(MAX(seq), -1) FROM events WHERE project_id = ? AND job_id = ?",
                (project_id, job_id),
            ).fetchone()
            seq = int(row[0]) + 1
            for event in (event for event in events if event.time_ms >= since_ms):
                connection.execute(
                    "INSERT INTO events (project_id, job_id, seq, time_ms, document)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (project_id, job_id, seq, event.time_ms, _encode(event.document)),
                )
                seq += 1

    def events(self, project_id: str, job_id: str) -> list[StoredEvent]:
        """The job's stored events, oldest first (ties in the order they were recorded)."""
        with _storage_errors("read the events"), self._lock:
            rows = self._connection.execute(
                "SELECT time_ms, document FROM events WHERE project_id = ? AND job_id = ?"
                " ORDER BY time_ms, seq",
                (project_id, job_id),
            ).fetchall()
        return [StoredEvent(int(time_ms), json.loads(document)) for time_ms, document in rows]

    def count(self, project_id: str | None = None) -> int:
        """How many jobs are stored (in one project, or in all)."""
        with self._lock:
            if project_id is None:
                row = self._connection.execute("SELECT COUNT(*) FROM jobs").fetchone()
            else:
                row = self._connection.execute(
                    "SELECT COUNT(*) FROM jobs WHERE project_id = ?", (project_id,)
                ).fetchone()
        return int(row[0])

    def all_jobs(self) -> list[JobRecord]:
        """Every stored job, oldest first (for tests and inspection)."""
        with self._lock:
            rows = self._connection.execute(
                f"SELECT {JOB_COLUMNS} FROM jobs ORDER BY created_ms, rowid"
            ).fetchall()
        return [_record(row) for row in rows]

    def latest_time_ms(self) -> int:
        """The latest simulated time recorded in the store (0 if empty)."""
        with self._lock:
            row = self._connection.execute(
                "SELECT MAX((SELECT COALESCE(MAX(MAX(created_ms),"
                " COALESCE(MAX(terminate_requested_ms), 0)), 0) FROM jobs),"
                " (SELECT COALESCE(MAX(deleted_ms), 0) FROM deleted_jobs))"
            ).fetchone()
        return int(row[0] or 0)

    def close(self) -> None:
        with self._lock:
            self._connection.close()


def _rows_of(
    connection: sqlite3.Connection, project_id: str, keys: Sequence[str]
) -> dict[str, Any]:
    if not keys:
        return {}
    marks = ", ".join("?" * len(keys))
    rows = connection.execute(
        f"SELECT {JOB_COLUMNS} FROM jobs WHERE project_id = ? AND job_id IN ({marks})",
        (project_id, *keys),
    ).fetchall()
    return {str(row[1]): row for row in rows}


def _encode(document: Any) -> str:
    return json.dumps(document, ensure_ascii=True, separators=(",", ":"))


def _job_row(connection: sqlite3.Connection, project_id: str, job_id: str) -> Any:
    """The job's row in the jobs table, or None."""
    return connection.execute(
        f"SELECT {JOB_COLUMNS} FROM jobs WHERE project_id = ? AND job_id = ?",
        (project_id, job_id),
    ).fetchone()


def _record(row: tuple[Any, ...]) -> JobRecord:
    project_id, job_id, name, document, created_ms, outcome, terminate_ms = row
    return JobRecord(
        project_id=str(project_id),
        job_id=str(job_id),
        name=str(name),
        document=json.loads(document),
        timeline=Timeline(
            created_ms=int(created_ms),
            outcome=str(outcome),
            terminate_requested_ms=None if terminate_ms is None else int(terminate_ms),
        ),
    )
