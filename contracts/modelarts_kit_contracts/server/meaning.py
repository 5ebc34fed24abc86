"""What the server checks need to know about the API's meaning, read from the spec.

The checks ask three questions, and only this module answers them:

- :func:`accepted_codes`: which ``ModelArts.NNNN`` codes may answer ``role`` with ``status``
  for a given meaning (an invalid parameter, an unsupported action, an unknown job...). A check
  accepts any of them and never demands a code the spec does not list for that operation and
  status;
- :func:`lifecycle`: the final phases, and the phases a terminate answer may report;
- :func:`obligations`: the spec document with the guidance rules stripped, i.e. the rules a
  server must enforce (the negative phase and the rejection checks use it).

The spec layer (``modelarts_kit_spec``) is the source: the codes listed for each operation and
status (its descriptions and examples, or its error model when it has one), the lifecycle
extension and the ``x-modelarts-guidance`` markers. :data:`VENDOR_MEANINGS` only groups the
vendor's error table by meaning; it never adds a code the spec does not list.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from modelarts_kit_spec import Spec, SpecError, parse_spec

if TYPE_CHECKING:
    from modelarts_kit_contracts.server.checks import ApiMap, Role

__all__ = [
    "GUIDANCE_KEY",
    "VENDOR_MEANINGS",
    "Lifecycle",
    "Meaning",
    "accepted_codes",
    "documented_codes",
    "guidance_rules",
    "lifecycle",
    "obligations",
    "obligations_spec",
]

CODE = re.compile(r"ModelArts\.\d{4}")
GUIDANCE_KEY = "x-modelarts-guidance"


class Meaning(StrEnum):
    INVALID_PARAMETER = "invalid-parameter"
    MALFORMED_BODY = "malformed-body"
    UNSUPPORTED_ACTION = "unsupported-action"
    NOT_FOUND = "not-found"
    NOT_TERMINABLE = "not-terminable"
    DUPLICATE_NAME = "duplicate-name"


# The vendor's error-code table, grouped by meaning (generic and specific codes alike).
# An unsupported action is also an invalid parameter: both groups answer it.
VENDOR_MEANINGS: Mapping[Meaning, frozenset[str]] = {
    Meaning.INVALID_PARAMETER: frozenset({"ModelArts.0104", "ModelArts.2788"}),
    Meaning.MALFORMED_BODY: frozenset({"ModelArts.2787", "ModelArts.0104"}),
    Meaning.UNSUPPORTED_ACTION: frozenset({"ModelArts.2812", "ModelArts.2788", "ModelArts.0104"}),
    Meaning.NOT_FOUND: frozenset({"ModelArts.2775"}),
    Meaning.NOT_TERMINABLE: frozenset({"ModelArts.2796"}),
    Meaning.DUPLICATE_NAME: frozenset({"ModelArts.2751"}),
}


def documented_codes(api: ApiMap, role: Role, status: int) -> frozenset[str]:
    """Every ``ModelArts.NNNN`` the spec names for ``role`` answering ``status``: in the
    response's description and examples (not in the shared error schema's own examples)."""
    response = api.operation(role).response_for(status)
    if response is None:
        return frozenset()
    node = api.spec.deref(api.spec.at(response.pointer))
    texts = [str(node.get("description", ""))]
    for media in (node.get("content") or {}).values():
        media = api.spec.deref(media)
        texts.append(json.dumps(api.spec.inline(media.get("examples") or {})))
        texts.append(json.dumps(media.get("example")))
        texts.append(json.dumps(media.get("x-modelarts-error-codes")))
    return frozenset(CODE.findall(" ".join(texts)))


def accepted_codes(api: ApiMap, role: Role, status: int, meaning: Meaning) -> frozenset[str]:
    """The codes the spec lists for ``role``/``status`` that carry ``meaning``.

    From the spec's error model (``x-modelarts-error-codes``) when it has one; otherwise the
    codes its description and examples name for that response, grouped by the vendor's table.
    """
    model = _error_model(api)
    if model is not None:
        op = api.operation(role).operation_id
        return frozenset(
            code
            for response in model.responses
            if response.operation_id == op and response.status == str(status)
            for code in response.by_meaning.get(str(meaning), ())
        )
    return documented_codes(api, role, status) & VENDOR_MEANINGS[meaning]


def _spec_meaning(api: ApiMap) -> Any:
    """``load_spec().meaning`` when the spec layer provides it (None otherwise)."""
    try:
        return getattr(api.spec, "meaning", None)
    except SpecError:  # a spec without the extensions (MeaningError): the fallback applies
        return None


def _error_model(api: ApiMap) -> Any:
    model = getattr(_spec_meaning(api), "errors", None)
    return model if model is not None and hasattr(model, "responses") else None


@dataclass(frozen=True)
class Lifecycle:
    final_phases: frozenset[str]
    terminate_accepted_phases: frozenset[str]  # what an accepted terminate may report


# The vendor pages' lifecycle, used when the spec carries no lifecycle extension.
_PAGES_LIFECYCLE = Lifecycle(
    final_phases=frozenset({"Completed", "Failed", "Terminated"}),
    terminate_accepted_phases=frozenset({"Terminating", "Terminated"}),
)


def lifecycle(api: ApiMap) -> Lifecycle:
    """The spec's lifecycle extension; the vendor pages' phases when it has none."""
    found = getattr(_spec_meaning(api), "lifecycle", None)
    if found is None:
        return _PAGES_LIFECYCLE
    return Lifecycle(
        final_phases=frozenset(found.final),
        # an accepted terminate shows the stopping phase, or a phase it leads to
        terminate_accepted_phases=frozenset(found.reachable(found.stopping)),
    )


def guidance_rules(document: Any, pointer: str = "") -> list[tuple[str, str]]:
    """(pointer, keyword) of every guidance rule marked in ``document``."""
    found: list[tuple[str, str]] = []
    if isinstance(document, Mapping):
        for keyword in document.get(GUIDANCE_KEY) or ():
            found.append((pointer, str(keyword)))
        for key, value in document.items():
            found.extend(guidance_rules(value, f"{pointer}/{key}"))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            found.extend(guidance_rules(value, f"{pointer}/{index}"))
    return found


def _strip(node: Any) -> Any:
    if isinstance(node, Mapping):
        marked = set(node.get(GUIDANCE_KEY) or ())
        return {
            key: _strip(value)
            for key, value in node.items()
            if key not in marked and key != GUIDANCE_KEY
        }
    if isinstance(node, list):
        return [_strip(value) for value in node]
    return node


def obligations_spec(spec: Spec) -> Spec:
    """``spec`` without its guidance rules: what a server must enforce."""
    view = getattr(spec, "obligations", None)
    if callable(view):
        return view()  # type: ignore[no-any-return]
    return parse_spec(_strip(copy.deepcopy(spec.document)), spec.path)


def obligations(api: ApiMap) -> dict[str, Any]:
    """The obligations view's document (for schemathesis's negative cases)."""
    return copy.deepcopy(dict(obligations_spec(api.spec).document))
