"""The response checks: rules judged on one exchange (request and response).

Each is a small named function decorated with ``@check`` returning a
:class:`~modelarts_kit_contracts.core.Finding`, or ``None`` when the rule holds. They run on
every response schemathesis gets and on every response of the scenarios.
"""

from __future__ import annotations

import json

from modelarts_kit_spec.meaning import Role
from modelarts_kit_wire.wirejson import MAX_WIRE_JSON_DEPTH

from modelarts_kit_contracts.core import REGISTRY, Check, Finding, check, clip
from modelarts_kit_contracts.core.wire import Exchange, decode_json_body
from modelarts_kit_contracts.server.api_map import ApiMap, member
from modelarts_kit_contracts.server.meaning import ErrorMeaning, accepted_codes, lifecycle

NOT_DESCRIBABLE = "the body is not JSON the spec can describe"


@check(
    product="server",
    title="the job returned is not the job in the path",
    meaning="show/terminate return the job whose id is in the path",
)
def returned_job_matches_path(api: ApiMap, exchange: Exchange) -> Finding | None:
    """A job returned for /{project}/training-jobs/{id} (show or terminate) is job {id}."""
    if (
        api.role_for(exchange) not in (Role.SHOW, Role.TERMINATE)
        or not 200 <= exchange.status < 300
    ):
        return None
    requested = exchange.path_params.get(api.job_param)
    ok, body = exchange.json()
    returned = api.job_id_of(body) if ok else None
    if requested is None or returned == requested:
        return None
    return Finding(
        title="The job returned is not the job in the path",
        expected=f"{api.job_id_name} == {requested!r}",
        got=f"{api.job_id_name} == {returned!r}",
        pointer=api.job_id_pointer,
    )


@check(
    product="server",
    title="an accepted terminate does not answer the terminating job",
    meaning="terminate answers its 2xx with the job in the stopping phase or later",
)
def terminate_accepted_phase(api: ApiMap, exchange: Exchange) -> Finding | None:
    """An accepted terminate answers its documented 2xx with the job in the lifecycle's stopping
    phase or a phase it leads to (with the curated spec: Terminating, Terminated, Abnormal)."""
    if api.role_for(exchange) is not Role.TERMINATE or not 200 <= exchange.status < 300:
        return None
    documented = int(api.terminate.success.status)
    ok, body = exchange.json()
    phase = api.phase_of(body) if ok else None
    if exchange.status != documented:
        return Finding(
            title="Terminate accepted with the wrong status code",
            expected=f"HTTP {documented}",
            got=f"HTTP {exchange.status}",
        )
    accepted = sorted(lifecycle(api).terminate_accepted_phases)
    if phase not in accepted:
        return Finding(
            title="Terminate accepted but the job is not terminating",
            expected=f"{api.phase_name} in {accepted}",
            got=f"{api.phase_name} == {phase!r}",
            pointer=api.phase_pointer,
        )
    return None


@check(
    product="server",
    title="error response without the vendor error body",
    meaning="every error response is JSON with error_code and error_msg (reference/response.rst)",
)
def vendor_error_body(api: ApiMap, exchange: Exchange) -> Finding | None:
    """Every error response (4xx/5xx) is JSON in the vendor's error shape."""
    if exchange.status < 400:
        return None
    body, problem = decode_json_body(exchange.response.body, exchange.response.headers)
    if problem is not None:
        return Finding(
            title="Error response without the vendor error body",
            expected='a JSON body {"error_code": ..., "error_msg": ...}',
            got=f"HTTP {exchange.status} {exchange.response.content_type or 'no content type'}: "
            f"{exchange.response.body[:120]!r} ({NOT_DESCRIBABLE}: {problem})",
        )
    if not exchange.response.content_type.split(";")[0].strip().lower().endswith("json"):
        return Finding(
            title="Error response is not declared as JSON",
            expected="Content-Type: application/json",
            got=f"Content-Type: {exchange.response.content_type or '(none)'}",
        )
    # Judged by must-reject: what only the ledger decided (the ModelArts.NNNN pattern of
    # error_code) binds no server; the run observes it instead.
    judged = api.envelopes.must_reject
    errors = sorted(judged.iter_errors(api.error_schema, body), key=lambda e: list(e.path))
    if errors:
        first = errors[0]
        pointer = "".join(f"/{part}" for part in first.absolute_path)
        # The rule's own evidence: the page's words (reference/response.rst for the two
        # fields every error body carries), not only the operation's page.
        rule = api.spec.schema_model.rule_for_error(
            api.error_schema, first.schema_path, instance=first.instance
        )
        return Finding(
            title="Error body does not follow the vendor error shape",
            expected=f"{first.validator} {first.validator_value!r} at {pointer or '/'}",
            got=f"HTTP {exchange.status}: {json.dumps(body)[:200]}",
            pointer=pointer,
            rule=str(first.validator),
            evidence=rule.cite(),
        )
    return None


@check(
    product="server",
    title="an answer is not JSON the spec can describe",
    meaning="every non-error answer with a body is JSON the spec can describe",
)
def answer_body_decodable(api: ApiMap, exchange: Exchange) -> Finding | None:
    """A 1xx-3xx answer with a body decodes: UTF-8, nested at most 64 levels, finite numbers.

    The spec documents JSON answers only; an answer nested 200,000 levels deep, in invalid
    UTF-8 or with ``NaN`` is no document a schema can describe, and a client cannot read it.
    (Error answers: :func:`vendor_error_body`.)
    """
    if exchange.status >= 400 or not exchange.response.body.strip():
        return None
    _, problem = decode_json_body(exchange.response.body, exchange.response.headers)
    if problem is None:
        return None
    return Finding(
        title="Answer body is not JSON the spec can describe",
        expected=(
            f"a JSON body (UTF-8, nested at most {MAX_WIRE_JSON_DEPTH} levels, finite numbers)"
        ),
        got=f"HTTP {exchange.status}: {NOT_DESCRIBABLE}: {problem}",
    )


@check(
    product="server",
    title="schema-valid request rejected",
    meaning="a must-accept request gets no 400 but not-found/duplicate-name (a body between "
    "the envelopes: an observation)",
)
def valid_request_accepted(api: ApiMap, exchange: Exchange) -> Finding | None:
    """A must-accept request is not refused with 400, except for the state it depends on.

    Only a body every correct server accepts (``exchange.positive``: the schemathesis adapter
    sets it from the must-accept envelope) demands acceptance; a refused body between the
    envelopes is the server's choice, recorded as an observation by the run.

    ModelArts answers 400 for an unknown job, an unknown task of a job (a link's task id from
    ``status.tasks`` before the job has tasks) and a name already in use: a valid request can
    meet all three, so the codes the spec lists for those meanings are not a rejection of its
    data. Any other 400 (an invalid parameter, invalid JSON, ...) is.
    """
    role = api.role_for(exchange)
    if exchange.positive is not True or role is None or exchange.status != 400:
        return None
    ok, body = exchange.json()
    code = member(body, "error_code") if ok else None
    state_dependent = frozenset().union(
        *(
            accepted_codes(api, role, 400, meaning)
            for meaning in (
                ErrorMeaning.NOT_FOUND,
                ErrorMeaning.TASK_NOT_FOUND,
                ErrorMeaning.DUPLICATE_NAME,
            )
        )
    )
    if code in state_dependent:
        return None
    return Finding(
        title="Schema-valid request rejected",
        expected=f"acceptance, or a 400 only with {' / '.join(sorted(state_dependent))}",
        got=f"HTTP 400 {code!r}: {clip(exchange.response.body.decode('utf-8', 'replace'), 160)}",
    )


def response_checks() -> tuple[Check, ...]:
    """The server checks that judge one exchange (run on every response the run sees)."""
    return tuple(c for c in REGISTRY.select("server") if c.function is not None)


# --- scenario checks ----------------------------------------------------------------------------
