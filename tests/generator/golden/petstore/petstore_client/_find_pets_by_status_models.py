"""The models only ``find_pets_by_status`` of the Swagger Petstore API uses (modelarts-kit; do not
edit).

They are loaded with its first call: import them from ``models`` or the package (this module's
name is not part of the API)."""

from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
)

from .models import (
    Pet,
    _DeferredRootModel,
)


class FindPetsByStatusParameters(BaseModel):
    """
    The parameters of ``find_pets_by_status``.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    status: Literal["available", "pending", "sold"] = "available"


class FindPetsByStatusResponse(_DeferredRootModel[list[Pet]]):
    model_config = ConfigDict(defer_build=True)
    root: list[Pet]


__all__ = [
    "FindPetsByStatusParameters",
    "FindPetsByStatusResponse",
]
