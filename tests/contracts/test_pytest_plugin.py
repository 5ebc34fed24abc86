"""The pytest entry point: a user's suite runs the same contract with ``modelarts_contract``."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

INI = "[pytest]\nasyncio_default_fixture_loop_scope = function\n"
USER_TESTS = """
from modelarts_kit_server import create_app

import mutants


def test_reference_server_honours_the_spec(modelarts_contract):
    report = modelarts_contract.check(phases=("examples",))
    assert report.tallies["create_then_show_returns_sent"].passed == 4  # 2 bodies: create, show


def test_broken_server_fails_with_the_report(modelarts_contract):
    mutant = next(m for m in mutants.MUTANTS if m.name == "terminate_twice")
    with mutants.mutated_app(mutant) as app:
        modelarts_contract.check(app, phases=("examples",))
"""


def test_fixture_passes_a_correct_server_and_fails_a_broken_one(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeini(INI)
    pytester.makepyfile(test_user=USER_TESTS)
    pytester.syspathinsert(str(pytester.path))
    source = __file__.replace("test_pytest_plugin.py", "mutants.py")
    with open(source, encoding="utf-8") as handle:
        pytester.makepyfile(mutants=handle.read())
    result = pytester.runpytest_inprocess("--modelarts-max-examples", "2", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*second_terminate_rejected*", "*reproduce:*", "*curl -X POST*"])


def test_options_are_registered(pytester: pytest.Pytester) -> None:
    pytester.makeini(INI)
    result = pytester.runpytest_inprocess("--help")
    result.stdout.fnmatch_lines(["*--modelarts-url*", "*--modelarts-token*"])
