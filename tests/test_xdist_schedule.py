"""scripts/check's scheduling (tests/xdist_schedule.py): the costliest files go out first and
their tests are spread; a renamed file would silently lose both, so the names must exist."""

from __future__ import annotations

from tests.cli_support import REPO
from tests.xdist_schedule import FIRST, SPREAD, rank_of, unit_of

UPDATE = "tests/vendordocs/test_update.py"


def test_every_listed_file_exists() -> None:
    assert [name for name in (*FIRST, *SPREAD) if not (REPO / name).is_file()] == []


def test_a_spread_file_is_one_unit_per_test_and_any_other_file_one_unit() -> None:
    assert UPDATE in SPREAD
    assert unit_of(f"{UPDATE}::test_a[x]") == f"{UPDATE}::test_a[x]"
    assert unit_of("tests/cli/test_help.py::test_a") == "tests/cli/test_help.py"
    assert unit_of("tests/cli/test_help.py::Class::test_a") == "tests/cli/test_help.py"


def test_the_first_files_go_first_then_the_most_tests() -> None:
    units = {"tests/cli/test_help.py": 40, "tests/cli/test_x.py": 3, f"{UPDATE}::test_a": 1}
    order = sorted(units, key=lambda unit: rank_of(unit, units[unit]))
    assert order == [f"{UPDATE}::test_a", "tests/cli/test_help.py", "tests/cli/test_x.py"]
