"""Vocabulary shared by the format readers: headings, captions, column names, cell shapes.

English and Chinese pages use the same words in every layout, so the readers recognise them
here, in one place.
"""

from __future__ import annotations

import re

from modelarts_kit_vendordocs.model import Heading, HeadingKind, OperationLine

__all__ = [
    "CAPTION_RE",
    "FIELD_NAME_RE",
    "classify_heading",
    "column_role",
    "is_mandatory_cell",
    "is_type_cell",
    "operation_line",
]

OPERATION_RE = re.compile(r"^(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS)\s+(/[^\s?]*)\s*$")

# "Table 5 Status", "表5 Status", "Table 2 Request body parameters".
CAPTION_RE = re.compile(r"^(?:Table|表)\s*(\d+)\s*(.*?)\s*$")

# A parameter name as the vendor writes it: identifiers, dotted or bracketed sub-keys.
FIELD_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-\[\]]*$")

_HEADINGS: dict[str, HeadingKind] = {
    "request parameters": HeadingKind.REQUEST,
    "请求参数": HeadingKind.REQUEST,
    "response parameters": HeadingKind.RESPONSE,
    "响应参数": HeadingKind.RESPONSE,
    "status codes": HeadingKind.STATUS_CODES,
    "状态码": HeadingKind.STATUS_CODES,
    "example requests": HeadingKind.EXAMPLES,
    "example responses": HeadingKind.EXAMPLES,
    "请求示例": HeadingKind.EXAMPLES,
    "响应示例": HeadingKind.EXAMPLES,
    "error codes": HeadingKind.ERROR_CODES,
    "错误码": HeadingKind.ERROR_CODES,
    "none": HeadingKind.NONE,
    "无": HeadingKind.NONE,
}

_STATUS_RE = re.compile(r"^(?:status code|状态码)\s*[:\uff1a]\s*(\d{3})$", re.IGNORECASE)

_COLUMNS: dict[str, str] = {
    "parameter": "name",
    "参数": "name",
    "name": "name",
    "mandatory": "mandatory",
    "是否必选": "mandatory",
    "required": "mandatory",
    "type": "type",
    "参数类型": "type",
    "类型": "type",
    "description": "description",
    "描述": "description",
    "说明": "description",
    "status code": "status",
    "状态码": "status",
}

_MANDATORY_WORDS = frozenset(
    {"yes", "no", "是", "否", "true", "false", "mandatory", "optional", "必选", "可选"}
)

_SCALAR_TYPES = frozenset(
    {
        "string",
        "integer",
        "int",
        "int32",
        "int64",
        "long",
        "float",
        "double",
        "number",
        "boolean",
        "bool",
        "object",
        "jsonobject",
        "字符串",
        "整数",
        "整型",
        "长整型",
        "浮点数",
        "数字",
        "布尔",
        "布尔型",
        "对象",
    }
)

_COMPOUND_TYPE_RE = re.compile(
    r"^(?:Array\s+of\s+.+|Array\s*<.+>|List\s*<.+>|Map\s*<.+>|"
    r"[A-Za-z_][\w.]*\s+objects?|[A-Za-z_][\w.]*\s*对象(?:数组)?)$",
    re.IGNORECASE,
)


def operation_line(text: str, line: int) -> OperationLine | None:
    match = OPERATION_RE.match(text.strip())
    if match is None:
        return None
    return OperationLine(method=match.group(1), path=match.group(2), line=line)


def classify_heading(text: str, line: int) -> Heading | None:
    """The heading a line is, if it is one (markup and trailing colons ignored)."""
    plain = text.strip().strip("*").strip().rstrip(":\uff1a").strip()
    status = _STATUS_RE.match(plain)
    if status is not None:
        return Heading(HeadingKind.STATUS, line, status.group(1))
    kind = _HEADINGS.get(plain.lower())
    return None if kind is None else Heading(kind, line)


def column_role(header: str) -> str | None:
    """The canonical role of a header cell, or None if it is not a column name we know."""
    return _COLUMNS.get(header.strip().lower())


def is_mandatory_cell(text: str) -> bool:
    return text.strip().lower() in _MANDATORY_WORDS


def is_type_cell(text: str) -> bool:
    """Whether a cell reads like a parameter type ("String", "Array of X objects", ...)."""
    plain = text.strip()
    if not plain or len(plain) > 120:
        return False
    return plain.lower() in _SCALAR_TYPES or _COMPOUND_TYPE_RE.match(plain) is not None
