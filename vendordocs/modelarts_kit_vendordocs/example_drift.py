"""Examples against the spec: every JSON example a page prints is one of the spec's examples
of the same operation, side and status (the spec embeds each page example as an ``examples:``
entry, verbatim; see spec/README.md).

The vendor elides items of a long array with a string of dots (``[ {...}, "......", {...} ]``,
the engines page): the spec's copy leaves the marker out, so both sides are compared without
such items.

An example the spec does not hold is an ``example`` finding (field ``(example)``, direction
``docs``): a new page revision whose example changed shows here even when no table did. A
ledger entry of kind ``example`` whose source for the page says ``(not embedded)`` settles
that page's examples on that side.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from modelarts_kit_spec import Operation, Spec

from modelarts_kit_vendordocs.findings import DriftFinding
from modelarts_kit_vendordocs.inventory import Inventory
from modelarts_kit_vendordocs.settle import NOT_EMBEDDED

__all__ = ["EXAMPLE_FIELD", "example_findings", "without_elisions"]

EXAMPLE_FIELD = "(example)"
_JSON = "application~1json"
_ELISION_RE = re.compile(r"^(?:\.{3,}|…+)$")


def without_elisions(value: Any) -> Any:
    """``value`` without the array items that only mark an elision (``"......"``)."""
    if isinstance(value, Mapping):
        return {key: without_elisions(item) for key, item in value.items()}
    if isinstance(value, list):
        return [
            without_elisions(item)
            for item in value
            if not (isinstance(item, str) and _ELISION_RE.match(item.strip()))
        ]
    return value


def _media_examples(spec: Spec, response_or_body: Any) -> Iterator[tuple[str, Any]]:
    """(name, value) of every example of every media type of a request body or response."""
    node = spec.deref(response_or_body) if isinstance(response_or_body, Mapping) else {}
    for media in (node.get("content") or {}).values():
        if not isinstance(media, Mapping):
            continue
        if "example" in media:
            yield "example", media["example"]
        for name, example in (media.get("examples") or {}).items():
            resolved = spec.deref(example) if isinstance(example, Mapping) else {}
            if "value" in resolved:
                yield str(name), resolved["value"]


def _spec_examples(
    spec: Spec, operation: Operation, side: str, status: int | None
) -> tuple[str, list[tuple[str, Any]]]:
    """Where the examples of one side live (a pointer) and what they are."""
    node = spec.at(operation.pointer)
    if side == "request":
        return (
            f"{operation.pointer}/requestBody/content/{_JSON}/examples",
            list(_media_examples(spec, node.get("requestBody"))),
        )
    response = None if status is None else operation.response_for(status)
    if response is None:
        return f"{operation.pointer}/responses", []
    return (
        f"{response.pointer}/content/{_JSON}/examples",
        list(_media_examples(spec, spec.at(response.pointer))),
    )


def _shape(value: Any) -> str:
    if isinstance(value, Mapping):
        keys = list(value)
        shown = ", ".join(keys[:4]) + (", ..." if len(keys) > 4 else "")
        return f"an object ({shown})"
    if isinstance(value, list):
        return f"an array of {len(value)}"
    return "a value"


def example_findings(
    spec: Spec, operation: Operation, pages: list[Inventory]
) -> list[DriftFinding]:
    findings: list[DriftFinding] = []
    for page in pages:
        name = Path(page.source).name
        for example in page.examples:
            pointer, embedded = _spec_examples(spec, operation, example.side, example.status)
            shown = without_elisions(example.value)
            if any(without_elisions(value) == shown for _, value in embedded):
                continue
            names = ", ".join(n for n, _ in embedded)
            findings.append(
                DriftFinding(
                    operation=operation.operation_id,
                    kind="example",
                    side=example.side,
                    status=example.status,
                    field=EXAMPLE_FIELD,
                    direction="docs",
                    docs=f"example {_shape(example.value)}",
                    spec=f"examples {names}" if names else "no example",
                    page=name,
                    line=example.line,
                    pointer=pointer,
                    value=NOT_EMBEDDED,
                )
            )
    return findings
