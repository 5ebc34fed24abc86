"""The daily-loop example works as written: its doctest passes against the embedded reference
server (find the failed jobs, copy one, follow it, delete the failed ones)."""

from __future__ import annotations

import doctest

import examples.daily_loop


def test_the_daily_loop_example_doctest() -> None:
    result = doctest.testmod(examples.daily_loop, raise_on_error=False)
    assert result.attempted >= 5
    assert result.failed == 0
