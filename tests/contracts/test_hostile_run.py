"""``contract server`` against a hostile run: what it knows stays secret (issue 24, rows 11-13).

- row 13: a server that answers the token as a job id and echoes it base64-, base64url- and
  percent-encoded: no form of it reaches stdout, the JSON (``created_jobs`` included), the
  JUnit or the Markdown report, nor a curl line. Before: the id was printed in "created jobs"
  and the JSON ``created_jobs``, and a base64 echo was scrubbed nowhere.
"""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import quote

from hypothesis import given
from hypothesis import strategies as st
from modelarts_kit_contracts.core import Finding, RunReport
from modelarts_kit_contracts.core.redaction import REDACTED, Scrubber
from modelarts_kit_contracts.core.reporters import (
    render_text,
    to_json,
    to_junit_xml,
    to_markdown,
)
from modelarts_kit_contracts.server.run import Budget, RunOptions, run_server_contract
from modelarts_kit_contracts.server.target import ASGI_BASE_URL, ServerTarget
from modelarts_kit_contracts.transport_auth import Credentials
from modelarts_kit_server import DEV_PROJECT_ID, ServerSettings, create_app

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

TOKEN = "tok-Zq81xVv0-secret>~"


def encodings(secret: str) -> dict[str, str]:
    raw = secret.encode()
    return {
        "plain": secret,
        "base64": base64.b64encode(raw).decode(),
        "base64url": base64.urlsafe_b64encode(raw).decode(),
        "base64 unpadded": base64.b64encode(raw).decode().rstrip("="),
        "percent": quote(secret, safe=""),
    }


def every_output(report: RunReport) -> dict[str, str]:
    text = io.StringIO()
    render_text(report, text, color=False)
    return {
        "stdout": text.getvalue(),
        "json": json.dumps(to_json(report)),
        "junit": to_junit_xml(report),
        "markdown": to_markdown(report),
    }


class TokenAsJobId:
    """The reference server, but every created job's id is the caller's token, and every
    error body echoes the token in its encodings."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start: Message = {}
        chunks = bytearray()

        async def capture(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
            else:
                chunks.extend(message.get("body", b""))

        await self.app(scope, receive, capture)
        body = bytes(chunks)
        if start["status"] == 201:
            document = json.loads(body)
            document["metadata"]["id"] = TOKEN
            body = json.dumps(document).encode()
        elif start["status"] >= 400:
            echoed = encodings(TOKEN)
            body = json.dumps(
                {
                    "error_code": "ModelArts.2775",
                    "error_msg": f"job {echoed['base64']} not found",
                    "hint": f"{echoed['base64url']} {echoed['percent']}",
                }
            ).encode()
        headers = [(k, v) for k, v in start["headers"] if k.lower() != b"content-length"]
        headers.append((b"content-length", str(len(body)).encode()))
        await send({**start, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def test_a_token_answered_as_job_id_and_echoed_encoded_reaches_no_output() -> None:
    assert encodings(TOKEN)["base64"] != encodings(TOKEN)["base64url"]
    app = create_app(ServerSettings(tokens=(TOKEN,)))
    try:
        report = run_server_contract(
            ServerTarget(ASGI_BASE_URL, TokenAsJobId(app), force_live=True),
            RunOptions(
                credentials=Credentials(token=TOKEN),
                project_id=DEV_PROJECT_ID,
                other_project_id=DEV_PROJECT_ID[::-1],
                budget=Budget(max_examples=2, seed=7),
                phases=("examples",),
                max_creates=2,
                final_phase_wait_s=0.5,
            ),
        )
    finally:
        app.close()
    assert report.created_jobs, "the run should have created jobs"
    outputs = every_output(report)
    assert f"{REDACTED} (" in outputs["stdout"]  # "created jobs (last phase): [REDACTED] (...)"
    assert {"id": REDACTED} in [
        {"id": job["id"]} for job in json.loads(outputs["json"])["created_jobs"]
    ]
    for where, text in outputs.items():
        for form, value in encodings(TOKEN).items():
            assert value not in text, f"{form} form of the token in {where}"


def test_a_report_built_by_hand_is_scrubbed_by_every_reporter() -> None:
    """The reporters scrub with the report's own scrubber, whoever built the report."""
    from modelarts_kit_contracts.core import CreatedJob

    report = RunReport(target="t")
    report.scrubber.learn(TOKEN)
    forms = encodings(TOKEN)
    report.record("c", Finding("echo", expected="x", got=" ".join(forms.values()), check="c"))
    report.created_jobs.append(CreatedJob(TOKEN, "Running"))
    report.notes.append(f"clean-up: {forms['base64url']}")
    for where, text in every_output(report).items():
        for form, value in forms.items():
            assert value not in text, f"{form} form of the token in {where}"


@given(
    secret=st.text(min_size=12, max_size=40).filter(lambda s: s == s.strip()),
    prefix=st.binary(max_size=7),
    suffix=st.binary(max_size=7),
    urlsafe=st.booleans(),
)
def test_a_secret_inside_a_longer_base64_text_is_scrubbed(
    secret: str, prefix: bytes, suffix: bytes, urlsafe: bool
) -> None:
    """Basic credentials, an echoed blob: the secret at any byte alignment of base64."""
    encode = base64.urlsafe_b64encode if urlsafe else base64.b64encode
    text = encode(prefix + secret.encode() + suffix).decode()
    assert REDACTED in Scrubber([secret])(text)


def test_the_scrubber_shows_no_secret_and_ignores_values_too_short_to_tell() -> None:
    scrub = Scrubber([TOKEN, "abc"])
    assert TOKEN not in repr(scrub)
    assert scrub("abc") == "abc"  # three characters: ordinary text, not scrubbed
    assert scrub(f"X-Auth-Token: anything-else; {TOKEN}") == f"X-Auth-Token: {REDACTED}"
