"""Snapshot of ``--help`` of every command: a new command is covered once it is registered."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from tests.cli.commands import ALL_COMMANDS, LEAF_COMMANDS, loaded_tree
from tests.cli_support import Kit


def test_every_listed_command_loads_as_the_tree_says() -> None:
    """The names the tests are parametrised by (read from the table) are the commands click
    loads: each listed command imports, a group is a group and a leaf a command."""
    loaded = loaded_tree()
    assert [path for path, _ in loaded] == ALL_COMMANDS
    assert [path for path, leaf in loaded if leaf] == LEAF_COMMANDS


@pytest.mark.parametrize("path", ALL_COMMANDS, ids=lambda p: " ".join(p) or "modelarts-kit")
def test_help(kit: Kit, snapshot: SnapshotAssertion, path: tuple[str, ...]) -> None:
    result = kit(*path, "--help")
    assert result.exit_code == 0, result.transcript()
    assert result.stderr == ""
    assert result.transcript() == snapshot


def test_short_help_option_everywhere(kit: Kit) -> None:
    for path in ALL_COMMANDS:
        assert kit(*path, "-h").stdout == kit(*path, "--help").stdout, path


# Run in a fresh interpreter: click caches a command's help option on the command object the
# first time the command runs, so in this process an earlier test may have warmed it already.
ORDER_PROBE = """
import json
from click.testing import CliRunner
from modelarts_kit.main import cli
from tests.cli.commands import ALL_COMMANDS, command_at

broken = []
for path in ALL_COMMANDS:
    if not path:
        continue
    direct = CliRunner().invoke(command_at(path), ["-h"])  # invoked directly, first
    via_root = CliRunner().invoke(cli, [*path, "--help"], prog_name="modelarts-kit")
    if direct.exit_code != 0 or "-h, --help" not in via_root.output:
        broken.append([" ".join(path), direct.exit_code, via_root.output[-300:]])
print(json.dumps(broken))
"""


def test_help_options_do_not_depend_on_which_entry_ran_a_command_first() -> None:
    """Before: ``pytest tests/contracts/test_server_safety.py tests/cli`` failed: a test that
    invoked the ``contract server`` command object directly made click cache a help option
    without ``-h``, and the later ``--help`` snapshot through ``modelarts-kit`` lacked it."""
    root = Path(__file__).resolve().parents[2]
    probe = subprocess.run(
        [sys.executable, "-c", ORDER_PROBE],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert probe.returncode == 0, probe.stderr[-2000:]
    assert json.loads(probe.stdout.splitlines()[-1]) == []
