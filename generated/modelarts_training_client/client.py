"""ModelArts training jobs: the synchronous and the asynchronous client.

Both classes come from one template; they differ only in ``def``/``async def`` and
``await``. One method per operation of the spec, answering the parsed model;
``client.with_raw_response.<operation>(...)`` answers the whole response instead
(``ApiResponse``: status, headers, ``X-Request-Id``, raw body and the parsed model).
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Literal, Self

import httpx

from . import models as _models
from ._follow import DEFAULT_PAGES_PER_POLL, FollowState, LogLine, task_names
from ._http import (
    CALL_END,
    DEFAULT_DEADLINE,
    DEFAULT_MAX_POLL,
    DEFAULT_MAX_RESPONSE_BYTES,
    DEFAULT_POLL,
    DEFAULT_TIMEOUT,
    DEFAULT_WAIT_TIMEOUT,
    ApiResponse,
    Call,
    Deadline,
    Received,
    RetryPolicy,
    Sensitive,
    UncheckedBody,
    WaitPlan,
    _at_pointer,
    build_request,
    content_encoding_error,
    deadline_error,
    decode_response,
    encode_body,
    raise_for_status,
    redact_url,
    resolve_base_url,
    transport_error,
    validate_parameters,
)
from ._paging import DEFAULT_MAX_PAGES, PagePlan, page_body
from .errors import PagingError
from .models import (
    JobResponse,
)

if TYPE_CHECKING:
    from .models import (
        DeleteTrainingJobBody,
        Event,
        Job,
        JobActionType,
        JobSearches,
        JobUpdateRequestBody,
        ListTrainingJobsResponse,
        TaskLogObsUrl,
        TaskLogPreview,
        TaskMetrics,
        TrainingJobEngines,
        TrainingJobEvents,
        TrainingJobFlavors,
    )

__all__ = [
    "TRAINING_JOB_FINAL_PHASES",
    "TRAINING_JOB_PHASES",
    "AsyncTrainingJobsClient",
    "AsyncTrainingJobsClientWithRawResponse",
    "TrainingJobsClient",
    "TrainingJobsClientWithRawResponse",
]

# The job phases the spec documents, and the final ones (x-modelarts-lifecycle).
TRAINING_JOB_PHASES: tuple[str, ...] = (
    "Creating",
    "Pending",
    "Running",
    "Failed",
    "Completed",
    "Terminating",
    "Terminated",
    "Abnormal",
)
TRAINING_JOB_FINAL_PHASES: tuple[str, ...] = ("Failed", "Completed", "Terminated", "Abnormal")


async def _asyncio_sleep(delay: float) -> None:
    """``asyncio.sleep``, imported on first use: synchronous programs never load asyncio."""
    import asyncio

    await asyncio.sleep(delay)


# When the synchronous call in progress (in this thread or task) must be over, if it has a
# deadline; every network wait of a bounded transport is capped at the time left.


@contextlib.contextmanager
def _sync_scope(limit: Deadline) -> Iterator[None]:
    """A synchronous call ends at its deadline wherever the server stalls (connect, TLS, the
    status line, headers, body): each read, write and connect of its transport waits at most
    the time left on the client's clock (see ``_bound_network``), and the answer is checked
    after every chunk."""
    token = CALL_END.set(limit)
    try:
        yield
    finally:
        CALL_END.reset(token)


def _bound_network(http: httpx.Client | httpx.AsyncClient) -> None:
    """Bound every network wait of ``http``'s ``httpx.HTTPTransport``s (its own transport and
    the proxy mounts) by the deadline of the synchronous call in progress (``_deadline``).
    Other transports are left alone: their calls are bounded by the wait timeouts (capped at
    the time left when each attempt starts) and a deadline check after every chunk of the
    answer. An asynchronous client needs none of this: its calls are cancelled at the
    deadline."""
    from ._deadline import bound_network  # httpcore: loaded with the first client

    bound_network(http)


def _async_scope(limit: Deadline) -> contextlib.AbstractContextManager[object]:
    """An asynchronous call is cancelled exactly at its deadline (asyncio or trio): the time
    left on the client's clock, counted by the event loop's clock from now."""
    import anyio

    seconds = limit.remaining()
    return anyio.fail_after(None if seconds == math.inf else seconds)


_SHOW_TRAINING_JOB_FLAVORS = Call(
    operation="show_training_job_flavors",
    method="GET",
    path="/v2/{project_id}/training-job-flavors",
    path_names=("project_id",),
    query_names=("flavor_type",),
    header_names=(),
    retryable=True,
)
_SHOW_TRAINING_JOB_ENGINES = Call(
    operation="show_training_job_engines",
    method="GET",
    path="/v2/{project_id}/training-job-engines",
    path_names=("project_id",),
    query_names=(),
    header_names=(),
    retryable=True,
)
_LIST_TRAINING_JOBS = Call(
    operation="list_training_jobs",
    method="POST",
    path="/v2/{project_id}/training-job-searches",
    path_names=("project_id",),
    query_names=(),
    header_names=(),
    retryable=False,
    answer_secrets=Sensitive(
        always=(
            ("items", None, "algorithm", "environments"),
            ("items", None, "tasks", None, "algorithm", "environments"),
            ("items", None, "endpoints", "jupyter_lab", "token"),
            ("items", None, "endpoints", "tensorboard", "token"),
            ("items", None, "endpoints", "mindstudio_insight", "token"),
        ),
        when=(
            (
                ("items", None, "algorithm", "parameters", None, "value"),
                ("constraint", "sensitive"),
            ),
        ),
    ),
)
_CREATE_TRAINING_JOB = Call(
    operation="create_training_job",
    method="POST",
    path="/v2/{project_id}/training-jobs",
    path_names=("project_id",),
    query_names=(),
    header_names=(),
    retryable=False,
    body_secrets=Sensitive(
        always=(("algorithm", "environments"),),
        when=(
            (("algorithm", "parameters", None, "value"), ("constraint", "sensitive")),
            (
                ("tasks", None, "algorithm", "job_config", "parameters", None, "value"),
                ("constraint", "sensitive"),
            ),
        ),
    ),
    answer_secrets=Sensitive(
        always=(
            ("algorithm", "environments"),
            ("tasks", None, "algorithm", "environments"),
            ("endpoints", "jupyter_lab", "token"),
            ("endpoints", "tensorboard", "token"),
            ("endpoints", "mindstudio_insight", "token"),
        ),
        when=((("algorithm", "parameters", None, "value"), ("constraint", "sensitive")),),
    ),
)
_SHOW_TRAINING_JOB_DETAILS = Call(
    operation="show_training_job_details",
    method="GET",
    path="/v2/{project_id}/training-jobs/{training_job_id}",
    path_names=("project_id", "training_job_id"),
    query_names=(),
    header_names=(),
    retryable=True,
    answer_secrets=Sensitive(
        always=(
            ("algorithm", "environments"),
            ("tasks", None, "algorithm", "environments"),
            ("endpoints", "jupyter_lab", "token"),
            ("endpoints", "tensorboard", "token"),
            ("endpoints", "mindstudio_insight", "token"),
        ),
        when=((("algorithm", "parameters", None, "value"), ("constraint", "sensitive")),),
    ),
)
_CHANGE_TRAINING_JOB_DESCRIPTION = Call(
    operation="change_training_job_description",
    method="PUT",
    path="/v2/{project_id}/training-jobs/{training_job_id}",
    path_names=("project_id", "training_job_id"),
    query_names=(),
    header_names=(),
    retryable=True,
)
_DELETE_TRAINING_JOB = Call(
    operation="delete_training_job",
    method="DELETE",
    path="/v2/{project_id}/training-jobs/{training_job_id}",
    path_names=("project_id", "training_job_id"),
    query_names=(),
    header_names=(),
    retryable=True,
)
_STOP_TRAINING_JOB = Call(
    operation="stop_training_job",
    method="POST",
    path="/v2/{project_id}/training-jobs/{training_job_id}/actions",
    path_names=("project_id", "training_job_id"),
    query_names=(),
    header_names=(),
    retryable=False,
    answer_secrets=Sensitive(
        always=(
            ("algorithm", "environments"),
            ("tasks", None, "algorithm", "environments"),
            ("endpoints", "jupyter_lab", "token"),
            ("endpoints", "tensorboard", "token"),
            ("endpoints", "mindstudio_insight", "token"),
        ),
        when=((("algorithm", "parameters", None, "value"), ("constraint", "sensitive")),),
    ),
)
_LIST_TRAINING_JOB_EVENTS = Call(
    operation="list_training_job_events",
    method="GET",
    path="/v2/{project_id}/training-jobs/{training_job_id}/events",
    path_names=("project_id", "training_job_id"),
    query_names=(
        "offset",
        "limit",
        "order",
        "start_time",
        "end_time",
        "level",
        "pattern",
        "source",
    ),
    header_names=("X-Language",),
    retryable=True,
)
_SHOW_TRAINING_JOB_LOGS_PREVIEW = Call(
    operation="show_training_job_logs_preview",
    method="GET",
    path="/v2/{project_id}/training-jobs/{training_job_id}/tasks/{task_id}/logs/preview",
    path_names=("project_id", "training_job_id", "task_id"),
    query_names=(),
    header_names=(),
    retryable=True,
)
_SHOW_OBS_URL_OF_TRAINING_JOB_LOGS = Call(
    operation="show_obs_url_of_training_job_logs",
    method="GET",
    path="/v2/{project_id}/training-jobs/{training_job_id}/tasks/{task_id}/logs/url",
    path_names=("project_id", "training_job_id", "task_id"),
    query_names=("Content-Type",),
    header_names=(),
    retryable=True,
    answer_secrets=Sensitive(always=(("obs_url",),), when=()),
)
_SHOW_TRAINING_JOB_METRICS = Call(
    operation="show_training_job_metrics",
    method="GET",
    path="/v2/{project_id}/training-jobs/{training_job_id}/metrics/{task_id}",
    path_names=("project_id", "training_job_id", "task_id"),
    query_names=(),
    header_names=(),
    retryable=True,
)


class TrainingJobsClient:
    """Synchronous client; use it as a context manager (``with``) or call close().

    Args:
        project_id: Project ID. See "Obtaining a Project ID and Name" in the API reference.
        auth: an ``httpx.Auth``: ``TokenAuth(token)`` or ``AkSkAuth(ak, sk)``.
        base_url: the endpoint; by default built from the spec's server URL
            (https://modelarts.{region}.myhuaweicloud.com).
        region: Region ID, for example cn-north-4 (default ``cn-north-4``).
        timeout: seconds or an ``httpx.Timeout`` for each wait; on by default.
        deadline: seconds a whole call may take, every attempt, wait and byte of the answer
            included (300 by default; ``None``: no deadline). Each call may pass its own.
        max_response_bytes: the largest answer read (16 MiB by default); a larger one raises
            ``ResponseTooLargeError`` without being read whole.
        retry: when idempotent requests are retried (``RetryPolicy()`` by default).
        http_client: an ``httpx.Client`` to send through (not closed by this client).
        transport: an ``httpx.BaseTransport`` for a client this object creates and closes.
        sleep: how to wait between retries and polls (injectable for tests).
        clock: the monotonic clock, in seconds, that deadlines, waits and follows read
            (``time.monotonic`` by default; injectable for tests, with ``sleep``).
        headers: extra headers sent with every request.
    """

    def __init__(
        self,
        *,
        project_id: str,
        auth: httpx.Auth | None = None,
        base_url: str | None = None,
        region: str | None = None,
        timeout: float | httpx.Timeout | None = DEFAULT_TIMEOUT,
        deadline: float | None = DEFAULT_DEADLINE,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
        retry: RetryPolicy | None = None,
        http_client: httpx.Client | None = None,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] | None = None,
        headers: Mapping[str, str] | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        if http_client is not None and transport is not None:
            raise ValueError("pass either http_client or transport, not both")
        self._base_url = resolve_base_url(
            base_url,
            {
                "region": region,
            },
        )
        self._project_id = project_id
        self._clock = clock or time.monotonic
        Deadline(deadline, self._clock)  # refuses a deadline that is not a positive number
        if max_response_bytes < 1:
            raise ValueError(f"max_response_bytes must be positive, got {max_response_bytes}")
        self._deadline = deadline
        self._max_response_bytes = max_response_bytes
        self._auth = auth
        self._retry = retry or RetryPolicy()
        self._sleep = sleep or time.sleep
        self._headers = dict(headers or {})
        self._owns_http = http_client is None
        self._http = http_client or httpx.Client(transport=transport, timeout=timeout)
        _bound_network(self._http)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(base_url={redact_url(self._base_url)!r}, "
            f"project_id={self._project_id!r}, "
            f"auth={self._auth!r})"
        )

    @property
    def base_url(self) -> str:
        return self._base_url

    @property
    def with_raw_response(self) -> TrainingJobsClientWithRawResponse:
        """The same operations, answering ``ApiResponse`` (the parsed model and the response)."""
        return TrainingJobsClientWithRawResponse(self)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the HTTP client if this object created it."""
        if self._owns_http:
            self._http.close()

    def _send(
        self,
        call: Call,
        parameters: Mapping[str, Any],
        content: bytes | None,
        deadline: float | None,
    ) -> httpx.Response:
        limit = Deadline(self._deadline if deadline is None else deadline, self._clock)
        request = build_request(
            self._http, self._base_url, call, parameters, content, self._headers
        )
        attempt = 1
        while True:
            limit.cap(request)
            try:
                with _sync_scope(limit):
                    response = self._receive(call, request, limit, attempt)
            except TimeoutError as exc:
                raise deadline_error(call, request, limit, attempt) from exc
            except httpx.TransportError as exc:
                if limit.expired():
                    raise deadline_error(call, request, limit, attempt) from exc
                if not (call.retryable and attempt < self._retry.max_attempts):
                    raise transport_error(call, request, exc, attempt) from exc
                delay = self._retry.delay(attempt, None)
            else:
                if not (
                    call.retryable
                    and self._retry.should_retry(response.status_code)
                    and attempt < self._retry.max_attempts
                ):
                    raise_for_status(call.operation, response)
                    return response
                delay = self._retry.delay(attempt, response.headers.get("Retry-After"))
            if delay >= limit.remaining():
                raise deadline_error(call, request, limit, attempt)
            self._sleep(delay)
            attempt += 1

    def _receive(
        self, call: Call, request: httpx.Request, limit: Deadline, attempt: int
    ) -> httpx.Response:
        """Send once and read the answer within the deadline and the size limit.

        Redirects are never followed, whatever the HTTP client says: the API does not
        redirect, and following one would carry the credentials to whatever host a
        response names. A 3xx answer is an ``ApiError``."""
        try:
            streamed = self._http.send(
                request,
                auth=self._auth or httpx.USE_CLIENT_DEFAULT,
                follow_redirects=False,
                stream=True,
            )
        except httpx.DecodingError as exc:
            # A transport that reads the answer itself (httpx.MockTransport) fails here: no
            # answer reached the client, as with any other transport failure.
            raise transport_error(call, request, exc, attempt) from exc
        try:
            received = Received(call, request, streamed, self._max_response_bytes, limit, attempt)
            for chunk in streamed.iter_bytes():
                received.add(chunk)
        except httpx.DecodingError as exc:
            raise content_encoding_error(call, streamed, exc) from exc
        finally:
            streamed.close()
        return received.response(streamed)

    def show_training_job_flavors(
        self,
        *,
        flavor_type: Literal["CPU", "GPU", "Ascend"] | None = None,
        deadline: float | None = None,
    ) -> TrainingJobFlavors:
        """Obtain the public resource flavors supported by training jobs.

        Returns the public resource flavors a training job can use (`spec.resource.flavor_id` of
        the create request), all of them or those of one `flavor_type`.

        ``GET /v2/{project_id}/training-job-flavors``

        Args:
            flavor_type: Type of the flavors to return; without it, every flavor is
                returned. The page documents `CPU` and `GPU`; the vendor SDK's request model
                adds `Ascend`, the third flavor type of the job's own flavors.
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``TrainingJobFlavors``.

        Raises:
            BadRequestError: HTTP 400: A query parameter is invalid (ModelArts.2788).
                Error codes (``error_code``) by meaning:
                - invalid-parameter: ModelArts.2788, ModelArts.2764, ModelArts.0101,
                    ModelArts.0104
            AuthenticationError: HTTP 401: The request carries no token or signature, or it
                is invalid or expired (for example ModelArts.0201 token missing, ModelArts.0203
                token cannot be parsed, ModelArts.0202 token expired).
                Error codes (``error_code``) by meaning:
                - token-missing: ModelArts.0201, ModelArts.5001, ModelArts.0205
                - token-invalid: ModelArts.4201, ModelArts.0203, ModelArts.0204, ModelArts.5002,
                    ModelArts.6620
                - token-expired: ModelArts.0202, ModelArts.4127
                - token-without-project: ModelArts.0207, ModelArts.0212, ModelArts.4119
                - authorization-malformed: ModelArts.0206
                - signature-invalid: ModelArts.0208
                - credential-not-found: ModelArts.3801
                - request-expired: ModelArts.4203
            PermissionDeniedError: HTTP 403: The token is not accepted for this operation
                (ModelArts.2784 InvalidToken) or the user has not authorized ModelArts or lacks
                the permission (ModelArts.2785).
                Error codes (``error_code``) by meaning:
                - token-invalid: ModelArts.2784, ModelArts.0203
                - signature-invalid: ModelArts.0206
                - not-authorized: ModelArts.2785, ModelArts.0108
                - project-mismatch: ModelArts.0210
            NotFoundError: HTTP 404: The project ID in the path does not match the project
                of the token (ModelArts.2786).
                Error codes (``error_code``) by meaning:
                - project-mismatch: ModelArts.2786
            RateLimitError: HTTP 429: Too many requests (ModelArts.2799); retry after the
                number of seconds in `Retry-After`.
                Error codes (``error_code``) by meaning:
                - too-many-requests: ModelArts.2799, ModelArts.4206
            ServerError: HTTP 500: An internal error (for example ModelArts.0010).
                Error codes (``error_code``) by meaning:
                - internal-error: ModelArts.0010, ModelArts.5000
            ServerError: HTTP 503: The service cannot answer now: its backend (for example
                the job store) failed (ModelArts.4302), or the gateway is being stopped for an
                upgrade (ModelArts.4700). Nothing was changed; try again later.
                Error codes (``error_code``) by meaning:
                - backend-unavailable: ModelArts.4302
                - service-unavailable: ModelArts.4700
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (self._show_training_job_flavors(flavor_type=flavor_type, deadline=deadline)).parsed

    def _show_training_job_flavors(
        self,
        *,
        flavor_type: Literal["CPU", "GPU", "Ascend"] | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[TrainingJobFlavors]:
        parameters = validate_parameters(
            _SHOW_TRAINING_JOB_FLAVORS,
            _models.ShowTrainingJobFlavorsParameters,
            {
                "project_id": self._project_id,
                "flavor_type": flavor_type,
            },
        )
        content = None
        response = self._send(_SHOW_TRAINING_JOB_FLAVORS, parameters, content, deadline)
        return ApiResponse(
            response,
            decode_response(_SHOW_TRAINING_JOB_FLAVORS, response, _models.TrainingJobFlavors),
        )

    def show_training_job_engines(
        self,
        *,
        deadline: float | None = None,
    ) -> TrainingJobEngines:
        """Obtain the preset AI engines supported by training jobs.

        Returns the preset AI engines (frameworks) a training job can use (`algorithm.engine` of
        the create request).

        ``GET /v2/{project_id}/training-job-engines``

        Args:
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``TrainingJobEngines``.

        Raises:
            AuthenticationError: HTTP 401: The request carries no token or signature, or it
                is invalid or expired (for example ModelArts.0201 token missing, ModelArts.0203
                token cannot be parsed, ModelArts.0202 token expired).
                Error codes (``error_code``) by meaning:
                - token-missing: ModelArts.0201, ModelArts.5001, ModelArts.0205
                - token-invalid: ModelArts.4201, ModelArts.0203, ModelArts.0204, ModelArts.5002,
                    ModelArts.6620
                - token-expired: ModelArts.0202, ModelArts.4127
                - token-without-project: ModelArts.0207, ModelArts.0212, ModelArts.4119
                - authorization-malformed: ModelArts.0206
                - signature-invalid: ModelArts.0208
                - credential-not-found: ModelArts.3801
                - request-expired: ModelArts.4203
            PermissionDeniedError: HTTP 403: The token is not accepted for this operation
                (ModelArts.2784 InvalidToken) or the user has not authorized ModelArts or lacks
                the permission (ModelArts.2785).
                Error codes (``error_code``) by meaning:
                - token-invalid: ModelArts.2784, ModelArts.0203
                - signature-invalid: ModelArts.0206
                - not-authorized: ModelArts.2785, ModelArts.0108
                - project-mismatch: ModelArts.0210
            NotFoundError: HTTP 404: The project ID in the path does not match the project
                of the token (ModelArts.2786).
                Error codes (``error_code``) by meaning:
                - project-mismatch: ModelArts.2786
            RateLimitError: HTTP 429: Too many requests (ModelArts.2799); retry after the
                number of seconds in `Retry-After`.
                Error codes (``error_code``) by meaning:
                - too-many-requests: ModelArts.2799, ModelArts.4206
            ServerError: HTTP 500: An internal error (for example ModelArts.0010).
                Error codes (``error_code``) by meaning:
                - internal-error: ModelArts.0010, ModelArts.5000
            ServerError: HTTP 503: The service cannot answer now: its backend (for example
                the job store) failed (ModelArts.4302), or the gateway is being stopped for an
                upgrade (ModelArts.4700). Nothing was changed; try again later.
                Error codes (``error_code``) by meaning:
                - backend-unavailable: ModelArts.4302
                - service-unavailable: ModelArts.4700
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (self._show_training_job_engines(deadline=deadline)).parsed

    def _show_training_job_engines(
        self,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[TrainingJobEngines]:
        parameters = validate_parameters(
            _SHOW_TRAINING_JOB_ENGINES,
            _models.ShowTrainingJobEnginesParameters,
            {
                "project_id": self._project_id,
            },
        )
        content = None
        response = self._send(_SHOW_TRAINING_JOB_ENGINES, parameters, content, deadline)
        return ApiResponse(
            response,
            decode_response(_SHOW_TRAINING_JOB_ENGINES, response, _models.TrainingJobEngines),
        )

    def list_training_jobs(
        self,
        body: JobSearches | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ListTrainingJobsResponse:
        """Query the training jobs that meet the search criteria.

        Returns one page of the project's training jobs that meet the search criteria: the
        filters (`between`, `like`, `in`, `not`), sorted by `sort_by` in `order`, `limit` jobs
        (1 to 50) from page `offset` (from 0). Each job is the job the show operation returns.

        ``POST /v2/{project_id}/training-job-searches``

        Args:
            body: The request body, a ``JobSearches`` or a mapping validated into one before
                anything is sent; an ``UncheckedBody`` is sent as it is.
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``ListTrainingJobsResponse``.

        Raises:
            BadRequestError: HTTP 400: Malformed JSON (ModelArts.2787) or invalid search
                criteria: a parameter fails validation (ModelArts.2788), for example `limit`
                outside 1 to 50, or the service does not support a filter, sort item or
                condition (ModelArts.2789, ModelArts.2790, ModelArts.2807, ModelArts.2808,
                ModelArts.2809).
                Error codes (``error_code``) by meaning:
                - malformed-body: ModelArts.2787
                - invalid-parameter: ModelArts.2788, ModelArts.0101, ModelArts.0104,
                    ModelArts.2764, ModelArts.2789, ModelArts.2790, ModelArts.2807,
                    ModelArts.2808, ModelArts.2809, ModelArts.2826
            AuthenticationError: HTTP 401: The request carries no token or signature, or it
                is invalid or expired (for example ModelArts.0201 token missing, ModelArts.0203
                token cannot be parsed, ModelArts.0202 token expired).
                Error codes (``error_code``) by meaning:
                - token-missing: ModelArts.0201, ModelArts.5001, ModelArts.0205
                - token-invalid: ModelArts.4201, ModelArts.0203, ModelArts.0204, ModelArts.5002,
                    ModelArts.6620
                - token-expired: ModelArts.0202, ModelArts.4127
                - token-without-project: ModelArts.0207, ModelArts.0212, ModelArts.4119
                - authorization-malformed: ModelArts.0206
                - signature-invalid: ModelArts.0208
                - credential-not-found: ModelArts.3801
                - request-expired: ModelArts.4203
            PermissionDeniedError: HTTP 403: The token is not accepted for this operation
                (ModelArts.2784 InvalidToken) or the user has not authorized ModelArts or lacks
                the permission (ModelArts.2785).
                Error codes (``error_code``) by meaning:
                - token-invalid: ModelArts.2784, ModelArts.0203
                - signature-invalid: ModelArts.0206
                - not-authorized: ModelArts.2785, ModelArts.0108
                - project-mismatch: ModelArts.0210
            NotFoundError: HTTP 404: The project ID in the path does not match the project
                of the token (ModelArts.2786).
                Error codes (``error_code``) by meaning:
                - project-mismatch: ModelArts.2786
            ClientError: HTTP 413: The request body is larger than the service accepts
                (ModelArts.4104; the vendor's limit is 12 MB, a server may set a lower one and
                name it in `error_solution`).
                Error codes (``error_code``) by meaning:
                - body-too-large: ModelArts.4104
            RateLimitError: HTTP 429: Too many requests (ModelArts.2799); retry after the
                number of seconds in `Retry-After`.
                Error codes (``error_code``) by meaning:
                - too-many-requests: ModelArts.2799, ModelArts.4206
            ServerError: HTTP 500: An internal error (for example ModelArts.0010).
                Error codes (``error_code``) by meaning:
                - internal-error: ModelArts.0010, ModelArts.5000
            ServerError: HTTP 503: The service cannot answer now: its backend (for example
                the job store) failed (ModelArts.4302), or the gateway is being stopped for an
                upgrade (ModelArts.4700). Nothing was changed; try again later.
                Error codes (``error_code``) by meaning:
                - backend-unavailable: ModelArts.4302
                - service-unavailable: ModelArts.4700
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (self._list_training_jobs(body, deadline=deadline)).parsed

    def _list_training_jobs(
        self,
        body: JobSearches | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[ListTrainingJobsResponse]:
        parameters = validate_parameters(
            _LIST_TRAINING_JOBS,
            _models.ListTrainingJobsParameters,
            {
                "project_id": self._project_id,
            },
        )
        content = encode_body(_LIST_TRAINING_JOBS, _models.JobSearches, body)
        response = self._send(_LIST_TRAINING_JOBS, parameters, content, deadline)
        return ApiResponse(
            response,
            decode_response(_LIST_TRAINING_JOBS, response, _models.ListTrainingJobsResponse),
        )

    def create_training_job(
        self,
        body: Job | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> JobResponse:
        """Create a training job.

        Creates a training job. The response echoes the job as ModelArts stored it.

        ``POST /v2/{project_id}/training-jobs``

        Args:
            body: The request body, a ``Job`` or a mapping validated into one before
                anything is sent; an ``UncheckedBody`` is sent as it is.
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``201`` response, as ``JobResponse``.

        Raises:
            BadRequestError: HTTP 400: The request is invalid: malformed JSON
                (ModelArts.2787), a parameter fails validation (ModelArts.2788), the job name is
                already used (ModelArts.2751), or a referenced resource such as the algorithm
                does not exist (for example ModelArts.2755).
                Error codes (``error_code``) by meaning:
                - malformed-body: ModelArts.2787
                - invalid-parameter: ModelArts.2788, ModelArts.0101, ModelArts.0104,
                    ModelArts.2774, ModelArts.2825, ModelArts.2816, ModelArts.2770,
                    ModelArts.2767, ModelArts.2765, ModelArts.2757, ModelArts.2758,
                    ModelArts.2791, ModelArts.2802, ModelArts.2806, ModelArts.2830,
                    ModelArts.2814, ModelArts.2839, ModelArts.2855, ModelArts.2857,
                    ModelArts.2859, ModelArts.2840
                - duplicate-name: ModelArts.2751
                - reference-not-found: ModelArts.2755, ModelArts.2780, ModelArts.2781,
                    ModelArts.2782, ModelArts.2783, ModelArts.2763
                - quota-exceeded: ModelArts.2815, ModelArts.2833, ModelArts.2793, ModelArts.0118
                - resource-unusable: ModelArts.2886, ModelArts.2887, ModelArts.2832,
                    ModelArts.2845, ModelArts.2810
            AuthenticationError: HTTP 401: The request carries no token or signature, or it
                is invalid or expired (for example ModelArts.0201 token missing, ModelArts.0203
                token cannot be parsed, ModelArts.0202 token expired).
                Error codes (``error_code``) by meaning:
                - token-missing: ModelArts.0201, ModelArts.5001, ModelArts.0205
                - token-invalid: ModelArts.4201, ModelArts.0203, ModelArts.0204, ModelArts.5002,
                    ModelArts.6620
                - token-expired: ModelArts.0202, ModelArts.4127
                - token-without-project: ModelArts.0207, ModelArts.0212, ModelArts.4119
                - authorization-malformed: ModelArts.0206
                - signature-invalid: ModelArts.0208
                - credential-not-found: ModelArts.3801
                - request-expired: ModelArts.4203
            PermissionDeniedError: HTTP 403: The token is not accepted for this operation
                (ModelArts.2784 InvalidToken) or the user has not authorized ModelArts or lacks
                the permission (ModelArts.2785).
                Error codes (``error_code``) by meaning:
                - token-invalid: ModelArts.2784, ModelArts.0203
                - signature-invalid: ModelArts.0206
                - not-authorized: ModelArts.2785, ModelArts.0108
                - project-mismatch: ModelArts.0210
            NotFoundError: HTTP 404: The project ID in the path does not match the project
                of the token (ModelArts.2786).
                Error codes (``error_code``) by meaning:
                - project-mismatch: ModelArts.2786
            ClientError: HTTP 413: The request body is larger than the service accepts
                (ModelArts.4104; the vendor's limit is 12 MB, a server may set a lower one and
                name it in `error_solution`).
                Error codes (``error_code``) by meaning:
                - body-too-large: ModelArts.4104
            RateLimitError: HTTP 429: Too many requests (ModelArts.2799); retry after the
                number of seconds in `Retry-After`.
                Error codes (``error_code``) by meaning:
                - too-many-requests: ModelArts.2799, ModelArts.4206
            ServerError: HTTP 500: An internal error (for example ModelArts.0010).
                Error codes (``error_code``) by meaning:
                - internal-error: ModelArts.0010, ModelArts.5000
            ServerError: HTTP 503: The service cannot answer now: its backend (for example
                the job store) failed (ModelArts.4302), or the gateway is being stopped for an
                upgrade (ModelArts.4700). Nothing was changed; try again later.
                Error codes (``error_code``) by meaning:
                - backend-unavailable: ModelArts.4302
                - service-unavailable: ModelArts.4700
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (self._create_training_job(body, deadline=deadline)).parsed

    def _create_training_job(
        self,
        body: Job | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[JobResponse]:
        parameters = validate_parameters(
            _CREATE_TRAINING_JOB,
            _models.CreateTrainingJobParameters,
            {
                "project_id": self._project_id,
            },
        )
        content = encode_body(_CREATE_TRAINING_JOB, _models.Job, body)
        response = self._send(_CREATE_TRAINING_JOB, parameters, content, deadline)
        return ApiResponse(response, decode_response(_CREATE_TRAINING_JOB, response, JobResponse))

    def show_training_job_details(
        self,
        training_job_id: str,
        *,
        deadline: float | None = None,
    ) -> JobResponse:
        """Query the details of a training job.

        Returns the training job with its current status.

        ``GET /v2/{project_id}/training-jobs/{training_job_id}``

        Args:
            training_job_id: Training job ID, as returned in `metadata.id` when the job was
                created (or by the query of the training job list).
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``JobResponse``.

        Raises:
            BadRequestError: HTTP 400: The training job does not exist (ModelArts.2775) or a
                parameter is invalid (ModelArts.2788).
                Error codes (``error_code``) by meaning:
                - not-found: ModelArts.2775
                - invalid-parameter: ModelArts.2788, ModelArts.0101, ModelArts.0104
            AuthenticationError: HTTP 401: The request carries no token or signature, or it
                is invalid or expired (for example ModelArts.0201 token missing, ModelArts.0203
                token cannot be parsed, ModelArts.0202 token expired).
                Error codes (``error_code``) by meaning:
                - token-missing: ModelArts.0201, ModelArts.5001, ModelArts.0205
                - token-invalid: ModelArts.4201, ModelArts.0203, ModelArts.0204, ModelArts.5002,
                    ModelArts.6620
                - token-expired: ModelArts.0202, ModelArts.4127
                - token-without-project: ModelArts.0207, ModelArts.0212, ModelArts.4119
                - authorization-malformed: ModelArts.0206
                - signature-invalid: ModelArts.0208
                - credential-not-found: ModelArts.3801
                - request-expired: ModelArts.4203
            PermissionDeniedError: HTTP 403: The token is not accepted for this operation
                (ModelArts.2784 InvalidToken) or the user has not authorized ModelArts or lacks
                the permission (ModelArts.2785).
                Error codes (``error_code``) by meaning:
                - token-invalid: ModelArts.2784, ModelArts.0203
                - signature-invalid: ModelArts.0206
                - not-authorized: ModelArts.2785, ModelArts.0108
                - project-mismatch: ModelArts.0210
            NotFoundError: HTTP 404: The project ID in the path does not match the project
                of the token (ModelArts.2786).
                Error codes (``error_code``) by meaning:
                - project-mismatch: ModelArts.2786
            RateLimitError: HTTP 429: Too many requests (ModelArts.2799); retry after the
                number of seconds in `Retry-After`.
                Error codes (``error_code``) by meaning:
                - too-many-requests: ModelArts.2799, ModelArts.4206
            ServerError: HTTP 500: An internal error (for example ModelArts.0010).
                Error codes (``error_code``) by meaning:
                - internal-error: ModelArts.0010, ModelArts.5000
            ServerError: HTTP 503: The service cannot answer now: its backend (for example
                the job store) failed (ModelArts.4302), or the gateway is being stopped for an
                upgrade (ModelArts.4700). Nothing was changed; try again later.
                Error codes (``error_code``) by meaning:
                - backend-unavailable: ModelArts.4302
                - service-unavailable: ModelArts.4700
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (self._show_training_job_details(training_job_id, deadline=deadline)).parsed

    def _show_training_job_details(
        self,
        training_job_id: str,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[JobResponse]:
        parameters = validate_parameters(
            _SHOW_TRAINING_JOB_DETAILS,
            _models.ShowTrainingJobDetailsParameters,
            {
                "project_id": self._project_id,
                "training_job_id": training_job_id,
            },
        )
        content = None
        response = self._send(_SHOW_TRAINING_JOB_DETAILS, parameters, content, deadline)
        return ApiResponse(
            response, decode_response(_SHOW_TRAINING_JOB_DETAILS, response, JobResponse)
        )

    def change_training_job_description(
        self,
        training_job_id: str,
        body: JobUpdateRequestBody | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> None:
        """Modify the description of a training job.

        Replaces the description of a training job; show and list return the new description.

        ``PUT /v2/{project_id}/training-jobs/{training_job_id}``

        Args:
            training_job_id: Training job ID, as returned in `metadata.id` when the job was
                created (or by the query of the training job list).
            body: The request body, a ``JobUpdateRequestBody`` or a mapping validated into
                one before anything is sent; an ``UncheckedBody`` is sent as it is.
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            Nothing (``200``).

        Raises:
            BadRequestError: HTTP 400: Malformed JSON (ModelArts.2787), an invalid parameter
                such as a description longer than 256 characters (ModelArts.2788), or the
                training job does not exist (ModelArts.2775).
                Error codes (``error_code``) by meaning:
                - malformed-body: ModelArts.2787
                - invalid-parameter: ModelArts.2788, ModelArts.0101, ModelArts.0104
                - not-found: ModelArts.2775
            AuthenticationError: HTTP 401: The request carries no token or signature, or it
                is invalid or expired (for example ModelArts.0201 token missing, ModelArts.0203
                token cannot be parsed, ModelArts.0202 token expired).
                Error codes (``error_code``) by meaning:
                - token-missing: ModelArts.0201, ModelArts.5001, ModelArts.0205
                - token-invalid: ModelArts.4201, ModelArts.0203, ModelArts.0204, ModelArts.5002,
                    ModelArts.6620
                - token-expired: ModelArts.0202, ModelArts.4127
                - token-without-project: ModelArts.0207, ModelArts.0212, ModelArts.4119
                - authorization-malformed: ModelArts.0206
                - signature-invalid: ModelArts.0208
                - credential-not-found: ModelArts.3801
                - request-expired: ModelArts.4203
            PermissionDeniedError: HTTP 403: The token is not accepted for this operation
                (ModelArts.2784 InvalidToken) or the user has not authorized ModelArts or lacks
                the permission (ModelArts.2785).
                Error codes (``error_code``) by meaning:
                - token-invalid: ModelArts.2784, ModelArts.0203
                - signature-invalid: ModelArts.0206
                - not-authorized: ModelArts.2785, ModelArts.0108
                - project-mismatch: ModelArts.0210
            NotFoundError: HTTP 404: The project ID in the path does not match the project
                of the token (ModelArts.2786).
                Error codes (``error_code``) by meaning:
                - project-mismatch: ModelArts.2786
            ClientError: HTTP 413: The request body is larger than the service accepts
                (ModelArts.4104; the vendor's limit is 12 MB, a server may set a lower one and
                name it in `error_solution`).
                Error codes (``error_code``) by meaning:
                - body-too-large: ModelArts.4104
            RateLimitError: HTTP 429: Too many requests (ModelArts.2799); retry after the
                number of seconds in `Retry-After`.
                Error codes (``error_code``) by meaning:
                - too-many-requests: ModelArts.2799, ModelArts.4206
            ServerError: HTTP 500: An internal error (for example ModelArts.0010).
                Error codes (``error_code``) by meaning:
                - internal-error: ModelArts.0010, ModelArts.5000
            ServerError: HTTP 503: The service cannot answer now: its backend (for example
                the job store) failed (ModelArts.4302), or the gateway is being stopped for an
                upgrade (ModelArts.4700). Nothing was changed; try again later.
                Error codes (``error_code``) by meaning:
                - backend-unavailable: ModelArts.4302
                - service-unavailable: ModelArts.4700
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (
            self._change_training_job_description(training_job_id, body, deadline=deadline)
        ).parsed

    def _change_training_job_description(
        self,
        training_job_id: str,
        body: JobUpdateRequestBody | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[None]:
        parameters = validate_parameters(
            _CHANGE_TRAINING_JOB_DESCRIPTION,
            _models.ChangeTrainingJobDescriptionParameters,
            {
                "project_id": self._project_id,
                "training_job_id": training_job_id,
            },
        )
        content = encode_body(_CHANGE_TRAINING_JOB_DESCRIPTION, _models.JobUpdateRequestBody, body)
        response = self._send(_CHANGE_TRAINING_JOB_DESCRIPTION, parameters, content, deadline)
        return ApiResponse(response, None)

    def delete_training_job(
        self,
        training_job_id: str,
        *,
        body: DeleteTrainingJobBody | Mapping[str, Any] | UncheckedBody | None = None,
        deadline: float | None = None,
    ) -> None:
        """Delete a training job.

        Deletes a training job. The job is gone afterwards: show, delete and change description
        answer the unknown-job error (400 ModelArts.2775), and the list no longer has it. The
        page documents no request body; a body is optional and ignored (clients such as
        modelarts-macli send `{}`).

        ``DELETE /v2/{project_id}/training-jobs/{training_job_id}``

        Args:
            training_job_id: Training job ID, as returned in `metadata.id` when the job was
                created (or by the query of the training job list).
            body: The request body, a ``DeleteTrainingJobBody`` or a mapping validated into
                one before anything is sent; an ``UncheckedBody`` is sent as it is.
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            Nothing (``202``).

        Raises:
            BadRequestError: HTTP 400: The training job does not exist, or no longer exists
                because it was deleted (ModelArts.2775), a parameter is invalid
                (ModelArts.2788), or a body was sent that is not JSON (ModelArts.2787).
                Error codes (``error_code``) by meaning:
                - not-found: ModelArts.2775
                - invalid-parameter: ModelArts.2788, ModelArts.0101, ModelArts.0104
                - malformed-body: ModelArts.2787
            AuthenticationError: HTTP 401: The request carries no token or signature, or it
                is invalid or expired (for example ModelArts.0201 token missing, ModelArts.0203
                token cannot be parsed, ModelArts.0202 token expired).
                Error codes (``error_code``) by meaning:
                - token-missing: ModelArts.0201, ModelArts.5001, ModelArts.0205
                - token-invalid: ModelArts.4201, ModelArts.0203, ModelArts.0204, ModelArts.5002,
                    ModelArts.6620
                - token-expired: ModelArts.0202, ModelArts.4127
                - token-without-project: ModelArts.0207, ModelArts.0212, ModelArts.4119
                - authorization-malformed: ModelArts.0206
                - signature-invalid: ModelArts.0208
                - credential-not-found: ModelArts.3801
                - request-expired: ModelArts.4203
            PermissionDeniedError: HTTP 403: The token is not accepted for this operation
                (ModelArts.2784 InvalidToken) or the user has not authorized ModelArts or lacks
                the permission (ModelArts.2785).
                Error codes (``error_code``) by meaning:
                - token-invalid: ModelArts.2784, ModelArts.0203
                - signature-invalid: ModelArts.0206
                - not-authorized: ModelArts.2785, ModelArts.0108
                - project-mismatch: ModelArts.0210
            NotFoundError: HTTP 404: The project ID in the path does not match the project
                of the token (ModelArts.2786).
                Error codes (``error_code``) by meaning:
                - project-mismatch: ModelArts.2786
            ClientError: HTTP 413: The request body is larger than the service accepts
                (ModelArts.4104; the vendor's limit is 12 MB, a server may set a lower one and
                name it in `error_solution`).
                Error codes (``error_code``) by meaning:
                - body-too-large: ModelArts.4104
            RateLimitError: HTTP 429: Too many requests (ModelArts.2799); retry after the
                number of seconds in `Retry-After`.
                Error codes (``error_code``) by meaning:
                - too-many-requests: ModelArts.2799, ModelArts.4206
            ServerError: HTTP 500: An internal error (for example ModelArts.0010).
                Error codes (``error_code``) by meaning:
                - internal-error: ModelArts.0010, ModelArts.5000
            ServerError: HTTP 503: The service cannot answer now: its backend (for example
                the job store) failed (ModelArts.4302), or the gateway is being stopped for an
                upgrade (ModelArts.4700). Nothing was changed; try again later.
                Error codes (``error_code``) by meaning:
                - backend-unavailable: ModelArts.4302
                - service-unavailable: ModelArts.4700
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (self._delete_training_job(training_job_id, body=body, deadline=deadline)).parsed

    def _delete_training_job(
        self,
        training_job_id: str,
        *,
        body: DeleteTrainingJobBody | Mapping[str, Any] | UncheckedBody | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[None]:
        parameters = validate_parameters(
            _DELETE_TRAINING_JOB,
            _models.DeleteTrainingJobParameters,
            {
                "project_id": self._project_id,
                "training_job_id": training_job_id,
            },
        )
        content = encode_body(_DELETE_TRAINING_JOB, _models.DeleteTrainingJobBody, body)
        response = self._send(_DELETE_TRAINING_JOB, parameters, content, deadline)
        return ApiResponse(response, None)

    def stop_training_job(
        self,
        training_job_id: str,
        body: JobActionType | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> JobResponse:
        """Terminate a training job.

        Terminates a training job. Only jobs in the Creating, Pending (waiting) or Running phase
        can be terminated; any other phase gives 409 ModelArts.2796.

        ``POST /v2/{project_id}/training-jobs/{training_job_id}/actions``

        Args:
            training_job_id: Training job ID, as returned in `metadata.id` when the job was
                created (or by the query of the training job list).
            body: The request body, a ``JobActionType`` or a mapping validated into one
                before anything is sent; an ``UncheckedBody`` is sent as it is.
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``202`` response, as ``JobResponse``.

        Raises:
            BadRequestError: HTTP 400: Malformed JSON (ModelArts.2787), an invalid parameter
                (ModelArts.2788), an unsupported action_type (ModelArts.2812), or the training
                job does not exist (ModelArts.2775).
                Error codes (``error_code``) by meaning:
                - malformed-body: ModelArts.2787
                - invalid-parameter: ModelArts.2788, ModelArts.0101, ModelArts.0104
                - unsupported-action: ModelArts.2812, ModelArts.2788, ModelArts.0104
                - not-found: ModelArts.2775
            AuthenticationError: HTTP 401: The request carries no token or signature, or it
                is invalid or expired (for example ModelArts.0201 token missing, ModelArts.0203
                token cannot be parsed, ModelArts.0202 token expired).
                Error codes (``error_code``) by meaning:
                - token-missing: ModelArts.0201, ModelArts.5001, ModelArts.0205
                - token-invalid: ModelArts.4201, ModelArts.0203, ModelArts.0204, ModelArts.5002,
                    ModelArts.6620
                - token-expired: ModelArts.0202, ModelArts.4127
                - token-without-project: ModelArts.0207, ModelArts.0212, ModelArts.4119
                - authorization-malformed: ModelArts.0206
                - signature-invalid: ModelArts.0208
                - credential-not-found: ModelArts.3801
                - request-expired: ModelArts.4203
            PermissionDeniedError: HTTP 403: The token is not accepted for this operation
                (ModelArts.2784 InvalidToken) or the user has not authorized ModelArts or lacks
                the permission (ModelArts.2785).
                Error codes (``error_code``) by meaning:
                - token-invalid: ModelArts.2784, ModelArts.0203
                - signature-invalid: ModelArts.0206
                - not-authorized: ModelArts.2785, ModelArts.0108
                - project-mismatch: ModelArts.0210
            NotFoundError: HTTP 404: The project ID in the path does not match the project
                of the token (ModelArts.2786).
                Error codes (``error_code``) by meaning:
                - project-mismatch: ModelArts.2786
            ConflictError: HTTP 409: The job is in a phase in which it cannot be terminated
                (ModelArts.2796).
                Error codes (``error_code``) by meaning:
                - not-terminable: ModelArts.2796
                - status-changed: ModelArts.2878
            ClientError: HTTP 413: The request body is larger than the service accepts
                (ModelArts.4104; the vendor's limit is 12 MB, a server may set a lower one and
                name it in `error_solution`).
                Error codes (``error_code``) by meaning:
                - body-too-large: ModelArts.4104
            RateLimitError: HTTP 429: Too many requests (ModelArts.2799); retry after the
                number of seconds in `Retry-After`.
                Error codes (``error_code``) by meaning:
                - too-many-requests: ModelArts.2799, ModelArts.4206
            ServerError: HTTP 500: An internal error (for example ModelArts.0010).
                Error codes (``error_code``) by meaning:
                - internal-error: ModelArts.0010, ModelArts.5000
            ServerError: HTTP 503: The service cannot answer now: its backend (for example
                the job store) failed (ModelArts.4302), or the gateway is being stopped for an
                upgrade (ModelArts.4700). Nothing was changed; try again later.
                Error codes (``error_code``) by meaning:
                - backend-unavailable: ModelArts.4302
                - service-unavailable: ModelArts.4700
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (self._stop_training_job(training_job_id, body, deadline=deadline)).parsed

    def _stop_training_job(
        self,
        training_job_id: str,
        body: JobActionType | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[JobResponse]:
        parameters = validate_parameters(
            _STOP_TRAINING_JOB,
            _models.StopTrainingJobParameters,
            {
                "project_id": self._project_id,
                "training_job_id": training_job_id,
            },
        )
        content = encode_body(_STOP_TRAINING_JOB, _models.JobActionType, body)
        response = self._send(_STOP_TRAINING_JOB, parameters, content, deadline)
        return ApiResponse(response, decode_response(_STOP_TRAINING_JOB, response, JobResponse))

    def list_training_job_events(
        self,
        training_job_id: str,
        *,
        offset: int | None = None,
        limit: int | None = None,
        order: Literal["asc", "desc"] | None = None,
        start_time: str | None = None,
        end_time: str | None = None,
        level: Literal["Info", "Error", "Warning"] | None = None,
        pattern: str | None = None,
        source: Literal["K8S", "Job", "Task"] | None = None,
        x_language: str | None = None,
        deadline: float | None = None,
    ) -> TrainingJobEvents:
        """Obtain the events of a training job.

        Returns the events of a training job (its lifecycle, its tasks and the Kubernetes
        objects behind them), one page at a time.

        ``GET /v2/{project_id}/training-jobs/{training_job_id}/events``

        Args:
            training_job_id: Training job ID, as returned in `metadata.id` when the job was
                created (or by the query of the training job list).
            offset: Offset of the first event returned (0, the default, is the first). The
                page gives no range; it calls the value the "Offset of a data entry", and no
                entry is before the first, so a negative offset names none (minimum 0, the
                ledger's decision: it binds neither end).
            limit: Maximum number of events returned on each page, from 1 to 100 (default
                50).
            order: Order of the events by time: `desc` (newest first) or `asc`. The page
                says only "instance order"; its example sends `desc`.
            start_time: Start of the time window, in milliseconds since the Unix epoch (the
                page's example sends `1669449696964`). Must be passed together with `end_time`.
            end_time: End of the time window, in milliseconds since the Unix epoch. Must be
                passed together with `start_time`.
            level: Level of the events to return.
            pattern: Text the events must contain, at most 256 characters.
            source: Source of the events to return.
            x_language: Language of the event messages.
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``TrainingJobEvents``.

        Raises:
            BadRequestError: HTTP 400: The training job does not exist (ModelArts.2775) or a
                query parameter is invalid (ModelArts.2788).
                Error codes (``error_code``) by meaning:
                - not-found: ModelArts.2775
                - invalid-parameter: ModelArts.2788, ModelArts.2764, ModelArts.0101,
                    ModelArts.0104
            AuthenticationError: HTTP 401: The request carries no token or signature, or it
                is invalid or expired (for example ModelArts.0201 token missing, ModelArts.0203
                token cannot be parsed, ModelArts.0202 token expired).
                Error codes (``error_code``) by meaning:
                - token-missing: ModelArts.0201, ModelArts.5001, ModelArts.0205
                - token-invalid: ModelArts.4201, ModelArts.0203, ModelArts.0204, ModelArts.5002,
                    ModelArts.6620
                - token-expired: ModelArts.0202, ModelArts.4127
                - token-without-project: ModelArts.0207, ModelArts.0212, ModelArts.4119
                - authorization-malformed: ModelArts.0206
                - signature-invalid: ModelArts.0208
                - credential-not-found: ModelArts.3801
                - request-expired: ModelArts.4203
            PermissionDeniedError: HTTP 403: The token is not accepted for this operation
                (ModelArts.2784 InvalidToken) or the user has not authorized ModelArts or lacks
                the permission (ModelArts.2785).
                Error codes (``error_code``) by meaning:
                - token-invalid: ModelArts.2784, ModelArts.0203
                - signature-invalid: ModelArts.0206
                - not-authorized: ModelArts.2785, ModelArts.0108
                - project-mismatch: ModelArts.0210
            NotFoundError: HTTP 404: The project ID in the path does not match the project
                of the token (ModelArts.2786).
                Error codes (``error_code``) by meaning:
                - project-mismatch: ModelArts.2786
            RateLimitError: HTTP 429: Too many requests (ModelArts.2799); retry after the
                number of seconds in `Retry-After`.
                Error codes (``error_code``) by meaning:
                - too-many-requests: ModelArts.2799, ModelArts.4206
            ServerError: HTTP 500: An internal error (for example ModelArts.0010).
                Error codes (``error_code``) by meaning:
                - internal-error: ModelArts.0010, ModelArts.5000
            ServerError: HTTP 503: The service cannot answer now: its backend (for example
                the job store) failed (ModelArts.4302), or the gateway is being stopped for an
                upgrade (ModelArts.4700). Nothing was changed; try again later.
                Error codes (``error_code``) by meaning:
                - backend-unavailable: ModelArts.4302
                - service-unavailable: ModelArts.4700
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (
            self._list_training_job_events(
                training_job_id,
                offset=offset,
                limit=limit,
                order=order,
                start_time=start_time,
                end_time=end_time,
                level=level,
                pattern=pattern,
                source=source,
                x_language=x_language,
                deadline=deadline,
            )
        ).parsed

    def _list_training_job_events(
        self,
        training_job_id: str,
        *,
        offset: int | None = None,
        limit: int | None = None,
        order: Literal["asc", "desc"] | None = None,
        start_time: str | None = None,
        end_time: str | None = None,
        level: Literal["Info", "Error", "Warning"] | None = None,
        pattern: str | None = None,
        source: Literal["K8S", "Job", "Task"] | None = None,
        x_language: str | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[TrainingJobEvents]:
        parameters = validate_parameters(
            _LIST_TRAINING_JOB_EVENTS,
            _models.ListTrainingJobEventsParameters,
            {
                "project_id": self._project_id,
                "training_job_id": training_job_id,
                "offset": offset,
                "limit": limit,
                "order": order,
                "start_time": start_time,
                "end_time": end_time,
                "level": level,
                "pattern": pattern,
                "source": source,
                "X-Language": x_language,
            },
        )
        content = None
        response = self._send(_LIST_TRAINING_JOB_EVENTS, parameters, content, deadline)
        return ApiResponse(
            response,
            decode_response(_LIST_TRAINING_JOB_EVENTS, response, _models.TrainingJobEvents),
        )

    def show_training_job_logs_preview(
        self,
        training_job_id: str,
        task_id: str,
        *,
        deadline: float | None = None,
    ) -> TaskLogPreview:
        """Query the logs of a task of a training job (preview).

        Returns the log of one task of a training job: all of it up to the size limit, otherwise
        its latest part.

        ``GET /v2/{project_id}/training-jobs/{training_job_id}/tasks/{task_id}/logs/preview``

        Args:
            training_job_id: Training job ID, as returned in `metadata.id` when the job was
                created (or by the query of the training job list).
            task_id: Name of a task of the training job, for example `worker-0`: one of the
                names in the job's `status.tasks` (the job's details, `ShowTrainingJobDetails`).
                A name the job does not have is refused (400 ModelArts.2788, invalid parameter
                task_id).
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``TaskLogPreview``.

        Raises:
            BadRequestError: HTTP 400: The training job does not exist (ModelArts.2775), the
                job has no task of this name (ModelArts.2788, invalid parameter task_id) or a
                parameter is invalid (ModelArts.2788).
                Error codes (``error_code``) by meaning:
                - not-found: ModelArts.2775
                - task-not-found: ModelArts.2788, ModelArts.0101, ModelArts.0104
                - invalid-parameter: ModelArts.2788, ModelArts.0101, ModelArts.0104
            AuthenticationError: HTTP 401: The request carries no token or signature, or it
                is invalid or expired (for example ModelArts.0201 token missing, ModelArts.0203
                token cannot be parsed, ModelArts.0202 token expired).
                Error codes (``error_code``) by meaning:
                - token-missing: ModelArts.0201, ModelArts.5001, ModelArts.0205
                - token-invalid: ModelArts.4201, ModelArts.0203, ModelArts.0204, ModelArts.5002,
                    ModelArts.6620
                - token-expired: ModelArts.0202, ModelArts.4127
                - token-without-project: ModelArts.0207, ModelArts.0212, ModelArts.4119
                - authorization-malformed: ModelArts.0206
                - signature-invalid: ModelArts.0208
                - credential-not-found: ModelArts.3801
                - request-expired: ModelArts.4203
            PermissionDeniedError: HTTP 403: The token is not accepted for this operation
                (ModelArts.2784 InvalidToken) or the user has not authorized ModelArts or lacks
                the permission (ModelArts.2785).
                Error codes (``error_code``) by meaning:
                - token-invalid: ModelArts.2784, ModelArts.0203
                - signature-invalid: ModelArts.0206
                - not-authorized: ModelArts.2785, ModelArts.0108
                - project-mismatch: ModelArts.0210
            NotFoundError: HTTP 404: The project ID in the path does not match the project
                of the token (ModelArts.2786).
                Error codes (``error_code``) by meaning:
                - project-mismatch: ModelArts.2786
            RateLimitError: HTTP 429: Too many requests (ModelArts.2799); retry after the
                number of seconds in `Retry-After`.
                Error codes (``error_code``) by meaning:
                - too-many-requests: ModelArts.2799, ModelArts.4206
            ServerError: HTTP 500: An internal error (for example ModelArts.0010).
                Error codes (``error_code``) by meaning:
                - internal-error: ModelArts.0010, ModelArts.5000
            ServerError: HTTP 503: The service cannot answer now: its backend (for example
                the job store) failed (ModelArts.4302), or the gateway is being stopped for an
                upgrade (ModelArts.4700). Nothing was changed; try again later.
                Error codes (``error_code``) by meaning:
                - backend-unavailable: ModelArts.4302
                - service-unavailable: ModelArts.4700
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (
            self._show_training_job_logs_preview(training_job_id, task_id, deadline=deadline)
        ).parsed

    def _show_training_job_logs_preview(
        self,
        training_job_id: str,
        task_id: str,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[TaskLogPreview]:
        parameters = validate_parameters(
            _SHOW_TRAINING_JOB_LOGS_PREVIEW,
            _models.ShowTrainingJobLogsPreviewParameters,
            {
                "project_id": self._project_id,
                "training_job_id": training_job_id,
                "task_id": task_id,
            },
        )
        content = None
        response = self._send(_SHOW_TRAINING_JOB_LOGS_PREVIEW, parameters, content, deadline)
        return ApiResponse(
            response,
            decode_response(_SHOW_TRAINING_JOB_LOGS_PREVIEW, response, _models.TaskLogPreview),
        )

    def show_obs_url_of_training_job_logs(
        self,
        training_job_id: str,
        task_id: str,
        *,
        content_type: Literal["text/plain", "application/octet-stream"] | None = None,
        deadline: float | None = None,
    ) -> TaskLogObsUrl:
        """Query the OBS link of the logs of a task of a training job.

        Returns a temporary OBS link (valid for 5 minutes) to the complete log of one task of a
        training job, to view it (`text/plain`) or to download it (`application/octet-stream`).

        ``GET /v2/{project_id}/training-jobs/{training_job_id}/tasks/{task_id}/logs/url``

        Args:
            training_job_id: Training job ID, as returned in `metadata.id` when the job was
                created (or by the query of the training job list).
            task_id: Name of a task of the training job, for example `worker-0`: one of the
                names in the job's `status.tasks` (the job's details, `ShowTrainingJobDetails`).
                A name the job does not have is refused (400 ModelArts.2788, invalid parameter
                task_id).
            content_type: `text/plain` for a link that shows the log,
                `application/octet-stream` for a link that downloads it. The page's table calls
                it a request header, its example request sends it in the query string; OpenAPI
                ignores a header parameter named Content-Type, so the spec declares the query
                form.
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``TaskLogObsUrl``.

        Raises:
            BadRequestError: HTTP 400: The training job does not exist (ModelArts.2775), the
                job has no task of this name (ModelArts.2788, invalid parameter task_id) or a
                parameter is invalid (ModelArts.2788).
                Error codes (``error_code``) by meaning:
                - not-found: ModelArts.2775
                - task-not-found: ModelArts.2788, ModelArts.0101, ModelArts.0104
                - invalid-parameter: ModelArts.2788, ModelArts.0101, ModelArts.0104
            AuthenticationError: HTTP 401: The request carries no token or signature, or it
                is invalid or expired (for example ModelArts.0201 token missing, ModelArts.0203
                token cannot be parsed, ModelArts.0202 token expired).
                Error codes (``error_code``) by meaning:
                - token-missing: ModelArts.0201, ModelArts.5001, ModelArts.0205
                - token-invalid: ModelArts.4201, ModelArts.0203, ModelArts.0204, ModelArts.5002,
                    ModelArts.6620
                - token-expired: ModelArts.0202, ModelArts.4127
                - token-without-project: ModelArts.0207, ModelArts.0212, ModelArts.4119
                - authorization-malformed: ModelArts.0206
                - signature-invalid: ModelArts.0208
                - credential-not-found: ModelArts.3801
                - request-expired: ModelArts.4203
            PermissionDeniedError: HTTP 403: The token is not accepted for this operation
                (ModelArts.2784 InvalidToken) or the user has not authorized ModelArts or lacks
                the permission (ModelArts.2785).
                Error codes (``error_code``) by meaning:
                - token-invalid: ModelArts.2784, ModelArts.0203
                - signature-invalid: ModelArts.0206
                - not-authorized: ModelArts.2785, ModelArts.0108
                - project-mismatch: ModelArts.0210
            NotFoundError: HTTP 404: The project ID in the path does not match the project
                of the token (ModelArts.2786).
                Error codes (``error_code``) by meaning:
                - project-mismatch: ModelArts.2786
            RateLimitError: HTTP 429: Too many requests (ModelArts.2799); retry after the
                number of seconds in `Retry-After`.
                Error codes (``error_code``) by meaning:
                - too-many-requests: ModelArts.2799, ModelArts.4206
            ServerError: HTTP 500: An internal error (for example ModelArts.0010).
                Error codes (``error_code``) by meaning:
                - internal-error: ModelArts.0010, ModelArts.5000
            ServerError: HTTP 503: The service cannot answer now: its backend (for example
                the job store) failed (ModelArts.4302), or the gateway is being stopped for an
                upgrade (ModelArts.4700). Nothing was changed; try again later.
                Error codes (``error_code``) by meaning:
                - backend-unavailable: ModelArts.4302
                - service-unavailable: ModelArts.4700
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (
            self._show_obs_url_of_training_job_logs(
                training_job_id, task_id, content_type=content_type, deadline=deadline
            )
        ).parsed

    def _show_obs_url_of_training_job_logs(
        self,
        training_job_id: str,
        task_id: str,
        *,
        content_type: Literal["text/plain", "application/octet-stream"] | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[TaskLogObsUrl]:
        parameters = validate_parameters(
            _SHOW_OBS_URL_OF_TRAINING_JOB_LOGS,
            _models.ShowObsUrlOfTrainingJobLogsParameters,
            {
                "project_id": self._project_id,
                "training_job_id": training_job_id,
                "task_id": task_id,
                "Content-Type": content_type,
            },
        )
        content = None
        response = self._send(_SHOW_OBS_URL_OF_TRAINING_JOB_LOGS, parameters, content, deadline)
        return ApiResponse(
            response,
            decode_response(_SHOW_OBS_URL_OF_TRAINING_JOB_LOGS, response, _models.TaskLogObsUrl),
        )

    def show_training_job_metrics(
        self,
        training_job_id: str,
        task_id: str,
        *,
        deadline: float | None = None,
    ) -> TaskMetrics:
        """Query the running metrics of a task of a training job.

        Returns the running metrics (per-minute averages) of one task of a training job.

        ``GET /v2/{project_id}/training-jobs/{training_job_id}/metrics/{task_id}``

        Args:
            training_job_id: Training job ID, as returned in `metadata.id` when the job was
                created (or by the query of the training job list).
            task_id: Name of a task of the training job, for example `worker-0`: one of the
                names in the job's `status.tasks` (the job's details, `ShowTrainingJobDetails`).
                A name the job does not have is refused (400 ModelArts.2788, invalid parameter
                task_id).
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``TaskMetrics``.

        Raises:
            BadRequestError: HTTP 400: The training job does not exist (ModelArts.2775), the
                job has no task of this name (ModelArts.2788, invalid parameter task_id) or a
                parameter is invalid (ModelArts.2788).
                Error codes (``error_code``) by meaning:
                - not-found: ModelArts.2775
                - task-not-found: ModelArts.2788, ModelArts.0101, ModelArts.0104
                - invalid-parameter: ModelArts.2788, ModelArts.0101, ModelArts.0104
            AuthenticationError: HTTP 401: The request carries no token or signature, or it
                is invalid or expired (for example ModelArts.0201 token missing, ModelArts.0203
                token cannot be parsed, ModelArts.0202 token expired).
                Error codes (``error_code``) by meaning:
                - token-missing: ModelArts.0201, ModelArts.5001, ModelArts.0205
                - token-invalid: ModelArts.4201, ModelArts.0203, ModelArts.0204, ModelArts.5002,
                    ModelArts.6620
                - token-expired: ModelArts.0202, ModelArts.4127
                - token-without-project: ModelArts.0207, ModelArts.0212, ModelArts.4119
                - authorization-malformed: ModelArts.0206
                - signature-invalid: ModelArts.0208
                - credential-not-found: ModelArts.3801
                - request-expired: ModelArts.4203
            PermissionDeniedError: HTTP 403: The token is not accepted for this operation
                (ModelArts.2784 InvalidToken) or the user has not authorized ModelArts or lacks
                the permission (ModelArts.2785).
                Error codes (``error_code``) by meaning:
                - token-invalid: ModelArts.2784, ModelArts.0203
                - signature-invalid: ModelArts.0206
                - not-authorized: ModelArts.2785, ModelArts.0108
                - project-mismatch: ModelArts.0210
            NotFoundError: HTTP 404: The project ID in the path does not match the project
                of the token (ModelArts.2786).
                Error codes (``error_code``) by meaning:
                - project-mismatch: ModelArts.2786
            RateLimitError: HTTP 429: Too many requests (ModelArts.2799); retry after the
                number of seconds in `Retry-After`.
                Error codes (``error_code``) by meaning:
                - too-many-requests: ModelArts.2799, ModelArts.4206
            ServerError: HTTP 500: An internal error (for example ModelArts.0010).
                Error codes (``error_code``) by meaning:
                - internal-error: ModelArts.0010, ModelArts.5000
            ServerError: HTTP 503: The service cannot answer now: its backend (for example
                the job store) failed (ModelArts.4302), or the gateway is being stopped for an
                upgrade (ModelArts.4700). Nothing was changed; try again later.
                Error codes (``error_code``) by meaning:
                - backend-unavailable: ModelArts.4302
                - service-unavailable: ModelArts.4700
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (self._show_training_job_metrics(training_job_id, task_id, deadline=deadline)).parsed

    def _show_training_job_metrics(
        self,
        training_job_id: str,
        task_id: str,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[TaskMetrics]:
        parameters = validate_parameters(
            _SHOW_TRAINING_JOB_METRICS,
            _models.ShowTrainingJobMetricsParameters,
            {
                "project_id": self._project_id,
                "training_job_id": training_job_id,
                "task_id": task_id,
            },
        )
        content = None
        response = self._send(_SHOW_TRAINING_JOB_METRICS, parameters, content, deadline)
        return ApiResponse(
            response, decode_response(_SHOW_TRAINING_JOB_METRICS, response, _models.TaskMetrics)
        )

    def wait_for_training_job(
        self,
        training_job_id: str,
        *,
        until: Collection[str] = TRAINING_JOB_FINAL_PHASES,
        timeout: float = DEFAULT_WAIT_TIMEOUT,
        poll: float = DEFAULT_POLL,
        max_poll: float = DEFAULT_MAX_POLL,
    ) -> JobResponse:
        """Poll ``show_training_job_details`` until the job's ``status.phase`` is one of ``until``
        (by default the final phases: Failed, Completed, Terminated, Abnormal).

        The first poll is immediate; the wait between polls starts at ``poll`` seconds and
        doubles after each poll, up to ``max_poll``. Errors of the polls are raised as they are
        (retries of idempotent requests happen inside each poll).

        Returns:
            The last ``JobResponse``, whose phase is in ``until``.

        Raises:
            WaitTimeoutError: ``timeout`` seconds passed first; it carries the last
                response (``last_response``, an ``ApiResponse``) and its phase.
            ValueError: ``until`` is empty, or ``timeout``/``poll``/``max_poll`` is negative.
        """
        plan = WaitPlan(
            "wait_for_training_job",
            training_job_id,
            until,
            timeout,
            poll,
            max_poll,
            clock=self._clock,
        )
        while True:
            response = self._show_training_job_details(training_job_id)
            delay = plan.after(response)
            if delay is None:
                return response.parsed
            self._sleep(delay)

    def iter_training_jobs(
        self,
        body: JobSearches | Mapping[str, Any] | UncheckedBody | None = None,
        *,
        page_size: int = 50,
        max_pages: int = DEFAULT_MAX_PAGES,
        deadline: float | None = None,
    ) -> Iterator[JobResponse]:
        """Every item of ``list_training_jobs`` (its answers' ``items``), page after page.

        Takes the arguments of ``list_training_jobs`` but the body's ``offset`` and ``limit``,
        which the iterator sets: pages of ``page_size`` items (the spec's largest, 50) are asked
        for one after the other (the offset counts pages) until one comes back shorter, or the
        answer's ``count`` (the entries that meet the request) is reached. Each page is one
        call, with its own ``deadline``.

        Raises:
            PagingError: the pages did not end within ``max_pages`` pages.
            ValueError: ``page_size`` or ``max_pages`` is not a positive integer.
            The errors of ``list_training_jobs``.
        """
        plan = PagePlan(
            "iter_training_jobs",
            page_size,
            max_pages,
            offset_counts="pages",
        )
        while True:
            page = self.list_training_jobs(
                page_body(body, "offset", plan.offset, "limit", plan.limit), deadline=deadline
            )
            items = page.items or []
            yield from items
            if not plan.after(len(items), page.count):
                return

    def iter_training_job_events(
        self,
        training_job_id: str,
        *,
        order: Literal["asc", "desc"] | None = None,
        start_time: str | None = None,
        end_time: str | None = None,
        level: Literal["Info", "Error", "Warning"] | None = None,
        pattern: str | None = None,
        source: Literal["K8S", "Job", "Task"] | None = None,
        x_language: str | None = None,
        page_size: int = 100,
        max_pages: int = DEFAULT_MAX_PAGES,
        deadline: float | None = None,
    ) -> Iterator[Event]:
        """Every item of ``list_training_job_events`` (its answers' ``events``), page after page.

        Takes the arguments of ``list_training_job_events`` but the ``offset`` and ``limit``,
        which the iterator sets: pages of ``page_size`` items (the spec's largest, 100) are
        asked for one after the other (the offset counts items) until one comes back shorter, or
        the answer's ``total`` (the entries that meet the request) is reached. Each page is one
        call, with its own ``deadline``.

        Raises:
            PagingError: the pages did not end within ``max_pages`` pages.
            ValueError: ``page_size`` or ``max_pages`` is not a positive integer.
            The errors of ``list_training_job_events``.
        """
        plan = PagePlan(
            "iter_training_job_events",
            page_size,
            max_pages,
            offset_counts="items",
        )
        while True:
            page = self.list_training_job_events(
                training_job_id,
                order=order,
                start_time=start_time,
                end_time=end_time,
                level=level,
                pattern=pattern,
                source=source,
                x_language=x_language,
                offset=plan.offset,
                limit=plan.limit,
                deadline=deadline,
            )
            items = page.events or []
            yield from items
            if not plan.after(len(items), page.total):
                return

    def follow_training_job(
        self,
        training_job_id: str,
        *,
        until: Collection[str] = TRAINING_JOB_FINAL_PHASES,
        timeout: float = DEFAULT_WAIT_TIMEOUT,
        poll: float = DEFAULT_POLL,
        max_poll: float = DEFAULT_MAX_POLL,
        pages_per_poll: int = DEFAULT_PAGES_PER_POLL,
    ) -> Iterator[Event | LogLine]:
        """Every new event of the job (``iter_training_job_events``) and every new line of its
        tasks' logs (``show_training_job_logs_preview``), as they come, until the job reaches a
        phase of ``until`` (by default the final ones: ``TRAINING_JOB_FINAL_PHASES``).

        Each poll shows the job, then reads its events and the logs of the tasks it lists;
        nothing is given twice (an event by its content, a log line by its place in the log).
        The polls wait as ``wait_for_training_job``'s do; after the last poll the last line of
        each log is given even without a line break.

        Events are given as their pages arrive. One poll reads at most ``pages_per_poll`` pages
        of events (the next poll reads again from the first), each page within the time
        ``timeout`` leaves, and the deadline is checked after every event; the follow remembers
        a bounded number of events (twice what one poll reads), so a server whose event pages
        never end costs neither unbounded time nor unbounded memory.

        Yields:
            The events (``Event``) and the log lines (``LogLine``: ``task``, ``line``).

        Raises:
            WaitTimeoutError: ``timeout`` seconds passed before the job ended.
            ValueError: ``until`` is empty, ``timeout``/``poll``/``max_poll`` is negative, or
                ``pages_per_poll`` is not a positive integer.
        """
        plan = WaitPlan(
            "follow_training_job",
            training_job_id,
            until,
            timeout,
            poll,
            max_poll,
            clock=self._clock,
        )
        seen = FollowState(pages_per_poll, 100)
        while True:
            response = self._show_training_job_details(training_job_id)
            events = self.iter_training_job_events(
                training_job_id,
                order="asc",
                page_size=100,
                max_pages=pages_per_poll,
                deadline=plan.left(response),
            )
            try:
                for event in events:
                    if seen.is_new(event):
                        yield event
                    plan.left(response)
            except PagingError:
                pass  # this poll read its pages; the next poll reads again from the start
            for task in task_names(_at_pointer(response.json(), "/status/tasks")):
                preview = self.show_training_job_logs_preview(training_job_id, task)
                lines = seen.new_lines(task, preview.content, preview.full_size)
                yield from lines
            delay = plan.after(response)
            if delay is None:
                yield from seen.last_lines()
                return
            self._sleep(delay)


class TrainingJobsClientWithRawResponse:
    """The operations of ``TrainingJobsClient``, answering the whole response.

    Each method takes the same arguments as the client's and answers ``ApiResponse``:
    ``status_code``, ``headers``, ``request_id`` (``X-Request-Id``), ``content`` (the raw
    body) and ``parsed`` (the model). Get one from ``client.with_raw_response``.
    """

    def __init__(self, client: TrainingJobsClient) -> None:
        self._client = client

    def show_training_job_flavors(
        self,
        *,
        flavor_type: Literal["CPU", "GPU", "Ascend"] | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[TrainingJobFlavors]:
        """The whole response of ``show_training_job_flavors`` (the client's docstring says more).

        ``GET /v2/{project_id}/training-job-flavors``
        """
        return self._client._show_training_job_flavors(flavor_type=flavor_type, deadline=deadline)

    def show_training_job_engines(
        self,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[TrainingJobEngines]:
        """The whole response of ``show_training_job_engines`` (the client's docstring says more).

        ``GET /v2/{project_id}/training-job-engines``
        """
        return self._client._show_training_job_engines(deadline=deadline)

    def list_training_jobs(
        self,
        body: JobSearches | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[ListTrainingJobsResponse]:
        """The whole response of ``list_training_jobs`` (the client's docstring says more).

        ``POST /v2/{project_id}/training-job-searches``
        """
        return self._client._list_training_jobs(body, deadline=deadline)

    def create_training_job(
        self,
        body: Job | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[JobResponse]:
        """The whole response of ``create_training_job`` (the client's docstring says more).

        ``POST /v2/{project_id}/training-jobs``
        """
        return self._client._create_training_job(body, deadline=deadline)

    def show_training_job_details(
        self,
        training_job_id: str,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[JobResponse]:
        """The whole response of ``show_training_job_details`` (the client's docstring says more).

        ``GET /v2/{project_id}/training-jobs/{training_job_id}``
        """
        return self._client._show_training_job_details(training_job_id, deadline=deadline)

    def change_training_job_description(
        self,
        training_job_id: str,
        body: JobUpdateRequestBody | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[None]:
        """The whole response of ``change_training_job_description`` (the client's docstring says more).

        ``PUT /v2/{project_id}/training-jobs/{training_job_id}``
        """
        return self._client._change_training_job_description(
            training_job_id, body, deadline=deadline
        )

    def delete_training_job(
        self,
        training_job_id: str,
        *,
        body: DeleteTrainingJobBody | Mapping[str, Any] | UncheckedBody | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[None]:
        """The whole response of ``delete_training_job`` (the client's docstring says more).

        ``DELETE /v2/{project_id}/training-jobs/{training_job_id}``
        """
        return self._client._delete_training_job(training_job_id, body=body, deadline=deadline)

    def stop_training_job(
        self,
        training_job_id: str,
        body: JobActionType | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[JobResponse]:
        """The whole response of ``stop_training_job`` (the client's docstring says more).

        ``POST /v2/{project_id}/training-jobs/{training_job_id}/actions``
        """
        return self._client._stop_training_job(training_job_id, body, deadline=deadline)

    def list_training_job_events(
        self,
        training_job_id: str,
        *,
        offset: int | None = None,
        limit: int | None = None,
        order: Literal["asc", "desc"] | None = None,
        start_time: str | None = None,
        end_time: str | None = None,
        level: Literal["Info", "Error", "Warning"] | None = None,
        pattern: str | None = None,
        source: Literal["K8S", "Job", "Task"] | None = None,
        x_language: str | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[TrainingJobEvents]:
        """The whole response of ``list_training_job_events`` (the client's docstring says more).

        ``GET /v2/{project_id}/training-jobs/{training_job_id}/events``
        """
        return self._client._list_training_job_events(
            training_job_id,
            offset=offset,
            limit=limit,
            order=order,
            start_time=start_time,
            end_time=end_time,
            level=level,
            pattern=pattern,
            source=source,
            x_language=x_language,
            deadline=deadline,
        )

    def show_training_job_logs_preview(
        self,
        training_job_id: str,
        task_id: str,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[TaskLogPreview]:
        """The whole response of ``show_training_job_logs_preview`` (the client's docstring says more).

        ``GET /v2/{project_id}/training-jobs/{training_job_id}/tasks/{task_id}/logs/preview``
        """
        return self._client._show_training_job_logs_preview(
            training_job_id, task_id, deadline=deadline
        )

    def show_obs_url_of_training_job_logs(
        self,
        training_job_id: str,
        task_id: str,
        *,
        content_type: Literal["text/plain", "application/octet-stream"] | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[TaskLogObsUrl]:
        """The whole response of ``show_obs_url_of_training_job_logs`` (the client's docstring says more).

        ``GET /v2/{project_id}/training-jobs/{training_job_id}/tasks/{task_id}/logs/url``
        """
        return self._client._show_obs_url_of_training_job_logs(
            training_job_id, task_id, content_type=content_type, deadline=deadline
        )

    def show_training_job_metrics(
        self,
        training_job_id: str,
        task_id: str,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[TaskMetrics]:
        """The whole response of ``show_training_job_metrics`` (the client's docstring says more).

        ``GET /v2/{project_id}/training-jobs/{training_job_id}/metrics/{task_id}``
        """
        return self._client._show_training_job_metrics(training_job_id, task_id, deadline=deadline)


class AsyncTrainingJobsClient:
    """Asynchronous client; use it with ``async with`` or await aclose().

    Args:
        project_id: Project ID. See "Obtaining a Project ID and Name" in the API reference.
        auth: an ``httpx.Auth``: ``TokenAuth(token)`` or ``AkSkAuth(ak, sk)``.
        base_url: the endpoint; by default built from the spec's server URL
            (https://modelarts.{region}.myhuaweicloud.com).
        region: Region ID, for example cn-north-4 (default ``cn-north-4``).
        timeout: seconds or an ``httpx.Timeout`` for each wait; on by default.
        deadline: seconds a whole call may take, every attempt, wait and byte of the answer
            included (300 by default; ``None``: no deadline). Each call may pass its own.
        max_response_bytes: the largest answer read (16 MiB by default); a larger one raises
            ``ResponseTooLargeError`` without being read whole.
        retry: when idempotent requests are retried (``RetryPolicy()`` by default).
        http_client: an ``httpx.AsyncClient`` to send through (not closed by this client).
        transport: an ``httpx.AsyncBaseTransport`` for a client this object creates and closes.
        sleep: how to wait between retries and polls (injectable for tests).
        clock: the monotonic clock, in seconds, that deadlines, waits and follows read
            (``time.monotonic`` by default; injectable for tests, with ``sleep``).
        headers: extra headers sent with every request.
    """

    def __init__(
        self,
        *,
        project_id: str,
        auth: httpx.Auth | None = None,
        base_url: str | None = None,
        region: str | None = None,
        timeout: float | httpx.Timeout | None = DEFAULT_TIMEOUT,
        deadline: float | None = DEFAULT_DEADLINE,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
        retry: RetryPolicy | None = None,
        http_client: httpx.AsyncClient | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Callable[[float], Awaitable[None]] | None = None,
        headers: Mapping[str, str] | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        if http_client is not None and transport is not None:
            raise ValueError("pass either http_client or transport, not both")
        self._base_url = resolve_base_url(
            base_url,
            {
                "region": region,
            },
        )
        self._project_id = project_id
        self._clock = clock or time.monotonic
        Deadline(deadline, self._clock)  # refuses a deadline that is not a positive number
        if max_response_bytes < 1:
            raise ValueError(f"max_response_bytes must be positive, got {max_response_bytes}")
        self._deadline = deadline
        self._max_response_bytes = max_response_bytes
        self._auth = auth
        self._retry = retry or RetryPolicy()
        self._sleep = sleep or _asyncio_sleep
        self._headers = dict(headers or {})
        self._owns_http = http_client is None
        self._http = http_client or httpx.AsyncClient(transport=transport, timeout=timeout)
        _bound_network(self._http)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(base_url={redact_url(self._base_url)!r}, "
            f"project_id={self._project_id!r}, "
            f"auth={self._auth!r})"
        )

    @property
    def base_url(self) -> str:
        return self._base_url

    @property
    def with_raw_response(self) -> AsyncTrainingJobsClientWithRawResponse:
        """The same operations, answering ``ApiResponse`` (the parsed model and the response)."""
        return AsyncTrainingJobsClientWithRawResponse(self)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the HTTP client if this object created it."""
        if self._owns_http:
            await self._http.aclose()

    async def _send(
        self,
        call: Call,
        parameters: Mapping[str, Any],
        content: bytes | None,
        deadline: float | None,
    ) -> httpx.Response:
        limit = Deadline(self._deadline if deadline is None else deadline, self._clock)
        request = build_request(
            self._http, self._base_url, call, parameters, content, self._headers
        )
        attempt = 1
        while True:
            limit.cap(request)
            try:
                with _async_scope(limit):
                    response = await self._receive(call, request, limit, attempt)
            except TimeoutError as exc:
                raise deadline_error(call, request, limit, attempt) from exc
            except httpx.TransportError as exc:
                if limit.expired():
                    raise deadline_error(call, request, limit, attempt) from exc
                if not (call.retryable and attempt < self._retry.max_attempts):
                    raise transport_error(call, request, exc, attempt) from exc
                delay = self._retry.delay(attempt, None)
            else:
                if not (
                    call.retryable
                    and self._retry.should_retry(response.status_code)
                    and attempt < self._retry.max_attempts
                ):
                    raise_for_status(call.operation, response)
                    return response
                delay = self._retry.delay(attempt, response.headers.get("Retry-After"))
            if delay >= limit.remaining():
                raise deadline_error(call, request, limit, attempt)
            await self._sleep(delay)
            attempt += 1

    async def _receive(
        self, call: Call, request: httpx.Request, limit: Deadline, attempt: int
    ) -> httpx.Response:
        """Send once and read the answer within the deadline and the size limit.

        Redirects are never followed, whatever the HTTP client says: the API does not
        redirect, and following one would carry the credentials to whatever host a
        response names. A 3xx answer is an ``ApiError``."""
        try:
            streamed = await self._http.send(
                request,
                auth=self._auth or httpx.USE_CLIENT_DEFAULT,
                follow_redirects=False,
                stream=True,
            )
        except httpx.DecodingError as exc:
            # A transport that reads the answer itself (httpx.MockTransport) fails here: no
            # answer reached the client, as with any other transport failure.
            raise transport_error(call, request, exc, attempt) from exc
        try:
            received = Received(call, request, streamed, self._max_response_bytes, limit, attempt)
            async for chunk in streamed.aiter_bytes():
                received.add(chunk)
        except httpx.DecodingError as exc:
            raise content_encoding_error(call, streamed, exc) from exc
        finally:
            await streamed.aclose()
        return received.response(streamed)

    async def show_training_job_flavors(
        self,
        *,
        flavor_type: Literal["CPU", "GPU", "Ascend"] | None = None,
        deadline: float | None = None,
    ) -> TrainingJobFlavors:
        """Obtain the public resource flavors supported by training jobs.

        Returns the public resource flavors a training job can use (`spec.resource.flavor_id` of
        the create request), all of them or those of one `flavor_type`.

        ``GET /v2/{project_id}/training-job-flavors``

        Args:
            flavor_type: Type of the flavors to return; without it, every flavor is
                returned. The page documents `CPU` and `GPU`; the vendor SDK's request model
                adds `Ascend`, the third flavor type of the job's own flavors.
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``TrainingJobFlavors``.

        Raises:
            BadRequestError: HTTP 400: A query parameter is invalid (ModelArts.2788).
                Error codes (``error_code``) by meaning:
                - invalid-parameter: ModelArts.2788, ModelArts.2764, ModelArts.0101,
                    ModelArts.0104
            AuthenticationError: HTTP 401: The request carries no token or signature, or it
                is invalid or expired (for example ModelArts.0201 token missing, ModelArts.0203
                token cannot be parsed, ModelArts.0202 token expired).
                Error codes (``error_code``) by meaning:
                - token-missing: ModelArts.0201, ModelArts.5001, ModelArts.0205
                - token-invalid: ModelArts.4201, ModelArts.0203, ModelArts.0204, ModelArts.5002,
                    ModelArts.6620
                - token-expired: ModelArts.0202, ModelArts.4127
                - token-without-project: ModelArts.0207, ModelArts.0212, ModelArts.4119
                - authorization-malformed: ModelArts.0206
                - signature-invalid: ModelArts.0208
                - credential-not-found: ModelArts.3801
                - request-expired: ModelArts.4203
            PermissionDeniedError: HTTP 403: The token is not accepted for this operation
                (ModelArts.2784 InvalidToken) or the user has not authorized ModelArts or lacks
                the permission (ModelArts.2785).
                Error codes (``error_code``) by meaning:
                - token-invalid: ModelArts.2784, ModelArts.0203
                - signature-invalid: ModelArts.0206
                - not-authorized: ModelArts.2785, ModelArts.0108
                - project-mismatch: ModelArts.0210
            NotFoundError: HTTP 404: The project ID in the path does not match the project
                of the token (ModelArts.2786).
                Error codes (``error_code``) by meaning:
                - project-mismatch: ModelArts.2786
            RateLimitError: HTTP 429: Too many requests (ModelArts.2799); retry after the
                number of seconds in `Retry-After`.
                Error codes (``error_code``) by meaning:
                - too-many-requests: ModelArts.2799, ModelArts.4206
            ServerError: HTTP 500: An internal error (for example ModelArts.0010).
                Error codes (``error_code``) by meaning:
                - internal-error: ModelArts.0010, ModelArts.5000
            ServerError: HTTP 503: The service cannot answer now: its backend (for example
                the job store) failed (ModelArts.4302), or the gateway is being stopped for an
                upgrade (ModelArts.4700). Nothing was changed; try again later.
                Error codes (``error_code``) by meaning:
                - backend-unavailable: ModelArts.4302
                - service-unavailable: ModelArts.4700
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (
            await self._show_training_job_flavors(flavor_type=flavor_type, deadline=deadline)
        ).parsed

    async def _show_training_job_flavors(
        self,
        *,
        flavor_type: Literal["CPU", "GPU", "Ascend"] | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[TrainingJobFlavors]:
        parameters = validate_parameters(
            _SHOW_TRAINING_JOB_FLAVORS,
            _models.ShowTrainingJobFlavorsParameters,
            {
                "project_id": self._project_id,
                "flavor_type": flavor_type,
            },
        )
        content = None
        response = await self._send(_SHOW_TRAINING_JOB_FLAVORS, parameters, content, deadline)
        return ApiResponse(
            response,
            decode_response(_SHOW_TRAINING_JOB_FLAVORS, response, _models.TrainingJobFlavors),
        )

    async def show_training_job_engines(
        self,
        *,
        deadline: float | None = None,
    ) -> TrainingJobEngines:
        """Obtain the preset AI engines supported by training jobs.

        Returns the preset AI engines (frameworks) a training job can use (`algorithm.engine` of
        the create request).

        ``GET /v2/{project_id}/training-job-engines``

        Args:
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``TrainingJobEngines``.

        Raises:
            AuthenticationError: HTTP 401: The request carries no token or signature, or it
                is invalid or expired (for example ModelArts.0201 token missing, ModelArts.0203
                token cannot be parsed, ModelArts.0202 token expired).
                Error codes (``error_code``) by meaning:
                - token-missing: ModelArts.0201, ModelArts.5001, ModelArts.0205
                - token-invalid: ModelArts.4201, ModelArts.0203, ModelArts.0204, ModelArts.5002,
                    ModelArts.6620
                - token-expired: ModelArts.0202, ModelArts.4127
                - token-without-project: ModelArts.0207, ModelArts.0212, ModelArts.4119
                - authorization-malformed: ModelArts.0206
                - signature-invalid: ModelArts.0208
                - credential-not-found: ModelArts.3801
                - request-expired: ModelArts.4203
            PermissionDeniedError: HTTP 403: The token is not accepted for this operation
                (ModelArts.2784 InvalidToken) or the user has not authorized ModelArts or lacks
                the permission (ModelArts.2785).
                Error codes (``error_code``) by meaning:
                - token-invalid: ModelArts.2784, ModelArts.0203
                - signature-invalid: ModelArts.0206
                - not-authorized: ModelArts.2785, ModelArts.0108
                - project-mismatch: ModelArts.0210
            NotFoundError: HTTP 404: The project ID in the path does not match the project
                of the token (ModelArts.2786).
                Error codes (``error_code``) by meaning:
                - project-mismatch: ModelArts.2786
            RateLimitError: HTTP 429: Too many requests (ModelArts.2799); retry after the
                number of seconds in `Retry-After`.
                Error codes (``error_code``) by meaning:
                - too-many-requests: ModelArts.2799, ModelArts.4206
            ServerError: HTTP 500: An internal error (for example ModelArts.0010).
                Error codes (``error_code``) by meaning:
                - internal-error: ModelArts.0010, ModelArts.5000
            ServerError: HTTP 503: The service cannot answer now: its backend (for example
                the job store) failed (ModelArts.4302), or the gateway is being stopped for an
                upgrade (ModelArts.4700). Nothing was changed; try again later.
                Error codes (``error_code``) by meaning:
                - backend-unavailable: ModelArts.4302
                - service-unavailable: ModelArts.4700
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (await self._show_training_job_engines(deadline=deadline)).parsed

    async def _show_training_job_engines(
        self,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[TrainingJobEngines]:
        parameters = validate_parameters(
            _SHOW_TRAINING_JOB_ENGINES,
            _models.ShowTrainingJobEnginesParameters,
            {
                "project_id": self._project_id,
            },
        )
        content = None
        response = await self._send(_SHOW_TRAINING_JOB_ENGINES, parameters, content, deadline)
        return ApiResponse(
            response,
            decode_response(_SHOW_TRAINING_JOB_ENGINES, response, _models.TrainingJobEngines),
        )

    async def list_training_jobs(
        self,
        body: JobSearches | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ListTrainingJobsResponse:
        """Query the training jobs that meet the search criteria.

        Returns one page of the project's training jobs that meet the search criteria: the
        filters (`between`, `like`, `in`, `not`), sorted by `sort_by` in `order`, `limit` jobs
        (1 to 50) from page `offset` (from 0). Each job is the job the show operation returns.

        ``POST /v2/{project_id}/training-job-searches``

        Args:
            body: The request body, a ``JobSearches`` or a mapping validated into one before
                anything is sent; an ``UncheckedBody`` is sent as it is.
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``ListTrainingJobsResponse``.

        Raises:
            BadRequestError: HTTP 400: Malformed JSON (ModelArts.2787) or invalid search
                criteria: a parameter fails validation (ModelArts.2788), for example `limit`
                outside 1 to 50, or the service does not support a filter, sort item or
                condition (ModelArts.2789, ModelArts.2790, ModelArts.2807, ModelArts.2808,
                ModelArts.2809).
                Error codes (``error_code``) by meaning:
                - malformed-body: ModelArts.2787
                - invalid-parameter: ModelArts.2788, ModelArts.0101, ModelArts.0104,
                    ModelArts.2764, ModelArts.2789, ModelArts.2790, ModelArts.2807,
                    ModelArts.2808, ModelArts.2809, ModelArts.2826
            AuthenticationError: HTTP 401: The request carries no token or signature, or it
                is invalid or expired (for example ModelArts.0201 token missing, ModelArts.0203
                token cannot be parsed, ModelArts.0202 token expired).
                Error codes (``error_code``) by meaning:
                - token-missing: ModelArts.0201, ModelArts.5001, ModelArts.0205
                - token-invalid: ModelArts.4201, ModelArts.0203, ModelArts.0204, ModelArts.5002,
                    ModelArts.6620
                - token-expired: ModelArts.0202, ModelArts.4127
                - token-without-project: ModelArts.0207, ModelArts.0212, ModelArts.4119
                - authorization-malformed: ModelArts.0206
                - signature-invalid: ModelArts.0208
                - credential-not-found: ModelArts.3801
                - request-expired: ModelArts.4203
            PermissionDeniedError: HTTP 403: The token is not accepted for this operation
                (ModelArts.2784 InvalidToken) or the user has not authorized ModelArts or lacks
                the permission (ModelArts.2785).
                Error codes (``error_code``) by meaning:
                - token-invalid: ModelArts.2784, ModelArts.0203
                - signature-invalid: ModelArts.0206
                - not-authorized: ModelArts.2785, ModelArts.0108
                - project-mismatch: ModelArts.0210
            NotFoundError: HTTP 404: The project ID in the path does not match the project
                of the token (ModelArts.2786).
                Error codes (``error_code``) by meaning:
                - project-mismatch: ModelArts.2786
            ClientError: HTTP 413: The request body is larger than the service accepts
                (ModelArts.4104; the vendor's limit is 12 MB, a server may set a lower one and
                name it in `error_solution`).
                Error codes (``error_code``) by meaning:
                - body-too-large: ModelArts.4104
            RateLimitError: HTTP 429: Too many requests (ModelArts.2799); retry after the
                number of seconds in `Retry-After`.
                Error codes (``error_code``) by meaning:
                - too-many-requests: ModelArts.2799, ModelArts.4206
            ServerError: HTTP 500: An internal error (for example ModelArts.0010).
                Error codes (``error_code``) by meaning:
                - internal-error: ModelArts.0010, ModelArts.5000
            ServerError: HTTP 503: The service cannot answer now: its backend (for example
                the job store) failed (ModelArts.4302), or the gateway is being stopped for an
                upgrade (ModelArts.4700). Nothing was changed; try again later.
                Error codes (``error_code``) by meaning:
                - backend-unavailable: ModelArts.4302
                - service-unavailable: ModelArts.4700
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (await self._list_training_jobs(body, deadline=deadline)).parsed

    async def _list_training_jobs(
        self,
        body: JobSearches | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[ListTrainingJobsResponse]:
        parameters = validate_parameters(
            _LIST_TRAINING_JOBS,
            _models.ListTrainingJobsParameters,
            {
                "project_id": self._project_id,
            },
        )
        content = encode_body(_LIST_TRAINING_JOBS, _models.JobSearches, body)
        response = await self._send(_LIST_TRAINING_JOBS, parameters, content, deadline)
        return ApiResponse(
            response,
            decode_response(_LIST_TRAINING_JOBS, response, _models.ListTrainingJobsResponse),
        )

    async def create_training_job(
        self,
        body: Job | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> JobResponse:
        """Create a training job.

        Creates a training job. The response echoes the job as ModelArts stored it.

        ``POST /v2/{project_id}/training-jobs``

        Args:
            body: The request body, a ``Job`` or a mapping validated into one before
                anything is sent; an ``UncheckedBody`` is sent as it is.
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``201`` response, as ``JobResponse``.

        Raises:
            BadRequestError: HTTP 400: The request is invalid: malformed JSON
                (ModelArts.2787), a parameter fails validation (ModelArts.2788), the job name is
                already used (ModelArts.2751), or a referenced resource such as the algorithm
                does not exist (for example ModelArts.2755).
                Error codes (``error_code``) by meaning:
                - malformed-body: ModelArts.2787
                - invalid-parameter: ModelArts.2788, ModelArts.0101, ModelArts.0104,
                    ModelArts.2774, ModelArts.2825, ModelArts.2816, ModelArts.2770,
                    ModelArts.2767, ModelArts.2765, ModelArts.2757, ModelArts.2758,
                    ModelArts.2791, ModelArts.2802, ModelArts.2806, ModelArts.2830,
                    ModelArts.2814, ModelArts.2839, ModelArts.2855, ModelArts.2857,
                    ModelArts.2859, ModelArts.2840
                - duplicate-name: ModelArts.2751
                - reference-not-found: ModelArts.2755, ModelArts.2780, ModelArts.2781,
                    ModelArts.2782, ModelArts.2783, ModelArts.2763
                - quota-exceeded: ModelArts.2815, ModelArts.2833, ModelArts.2793, ModelArts.0118
                - resource-unusable: ModelArts.2886, ModelArts.2887, ModelArts.2832,
                    ModelArts.2845, ModelArts.2810
            AuthenticationError: HTTP 401: The request carries no token or signature, or it
                is invalid or expired (for example ModelArts.0201 token missing, ModelArts.0203
                token cannot be parsed, ModelArts.0202 token expired).
                Error codes (``error_code``) by meaning:
                - token-missing: ModelArts.0201, ModelArts.5001, ModelArts.0205
                - token-invalid: ModelArts.4201, ModelArts.0203, ModelArts.0204, ModelArts.5002,
                    ModelArts.6620
                - token-expired: ModelArts.0202, ModelArts.4127
                - token-without-project: ModelArts.0207, ModelArts.0212, ModelArts.4119
                - authorization-malformed: ModelArts.0206
                - signature-invalid: ModelArts.0208
                - credential-not-found: ModelArts.3801
                - request-expired: ModelArts.4203
            PermissionDeniedError: HTTP 403: The token is not accepted for this operation
                (ModelArts.2784 InvalidToken) or the user has not authorized ModelArts or lacks
                the permission (ModelArts.2785).
                Error codes (``error_code``) by meaning:
                - token-invalid: ModelArts.2784, ModelArts.0203
                - signature-invalid: ModelArts.0206
                - not-authorized: ModelArts.2785, ModelArts.0108
                - project-mismatch: ModelArts.0210
            NotFoundError: HTTP 404: The project ID in the path does not match the project
                of the token (ModelArts.2786).
                Error codes (``error_code``) by meaning:
                - project-mismatch: ModelArts.2786
            ClientError: HTTP 413: The request body is larger than the service accepts
                (ModelArts.4104; the vendor's limit is 12 MB, a server may set a lower one and
                name it in `error_solution`).
                Error codes (``error_code``) by meaning:
                - body-too-large: ModelArts.4104
            RateLimitError: HTTP 429: Too many requests (ModelArts.2799); retry after the
                number of seconds in `Retry-After`.
                Error codes (``error_code``) by meaning:
                - too-many-requests: ModelArts.2799, ModelArts.4206
            ServerError: HTTP 500: An internal error (for example ModelArts.0010).
                Error codes (``error_code``) by meaning:
                - internal-error: ModelArts.0010, ModelArts.5000
            ServerError: HTTP 503: The service cannot answer now: its backend (for example
                the job store) failed (ModelArts.4302), or the gateway is being stopped for an
                upgrade (ModelArts.4700). Nothing was changed; try again later.
                Error codes (``error_code``) by meaning:
                - backend-unavailable: ModelArts.4302
                - service-unavailable: ModelArts.4700
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (await self._create_training_job(body, deadline=deadline)).parsed

    async def _create_training_job(
        self,
        body: Job | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[JobResponse]:
        parameters = validate_parameters(
            _CREATE_TRAINING_JOB,
            _models.CreateTrainingJobParameters,
            {
                "project_id": self._project_id,
            },
        )
        content = encode_body(_CREATE_TRAINING_JOB, _models.Job, body)
        response = await self._send(_CREATE_TRAINING_JOB, parameters, content, deadline)
        return ApiResponse(response, decode_response(_CREATE_TRAINING_JOB, response, JobResponse))

    async def show_training_job_details(
        self,
        training_job_id: str,
        *,
        deadline: float | None = None,
    ) -> JobResponse:
        """Query the details of a training job.

        Returns the training job with its current status.

        ``GET /v2/{project_id}/training-jobs/{training_job_id}``

        Args:
            training_job_id: Training job ID, as returned in `metadata.id` when the job was
                created (or by the query of the training job list).
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``JobResponse``.

        Raises:
            BadRequestError: HTTP 400: The training job does not exist (ModelArts.2775) or a
                parameter is invalid (ModelArts.2788).
                Error codes (``error_code``) by meaning:
                - not-found: ModelArts.2775
                - invalid-parameter: ModelArts.2788, ModelArts.0101, ModelArts.0104
            AuthenticationError: HTTP 401: The request carries no token or signature, or it
                is invalid or expired (for example ModelArts.0201 token missing, ModelArts.0203
                token cannot be parsed, ModelArts.0202 token expired).
                Error codes (``error_code``) by meaning:
                - token-missing: ModelArts.0201, ModelArts.5001, ModelArts.0205
                - token-invalid: ModelArts.4201, ModelArts.0203, ModelArts.0204, ModelArts.5002,
                    ModelArts.6620
                - token-expired: ModelArts.0202, ModelArts.4127
                - token-without-project: ModelArts.0207, ModelArts.0212, ModelArts.4119
                - authorization-malformed: ModelArts.0206
                - signature-invalid: ModelArts.0208
                - credential-not-found: ModelArts.3801
                - request-expired: ModelArts.4203
            PermissionDeniedError: HTTP 403: The token is not accepted for this operation
                (ModelArts.2784 InvalidToken) or the user has not authorized ModelArts or lacks
                the permission (ModelArts.2785).
                Error codes (``error_code``) by meaning:
                - token-invalid: ModelArts.2784, ModelArts.0203
                - signature-invalid: ModelArts.0206
                - not-authorized: ModelArts.2785, ModelArts.0108
                - project-mismatch: ModelArts.0210
            NotFoundError: HTTP 404: The project ID in the path does not match the project
                of the token (ModelArts.2786).
                Error codes (``error_code``) by meaning:
                - project-mismatch: ModelArts.2786
            RateLimitError: HTTP 429: Too many requests (ModelArts.2799); retry after the
                number of seconds in `Retry-After`.
                Error codes (``error_code``) by meaning:
                - too-many-requests: ModelArts.2799, ModelArts.4206
            ServerError: HTTP 500: An internal error (for example ModelArts.0010).
                Error codes (``error_code``) by meaning:
                - internal-error: ModelArts.0010, ModelArts.5000
            ServerError: HTTP 503: The service cannot answer now: its backend (for example
                the job store) failed (ModelArts.4302), or the gateway is being stopped for an
                upgrade (ModelArts.4700). Nothing was changed; try again later.
                Error codes (``error_code``) by meaning:
                - backend-unavailable: ModelArts.4302
                - service-unavailable: ModelArts.4700
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (await self._show_training_job_details(training_job_id, deadline=deadline)).parsed

    async def _show_training_job_details(
        self,
        training_job_id: str,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[JobResponse]:
        parameters = validate_parameters(
            _SHOW_TRAINING_JOB_DETAILS,
            _models.ShowTrainingJobDetailsParameters,
            {
                "project_id": self._project_id,
                "training_job_id": training_job_id,
            },
        )
        content = None
        response = await self._send(_SHOW_TRAINING_JOB_DETAILS, parameters, content, deadline)
        return ApiResponse(
            response, decode_response(_SHOW_TRAINING_JOB_DETAILS, response, JobResponse)
        )

    async def change_training_job_description(
        self,
        training_job_id: str,
        body: JobUpdateRequestBody | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> None:
        """Modify the description of a training job.

        Replaces the description of a training job; show and list return the new description.

        ``PUT /v2/{project_id}/training-jobs/{training_job_id}``

        Args:
            training_job_id: Training job ID, as returned in `metadata.id` when the job was
                created (or by the query of the training job list).
            body: The request body, a ``JobUpdateRequestBody`` or a mapping validated into
                one before anything is sent; an ``UncheckedBody`` is sent as it is.
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            Nothing (``200``).

        Raises:
            BadRequestError: HTTP 400: Malformed JSON (ModelArts.2787), an invalid parameter
                such as a description longer than 256 characters (ModelArts.2788), or the
                training job does not exist (ModelArts.2775).
                Error codes (``error_code``) by meaning:
                - malformed-body: ModelArts.2787
                - invalid-parameter: ModelArts.2788, ModelArts.0101, ModelArts.0104
                - not-found: ModelArts.2775
            AuthenticationError: HTTP 401: The request carries no token or signature, or it
                is invalid or expired (for example ModelArts.0201 token missing, ModelArts.0203
                token cannot be parsed, ModelArts.0202 token expired).
                Error codes (``error_code``) by meaning:
                - token-missing: ModelArts.0201, ModelArts.5001, ModelArts.0205
                - token-invalid: ModelArts.4201, ModelArts.0203, ModelArts.0204, ModelArts.5002,
                    ModelArts.6620
                - token-expired: ModelArts.0202, ModelArts.4127
                - token-without-project: ModelArts.0207, ModelArts.0212, ModelArts.4119
                - authorization-malformed: ModelArts.0206
                - signature-invalid: ModelArts.0208
                - credential-not-found: ModelArts.3801
                - request-expired: ModelArts.4203
            PermissionDeniedError: HTTP 403: The token is not accepted for this operation
                (ModelArts.2784 InvalidToken) or the user has not authorized ModelArts or lacks
                the permission (ModelArts.2785).
                Error codes (``error_code``) by meaning:
                - token-invalid: ModelArts.2784, ModelArts.0203
                - signature-invalid: ModelArts.0206
                - not-authorized: ModelArts.2785, ModelArts.0108
                - project-mismatch: ModelArts.0210
            NotFoundError: HTTP 404: The project ID in the path does not match the project
                of the token (ModelArts.2786).
                Error codes (``error_code``) by meaning:
                - project-mismatch: ModelArts.2786
            ClientError: HTTP 413: The request body is larger than the service accepts
                (ModelArts.4104; the vendor's limit is 12 MB, a server may set a lower one and
                name it in `error_solution`).
                Error codes (``error_code``) by meaning:
                - body-too-large: ModelArts.4104
            RateLimitError: HTTP 429: Too many requests (ModelArts.2799); retry after the
                number of seconds in `Retry-After`.
                Error codes (``error_code``) by meaning:
                - too-many-requests: ModelArts.2799, ModelArts.4206
            ServerError: HTTP 500: An internal error (for example ModelArts.0010).
                Error codes (``error_code``) by meaning:
                - internal-error: ModelArts.0010, ModelArts.5000
            ServerError: HTTP 503: The service cannot answer now: its backend (for example
                the job store) failed (ModelArts.4302), or the gateway is being stopped for an
                upgrade (ModelArts.4700). Nothing was changed; try again later.
                Error codes (``error_code``) by meaning:
                - backend-unavailable: ModelArts.4302
                - service-unavailable: ModelArts.4700
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (
            await self._change_training_job_description(training_job_id, body, deadline=deadline)
        ).parsed

    async def _change_training_job_description(
        self,
        training_job_id: str,
        body: JobUpdateRequestBody | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[None]:
        parameters = validate_parameters(
            _CHANGE_TRAINING_JOB_DESCRIPTION,
            _models.ChangeTrainingJobDescriptionParameters,
            {
                "project_id": self._project_id,
                "training_job_id": training_job_id,
            },
        )
        content = encode_body(_CHANGE_TRAINING_JOB_DESCRIPTION, _models.JobUpdateRequestBody, body)
        response = await self._send(_CHANGE_TRAINING_JOB_DESCRIPTION, parameters, content, deadline)
        return ApiResponse(response, None)

    async def delete_training_job(
        self,
        training_job_id: str,
        *,
        body: DeleteTrainingJobBody | Mapping[str, Any] | UncheckedBody | None = None,
        deadline: float | None = None,
    ) -> None:
        """Delete a training job.

        Deletes a training job. The job is gone afterwards: show, delete and change description
        answer the unknown-job error (400 ModelArts.2775), and the list no longer has it. The
        page documents no request body; a body is optional and ignored (clients such as
        modelarts-macli send `{}`).

        ``DELETE /v2/{project_id}/training-jobs/{training_job_id}``

        Args:
            training_job_id: Training job ID, as returned in `metadata.id` when the job was
                created (or by the query of the training job list).
            body: The request body, a ``DeleteTrainingJobBody`` or a mapping validated into
                one before anything is sent; an ``UncheckedBody`` is sent as it is.
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            Nothing (``202``).

        Raises:
            BadRequestError: HTTP 400: The training job does not exist, or no longer exists
                because it was deleted (ModelArts.2775), a parameter is invalid
                (ModelArts.2788), or a body was sent that is not JSON (ModelArts.2787).
                Error codes (``error_code``) by meaning:
                - not-found: ModelArts.2775
                - invalid-parameter: ModelArts.2788, ModelArts.0101, ModelArts.0104
                - malformed-body: ModelArts.2787
            AuthenticationError: HTTP 401: The request carries no token or signature, or it
                is invalid or expired (for example ModelArts.0201 token missing, ModelArts.0203
                token cannot be parsed, ModelArts.0202 token expired).
                Error codes (``error_code``) by meaning:
                - token-missing: ModelArts.0201, ModelArts.5001, ModelArts.0205
                - token-invalid: ModelArts.4201, ModelArts.0203, ModelArts.0204, ModelArts.5002,
                    ModelArts.6620
                - token-expired: ModelArts.0202, ModelArts.4127
                - token-without-project: ModelArts.0207, ModelArts.0212, ModelArts.4119
                - authorization-malformed: ModelArts.0206
                - signature-invalid: ModelArts.0208
                - credential-not-found: ModelArts.3801
                - request-expired: ModelArts.4203
            PermissionDeniedError: HTTP 403: The token is not accepted for this operation
                (ModelArts.2784 InvalidToken) or the user has not authorized ModelArts or lacks
                the permission (ModelArts.2785).
                Error codes (``error_code``) by meaning:
                - token-invalid: ModelArts.2784, ModelArts.0203
                - signature-invalid: ModelArts.0206
                - not-authorized: ModelArts.2785, ModelArts.0108
                - project-mismatch: ModelArts.0210
            NotFoundError: HTTP 404: The project ID in the path does not match the project
                of the token (ModelArts.2786).
                Error codes (``error_code``) by meaning:
                - project-mismatch: ModelArts.2786
            ClientError: HTTP 413: The request body is larger than the service accepts
                (ModelArts.4104; the vendor's limit is 12 MB, a server may set a lower one and
                name it in `error_solution`).
                Error codes (``error_code``) by meaning:
                - body-too-large: ModelArts.4104
            RateLimitError: HTTP 429: Too many requests (ModelArts.2799); retry after the
                number of seconds in `Retry-After`.
                Error codes (``error_code``) by meaning:
                - too-many-requests: ModelArts.2799, ModelArts.4206
            ServerError: HTTP 500: An internal error (for example ModelArts.0010).
                Error codes (``error_code``) by meaning:
                - internal-error: ModelArts.0010, ModelArts.5000
            ServerError: HTTP 503: The service cannot answer now: its backend (for example
                the job store) failed (ModelArts.4302), or the gateway is being stopped for an
                upgrade (ModelArts.4700). Nothing was changed; try again later.
                Error codes (``error_code``) by meaning:
                - backend-unavailable: ModelArts.4302
                - service-unavailable: ModelArts.4700
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (
            await self._delete_training_job(training_job_id, body=body, deadline=deadline)
        ).parsed

    async def _delete_training_job(
        self,
        training_job_id: str,
        *,
        body: DeleteTrainingJobBody | Mapping[str, Any] | UncheckedBody | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[None]:
        parameters = validate_parameters(
            _DELETE_TRAINING_JOB,
            _models.DeleteTrainingJobParameters,
            {
                "project_id": self._project_id,
                "training_job_id": training_job_id,
            },
        )
        content = encode_body(_DELETE_TRAINING_JOB, _models.DeleteTrainingJobBody, body)
        response = await self._send(_DELETE_TRAINING_JOB, parameters, content, deadline)
        return ApiResponse(response, None)

    async def stop_training_job(
        self,
        training_job_id: str,
        body: JobActionType | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> JobResponse:
        """Terminate a training job.

        Terminates a training job. Only jobs in the Creating, Pending (waiting) or Running phase
        can be terminated; any other phase gives 409 ModelArts.2796.

        ``POST /v2/{project_id}/training-jobs/{training_job_id}/actions``

        Args:
            training_job_id: Training job ID, as returned in `metadata.id` when the job was
                created (or by the query of the training job list).
            body: The request body, a ``JobActionType`` or a mapping validated into one
                before anything is sent; an ``UncheckedBody`` is sent as it is.
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``202`` response, as ``JobResponse``.

        Raises:
            BadRequestError: HTTP 400: Malformed JSON (ModelArts.2787), an invalid parameter
                (ModelArts.2788), an unsupported action_type (ModelArts.2812), or the training
                job does not exist (ModelArts.2775).
                Error codes (``error_code``) by meaning:
                - malformed-body: ModelArts.2787
                - invalid-parameter: ModelArts.2788, ModelArts.0101, ModelArts.0104
                - unsupported-action: ModelArts.2812, ModelArts.2788, ModelArts.0104
                - not-found: ModelArts.2775
            AuthenticationError: HTTP 401: The request carries no token or signature, or it
                is invalid or expired (for example ModelArts.0201 token missing, ModelArts.0203
                token cannot be parsed, ModelArts.0202 token expired).
                Error codes (``error_code``) by meaning:
                - token-missing: ModelArts.0201, ModelArts.5001, ModelArts.0205
                - token-invalid: ModelArts.4201, ModelArts.0203, ModelArts.0204, ModelArts.5002,
                    ModelArts.6620
                - token-expired: ModelArts.0202, ModelArts.4127
                - token-without-project: ModelArts.0207, ModelArts.0212, ModelArts.4119
                - authorization-malformed: ModelArts.0206
                - signature-invalid: ModelArts.0208
                - credential-not-found: ModelArts.3801
                - request-expired: ModelArts.4203
            PermissionDeniedError: HTTP 403: The token is not accepted for this operation
                (ModelArts.2784 InvalidToken) or the user has not authorized ModelArts or lacks
                the permission (ModelArts.2785).
                Error codes (``error_code``) by meaning:
                - token-invalid: ModelArts.2784, ModelArts.0203
                - signature-invalid: ModelArts.0206
                - not-authorized: ModelArts.2785, ModelArts.0108
                - project-mismatch: ModelArts.0210
            NotFoundError: HTTP 404: The project ID in the path does not match the project
                of the token (ModelArts.2786).
                Error codes (``error_code``) by meaning:
                - project-mismatch: ModelArts.2786
            ConflictError: HTTP 409: The job is in a phase in which it cannot be terminated
                (ModelArts.2796).
                Error codes (``error_code``) by meaning:
                - not-terminable: ModelArts.2796
                - status-changed: ModelArts.2878
            ClientError: HTTP 413: The request body is larger than the service accepts
                (ModelArts.4104; the vendor's limit is 12 MB, a server may set a lower one and
                name it in `error_solution`).
                Error codes (``error_code``) by meaning:
                - body-too-large: ModelArts.4104
            RateLimitError: HTTP 429: Too many requests (ModelArts.2799); retry after the
                number of seconds in `Retry-After`.
                Error codes (``error_code``) by meaning:
                - too-many-requests: ModelArts.2799, ModelArts.4206
            ServerError: HTTP 500: An internal error (for example ModelArts.0010).
                Error codes (``error_code``) by meaning:
                - internal-error: ModelArts.0010, ModelArts.5000
            ServerError: HTTP 503: The service cannot answer now: its backend (for example
                the job store) failed (ModelArts.4302), or the gateway is being stopped for an
                upgrade (ModelArts.4700). Nothing was changed; try again later.
                Error codes (``error_code``) by meaning:
                - backend-unavailable: ModelArts.4302
                - service-unavailable: ModelArts.4700
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (await self._stop_training_job(training_job_id, body, deadline=deadline)).parsed

    async def _stop_training_job(
        self,
        training_job_id: str,
        body: JobActionType | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[JobResponse]:
        parameters = validate_parameters(
            _STOP_TRAINING_JOB,
            _models.StopTrainingJobParameters,
            {
                "project_id": self._project_id,
                "training_job_id": training_job_id,
            },
        )
        content = encode_body(_STOP_TRAINING_JOB, _models.JobActionType, body)
        response = await self._send(_STOP_TRAINING_JOB, parameters, content, deadline)
        return ApiResponse(response, decode_response(_STOP_TRAINING_JOB, response, JobResponse))

    async def list_training_job_events(
        self,
        training_job_id: str,
        *,
        offset: int | None = None,
        limit: int | None = None,
        order: Literal["asc", "desc"] | None = None,
        start_time: str | None = None,
        end_time: str | None = None,
        level: Literal["Info", "Error", "Warning"] | None = None,
        pattern: str | None = None,
        source: Literal["K8S", "Job", "Task"] | None = None,
        x_language: str | None = None,
        deadline: float | None = None,
    ) -> TrainingJobEvents:
        """Obtain the events of a training job.

        Returns the events of a training job (its lifecycle, its tasks and the Kubernetes
        objects behind them), one page at a time.

        ``GET /v2/{project_id}/training-jobs/{training_job_id}/events``

        Args:
            training_job_id: Training job ID, as returned in `metadata.id` when the job was
                created (or by the query of the training job list).
            offset: Offset of the first event returned (0, the default, is the first). The
                page gives no range; it calls the value the "Offset of a data entry", and no
                entry is before the first, so a negative offset names none (minimum 0, the
                ledger's decision: it binds neither end).
            limit: Maximum number of events returned on each page, from 1 to 100 (default
                50).
            order: Order of the events by time: `desc` (newest first) or `asc`. The page
                says only "instance order"; its example sends `desc`.
            start_time: Start of the time window, in milliseconds since the Unix epoch (the
                page's example sends `1669449696964`). Must be passed together with `end_time`.
            end_time: End of the time window, in milliseconds since the Unix epoch. Must be
                passed together with `start_time`.
            level: Level of the events to return.
            pattern: Text the events must contain, at most 256 characters.
            source: Source of the events to return.
            x_language: Language of the event messages.
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``TrainingJobEvents``.

        Raises:
            BadRequestError: HTTP 400: The training job does not exist (ModelArts.2775) or a
                query parameter is invalid (ModelArts.2788).
                Error codes (``error_code``) by meaning:
                - not-found: ModelArts.2775
                - invalid-parameter: ModelArts.2788, ModelArts.2764, ModelArts.0101,
                    ModelArts.0104
            AuthenticationError: HTTP 401: The request carries no token or signature, or it
                is invalid or expired (for example ModelArts.0201 token missing, ModelArts.0203
                token cannot be parsed, ModelArts.0202 token expired).
                Error codes (``error_code``) by meaning:
                - token-missing: ModelArts.0201, ModelArts.5001, ModelArts.0205
                - token-invalid: ModelArts.4201, ModelArts.0203, ModelArts.0204, ModelArts.5002,
                    ModelArts.6620
                - token-expired: ModelArts.0202, ModelArts.4127
                - token-without-project: ModelArts.0207, ModelArts.0212, ModelArts.4119
                - authorization-malformed: ModelArts.0206
                - signature-invalid: ModelArts.0208
                - credential-not-found: ModelArts.3801
                - request-expired: ModelArts.4203
            PermissionDeniedError: HTTP 403: The token is not accepted for this operation
                (ModelArts.2784 InvalidToken) or the user has not authorized ModelArts or lacks
                the permission (ModelArts.2785).
                Error codes (``error_code``) by meaning:
                - token-invalid: ModelArts.2784, ModelArts.0203
                - signature-invalid: ModelArts.0206
                - not-authorized: ModelArts.2785, ModelArts.0108
                - project-mismatch: ModelArts.0210
            NotFoundError: HTTP 404: The project ID in the path does not match the project
                of the token (ModelArts.2786).
                Error codes (``error_code``) by meaning:
                - project-mismatch: ModelArts.2786
            RateLimitError: HTTP 429: Too many requests (ModelArts.2799); retry after the
                number of seconds in `Retry-After`.
                Error codes (``error_code``) by meaning:
                - too-many-requests: ModelArts.2799, ModelArts.4206
            ServerError: HTTP 500: An internal error (for example ModelArts.0010).
                Error codes (``error_code``) by meaning:
                - internal-error: ModelArts.0010, ModelArts.5000
            ServerError: HTTP 503: The service cannot answer now: its backend (for example
                the job store) failed (ModelArts.4302), or the gateway is being stopped for an
                upgrade (ModelArts.4700). Nothing was changed; try again later.
                Error codes (``error_code``) by meaning:
                - backend-unavailable: ModelArts.4302
                - service-unavailable: ModelArts.4700
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (
            await self._list_training_job_events(
                training_job_id,
                offset=offset,
                limit=limit,
                order=order,
                start_time=start_time,
                end_time=end_time,
                level=level,
                pattern=pattern,
                source=source,
                x_language=x_language,
                deadline=deadline,
            )
        ).parsed

    async def _list_training_job_events(
        self,
        training_job_id: str,
        *,
        offset: int | None = None,
        limit: int | None = None,
        order: Literal["asc", "desc"] | None = None,
        start_time: str | None = None,
        end_time: str | None = None,
        level: Literal["Info", "Error", "Warning"] | None = None,
        pattern: str | None = None,
        source: Literal["K8S", "Job", "Task"] | None = None,
        x_language: str | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[TrainingJobEvents]:
        parameters = validate_parameters(
            _LIST_TRAINING_JOB_EVENTS,
            _models.ListTrainingJobEventsParameters,
            {
                "project_id": self._project_id,
                "training_job_id": training_job_id,
                "offset": offset,
                "limit": limit,
                "order": order,
                "start_time": start_time,
                "end_time": end_time,
                "level": level,
                "pattern": pattern,
                "source": source,
                "X-Language": x_language,
            },
        )
        content = None
        response = await self._send(_LIST_TRAINING_JOB_EVENTS, parameters, content, deadline)
        return ApiResponse(
            response,
            decode_response(_LIST_TRAINING_JOB_EVENTS, response, _models.TrainingJobEvents),
        )

    async def show_training_job_logs_preview(
        self,
        training_job_id: str,
        task_id: str,
        *,
        deadline: float | None = None,
    ) -> TaskLogPreview:
        """Query the logs of a task of a training job (preview).

        Returns the log of one task of a training job: all of it up to the size limit, otherwise
        its latest part.

        ``GET /v2/{project_id}/training-jobs/{training_job_id}/tasks/{task_id}/logs/preview``

        Args:
            training_job_id: Training job ID, as returned in `metadata.id` when the job was
                created (or by the query of the training job list).
            task_id: Name of a task of the training job, for example `worker-0`: one of the
                names in the job's `status.tasks` (the job's details, `ShowTrainingJobDetails`).
                A name the job does not have is refused (400 ModelArts.2788, invalid parameter
                task_id).
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``TaskLogPreview``.

        Raises:
            BadRequestError: HTTP 400: The training job does not exist (ModelArts.2775), the
                job has no task of this name (ModelArts.2788, invalid parameter task_id) or a
                parameter is invalid (ModelArts.2788).
                Error codes (``error_code``) by meaning:
                - not-found: ModelArts.2775
                - task-not-found: ModelArts.2788, ModelArts.0101, ModelArts.0104
                - invalid-parameter: ModelArts.2788, ModelArts.0101, ModelArts.0104
            AuthenticationError: HTTP 401: The request carries no token or signature, or it
                is invalid or expired (for example ModelArts.0201 token missing, ModelArts.0203
                token cannot be parsed, ModelArts.0202 token expired).
                Error codes (``error_code``) by meaning:
                - token-missing: ModelArts.0201, ModelArts.5001, ModelArts.0205
                - token-invalid: ModelArts.4201, ModelArts.0203, ModelArts.0204, ModelArts.5002,
                    ModelArts.6620
                - token-expired: ModelArts.0202, ModelArts.4127
                - token-without-project: ModelArts.0207, ModelArts.0212, ModelArts.4119
                - authorization-malformed: ModelArts.0206
                - signature-invalid: ModelArts.0208
                - credential-not-found: ModelArts.3801
                - request-expired: ModelArts.4203
            PermissionDeniedError: HTTP 403: The token is not accepted for this operation
                (ModelArts.2784 InvalidToken) or the user has not authorized ModelArts or lacks
                the permission (ModelArts.2785).
                Error codes (``error_code``) by meaning:
                - token-invalid: ModelArts.2784, ModelArts.0203
                - signature-invalid: ModelArts.0206
                - not-authorized: ModelArts.2785, ModelArts.0108
                - project-mismatch: ModelArts.0210
            NotFoundError: HTTP 404: The project ID in the path does not match the project
                of the token (ModelArts.2786).
                Error codes (``error_code``) by meaning:
                - project-mismatch: ModelArts.2786
            RateLimitError: HTTP 429: Too many requests (ModelArts.2799); retry after the
                number of seconds in `Retry-After`.
                Error codes (``error_code``) by meaning:
                - too-many-requests: ModelArts.2799, ModelArts.4206
            ServerError: HTTP 500: An internal error (for example ModelArts.0010).
                Error codes (``error_code``) by meaning:
                - internal-error: ModelArts.0010, ModelArts.5000
            ServerError: HTTP 503: The service cannot answer now: its backend (for example
                the job store) failed (ModelArts.4302), or the gateway is being stopped for an
                upgrade (ModelArts.4700). Nothing was changed; try again later.
                Error codes (``error_code``) by meaning:
                - backend-unavailable: ModelArts.4302
                - service-unavailable: ModelArts.4700
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (
            await self._show_training_job_logs_preview(training_job_id, task_id, deadline=deadline)
        ).parsed

    async def _show_training_job_logs_preview(
        self,
        training_job_id: str,
        task_id: str,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[TaskLogPreview]:
        parameters = validate_parameters(
            _SHOW_TRAINING_JOB_LOGS_PREVIEW,
            _models.ShowTrainingJobLogsPreviewParameters,
            {
                "project_id": self._project_id,
                "training_job_id": training_job_id,
                "task_id": task_id,
            },
        )
        content = None
        response = await self._send(_SHOW_TRAINING_JOB_LOGS_PREVIEW, parameters, content, deadline)
        return ApiResponse(
            response,
            decode_response(_SHOW_TRAINING_JOB_LOGS_PREVIEW, response, _models.TaskLogPreview),
        )

    async def show_obs_url_of_training_job_logs(
        self,
        training_job_id: str,
        task_id: str,
        *,
        content_type: Literal["text/plain", "application/octet-stream"] | None = None,
        deadline: float | None = None,
    ) -> TaskLogObsUrl:
        """Query the OBS link of the logs of a task of a training job.

        Returns a temporary OBS link (valid for 5 minutes) to the complete log of one task of a
        training job, to view it (`text/plain`) or to download it (`application/octet-stream`).

        ``GET /v2/{project_id}/training-jobs/{training_job_id}/tasks/{task_id}/logs/url``

        Args:
            training_job_id: Training job ID, as returned in `metadata.id` when the job was
                created (or by the query of the training job list).
            task_id: Name of a task of the training job, for example `worker-0`: one of the
                names in the job's `status.tasks` (the job's details, `ShowTrainingJobDetails`).
                A name the job does not have is refused (400 ModelArts.2788, invalid parameter
                task_id).
            content_type: `text/plain` for a link that shows the log,
                `application/octet-stream` for a link that downloads it. The page's table calls
                it a request header, its example request sends it in the query string; OpenAPI
                ignores a header parameter named Content-Type, so the spec declares the query
                form.
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``TaskLogObsUrl``.

        Raises:
            BadRequestError: HTTP 400: The training job does not exist (ModelArts.2775), the
                job has no task of this name (ModelArts.2788, invalid parameter task_id) or a
                parameter is invalid (ModelArts.2788).
                Error codes (``error_code``) by meaning:
                - not-found: ModelArts.2775
                - task-not-found: ModelArts.2788, ModelArts.0101, ModelArts.0104
                - invalid-parameter: ModelArts.2788, ModelArts.0101, ModelArts.0104
            AuthenticationError: HTTP 401: The request carries no token or signature, or it
                is invalid or expired (for example ModelArts.0201 token missing, ModelArts.0203
                token cannot be parsed, ModelArts.0202 token expired).
                Error codes (``error_code``) by meaning:
                - token-missing: ModelArts.0201, ModelArts.5001, ModelArts.0205
                - token-invalid: ModelArts.4201, ModelArts.0203, ModelArts.0204, ModelArts.5002,
                    ModelArts.6620
                - token-expired: ModelArts.0202, ModelArts.4127
                - token-without-project: ModelArts.0207, ModelArts.0212, ModelArts.4119
                - authorization-malformed: ModelArts.0206
                - signature-invalid: ModelArts.0208
                - credential-not-found: ModelArts.3801
                - request-expired: ModelArts.4203
            PermissionDeniedError: HTTP 403: The token is not accepted for this operation
                (ModelArts.2784 InvalidToken) or the user has not authorized ModelArts or lacks
                the permission (ModelArts.2785).
                Error codes (``error_code``) by meaning:
                - token-invalid: ModelArts.2784, ModelArts.0203
                - signature-invalid: ModelArts.0206
                - not-authorized: ModelArts.2785, ModelArts.0108
                - project-mismatch: ModelArts.0210
            NotFoundError: HTTP 404: The project ID in the path does not match the project
                of the token (ModelArts.2786).
                Error codes (``error_code``) by meaning:
                - project-mismatch: ModelArts.2786
            RateLimitError: HTTP 429: Too many requests (ModelArts.2799); retry after the
                number of seconds in `Retry-After`.
                Error codes (``error_code``) by meaning:
                - too-many-requests: ModelArts.2799, ModelArts.4206
            ServerError: HTTP 500: An internal error (for example ModelArts.0010).
                Error codes (``error_code``) by meaning:
                - internal-error: ModelArts.0010, ModelArts.5000
            ServerError: HTTP 503: The service cannot answer now: its backend (for example
                the job store) failed (ModelArts.4302), or the gateway is being stopped for an
                upgrade (ModelArts.4700). Nothing was changed; try again later.
                Error codes (``error_code``) by meaning:
                - backend-unavailable: ModelArts.4302
                - service-unavailable: ModelArts.4700
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (
            await self._show_obs_url_of_training_job_logs(
                training_job_id, task_id, content_type=content_type, deadline=deadline
            )
        ).parsed

    async def _show_obs_url_of_training_job_logs(
        self,
        training_job_id: str,
        task_id: str,
        *,
        content_type: Literal["text/plain", "application/octet-stream"] | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[TaskLogObsUrl]:
        parameters = validate_parameters(
            _SHOW_OBS_URL_OF_TRAINING_JOB_LOGS,
            _models.ShowObsUrlOfTrainingJobLogsParameters,
            {
                "project_id": self._project_id,
                "training_job_id": training_job_id,
                "task_id": task_id,
                "Content-Type": content_type,
            },
        )
        content = None
        response = await self._send(
            _SHOW_OBS_URL_OF_TRAINING_JOB_LOGS, parameters, content, deadline
        )
        return ApiResponse(
            response,
            decode_response(_SHOW_OBS_URL_OF_TRAINING_JOB_LOGS, response, _models.TaskLogObsUrl),
        )

    async def show_training_job_metrics(
        self,
        training_job_id: str,
        task_id: str,
        *,
        deadline: float | None = None,
    ) -> TaskMetrics:
        """Query the running metrics of a task of a training job.

        Returns the running metrics (per-minute averages) of one task of a training job.

        ``GET /v2/{project_id}/training-jobs/{training_job_id}/metrics/{task_id}``

        Args:
            training_job_id: Training job ID, as returned in `metadata.id` when the job was
                created (or by the query of the training job list).
            task_id: Name of a task of the training job, for example `worker-0`: one of the
                names in the job's `status.tasks` (the job's details, `ShowTrainingJobDetails`).
                A name the job does not have is refused (400 ModelArts.2788, invalid parameter
                task_id).
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``TaskMetrics``.

        Raises:
            BadRequestError: HTTP 400: The training job does not exist (ModelArts.2775), the
                job has no task of this name (ModelArts.2788, invalid parameter task_id) or a
                parameter is invalid (ModelArts.2788).
                Error codes (``error_code``) by meaning:
                - not-found: ModelArts.2775
                - task-not-found: ModelArts.2788, ModelArts.0101, ModelArts.0104
                - invalid-parameter: ModelArts.2788, ModelArts.0101, ModelArts.0104
            AuthenticationError: HTTP 401: The request carries no token or signature, or it
                is invalid or expired (for example ModelArts.0201 token missing, ModelArts.0203
                token cannot be parsed, ModelArts.0202 token expired).
                Error codes (``error_code``) by meaning:
                - token-missing: ModelArts.0201, ModelArts.5001, ModelArts.0205
                - token-invalid: ModelArts.4201, ModelArts.0203, ModelArts.0204, ModelArts.5002,
                    ModelArts.6620
                - token-expired: ModelArts.0202, ModelArts.4127
                - token-without-project: ModelArts.0207, ModelArts.0212, ModelArts.4119
                - authorization-malformed: ModelArts.0206
                - signature-invalid: ModelArts.0208
                - credential-not-found: ModelArts.3801
                - request-expired: ModelArts.4203
            PermissionDeniedError: HTTP 403: The token is not accepted for this operation
                (ModelArts.2784 InvalidToken) or the user has not authorized ModelArts or lacks
                the permission (ModelArts.2785).
                Error codes (``error_code``) by meaning:
                - token-invalid: ModelArts.2784, ModelArts.0203
                - signature-invalid: ModelArts.0206
                - not-authorized: ModelArts.2785, ModelArts.0108
                - project-mismatch: ModelArts.0210
            NotFoundError: HTTP 404: The project ID in the path does not match the project
                of the token (ModelArts.2786).
                Error codes (``error_code``) by meaning:
                - project-mismatch: ModelArts.2786
            RateLimitError: HTTP 429: Too many requests (ModelArts.2799); retry after the
                number of seconds in `Retry-After`.
                Error codes (``error_code``) by meaning:
                - too-many-requests: ModelArts.2799, ModelArts.4206
            ServerError: HTTP 500: An internal error (for example ModelArts.0010).
                Error codes (``error_code``) by meaning:
                - internal-error: ModelArts.0010, ModelArts.5000
            ServerError: HTTP 503: The service cannot answer now: its backend (for example
                the job store) failed (ModelArts.4302), or the gateway is being stopped for an
                upgrade (ModelArts.4700). Nothing was changed; try again later.
                Error codes (``error_code``) by meaning:
                - backend-unavailable: ModelArts.4302
                - service-unavailable: ModelArts.4700
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (
            await self._show_training_job_metrics(training_job_id, task_id, deadline=deadline)
        ).parsed

    async def _show_training_job_metrics(
        self,
        training_job_id: str,
        task_id: str,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[TaskMetrics]:
        parameters = validate_parameters(
            _SHOW_TRAINING_JOB_METRICS,
            _models.ShowTrainingJobMetricsParameters,
            {
                "project_id": self._project_id,
                "training_job_id": training_job_id,
                "task_id": task_id,
            },
        )
        content = None
        response = await self._send(_SHOW_TRAINING_JOB_METRICS, parameters, content, deadline)
        return ApiResponse(
            response, decode_response(_SHOW_TRAINING_JOB_METRICS, response, _models.TaskMetrics)
        )

    async def wait_for_training_job(
        self,
        training_job_id: str,
        *,
        until: Collection[str] = TRAINING_JOB_FINAL_PHASES,
        timeout: float = DEFAULT_WAIT_TIMEOUT,
        poll: float = DEFAULT_POLL,
        max_poll: float = DEFAULT_MAX_POLL,
    ) -> JobResponse:
        """Poll ``show_training_job_details`` until the job's ``status.phase`` is one of ``until``
        (by default the final phases: Failed, Completed, Terminated, Abnormal).

        The first poll is immediate; the wait between polls starts at ``poll`` seconds and
        doubles after each poll, up to ``max_poll``. Errors of the polls are raised as they are
        (retries of idempotent requests happen inside each poll).

        Returns:
            The last ``JobResponse``, whose phase is in ``until``.

        Raises:
            WaitTimeoutError: ``timeout`` seconds passed first; it carries the last
                response (``last_response``, an ``ApiResponse``) and its phase.
            ValueError: ``until`` is empty, or ``timeout``/``poll``/``max_poll`` is negative.
        """
        plan = WaitPlan(
            "wait_for_training_job",
            training_job_id,
            until,
            timeout,
            poll,
            max_poll,
            clock=self._clock,
        )
        while True:
            response = await self._show_training_job_details(training_job_id)
            delay = plan.after(response)
            if delay is None:
                return response.parsed
            await self._sleep(delay)

    async def iter_training_jobs(
        self,
        body: JobSearches | Mapping[str, Any] | UncheckedBody | None = None,
        *,
        page_size: int = 50,
        max_pages: int = DEFAULT_MAX_PAGES,
        deadline: float | None = None,
    ) -> AsyncIterator[JobResponse]:
        """Every item of ``list_training_jobs`` (its answers' ``items``), page after page.

        Takes the arguments of ``list_training_jobs`` but the body's ``offset`` and ``limit``,
        which the iterator sets: pages of ``page_size`` items (the spec's largest, 50) are asked
        for one after the other (the offset counts pages) until one comes back shorter, or the
        answer's ``count`` (the entries that meet the request) is reached. Each page is one
        call, with its own ``deadline``.

        Raises:
            PagingError: the pages did not end within ``max_pages`` pages.
            ValueError: ``page_size`` or ``max_pages`` is not a positive integer.
            The errors of ``list_training_jobs``.
        """
        plan = PagePlan(
            "iter_training_jobs",
            page_size,
            max_pages,
            offset_counts="pages",
        )
        while True:
            page = await self.list_training_jobs(
                page_body(body, "offset", plan.offset, "limit", plan.limit), deadline=deadline
            )
            items = page.items or []
            for item in items:
                yield item
            if not plan.after(len(items), page.count):
                return

    async def iter_training_job_events(
        self,
        training_job_id: str,
        *,
        order: Literal["asc", "desc"] | None = None,
        start_time: str | None = None,
        end_time: str | None = None,
        level: Literal["Info", "Error", "Warning"] | None = None,
        pattern: str | None = None,
        source: Literal["K8S", "Job", "Task"] | None = None,
        x_language: str | None = None,
        page_size: int = 100,
        max_pages: int = DEFAULT_MAX_PAGES,
        deadline: float | None = None,
    ) -> AsyncIterator[Event]:
        """Every item of ``list_training_job_events`` (its answers' ``events``), page after page.

        Takes the arguments of ``list_training_job_events`` but the ``offset`` and ``limit``,
        which the iterator sets: pages of ``page_size`` items (the spec's largest, 100) are
        asked for one after the other (the offset counts items) until one comes back shorter, or
        the answer's ``total`` (the entries that meet the request) is reached. Each page is one
        call, with its own ``deadline``.

        Raises:
            PagingError: the pages did not end within ``max_pages`` pages.
            ValueError: ``page_size`` or ``max_pages`` is not a positive integer.
            The errors of ``list_training_job_events``.
        """
        plan = PagePlan(
            "iter_training_job_events",
            page_size,
            max_pages,
            offset_counts="items",
        )
        while True:
            page = await self.list_training_job_events(
                training_job_id,
                order=order,
                start_time=start_time,
                end_time=end_time,
                level=level,
                pattern=pattern,
                source=source,
                x_language=x_language,
                offset=plan.offset,
                limit=plan.limit,
                deadline=deadline,
            )
            items = page.events or []
            for item in items:
                yield item
            if not plan.after(len(items), page.total):
                return

    async def follow_training_job(
        self,
        training_job_id: str,
        *,
        until: Collection[str] = TRAINING_JOB_FINAL_PHASES,
        timeout: float = DEFAULT_WAIT_TIMEOUT,
        poll: float = DEFAULT_POLL,
        max_poll: float = DEFAULT_MAX_POLL,
        pages_per_poll: int = DEFAULT_PAGES_PER_POLL,
    ) -> AsyncIterator[Event | LogLine]:
        """Every new event of the job (``iter_training_job_events``) and every new line of its
        tasks' logs (``show_training_job_logs_preview``), as they come, until the job reaches a
        phase of ``until`` (by default the final ones: ``TRAINING_JOB_FINAL_PHASES``).

        Each poll shows the job, then reads its events and the logs of the tasks it lists;
        nothing is given twice (an event by its content, a log line by its place in the log).
        The polls wait as ``wait_for_training_job``'s do; after the last poll the last line of
        each log is given even without a line break.

        Events are given as their pages arrive. One poll reads at most ``pages_per_poll`` pages
        of events (the next poll reads again from the first), each page within the time
        ``timeout`` leaves, and the deadline is checked after every event; the follow remembers
        a bounded number of events (twice what one poll reads), so a server whose event pages
        never end costs neither unbounded time nor unbounded memory.

        Yields:
            The events (``Event``) and the log lines (``LogLine``: ``task``, ``line``).

        Raises:
            WaitTimeoutError: ``timeout`` seconds passed before the job ended.
            ValueError: ``until`` is empty, ``timeout``/``poll``/``max_poll`` is negative, or
                ``pages_per_poll`` is not a positive integer.
        """
        plan = WaitPlan(
            "follow_training_job",
            training_job_id,
            until,
            timeout,
            poll,
            max_poll,
            clock=self._clock,
        )
        seen = FollowState(pages_per_poll, 100)
        while True:
            response = await self._show_training_job_details(training_job_id)
            events = self.iter_training_job_events(
                training_job_id,
                order="asc",
                page_size=100,
                max_pages=pages_per_poll,
                deadline=plan.left(response),
            )
            try:
                async for event in events:
                    if seen.is_new(event):
                        yield event
                    plan.left(response)
            except PagingError:
                pass  # this poll read its pages; the next poll reads again from the start
            for task in task_names(_at_pointer(response.json(), "/status/tasks")):
                preview = await self.show_training_job_logs_preview(training_job_id, task)
                lines = seen.new_lines(task, preview.content, preview.full_size)
                for line in lines:
                    yield line
            delay = plan.after(response)
            if delay is None:
                for line in seen.last_lines():
                    yield line
                return
            await self._sleep(delay)


class AsyncTrainingJobsClientWithRawResponse:
    """The operations of ``AsyncTrainingJobsClient``, answering the whole response.

    Each method takes the same arguments as the client's and answers ``ApiResponse``:
    ``status_code``, ``headers``, ``request_id`` (``X-Request-Id``), ``content`` (the raw
    body) and ``parsed`` (the model). Get one from ``client.with_raw_response``.
    """

    def __init__(self, client: AsyncTrainingJobsClient) -> None:
        self._client = client

    async def show_training_job_flavors(
        self,
        *,
        flavor_type: Literal["CPU", "GPU", "Ascend"] | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[TrainingJobFlavors]:
        """The whole response of ``show_training_job_flavors`` (the client's docstring says more).

        ``GET /v2/{project_id}/training-job-flavors``
        """
        return await self._client._show_training_job_flavors(
            flavor_type=flavor_type, deadline=deadline
        )

    async def show_training_job_engines(
        self,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[TrainingJobEngines]:
        """The whole response of ``show_training_job_engines`` (the client's docstring says more).

        ``GET /v2/{project_id}/training-job-engines``
        """
        return await self._client._show_training_job_engines(deadline=deadline)

    async def list_training_jobs(
        self,
        body: JobSearches | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[ListTrainingJobsResponse]:
        """The whole response of ``list_training_jobs`` (the client's docstring says more).

        ``POST /v2/{project_id}/training-job-searches``
        """
        return await self._client._list_training_jobs(body, deadline=deadline)

    async def create_training_job(
        self,
        body: Job | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[JobResponse]:
        """The whole response of ``create_training_job`` (the client's docstring says more).

        ``POST /v2/{project_id}/training-jobs``
        """
        return await self._client._create_training_job(body, deadline=deadline)

    async def show_training_job_details(
        self,
        training_job_id: str,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[JobResponse]:
        """The whole response of ``show_training_job_details`` (the client's docstring says more).

        ``GET /v2/{project_id}/training-jobs/{training_job_id}``
        """
        return await self._client._show_training_job_details(training_job_id, deadline=deadline)

    async def change_training_job_description(
        self,
        training_job_id: str,
        body: JobUpdateRequestBody | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[None]:
        """The whole response of ``change_training_job_description`` (the client's docstring says more).

        ``PUT /v2/{project_id}/training-jobs/{training_job_id}``
        """
        return await self._client._change_training_job_description(
            training_job_id, body, deadline=deadline
        )

    async def delete_training_job(
        self,
        training_job_id: str,
        *,
        body: DeleteTrainingJobBody | Mapping[str, Any] | UncheckedBody | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[None]:
        """The whole response of ``delete_training_job`` (the client's docstring says more).

        ``DELETE /v2/{project_id}/training-jobs/{training_job_id}``
        """
        return await self._client._delete_training_job(
            training_job_id, body=body, deadline=deadline
        )

    async def stop_training_job(
        self,
        training_job_id: str,
        body: JobActionType | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[JobResponse]:
        """The whole response of ``stop_training_job`` (the client's docstring says more).

        ``POST /v2/{project_id}/training-jobs/{training_job_id}/actions``
        """
        return await self._client._stop_training_job(training_job_id, body, deadline=deadline)

    async def list_training_job_events(
        self,
        training_job_id: str,
        *,
        offset: int | None = None,
        limit: int | None = None,
        order: Literal["asc", "desc"] | None = None,
        start_time: str | None = None,
        end_time: str | None = None,
        level: Literal["Info", "Error", "Warning"] | None = None,
        pattern: str | None = None,
        source: Literal["K8S", "Job", "Task"] | None = None,
        x_language: str | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[TrainingJobEvents]:
        """The whole response of ``list_training_job_events`` (the client's docstring says more).

        ``GET /v2/{project_id}/training-jobs/{training_job_id}/events``
        """
        return await self._client._list_training_job_events(
            training_job_id,
            offset=offset,
            limit=limit,
            order=order,
            start_time=start_time,
            end_time=end_time,
            level=level,
            pattern=pattern,
            source=source,
            x_language=x_language,
            deadline=deadline,
        )

    async def show_training_job_logs_preview(
        self,
        training_job_id: str,
        task_id: str,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[TaskLogPreview]:
        """The whole response of ``show_training_job_logs_preview`` (the client's docstring says more).

        ``GET /v2/{project_id}/training-jobs/{training_job_id}/tasks/{task_id}/logs/preview``
        """
        return await self._client._show_training_job_logs_preview(
            training_job_id, task_id, deadline=deadline
        )

    async def show_obs_url_of_training_job_logs(
        self,
        training_job_id: str,
        task_id: str,
        *,
        content_type: Literal["text/plain", "application/octet-stream"] | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[TaskLogObsUrl]:
        """The whole response of ``show_obs_url_of_training_job_logs`` (the client's docstring says more).

        ``GET /v2/{project_id}/training-jobs/{training_job_id}/tasks/{task_id}/logs/url``
        """
        return await self._client._show_obs_url_of_training_job_logs(
            training_job_id, task_id, content_type=content_type, deadline=deadline
        )

    async def show_training_job_metrics(
        self,
        training_job_id: str,
        task_id: str,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[TaskMetrics]:
        """The whole response of ``show_training_job_metrics`` (the client's docstring says more).

        ``GET /v2/{project_id}/training-jobs/{training_job_id}/metrics/{task_id}``
        """
        return await self._client._show_training_job_metrics(
            training_job_id, task_id, deadline=deadline
        )
