"""A page's rows and clauses, as the schema-model derivation reads them: a field's row (its
name, Mandatory cell, type and description) in a page's words
(:func:`~modelarts_kit_spec.pagetext.page_words`), the table title a page prints, and the
clause of a description that states a bound or names a value."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from modelarts_kit_spec.pagetext import normalise
from modelarts_kit_spec.quotes import Quote

__all__ = [
    "DEFAULT_ONLY",
    "MANDATORY_WORDS",
    "ROOT_HEADINGS",
    "TYPE_WORDS",
    "WINDOW",
    "YES",
    "Row",
    "clause_naming",
    "clause_stating",
    "clauses",
    "find_row",
    "names_value",
    "next_row",
    "number_words",
    "row_pattern",
    "row_starts",
    "table_title",
]

JSON = Any
# A clause that only names a default ("The default value is job"): it closes no list.
DEFAULT_ONLY = re.compile(r"\b[Tt]he default value is\b|\bis \S+ by default\b")
# A page's type word -> the JSON types it is evidence of.
TYPE_WORDS = (
    (re.compile(r"^(?:Array|List)\b|^\w+\[\]$"), {"array"}),
    (re.compile(r"^Map\b|\bobject$|^Object$|^JSON$"), {"object"}),
    (re.compile(r"^(?:Integer|Long|int|long|Int)\b"), {"integer"}),
    (re.compile(r"^(?:Float|Double|Number|BigDecimal)\b"), {"number", "integer"}),
    (re.compile(r"^Boolean\b"), {"boolean"}),
    (re.compile(r"^String\b"), {"string"}),
)
MANDATORY_WORDS = ("Yes", "No", "是", "否")
YES = ("Yes", "是")
WINDOW = 900  # how far a row's description may run, at most, in a page's words
# Where a row's description surely ends: a table title, a section, a directive.
_HEADING = re.compile(
    r"(?:Table|表)\s?\d+ |\.\. |Request Parameters|Response Parameters|Example Requests|"
    r"Example Responses|Status code|Status Codes|Error Codes|请求参数|响应参数|请求示例|响应示例"
)
# Words of a clause that states a bound (a length, a range, a count), not a default.
_BOUND = re.compile(
    r"[Mm]inimum|[Mm]aximum|range|at least|at most|no more than|no less than|\d\s*(?:to|-|~)\s*\d"
    r"|\[|最小|最大|范围|长度|限制"
)
# A clause that lists values (rather than prose that happens to use a value's word).
_LISTS_VALUES = re.compile(r"value|[Oo]ption|can be|default|range|[Ee]num|可选|取值|默认")
_CLAUSE = re.compile(r"(?<=[.。;\uff1b])\s+|\s(?=[•-] )")  # \uff1b: the full-width semicolon


@dataclass(frozen=True)
class Row:
    """One field's row on one page: where it is, its words, the text of its description."""

    quote: Quote
    printed_type: str
    mandatory: str | None
    description: str

    @property
    def says_yes(self) -> bool:
        return self.mandatory in YES


# The inventories' names of a page's root tables, and the heading a page without table titles
# prints above each instead.
ROOT_HEADINGS = {
    "Request body parameters": "Request Parameters",
    "Response body parameters": "Response Parameters",
}


# A derivation looks up every row of every inventory (about 1,500), each with a pattern of its
# own; `docs update` derives again for each run, from mostly the same pages. The lookups are
# pure functions of the page's words, so one process answers each once (bounded).
@functools.lru_cache(maxsize=2048)
def table_title(words: str, table: str) -> str | None:
    """The table's title as the page prints it (``Table 4 JobMetadata``; for a root table of
    a page without titles, its heading), if it does."""
    found = re.search(rf"(?:Table|表)\s?\d+\s?{re.escape(normalise(table))}(?![\w])", words)
    if found:
        return found.group(0)
    heading = ROOT_HEADINGS.get(table)
    return heading if heading is not None and heading in words else None


def row_pattern(name: str, printed_type: str) -> re.Pattern[str]:
    mandatory = "|".join(MANDATORY_WORDS)
    printed = re.escape(normalise(printed_type))
    return re.compile(rf"(?<![\w.\-]){re.escape(name)} (?:({mandatory}) )?{printed}(?![\w])")


def find_row(
    words: str,
    page: str,
    table: str,
    name: str,
    entry: Mapping[str, JSON],
    others: frozenset[str],
) -> Row | None:
    return _find_row(words, page, table, name, str(entry.get("type") or ""), others)


@functools.lru_cache(maxsize=8192)
def _find_row(
    words: str, page: str, table: str, name: str, printed: str, others: frozenset[str]
) -> Row | None:
    title = table_title(words, table)
    start = words.find(title) if title is not None else 0
    pattern = row_pattern(name, printed)
    found = pattern.search(words, start) or pattern.search(words)
    if found is None:
        return None
    end = min(found.end() + WINDOW, len(words))
    description = words[found.end() : end]
    cut = next_row(description, others, name)
    description = description[:cut].strip()
    locator = f"{title or table}, row {name}"
    return Row(Quote(page, locator, found.group(0)), printed, found.group(1), description)


@functools.lru_cache(maxsize=64)
def row_starts(names: frozenset[str]) -> re.Pattern[str]:
    """Where any row of ``names`` starts: the name, its Mandatory cell, a capitalised type."""
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(
        rf"(?<![\w.\-])(?P<name>{alternatives}) (?:(?:Yes|No|是|否) )?[A-Z\u4e00-\u9fff]"
    )


def next_row(text: str, names: frozenset[str], own: str) -> int:
    """Where the next row of another field of the page starts in ``text`` (or a heading;
    its end when neither does)."""
    end = len(text)
    if names:
        for found in row_starts(names).finditer(text):
            if found.group("name") != own:
                end = found.start()
                break
    heading = _HEADING.search(text, 0, end)
    return heading.start() if heading is not None else end


def clauses(description: str) -> list[str]:
    return [c.strip() for c in _CLAUSE.split(description) if c and c.strip()]


def number_words(value: JSON) -> list[str]:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return []
    number = int(value) if float(value).is_integer() else value
    return [str(number), f"{number:,}"]


def clause_stating(description: str, keyword: str, value: JSON) -> str | None:
    """The clause of a row's description that states ``keyword`` (its number, for a length or
    a range; the characters allowed, for a pattern)."""
    for clause in clauses(description):
        if keyword == "pattern":  # the characters allowed: "only digits, letters, ..."
            if re.search(r"characters", clause) and re.search(r"letters|digits", clause):
                return clause
            if re.search(r"字母|数字", clause):
                return clause
            continue
        if keyword == "const":
            if clause_naming(clause, str(value)) is not None:
                return clause
            continue
        if not _BOUND.search(clause):
            continue  # "sets the value to 1 by default" states a default, not a bound
        for number in number_words(value):
            if re.search(rf"(?<![\d.A-Za-z]){re.escape(number)}(?![\dA-Za-z])", clause):
                return clause
    return None


def names_value(text: str, value: str) -> bool:
    """Whether ``text`` names the enum value ``value`` as a word."""
    return re.search(rf"(?<![\w\-.]){re.escape(value)}(?![\w\-])", text) is not None


def clause_naming(description: str, value: str) -> str | None:
    """The clause of a row's description that names the enum value ``value`` as a word."""
    pattern = re.compile(rf"(?<![\w\-.]){re.escape(value)}(?![\w\-])")
    naming = [clause for clause in clauses(description) if pattern.search(clause)]
    listing = [c for c in naming if c[:2] in ("- ", "• ") or _LISTS_VALUES.search(c)]
    chosen = listing or naming
    return chosen[0] if chosen else None
