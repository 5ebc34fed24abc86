"""Typed Python client for the Swagger Petstore API (spec version 1.0.17).

Generated from the API's OpenAPI document by ``modelarts-kit generate``; do not edit.

A sample pet store server, used to show that the generator is not tied to one API.
"""

from typing import TYPE_CHECKING

from . import models as _models
from ._http import ApiResponse, RetryPolicy, UncheckedBody
from .auth import AkSkAuth, TokenAuth
from .client import (
    AsyncPetstoreClient,
    AsyncPetstoreClientWithRawResponse,
    PetstoreClient,
    PetstoreClientWithRawResponse,
)
from .errors import (
    ApiError,
    AuthenticationError,
    BadRequestError,
    ClientError,
    ConflictError,
    DeadlineExceededError,
    DecodeError,
    NotFoundError,
    PermissionDeniedError,
    PetstoreError,
    RateLimitError,
    RequestValidationError,
    ResponseTooLargeError,
    ResponseValidationError,
    ServerError,
    TransportError,
    UnprocessableEntityError,
)
from .models import (
    Category,
    Pet,
    Tag,
)

if TYPE_CHECKING:
    from .models import (
        CategoryInput,
        DeletePetParameters,
        FindPetsByStatusParameters,
        FindPetsByStatusResponse,
        FindPetsByTagsParameters,
        FindPetsByTagsResponse,
        GetInventoryResponse,
        GetPetByIdParameters,
        Order,
        OrderInput,
        PetInput,
        TagInput,
    )

__version__ = "1.0.17"
SPEC_VERSION = "1.0.17"

__all__ = [
    "AkSkAuth",
    "ApiError",
    "ApiResponse",
    "AsyncPetstoreClient",
    "AsyncPetstoreClientWithRawResponse",
    "AuthenticationError",
    "BadRequestError",
    "Category",
    "CategoryInput",
    "ClientError",
    "ConflictError",
    "DeadlineExceededError",
    "DecodeError",
    "DeletePetParameters",
    "FindPetsByStatusParameters",
    "FindPetsByStatusResponse",
    "FindPetsByTagsParameters",
    "FindPetsByTagsResponse",
    "GetInventoryResponse",
    "GetPetByIdParameters",
    "NotFoundError",
    "Order",
    "OrderInput",
    "PermissionDeniedError",
    "Pet",
    "PetInput",
    "PetstoreClient",
    "PetstoreClientWithRawResponse",
    "PetstoreError",
    "RateLimitError",
    "RequestValidationError",
    "ResponseTooLargeError",
    "ResponseValidationError",
    "RetryPolicy",
    "ServerError",
    "Tag",
    "TagInput",
    "TokenAuth",
    "TransportError",
    "UncheckedBody",
    "UnprocessableEntityError",
]


def __getattr__(name: str) -> object:
    """A model loaded on first access, with its module (see ``models``)."""
    if name in _models._LAZY_MODELS:
        value: object = getattr(_models, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_models._LAZY_MODELS})
