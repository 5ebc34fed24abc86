"""Swagger Petstore: the synchronous and the asynchronous client.

Both classes come from one template; they differ only in ``def``/``async def`` and
``await``. One method per operation of the spec, answering the parsed model;
``client.with_raw_response.<operation>(...)`` answers the whole response instead
(``ApiResponse``: status, headers, ``X-Request-Id``, raw body and the parsed model).
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Literal, Self

import httpx

from . import models as _models
from ._http import (
    CALL_END,
    DEFAULT_DEADLINE,
    DEFAULT_MAX_RESPONSE_BYTES,
    DEFAULT_TIMEOUT,
    ApiResponse,
    Call,
    Deadline,
    Received,
    RetryPolicy,
    UncheckedBody,
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
from .models import (
    Pet,
)

if TYPE_CHECKING:
    from .models import (
        FindPetsByStatusResponse,
        FindPetsByTagsResponse,
        GetInventoryResponse,
        Order,
        OrderInput,
        PetInput,
    )

__all__ = [
    "AsyncPetstoreClient",
    "AsyncPetstoreClientWithRawResponse",
    "PetstoreClient",
    "PetstoreClientWithRawResponse",
]


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


_UPDATE_PET = Call(
    operation="update_pet",
    method="PUT",
    path="/pet",
    path_names=(),
    query_names=(),
    header_names=(),
    retryable=True,
)
_ADD_PET = Call(
    operation="add_pet",
    method="POST",
    path="/pet",
    path_names=(),
    query_names=(),
    header_names=(),
    retryable=False,
)
_FIND_PETS_BY_STATUS = Call(
    operation="find_pets_by_status",
    method="GET",
    path="/pet/findByStatus",
    path_names=(),
    query_names=("status",),
    header_names=(),
    retryable=True,
)
_FIND_PETS_BY_TAGS = Call(
    operation="find_pets_by_tags",
    method="GET",
    path="/pet/findByTags",
    path_names=(),
    query_names=("tags",),
    header_names=(),
    retryable=True,
)
_GET_PET_BY_ID = Call(
    operation="get_pet_by_id",
    method="GET",
    path="/pet/{petId}",
    path_names=("petId",),
    query_names=(),
    header_names=(),
    retryable=True,
)
_DELETE_PET = Call(
    operation="delete_pet",
    method="DELETE",
    path="/pet/{petId}",
    path_names=("petId",),
    query_names=(),
    header_names=("api_key",),
    retryable=True,
)
_GET_INVENTORY = Call(
    operation="get_inventory",
    method="GET",
    path="/store/inventory",
    path_names=(),
    query_names=(),
    header_names=(),
    retryable=True,
)
_PLACE_ORDER = Call(
    operation="place_order",
    method="POST",
    path="/store/order",
    path_names=(),
    query_names=(),
    header_names=(),
    retryable=False,
)


class PetstoreClient:
    """Synchronous client; use it as a context manager (``with``) or call close().

    Args:
        auth: an ``httpx.Auth``: ``TokenAuth(token)`` or ``AkSkAuth(ak, sk)``.
        base_url: the endpoint; by default built from the spec's server URL
            (https://petstore3.swagger.io/api/v3).
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
        auth: httpx.Auth | None = None,
        base_url: str | None = None,
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
            {},
        )
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
            f"{type(self).__name__}(base_url={redact_url(self._base_url)!r}, auth={self._auth!r})"
        )

    @property
    def base_url(self) -> str:
        return self._base_url

    @property
    def with_raw_response(self) -> PetstoreClientWithRawResponse:
        """The same operations, answering ``ApiResponse`` (the parsed model and the response)."""
        return PetstoreClientWithRawResponse(self)

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

    def update_pet(
        self,
        body: PetInput | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> Pet:
        """Update an existing pet.

        ``PUT /pet``

        Args:
            body: The request body, a ``PetInput`` or a mapping validated into one before
                anything is sent; an ``UncheckedBody`` is sent as it is.
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``Pet``.

        Raises:
            BadRequestError: HTTP 400: Invalid ID supplied.
            NotFoundError: HTTP 404: Pet not found.
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (self._update_pet(body, deadline=deadline)).parsed

    def _update_pet(
        self,
        body: PetInput | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[Pet]:
        parameters = validate_parameters(
            _UPDATE_PET,
            None,
            {},
        )
        content = encode_body(_UPDATE_PET, _models.PetInput, body)
        response = self._send(_UPDATE_PET, parameters, content, deadline)
        return ApiResponse(response, decode_response(_UPDATE_PET, response, Pet))

    def add_pet(
        self,
        body: PetInput | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> Pet:
        """Add a new pet to the store.

        ``POST /pet``

        Args:
            body: The request body, a ``PetInput`` or a mapping validated into one before
                anything is sent; an ``UncheckedBody`` is sent as it is.
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``Pet``.

        Raises:
            BadRequestError: HTTP 400: Invalid input.
            UnprocessableEntityError: HTTP 422: Validation exception.
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (self._add_pet(body, deadline=deadline)).parsed

    def _add_pet(
        self,
        body: PetInput | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[Pet]:
        parameters = validate_parameters(
            _ADD_PET,
            None,
            {},
        )
        content = encode_body(_ADD_PET, _models.PetInput, body)
        response = self._send(_ADD_PET, parameters, content, deadline)
        return ApiResponse(response, decode_response(_ADD_PET, response, Pet))

    def find_pets_by_status(
        self,
        *,
        status: Literal["available", "pending", "sold"] | None = None,
        deadline: float | None = None,
    ) -> FindPetsByStatusResponse:
        """Finds Pets by status.

        Multiple status values can be provided with comma separated strings.

        ``GET /pet/findByStatus``

        Args:
            status: Status values that need to be considered for filter
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``FindPetsByStatusResponse``.

        Raises:
            BadRequestError: HTTP 400: Invalid status value.
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (self._find_pets_by_status(status=status, deadline=deadline)).parsed

    def _find_pets_by_status(
        self,
        *,
        status: Literal["available", "pending", "sold"] | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[FindPetsByStatusResponse]:
        parameters = validate_parameters(
            _FIND_PETS_BY_STATUS,
            _models.FindPetsByStatusParameters,
            {
                "status": status,
            },
        )
        content = None
        response = self._send(_FIND_PETS_BY_STATUS, parameters, content, deadline)
        return ApiResponse(
            response,
            decode_response(_FIND_PETS_BY_STATUS, response, _models.FindPetsByStatusResponse),
        )

    def find_pets_by_tags(
        self,
        *,
        tags: list[str],
        deadline: float | None = None,
    ) -> FindPetsByTagsResponse:
        """Finds Pets by tags.

        ``GET /pet/findByTags``

        Args:
            tags: Tags to filter by
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``FindPetsByTagsResponse``.

        Raises:
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (self._find_pets_by_tags(tags=tags, deadline=deadline)).parsed

    def _find_pets_by_tags(
        self,
        *,
        tags: list[str],
        deadline: float | None = None,
    ) -> ApiResponse[FindPetsByTagsResponse]:
        parameters = validate_parameters(
            _FIND_PETS_BY_TAGS,
            _models.FindPetsByTagsParameters,
            {
                "tags": tags,
            },
        )
        content = None
        response = self._send(_FIND_PETS_BY_TAGS, parameters, content, deadline)
        return ApiResponse(
            response, decode_response(_FIND_PETS_BY_TAGS, response, _models.FindPetsByTagsResponse)
        )

    def get_pet_by_id(
        self,
        pet_id: int,
        *,
        deadline: float | None = None,
    ) -> Pet:
        """Find pet by ID.

        Returns a single pet.

        ``GET /pet/{petId}``

        Args:
            pet_id: ID of pet to return
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``Pet``.

        Raises:
            BadRequestError: HTTP 400: Invalid ID supplied.
            NotFoundError: HTTP 404: Pet not found.
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (self._get_pet_by_id(pet_id, deadline=deadline)).parsed

    def _get_pet_by_id(
        self,
        pet_id: int,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[Pet]:
        parameters = validate_parameters(
            _GET_PET_BY_ID,
            _models.GetPetByIdParameters,
            {
                "petId": pet_id,
            },
        )
        content = None
        response = self._send(_GET_PET_BY_ID, parameters, content, deadline)
        return ApiResponse(response, decode_response(_GET_PET_BY_ID, response, Pet))

    def delete_pet(
        self,
        pet_id: int,
        *,
        api_key: str | None = None,
        deadline: float | None = None,
    ) -> None:
        """Deletes a pet.

        ``DELETE /pet/{petId}``

        Args:
            api_key: The header parameter ``api_key``.
            pet_id: Pet id to delete
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            Nothing (``204``).

        Raises:
            BadRequestError: HTTP 400: Invalid pet value.
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (self._delete_pet(pet_id, api_key=api_key, deadline=deadline)).parsed

    def _delete_pet(
        self,
        pet_id: int,
        *,
        api_key: str | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[None]:
        parameters = validate_parameters(
            _DELETE_PET,
            _models.DeletePetParameters,
            {
                "api_key": api_key,
                "petId": pet_id,
            },
        )
        content = None
        response = self._send(_DELETE_PET, parameters, content, deadline)
        return ApiResponse(response, None)

    def get_inventory(
        self,
        *,
        deadline: float | None = None,
    ) -> GetInventoryResponse:
        """Returns pet inventories by status.

        ``GET /store/inventory``

        Args:
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``GetInventoryResponse``.

        Raises:
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (self._get_inventory(deadline=deadline)).parsed

    def _get_inventory(
        self,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[GetInventoryResponse]:
        parameters = validate_parameters(
            _GET_INVENTORY,
            None,
            {},
        )
        content = None
        response = self._send(_GET_INVENTORY, parameters, content, deadline)
        return ApiResponse(
            response, decode_response(_GET_INVENTORY, response, _models.GetInventoryResponse)
        )

    def place_order(
        self,
        *,
        body: OrderInput | Mapping[str, Any] | UncheckedBody | None = None,
        deadline: float | None = None,
    ) -> Order:
        """Place an order for a pet.

        ``POST /store/order``

        Args:
            body: The request body, a ``OrderInput`` or a mapping validated into one before
                anything is sent; an ``UncheckedBody`` is sent as it is.
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``Order``.

        Raises:
            BadRequestError: HTTP 400: Invalid input.
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (self._place_order(body=body, deadline=deadline)).parsed

    def _place_order(
        self,
        *,
        body: OrderInput | Mapping[str, Any] | UncheckedBody | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[Order]:
        parameters = validate_parameters(
            _PLACE_ORDER,
            None,
            {},
        )
        content = encode_body(_PLACE_ORDER, _models.OrderInput, body)
        response = self._send(_PLACE_ORDER, parameters, content, deadline)
        return ApiResponse(response, decode_response(_PLACE_ORDER, response, _models.Order))


class PetstoreClientWithRawResponse:
    """The operations of ``PetstoreClient``, answering the whole response.

    Each method takes the same arguments as the client's and answers ``ApiResponse``:
    ``status_code``, ``headers``, ``request_id`` (``X-Request-Id``), ``content`` (the raw
    body) and ``parsed`` (the model). Get one from ``client.with_raw_response``.
    """

    def __init__(self, client: PetstoreClient) -> None:
        self._client = client

    def update_pet(
        self,
        body: PetInput | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[Pet]:
        """The whole response of ``update_pet`` (the client's docstring says more).

        ``PUT /pet``
        """
        return self._client._update_pet(body, deadline=deadline)

    def add_pet(
        self,
        body: PetInput | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[Pet]:
        """The whole response of ``add_pet`` (the client's docstring says more).

        ``POST /pet``
        """
        return self._client._add_pet(body, deadline=deadline)

    def find_pets_by_status(
        self,
        *,
        status: Literal["available", "pending", "sold"] | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[FindPetsByStatusResponse]:
        """The whole response of ``find_pets_by_status`` (the client's docstring says more).

        ``GET /pet/findByStatus``
        """
        return self._client._find_pets_by_status(status=status, deadline=deadline)

    def find_pets_by_tags(
        self,
        *,
        tags: list[str],
        deadline: float | None = None,
    ) -> ApiResponse[FindPetsByTagsResponse]:
        """The whole response of ``find_pets_by_tags`` (the client's docstring says more).

        ``GET /pet/findByTags``
        """
        return self._client._find_pets_by_tags(tags=tags, deadline=deadline)

    def get_pet_by_id(
        self,
        pet_id: int,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[Pet]:
        """The whole response of ``get_pet_by_id`` (the client's docstring says more).

        ``GET /pet/{petId}``
        """
        return self._client._get_pet_by_id(pet_id, deadline=deadline)

    def delete_pet(
        self,
        pet_id: int,
        *,
        api_key: str | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[None]:
        """The whole response of ``delete_pet`` (the client's docstring says more).

        ``DELETE /pet/{petId}``
        """
        return self._client._delete_pet(pet_id, api_key=api_key, deadline=deadline)

    def get_inventory(
        self,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[GetInventoryResponse]:
        """The whole response of ``get_inventory`` (the client's docstring says more).

        ``GET /store/inventory``
        """
        return self._client._get_inventory(deadline=deadline)

    def place_order(
        self,
        *,
        body: OrderInput | Mapping[str, Any] | UncheckedBody | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[Order]:
        """The whole response of ``place_order`` (the client's docstring says more).

        ``POST /store/order``
        """
        return self._client._place_order(body=body, deadline=deadline)


class AsyncPetstoreClient:
    """Asynchronous client; use it with ``async with`` or await aclose().

    Args:
        auth: an ``httpx.Auth``: ``TokenAuth(token)`` or ``AkSkAuth(ak, sk)``.
        base_url: the endpoint; by default built from the spec's server URL
            (https://petstore3.swagger.io/api/v3).
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
        auth: httpx.Auth | None = None,
        base_url: str | None = None,
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
            {},
        )
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
            f"{type(self).__name__}(base_url={redact_url(self._base_url)!r}, auth={self._auth!r})"
        )

    @property
    def base_url(self) -> str:
        return self._base_url

    @property
    def with_raw_response(self) -> AsyncPetstoreClientWithRawResponse:
        """The same operations, answering ``ApiResponse`` (the parsed model and the response)."""
        return AsyncPetstoreClientWithRawResponse(self)

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

    async def update_pet(
        self,
        body: PetInput | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> Pet:
        """Update an existing pet.

        ``PUT /pet``

        Args:
            body: The request body, a ``PetInput`` or a mapping validated into one before
                anything is sent; an ``UncheckedBody`` is sent as it is.
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``Pet``.

        Raises:
            BadRequestError: HTTP 400: Invalid ID supplied.
            NotFoundError: HTTP 404: Pet not found.
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (await self._update_pet(body, deadline=deadline)).parsed

    async def _update_pet(
        self,
        body: PetInput | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[Pet]:
        parameters = validate_parameters(
            _UPDATE_PET,
            None,
            {},
        )
        content = encode_body(_UPDATE_PET, _models.PetInput, body)
        response = await self._send(_UPDATE_PET, parameters, content, deadline)
        return ApiResponse(response, decode_response(_UPDATE_PET, response, Pet))

    async def add_pet(
        self,
        body: PetInput | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> Pet:
        """Add a new pet to the store.

        ``POST /pet``

        Args:
            body: The request body, a ``PetInput`` or a mapping validated into one before
                anything is sent; an ``UncheckedBody`` is sent as it is.
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``Pet``.

        Raises:
            BadRequestError: HTTP 400: Invalid input.
            UnprocessableEntityError: HTTP 422: Validation exception.
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (await self._add_pet(body, deadline=deadline)).parsed

    async def _add_pet(
        self,
        body: PetInput | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[Pet]:
        parameters = validate_parameters(
            _ADD_PET,
            None,
            {},
        )
        content = encode_body(_ADD_PET, _models.PetInput, body)
        response = await self._send(_ADD_PET, parameters, content, deadline)
        return ApiResponse(response, decode_response(_ADD_PET, response, Pet))

    async def find_pets_by_status(
        self,
        *,
        status: Literal["available", "pending", "sold"] | None = None,
        deadline: float | None = None,
    ) -> FindPetsByStatusResponse:
        """Finds Pets by status.

        Multiple status values can be provided with comma separated strings.

        ``GET /pet/findByStatus``

        Args:
            status: Status values that need to be considered for filter
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``FindPetsByStatusResponse``.

        Raises:
            BadRequestError: HTTP 400: Invalid status value.
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (await self._find_pets_by_status(status=status, deadline=deadline)).parsed

    async def _find_pets_by_status(
        self,
        *,
        status: Literal["available", "pending", "sold"] | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[FindPetsByStatusResponse]:
        parameters = validate_parameters(
            _FIND_PETS_BY_STATUS,
            _models.FindPetsByStatusParameters,
            {
                "status": status,
            },
        )
        content = None
        response = await self._send(_FIND_PETS_BY_STATUS, parameters, content, deadline)
        return ApiResponse(
            response,
            decode_response(_FIND_PETS_BY_STATUS, response, _models.FindPetsByStatusResponse),
        )

    async def find_pets_by_tags(
        self,
        *,
        tags: list[str],
        deadline: float | None = None,
    ) -> FindPetsByTagsResponse:
        """Finds Pets by tags.

        ``GET /pet/findByTags``

        Args:
            tags: Tags to filter by
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``FindPetsByTagsResponse``.

        Raises:
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (await self._find_pets_by_tags(tags=tags, deadline=deadline)).parsed

    async def _find_pets_by_tags(
        self,
        *,
        tags: list[str],
        deadline: float | None = None,
    ) -> ApiResponse[FindPetsByTagsResponse]:
        parameters = validate_parameters(
            _FIND_PETS_BY_TAGS,
            _models.FindPetsByTagsParameters,
            {
                "tags": tags,
            },
        )
        content = None
        response = await self._send(_FIND_PETS_BY_TAGS, parameters, content, deadline)
        return ApiResponse(
            response, decode_response(_FIND_PETS_BY_TAGS, response, _models.FindPetsByTagsResponse)
        )

    async def get_pet_by_id(
        self,
        pet_id: int,
        *,
        deadline: float | None = None,
    ) -> Pet:
        """Find pet by ID.

        Returns a single pet.

        ``GET /pet/{petId}``

        Args:
            pet_id: ID of pet to return
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``Pet``.

        Raises:
            BadRequestError: HTTP 400: Invalid ID supplied.
            NotFoundError: HTTP 404: Pet not found.
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (await self._get_pet_by_id(pet_id, deadline=deadline)).parsed

    async def _get_pet_by_id(
        self,
        pet_id: int,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[Pet]:
        parameters = validate_parameters(
            _GET_PET_BY_ID,
            _models.GetPetByIdParameters,
            {
                "petId": pet_id,
            },
        )
        content = None
        response = await self._send(_GET_PET_BY_ID, parameters, content, deadline)
        return ApiResponse(response, decode_response(_GET_PET_BY_ID, response, Pet))

    async def delete_pet(
        self,
        pet_id: int,
        *,
        api_key: str | None = None,
        deadline: float | None = None,
    ) -> None:
        """Deletes a pet.

        ``DELETE /pet/{petId}``

        Args:
            api_key: The header parameter ``api_key``.
            pet_id: Pet id to delete
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            Nothing (``204``).

        Raises:
            BadRequestError: HTTP 400: Invalid pet value.
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (await self._delete_pet(pet_id, api_key=api_key, deadline=deadline)).parsed

    async def _delete_pet(
        self,
        pet_id: int,
        *,
        api_key: str | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[None]:
        parameters = validate_parameters(
            _DELETE_PET,
            _models.DeletePetParameters,
            {
                "api_key": api_key,
                "petId": pet_id,
            },
        )
        content = None
        response = await self._send(_DELETE_PET, parameters, content, deadline)
        return ApiResponse(response, None)

    async def get_inventory(
        self,
        *,
        deadline: float | None = None,
    ) -> GetInventoryResponse:
        """Returns pet inventories by status.

        ``GET /store/inventory``

        Args:
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``GetInventoryResponse``.

        Raises:
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (await self._get_inventory(deadline=deadline)).parsed

    async def _get_inventory(
        self,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[GetInventoryResponse]:
        parameters = validate_parameters(
            _GET_INVENTORY,
            None,
            {},
        )
        content = None
        response = await self._send(_GET_INVENTORY, parameters, content, deadline)
        return ApiResponse(
            response, decode_response(_GET_INVENTORY, response, _models.GetInventoryResponse)
        )

    async def place_order(
        self,
        *,
        body: OrderInput | Mapping[str, Any] | UncheckedBody | None = None,
        deadline: float | None = None,
    ) -> Order:
        """Place an order for a pet.

        ``POST /store/order``

        Args:
            body: The request body, a ``OrderInput`` or a mapping validated into one before
                anything is sent; an ``UncheckedBody`` is sent as it is.
            deadline: Seconds this call may take in all (default: the client's).

        Returns:
            The ``200`` response, as ``Order``.

        Raises:
            BadRequestError: HTTP 400: Invalid input.
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        return (await self._place_order(body=body, deadline=deadline)).parsed

    async def _place_order(
        self,
        *,
        body: OrderInput | Mapping[str, Any] | UncheckedBody | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[Order]:
        parameters = validate_parameters(
            _PLACE_ORDER,
            None,
            {},
        )
        content = encode_body(_PLACE_ORDER, _models.OrderInput, body)
        response = await self._send(_PLACE_ORDER, parameters, content, deadline)
        return ApiResponse(response, decode_response(_PLACE_ORDER, response, _models.Order))


class AsyncPetstoreClientWithRawResponse:
    """The operations of ``AsyncPetstoreClient``, answering the whole response.

    Each method takes the same arguments as the client's and answers ``ApiResponse``:
    ``status_code``, ``headers``, ``request_id`` (``X-Request-Id``), ``content`` (the raw
    body) and ``parsed`` (the model). Get one from ``client.with_raw_response``.
    """

    def __init__(self, client: AsyncPetstoreClient) -> None:
        self._client = client

    async def update_pet(
        self,
        body: PetInput | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[Pet]:
        """The whole response of ``update_pet`` (the client's docstring says more).

        ``PUT /pet``
        """
        return await self._client._update_pet(body, deadline=deadline)

    async def add_pet(
        self,
        body: PetInput | Mapping[str, Any] | UncheckedBody,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[Pet]:
        """The whole response of ``add_pet`` (the client's docstring says more).

        ``POST /pet``
        """
        return await self._client._add_pet(body, deadline=deadline)

    async def find_pets_by_status(
        self,
        *,
        status: Literal["available", "pending", "sold"] | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[FindPetsByStatusResponse]:
        """The whole response of ``find_pets_by_status`` (the client's docstring says more).

        ``GET /pet/findByStatus``
        """
        return await self._client._find_pets_by_status(status=status, deadline=deadline)

    async def find_pets_by_tags(
        self,
        *,
        tags: list[str],
        deadline: float | None = None,
    ) -> ApiResponse[FindPetsByTagsResponse]:
        """The whole response of ``find_pets_by_tags`` (the client's docstring says more).

        ``GET /pet/findByTags``
        """
        return await self._client._find_pets_by_tags(tags=tags, deadline=deadline)

    async def get_pet_by_id(
        self,
        pet_id: int,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[Pet]:
        """The whole response of ``get_pet_by_id`` (the client's docstring says more).

        ``GET /pet/{petId}``
        """
        return await self._client._get_pet_by_id(pet_id, deadline=deadline)

    async def delete_pet(
        self,
        pet_id: int,
        *,
        api_key: str | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[None]:
        """The whole response of ``delete_pet`` (the client's docstring says more).

        ``DELETE /pet/{petId}``
        """
        return await self._client._delete_pet(pet_id, api_key=api_key, deadline=deadline)

    async def get_inventory(
        self,
        *,
        deadline: float | None = None,
    ) -> ApiResponse[GetInventoryResponse]:
        """The whole response of ``get_inventory`` (the client's docstring says more).

        ``GET /store/inventory``
        """
        return await self._client._get_inventory(deadline=deadline)

    async def place_order(
        self,
        *,
        body: OrderInput | Mapping[str, Any] | UncheckedBody | None = None,
        deadline: float | None = None,
    ) -> ApiResponse[Order]:
        """The whole response of ``place_order`` (the client's docstring says more).

        ``POST /store/order``
        """
        return await self._client._place_order(body=body, deadline=deadline)
