"""The examples' doctests against a reference server on a ``ManualClock``: the client's waits
between polls move the server's clock (``CLOCK_SPEED`` times the wait, as the example's
``SimulatedClock`` would have moved while the client slept) instead of sleeping for real.
The example's code runs as written; only where its time comes from changes."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest
from modelarts_kit_server import ManualClock

import examples.first_job


def on_a_manual_clock(monkeypatch: pytest.MonkeyPatch, example: ModuleType) -> ManualClock:
    clock = ManualClock()
    speed = examples.first_job.CLOCK_SPEED
    settings, client = example.ServerSettings, example.TrainingJobsClient

    def server_settings(**given: Any) -> Any:
        return settings(**given, clock=clock)

    def training_jobs_client(*args: Any, **given: Any) -> Any:
        return client(*args, **given, sleep=lambda seconds: clock.advance(seconds * speed))

    monkeypatch.setattr(example, "ServerSettings", server_settings)
    monkeypatch.setattr(example, "TrainingJobsClient", training_jobs_client)
    return clock
