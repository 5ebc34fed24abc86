"""The models only ``stop_training_job`` of the ModelArts training jobs API uses (modelarts-kit; do
not edit).

They are loaded with its first call: import them from ``models`` or the package (this module's
name is not part of the API)."""

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictStr


class StopTrainingJobParameters(BaseModel):
    """
    The parameters of ``stop_training_job``.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    project_id: Annotated[StrictStr, Field(min_length=1, pattern="^[A-Za-z0-9_-]+$")]
    training_job_id: Annotated[StrictStr, Field(min_length=1, pattern="^[A-Za-z0-9_-]+$")]


__all__ = [
    "StopTrainingJobParameters",
]
