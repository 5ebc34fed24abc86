"""Python code literals the IR prints into the client (tuples, ``Sensitive(...)``, indented
docstring lines)."""

from __future__ import annotations

from typing import Any

from modelarts_kit_spec.sensitive import SensitiveField

from modelarts_kit_generator.escaping import (
    python_string,
)
from modelarts_kit_generator.ir.model import DOC_INDENT

__all__ = ["indented", "sensitive_literal", "tuple_literal"]


def _code_tuple(items: list[str]) -> str:
    """A Python tuple expression of already printed items."""
    if len(items) == 1:
        return f"({items[0]},)"
    return "(" + ", ".join(items) + ")"


def sensitive_literal(fields: tuple[SensitiveField, ...]) -> str:
    """The ``Sensitive(...)`` expression the generated client masks secret values with."""

    def path(names: tuple[str | None, ...]) -> str:
        return _code_tuple(["None" if n is None else python_string(n) for n in names])

    always = [path(f.path) for f in fields if f.when is None]
    when = [_code_tuple([path(f.path), path(f.when)]) for f in fields if f.when is not None]
    return f"Sensitive(always={_code_tuple(always)}, when={_code_tuple(when)})"


def tuple_literal(values: Any) -> str:
    """A Python tuple literal of strings."""
    items = [python_string(str(v)) for v in values]
    return f"({items[0]},)" if len(items) == 1 else "(" + ", ".join(items) + ")"


def indented(lines: tuple[str, ...]) -> tuple[str, ...]:
    """Docstring lines as printed in a method body: the first follows the opening quotes,
    the others are indented; a blank line stays empty (no trailing whitespace)."""
    return (lines[0], *(DOC_INDENT + line if line else "" for line in lines[1:]))
