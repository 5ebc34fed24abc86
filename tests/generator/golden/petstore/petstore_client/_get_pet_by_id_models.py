"""The models only ``get_pet_by_id`` of the Swagger Petstore API uses (modelarts-kit; do not edit).

They are loaded with its first call: import them from ``models`` or the package (this module's
name is not part of the API)."""

from typing import Annotated

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
)


class GetPetByIdParameters(BaseModel):
    """
    The parameters of ``get_pet_by_id``.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    petId: Annotated[StrictInt, Field(ge=1)]


__all__ = [
    "GetPetByIdParameters",
]
