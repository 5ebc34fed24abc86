"""Before any phase: is the run set up right? The user's mistakes are told from the server's.

:func:`check_path_parameters` validates ``--project-id`` (and ``--other-project-id``) against
the spec's own path-parameter schema. :func:`preflight` then sends one harmless request per
operation (show and terminate of an id that cannot exist, valid for the spec's id pattern;
create with an empty body, which every server must reject) and classifies what comes back:

==================  ==============================================================
connection          refused, unreachable host, TLS failure, no answer in time
credentials         401 or 403 (the token or the AK/SK signature is rejected)
project             404 with a code the spec documents for 404 (the project is not
                    reachable with these credentials: ModelArts.2786)
not this API        every probe answered HTML or 404/405 without a JSON body, or every
                    probe answered 404 (a wrong base URL, an extra or missing path
                    prefix such as ``/v2``)
==================  ==============================================================

Each problem is one line saying what to fix, raised as :class:`PreflightError` (exit 2), so a
wrong token costs two requests instead of a thousand. Anything else (a JSON answer of any
status) means the target speaks the API; the checks judge the rest.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

import requests
from modelarts_kit_spec.meaning import Role

from modelarts_kit_contracts.core import clip
from modelarts_kit_contracts.server.api_map import ApiMap
from modelarts_kit_contracts.server.guard import AnswerTooLarge
from modelarts_kit_contracts.server.probe import ProbeResponse
from modelarts_kit_contracts.server.target import ServerCheckError

__all__ = ["PreflightError", "check_path_parameters", "preflight"]

Problem = Literal["connection", "credentials", "project", "not-this-api"]


class PreflightError(ServerCheckError):
    """The run cannot be meaningful: a user mistake or an unreachable target (exit 2)."""

    def __init__(self, kind: Problem, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def check_path_parameters(api: ApiMap, values: Mapping[str, tuple[str, str]]) -> None:
    """Validate option values against the spec's path parameters.

    ``values`` maps a parameter name to ``(option, value)``, e.g.
    ``{"project_id": ("--project-id", "p/1")}``.
    """
    for op in (api.create, api.show):
        for parameter in op.parameters:
            if parameter.location != "path" or parameter.name not in values:
                continue
            option, value = values[parameter.name]
            schema = parameter.schema or {}
            errors = sorted(api.spec.validator(schema).iter_errors(value), key=str)
            if errors:
                first = errors[0]
                raise ServerCheckError(
                    f"{option} {value!r}: breaks the spec's rule for path parameter "
                    f"{parameter.name!r} ({first.validator} {first.validator_value!r})"
                )


@dataclass(frozen=True)
class _Answer:
    role: Role
    label: str
    response: ProbeResponse


def _is_json_object(response: ProbeResponse) -> bool:
    document = response.json()
    return isinstance(document, dict)


def _classify(api: ApiMap, answer: _Answer) -> tuple[Problem, str] | None:
    response = answer.response
    code = response.json().get("error_code") if _is_json_object(response) else None
    shown = f"HTTP {response.status}" + (f" {code}" if isinstance(code, str) else "")
    if response.status in (401, 403):
        return "credentials", shown
    content_type = response.content_type.split(";")[0].strip().lower()
    looks_html = content_type == "text/html" or response.body.lstrip()[:1] == b"<"
    if looks_html or (response.status in (404, 405) and not _is_json_object(response)):
        kind = content_type or "no content type"
        return "not-this-api", f"HTTP {response.status} {kind}"
    if (
        response.status == 404
        and isinstance(code, str)
        and code in api.spec.meaning.errors.codes(api.operation(answer.role).operation_id, 404)
    ):
        return "project", shown
    return None


def preflight(
    api: ApiMap,
    send: Callable[[Role, str, Any], ProbeResponse],
    *,
    base_url: str,
    project_id: str,
    credential_hint: str,
    seed: int = 0,
) -> None:
    """Raise :class:`PreflightError` when the target cannot be checked meaningfully."""
    missing = f"preflight-{random.Random(seed).getrandbits(96):024x}"  # same seed, same run
    answers: list[_Answer] = []
    # show and terminate of a job that cannot exist; create with an empty body, which breaks
    # the required fields every server must enforce: no probe can create or stop a job.
    probes: tuple[tuple[Role, Any], ...] = (
        (Role.SHOW, None),
        (Role.TERMINATE, api.example_body(Role.TERMINATE)),
        (Role.CREATE, {}),
    )
    for role, body in probes:
        op = api.operation(role)
        label = f"{op.method.upper()} {base_url}{api.path(role, project_id, missing)}"
        try:
            response = send(role, missing, body)
        except requests.exceptions.ConnectionError as exc:
            text = str(exc).lower()
            reason = (
                "connection refused (is the server running?)"
                if "refused" in text
                else "certificate or TLS failure"
                if "ssl" in text or "certificate" in text
                else "host not found"
                if "name or service" in text or "resolve" in text or "getaddrinfo" in text
                else "cannot connect"
            )
            raise PreflightError("connection", f"cannot reach {base_url}: {reason}") from None
        except requests.exceptions.Timeout as exc:
            raise PreflightError(
                "connection", f"cannot reach {base_url}: {exc} on {label}"
            ) from None
        except AnswerTooLarge:
            raise  # the server's violation, not a connection problem: the run records it
        except requests.exceptions.RequestException as exc:
            # The answer broke off (closed mid-body, Content-Length lying, bad gzip, over the
            # size cap): as with a timeout, nothing can be checked over such a connection.
            raise PreflightError(
                "connection",
                f"no complete answer from {base_url} on {label}: {type(exc).__name__}: "
                f"{clip(str(exc), 200)}",
            ) from None
        answers.append(_Answer(role, label, response))
    problems = [(answer, _classify(api, answer)) for answer in answers]
    for answer, problem in problems:
        if problem is not None and problem[0] == "credentials":
            raise PreflightError(
                "credentials",
                f"credentials rejected: {answer.label} answered {problem[1]}; "
                f"check {credential_hint}",
            )
    for answer, problem in problems:
        if problem is not None and problem[0] == "project":
            raise PreflightError(
                "project",
                f"project {project_id!r} is not reachable with these credentials: "
                f"{answer.label} answered {problem[1]}; check --project-id (the project of "
                "the token or of the AK/SK)",
            )
    if all(problem is not None and problem[0] == "not-this-api" for _, problem in problems):
        first, problem = problems[0]
        assert problem is not None
        raise PreflightError(
            "not-this-api",
            f"{base_url} does not speak this API: {first.label} answered {problem[1]}; "
            f"{_prefix_hint(api, base_url)}",
        )
    if all(answer.response.status == 404 for answer in answers):
        first = answers[0]
        raise PreflightError(
            "not-this-api",
            f"{base_url} does not speak this API: every operation answered HTTP 404 "
            f"(e.g. {first.label}); {_prefix_hint(api, base_url)}",
        )


def _prefix_hint(api: ApiMap, base_url: str) -> str:
    """What to change in the base URL, when a path prefix is doubled or missing."""
    base_path = urlsplit(base_url).path.rstrip("/")
    first_segment = "/" + api.create.path.strip("/").split("/")[0]  # "/v2"
    if base_path and base_path.endswith(first_segment):
        return (
            f"remove {first_segment!r} from the URL: the spec's paths already start with "
            f"{first_segment}/ (use {base_url[: -len(first_segment)] or base_url})"
        )
    return (
        "give the service's base URL, without the API path (for example "
        "https://modelarts.cn-north-4.myhuaweicloud.com)"
    )
