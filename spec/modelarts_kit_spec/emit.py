"""The one YAML emitter: every value the kit writes into a YAML file goes through here.

Its counterpart is the one reader, :func:`modelarts_kit_spec.load.parse_yaml_text`. A string
is never pasted into YAML text by hand: ``null``, ``yes``, ``2025-01-01``, ``0x1F``, ``#c``
or ``a: b`` written bare would read back as something else (None, True, a date, 31) or break
the file. The emitter quotes whatever needs it, so what is written reads back as itself.
"""

from __future__ import annotations

from typing import Any

import yaml

__all__ = ["dump_block", "dump_flow", "dump_yaml"]

_WIDTH = 96  # the curated files' line width
_LINE_BREAKS = frozenset("\n\r\x85\u2028\u2029")


class _Dumper(yaml.SafeDumper):
    """The safe dumper, writing a string that holds a line break double-quoted (``"a\\nb"``):
    single-quoted or plain, it would spread over several lines, and a one-line flow value
    must stay on its line."""


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = '"' if _LINE_BREAKS.intersection(value) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _represent_str)


def _dump(value: Any, *, flow: bool | None, width: float) -> str:
    return yaml.dump(
        value,
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        width=width,
        default_flow_style=flow,
    )


def dump_yaml(value: Any, *, flow: bool | None = False) -> str:
    """``value`` as a YAML document (block style by default; ``flow=None`` lets the emitter
    choose flow style for the innermost collections, as the ledger is written)."""
    return _dump(value, flow=flow, width=_WIDTH)


def dump_block(value: Any, indent: int, *, flow: bool | None = False) -> list[str]:
    """The lines of ``value`` as YAML, each indented by ``indent`` columns (for inserting a
    block into a file at that depth)."""
    lines = dump_yaml(value, flow=flow).split("\n")[:-1]
    return [(" " * indent + line) if line else line for line in lines]


def dump_flow(value: Any) -> str:
    """``value`` as one line of flow-style YAML (``[a, 'null', '#c']``), for a value written
    after a key on the key's own line."""
    text = _dump(value, flow=True, width=float("inf"))
    # A scalar is followed by the document end marker; a collection by a newline only.
    return text.removesuffix("\n...\n").removesuffix("\n")
