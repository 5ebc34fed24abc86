"""The pytest entry point: a user's suite runs the same contract with ``modelarts_contract``.

The user's suites run in a subprocess: pytester's in-process runs drop from ``sys.modules``
what they imported (schemathesis's engine, first imported there), so a later run in this
process would compare its events with classes of a second copy of those modules.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

INI = "[pytest]\nasyncio_default_fixture_loop_scope = function\n"
USER_TESTS = """
from modelarts_kit_server import create_app

from contract_mutants import mutants


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
    # The mutants (a package: mutants.py imports its neighbours mutants_optional_operations.py and
    # mutants_optional_scenarios.py).
    package = pytester.mkpydir("contract_mutants")
    here = Path(__file__).parent
    for name in ("mutants.py", "mutants_optional_operations.py", "mutants_optional_scenarios.py"):
        (package / name).write_text((here / name).read_text(encoding="utf-8"), encoding="utf-8")
    result = pytester.runpytest_subprocess(
        "--modelarts-max-examples", "2", "-p", "no:cacheprovider"
    )
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*second_terminate_rejected*", "*reproduce:*", "*curl -X POST*"])


def test_options_are_registered(pytester: pytest.Pytester) -> None:
    pytester.makeini(INI)
    result = pytester.runpytest_subprocess("--help")
    result.stdout.fnmatch_lines(["*--modelarts-url*", "*--modelarts-token*"])
