"""``--no-color`` is one shared option: ``contract server`` has it as ``contract proxy`` and
``contract client`` do, and it wins over a terminal that asks for colour (``FORCE_COLOR``)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from modelarts_kit.main import cli

ANSI_ESCAPE = "\x1b["


@pytest.mark.parametrize("command", [("server",), ("proxy",), ("client",)])
def test_every_reporting_contract_command_has_no_color(command: tuple[str, ...]) -> None:
    result = CliRunner().invoke(cli, ["contract", *command, "--help"])
    assert result.exit_code == 0
    assert "--no-color" in result.output


def test_contract_server_no_color_writes_plain_text_on_a_colour_terminal() -> None:
    # FORCE_COLOR makes rich colour its output on any stream; --no-color must overrule it.
    env = {"FORCE_COLOR": "1", "NO_COLOR": None, "TERM": "xterm-256color", "COLUMNS": "100"}
    result = CliRunner().invoke(
        cli, ["contract", "server", "--quick", "--max-examples", "1", "--no-color"], env=env
    )
    assert result.exit_code == 0, result.output
    assert "Contract checks" in result.stdout
    assert ANSI_ESCAPE not in result.stdout
