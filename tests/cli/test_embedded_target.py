"""The CLI layer composes the embedded default target; the contract kit's pytest plugin gets it
from the kit's entry point (``modelarts_kit.pytest_plugin``), never by importing the CLI."""

from __future__ import annotations

from importlib.metadata import entry_points

import pytest
from modelarts_kit.embedded import embedded_defaults, embedded_target
from modelarts_kit_server import DEV_PROJECT_ID, DEV_TOKEN, ReferenceServer

from tests.fresh_process import printed_in_a_fresh_process

pytest_plugins = ["pytester"]

INI = "[pytest]\nasyncio_default_fixture_loop_scope = function\n"
USER_TESTS = """
def test_default_target(modelarts_contract):
    modelarts_contract.run(phases=("examples",))
"""


def test_the_embedded_target_is_the_reference_server_with_its_dev_credentials() -> None:
    assert embedded_defaults() == (DEV_TOKEN, DEV_PROJECT_ID)
    with embedded_target(http=False) as target:
        assert isinstance(target.app, ReferenceServer)


def test_the_pytest_entry_point_is_the_cli_composition() -> None:
    plugins = {e.name: e.value for e in entry_points(group="pytest11")}
    assert plugins["modelarts_kit_contracts"] == "modelarts_kit.pytest_plugin"


def test_the_library_plugin_alone_has_no_default_target(pytester: pytest.Pytester) -> None:
    pytester.makeini(INI)
    pytester.makepyfile(test_user=USER_TESTS)
    # In a subprocess: an in-process run drops from sys.modules what it imported (schemathesis's
    # engine), and a later contract run in this process would see a second copy of them.
    result = pytester.runpytest_subprocess(
        "-p",
        "no:modelarts_kit_contracts",
        "-p",
        "modelarts_kit_contracts.server.pytest_plugin",
        "-p",
        "no:cacheprovider",
    )
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*modelarts_contract: no target*"])


def test_the_in_process_target_loads_no_http_server() -> None:
    """uvicorn (and click with it) loads only to serve over HTTP."""

    code = (
        "import sys\n"
        "from modelarts_kit.embedded import embedded_target\n"
        "with embedded_target(http=False) as target:\n"
        "    assert target.app is not None\n"
        "print('uvicorn' in sys.modules)\n"
    )
    assert printed_in_a_fresh_process(code) == ["False"]
