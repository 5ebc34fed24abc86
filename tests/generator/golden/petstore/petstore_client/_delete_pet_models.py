"""The models only ``delete_pet`` of the Swagger Petstore API uses (modelarts-kit; do not edit).

They are loaded with its first call: import them from ``models`` or the package (this module's
name is not part of the API)."""

from pydantic import (
    BaseModel,
    ConfigDict,
    StrictInt,
    StrictStr,
)


class DeletePetParameters(BaseModel):
    """
    The parameters of ``delete_pet``.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    api_key: StrictStr | None = None
    petId: StrictInt


__all__ = [
    "DeletePetParameters",
]
