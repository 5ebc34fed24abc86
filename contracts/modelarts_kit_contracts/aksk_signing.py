"""The headers that sign one request with ``SDK-HMAC-SHA256``, whatever HTTP stack sends it:
the one function both the ``requests`` and the ``httpx`` adapters of :mod:`.transport_auth`
and :mod:`.httpx_auth` wrap."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from urllib.parse import urlsplit

from modelarts_kit_wire.signing import (
    DATE_FORMAT,
    DATE_HEADER,
    RequestParts,
    authorization,
    canonical_request,
    sign,
    string_to_sign,
)

__all__ = ["SIGNED_HEADER_CANDIDATES", "sign_request"]

# Headers covered by the signature when present. A fixed set keeps the signature stable
# across HTTP stacks (user agents, connection and encoding headers differ); the receiver
# verifies exactly the headers named in SignedHeaders.
SIGNED_HEADER_CANDIDATES = ("content-type", "host", "x-project-id", "x-sdk-date")


def sign_request(
    method: str,
    url: str,
    headers: Mapping[str, str],
    body: bytes | None,
    *,
    ak: str,
    sk: str,
    now: datetime | None = None,
) -> dict[str, str]:
    """The headers to add so the request carries a valid ``SDK-HMAC-SHA256`` signature.

    Returns ``X-Sdk-Date`` (unless ``headers`` already has one, which is then signed as is),
    ``Host`` (when absent) and ``Authorization``.
    """
    parts = urlsplit(url)
    lowered = {k.lower(): str(v).strip() for k, v in headers.items()}
    added: dict[str, str] = {}
    if DATE_HEADER.lower() in lowered:
        date_value = lowered[DATE_HEADER.lower()]
    else:
        date_value = (now or datetime.now(UTC)).strftime(DATE_FORMAT)
        added[DATE_HEADER] = date_value
        lowered[DATE_HEADER.lower()] = date_value
    if "host" not in lowered:
        added["Host"] = parts.netloc
        lowered["host"] = parts.netloc
    signed = sorted(name for name in SIGNED_HEADER_CANDIDATES if name in lowered)
    # The canonical request and the signature come from modelarts_kit_wire.signing, which the
    # reference server's verifier imports too: the kit holds one implementation of the
    # algorithm (both sides are tested against huaweicloudsdkcore's signer).
    received = RequestParts(
        method=method,
        raw_path=parts.path or "/",
        query_string=parts.query,
        headers=lowered,
        body=body or b"",
    )
    signature = sign(sk, string_to_sign(canonical_request(received, signed), date_value))
    added["Authorization"] = authorization(ak, signed, signature)
    return added
