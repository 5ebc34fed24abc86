"""Every command of ``modelarts-kit``, read from the command tree (no list to maintain).

The names come from ``modelarts_kit.main.COMMANDS``, the table the lazy root group serves,
without importing a command: every pytest worker collects the tests parametrised by these
names, and importing every command pulled in every package of the kit at each worker's
collection. ``test_every_listed_command_loads_as_the_tree_says`` walks the loaded commands
and holds the two to each other."""

from __future__ import annotations

import click
from modelarts_kit.main import COMMANDS, Tree, cli

__all__ = ["ALL_COMMANDS", "LEAF_COMMANDS", "command_at", "loaded_tree"]


def _walk(tree: Tree, path: tuple[str, ...]) -> list[tuple[tuple[str, ...], bool]]:
    found: list[tuple[tuple[str, ...], bool]] = [(path, False)]
    for name in sorted(tree):  # as LazyGroup.list_commands lists them
        target, _ = tree[name]
        if isinstance(target, dict):
            found += _walk(target, (*path, name))
        else:
            found.append(((*path, name), True))
    return found


_TREE = _walk(COMMANDS, ())
ALL_COMMANDS: list[tuple[str, ...]] = [path for path, _ in _TREE]
LEAF_COMMANDS: list[tuple[str, ...]] = [path for path, leaf in _TREE if leaf]


def loaded_tree(
    group: click.Group = cli, path: tuple[str, ...] = ()
) -> list[tuple[tuple[str, ...], bool]]:
    """The tree as click serves it: every command loaded (a leaf is a command, not a group)."""
    ctx = click.Context(group, info_name=path[-1] if path else "modelarts-kit")
    found: list[tuple[tuple[str, ...], bool]] = [(path, False)]
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None, f"{' '.join((*path, name))} is listed but cannot be loaded"
        if isinstance(command, click.Group):
            found += loaded_tree(command, (*path, name))
        else:
            found.append(((*path, name), True))
    return found


def command_at(path: tuple[str, ...]) -> click.Command:
    """The click command at ``path`` (e.g. ``("spec", "diff")``)."""
    command: click.Command = cli
    for name in path:
        assert isinstance(command, click.Group)
        found = command.get_command(click.Context(command), name)
        assert found is not None
        command = found
    return command
