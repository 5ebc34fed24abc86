"""Which fields of a request object may or must appear together, as the spec states it.

datamodel-code-generator drops ``not`` and ``dependentRequired``, so the IR reads them here
and the generated request models check them with a model validator (``_field_rules``):

* ``not: {required: [a, b]}`` (also as an ``allOf`` part): ``a`` and ``b`` are never all
  given together -> :class:`FieldRule` ``excludes``;
* ``dependentRequired: {a: [b, c]}``: when ``a`` is given, ``b`` and ``c`` are too ->
  :class:`FieldRule` ``requires``.

A rule knows where the spec states it, its strength and its evidence, as the spec's schema
model has them (``spec.schema_model.rule_at``: ``guidance``, with its ledger entry, for the
choose-one rules of the create body); the error the client raises cites all three. Any other
``not`` on a request schema is refused: the client would otherwise claim a check it does not
make.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from modelarts_kit_spec import SpecError
from modelarts_kit_spec.load import escape_pointer_token
from modelarts_kit_spec.schemamodel import SchemaModel

from modelarts_kit_generator.escaping import python_string, shorten

__all__ = ["RULE_KEYWORDS", "FieldRule", "field_rules"]

JSON = Any

# The keywords this module translates; what remains of a node goes to datamodel-code-generator.
RULE_KEYWORDS = ("not", "dependentRequired")


@dataclass(frozen=True)
class FieldRule:
    kind: Literal["excludes", "requires"]
    # excludes: never all of these together; requires: fields[0] needs fields[1:]
    fields: tuple[str, ...]
    pointer: str  # where the spec states the rule
    strength: str  # the schema model's: documented, guidance, sdk, example
    evidence: str  # its ledger entry, else its first source; "" when none is recorded

    @property
    def citation(self) -> str:
        where = f"{self.strength} at {self.pointer}"
        return f"{where}; {self.evidence}" if self.evidence else where

    @property
    def expression(self) -> str:
        """The rule as the generated ``_field_rules`` module builds it (escaped literals)."""
        names = ", ".join(python_string(name) for name in self.fields)
        if len(self.fields) == 1:
            names += ","
        constructor = "Excludes" if self.kind == "excludes" else "Requires"
        return f"{constructor}(({names}), {python_string(self.citation)})"


def _required_only(node: JSON) -> tuple[str, ...] | None:
    """The names of ``{required: [...]}`` (and nothing else), else None."""
    if not isinstance(node, Mapping) or set(node) != {"required"}:
        return None
    names = node["required"]
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        return None
    return tuple(names)


def _weight(model: SchemaModel, pointer: str, keyword: str) -> tuple[str, str]:
    """(strength, evidence) of the rule ``keyword`` at the node ``pointer``."""
    rule = model.rule_at(pointer, keyword)
    evidence = (
        (f"ledger entry {rule.ledger[0]}" if rule.ledger else str(rule.evidence[0]))
        if rule.evidence
        else ""
    )
    return str(rule.strength), evidence


def field_rules(
    node: Mapping[str, JSON], pointer: str, model: SchemaModel
) -> tuple[tuple[FieldRule, ...], dict[str, JSON]]:
    """The field rules ``node`` (at ``pointer``; ``model`` is the spec's schema model) states,
    and ``node`` without them (an ``allOf`` part that only held a rule is removed, and
    ``allOf`` with it when nothing is left)."""
    rules: list[FieldRule] = []
    rest = dict(node)
    if "not" in node:
        names = _required_only(node["not"])
        if names is None:
            raise SpecError(
                f"{pointer}/not: {shorten(repr(node['not']))} is not supported in a request "
                "schema (rule: the generated client checks `not: {required: [...]}` only)"
            )
        rules.append(
            FieldRule("excludes", names, f"{pointer}/not", *_weight(model, pointer, "not"))
        )
        del rest["not"]
    dependent = node.get("dependentRequired")
    if dependent is not None:
        if not isinstance(dependent, Mapping):
            raise SpecError(f"{pointer}/dependentRequired: must be an object of name lists")
        for name, needs in dependent.items():
            if not isinstance(needs, list) or not all(isinstance(n, str) for n in needs):
                raise SpecError(
                    f"{pointer}/dependentRequired/{escape_pointer_token(str(name))}: "
                    f"{shorten(repr(needs))} is not a list of names"
                )
            if needs:
                rules.append(
                    FieldRule(
                        "requires",
                        (str(name), *needs),
                        f"{pointer}/dependentRequired/{escape_pointer_token(str(name))}",
                        *_weight(model, pointer, "dependentRequired"),
                    )
                )
        del rest["dependentRequired"]
    parts = node.get("allOf")
    if isinstance(parts, list):
        kept = []
        for index, part in enumerate(parts):
            names = (
                _required_only(part.get("not"))
                if isinstance(part, Mapping) and set(part) == {"not"}
                else None
            )
            if names is None:
                kept.append(part)
                continue
            rules.append(
                FieldRule(
                    "excludes",
                    names,
                    f"{pointer}/allOf/{index}/not",
                    *_weight(model, pointer, "allOf"),
                )
            )
        if kept:
            rest["allOf"] = kept
        else:
            del rest["allOf"]
    return tuple(rules), rest
