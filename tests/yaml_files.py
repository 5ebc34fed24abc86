"""YAML the tests write or read for themselves (a spec copy with one edit, a ledger of a few
entries), through libyaml: PyYAML's C emitter and parser take about a tenth of the CPU of its
pure-Python ones (0.05 s against 0.3-0.5 s for the curated spec), and tests wrote the spec
hundreds of times a run. What the kit reads is never this module's business: the kit reads
through its own reader, and its output is written by its own emitter.

A text written here is read back and compared with the document it was made from, so the
faster emitter never hands the kit anything but the document the test built (libyaml folds
long strings at other places than PyYAML's emitter: the bytes differ, never the values)."""

from __future__ import annotations

from typing import Any

import yaml

__all__ = ["dump_yaml", "load_yaml"]

_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(text: str) -> Any:
    """``yaml.safe_load(text)``, parsed by libyaml."""
    return yaml.load(text, Loader=_LOADER)


def dump_yaml(document: Any, **options: Any) -> str:
    """``yaml.safe_dump(document, **options)``'s document, emitted by libyaml; it reads back as
    ``document`` (else AssertionError: a test must not hand the kit another document)."""
    text: str = yaml.dump(document, Dumper=_DUMPER, **options)
    if load_yaml(text) != document:
        raise AssertionError("the YAML written does not read back as the document given")
    return text
