"""What the server checks need to know about the API's meaning: asked of the spec's meaning
layer (``spec.meaning``, :mod:`modelarts_kit_spec.meaning`) and nowhere else.

- :func:`accepted_codes`: which ``ModelArts.NNNN`` codes may answer ``role`` with ``status``
  for a given meaning (an invalid parameter, an unsupported action, an unknown job...): the
  codes the spec's ``x-modelarts-error-codes`` lists there. A check accepts any of them and
  never demands a code the spec does not list for that operation and status;
- :func:`lifecycle`: the final phases, and the phases a terminate answer may report
  (``x-modelarts-lifecycle``);
- :func:`obligations`: the spec document with the guidance rules stripped
  (``Spec.obligations()``, the must-reject envelope), i.e. the rules a server must enforce (the
  negative phase and the rejection checks use it);
- :func:`acceptance_document`: the same with must-accept request bodies (the positive phase).

Nothing here knows a phase name or an error code: a spec without the meaning extensions is
refused when the run starts (:class:`~modelarts_kit_spec.meaning.MeaningError`, exit 2, naming
the missing extension), never checked against a built-in table.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from modelarts_kit_spec.load import pointer_join, resolve_pointer

if TYPE_CHECKING:
    from modelarts_kit_spec.meaning import Role

    from modelarts_kit_contracts.server.api_map import ApiMap

__all__ = [
    "ErrorMeaning",
    "LifecyclePhases",
    "acceptance_document",
    "accepted_codes",
    "lifecycle",
    "obligations",
]


class ErrorMeaning(StrEnum):
    """The error meanings the checks ask about (keys of the spec's ``x-modelarts-error-codes``)."""

    INVALID_PARAMETER = "invalid-parameter"
    MALFORMED_BODY = "malformed-body"
    UNSUPPORTED_ACTION = "unsupported-action"
    NOT_FOUND = "not-found"
    NOT_TERMINABLE = "not-terminable"
    DUPLICATE_NAME = "duplicate-name"
    TASK_NOT_FOUND = "task-not-found"


def accepted_codes(api: ApiMap, role: Role, status: int, meaning: ErrorMeaning) -> frozenset[str]:
    """The codes the spec lists for ``role`` answering ``status`` with ``meaning``."""
    operation_id = api.operation(role).operation_id
    return api.spec.meaning.errors.codes_for(operation_id, str(meaning), status=status)


@dataclass(frozen=True)
class LifecyclePhases:
    final_phases: frozenset[str]
    terminate_accepted_phases: frozenset[str]  # what an accepted terminate may report


def lifecycle(api: ApiMap) -> LifecyclePhases:
    """The spec's lifecycle, as the checks use it."""
    found = api.spec.meaning.lifecycle
    return LifecyclePhases(
        final_phases=frozenset(found.final),
        # an accepted terminate shows the stopping phase, or a phase it leads to
        terminate_accepted_phases=found.reachable(found.stopping),
    )


def obligations(api: ApiMap) -> dict[str, Any]:
    """The obligations view's document (for schemathesis's negative cases)."""
    return copy.deepcopy(dict(api.obligations.document))


def _accepted_parameters(document: dict[str, Any], accept: Any) -> None:
    """Path, query and header parameters as must-accept has them: valid data offers only
    documented enum values (flavors' CPU and GPU, not the SDK's Ascend) and respects what
    the ledger decided (the ids' patterns)."""
    shared = accept.get("components", {}).get("parameters")
    if isinstance(shared, dict):
        document.setdefault("components", {})["parameters"] = copy.deepcopy(shared)
    for path, item in document.get("paths", {}).items():
        for method, operation in item.items():
            accepted = accept.get("paths", {}).get(path, {}).get(method)
            if (
                isinstance(operation, dict)
                and isinstance(accepted, dict)
                and "parameters" in accepted
            ):
                operation["parameters"] = copy.deepcopy(accepted["parameters"])


def acceptance_document(api: ApiMap) -> dict[str, Any]:
    """The document schemathesis draws valid data from: each request body the must-accept
    envelope's (inlined: request and response shapes share components), every response
    still must-reject's, so an answer fails only against what a page states."""
    document = obligations(api)
    accept = api.envelopes.must_accept
    _accepted_parameters(document, accept.document)
    for role, operation in api.roles():
        schema = accept.operation(operation.operation_id).request_schema
        if schema is None:
            continue
        media = resolve_pointer(document, api.request_pointer(role).rsplit("/", 1)[0])
        media["schema"] = accept.inline(schema)
        # A body only the ledger marks required is optional in must-reject, required in
        # must-accept: valid data always carries it.
        body = resolve_pointer(document, pointer_join(operation.pointer, "requestBody"))
        if isinstance(body, dict):
            body["required"] = accept.operation(operation.operation_id).request_required
    return document
