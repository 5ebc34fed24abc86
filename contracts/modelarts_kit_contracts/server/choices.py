"""What a server may decide for itself: the verdicts between the two envelopes.

A body inside must-accept must be accepted; a body outside must-reject must be refused;
anything in between is the server's own choice, recorded as an
:class:`~modelarts_kit_contracts.core.Observation` ("ignores unknown fields", "enforces:
/tasks/2/... needs exactly one of dataset, obs"), never a failure. The envelopes themselves
come from :mod:`modelarts_kit_contracts.core.envelopes`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from modelarts_kit_contracts.core import Finding, Observation
from modelarts_kit_contracts.core.envelopes import NULLABLE, BrokenRule, Placement
from modelarts_kit_contracts.server.meaning import ErrorMeaning, accepted_codes

if TYPE_CHECKING:
    from modelarts_kit_contracts.server.api_map import ApiMap

__all__ = ["answer_choices", "choices_made", "cite", "cite_response", "demanded"]

JSON = Any
# Checks that demand acceptance of valid data, and rejection of invalid data.
ACCEPTANCE_CHECKS = frozenset({"positive_data_acceptance", "valid_request_accepted"})
REJECTION_CHECKS = frozenset({"negative_data_rejection"})


def _state_dependent(api: ApiMap, operation_id: str, code: JSON) -> bool:
    """A 400 a valid body can meet (unknown job, name in use): no choice about the body."""
    role = next((r for r, op in api.roles() if op.operation_id == operation_id), None)
    if role is None:
        return False
    codes = accepted_codes(api, role, 400, ErrorMeaning.NOT_FOUND) | accepted_codes(
        api, role, 400, ErrorMeaning.DUPLICATE_NAME
    )
    return code in codes


def choices_made(
    api: ApiMap, operation_id: str, body: JSON, status: int, code: JSON = None, *, check: str = ""
) -> tuple[Observation, ...]:
    """What the server chose answering ``status`` to ``body`` (nothing: no choice was open).

    Only a body between the envelopes leaves a choice, and only an acceptance (2xx) or a
    refusal of the data (400/422 but for an unknown job or a name in use) says which. An
    acceptance ignores every rule the body breaks; a refusal enforces at least one of them.
    """
    accepted = 200 <= status < 300
    refused = status in (400, 422) and not _state_dependent(api, operation_id, code)
    if not (accepted or refused):
        return ()  # an answer that says nothing of the body: not placed (a 401, a 404, a 5xx)
    envelopes = api.envelopes
    if envelopes.place(operation_id, body) is not Placement.BETWEEN:
        return ()
    rules = envelopes.broken(envelopes.must_accept, operation_id, body)
    if not rules:
        return ()
    if accepted:
        return tuple(_observed(rule, _accepted(rule), operation_id, check) for rule in rules)
    named = list(dict.fromkeys(f"{rule.choice} ({rule.strength})" for rule in rules))
    enforced = "; ".join(named)
    if len(named) == 1 and rules[0].keyword == "additionalProperties":
        enforced = f"refuses {rules[0].choice}"
    elif len(named) > 1:
        enforced = f"enforces at least one of: {enforced}"
    else:
        enforced = f"enforces: {enforced}"
    return (_observed(rules[0], enforced, operation_id, check),)


def answer_choices(
    api: ApiMap, operation_id: str, status: int, body: JSON, *, check: str = ""
) -> tuple[Observation, ...]:
    """What the server chose in an answer where only the ledger decided (a field the ledger
    made required, the ``error_code`` pattern): a decision binds no server, so an answer
    departing from one is an observation, never a failure."""
    return tuple(
        _observed(
            rule,
            f"answers outside a decision: {rule.keyword} at {rule.pointer}",
            operation_id,
            check,
        )
        for rule in api.envelopes.answer_decisions(operation_id, status, body)
    )


def _observed(rule: BrokenRule, choice: str, operation_id: str, check: str) -> Observation:
    return Observation(
        choice, check=check, operation=operation_id, pointer=rule.pointer, evidence=rule.evidence
    )


def _accepted(rule: BrokenRule) -> str:
    if rule.keyword == "additionalProperties":
        return f"ignores {rule.choice}"
    if rule.keyword == NULLABLE:
        return f"accepts {rule.choice} ({rule.strength})"
    return f"does not enforce: {rule.choice} ({rule.strength})"


def demanded(api: ApiMap, check: str, operation_id: str, body: JSON, body_negative: bool) -> bool:
    """Whether ``check`` may fail for ``body``: acceptance only of must-accept bodies,
    rejection only of bodies outside must-reject (a body generated as valid never is)."""
    if check in ACCEPTANCE_CHECKS:
        return api.envelopes.place(operation_id, body) is Placement.MUST_ACCEPT
    if check in REJECTION_CHECKS and body_negative:
        return api.envelopes.place(operation_id, body) is Placement.MUST_REJECT
    return True


def cite(api: ApiMap, finding: Finding, operation_id: str, body: JSON = None) -> Finding:
    """``finding`` with the evidence of its rule: its own, else that of the first must-reject
    rule ``body`` breaks, else that of the operation it was found on."""
    if finding.evidence:
        return finding
    envelopes = api.envelopes
    if body is not None:
        rules = envelopes.broken(envelopes.must_reject, operation_id, body)
        if rules:
            return finding.but(evidence=rules[0].evidence)
    try:
        pointer = api.spec.operation(operation_id).pointer
    except KeyError:
        return finding.but(evidence=envelopes.evidence(""))
    return finding.but(evidence=envelopes.evidence(pointer))


def cite_response(api: ApiMap, finding: Finding, operation_id: str, status: int) -> Finding:
    """``finding`` about a response body, with the evidence of the response rule it names
    (its pointer into the body and its keyword), else that of the documented response."""
    if finding.evidence:
        return finding
    operation = api.spec.operation(operation_id)
    response = operation.response_for(status)
    where = f"{operation.pointer}/responses"
    if response is None or response.schema is None:
        return finding.but(evidence=api.envelopes.evidence(where))
    view = api.spec.walker.at_pointer(response.schema, finding.pointer)
    if view is None or not view.pointer or not finding.rule:
        return finding.but(evidence=api.envelopes.evidence(f"{where}/{response.status}"))
    return finding.but(evidence=api.envelopes.rule(view.pointer, finding.rule)[1])
