"""The end of a command: the process's objects are frozen out of the cyclic collector before
the interpreter's last full collection, and ``contract server``'s run's while its report is
rendered; full passes there would walk them all for nothing."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from click.testing import CliRunner
from modelarts_kit.main import cli
from modelarts_kit_contracts.core import RunReport
from modelarts_kit_contracts.server.target import ServerTarget

from tests.fresh_process import printed_in_a_fresh_process

# This test's exit handler is registered before main() runs, so it runs after main()'s (the
# last registered runs first): it sees what the interpreter's exit then sees. gc.freeze is
# counted, to see it run once however often main ran.
SEEN_AT_EXIT = """\
import atexit, gc, sys
freeze, calls = gc.freeze, []
def counted():
    calls.append(1)
    freeze()
gc.freeze = counted
atexit.register(lambda: print("at exit:", gc.get_freeze_count() > 0, len(calls)))
from modelarts_kit.entry import main
sys.argv = ["modelarts-kit", "--help"]
for _ in range(3):
    try:
        main()
    except SystemExit as exc:
        assert exc.code in (0, None), exc.code
print("before exit:", gc.get_freeze_count() > 0, len(calls))
"""


def test_the_console_script_freezes_its_objects_at_exit_once() -> None:
    lines = printed_in_a_fresh_process(SEEN_AT_EXIT)
    # A caller's own process runs as before until its end; then its objects are frozen, once.
    assert lines[-2:] == ["before exit: False 0", "at exit: True 1"]


def test_contract_server_renders_its_report_with_the_runs_objects_frozen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A full pass while the report is rendered walks only what rendering makes; the
    collector is as it was once the command is done."""
    from modelarts_kit.commands import contract

    frozen_while: list[str] = []

    def run(target: ServerTarget, options: Any, **_: Any) -> RunReport:
        report = RunReport(target=target.label, seed=1)
        report.record("not_a_server_error", None)
        return report

    def render(report: RunReport, *args: Any, **kwargs: Any) -> None:
        frozen_while.append(f"render {gc.get_freeze_count() > 0}")

    def write(report: RunReport, spec_text: str, **_: Any) -> None:
        frozen_while.append(f"write {gc.get_freeze_count() > 0}")

    @contextmanager
    def embedded(*, http: bool) -> Iterator[ServerTarget]:
        yield ServerTarget.asgi(lambda *args: None)

    monkeypatch.setattr(contract, "embedded_target", embedded)
    monkeypatch.setattr(contract, "run_server_contract", run)
    monkeypatch.setattr(contract, "render_text", render)
    monkeypatch.setattr(contract, "write_report", write)
    assert gc.get_freeze_count() == 0
    result = CliRunner().invoke(cli, ["contract", "server", "--report", "json:unused.json"])
    assert result.exit_code == 0, result.output
    assert frozen_while == ["render True", "write True"]
    assert gc.get_freeze_count() == 0
