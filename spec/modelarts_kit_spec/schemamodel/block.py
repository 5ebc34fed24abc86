"""The ``x-modelarts-schema-model`` block as text: rendered as the last top-level block of
openapi.yaml and spliced into it, the rest of the curated file kept byte for byte."""

from __future__ import annotations

from typing import Any

import yaml
from modelarts_kit_wire.recent import Recent

from modelarts_kit_spec.schemamodel.extension import EXTENSION_KEY

__all__ = ["render", "splice"]

JSON = Any

# The last blocks rendered, by the extension's repr (exact for the plain values a derivation
# holds: 1, 1.0 and True, a list and a tuple, all differ). Python's emitter takes about 0.15 s
# for the block, and a process renders the same one again and again: a dry run then the
# update, an update then the run that must write nothing.
_RENDERED: Recent[str, str] = Recent(4)


def render(extension: JSON) -> str:
    """The extension as the last top-level block of openapi.yaml (one line per node)."""
    key = repr(extension)
    text = _RENDERED.get(key)
    if text is None:
        text = yaml.safe_dump(
            {EXTENSION_KEY: extension},
            sort_keys=False,
            default_flow_style=None,
            allow_unicode=True,
            width=4096,  # one line per node: the block stays compact
        )
        _RENDERED.put(key, text)
    return text


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
