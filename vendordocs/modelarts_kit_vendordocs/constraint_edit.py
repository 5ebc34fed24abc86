"""A changed prose constraint applied to the spec: ``0 to 256 characters`` -> ``0 to 512``
sets ``maxLength: 512`` where the reading is unambiguous (issue 33 item 4).

Unambiguous means: the page states the keyword once, with one number, in a known phrase
(:func:`modelarts_kit_vendordocs.constraints.sole_statement`), and the spec states the keyword
on the field's own schema node as a one-line number (not through a ``$ref`` or ``allOf`` other
fields share). Anything else stays a decision (a ledger stub). The quote is the evidence:
``docs update`` re-derives the schema model from the pages, which quotes the new revision's
clause for the new number.
"""

from __future__ import annotations

from modelarts_kit_vendordocs.constraints import ProseConstraint, sole_statement
from modelarts_kit_vendordocs.findings import DriftFinding
from modelarts_kit_vendordocs.types import parse_type

__all__ = ["constraint_update", "stated_constraint"]


def stated_constraint(finding: DriftFinding) -> ProseConstraint | None:
    """The page's one unambiguous statement a ``constraint`` finding reports, or None."""
    if finding.kind != "constraint" or not finding.pointer:
        return None
    keyword = finding.value.partition("=")[0]
    stated = sole_statement(finding.description, parse_type(finding.written), keyword)
    return stated if stated is not None and stated.key == finding.value else None


def constraint_update(finding: DriftFinding) -> tuple[str, int | float] | None:
    """(the pointer of the keyword to set, its new value) for a ``constraint`` finding read
    unambiguously; None when a person decides. The spec is edited there only when it states
    the keyword on the field's own node as a one-line scalar
    (:func:`modelarts_kit_vendordocs.propose.replace_scalar` says whether it does)."""
    stated = stated_constraint(finding)
    if stated is None:
        return None
    return f"{finding.pointer}/{stated.keyword}", stated.value
