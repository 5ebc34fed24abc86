"""Enum values listed in a description, in every way the vendor writes them.

* Bullet lists, one value per item, with or without blank lines between items (a
  reStructuredText cell whose items were joined into one paragraph is split again):
  ``- max: ...``, ``• CPU``, ``• learner(支持GPU\\CPU规格);``.
* Value-led paragraphs (``**job**: Training job`` then ``**visualization_job**: ...``): two or
  more paragraphs that each start with ``value:``, or one or more after an introduction such
  as ``Options:``.
* Inline lists after "Options:", "Value range:", "The value can be", "The options are",
  "Possible values", "可选值", "枚举值", "取值范围": comma, "、" or "or" separated, quoted, bold
  or with a gloss (``job(训练作业)``, ``mrs_job mrs作业``). The list stops at the first piece
  that is prose (``The value can be regular, indicating the standard mode.`` -> ``regular``).

* "If **x** is specified" bullets: ``- If max is specified, a larger value is better.``,
  ``• 指定为max时表示...`` (the value is the word the condition names).
* Bold paragraphs: a paragraph after the first that starts with ``value:`` counts on its own
  (``**visualization_job**: Visualization job`` added below an intro or a bullet list); a
  capitalised plain word (``Minimum: 1``, ``Note: ...``) is prose, not a value.
* The default value (``which is job by default``, ``The default value is job``, ``默认使用job``)
  is one of the values when the description lists others.
* Inline value-led lists after an introduction: ``The value can be: regular: the standard
  mode, which is the default, detached: ...`` (each ``value:`` after a separator).
* A value offered beside the default: ``The default value is desc, ... You can also set this
  parameter to asc, ...`` (the list page's ``order``): the default and the other value.
* Value-led paragraphs joined into one line with no separator: ``Options: cpuUsage: CPU usage
  memUsage: physical memory usage`` (every ``word:`` must read as a value, not a label).
* "which can be **between**, **like**, **in**, or **not**": an inline list after "which can be".
* A bracketed item inside a bullet, the value some regions offer: ``- **mrs_job**: MRS job
  [- **edge_job**: Edge job] (tag:hk,hc,fcs,fcs-super)`` lists mrs_job and edge_job.
* A bracketed list after an introduction, separated by spaces or commas: ``The value range is
  [Info Error Warning].`` (the events page).

A bullet list counts only when every item starts with a value token; a list of sentences
("The directory must be under /home.") is prose, not an enum.
"""

from __future__ import annotations

import re

from modelarts_kit_vendordocs.types import VendorType

__all__ = ["extract_enum"]

_BULLET_RE = re.compile(r"^\s*(?:[•·▪●*]|-(?=\s))\s*(.*)$")
# A bullet inside a paragraph (items written without blank lines, joined by the reader).
_INNER_BULLET_RE = re.compile(
    r"\s+(?:[•·▪●*]|-)\s+(?=[\"“]?[A-Za-z0-9_][\w.\-+/]*[\"”]?\s*(?:[:\uff1a(\uff08;\uff1b,\uff0c]|$|[^\x00-\x7f]))"
)
_TOKEN_RE = re.compile(r"^[\"“]?([A-Za-z0-9_][\w.\-+/]*)[\"”]?(.*)$", re.S)
_FOLLOWERS = frozenset(":\uff1a(\uff08;\uff1b\u3002.,\uff0c")
_INTRO_RE = re.compile(
    r"(?:the options are(?: as follows)?|options|possible values are|possible values|"
    r"value range|the value range is|the value can be|the value is one of|valid values are|"
    r"the enums are(?: as follows)?|enums|(?:which|it|this parameter) can be|"
    r"可选值(?:如下)?|枚举值|取值范围|取值(?:可以|可)?为?|可以为)"
    r"(?:\s*[:\uff1a]\s*|\s+)(.*)$",
    re.IGNORECASE | re.S,
)
_INTRO_ONLY_RE = re.compile(
    r"(?:options|the options are(?: as follows)?|possible values(?: are)?|value range|"
    r"the enums are(?: as follows)?|可选值(?:如下)?|枚举值|取值范围)\s*[:\uff1a]\s*$",
    re.IGNORECASE,
)
_LED_RE = re.compile(r"^[\"“]?([A-Za-z0-9_][\w.\-+/]*)[\"”]?\s*[:\uff1a]\s*\S")
_VALUE_TOKEN_RE = re.compile(r"[A-Za-z0-9_][\w.\-+/]*")
_BRACKETED_RE = re.compile(r"^\[([^\[\]]+)\]")
_JOINED_LED_RE = re.compile(r"(?:^|(?<=[.\u3002;\uff1b])\s+)([A-Za-z0-9_][\w.\-+/]*)\s*[:\uff1a]\s")
# "A: ..., B: ..." after an introduction: a value may also follow a comma.
_INLINE_LED_RE = re.compile(
    r"(?:^|(?<=[.\u3002;\uff1b,\uff0c])\s*)([A-Za-z0-9_][\w.\-+/]*)\s*[:\uff1a]\s*(?=\S)"
)
# "[- edge_job: Edge job] (tag:hk,hc,fcs)": a bracketed item inside another (a region's value).
_TAGGED_RE = re.compile(r"\[\s*-\s*([A-Za-z0-9_][\w.\-+/]*)\s*[:\uff1a][^\]]*\]")
# "A: gloss B: gloss": a value after any whitespace (only when every one reads as a value).
_SPACED_LED_RE = re.compile(r"(?:^|(?<=\s))([A-Za-z0-9_][\w.\-+/]*)\s*[:\uff1a]\s+(?=\S)")
# "If max is specified, ...", "When max is set, ...", "指定为max时...", "取值为max时...".
_CONDITION_RE = re.compile(
    r"^(?:(?:if|when)\s+[\"“]?([A-Za-z0-9_][\w.\-+/]*)[\"”]?\s+is\s+"
    r"(?:specified|set|selected|used|configured|passed)\b"
    r"|(?:指定为|设置为|取值为|配置为)\s*[\"“]?([A-Za-z0-9_][\w.\-+/]*?)[\"”]?\s*时)",
    re.IGNORECASE,
)
_DEFAULT_RES = (
    re.compile(r"which is\s+[\"“]?([A-Za-z0-9_][\w.\-+/]*?)[\"”]?\s+by default", re.I),
    re.compile(r"the default value is\s+[\"“]?([A-Za-z0-9_][\w\-+/]*)", re.I),
    re.compile(
        r"(?:默认使用|默认为|默认值为)\s*[\"“]?([A-Za-z0-9_][\w.\-+/]*?)[\"”]?"
        r"(?=[\s\u3002,\uff0c;\uff1b.]|$)"
    ),
)
# "You can also set this parameter to asc": a value beside the default.
_ALSO_RE = re.compile(
    r"(?:you can also set this parameter to|(?:it|this parameter) can also be(?: set to)?)\s+"
    r"[\"“]?([A-Za-z0-9_][\w\-+/]*)",
    re.I,
)
# Bold as a pipe page keeps it (the reStructuredText reader already reduced it to its text).
_STRONG_RE = re.compile(r"\*\*([^*\n]+)\*\*")
# A capitalised plain word before a colon is a label ("Minimum: 1"), not a value.
_LABEL_RE = re.compile(r"[A-Z][a-z]+")
_NOT_VALUES = frozenset(
    {
        "note",
        "notes",
        "example",
        "examples",
        "default",
        "notice",
        "options",
        "caution",
        "warning",
        "minimum",
        "maximum",
        "unit",
        "format",
        "range",
        "constraint",
        "constraints",
    }
)
_PIECE_SPLIT_RE = re.compile(r"\s*(?:,|\uff0c|\u3001|;|\uff1b)\s*(?:or\s+|and\s+)?|\s+or\s+")
_ENUM_KINDS = frozenset({"string", "integer", "number"})


def _is_gloss(rest: str) -> bool:
    """What may follow a value: nothing, punctuation, a parenthesis, or a non-ASCII gloss."""
    rest = rest.strip()
    return not rest or rest[0] in _FOLLOWERS or not rest.split()[0].isascii()


def _bullet_value(item: str) -> str | None:
    condition = _CONDITION_RE.match(item.strip())
    if condition is not None:
        return condition.group(1) or condition.group(2)
    match = _TOKEN_RE.match(item.strip())
    if match is None:
        return None
    token, rest = match.group(1), match.group(2)
    # "job: ...", "CPU;", "learner(...)", or a Chinese gloss ("mrs_job mrs作业;").
    return token.rstrip(".") if _is_gloss(rest) else None


def _list_values(tail: str) -> list[str]:
    """Values of an inline list, up to the first piece that is prose."""
    values: list[str] = []
    for piece in _PIECE_SPLIT_RE.split(tail.strip().rstrip("\u3002.;\uff1b")):
        piece = piece.strip()
        if not piece:
            continue
        match = _TOKEN_RE.match(piece)
        if match is None or not _is_gloss(match.group(2)):
            break
        values.append(match.group(1).rstrip("."))
    return values


def _bracketed_values(inside: str) -> list[str]:
    """``[Info Error Warning]`` or ``[K8S, Job]``: values; ``[1, 100]`` is an interval and
    ``[a sentence, not values]`` prose (a comma-separated piece holds one value)."""
    pieces = [p.strip() for p in re.split(r"[,\uff0c]", inside) if p.strip()]
    tokens = pieces if len(pieces) > 1 else inside.split()
    if not all(_VALUE_TOKEN_RE.fullmatch(t) for t in tokens):
        return []
    if all(re.fullmatch(r"-?\d+(?:\.\d+)?", t) for t in tokens):
        return []
    return tokens


def _inline_values(paragraph: str) -> list[str]:
    intro = _INTRO_RE.search(paragraph)
    if intro is None:
        return []
    tail = full_tail = intro.group(1).strip()
    bracketed = _BRACKETED_RE.match(tail)
    if bracketed is not None:
        return _bracketed_values(bracketed.group(1))
    # The first sentence only: "The value can be regular. Default: ..." lists "regular".
    tail = re.split(r"(?<=[.\u3002])\s", tail, maxsplit=1)[0]
    quoted = re.findall(r"[“\"]([^”\"]+)[”\"]", tail)
    if quoted and all(_VALUE_TOKEN_RE.fullmatch(q.strip()) for q in quoted):
        return [value.strip() for value in quoted]
    # "init_or_rescheduled: This startup is ... restarted: This startup is ..." (value-led
    # paragraphs a reader joined into one).
    led = _JOINED_LED_RE.findall(full_tail)
    if len(led) >= 2 and _LED_RE.match(full_tail):
        return [value for value in led if value.lower() not in _NOT_VALUES]
    # "The value can be: regular: the standard mode, which is the default, detached: ..."
    inline = _INLINE_LED_RE.findall(full_tail)
    if len(inline) >= 2 and _LED_RE.match(full_tail):
        return [value for value in inline if _is_value_label(value)]
    # "Options: cpuUsage: CPU usage memUsage: physical memory usage ..." (bold value-led
    # paragraphs a reader joined into one line, with no separator between them).
    spaced = _SPACED_LED_RE.findall(full_tail)
    if len(spaced) >= 2 and _LED_RE.match(full_tail) and all(map(_is_value_label, spaced)):
        return spaced
    if _INTRO_ONLY_RE.search(paragraph[: intro.start(1)].strip()):
        # After "Options:" a list may be written with spaces only: "Creating Pending Running".
        plain = full_tail.rstrip("\u3002.;\uff1b")
        tokens = [t for t in re.split(r"[,\uff0c\u3001\s]+", plain) if t and t not in ("or", "and")]
        if len(tokens) >= 2 and all(_VALUE_TOKEN_RE.fullmatch(t) for t in tokens):
            return tokens
    return _list_values(tail)


def _paragraphs(description: str) -> list[str]:
    out: list[str] = []
    for paragraph in description.split("\n"):
        if not paragraph.strip():
            continue
        if _BULLET_RE.match(paragraph):
            first, *items = _INNER_BULLET_RE.split(paragraph)
            out.append(first)
            out.extend(f"- {item}" for item in items if item.strip())
            continue
        # "Options: - max: ... - min: ..." (an intro with its items joined on to it).
        head, *items = _INNER_BULLET_RE.split(paragraph)
        out.append(head)
        out.extend(f"- {item}" for item in items)
    return out


def _is_value_label(token: str) -> bool:
    return token.lower() not in _NOT_VALUES and _LABEL_RE.fullmatch(token) is None


def _bold_values(paragraphs: list[str]) -> list[str]:
    """Values of single paragraphs after the first that start with ``value:`` (bold in the
    page): a value added below an introduction or a list, written as a paragraph of its own."""
    out: list[str] = []
    for paragraph in paragraphs[1:]:
        if _BULLET_RE.match(paragraph):
            continue
        match = _LED_RE.match(paragraph.strip())
        if match is not None and _is_value_label(match.group(1)):
            out.append(match.group(1))
    return out


def _default_value(description: str) -> str | None:
    for pattern in _DEFAULT_RES:
        match = pattern.search(description)
        if match is not None:
            return match.group(1).rstrip(".")
    return None


def _led_values(paragraphs: list[str]) -> list[str]:
    """Values of paragraphs that each start with ``value:`` (bold in the page)."""
    led = [
        m.group(1)
        for p in paragraphs
        if (m := _LED_RE.match(p.strip())) is not None and m.group(1).lower() not in _NOT_VALUES
    ]
    introduced = any(_INTRO_ONLY_RE.search(p.strip()) for p in paragraphs)
    if len(led) >= 2 or (led and introduced):
        return led
    return []


def extract_enum(description: str, vendor_type: VendorType) -> list[str]:
    """The values a description lists for a scalar field, in order, without duplicates."""
    if vendor_type.kind not in _ENUM_KINDS:
        return []
    description = _STRONG_RE.sub(r"\1", description)
    paragraphs = _paragraphs(description)
    bullets = [m.group(1) for p in paragraphs if (m := _BULLET_RE.match(p)) is not None]
    values: list[str] = []
    if bullets:
        parsed = [_bullet_value(item) for item in bullets]
        if all(value is not None for value in parsed):
            values = [value for value in parsed if value is not None]
            # "mrs_job: MRS job [- edge_job: Edge job] (tag:hk,hc)": a value some regions
            # offer, written as a bracketed item after another.
            values.extend(m.group(1) for item in bullets for m in _TAGGED_RE.finditer(item))
    else:
        values = _led_values(paragraphs)
        if not values:
            for paragraph in paragraphs:
                values.extend(_inline_values(paragraph))
    values.extend(_bold_values(paragraphs))
    default = _default_value(description)
    if default is not None:
        values.extend(m.group(1) for m in _ALSO_RE.finditer(description))
    if values and default is not None and default not in values:
        values.insert(0, default)
    return list(dict.fromkeys(values))
