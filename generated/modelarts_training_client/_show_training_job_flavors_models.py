"""The models only ``show_training_job_flavors`` of the ModelArts training jobs API uses
(modelarts-kit; do not edit).

They are loaded with its first call: import them from ``models`` or the package (this module's
name is not part of the API)."""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from .models import (
    FlavorResponse,
)


class ShowTrainingJobFlavorsParameters(BaseModel):
    """
    The parameters of ``show_training_job_flavors``.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    project_id: Annotated[StrictStr, Field(min_length=1, pattern="^[A-Za-z0-9_-]+$")]
    flavor_type: Literal["CPU", "GPU", "Ascend"] | None = None


class TrainingJobFlavors(BaseModel):
    """
    The public resource flavors of training jobs (the flavors operation's answer).
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    total_count: StrictInt | None = None
    """
    Total number of resource flavors.
    """
    flavors: list[FlavorResponse] | None = None
    """
    The resource flavors.
    """


__all__ = [
    "ShowTrainingJobFlavorsParameters",
    "TrainingJobFlavors",
]
