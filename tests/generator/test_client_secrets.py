"""Secret values never leave the generated client through its validation errors.

The spec marks them (``x-modelarts-sensitive``): ``algorithm.environments``, a parameter's
``value`` when its ``constraint.sensitive`` is set, the remote-access tokens of a job. Whatever
the secret (any text, including text that looks like the rest of the message), the exception
is the same as for any other secret: its ``str``, ``repr``, ``args``, attributes, ``errors``,
``__cause__`` and ``__context__`` hold nothing of it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from modelarts_training_client import (
    DecodeError,
    RequestValidationError,
    ResponseValidationError,
    TokenAuth,
    TrainingJobsClient,
)

PROJECT_ID = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
JOB_ID = "3faf7e3b-1d5c-4e2e-9a3b-7f6d2c1b0a99"
PLACEHOLDER = "\x00placeholder\x00"


def _never_called(request: httpx.Request) -> httpx.Response:
    raise AssertionError(f"a request was sent: {request.method} {request.url}")


def _client(
    handler: Callable[[httpx.Request], httpx.Response] = _never_called,
) -> TrainingJobsClient:
    return TrainingJobsClient(
        project_id=PROJECT_ID,
        base_url="http://127.0.0.1:9",
        auth=TokenAuth("t"),
        transport=httpx.MockTransport(handler),
    )


def _job(algorithm: dict[str, Any], **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "kind": "job",
        "metadata": {"name": "secret-test"},
        "algorithm": algorithm,
        "spec": {"resource": {"flavor_id": "modelarts.p3.large.public", "node_count": 1}},
    }
    body.update(extra)
    return body


# Each case: a create body (or a show answer) holding ``secret`` where the spec says a secret
# is, shaped so that validation fails at the secret, at a container of it, or beside it.
REQUESTS: dict[str, Callable[[str], dict[str, Any]]] = {
    # an environment variable of the wrong type: the error is at the variable itself
    "env-value-wrong-type": lambda s: _job({"code_dir": "/a/", "boot_file": "/a/b.py",
                                            "environments": {"KEY": [s]}}),
    # environments neither a map nor a list of maps (the response shape a create also
    # takes): the error's value is the container holding the secret
    "env-container-wrong-type": lambda s: _job({"code_dir": "/a/", "boot_file": "/a/b.py",
                                                "environments": [["KEY", s]]}),
    # a required field missing: pydantic's input is the whole body, secrets included
    "missing-field-beside-env": lambda s: {
        k: v for k, v in _job({"environments": {"KEY": s}}).items() if k != "metadata"
    },
    # a sensitive parameter whose value has the wrong type
    "sensitive-parameter-value": lambda s: _job({"code_dir": "/a/", "boot_file": "/a/b.py",
        "parameters": [{"name": "p", "value": [s], "constraint": {"sensitive": True}}]}),
    # a sensitive parameter beside a broken one: the error's value is the parameter list
    "sensitive-parameter-in-bad-list": lambda s: _job({"code_dir": "/a/", "boot_file": "/a/b.py",
        "parameters": {"p": {"name": "p", "value": s, "constraint": {"sensitive": True}}}}),
    # a sensitive parameter whose flag is broken ("yes"): still masked
    "sensitive-flag-not-boolean": lambda s: _job({"code_dir": "/a/", "boot_file": "/a/b.py",
        "parameters": [{"name": "p", "value": s, "constraint": {"sensitive": "yes"}}]}),
    # a sensitive parameter of a task (tasks[].algorithm.job_config.parameters[].value)
    "task-parameter-value": lambda s: {
        "kind": "job",
        "metadata": {"name": "secret-test"},
        "algorithm": {"code_dir": "/a/", "boot_file": "/a/b.py"},
        "tasks": [{"role": "worker", "algorithm": {"job_config": {
            "parameters": [{"name": "p", "value": {"v": s}, "constraint": {"sensitive": True}}]
        }}}],
    },
}  # fmt: skip


def _texts(exc: BaseException) -> list[str]:
    """Everything an exception shows: str, repr, args and every attribute (recursively as
    repr), and the same for its cause and context."""
    texts = [str(exc), repr(exc), repr(exc.args)]
    texts += [f"{name}={value!r}" for name, value in sorted(vars(exc).items())]
    for linked in (exc.__cause__, exc.__context__):
        if linked is not None:
            texts += _texts(linked)
    return texts


def _request_error(case: str, secret: str) -> RequestValidationError:
    with pytest.raises(RequestValidationError) as caught:
        _client().create_training_job(REQUESTS[case](secret))
    return caught.value


def _assert_secret_absent(error: BaseException, baseline: BaseException, secret: str) -> None:
    texts, expected = _texts(error), _texts(baseline)
    # The exception does not depend on the secret at all ...
    assert texts == expected
    # ... so the secret appears only where any text would (e.g. a secret "a" or "body").
    if not any(secret in text for text in expected):
        assert not any(secret in text for text in texts)
    assert error.__cause__ is None
    assert error.__context__ is None


@pytest.mark.parametrize("case", sorted(REQUESTS))
@given(secret=st.text())
def test_a_request_secret_never_appears_in_the_error(case: str, secret: str) -> None:
    error = _request_error(case, secret)
    _assert_secret_absent(error, _request_error(case, PLACEHOLDER), secret)


def test_the_error_still_names_the_field_and_the_rule() -> None:
    # The rule is pydantic's one-line message: asserted as present, not by its words.
    error = _request_error("env-value-wrong-type", "AKIA-secret-1")
    # environments may be a map or a list of maps (the show response's shape): one problem
    # per shape, each at a member of the body (no name of pydantic's for the shape in the path)
    assert [(path, value) for path, _, value in error.errors] == [
        ("body.algorithm.environments.KEY", "***"),
        ("body.algorithm.environments", "***"),
    ]
    for field, rule, value in error.errors:  # the rule's wording is pydantic's: not asserted
        assert rule.strip()
        assert "\n" not in rule
        assert f"{field}: {rule} (got '{value}')" in str(error)
    error = _request_error("sensitive-parameter-value", "AKIA-secret-2")
    assert any(
        (field, value) == ("body.algorithm.parameters.0.value", "***") and rule.strip()
        for field, rule, value in error.errors
    ), error.errors


def test_values_the_spec_does_not_mark_are_still_shown() -> None:
    """Masking is not blanket: an ordinary parameter's value is shown."""
    body = _job({"code_dir": "/a/", "boot_file": "/a/b.py", "parameters": [
        {"name": "p", "value": ["visible-1"], "constraint": {"sensitive": False}},
        {"name": "q", "value": ["visible-2"]},
    ]})  # fmt: skip
    with pytest.raises(RequestValidationError) as caught:
        _client().create_training_job(body)
    assert "visible-1" in str(caught.value)
    assert "visible-2" in str(caught.value)


def _job_answer(secret: str, where: str) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "kind": "job",
        "metadata": {"id": JOB_ID, "name": "secret-test"},
        "status": {"phase": "Running"},
        "algorithm": {"code_dir": "/a/", "boot_file": "/a/b.py"},
    }
    if where == "token":
        answer["endpoints"] = {"jupyter_lab": {"url": "https://x", "token": [secret]}}
    elif where == "environments":
        answer["algorithm"]["environments"] = {"KEY": secret}  # a map where a list belongs
    else:
        answer["algorithm"]["environments"] = [{"KEY": secret}]
        answer["metadata"] = {"id": JOB_ID, "name": 5}  # broken beside the secret
        del answer["kind"]
    return answer


def _answer_error(secret: str, where: str) -> DecodeError:
    body = json.dumps(_job_answer(secret, where)).encode()
    client = _client(lambda request: httpx.Response(200, content=body))
    with pytest.raises(ResponseValidationError) as caught:
        client.show_training_job_details(JOB_ID)
    return caught.value


@pytest.mark.parametrize("where", ["token", "environments", "beside"])
@given(secret=st.text())
def test_an_answer_secret_never_appears_in_the_error(where: str, secret: str) -> None:
    error = _answer_error(secret, where)
    _assert_secret_absent(error, _answer_error(PLACEHOLDER, where), secret)
