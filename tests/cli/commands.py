"""Every command of ``modelarts-kit``, found by walking the command tree (no list to maintain)."""

from __future__ import annotations

import click
from modelarts_kit.main import cli

__all__ = ["ALL_COMMANDS", "LEAF_COMMANDS", "command_at"]


def _walk(group: click.Group, path: tuple[str, ...]) -> list[tuple[tuple[str, ...], bool]]:
    ctx = click.Context(group, info_name=path[-1] if path else "modelarts-kit")
    found: list[tuple[tuple[str, ...], bool]] = [(path, False)]
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None, f"{' '.join((*path, name))} is listed but cannot be loaded"
        if isinstance(command, click.Group):
            found += _walk(command, (*path, name))
        else:
            found.append(((*path, name), True))
    return found


_TREE = _walk(cli, ())
ALL_COMMANDS: list[tuple[str, ...]] = [path for path, _ in _TREE]
LEAF_COMMANDS: list[tuple[str, ...]] = [path for path, leaf in _TREE if leaf]


def command_at(path: tuple[str, ...]) -> click.Command:
    """The click command at ``path`` (e.g. ``("spec", "diff")``)."""
    command: click.Command = cli
    for name in path:
        assert isinstance(command, click.Group)
        found = command.get_command(click.Context(command), name)
        assert found is not None
        command = found
    return command
