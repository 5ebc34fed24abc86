"""Log downloads: the temporary links the logs-URL operation hands out, served by the reference
server itself, so a downloader can be tested end to end.

The logs-URL page: a "temporary OBS link, which is valid for 5 minutes. You can view all logs
or download the logs." The reference server's link points to its own download path on the
host the request reached, when that host is loopback (``127.0.0.1``, ``localhost``, ``[::1]``);
any other host (a server on another address, an ASGI test host) gets the reserved, never-
resolving host instead, as before (a link must never send a client elsewhere).

A link is presigned like an OBS link: no credential header is needed, the query carries its
expiry (``Expires``, seconds since the epoch on the server's clock) and an HMAC signature over
the path, the expiry and the disposition, with a key each server draws at start. The download
answers the task's whole log at the moment of the download, the bytes the preview shows
(``text/plain; charset=utf-8``; ``Content-Disposition`` ``attachment`` for a download link,
``inline`` for a preview link). A link past its expiry answers 403, a link whose signature does
not match (edited) 403, a job or task that no longer exists 404; those bodies are OBS's error
shape (XML ``<Error><Code>...``): the page says how long a link lives, not how the storage
refuses it after.

Functions: :func:`request_origin`, :func:`is_download_path`; :class:`LogLinks` signs links and
checks them (:meth:`LogLinks.check`).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import parse_qs, quote, unquote

__all__ = [
    "DOWNLOAD_PREFIX",
    "LINK_VALIDITY_S",
    "RESERVED_ORIGIN",
    "LinkRefused",
    "LogLinks",
    "LogTarget",
    "is_download_path",
    "request_origin",
]

LINK_VALIDITY_S = 300  # the logs-URL page: "valid for 5 minutes"
DOWNLOAD_PREFIX = "/modelarts-kit/obs/"
RESERVED_ORIGIN = "https://obs.modelarts-kit.invalid"  # RFC 2606: never resolves
LOOPBACK_NAMES = frozenset({"localhost"})
MAX_HOST_CHARS = 255


@dataclass(frozen=True)
class LogTarget:
    """What a valid link names: the task's log of one job of one project."""

    project_id: str
    job_id: str
    task: str
    download: bool


class LinkRefused(Exception):
    """A link the server will not serve: ``status`` and OBS's ``code`` and ``message``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message

    def xml(self) -> bytes:
        return (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f"<Error><Code>{self.code}</Code><Message>{self.message}</Message></Error>"
        ).encode()


@lru_cache(maxsize=64)  # every request asks it of the same few hosts
def _is_loopback_host(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def request_origin(scheme: str, host_header: str | None) -> str:
    """``scheme://host[:port]`` of the request when its ``Host`` is loopback, else the
    reserved origin (a link built from another host could send a client anywhere)."""
    host = (host_header or "").strip()
    if not host or len(host) > MAX_HOST_CHARS or not host.isascii() or "/" in host or "@" in host:
        return RESERVED_ORIGIN
    name, port = host, ""
    if host.startswith("["):  # [::1]:8000
        name, _, rest = host[1:].partition("]")
        port = rest.removeprefix(":")
        name = f"[{name}]"
    elif host.count(":") == 1:
        name, port = host.split(":")
    if port and not port.isdigit():
        return RESERVED_ORIGIN
    if not _is_loopback_host(name):
        return RESERVED_ORIGIN
    chosen = scheme if scheme in ("http", "https") else "http"
    return f"{chosen}://{name}{':' + port if port else ''}"


def is_download_path(path: str) -> bool:
    return path.startswith(DOWNLOAD_PREFIX)


class LogLinks:
    """Signs log links and checks them; the key is this server's own (a restart invalidates
    the links it handed out, as a new OBS key would)."""

    def __init__(self, key: bytes | None = None) -> None:
        self._key = key if key is not None else secrets.token_bytes(32)

    def __repr__(self) -> str:  # never the key
        return "LogLinks()"

    def _signature(self, path: str, expires: int, disposition: str) -> str:
        message = f"{path}\n{expires}\n{disposition}".encode()
        return hmac.new(self._key, message, hashlib.sha256).hexdigest()

    def url(self, origin: str, target: LogTarget, now_ms: int) -> str:
        """A link to the task's whole log, valid for :data:`LINK_VALIDITY_S` from ``now_ms``."""
        expires = now_ms // 1000 + LINK_VALIDITY_S
        disposition = "attachment" if target.download else "inline"
        parts = (target.project_id, target.job_id, f"{target.task}.log")
        path = DOWNLOAD_PREFIX + "/".join(quote(part, safe="") for part in parts)
        signature = self._signature(path, expires, disposition)
        query = f"Expires={expires}&response-content-disposition={disposition}"
        return f"{origin}{path}?{query}&Signature={signature}"

    def check(self, raw_path: str, query_string: str, now_ms: int) -> LogTarget:
        """The log a download request names, or :class:`LinkRefused` saying why not."""
        query = parse_qs(query_string, keep_blank_values=True)

        def one(name: str) -> str:
            values = query.get(name, [])
            if len(values) != 1:
                raise LinkRefused(403, "AccessDenied", f"Query parameter {name} is missing.")
            return values[0]

        expires_text, disposition, signature = (
            one("Expires"),
            one("response-content-disposition"),
            one("Signature"),
        )
        if not expires_text.isascii() or not expires_text.isdigit() or len(expires_text) > 12:
            raise LinkRefused(403, "AccessDenied", "Expires is not a time.")
        expires = int(expires_text)
        expected = self._signature(raw_path, expires, disposition)
        if not hmac.compare_digest(expected, signature):
            raise LinkRefused(
                403,
                "SignatureDoesNotMatch",
                "The request signature we calculated does not match the signature you provided.",
            )
        if now_ms // 1000 > expires:
            raise LinkRefused(403, "AccessDenied", "Request has expired")
        parts = raw_path.removeprefix(DOWNLOAD_PREFIX).split("/")
        if len(parts) != 3 or not parts[2].endswith(".log"):
            raise LinkRefused(404, "NoSuchKey", "The specified key does not exist.")
        project_id, job_id, file_name = (unquote(part) for part in parts)
        task = file_name.removesuffix(".log")
        return LogTarget(project_id, job_id, task, download=disposition == "attachment")
