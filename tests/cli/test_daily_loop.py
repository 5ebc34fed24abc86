"""The daily-loop example works as written: its doctest passes against the embedded reference
server (find the failed jobs, copy one, follow it, delete the failed ones)."""

from __future__ import annotations

import doctest

import pytest

import examples.daily_loop
from tests.cli.manual_clock_examples import on_a_manual_clock


def test_the_daily_loop_example_doctest(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = on_a_manual_clock(monkeypatch, examples.daily_loop)  # 3 s of real polls before
    started = clock.now_ms()
    result = doctest.testmod(examples.daily_loop, raise_on_error=False)
    assert result.attempted >= 5
    assert result.failed == 0
    assert clock.now_ms() > started  # the jobs ended because the client's waits moved it
