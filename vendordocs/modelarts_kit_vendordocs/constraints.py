"""Numbers in a description that carry a constraint: lengths, ranges, counts.

The pages write a field's limits in its prose, and a revision changes them there (``The value
must contain 0 to 256 characters`` -> ``0 to 512``). Each form is read into the JSON Schema
keyword it states, with the words that state it (the quote a finding and a ledger entry show):

* lengths of a string: ``1 to 64 characters``, ``at most 256 characters``, ``a maximum of 64
  characters``, ``at least 1 character`` (``minLength`` / ``maxLength``);
* ranges of a number: ``The value ranges from 1 to 50``, ``value range: 1-100``, ``The minimum
  value is 0``, ``The maximum value is 100`` (``minimum`` / ``maximum``);
* counts of an array: ``1 to 10 items`` (or elements, entries), ``a maximum of 20 elements``
  (``minItems`` / ``maxItems``).

Sizes written with a unit (``5 MB``) are not a JSON Schema keyword: read as nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from modelarts_kit_vendordocs.types import VendorType

__all__ = ["ProseConstraint", "prose_constraints", "prose_statements", "sole_statement"]

_N = r"(-?\d+(?:\.\d+)?)"
_BOLD = r"\**"
_STRING_FORMS: tuple[tuple[re.Pattern[str], tuple[str | None, ...]], ...] = (
    (
        re.compile(rf"{_BOLD}(\d+){_BOLD}\s*(?:to|-|~)\s*{_BOLD}(\d+){_BOLD}\s+characters?", re.I),
        ("minLength", "maxLength"),
    ),
    (
        re.compile(
            rf"(?:at most|a maximum of|up to|no more than)\s+{_BOLD}(\d+){_BOLD}\s+characters?",
            re.I,
        ),
        ("maxLength",),
    ),
    (
        re.compile(
            rf"(?:at least|a minimum of|no less than)\s+{_BOLD}(\d+){_BOLD}\s+characters?", re.I
        ),
        ("minLength",),
    ),
)
_NUMBER_FORMS: tuple[tuple[re.Pattern[str], tuple[str | None, ...]], ...] = (
    (
        re.compile(rf"ranges?\s+from\s+{_BOLD}{_N}{_BOLD}\s+to\s+{_BOLD}{_N}{_BOLD}", re.I),
        ("minimum", "maximum"),
    ),
    (
        re.compile(
            rf"value range\s*(?:is)?\s*[:\uff1a]?\s*\[?{_BOLD}{_N}{_BOLD}"
            rf"\s*(?:to|-|~|,)\s*{_BOLD}{_N}{_BOLD}\]?",
            re.I,
        ),
        ("minimum", "maximum"),
    ),
    (re.compile(rf"minimum value is\s+{_BOLD}{_N}{_BOLD}", re.I), ("minimum",)),
    (re.compile(rf"maximum value is\s+{_BOLD}{_N}{_BOLD}", re.I), ("maximum",)),
)
_ARRAY_FORMS: tuple[tuple[re.Pattern[str], tuple[str | None, ...]], ...] = (
    (
        re.compile(
            rf"{_BOLD}(\d+){_BOLD}\s*(?:to|-|~)\s*{_BOLD}(\d+){_BOLD}\s+(?:items|elements|entries)",
            re.I,
        ),
        ("minItems", "maxItems"),
    ),
    (
        re.compile(
            rf"(?:at most|a maximum of|up to)\s+{_BOLD}(\d+){_BOLD}\s+(?:items|elements|entries)",
            re.I,
        ),
        ("maxItems",),
    ),
)
_FORMS = {
    "string": _STRING_FORMS,
    "integer": _NUMBER_FORMS,
    "number": _NUMBER_FORMS,
    "array": _ARRAY_FORMS,
}


@dataclass(frozen=True)
class ProseConstraint:
    keyword: str  # the JSON Schema keyword (maxLength, minimum, ...)
    value: int | float
    quote: str  # the words of the page that state it

    @property
    def key(self) -> str:
        """The comparison key a ledger source records: ``maxLength=512``."""
        return f"{self.keyword}={self.value:g}"


def _number(text: str) -> int | float:
    value = float(text)
    return int(value) if value.is_integer() else value


def prose_statements(description: str, vendor_type: VendorType) -> list[ProseConstraint]:
    """Every statement of a constraint in ``description`` for a field of ``vendor_type``, in
    the order of the forms, repeats and contradictions included."""
    kind = vendor_type.schema().get("type")
    forms = _FORMS.get(kind if isinstance(kind, str) else "", ())
    return [
        ProseConstraint(keyword, _number(number), match.group(0))
        for pattern, keywords in forms
        for match in pattern.finditer(description)
        for keyword, number in zip(keywords, match.groups(), strict=True)
        if keyword is not None
    ]


def prose_constraints(description: str, vendor_type: VendorType) -> list[ProseConstraint]:
    """The constraints ``description`` states for a field of ``vendor_type``, first form
    first; a keyword stated twice keeps its first statement."""
    found: dict[str, ProseConstraint] = {}
    for stated in prose_statements(description, vendor_type):
        found.setdefault(stated.keyword, stated)
    return list(found.values())


_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.]*\d)")
_SENTENCE = re.compile(r"(?<=[.;!?\u3002\uff1b])\s+|\n\s*\n")


def sole_statement(
    description: str, vendor_type: VendorType, keyword: str
) -> ProseConstraint | None:
    """The one unambiguous statement of ``keyword`` in ``description``, or None.

    Unambiguous (issue 33: the reading a change may be applied on, without asking): the
    description states ``keyword`` once, or every time with the same number, and the sentence
    that states it holds no number beyond the phrase's own (``0 to 512 characters (256 in the
    console)`` reads two limits: a person decides which one binds)."""
    stated = [s for s in prose_statements(description, vendor_type) if s.keyword == keyword]
    if not stated or len({s.value for s in stated}) != 1:
        return None
    first = stated[0]
    for sentence in _SENTENCE.split(description):
        if first.quote not in sentence:
            continue
        rest = sentence.replace(first.quote, " ", 1)
        if _NUMBER.search(rest.replace("*", "")):
            return None
    return first
