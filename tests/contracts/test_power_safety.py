"""Live safety of the scenarios of issue 32: a delete or a description change names only a
job the run created (also through another project's path), and ``--read-only`` sends none."""

from __future__ import annotations

from modelarts_kit_contracts.server.run import run_server_contract

from .test_server_safety import Recorder, live, options, reference

CHANGING = ("DELETE", "PUT")


def _job_of(path: str) -> str:
    return path.rstrip("/").split("/")[4]  # /v2/{project}/training-jobs/{job}


def test_scenarios_delete_and_describe_only_jobs_the_run_created() -> None:
    with reference(terminating_s=0.2) as app:
        recorder = Recorder(app)
        report = run_server_contract(live(recorder), options(phases=(), max_creates=100))
        run = {job.id for job in report.created_jobs}
    changed = [(m, p) for m, p, _, _ in recorder.seen if m in CHANGING]
    assert changed  # the scenarios did delete and describe
    assert {_job_of(p) for _, p in changed} <= run, (changed, run)


def test_read_only_sends_no_delete_or_description_change() -> None:
    with reference(terminating_s=0.2) as app:
        recorder = Recorder(app)
        report = run_server_contract(live(recorder), options(phases=(), read_only=True))
    assert report.errors == []
    assert report.created_jobs == []
    assert [(m, p) for m, p, _, _ in recorder.seen if m in CHANGING] == []
    # the scenarios that need a job of the run's say so
    assert any("list_filters" in note for note in report.notes), report.notes
