"""Every rule of the schema model, as ``modelarts-kit spec rules`` lists it.

:func:`list_rules` filters the model's rules (an enum whose values have strengths of their
own is one rule per value) by pointer and strength; :func:`rule_json` is the JSON of one rule:
``{"pointer", "rule", "value", "strength", "evidence": [{"page", "locator", "quote"}],
"ledger": [ids]}``. An unknown pointer or strength is a user's mistake (:class:`KitError`,
exit 2).
"""

from __future__ import annotations

from typing import Any

from modelarts_kit_wire.errors import KitError

from modelarts_kit_spec.document import resolve_pointer
from modelarts_kit_spec.schemamodel.model import SchemaModel
from modelarts_kit_spec.schemamodel.rules import Rule, Strength

__all__ = ["list_rules", "rule_json"]

JSON = Any


def _strength(name: str) -> Strength:
    try:
        return Strength(name)
    except ValueError:
        known = ", ".join(s.value for s in Strength)
        raise KitError(f"unknown strength {name!r} (known: {known})") from None


def _check_pointer(model: SchemaModel, pointer: str) -> str:
    pointer = pointer.removeprefix("#")
    if pointer and not pointer.startswith("/"):
        raise KitError(f"pointer {pointer!r} is not a JSON pointer (it starts with /)")
    try:
        resolve_pointer(model.document, pointer)
    except (KeyError, IndexError, TypeError):
        raise KitError(f"unknown pointer {pointer!r}: the spec has no node there") from None
    return pointer


def _under(rule: Rule, pointer: str) -> bool:
    return not pointer or rule.pointer == pointer or rule.pointer.startswith(pointer + "/")


def list_rules(
    model: SchemaModel, *, pointer: str | None = None, strength: str | None = None
) -> tuple[Rule, ...]:
    """The rules at or below ``pointer`` (every rule without it) of ``strength`` (any)."""
    wanted = _strength(strength) if strength is not None else None
    at = _check_pointer(model, pointer) if pointer is not None else ""
    return tuple(
        rule
        for rule in model.listed
        if _under(rule, at) and (wanted is None or rule.strength is wanted)
    )


def rule_json(rule: Rule) -> dict[str, JSON]:
    return {
        "pointer": rule.pointer,
        "rule": rule.keyword,
        "value": rule.value,
        "strength": rule.strength.value,
        "evidence": [quote.as_dict() for quote in rule.quotes],
        "ledger": list(rule.ledger),
    }
