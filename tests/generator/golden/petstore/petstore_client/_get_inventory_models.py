"""The models only ``get_inventory`` of the Swagger Petstore API uses (modelarts-kit; do not edit).

They are loaded with its first call: import them from ``models`` or the package (this module's
name is not part of the API)."""

from pydantic import (
    ConfigDict,
    StrictInt,
)

from .models import (
    _DeferredRootModel,
)


class GetInventoryResponse(_DeferredRootModel[dict[str, StrictInt]]):
    model_config = ConfigDict(defer_build=True)
    root: dict[str, StrictInt]


__all__ = [
    "GetInventoryResponse",
]
