"""The models only ``show_obs_url_of_training_job_logs`` of the ModelArts training jobs API uses
(modelarts-kit; do not edit).

They are loaded with its first call: import them from ``models`` or the package (this module's
name is not part of the API)."""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr


class ShowObsUrlOfTrainingJobLogsParameters(BaseModel):
    """
    The parameters of ``show_obs_url_of_training_job_logs``.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    project_id: Annotated[StrictStr, Field(min_length=1, pattern="^[A-Za-z0-9_-]+$")]
    training_job_id: Annotated[StrictStr, Field(min_length=1, pattern="^[A-Za-z0-9_-]+$")]
    task_id: Annotated[StrictStr, Field(min_length=1)]
    Content_Type: Annotated[
        Literal["text/plain", "application/octet-stream"] | None, Field(alias="Content-Type")
    ] = None


class TaskLogObsUrl(BaseModel):
    """
    A temporary link to the log of a task of a training job (the logs URL operation's
    answer).
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    obs_url: StrictStr | None = None
    """
    Temporary OBS URL of the complete log, valid for 5 minutes. It carries a signed
    temporary credential in its query string: whoever holds it reads the log.
    """


__all__ = [
    "ShowObsUrlOfTrainingJobLogsParameters",
    "TaskLogObsUrl",
]
