"""The models only ``place_order`` of the Swagger Petstore API uses (modelarts-kit; do not edit).

They are loaded with its first call: import them from ``models`` or the package (this module's
name is not part of the API)."""

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


class Order(BaseModel):
    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    id: StrictInt | None = None
    petId: StrictInt | None = None
    quantity: Annotated[StrictInt | None, Field(ge=1)] = None
    shipDate: AwareDatetime | None = None
    status: Literal["placed", "approved", "delivered"] | StrictStr | None = None
    """
    Order Status
    """
    complete: StrictBool | None = None


__all__ = [
    "Order",
]
