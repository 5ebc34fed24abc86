"""What a page says, as a comparison key, and what a ledger entry's sources recorded.

A ledger entry settles a finding only when the page says one of the values the entry's
sources recorded (``sources[].says``). Both sides are reduced to the same keys here:

* ``type`` -- the JSON Schema shape of the vendor type word (``Long`` and ``int64`` agree;
  ``Boolean`` and ``Long`` do not). Prose after the type (``Integer (Unix timestamp)``,
  ``String, default 30s``) is ignored; evidence about another field (``unit_num Integer``)
  records nothing.
* ``mandatory`` -- ``yes`` / ``no`` (``Mandatory: Yes``, ``是否必选: 否``).
* ``enum`` -- the set of values (``CPU, GPU or Ascend``, ``The value can be regular``).
* ``name`` -- the table name without case, ``_`` and ``-``.
* ``presence`` -- ``present`` or ``absent`` (``(absent)`` in a source); ``dropped`` for a field
  a new revision no longer lists, settled only by a source of that page recording the drop
  (``(absent: the new page dropped it)``).
* ``constraint`` -- ``keyword=value`` (``maxLength=512``), from a source that says
  ``maxLength 512 ('0 to 512 characters')``.
* ``example`` -- ``not-embedded``: the page's example is not among the spec's examples,
  recorded as ``(not embedded)`` (the entry says why the spec holds another one).
* ``status-code`` -- per code: whether the page lists it (``201 listed``, ``409 unlisted``),
  against the codes a source recorded (``201 ok; 400 error body`` records 201 and 400 listed,
  every other code unlisted). A revision that drops 400 reopens 400 alone.

Each source is evidence of the page it names (``seed``): :func:`recorded_by_page` keeps the
keys per page, and a finding is settled only by the evidence of its own page (or of the page
it replaces, see :mod:`modelarts_kit_vendordocs.drift`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from modelarts_kit_vendordocs.types import parse_type

__all__ = [
    "ABSENT",
    "DROPPED",
    "NOT_EMBEDDED",
    "PRESENT",
    "enum_key",
    "mandatory_key",
    "name_key",
    "recorded_by_page",
    "recorded_keys",
    "says_recorded",
    "status_item",
    "status_key",
    "type_key",
]

PRESENT = "present"
ABSENT = "absent"
# A replacing page no longer lists the field: settled only by a source of that very page that
# recorded the drop (``(absent: the new page dropped it)``, what a ledger stub writes).
DROPPED = "dropped"
# A page example the spec does not hold (see modelarts_kit_vendordocs.example_drift).
NOT_EMBEDDED = "not-embedded"
_YES = frozenset({"yes", "是", "true", "mandatory", "必选"})
_NO = frozenset({"no", "否", "false", "optional", "可选"})
_PAREN_RE = re.compile(r"\s*[(\uff08][^)\uff09]*[)\uff09]")
_INTRO_RE = re.compile(
    r"^(?:.*?(?:the options are(?: as follows)?|options|possible values(?: are)?|"
    r"value range|the value can be|the value is|可选值(?:如下)?|枚举值|取值范围|取值)"
    r"\s*[:\uff1a]?\s*)",
    re.IGNORECASE,
)
_VALUE_RE = re.compile(r"^[\"'“]?([A-Za-z0-9_][\w.\-+/]*)")
_IDENT_RE = re.compile(r"[A-Za-z_][\w\-]*")
_CODE_RE = re.compile(r"\b([1-5]\d\d)\b")
# "maxLength 512 ('0 to 512 characters')", "maxLength=512": a constraint a source recorded.
_CONSTRAINT_RE = re.compile(
    r"\b(minLength|maxLength|minimum|maximum|minItems|maxItems)\s*[=:]?\s*(-?\d+(?:\.\d+)?)"
)


def type_key(written: str) -> str | None:
    """The JSON Schema shape of a vendor type word; None when it is not one."""
    text = written.strip()
    for candidate in (text, _PAREN_RE.sub("", text).strip(), text.split(", ")[0].strip()):
        parsed = parse_type(candidate)
        if parsed.kind != "unknown":
            return json.dumps(parsed.schema(), sort_keys=True)
    return None


def mandatory_key(written: str | None) -> str | None:
    if written is None:
        return None
    word = written.rsplit(":", 1)[-1].rsplit("\uff1a", 1)[-1].strip().lower()
    if word in _YES:
        return "yes"
    if word in _NO:
        return "no"
    return None


def enum_key(values: Iterable[str]) -> str:
    return "|".join(sorted(set(values)))


def enum_values_of(text: str) -> list[str]:
    """The values a ledger source lists: ``CPU, GPU or Ascend``, ``Options: regular``."""
    body = _PAREN_RE.sub("", text).replace("[", "").replace("]", "")
    body = re.split(r"[;\uff1b]", body, maxsplit=1)[0]
    body = _INTRO_RE.sub("", body, count=1)
    pieces = re.split(r",|\uff0c|\u3001|\s+or\s+|\s+and\s+", body)
    values = []
    for piece in pieces:
        match = _VALUE_RE.match(piece.strip())
        if match is not None:
            values.append(match.group(1).rstrip("."))
    return values


def name_key(name: str) -> str:
    return re.sub(r"[_\-\s]", "", name).lower()


def status_key(codes: Iterable[int]) -> str:
    return ",".join(str(c) for c in sorted(set(codes)))


_LISTED = "listed"
_UNLISTED = "unlisted"


def status_item(code: int, listed: bool) -> str:
    """The comparison key of one status code: whether the pages list it."""
    return f"{code} {_LISTED if listed else _UNLISTED}"


def says_recorded(kind: str, recorded: frozenset[str], value: str) -> bool:
    """Whether a page value (a comparison key) is one of the keys a source recorded. A status
    code is settled per item: listed now as it was listed then, unlisted as it was unlisted."""
    if kind != "status-code":
        return value in recorded
    code, _, state = value.partition(" ")
    if state not in (_LISTED, _UNLISTED):
        return value in recorded  # a key from before per-item settling: the whole list
    return any((code in key.split(",")) == (state == _LISTED) for key in recorded)


def _presence_keys(says: str) -> set[str]:
    """A recorded drop also records that the page does not mention the field (a later run
    without ``--replaces`` reports it as absent); ``(absent)`` alone never settles a drop."""
    text = says.strip().lower()
    if not text.startswith("(absent"):
        return {PRESENT}
    return {ABSENT, DROPPED} if "dropped" in text else {ABSENT}


def recorded_by_page(
    kind: str, sources: Iterable[tuple[str | None, str]]
) -> dict[str, frozenset[str]]:
    """The keys each page's sources recorded: ``sources`` are (page file name, says)."""
    says: dict[str, list[str]] = {}
    for page, text in sources:
        says.setdefault(page or "", []).append(text)
    return {page: recorded_keys(kind, texts) for page, texts in says.items()}


def recorded_keys(kind: str, says: Iterable[str]) -> frozenset[str]:
    """The comparison keys of the values an entry's sources recorded, for its kind."""
    keys: set[str] = set()
    for text in says:
        if kind == "type":
            key = type_key(text)
            if key is not None:
                keys.add(key)
        elif kind == "mandatory":
            key = mandatory_key(text)
            if key is not None:
                keys.add(key)
        elif kind == "enum":
            values = enum_values_of(text)
            if values:
                keys.add(enum_key(values))
        elif kind == "name":
            for piece in text.split(","):
                ref = parse_type(piece.strip()).table_ref
                if ref:
                    keys.add(name_key(ref))
                first = _IDENT_RE.search(piece)
                if first is not None:
                    keys.add(name_key(first.group(0)))
        elif kind == "constraint":
            keys |= {
                f"{keyword}={float(number):g}" for keyword, number in _CONSTRAINT_RE.findall(text)
            }
        elif kind == "presence":
            keys |= _presence_keys(text)
        elif kind == "example" and text.strip().lower().startswith("(not embedded"):
            keys.add(NOT_EMBEDDED)
        elif kind == "status-code":
            codes = [int(c) for c in _CODE_RE.findall(text)]
            if codes:
                keys.add(status_key(codes))
    return frozenset(keys)
