"""pytest plugin: run the ModelArts server contract inside a user's own test suite.

Installing modelarts-kit makes it available: its ``pytest11`` entry point
(:mod:`modelarts_kit.pytest_plugin`, in the CLI layer) serves this module's hooks and gives
the embedded reference server as the :func:`modelarts_embedded_target` fixture::

    def test_my_server_honours_the_spec(modelarts_contract):
        modelarts_contract.check("http://127.0.0.1:8000", token="...", project_id="...")

    def test_in_process(modelarts_contract, my_asgi_app):
        report = modelarts_contract.run(my_asgi_app, max_examples=5)
        assert report.exit_code == 0

``check`` fails the test with the full text report (each failure once, with its curl command)
when the server breaks the contract; ``run`` returns the
:class:`~modelarts_kit_contracts.core.RunReport` for assertions of your own. A target is a
base URL or an ASGI app; without one, ``--modelarts-url`` is used, and without that the
embedded default target (:class:`EmbeddedTarget`, from the ``modelarts_embedded_target``
fixture; this library composes none itself). Command-line options (``--modelarts-url``,
``--modelarts-token``, ``--modelarts-project-id``, ``--modelarts-max-examples``,
``--modelarts-seed``) give the defaults; keyword arguments override them per call.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest

from modelarts_kit_contracts.core.findings import ExitCode, RunReport

# pytest loads this plugin in every session of an environment that has the kit installed;
# the runner (schemathesis, the reference server) is imported only when a test uses it.
if TYPE_CHECKING:
    from modelarts_kit_contracts.server.run import ServerTarget

__all__ = [
    "ContractRunner",
    "EmbeddedTarget",
    "modelarts_contract",
    "modelarts_embedded_target",
    "pytest_addoption",
]

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


@dataclass(frozen=True)
class EmbeddedTarget:
    """The default target when a test names none: ``open()`` serves it for one run, and
    ``token``/``project_id`` are its credentials (also the defaults for an ASGI app)."""

    open: Callable[[], AbstractContextManager[ServerTarget]]
    token: str
    project_id: str


@dataclass
class ContractRunner:
    """What the ``modelarts_contract`` fixture gives a test."""

    url: str | None
    token: str | None
    project_id: str | None
    max_examples: int
    seed: int
    embedded: EmbeddedTarget | None = None

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
            yield ServerTarget.asgi(target), self._embedded_defaults()
        elif self.url is not None:
            yield ServerTarget(self.url), None
        elif self.embedded is None:
            raise pytest.UsageError(
                "modelarts_contract: no target: pass a URL or an ASGI app, or --modelarts-url"
            )
        else:
            with ExitStack() as stack:
                yield stack.enter_context(self.embedded.open()), self._embedded_defaults()

    def _embedded_defaults(self) -> tuple[str, str] | None:
        """The embedded target's token and project (None when there is none)."""
        if self.embedded is None:
            return None
        return self.embedded.token, self.embedded.project_id


@pytest.fixture
def modelarts_embedded_target() -> EmbeddedTarget | None:
    """The default target; None here. The kit's entry point overrides it with the embedded
    reference server (:mod:`modelarts_kit.pytest_plugin`)."""
    return None


@pytest.fixture
def modelarts_contract(
    request: pytest.FixtureRequest, modelarts_embedded_target: EmbeddedTarget | None
) -> ContractRunner:
    """Run the ModelArts server contract: ``.run(target)`` -> report, ``.check(target)``."""
    config = request.config
    return ContractRunner(
        url=config.getoption("--modelarts-url"),
        token=config.getoption("--modelarts-token"),
        project_id=config.getoption("--modelarts-project-id"),
        max_examples=config.getoption("--modelarts-max-examples"),
        seed=config.getoption("--modelarts-seed"),
        embedded=modelarts_embedded_target,
    )
