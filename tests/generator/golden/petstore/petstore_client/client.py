"""Swagger Petstore: the synchronous and the asynchronous client.

Both classes come from one template; they differ only in ``def``/``async def`` and
``await``. One method per operation of the spec.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Literal, Self

import httpx

from ._http import (
    DEFAULT_TIMEOUT,
    Call,
    RetryPolicy,
    build_request,
    decode_response,
    encode_body,
    raise_for_status,
    resolve_base_url,
    transport_error,
    validate_parameters,
)
from .models import (
    DeletePetParameters,
    FindPetsByStatusParameters,
    FindPetsByStatusResponse,
    FindPetsByTagsParameters,
    FindPetsByTagsResponse,
    GetInventoryResponse,
    GetPetByIdParameters,
    Order,
    OrderInput,
    Pet,
    PetInput,
)

__all__ = [
    "AsyncPetstoreClient",
    "PetstoreClient",
]


async def _asyncio_sleep(delay: float) -> None:
    """``asyncio.sleep``, imported on first use: synchronous programs never load asyncio."""
    import asyncio

    await asyncio.sleep(delay)


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
        timeout: seconds or an ``httpx.Timeout``; on by default.
        retry: when idempotent requests are retried (``RetryPolicy()`` by default).
        http_client: an ``httpx.Client`` to send through (not closed by this client).
        transport: an ``httpx.BaseTransport`` for a client this object creates and closes.
        sleep: how to wait between retries (injectable for tests).
        headers: extra headers sent with every request.
    """

    def __init__(
        self,
        *,
        auth: httpx.Auth | None = None,
        base_url: str | None = None,
        timeout: float | httpx.Timeout | None = DEFAULT_TIMEOUT,
        retry: RetryPolicy | None = None,
        http_client: httpx.Client | None = None,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        if http_client is not None and transport is not None:
            raise ValueError("pass either http_client or transport, not both")
        self._base_url = resolve_base_url(
            base_url,
            {},
        )
        self._auth = auth
        self._retry = retry or RetryPolicy()
        self._sleep = sleep or time.sleep
        self._headers = dict(headers or {})
        self._owns_http = http_client is None
        self._http = http_client or httpx.Client(transport=transport, timeout=timeout)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={self._base_url!r}, auth={self._auth!r})"

    @property
    def base_url(self) -> str:
        return self._base_url

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the HTTP client if this object created it."""
        if self._owns_http:
            self._http.close()

    def _send(
        self, call: Call, parameters: Mapping[str, Any], content: bytes | None
    ) -> httpx.Response:
        request = build_request(
            self._http, self._base_url, call, parameters, content, self._headers
        )
        attempt = 1
        while True:
            try:
                response = self._http.send(request, auth=self._auth or httpx.USE_CLIENT_DEFAULT)
            except httpx.TransportError as exc:
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
            self._sleep(delay)
            attempt += 1

    def update_pet(
        self,
        body: PetInput | Mapping[str, Any],
    ) -> Pet:
        """Update an existing pet.

        ``PUT /pet``

        Args:
            body: The request body, a ``PetInput`` or a mapping validated into one before
                anything is sent.

        Returns:
            The ``200`` response, as ``Pet``.

        Raises:
            BadRequestError: HTTP 400: Invalid ID supplied.
            NotFoundError: HTTP 404: Pet not found.
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        parameters = validate_parameters(
            "update_pet",
            None,
            {},
        )
        content = encode_body("update_pet", PetInput, body)
        response = self._send(_UPDATE_PET, parameters, content)
        return decode_response("update_pet", response, Pet)

    def add_pet(
        self,
        body: PetInput | Mapping[str, Any],
    ) -> Pet:
        """Add a new pet to the store.

        ``POST /pet``

        Args:
            body: The request body, a ``PetInput`` or a mapping validated into one before
                anything is sent.

        Returns:
            The ``200`` response, as ``Pet``.

        Raises:
            BadRequestError: HTTP 400: Invalid input.
            UnprocessableEntityError: HTTP 422: Validation exception.
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        parameters = validate_parameters(
            "add_pet",
            None,
            {},
        )
        content = encode_body("add_pet", PetInput, body)
        response = self._send(_ADD_PET, parameters, content)
        return decode_response("add_pet", response, Pet)

    def find_pets_by_status(
        self,
        *,
        status: Literal["available", "pending", "sold"] | None = None,
    ) -> FindPetsByStatusResponse:
        """Finds Pets by status.

        Multiple status values can be provided with comma separated strings.

        ``GET /pet/findByStatus``

        Args:
            status: Status values that need to be considered for filter

        Returns:
            The ``200`` response, as ``FindPetsByStatusResponse``.

        Raises:
            BadRequestError: HTTP 400: Invalid status value.
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        parameters = validate_parameters(
            "find_pets_by_status",
            FindPetsByStatusParameters,
            {
                "status": status,
            },
        )
        content = None
        response = self._send(_FIND_PETS_BY_STATUS, parameters, content)
        return decode_response("find_pets_by_status", response, FindPetsByStatusResponse)

    def find_pets_by_tags(
        self,
        *,
        tags: list[str],
    ) -> FindPetsByTagsResponse:
        """Finds Pets by tags.

        ``GET /pet/findByTags``

        Args:
            tags: Tags to filter by

        Returns:
            The ``200`` response, as ``FindPetsByTagsResponse``.

        Raises:
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        parameters = validate_parameters(
            "find_pets_by_tags",
            FindPetsByTagsParameters,
            {
                "tags": tags,
            },
        )
        content = None
        response = self._send(_FIND_PETS_BY_TAGS, parameters, content)
        return decode_response("find_pets_by_tags", response, FindPetsByTagsResponse)

    def get_pet_by_id(
        self,
        pet_id: int,
    ) -> Pet:
        """Find pet by ID.

        Returns a single pet.

        ``GET /pet/{petId}``

        Args:
            pet_id: ID of pet to return

        Returns:
            The ``200`` response, as ``Pet``.

        Raises:
            BadRequestError: HTTP 400: Invalid ID supplied.
            NotFoundError: HTTP 404: Pet not found.
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        parameters = validate_parameters(
            "get_pet_by_id",
            GetPetByIdParameters,
            {
                "petId": pet_id,
            },
        )
        content = None
        response = self._send(_GET_PET_BY_ID, parameters, content)
        return decode_response("get_pet_by_id", response, Pet)

    def delete_pet(
        self,
        pet_id: int,
        *,
        api_key: str | None = None,
    ) -> None:
        """Deletes a pet.

        ``DELETE /pet/{petId}``

        Args:
            api_key: The header parameter ``api_key``.
            pet_id: Pet id to delete

        Returns:
            Nothing (``204``).

        Raises:
            BadRequestError: HTTP 400: Invalid pet value.
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        parameters = validate_parameters(
            "delete_pet",
            DeletePetParameters,
            {
                "api_key": api_key,
                "petId": pet_id,
            },
        )
        content = None
        self._send(_DELETE_PET, parameters, content)
        return None

    def get_inventory(
        self,
    ) -> GetInventoryResponse:
        """Returns pet inventories by status.

        ``GET /store/inventory``

        Returns:
            The ``200`` response, as ``GetInventoryResponse``.

        Raises:
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        parameters = validate_parameters(
            "get_inventory",
            None,
            {},
        )
        content = None
        response = self._send(_GET_INVENTORY, parameters, content)
        return decode_response("get_inventory", response, GetInventoryResponse)

    def place_order(
        self,
        *,
        body: OrderInput | Mapping[str, Any] | None = None,
    ) -> Order:
        """Place an order for a pet.

        ``POST /store/order``

        Args:
            body: The request body, a ``OrderInput`` or a mapping validated into one before
                anything is sent.

        Returns:
            The ``200`` response, as ``Order``.

        Raises:
            BadRequestError: HTTP 400: Invalid input.
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        parameters = validate_parameters(
            "place_order",
            None,
            {},
        )
        content = encode_body("place_order", OrderInput, body)
        response = self._send(_PLACE_ORDER, parameters, content)
        return decode_response("place_order", response, Order)


class AsyncPetstoreClient:
    """Asynchronous client; use it with ``async with`` or await aclose().

    Args:
        auth: an ``httpx.Auth``: ``TokenAuth(token)`` or ``AkSkAuth(ak, sk)``.
        base_url: the endpoint; by default built from the spec's server URL
            (https://petstore3.swagger.io/api/v3).
        timeout: seconds or an ``httpx.Timeout``; on by default.
        retry: when idempotent requests are retried (``RetryPolicy()`` by default).
        http_client: an ``httpx.AsyncClient`` to send through (not closed by this client).
        transport: an ``httpx.AsyncBaseTransport`` for a client this object creates and closes.
        sleep: how to wait between retries (injectable for tests).
        headers: extra headers sent with every request.
    """

    def __init__(
        self,
        *,
        auth: httpx.Auth | None = None,
        base_url: str | None = None,
        timeout: float | httpx.Timeout | None = DEFAULT_TIMEOUT,
        retry: RetryPolicy | None = None,
        http_client: httpx.AsyncClient | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Callable[[float], Awaitable[None]] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        if http_client is not None and transport is not None:
            raise ValueError("pass either http_client or transport, not both")
        self._base_url = resolve_base_url(
            base_url,
            {},
        )
        self._auth = auth
        self._retry = retry or RetryPolicy()
        self._sleep = sleep or _asyncio_sleep
        self._headers = dict(headers or {})
        self._owns_http = http_client is None
        self._http = http_client or httpx.AsyncClient(transport=transport, timeout=timeout)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={self._base_url!r}, auth={self._auth!r})"

    @property
    def base_url(self) -> str:
        return self._base_url

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the HTTP client if this object created it."""
        if self._owns_http:
            await self._http.aclose()

    async def _send(
        self, call: Call, parameters: Mapping[str, Any], content: bytes | None
    ) -> httpx.Response:
        request = build_request(
            self._http, self._base_url, call, parameters, content, self._headers
        )
        attempt = 1
        while True:
            try:
                response = await self._http.send(
                    request, auth=self._auth or httpx.USE_CLIENT_DEFAULT
                )
            except httpx.TransportError as exc:
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
            await self._sleep(delay)
            attempt += 1

    async def update_pet(
        self,
        body: PetInput | Mapping[str, Any],
    ) -> Pet:
        """Update an existing pet.

        ``PUT /pet``

        Args:
            body: The request body, a ``PetInput`` or a mapping validated into one before
                anything is sent.

        Returns:
            The ``200`` response, as ``Pet``.

        Raises:
            BadRequestError: HTTP 400: Invalid ID supplied.
            NotFoundError: HTTP 404: Pet not found.
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        parameters = validate_parameters(
            "update_pet",
            None,
            {},
        )
        content = encode_body("update_pet", PetInput, body)
        response = await self._send(_UPDATE_PET, parameters, content)
        return decode_response("update_pet", response, Pet)

    async def add_pet(
        self,
        body: PetInput | Mapping[str, Any],
    ) -> Pet:
        """Add a new pet to the store.

        ``POST /pet``

        Args:
            body: The request body, a ``PetInput`` or a mapping validated into one before
                anything is sent.

        Returns:
            The ``200`` response, as ``Pet``.

        Raises:
            BadRequestError: HTTP 400: Invalid input.
            UnprocessableEntityError: HTTP 422: Validation exception.
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        parameters = validate_parameters(
            "add_pet",
            None,
            {},
        )
        content = encode_body("add_pet", PetInput, body)
        response = await self._send(_ADD_PET, parameters, content)
        return decode_response("add_pet", response, Pet)

    async def find_pets_by_status(
        self,
        *,
        status: Literal["available", "pending", "sold"] | None = None,
    ) -> FindPetsByStatusResponse:
        """Finds Pets by status.

        Multiple status values can be provided with comma separated strings.

        ``GET /pet/findByStatus``

        Args:
            status: Status values that need to be considered for filter

        Returns:
            The ``200`` response, as ``FindPetsByStatusResponse``.

        Raises:
            BadRequestError: HTTP 400: Invalid status value.
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        parameters = validate_parameters(
            "find_pets_by_status",
            FindPetsByStatusParameters,
            {
                "status": status,
            },
        )
        content = None
        response = await self._send(_FIND_PETS_BY_STATUS, parameters, content)
        return decode_response("find_pets_by_status", response, FindPetsByStatusResponse)

    async def find_pets_by_tags(
        self,
        *,
        tags: list[str],
    ) -> FindPetsByTagsResponse:
        """Finds Pets by tags.

        ``GET /pet/findByTags``

        Args:
            tags: Tags to filter by

        Returns:
            The ``200`` response, as ``FindPetsByTagsResponse``.

        Raises:
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        parameters = validate_parameters(
            "find_pets_by_tags",
            FindPetsByTagsParameters,
            {
                "tags": tags,
            },
        )
        content = None
        response = await self._send(_FIND_PETS_BY_TAGS, parameters, content)
        return decode_response("find_pets_by_tags", response, FindPetsByTagsResponse)

    async def get_pet_by_id(
        self,
        pet_id: int,
    ) -> Pet:
        """Find pet by ID.

        Returns a single pet.

        ``GET /pet/{petId}``

        Args:
            pet_id: ID of pet to return

        Returns:
            The ``200`` response, as ``Pet``.

        Raises:
            BadRequestError: HTTP 400: Invalid ID supplied.
            NotFoundError: HTTP 404: Pet not found.
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        parameters = validate_parameters(
            "get_pet_by_id",
            GetPetByIdParameters,
            {
                "petId": pet_id,
            },
        )
        content = None
        response = await self._send(_GET_PET_BY_ID, parameters, content)
        return decode_response("get_pet_by_id", response, Pet)

    async def delete_pet(
        self,
        pet_id: int,
        *,
        api_key: str | None = None,
    ) -> None:
        """Deletes a pet.

        ``DELETE /pet/{petId}``

        Args:
            api_key: The header parameter ``api_key``.
            pet_id: Pet id to delete

        Returns:
            Nothing (``204``).

        Raises:
            BadRequestError: HTTP 400: Invalid pet value.
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        parameters = validate_parameters(
            "delete_pet",
            DeletePetParameters,
            {
                "api_key": api_key,
                "petId": pet_id,
            },
        )
        content = None
        await self._send(_DELETE_PET, parameters, content)
        return None

    async def get_inventory(
        self,
    ) -> GetInventoryResponse:
        """Returns pet inventories by status.

        ``GET /store/inventory``

        Returns:
            The ``200`` response, as ``GetInventoryResponse``.

        Raises:
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        parameters = validate_parameters(
            "get_inventory",
            None,
            {},
        )
        content = None
        response = await self._send(_GET_INVENTORY, parameters, content)
        return decode_response("get_inventory", response, GetInventoryResponse)

    async def place_order(
        self,
        *,
        body: OrderInput | Mapping[str, Any] | None = None,
    ) -> Order:
        """Place an order for a pet.

        ``POST /store/order``

        Args:
            body: The request body, a ``OrderInput`` or a mapping validated into one before
                anything is sent.

        Returns:
            The ``200`` response, as ``Order``.

        Raises:
            BadRequestError: HTTP 400: Invalid input.
            RequestValidationError: an argument breaks a rule of the spec (nothing is sent).
            TransportError: the request could not be sent or no answer arrived.
            DecodeError: the answer is not the documented JSON.
        """
        parameters = validate_parameters(
            "place_order",
            None,
            {},
        )
        content = encode_body("place_order", OrderInput, body)
        response = await self._send(_PLACE_ORDER, parameters, content)
        return decode_response("place_order", response, Order)
