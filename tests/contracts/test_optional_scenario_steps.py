"""The pieces the optional-operation scenarios judge with (issue 26), on hand-made values."""

from __future__ import annotations

import pytest
from modelarts_kit_contracts.server.scenarios.events import (
    _first_disorder,
    instant,
    named_phases,
)
from modelarts_kit_contracts.server.scenarios.listing import _first_gap
from modelarts_kit_contracts.server.scenarios.tasks import unknown_task_name


def test_a_walk_that_gives_the_first_page_back_has_no_gap() -> None:
    assert _first_gap(["a", "b", "c"], ("a", "b", "c")) is None


def test_a_walk_that_repeats_an_entry_overlaps() -> None:
    found = _first_gap(["a", "a", "b"], ("a", "b", "c"))
    assert found is not None
    assert found[0] == "overlap"
    assert "'a'" in found[1]


def test_a_walk_that_jumps_an_entry_skips() -> None:
    found = _first_gap(["a", "c", "d"], ("a", "b", "c"))
    assert found is not None
    assert found[0] == "skip"
    assert "'b'" in found[1]


def test_a_walk_that_ends_early_skips_the_rest() -> None:
    found = _first_gap(["a"], ("a", "b"))
    assert found is not None
    assert found[0] == "skip"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1669449696964, 1669449696964.0),
        ("1669449696964", 1669449696964.0),
        ("2022-11-26T16:03:41+08:00", 1669449821.0),
        ("2022-11-26T08:03:41Z", 1669449821.0),
        ("yesterday", None),
        (None, None),
        (True, None),
    ],
)
def test_event_times_are_read_as_numbers_or_iso_8601(value: object, expected: float | None) -> None:
    assert instant(value) == expected


def test_the_first_disorder_is_where_the_direction_breaks() -> None:
    assert _first_disorder([1.0, 2.0, 2.0, 1.5, 3.0]) == 3
    assert _first_disorder([3.0, 2.0, 2.5]) == 2


def test_a_phase_is_named_as_a_word_in_any_case() -> None:
    events = [
        {"message": "Training job is terminating.", "source": "Job"},
        {"message": "[worker-0] Started: Started container", "level": "Info"},
    ]
    phases = ("Running", "Terminating", "Terminated")
    assert named_phases(events, phases) == {"Terminating"}


def test_an_unknown_task_name_repeats_with_the_seed_and_differs_across_seeds() -> None:
    assert unknown_task_name(1) == unknown_task_name(1)
    assert unknown_task_name(1) != unknown_task_name(2)
    assert unknown_task_name(1).replace("-", "").isalnum()
