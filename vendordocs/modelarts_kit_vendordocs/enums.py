"""Enum values listed in a description: bullet lists of values, or an inline list after
"Options:" / "The options are" / "可选值" / "枚举值" (quoted, bold or comma separated).

A bullet list counts only when every item starts with a value token (``job: training job``,
``Running``, ``CPU;``, ``learner(...)``); a list of sentences ("The directory must be under
/home.") is prose, not an enum.
"""

from __future__ import annotations

import re

from modelarts_kit_vendordocs.types import VendorType

__all__ = ["extract_enum"]

_BULLET_RE = re.compile(r"^\s*(?:[•·▪●*]|-(?=\s))\s*(.*)$")
_TOKEN_RE = re.compile(r"^([A-Za-z0-9_][\w.\-+/]*)(.*)$")
_VALUE_TOKEN_RE = re.compile(r"^[A-Za-z0-9_][\w.\-+/]*$")
_FOLLOWERS = frozenset(":\uff1a(\uff08;\uff1b\u3002.,\uff0c")
_INTRO_RE = re.compile(
    r"(?:the options are(?: as follows)?|options|possible values are|possible values|"
    r"the enums are(?: as follows)?|enums|可选值(?:如下)?|枚举值|取值范围|取值)"
    r"\s*[:\uff1a]\s*(.*)$",
    re.IGNORECASE,
)
_QUOTED_RE = re.compile(r"[“\"]([^”\"]+)[”\"]")

_ENUM_KINDS = frozenset({"string", "integer", "number"})


def _bullet_value(item: str) -> str | None:
    match = _TOKEN_RE.match(item.strip())
    if match is None:
        return None
    token, rest = match.group(1), match.group(2).strip()
    # "job: ...", "CPU;", "learner(...)", or a Chinese gloss ("mrs_job mrs作业;").
    if not rest or rest[0] in _FOLLOWERS or not rest.split()[0].isascii():
        return token.rstrip(".")
    return None


def _inline_values(paragraph: str) -> list[str]:
    intro = _INTRO_RE.search(paragraph)
    if intro is None:
        return []
    tail = intro.group(1).strip()
    quoted = _QUOTED_RE.findall(tail)
    if quoted:
        return [value.strip() for value in quoted if value.strip()]
    tokens = [t for t in re.split(r"[,\uff0c\u3001\s]+", tail.rstrip("\u3002.;\uff1b")) if t]
    if len(tokens) >= 2 and all(_VALUE_TOKEN_RE.match(t) for t in tokens):
        return tokens
    return []


def extract_enum(description: str, vendor_type: VendorType) -> list[str]:
    """The values a description lists for a scalar field, in order, without duplicates."""
    if vendor_type.kind not in _ENUM_KINDS:
        return []
    paragraphs = [p for p in description.split("\n") if p.strip()]
    bullets = [m.group(1) for p in paragraphs if (m := _BULLET_RE.match(p)) is not None]
    values: list[str] = []
    if bullets:
        parsed = [_bullet_value(item) for item in bullets]
        if all(value is not None for value in parsed):
            values = [value for value in parsed if value is not None]
    else:
        for paragraph in paragraphs:
            values.extend(_inline_values(paragraph))
    return list(dict.fromkeys(values))
