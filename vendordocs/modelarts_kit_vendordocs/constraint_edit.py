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

__all__ = ["stated_constraint", "updated_constraint"]


def stated_constraint(finding: DriftFinding) -> ProseConstraint | None:
    """The page's one unambiguous statement a ``constraint`` finding reports, or None."""
    if finding.kind != "constraint" or not finding.pointer:
        return None
    keyword = finding.value.partition("=")[0]
    stated = sole_statement(finding.description, parse_type(finding.written), keyword)
    return stated if stated is not None and stated.key == finding.value else None


def updated_constraint(spec_text: str, finding: DriftFinding) -> str | None:
    """``spec_text`` with the constraint ``finding`` reports set to what the page states, the
    rest of the file untouched; None when the reading is ambiguous or the spec does not state
    the keyword on the field's own node (a decision, then)."""
    from modelarts_kit_vendordocs.propose import replace_scalar

    stated = stated_constraint(finding)
    if stated is None:
        return None
    return replace_scalar(spec_text, f"{finding.pointer}/{stated.keyword}", stated.value)
