"""What a run checks: a base URL or an ASGI app, and whether it is a live service.

A target given by URL is parsed here, once: a URL without ``http://`` or ``https://``, with
another scheme, without a host or with credentials in it is a usage error (exit 2), before any
request is sent. A target is **live** unless it is the embedded server (an ASGI app composed
by the caller) or its host is a loopback address; ``--live`` forces it (a staging service
reached through a local tunnel looks like loopback). Live runs are capped and clean up after
themselves (:mod:`modelarts_kit_contracts.server.guard`).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from modelarts_kit_contracts.errors import ContractError
from modelarts_kit_contracts.server.timeline import WALL_TIMELINE, Timeline

__all__ = [
    "ASGI_BASE_URL",
    "ServerCheckError",
    "ServerTarget",
    "is_loopback_host",
    "parse_base_url",
]

ASGIApp = Callable[..., Any]
ASGI_BASE_URL = "http://testserver"
SCHEMES = ("http", "https")


class ServerCheckError(ContractError):
    """A user mistake or an unusable target: exit 2 with one line saying what to fix."""


def parse_base_url(url: str) -> str:
    """``url`` without a trailing slash, or :class:`ServerCheckError` naming the rule broken."""
    text = url.strip()
    parts = urlsplit(text)
    if parts.scheme.lower() not in SCHEMES or "://" not in text:
        shown = f"{parts.scheme}://" if parts.scheme and "://" in text else "no scheme"
        raise ServerCheckError(
            f"URL {url!r}: must start with http:// or https:// (got {shown}); "
            f"for example http://127.0.0.1:8000"
        )
    if not parts.hostname:
        raise ServerCheckError(f"URL {url!r}: has no host; for example http://127.0.0.1:8000")
    if parts.username is not None or parts.password is not None:
        raise ServerCheckError(
            f"URL {parts.scheme}://...@{parts.hostname}: credentials in the URL are not used; "
            "give them with --token or --ak/--sk"
        )
    if parts.query or parts.fragment:
        raise ServerCheckError(
            f"URL {url!r}: a base URL takes no query or fragment (the spec's paths are appended)"
        )
    try:
        parts.port  # noqa: B018 - raises ValueError on a port out of range or not a number
    except ValueError as exc:
        raise ServerCheckError(f"URL {url!r}: {exc}") from None
    return text.rstrip("/")


def is_loopback_host(host: str) -> bool:
    """``localhost``, ``127.0.0.0/8`` and ``::1``: a server on this machine."""
    name = host.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class ServerTarget:
    """Where requests go: a base URL, or an ASGI app served in-process (the embedded server)."""

    base_url: str
    app: ASGIApp | None = None
    force_live: bool = False  # --live: treat a loopback URL (a tunnel) as the live service
    # The time the target's jobs move on: the wall clock, unless the run owns the server's
    # clock (the embedded server), when a scenario's wait moves it instead of sleeping.
    timeline: Timeline = WALL_TIMELINE

    @classmethod
    def asgi(cls, app: ASGIApp, *, timeline: Timeline = WALL_TIMELINE) -> ServerTarget:
        return cls(ASGI_BASE_URL, app, timeline=timeline)

    @classmethod
    def from_url(cls, url: str, *, live: bool = False) -> ServerTarget:
        """A URL target, validated (:class:`ServerCheckError` on a bad URL)."""
        return cls(parse_base_url(url), None, force_live=live)

    @property
    def live(self) -> bool:
        """Not the embedded server and not on this machine (or forced with ``--live``)."""
        if self.force_live:
            return True
        if self.app is not None:
            return False
        return not is_loopback_host(urlsplit(self.base_url).hostname or "")

    @property
    def label(self) -> str:
        if self.app is not None:
            return f"{self.base_url} (in-process ASGI)"
        return f"{self.base_url} (live)" if self.live else self.base_url
