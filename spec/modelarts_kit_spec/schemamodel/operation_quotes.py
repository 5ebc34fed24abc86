"""Quotes for the rules the field rows do not carry: an operation (its URI line) and a
documented response status (its row of the page's "Status Codes" table).

The schema model's quotes are field rows; a failure about an operation (a scenario, a wrong
status) would otherwise cite a spec pointer alone (issue 31 item 9). The page of an operation
is the one ``spec/sources/index.yaml`` names for it, in English first.
"""

from __future__ import annotations

import functools
import re

from modelarts_kit_spec.paths import SOURCES_DIR
from modelarts_kit_spec.reader import read_input_text, read_yaml

__all__ = ["operation_quote", "status_quote"]


@functools.lru_cache(maxsize=1)
def _pages_by_operation() -> dict[str, tuple[str, ...]]:
    index = read_yaml(SOURCES_DIR / "index.yaml")
    found: dict[str, list[str]] = {}
    english = sorted(index.get("pages") or [], key=lambda p: p.get("language") != "en")
    for page in english:
        if page.get("operation"):
            found.setdefault(str(page["operation"]), []).append(str(page["file"]))
    return {op: tuple(files) for op, files in found.items()}


@functools.lru_cache(maxsize=64)
def _text(file: str) -> str:
    return read_input_text(SOURCES_DIR / file)


def operation_quote(operation_id: str, method: str, path: str) -> str:
    """``page, URI: "POST /v2/{project_id}/training-jobs"``, or "" when no page prints it."""
    line = f"{method.upper()} {path}"
    for file in _pages_by_operation().get(operation_id, ()):
        if line in _text(file):
            return f'{file}, URI: "{line}"'
    return ""


def status_quote(operation_id: str, status: str) -> str:
    """``page, Status Codes, row 201: "201 ok"``, or "" when no page of the operation lists
    the status (a code only the error-code table gives)."""
    for file in _pages_by_operation().get(operation_id, ()):
        text = _text(file)
        at = text.rfind("Status Code")
        if at < 0:
            continue
        table = text[at : at + 1500]
        found = re.search(rf"(?m)^\s*{re.escape(status)}\s*\|?\s*\n?\s*([^\n|]+)", table)
        if found is not None:
            words = " ".join(f"{status} {found.group(1).strip()}".split())
            return f'{file}, Status Codes, row {status}: "{words}"'
    return ""
