"""Snapshot of ``--help`` of every command: a new command is covered once it is registered."""

from __future__ import annotations

import pytest
from syrupy.assertion import SnapshotAssertion

from tests.cli.commands import ALL_COMMANDS
from tests.cli_support import Kit


@pytest.mark.parametrize("path", ALL_COMMANDS, ids=lambda p: " ".join(p) or "modelarts-kit")
def test_help(kit: Kit, snapshot: SnapshotAssertion, path: tuple[str, ...]) -> None:
    result = kit(*path, "--help")
    assert result.exit_code == 0, result.transcript()
    assert result.stderr == ""
    assert result.transcript() == snapshot


def test_short_help_option_everywhere(kit: Kit) -> None:
    for path in ALL_COMMANDS:
        assert kit(*path, "-h").stdout == kit(*path, "--help").stdout, path
