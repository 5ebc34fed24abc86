"""Request-body models of the Swagger Petstore API (modelarts-kit; do not edit).

Only request bodies use these models, so they are loaded on first use: import them from
``models`` or the package (this module's name is not part of the API)."""

from typing import Annotated, Literal

from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
)


class CategoryInput(BaseModel):
    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    id: StrictInt | None = None
    name: StrictStr | None = None


class OrderInput(BaseModel):
    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    petId: StrictInt | None = None
    quantity: Annotated[StrictInt | None, Field(ge=1)] = None
    shipDate: AwareDatetime | None = None
    status: Literal["placed", "approved", "delivered"] | None = None
    """
    Order Status
    """
    complete: StrictBool | None = None


class TagInput(BaseModel):
    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    id: StrictInt | None = None
    name: StrictStr | None = None


class PetInput(BaseModel):
    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    name: Annotated[StrictStr, Field(min_length=1)]
    category: CategoryInput | None = None
    photoUrls: list[StrictStr]
    tags: list[TagInput] | None = None
    status: Literal["available", "pending", "sold"] | None = None
    """
    pet status in the store
    """
    nickname: StrictStr | None = None


__all__ = [
    "CategoryInput",
    "OrderInput",
    "PetInput",
    "TagInput",
]
