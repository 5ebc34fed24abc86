"""pytest plugin: run the ModelArts server contract inside a user's own test suite.

Registered as a ``pytest11`` entry point, so installing modelarts-kit makes it available::

    def test_my_server_honours_the_spec(modelarts_contract):
        modelarts_contract.check("http://127.0.0.1:8000", token="...", project_id="...")

    def test_in_process(modelarts_contract, my_asgi_app):
        report = modelarts_contract.run(my_asgi_app, max_examples=5)
        assert report.exit_code == 0

``check`` fails the test with the full text report (each failure once, with its curl command)
when the server breaks the contract; ``run`` returns the
:class:`~modelarts_kit_contracts.core.RunReport` for assertions of your own. A target is a
base URL or an ASGI app; without one, ``--modelarts-url`` is used, and without that the
embedded reference server (in-process). Command-line options (``--modelarts-url``,
``--modelarts-token``, ``--modelarts-project-id``, ``--modelarts-max-examples``,
``--modelarts-seed``) give the defaults; keyword arguments override them per call.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest

from modelarts_kit_contracts.core.findings import ExitCode, RunReport

# pytest loads this plugin in every session of an environment that has the kit installed;
# the runner (schemathesis, the reference server) is imported only when a test uses it.
if TYPE_CHECKING:
    from modelarts_kit_contracts.server.run import ServerTarget

__all__ = ["ContractRunner", "modelarts_contract", "pytest_addoption"]

DEFAULT_PLUGIN_MAX_EXAMPLES = 10  # a test-suite budget; the CLI's default is larger
DEFAULT_PLUGIN_SEED = 0  # derandomised: the same tests send the same requests every run


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("modelarts-kit", "ModelArts contract checks")
    group.addoption(
        "--modelarts-url",
        default=None,
        help="Base URL of a ModelArts training-job server to contract-test.",
    )
    group.addoption("--modelarts-token", default=None, help="X-Auth-Token for --modelarts-url.")
    group.addoption("--modelarts-project-id", default=None, help="Project id of the jobs.")
    group.addoption(
        "--modelarts-max-examples",
        type=int,
        default=DEFAULT_PLUGIN_MAX_EXAMPLES,
        help="Generated cases per operation and phase.",
    )
    group.addoption("--modelarts-seed", type=int, default=DEFAULT_PLUGIN_SEED, help="Run seed.")


@dataclass
class ContractRunner:
    """What the ``modelarts_contract`` fixture gives a test."""

    url: str | None
    token: str | None
    project_id: str | None
    max_examples: int
    seed: int

    def run(
        self,
        target: str | Callable[..., Any] | None = None,
        *,
        token: str | None = None,
        ak: str | None = None,
        sk: str | None = None,
        project_id: str | None = None,
        other_project_id: str | None = None,
        max_examples: int | None = None,
        seed: int | None = None,
        phases: tuple[str, ...] | None = None,
    ) -> RunReport:
        """Run the whole server contract against ``target`` (every phase unless ``phases``
        names some); never raises for findings."""
        from modelarts_kit_contracts.server.run import (
            ALL_PHASES,
            Budget,
            RunOptions,
            default_other_project,
            run_server_contract,
        )
        from modelarts_kit_contracts.transport_auth import Credentials

        with self._target(target) as (resolved, embedded_defaults):
            token = token if token is not None else self.token
            project_id = project_id or self.project_id
            if embedded_defaults is not None:
                token = token if token is not None or ak is not None else embedded_defaults[0]
                project_id = project_id or embedded_defaults[1]
            if project_id is None:
                raise pytest.UsageError("modelarts_contract: project_id is required")
            options = RunOptions(
                credentials=Credentials(token=token, ak=ak, sk=sk, project_id=project_id),
                project_id=project_id,
                other_project_id=other_project_id or default_other_project(project_id),
                budget=Budget(
                    max_examples=max_examples or self.max_examples,
                    seed=self.seed if seed is None else seed,
                ),
                phases=ALL_PHASES if phases is None else phases,
            )
            return run_server_contract(resolved, options)

    def check(self, target: str | Callable[..., Any] | None = None, **kwargs: Any) -> RunReport:
        """Like :meth:`run`, but fail the test with the text report unless everything passed."""
        report = self.run(target, **kwargs)
        if report.exit_code != ExitCode.PASSED:
            from modelarts_kit_contracts.core.reporters import render_text

            text = io.StringIO()
            render_text(report, text, color=False)
            pytest.fail(text.getvalue(), pytrace=False)
        return report

    @contextmanager
    def _target(
        self, target: str | Callable[..., Any] | None
    ) -> Iterator[tuple[ServerTarget, tuple[str, str] | None]]:
        from modelarts_kit_contracts.server.run import ServerTarget

        if isinstance(target, str):
            yield ServerTarget(target), None
        elif target is not None:
            yield ServerTarget.asgi(target), _embedded_defaults()
        elif self.url is not None:
            yield ServerTarget(self.url), None
        else:
            # The embedded default target is composed by the command line layer (the contract
            # kit never imports the reference server itself).
            from modelarts_kit.commands.contract import embedded_target

            with ExitStack() as stack:
                yield stack.enter_context(embedded_target(http=False)), _embedded_defaults()


def _embedded_defaults() -> tuple[str, str] | None:
    """The embedded server's development token and project, from the command layer that
    composes it (None when the reference server is not installed)."""
    try:
        from modelarts_kit.commands.contract import embedded_defaults

        return embedded_defaults()
    except ImportError:
        return None


@pytest.fixture
def modelarts_contract(request: pytest.FixtureRequest) -> ContractRunner:
    """Run the ModelArts server contract: ``.run(target)`` -> report, ``.check(target)``."""
    config = request.config
    return ContractRunner(
        url=config.getoption("--modelarts-url"),
        token=config.getoption("--modelarts-token"),
        project_id=config.getoption("--modelarts-project-id"),
        max_examples=config.getoption("--modelarts-max-examples"),
        seed=config.getoption("--modelarts-seed"),
    )
