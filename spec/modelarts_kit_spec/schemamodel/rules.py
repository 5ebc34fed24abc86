"""What a rule of the schema model is: a keyword at a schema node, its strength, its evidence.

Strengths, from firmest to loosest:

- ``documented``: a vendor page states it (``Mandatory: Yes``, a type, a documented closed
  enum, a stated pattern, length or range). Every server must enforce it;
- ``guidance``: the spec infers it from a page's prose (choose-one, "leave it blank if",
  closed objects). Clients follow it; a server may or may not enforce it;
- ``sdk``: only the vendor SDK has it (a field such as ``access_method``);
- ``example``: only an example shows it (``null`` where the type is an object);
- ``decision``: only the ledger decided it (a body marked required that no page requires, an
  enum the ledger closed, a minimum borrowed from another page). It binds neither end: valid
  data respects it (must-accept), no server is refused for ignoring it (not in must-reject).

A ``documented`` or ``guidance`` rule quotes its pages (:class:`Quote`: the page, where on it,
and its own words); an enum's values each have their own strength (CPU and GPU documented,
Ascend only the SDK's).

Besides the JSON Schema keywords, two pseudo keywords name rules that no single keyword
carries: ``presence`` (a property's very presence in its object, at the property's pointer)
and ``nullable`` (``null`` allowed at the node); ``array-form`` names the array shape of a node
whose type is also another one (its ``array`` type and ``items``, or its ``anyOf`` branch of type
``array``), a leniency when only observed use shows it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

__all__ = [
    "ARRAY_FORM",
    "CHOICE_KEYWORDS",
    "NULLABLE",
    "PRESENCE",
    "RULE_KEYWORDS",
    "Evidence",
    "Quote",
    "Rule",
    "Strength",
]


class Strength(StrEnum):
    DOCUMENTED = "documented"
    GUIDANCE = "guidance"
    SDK = "sdk"
    EXAMPLE = "example"
    DECISION = "decision"


# Strengths that a page's words back: each such rule quotes at least one recorded page.
QUOTED = (Strength.DOCUMENTED, Strength.GUIDANCE)


PRESENCE = "presence"
NULLABLE = "nullable"
ARRAY_FORM = "array-form"

# Keywords that are a rule wherever they stand (a value can break them).
RULE_KEYWORDS = (
    "required",
    "type",
    "enum",
    "const",
    "pattern",
    "format",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "not",
)
# Keywords that are a rule only when the spec says so (a choose-one written as anyOf/allOf);
# elsewhere they build shapes (open enums, nullability) rather than restrict them.
CHOICE_KEYWORDS = ("anyOf", "allOf", "oneOf")


@dataclass(frozen=True)
class Evidence:
    """Where a rule comes from: a page and its table, an SDK release and model, a ledger entry.

    ``kind`` is ``page`` (``where``: the file under ``spec/sources``, ``what``: the table or
    field), ``sdk`` (``where``: the release, ``what``: the model) or ``ledger`` (``what``: the
    entry id)."""

    kind: str
    where: str
    what: str

    def __str__(self) -> str:
        if self.kind == "page":
            return f"{self.where}, table {self.what}"
        if self.kind == "sdk":
            return f"vendor SDK {self.where}, model {self.what}"
        return f"ledger entry {self.what}"

    def as_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "where": self.where, "what": self.what}


@dataclass(frozen=True)
class Quote:
    """A page's own words for a rule: the file under ``spec/sources``, where on the page
    (``Table 4 JobMetadata, row name``) and the words (a row's cells, or a sentence of its
    description), as :func:`~modelarts_kit_spec.schemamodel.pagetext.page_words` reads them.

    Written in ``x-modelarts-schema-model`` as one string, ``PAGE | LOCATOR | QUOTE``."""

    page: str
    locator: str
    quote: str

    @classmethod
    def parse(cls, text: str) -> Quote:
        page, _, rest = text.partition(" | ")
        locator, _, quote = rest.partition(" | ")
        return cls(page.strip(), locator.strip(), quote.strip())

    def __str__(self) -> str:
        return f"{self.page} | {self.locator} | {self.quote}"

    def as_dict(self) -> dict[str, str]:
        return {"page": self.page, "locator": self.locator, "quote": self.quote}


@dataclass(frozen=True)
class Rule:
    """One rule: ``keyword`` at the schema node ``pointer`` binds with ``strength``.

    ``quotes`` are the page's words for a ``documented`` or ``guidance`` rule; ``value`` is
    the rule's value (an enum's list, a minimum), or one enum value when the rule is that
    value's (:meth:`SchemaModel.value_rules`)."""

    pointer: str
    keyword: str
    strength: Strength
    evidence: tuple[Evidence, ...]
    quotes: tuple[Quote, ...] = ()
    value: Any = None

    @property
    def ledger(self) -> tuple[str, ...]:
        """The ledger entries among the evidence."""
        return tuple(e.what for e in self.evidence if e.kind == "ledger")

    def cite(self) -> str:
        """One line naming the rule and its evidence, for reports: the first quote (page,
        where, the words) for a rule a page states, else the ledger entries and SDK models;
        never a bare pointer."""
        single = (
            self.keyword == "enum" and self.value is not None and not isinstance(self.value, list)
        )
        what = f"enum value {self.value!r}" if single else self.keyword
        if self.quotes:
            first = self.quotes[0]
            more = f" (+{len(self.quotes) - 1} more)" if len(self.quotes) > 1 else ""
            source = f'{first.page}, {first.locator}: "{first.quote}"{more}'
            if self.ledger:
                source += f"; ledger entry {', '.join(self.ledger)}"
        else:
            kept = [e for e in self.evidence if e.kind != "page"] or list(self.evidence)
            source = "; ".join(str(e) for e in kept) or "no evidence recorded"
        return f"{what} at {self.pointer or '/'} ({self.strength}): {source}"
