"""The one redaction of the kit: every secret a run knows, out of every text it prints.

A :class:`Scrubber` holds the secret values a run knows (the token, the AK and SK it was given,
the credentials the proxy saw a client send) and replaces each by ``[REDACTED]`` in a text,
in the forms a server or a body shows it in:

- plain, JSON-escaped, URL/percent-encoded (``quote``, ``quote_plus``, lower-case hex too);
- base64 and base64url, padded or not, also when the secret sits inside a longer base64 text
  (``Basic`` credentials, an echoed blob) at any byte alignment, and those percent-encoded;

in any case (a hostile server may echo a token upper-cased, lower-cased or with its case
swapped: every form is matched case-insensitively), and then redacts the value of every
credential header (:data:`SECRET_HEADERS`:
``X-Auth-Token: ...``, ``Authorization: ...``) whatever it is. :func:`redact` is that header
redaction alone, for a text no run's secrets are known for; :func:`is_secret_header` says
whether a header's value is a credential (``Headers`` never shows one in its ``repr``).

:func:`scrubbed` copies any value with every string in it scrubbed (the contract kit's reports
carry their scrubber and are rendered through that copy). This module knows no report.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import re
from collections.abc import Iterable
from typing import Any, TypeVar
from urllib.parse import quote, quote_plus

__all__ = [
    "MAX_SECRETS",
    "MIN_SECRET_LENGTH",
    "REDACTED",
    "SECRET_HEADERS",
    "Scrubber",
    "is_secret_header",
    "redact",
    "scrubbed",
]

REDACTED = "[REDACTED]"
# A shorter value cannot be told from ordinary text: scrubbing it would mangle every report.
MIN_SECRET_LENGTH = 4
# A base64 run of fewer characters, cut out of a longer text, could be anything.
MIN_EMBEDDED_B64_CHARS = 12
# The proxy learns credentials from traffic: a client sending a new token with every request
# must not grow the scrubber (and the time each text takes) without bound.
MAX_SECRETS = 64

# The headers whose values are credentials (lower case): never shown, in a repr, a curl line
# (-H 'Name: value') or free text.
SECRET_HEADERS = ("x-auth-token", "authorization", "x-security-token", "cookie")
_HEADER_RE = re.compile(
    r"(?P<name>" + "|".join(re.escape(h) for h in SECRET_HEADERS) + r")(?P<sep>\s*:\s*)"
    r"(?P<value>[^'\"\n]+)",
    re.IGNORECASE,
)
_PERCENT_HEX = re.compile(r"%[0-9A-F]{2}")

T = TypeVar("T")


def _base64_forms(raw: bytes) -> set[str]:
    """base64 and base64url of ``raw``: whole (padded or not) and, at each of the three byte
    alignments it can have inside a longer encoded text, the characters only it decides."""
    forms: set[str] = set()
    for encode in (base64.b64encode, base64.urlsafe_b64encode):
        whole = encode(raw).decode("ascii")
        forms.update({whole, whole.rstrip("=")})
        for offset in (0, 1, 2):
            encoded = encode(bytes(offset) + raw).decode("ascii")
            first = -(-8 * offset // 6)  # the first character no prefix byte reaches
            last = 8 * (offset + len(raw)) // 6  # past the last character no suffix reaches
            core = encoded[first:last]
            if len(core) >= MIN_EMBEDDED_B64_CHARS:
                forms.add(core)
    return forms


def _forms_of(secret: str) -> set[str]:
    encoded = _base64_forms(secret.encode("utf-8"))
    percent = {quote(secret, safe=""), quote(secret), quote_plus(secret)}
    percent |= {quote(form, safe="") for form in encoded}
    percent |= {_PERCENT_HEX.sub(lambda m: m[0].lower(), form) for form in percent}
    return {secret, json.dumps(secret)[1:-1], *encoded, *percent}


class Scrubber:
    """Replace every known form of the secret values it holds, then credential headers."""

    def __init__(self, secrets: Iterable[str | None] = ()) -> None:
        self._secrets: set[str] = set()
        self._forms: list[str] = []
        # Each form lower-cased (a cheap test whether it may occur) and as a case-insensitive
        # pattern (the replacement), in the order of ``_forms``.
        self._patterns: list[tuple[str, re.Pattern[str]]] = []
        for secret in secrets:
            self.learn(secret)

    def learn(self, secret: str | None) -> bool:
        """Scrub ``secret`` from now on; False when it is too short, known, or over the cap."""
        if not secret or len(secret) < MIN_SECRET_LENGTH or secret in self._secrets:
            return False
        if len(self._secrets) >= MAX_SECRETS:
            return False
        self._secrets.add(secret)
        forms = set(self._forms) | _forms_of(secret)
        # Longest first, so a secret containing another is replaced whole.
        self._forms = sorted(forms, key=len, reverse=True)
        self._patterns = [(f.lower(), _anycase(f)) for f in self._forms]
        return True

    @property
    def full(self) -> bool:
        """No further secret can be learnt (:data:`MAX_SECRETS`)."""
        return len(self._secrets) >= MAX_SECRETS

    def __call__(self, text: str) -> str:
        lowered = text.lower()
        for lower, pattern in self._patterns:
            if lower in lowered:
                text = pattern.sub(REDACTED, text)
                lowered = text.lower()
        return _HEADER_RE.sub(lambda m: f"{m['name']}{m['sep']}{REDACTED}", text)

    def __bool__(self) -> bool:
        return bool(self._secrets)

    def __repr__(self) -> str:  # never the values
        return f"Scrubber({len(self._secrets)} secret(s))"

    def __deepcopy__(self, memo: dict[int, Any]) -> Scrubber:
        copy = Scrubber()
        copy._secrets = set(self._secrets)
        copy._forms = list(self._forms)
        copy._patterns = list(self._patterns)
        return copy


def _anycase(form: str) -> re.Pattern[str]:
    """``form`` in any case: upper, lower, swapped, or mixed."""
    return re.compile(re.escape(form), re.IGNORECASE)


_HEADERS_ONLY = Scrubber()


def is_secret_header(name: str) -> bool:
    """Whether the value of the header ``name`` (any case) is a credential."""
    return name.lower() in SECRET_HEADERS


def redact(text: str) -> str:
    """Replace the value of every credential header in ``text`` by ``[REDACTED]``."""
    return _HEADERS_ONLY(text)


def scrubbed(value: T, scrub: Scrubber) -> T:
    """``value`` with every string in it scrubbed (dataclasses, lists, tuples, dicts)."""
    result: Any = value
    if isinstance(value, str):
        result = scrub(value)
    elif isinstance(value, list):
        result = [scrubbed(item, scrub) for item in value]
    elif isinstance(value, tuple):
        result = tuple(scrubbed(item, scrub) for item in value)
    elif isinstance(value, dict):
        result = {scrubbed(k, scrub): scrubbed(v, scrub) for k, v in value.items()}
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {
            f.name: scrubbed(getattr(value, f.name), scrub)
            for f in dataclasses.fields(value)
            if f.init and not isinstance(getattr(value, f.name), Scrubber)
        }
        result = dataclasses.replace(value, **changes)
    return result  # type: ignore[no-any-return]
