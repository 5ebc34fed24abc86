"""The models only ``show_training_job_logs_preview`` of the ModelArts training jobs API uses
(modelarts-kit; do not edit).

They are loaded with its first call: import them from ``models`` or the package (this module's
name is not part of the API)."""

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr


class ShowTrainingJobLogsPreviewParameters(BaseModel):
    """
    The parameters of ``show_training_job_logs_preview``.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    project_id: Annotated[StrictStr, Field(min_length=1, pattern="^[A-Za-z0-9_-]+$")]
    training_job_id: Annotated[StrictStr, Field(min_length=1, pattern="^[A-Za-z0-9_-]+$")]
    task_id: Annotated[StrictStr, Field(min_length=1)]


class TaskLogPreview(BaseModel):
    """
    The log of a task of a training job, or its latest part (the logs preview
    operation's answer).
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    content: StrictStr | None = None
    """
    Log content: the whole log if it does not exceed the size limit, otherwise its
    latest part. Called `context` before 2022-03-01 00:00:00 (GMT+08:00).
    """
    current_size: StrictInt | None = None
    """
    Size of the returned log content, in bytes (at most 5 MB).
    """
    full_size: StrictInt | None = None
    """
    Size of the complete log, in bytes.
    """


__all__ = [
    "ShowTrainingJobLogsPreviewParameters",
    "TaskLogPreview",
]
