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

SAMPLES_PATH = TESTS / "wall_clock_samples.txt"
SAMPLE_HEADER = "=== "


def _samples() -> dict[str, dict[str, str]]:
    """The scan's samples by kind (offending, fine, sleeps), then by name: a text file, so
    that no scan of the tests reads them as tests of their own."""
    samples: dict[str, dict[str, list[str]]] = {}
    current: list[str] | None = None  # the lines of the sample being read (None: the preface)
    for line in SAMPLES_PATH.read_text(encoding="utf-8").splitlines():
        if line.startswith(SAMPLE_HEADER):
            kind, _, name = line.removeprefix(SAMPLE_HEADER).partition(": ")
            current = samples.setdefault(kind, {}).setdefault(name, [])
        elif current is not None:
            current.append(line)
    return {
        kind: {name: "".join(f"{line}\n" for line in lines) for name, lines in named.items()}
        for kind, named in samples.items()
    }


SAMPLES = _samples()
OFFENDING = SAMPLES["offending"]
FINE = SAMPLES["fine"]
(SLEEPS,) = SAMPLES["sleeps"].values()


@pytest.mark.parametrize("name", sorted(OFFENDING))
def test_the_scan_finds_an_assertion_on_wall_clock_time(name: str) -> None:
    findings = wall_clock_assertions(OFFENDING[name])
    assert [finding.where for finding in findings] == ["test_x"], findings


@pytest.mark.parametrize("name", sorted(FINE))
def test_the_scan_leaves_virtual_and_bounded_waits_alone(name: str) -> None:
    assert wall_clock_assertions(FINE[name]) == []


def test_the_scan_reads_each_sleeps_length() -> None:
    assert [(s.where, s.seconds) for s in real_sleeps(SLEEPS)] == [
        ("test_x", 0.01),
        ("test_x", 1.5),
        ("test_x", 2.0),
        ("helper", None),
    ]
