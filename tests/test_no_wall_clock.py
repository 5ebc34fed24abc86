"""No test asserts wall-clock time, and no test sleeps for real beyond a poll's tick, except
where a real wait is the point (issue 36 item 3: one test failed at load 7-13 only on its
wall-clock assertion). Tests wait on virtual clocks: ``tests/virtual_clock.py``'s
``VirtualClock``, the reference server's ``ManualClock``, the contract run's ``clock``/``sleep``
and the generated client's ``clock=``/``sleep=``. ``tests/wall_clock_scan.py`` says what the
scan counts."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from tests.wall_clock_scan import Finding, Sleep, real_sleeps, scan, wall_clock_assertions

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
# The generated client of the generator's golden test is product output, not a test.
NOT_TESTS = ("tests/generator/golden/",)
POLL_TICK_S = 0.05  # a bounded poll's pause between two looks at a condition
# Real sleeps longer than a tick, each the point of its test: (file, function) -> why.
# An entry that no longer matches a sleep fails, so the list only holds what is there.
REAL_SLEEPS: dict[tuple[str, str], str] = {
    (
        "tests/server/test_server_hostile.py",
        "test_a_slow_handler_is_not_cut_off_by_the_header_timeout.slow",
    ): "a handler outlasting uvicorn's real header timeout, on a real server thread",
    (
        "tests/contracts_client/test_hostile_proxy.py",
        "trickle",
    ): "an upstream trickling bytes into the proxy's real read deadline, on real sockets",
    (
        "tests/contracts/test_inprocess_session.py",
        "Echo.__call__",
    ): "an app slower than requests' real read timeout of the in-process session",
    (
        "tests/server/macli/record_macli.py",
        "main",
    ): "a recording script run by hand against the real CLI, not a test pytest collects",
}


def _test_modules() -> list[Path]:
    return sorted(
        path
        for path in TESTS.rglob("*.py")
        if not path.relative_to(ROOT).as_posix().startswith(NOT_TESTS)
    )


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@cache
def _scanned() -> dict[str, tuple[list[Finding], list[Sleep]]]:
    """Every test module's findings, parsed once for both tests."""
    return {_relative(path): scan(path.read_text(encoding="utf-8")) for path in _test_modules()}


def test_no_test_asserts_wall_clock_time() -> None:
    found = [
        f"{path}:{finding.line} ({finding.where}): {finding.what}"
        for path, (findings, _) in _scanned().items()
        for finding in findings
    ]
    assert found == [], "\n".join(found)


def _long_sleeps() -> dict[tuple[str, str], list[str]]:
    long: dict[tuple[str, str], list[str]] = {}
    for path, (_, sleeps) in _scanned().items():
        for sleep in sleeps:
            if sleep.seconds is not None and sleep.seconds <= POLL_TICK_S:
                continue
            length = "unknown length" if sleep.seconds is None else f"{sleep.seconds:g} s"
            place = (path, sleep.where)
            long.setdefault(place, []).append(f"line {sleep.line}: {length}")
    return long


def test_no_test_sleeps_for_real_beyond_a_poll_tick() -> None:
    long = _long_sleeps()
    unexplained = {place: lines for place, lines in long.items() if place not in REAL_SLEEPS}
    assert unexplained == {}, (
        "real sleeps beyond a poll's tick: wait on a virtual clock, or an event, or list the "
        f"place in REAL_SLEEPS with why the real wait is the point: {unexplained}"
    )
    assert set(REAL_SLEEPS) <= set(long), f"no longer sleeping: {set(REAL_SLEEPS) - set(long)}"


# -- the scan itself can fail ---------------------------------------------------------------

OFFENDING = {
    "an elapsed time": (
        "import time\n"
        "def test_x():\n"
        "    started = time.monotonic()\n"
        "    work()\n"
        "    assert time.monotonic() - started < 5\n"
    ),
    "a name for a measured time": "def test_x():\n    elapsed = work()\n    assert elapsed < 5\n",
    "a report's duration": "def test_x():\n    assert report.duration_s >= 1.5\n",
    "an approximate duration": (
        "import pytest\ndef test_x():\n    assert result.elapsed == pytest.approx(2.0, abs=0.5)\n"
    ),
    "a JSON report's duration": "def test_x():\n    assert doc['duration_s'] < 2\n",
    "perf_counter by name": (
        "from time import perf_counter\n"
        "def test_x():\n"
        "    t0 = perf_counter()\n"
        "    took = round(perf_counter() - t0, 2)\n"
        "    assert took <= 0.5\n"
    ),
    "through a helper": (
        "import time\n"
        "def timed(f):\n"
        "    began = time.perf_counter()\n"
        "    return f(), time.perf_counter() - began\n"
        "def test_x():\n"
        "    result, spent = timed(work)\n"
        "    assert result == 1 and spent < 3\n"
    ),
    "datetime.now": (
        "from datetime import datetime\n"
        "def test_x():\n"
        "    before = datetime.now()\n"
        "    work()\n"
        "    assert (datetime.now() - before).seconds < 2\n"
    ),
}

FINE = {
    "a virtual clock": (
        "def test_x():\n"
        "    clock = VirtualClock()\n"
        "    started = clock.peek()\n"
        "    run(clock=clock.now)\n"
        "    assert clock.peek() - started == 10\n"
    ),
    "a bounded poll": (
        "import time\n"
        "def test_x():\n"
        "    deadline = time.monotonic() + 60\n"
        "    while not done() and time.monotonic() < deadline:\n"
        "        time.sleep(0.05)\n"
        "    assert done()\n"
    ),
    "a reading handed to the code under test": (
        "from datetime import datetime\n"
        "def test_x():\n"
        "    when = datetime.now()\n"
        "    message = send(signed(when))\n"
        "    assert 'X-Sdk-Date' in message\n"
    ),
    "an exact duration, which only a virtual clock gives": (
        "def test_x():\n    assert mock.report('t').duration_s == 95.0\n"
    ),
    "a duration measured at all": "def test_x():\n    assert doc['duration_s'] > 0\n",
    "the API's duration of a job on the server's clock": (
        "def test_x():\n    assert status['duration'] == 7000\n"
    ),
}


@pytest.mark.parametrize("name", sorted(OFFENDING))
def test_the_scan_finds_an_assertion_on_wall_clock_time(name: str) -> None:
    findings = wall_clock_assertions(OFFENDING[name])
    assert [finding.where for finding in findings] == ["test_x"], findings


@pytest.mark.parametrize("name", sorted(FINE))
def test_the_scan_leaves_virtual_and_bounded_waits_alone(name: str) -> None:
    assert wall_clock_assertions(FINE[name]) == []


def test_the_scan_reads_each_sleeps_length() -> None:
    source = (
        "import asyncio, time\n"
        "from time import sleep as nap\n"
        "PAUSE = 0.5\n"
        "def test_x(pause):\n"
        "    time.sleep(0.01)\n"
        "    time.sleep(PAUSE * 3)\n"
        "    nap(2)\n"
        "    clock.sleep(100)\n"  # a virtual clock's: not a real sleep
        "async def helper(delay):\n"
        "    await asyncio.sleep(delay)\n"
    )
    assert [(s.where, s.seconds) for s in real_sleeps(source)] == [
        ("test_x", 0.01),
        ("test_x", 1.5),
        ("test_x", 2.0),
        ("helper", None),
    ]
