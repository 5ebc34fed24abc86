"""The job store beyond create/show/terminate: schema migration, events, deletion, documents;
and the lifecycle's transitions the events are made of."""

from __future__ import annotations

import itertools
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from modelarts_kit.main import cli
from modelarts_kit_server import JobStore, LifecycleTimings
from modelarts_kit_server.lifecycle import Simulation, Stage, Timeline
from modelarts_kit_server.search import Filter, SearchQuery
from modelarts_kit_server.search_sql import phase_columns
from modelarts_kit_server.store import (
    SCHEMA_VERSION,
    JobRecord,
    StoredEvent,
    StoreError,
    listing_finder,
)
from modelarts_kit_spec import load_spec

PROJECT = "p1"
OTHER = "p2"

# The schema of a job database before events and deletion existed (schema version 0).
VERSION_0 = """
CREATE TABLE jobs (
    project_id TEXT NOT NULL, job_id TEXT NOT NULL, name TEXT NOT NULL, document TEXT NOT NULL,
    created_ms INTEGER NOT NULL, outcome TEXT NOT NULL, terminate_requested_ms INTEGER,
    PRIMARY KEY (project_id, job_id), UNIQUE (project_id, name)
)
"""


def record(job_id: str, name: str, created_ms: int = 1_000, project: str = PROJECT) -> JobRecord:
    document = {"kind": "job", "metadata": {"id": job_id, "name": name}}
    return JobRecord(project, job_id, name, document, Timeline(created_ms, "Completed"))


def test_an_old_database_is_migrated_and_keeps_its_jobs(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    with sqlite3.connect(db) as connection:
        connection.execute(VERSION_0)
        connection.execute("INSERT INTO jobs VALUES ('p1', 'j1', 'n1', '{}', 5, 'Completed', NULL)")
    store = JobStore(db)
    try:
        assert store.get(PROJECT, "j1") is not None
        assert store.events(PROJECT, "j1") == []
        store.plan_events(PROJECT, "j1", 5, [StoredEvent(5, {"message": "m"})])
        assert [e.time_ms for e in store.events(PROJECT, "j1")] == [5]
    finally:
        store.close()
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_database_of_a_newer_schema_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "new.sqlite"
    with sqlite3.connect(db) as connection:
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match=f"schema version {SCHEMA_VERSION + 1}"):
        JobStore(db)


def test_deleted_stays_deleted_across_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "jobs.sqlite"
    store = JobStore(db)
    store.insert(record("j1", "n1"))
    store.plan_events(PROJECT, "j1", 1_000, [StoredEvent(1_000, {"message": "created"})])
    assert store.delete(OTHER, "j1", 2_000) is None  # another project's job is not there
    assert store.delete(PROJECT, "j1", 2_000) is not None
    store.close()
    store = JobStore(db)
    try:
        assert store.get(PROJECT, "j1") is None
        assert store.jobs(PROJECT) == []
        assert store.events(PROJECT, "j1") == []
        assert store.was_deleted(PROJECT, "j1")
        assert not store.was_deleted(OTHER, "j1")
        assert store.delete(PROJECT, "j1", 3_000) is None
        store.insert(record("j2", "n1"))  # the name is free again
        assert store.latest_time_ms() == 2_000
    finally:
        store.close()


def test_a_changed_document_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "jobs.sqlite"
    store = JobStore(db)
    store.insert(record("j1", "n1"))

    def describe(document: dict[str, object]) -> dict[str, object]:
        return {**document, "described": True}

    assert store.change_document(OTHER, "j1", describe) is None
    changed = store.change_document(PROJECT, "j1", describe)
    assert changed is not None
    assert changed.document["described"] is True
    store.close()
    store = JobStore(db)
    try:
        stored = store.get(PROJECT, "j1")
        assert stored is not None
        assert stored.document["described"] is True
    finally:
        store.close()


def test_planned_events_replace_only_those_from_the_moment_on() -> None:
    store = JobStore()
    try:
        store.insert(record("j1", "n1"))
        store.plan_events(
            PROJECT, "j1", 0, [StoredEvent(t, {"message": f"at {t}"}) for t in (10, 20, 30)]
        )
        store.plan_events(PROJECT, "j1", 20, [StoredEvent(t, {"message": "new"}) for t in (5, 25)])
        events = store.events(PROJECT, "j1")
        assert [(e.time_ms, e.document["message"]) for e in events] == [(10, "at 10"), (25, "new")]
        assert store.events(OTHER, "j1") == []
        store.plan_events(PROJECT, "gone", 0, [StoredEvent(1, {})])  # no such job: nothing
        assert store.events(PROJECT, "gone") == []
    finally:
        store.close()


def test_jobs_lists_one_project_in_store_order() -> None:
    store = JobStore()
    try:
        store.insert(record("b", "second", created_ms=2))
        store.insert(record("a", "first", created_ms=1))
        store.insert(record("c", "elsewhere", created_ms=0, project=OTHER))
        assert [r.job_id for r in store.jobs(PROJECT)] == ["a", "b"]
    finally:
        store.close()


def test_transitions_follow_what_show_answers() -> None:
    simulation = Simulation(load_spec().meaning.lifecycle, LifecycleTimings(10, 20, 3))
    lifecycle = simulation.lifecycle
    for timeline in (
        Timeline(1_000, simulation.outcomes[0]),
        Timeline(1_000, simulation.outcomes[-1]),
        Timeline(1_000, simulation.outcomes[0], terminate_requested_ms=15_000),
        Timeline(1_000, simulation.outcomes[0], terminate_requested_ms=1_000),
    ):
        transitions = simulation.transitions(timeline)
        assert transitions[0].at_ms >= timeline.created_ms
        assert lifecycle.is_final(transitions[-1].phase)
        for before, after in itertools.pairwise(transitions):
            assert before.at_ms < after.at_ms
            assert after.phase in lifecycle.transitions[before.phase]
        stop = timeline.terminate_requested_ms
        for transition in transitions:
            if stop is None or transition.at_ms >= stop:
                snapshot = simulation.snapshot_at(timeline, transition.at_ms)
                assert snapshot.phase == transition.phase
                assert snapshot.stage == transition.stage
    stopped = simulation.transitions(Timeline(0, simulation.outcomes[0], 15_000))
    assert stopped[-1].stage is Stage.STOPPED
    assert [t.phase for t in stopped][:3] == list(lifecycle.normal_course[:3])


def _version_1_without_events(connection: sqlite3.Connection) -> None:
    connection.execute(VERSION_0)


def _version_1_jobs_short_of_a_column(connection: sqlite3.Connection) -> None:
    connection.execute("CREATE TABLE jobs (project_id TEXT, job_id TEXT, name TEXT)")
    connection.execute("CREATE TABLE events (project_id, job_id, seq, time_ms, document)")
    connection.execute("CREATE TABLE deleted_jobs (project_id, job_id, deleted_ms)")


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (lambda connection: None, "has no table 'jobs'"),
        (_version_1_without_events, "has no table 'deleted_jobs'; has no table 'events' ("),
        (
            _version_1_jobs_short_of_a_column,
            "table 'jobs' lacks the column(s) created_ms, document, outcome, "
            "terminate_requested_ms (",
        ),
    ],
    ids=["no-tables", "no-events-tables", "missing-columns"],
)
def test_a_damaged_database_is_refused_before_anything_is_written(
    tmp_path: Path, damage: Any, said: str
) -> None:
    """Issue 34 item 5: a file whose user_version says 1 but whose tables are not those of
    version 1 is refused with one message naming what is missing (the schema itself is
    checked, not only the number), and the file is left exactly as it was."""
    db = tmp_path / "damaged.sqlite"
    with sqlite3.connect(db) as connection:
        damage(connection)
        connection.execute("PRAGMA user_version = 1")
    before = db.read_bytes()
    with pytest.raises(StoreError, match=re.escape(said)) as refused:
        JobStore(db)
    assert "\n" not in str(refused.value)
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["damaged.sqlite"]


def test_serve_refuses_a_damaged_database_with_one_line_and_exit_2(tmp_path: Path) -> None:
    db = tmp_path / "damaged.sqlite"
    with sqlite3.connect(db) as connection:
        connection.execute("PRAGMA user_version = 1")
    result = CliRunner().invoke(cli, ["serve", "--port", "0", "--db", str(db)])
    assert result.exit_code == 2, result.output
    assert result.output.splitlines() == [
        f"error: --db {db}: the job database says schema version 1 but has no table "
        "'deleted_jobs'; has no table 'events'; has no table 'jobs' "
        "(rule: a job database of version 1 has the tables and columns its version makes); it "
        "is damaged or not a modelarts-kit job database, and was not changed"
    ]


# -- the list's search in SQL (JobStore.search) -------------------------------------------------

SIMULATION = Simulation(load_spec().meaning.lifecycle, LifecycleTimings())


def listed(store: JobStore, query: SearchQuery, workspace: str | None = None) -> list[str]:
    found = store.search(
        PROJECT, query, phase=phase_columns(SIMULATION, 10_000), workspace=workspace, limit=50
    )
    return [r.job_id for r in found.records]


def test_a_migrated_database_is_searched_by_what_its_documents_hold(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    document = '{"kind": "job", "metadata": {"name": "Old-TrainJob", "workspace_id": "w1"}}'
    with sqlite3.connect(db) as connection:
        connection.execute(VERSION_0)
        connection.execute(
            "INSERT INTO jobs VALUES ('p1', 'j1', 'Old-TrainJob', ?, 5, 'Completed', NULL)",
            (document,),
        )
        connection.execute("INSERT INTO jobs VALUES ('p1', 'j2', 'n2', '{}', 6, 'Completed', NULL)")
    store = JobStore(db)
    try:
        like = SearchQuery(filters=(Filter("name", "like", ("trainjob",)),))
        assert listed(store, like) == ["j1"]
        assert listed(store, SearchQuery(), workspace="w1") == ["j1"]
        assert listed(store, SearchQuery(), workspace="0") == ["j2"]
    finally:
        store.close()


def test_a_changed_document_is_searched_by_its_new_values() -> None:
    store = JobStore()
    store.insert(record("j1", "first"))
    store.change_document(PROJECT, "j1", lambda d: {**d, "kind": "hetero_job"})
    assert listed(store, SearchQuery(filters=(Filter("kind", "in", ("hetero_job",)),))) == ["j1"]
    assert listed(store, SearchQuery(filters=(Filter("kind", "in", ("job",)),))) == []


def test_a_page_far_beyond_the_end_is_empty_not_an_error() -> None:
    store = JobStore()
    store.insert(record("j1", "first"))
    found = store.search(
        PROJECT, SearchQuery(), phase=phase_columns(SIMULATION, 0), start=2**70, limit=2**40
    )
    assert (found.total, found.count, found.records) == (1, 1, [])


@pytest.mark.parametrize("key", ["create_time", "name"])
@pytest.mark.parametrize("order", ["asc", "desc"])
def test_a_page_sorted_by_a_stored_key_reads_an_index_not_every_job(key: str, order: str) -> None:
    """List cost grows with the page: SQLite walks an index in the listing order (no sort of
    the project's jobs in a temporary tree) and stops after the page."""
    store = JobStore()
    finder = listing_finder(PROJECT, None, phase_columns(SIMULATION, 0))
    sql, params = finder.page_sql(SearchQuery(sort_by=key, order=order), 0, 10)
    plan = [row[3] for row in store._connection.execute("EXPLAIN QUERY PLAN " + sql, params)]
    assert any("USING INDEX" in step for step in plan), plan
    assert not any("TEMP B-TREE" in step for step in plan), plan
