"""The one choke point every request of a run passes: time bounds, caps, rate, 429, signing.

Every request a run sends (preflight, scenarios, schemathesis's phases, the final clean-up)
goes through a ``requests.Session`` whose ``auth`` is a :class:`TrafficGuard` and, for real
HTTP, whose adapter is a :class:`GuardedAdapter`:

- **hard time bounds.** The adapter registers each request with a :class:`StallWatchdog`; a
  request still unanswered ``request_limit_s`` after it started (a server trickling a byte
  every few seconds never trips a per-read timeout) or still running when the run's deadline
  passes has its socket shut down, which unblocks the thread at once. After the deadline the
  guard refuses to send anything (:class:`RunStopped`), except the clean-up it is told to allow.
- **creates.** A create whose body the target could accept (valid for the create schema) counts
  against ``max_creates`` on a live target; beyond it, or in read-only mode, the guard raises
  :class:`CreateCapReached` instead of sending. Every job a create answered with is recorded
  (:attr:`TrafficGuard.created`) with the last phase any response showed for it.
- **rate and 429.** ``rate`` caps requests per second over all threads; a ``429`` is retried
  after its ``Retry-After`` (bounded by the deadline and :data:`MAX_429_RETRIES`).
- **signing.** With AK/SK the signer runs last, on the final prepared request (and again on a
  retried one, with a fresh date).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import urlsplit

import requests
import requests.adapters
import requests.auth
import urllib3.connection
import urllib3.connectionpool
from modelarts_kit_spec.meaning import Role
from modelarts_kit_spec.routes import match_path
from modelarts_kit_wire.wirejson import MAX_WIRE_JSON_BYTES, WireJsonError, decode_wire_json

from modelarts_kit_contracts.core.answers import AnswerTooLarge

__all__ = [
    "DESTRUCTIVE_ROLES",
    "MAX_429_RETRIES",
    "AnswerTooLarge",
    "CreateCapReached",
    "GuardPolicy",
    "GuardedAdapter",
    "ResponseStalled",
    "Route",
    "RunStopped",
    "StallWatchdog",
    "TrafficGuard",
]

MAX_429_RETRIES = 3
WATCH_INTERVAL_S = 0.1


class RunStopped(requests.exceptions.RequestException):
    """The run's deadline passed (or it was interrupted): nothing more is sent."""


class ResponseStalled(requests.exceptions.Timeout):
    """No complete response within the per-request limit (the server stalls or trickles)."""


class CreateCapReached(Exception):
    """A request was not sent: a create once ``--max-creates`` is spent, or under
    ``--read-only`` a create a correct target could accept, a delete or a description
    change."""


# Operations that delete or change a job: on a live or read-only target the phases never
# call them (schemathesis takes path ids from earlier answers: the target's own jobs); the
# scenarios delete and change only jobs the run created, and under ``--read-only`` the guard
# sends none at all.
DESTRUCTIVE_ROLES = frozenset({Role.DELETE, Role.DESCRIBE})


# --- routes ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    """One operation's method and path template, matched against request URLs."""

    role: Role
    method: str
    template: str

    def match(self, method: str, url: str) -> dict[str, str] | None:
        """The path parameters if ``method url`` is this route, else None.

        The spec's route rule (:func:`modelarts_kit_spec.routes.match_path`: a parameter is
        any one segment, an empty one included, so ``/v2//training-jobs`` is a create) on the
        URL path's last segments, since the target's base URL may carry a path prefix.
        """
        if method.upper() != self.method.upper():
            return None
        return self.match_segments(urlsplit(url).path.split("/"))

    def match_segments(self, segments: list[str]) -> dict[str, str] | None:
        """:meth:`match` of a URL path split at its slashes (the method already matched)."""
        wanted = self.template.count("/")
        if len(segments) <= wanted:
            return None
        return match_path(self.template, "/".join(["", *segments[-wanted:]]))


# --- stalls and the deadline ---------------------------------------------------------------------


@dataclass
class _InFlight:
    started: float
    limit_s: float
    sock: socket.socket | None = None
    killed: str = ""  # "stalled" | "stopped"


class StallWatchdog:
    """Shuts down the socket of a request that outlives its limit or the run's deadline, both
    read on ``clock`` (the run's: ``time.monotonic`` unless a test gives a virtual one)."""

    def __init__(
        self, deadline: float | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.deadline = deadline
        self.clock = clock
        self._lock = threading.Lock()
        self._inflight: set[int] = set()
        self._records: dict[int, _InFlight] = {}
        self._local = threading.local()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="contract-watchdog", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stopped.set()

    @contextmanager
    def track(self, limit_s: float) -> Iterator[_InFlight]:
        record = _InFlight(started=self.clock(), limit_s=limit_s)
        key = id(record)
        with self._lock:
            self._records[key] = record
        self._local.current = record
        try:
            yield record
        finally:
            self._local.current = None
            with self._lock:
                self._records.pop(key, None)

    def attach(self, sock: socket.socket | None) -> None:
        record: _InFlight | None = getattr(self._local, "current", None)
        if record is not None and sock is not None:
            record.sock = sock
            if record.killed:
                _shutdown(sock)

    def abort_all(self, reason: str = "stopped") -> None:
        """Unblock every request in flight now (deadline reached, Ctrl-C)."""
        with self._lock:
            records = list(self._records.values())
        for record in records:
            record.killed = record.killed or reason
            if record.sock is not None:
                _shutdown(record.sock)

    def _watch(self) -> None:
        while not self._stopped.wait(WATCH_INTERVAL_S):
            now = self.clock()
            with self._lock:
                records = list(self._records.values())
            for record in records:
                if record.killed:
                    continue
                if self.deadline is not None and now >= self.deadline:
                    record.killed = "stopped"
                elif now - record.started >= record.limit_s:
                    record.killed = "stalled"
                else:
                    continue
                if record.sock is not None:
                    _shutdown(record.sock)


def _shutdown(sock: socket.socket) -> None:
    with suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)


_WATCHDOGS = threading.local()  # the watchdog of the adapter sending on this thread


class _TrackedConnectionMixin:
    sock: socket.socket | None

    def connect(self) -> None:
        super().connect()  # type: ignore[misc]
        _attach(self.sock)

    def request(self, *args: Any, **kwargs: Any) -> None:
        _attach(self.sock)
        super().request(*args, **kwargs)  # type: ignore[misc]
        _attach(self.sock)


def _attach(sock: socket.socket | None) -> None:
    watchdog: StallWatchdog | None = getattr(_WATCHDOGS, "current", None)
    if watchdog is not None:
        watchdog.attach(sock)


class _TrackedHTTPConnection(_TrackedConnectionMixin, urllib3.connection.HTTPConnection):
    pass


class _TrackedHTTPSConnection(_TrackedConnectionMixin, urllib3.connection.HTTPSConnection):
    pass


class _TrackedHTTPPool(urllib3.connectionpool.HTTPConnectionPool):
    ConnectionCls = _TrackedHTTPConnection


class _TrackedHTTPSPool(urllib3.connectionpool.HTTPSConnectionPool):
    ConnectionCls = _TrackedHTTPSConnection


class GuardedAdapter(requests.adapters.HTTPAdapter):
    """An HTTP adapter whose every request, body included, is bounded by the watchdog."""

    def __init__(self, watchdog: StallWatchdog, request_limit_s: float) -> None:
        self.watchdog = watchdog
        self.request_limit_s = request_limit_s
        super().__init__()

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {
            "http": _TrackedHTTPPool,
            "https": _TrackedHTTPSPool,
        }

    def send(
        self,
        request: requests.PreparedRequest,
        stream: bool = False,
        timeout: Any = None,
        verify: bool | str = True,
        cert: Any = None,
        proxies: dict[str, str] | None = None,
    ) -> requests.Response:
        limit = self.request_limit_s
        if isinstance(timeout, int | float):
            limit = min(limit, float(timeout))  # a caller's tighter bound (the preflight's)
        if self.watchdog.deadline is not None:
            remaining = self.watchdog.deadline - self.watchdog.clock()
            if remaining <= 0:
                raise RunStopped("the run's time budget (--max-time) is spent", request=request)
            limit = min(limit, remaining)
        _WATCHDOGS.current = self.watchdog
        try:
            with self.watchdog.track(limit) as record:
                try:
                    response = super().send(
                        request,
                        stream=True,
                        timeout=_bounded_timeout(timeout, limit),
                        verify=verify,
                        cert=cert,
                        proxies=proxies,
                    )
                    if not stream:
                        _read_bounded(response, MAX_WIRE_JSON_BYTES)  # under the watchdog
                except (requests.exceptions.RequestException, OSError) as exc:
                    deadline = self.watchdog.deadline
                    # The socket timeout is cut to the deadline too: it may fire first.
                    past_deadline = deadline is not None and self.watchdog.clock() >= deadline
                    if record.killed == "stopped" or past_deadline:
                        raise RunStopped(
                            "the run's time budget (--max-time) ran out during this request",
                            request=request,
                        ) from exc
                    if record.killed == "stalled":
                        raise ResponseStalled(
                            f"no complete response within {limit:g}s (the server stalls or "
                            "trickles its answer)",
                            request=request,
                        ) from exc
                    raise
        finally:
            _WATCHDOGS.current = None
        return response


def _read_bounded(response: requests.Response, cap: int) -> None:
    """Read the body (decoded: gzip/deflate undone) into ``response.content``, at most ``cap``.

    ``requests`` reads an answer whole and inflates ``Content-Encoding: gzip`` transparently: a
    1 GiB answer, or 1 MB of gzip that inflates to 1 GiB, would sit in memory. Beyond ``cap``
    the connection is closed and :class:`AnswerTooLarge` raised.
    """
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_content(64 * 1024):
        size += len(chunk)
        if size > cap:
            response.close()
            encoding = response.headers.get("content-encoding")
            inflated = f" once inflated ({encoding[:20]})" if encoding else ""
            raise AnswerTooLarge(
                f"HTTP {response.status_code}: {NOT_DESCRIBABLE}: larger than the cap of {cap} "
                f"bytes{inflated}",
                request=response.request,
            )
        chunks.append(chunk)
    response._content = b"".join(chunks)
    response._content_consumed = True


def _bounded_timeout(timeout: Any, limit: float) -> Any:
    if timeout is None:
        return (limit, limit)
    if isinstance(timeout, tuple):
        return tuple(limit if t is None else min(float(t), limit) for t in timeout)
    return min(float(timeout), limit)


# --- the guard -------------------------------------------------------------------------------


@dataclass(frozen=True)
class GuardPolicy:
    live: bool = False
    max_creates: int | None = None  # None: uncapped (not live)
    read_only: bool = False
    rate: float | None = None  # requests per second, over all threads
    final_phases: frozenset[str] = frozenset()


@dataclass
class CreatedJob:
    id: str
    last_phase: str | None
    deleted: bool = False  # an accepted delete: nothing left to terminate


@dataclass
class TrafficGuard(requests.auth.AuthBase):
    """``requests`` auth that every request of a run passes (see the module docstring)."""

    routes: tuple[Route, ...]
    job_id_pointer: tuple[str, ...]
    phase_pointer: tuple[str, ...]
    could_create: Callable[[Any], bool]  # would a correct target accept this create body?
    policy: GuardPolicy = field(default_factory=GuardPolicy)
    signer: requests.auth.AuthBase | None = None
    deadline: float | None = None  # on ``clock``
    clock: Callable[[], float] = time.monotonic
    # How pacing and Retry-After wait, on ``clock`` (None: until ``stop``, in real seconds).
    pause: Callable[[float], object] | None = None
    # Recomputes ``deadline`` before each request (the clean-up's share grows with each job
    # created and each slow answer): a bound set only between requests, from another thread,
    # comes late when answers are quick in real time (a virtual clock, a fast worker).
    refresh_deadline: Callable[[], object] | None = None
    created: dict[str, CreatedJob] = field(default_factory=dict)
    creates_counted: int = 0
    creates_blocked: int = 0
    changes_blocked: int = 0  # deletes and description changes --read-only did not send
    retried_429: int = 0
    slowest_answer_s: float = 0.0  # the longest any answer took: what the clean-up may take
    stop: threading.Event = field(default_factory=threading.Event)
    allow_after_stop: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _next_slot: float = 0.0

    def __call__(self, request: requests.PreparedRequest) -> requests.PreparedRequest:
        return self.admit(request, self.signer, refusal_expected=False)

    def using(
        self, signer: requests.auth.AuthBase | None, *, refusal_expected: bool = False
    ) -> requests.auth.AuthBase:
        """This guard with another signer (a wrong key, none), for one request.

        ``refusal_expected``: the request carries no or invalid credentials, so a correct
        target creates nothing; such a create is not counted against ``max_creates`` (a job a
        broken target creates anyway is still recorded and cleaned up).
        """
        return _GuardWith(self, signer, refusal_expected)

    def admit(
        self,
        request: requests.PreparedRequest,
        signer: requests.auth.AuthBase | None,
        *,
        refusal_expected: bool,
    ) -> requests.PreparedRequest:
        if self.stop.is_set() and not self.allow_after_stop:
            raise RunStopped("the run is stopping: nothing more is sent", request=request)
        if self.refresh_deadline is not None and not self.allow_after_stop:
            self.refresh_deadline()
        if self.deadline is not None and self.clock() >= self.deadline:
            raise RunStopped("the run's time budget (--max-time) is spent", request=request)
        route, _ = self.route(request)
        if route is not None and self.policy.read_only and route.role in DESTRUCTIVE_ROLES:
            with self._lock:
                self.changes_blocked += 1
            raise CreateCapReached(f"{route.role.value} not sent: --read-only")
        if route is not None and route.role is Role.CREATE:
            if self.allow_after_stop:
                raise CreateCapReached("create not sent: the run is cleaning up")
            if not refusal_expected:
                self._count_create(request)
        self._pace()
        if signer is not None:
            request = signer(request)
        request._guard_sent = self.clock()  # type: ignore[attr-defined]

        def hook(response: requests.Response, **kwargs: Any) -> requests.Response:
            return self._on_response(response, signer, **kwargs)

        request.register_hook("response", hook)
        return request

    def route(self, request: requests.PreparedRequest) -> tuple[Route | None, dict[str, str]]:
        method = str(request.method).upper()
        segments = urlsplit(str(request.url)).path.split("/")  # once, not once per route
        for route in self.routes:
            params = route.match_segments(segments) if route.method.upper() == method else None
            if params is not None:
                return route, params
        return None, {}

    # creates -------------------------------------------------------------------------------

    def _count_create(self, request: requests.PreparedRequest) -> None:
        cap = 0 if self.policy.read_only else self.policy.max_creates
        # --read-only holds on every target; --max-creates caps a live one.
        if cap is None or not (self.policy.live or self.policy.read_only):
            return  # nothing to count against: the body is not placed (a thousand creates a run)
        body = _json_body(request.body)
        if body is _NOT_JSON or not self.could_create(body):
            return  # a body no correct target accepts: a negative case, no job expected
        with self._lock:
            if self.creates_counted >= cap:
                self.creates_blocked += 1
                why = "--read-only" if self.policy.read_only else f"--max-creates {cap} reached"
                raise CreateCapReached(f"create not sent: {why}")
            self.creates_counted += 1

    # pacing ---------------------------------------------------------------------------------

    def _pace(self) -> None:
        rate = self.policy.rate
        if not rate:
            return
        with self._lock:
            now = self.clock()
            start = max(now, self._next_slot)
            self._next_slot = start + 1.0 / rate
        self._sleep(start - now)

    def _sleep(self, seconds: float) -> None:
        if self.deadline is not None:
            seconds = min(seconds, max(0.0, self.deadline - self.clock()))
        if seconds > 0:
            if self.pause is not None:
                self.pause(seconds)
            else:
                self.stop.wait(seconds)

    # responses ------------------------------------------------------------------------------

    def _on_response(
        self,
        response: requests.Response,
        signer: requests.auth.AuthBase | None,
        **kwargs: Any,
    ) -> requests.Response:
        attempt = int(getattr(response.request, "_guard_attempt", 0))
        if response.status_code == 429 and attempt < MAX_429_RETRIES and not self.stop.is_set():
            wait = _retry_after(response.headers.get("Retry-After"), attempt)
            remaining = None if self.deadline is None else self.deadline - self.clock()
            if remaining is None or wait < remaining:
                self._sleep(wait)
                with self._lock:
                    self.retried_429 += 1
                retry = response.request.copy()
                retry._guard_attempt = attempt + 1  # type: ignore[attr-defined]
                if signer is not None:
                    for stale in ("Authorization", "X-Sdk-Date"):
                        retry.headers.pop(stale, None)
                    retry = signer(retry)
                response.close()
                self._pace()
                retry._guard_sent = self.clock()  # type: ignore[attr-defined]
                again: requests.Response = response.connection.send(retry, **kwargs)
                again.history.append(response)
                again.request = retry
                return self._on_response(again, signer, **kwargs)
        self._observe(response)
        return response

    def _observe(self, response: requests.Response) -> None:
        # How long the answer took on the run's clock, the one --max-time is read on.
        sent = getattr(response.request, "_guard_sent", None)
        taken = response.elapsed.total_seconds() if sent is None else self.clock() - sent
        with self._lock:
            self.slowest_answer_s = max(self.slowest_answer_s, taken)
        if not 200 <= response.status_code < 300:
            return
        route, params = self.route(response.request)
        if route is None:
            return
        body = _json_body(response.content)
        phase = _at(body, self.phase_pointer)
        with self._lock:
            if route.role is Role.CREATE:
                job_id = _at(body, self.job_id_pointer)
                if isinstance(job_id, str) and job_id:
                    self.created[job_id] = CreatedJob(job_id, _text(phase))
                return
            known = next((self.created[v] for v in params.values() if v in self.created), None)
            if known is not None and route.role is Role.DELETE:
                known.deleted = True
            elif known is not None and isinstance(phase, str):
                known.last_phase = phase

    def unfinished(self) -> list[CreatedJob]:
        """Created jobs whose last phase seen is not final."""
        with self._lock:
            return [
                job
                for job in self.created.values()
                if job.last_phase not in self.policy.final_phases and not job.deleted
            ]


@dataclass
class _GuardWith(requests.auth.AuthBase):
    guard: TrafficGuard
    signer: requests.auth.AuthBase | None
    refusal_expected: bool

    def __call__(self, request: requests.PreparedRequest) -> requests.PreparedRequest:
        return self.guard.admit(request, self.signer, refusal_expected=self.refusal_expected)


_NOT_JSON = object()
NOT_DESCRIBABLE = "the body is not JSON the spec can describe"


def _json_body(body: Any) -> Any:
    if body is None:
        return _NOT_JSON
    try:
        return decode_wire_json(body)
    except WireJsonError:
        return _NOT_JSON


def _at(document: Any, pointer: tuple[str, ...]) -> Any:
    for key in pointer:
        if not isinstance(document, Mapping):
            return None
        document = document.get(key)
    return document


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _retry_after(value: str | None, attempt: int) -> float:
    """Seconds to wait: ``Retry-After`` (seconds or an HTTP date), else 1, 2, 4 s."""
    if value:
        text = value.strip()
        if text.isascii() and text.isdigit():  # "²" is a digit to str.isdigit, not to float()
            return float(text)
        with suppress(TypeError, ValueError, IndexError):
            return max(0.0, parsedate_to_datetime(text).timestamp() - time.time())
    return float(2**attempt)
