"""The models only ``find_pets_by_tags`` of the Swagger Petstore API uses (modelarts-kit; do not
edit).

They are loaded with its first call: import them from ``models`` or the package (this module's
name is not part of the API)."""

from pydantic import (
    BaseModel,
    ConfigDict,
    StrictStr,
)

from .models import (
    Pet,
    _DeferredRootModel,
)


class FindPetsByTagsParameters(BaseModel):
    """
    The parameters of ``find_pets_by_tags``.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    tags: list[StrictStr]


class FindPetsByTagsResponse(_DeferredRootModel[list[Pet]]):
    model_config = ConfigDict(defer_build=True)
    root: list[Pet]


__all__ = [
    "FindPetsByTagsParameters",
    "FindPetsByTagsResponse",
]
