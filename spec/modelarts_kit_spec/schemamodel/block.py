"""The ``x-modelarts-schema-model`` block as text: rendered as the last top-level block of
openapi.yaml and spliced into it, the rest of the curated file kept byte for byte."""

from __future__ import annotations

from typing import Any

import yaml

from modelarts_kit_spec.schemamodel.extension import EXTENSION_KEY

__all__ = ["render", "splice"]

JSON = Any


def render(extension: JSON) -> str:
    """The extension as the last top-level block of openapi.yaml (one line per node)."""
    return yaml.safe_dump(
        {EXTENSION_KEY: extension},
        sort_keys=False,
        default_flow_style=None,
        allow_unicode=True,
        width=4096,  # one line per node: the block stays compact
    )


def splice(text: str, block: str) -> str:
    """``text`` with its top-level extension block replaced by (or appended as) ``block``;
    the rest of the curated file is kept byte for byte."""
    lines = text.splitlines(keepends=True)
    start = next((i for i, ln in enumerate(lines) if ln.startswith(f"{EXTENSION_KEY}:")), None)
    if start is None:
        return text.rstrip("\n") + "\n" + block
    end = next(
        (i for i in range(start + 1, len(lines)) if lines[i][:1] not in (" ", "\n", "")),
        len(lines),
    )
    return "".join(lines[:start]) + block + "".join(lines[end:])
