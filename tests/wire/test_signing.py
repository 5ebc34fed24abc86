"""``modelarts_kit_wire.signing``: the SDK-HMAC-SHA256 algorithm against the official SDK's signer
(the oracle), and the layer rule that checking a third-party server loads no reference server.
"""

from __future__ import annotations

from types import SimpleNamespace
from urllib.parse import quote

from huaweicloudsdkcore.sdk_request import SdkRequest
from huaweicloudsdkcore.signer.signer import Signer
from hypothesis import given
from hypothesis import strategies as st
from modelarts_kit_wire.signing import (
    RequestParts,
    authorization,
    canonical_request,
    parse_authorization,
    sign,
)
from modelarts_kit_wire.signing import string_to_sign as text_to_sign

from tests.fresh_process import printed_in_a_fresh_process

AK = "AKSIGNINGTEST000001"
DATE = "20261123T010203Z"
SEGMENT = st.text(st.characters(codec="utf-8", exclude_characters="/"), min_size=1, max_size=12)
QUERY_TEXT = st.text(st.characters(codec="utf-8"), max_size=8)


@given(
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE"]),
    segments=st.lists(SEGMENT, min_size=1, max_size=4),
    query=st.lists(st.tuples(QUERY_TEXT.filter(bool), QUERY_TEXT), max_size=3),
    body=st.binary(max_size=200),
    secret=st.text(st.characters(codec="utf-8"), min_size=1, max_size=40),
    project=st.from_regex(r"[0-9a-f]{32}", fullmatch=True),
)
def test_the_signature_is_the_vendor_sdks(
    method: str,
    segments: list[str],
    query: list[tuple[str, str]],
    body: bytes,
    secret: str,
    project: str,
) -> None:
    path = "/" + "/".join(segments)
    headers = {"X-Sdk-Date": DATE, "Host": "127.0.0.1:8000", "X-Project-Id": project}
    if body:
        headers["Content-Type"] = "application/json"
    request = SdkRequest(
        method=method,
        schema="http",
        host="127.0.0.1:8000",
        resource_path=path,
        query_params=list(query),
        header_params=dict(headers),
        body=body,
    )
    Signer(SimpleNamespace(ak=AK, sk=secret)).sign(request)
    expected = str(request.header_params["Authorization"])

    signed = sorted(name.lower() for name in headers)
    received = RequestParts(
        method=method,
        raw_path="/".join(quote(segment, safe="") for segment in ["", *segments]),
        query_string="&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in query),
        headers={name.lower(): value for name, value in headers.items()},
        body=body,
    )
    signature = sign(secret, text_to_sign(canonical_request(received, signed), DATE))
    assert authorization(AK, signed, signature) == expected
    parsed = parse_authorization(expected)
    assert parsed is not None
    assert (parsed.access_key, parsed.signed_headers, parsed.signature) == (
        AK,
        tuple(signed),
        signature,
    )


def test_the_authorization_header_is_read_with_one_grammar() -> None:
    spaced = "  SDK-HMAC-SHA256 Access=AK1 ,SignedHeaders=Host;x-sdk-date , Signature=AbC0  "
    parsed = parse_authorization(spaced)
    assert parsed is not None
    # As sent: how strict to be about case and order is the receiver's choice.
    assert (parsed.access_key, parsed.signed_headers, parsed.signature) == (
        "AK1",
        ("Host", "x-sdk-date"),
        "AbC0",
    )
    assert "AK1" not in repr(parsed)
    for malformed in (
        "SDK-HMAC-SHA256",
        "SDK-HMAC-SHA256 Credential=AK/20190307/cn/apig, SignedHeaders=host, Signature=ab",
        "SDK-HMAC-SHA256 Access=AK, SignedHeaders=host, Signature=not-hex",
        "Basic QUs6U0s=",
    ):
        assert parse_authorization(malformed) is None, malformed


def test_request_parts_repr_shows_no_header() -> None:
    parts = RequestParts("GET", "/x", "", {"x-auth-token": "secret-token-value"}, b"")
    assert "secret-token-value" not in repr(parts)


def test_the_contract_signer_loads_no_reference_server() -> None:
    code = (
        "import sys, modelarts_kit_contracts.transport_auth\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('modelarts_kit_server', 'uvicorn', 'sqlite3', 'starlette'))\n"
        "print(loaded)"
    )
    assert printed_in_a_fresh_process(code) == ["[]"]
