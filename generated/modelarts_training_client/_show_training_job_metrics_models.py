"""The models only ``show_training_job_metrics`` of the ModelArts training jobs API uses
(modelarts-kit; do not edit).

They are loaded with its first call: import them from ``models`` or the package (this module's
name is not part of the API)."""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr


class MetricObject(BaseModel):
    """
    One running metric of a task, sampled every minute.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    metric: (
        Literal["cpuUsage", "memUsage", "gpuUtil", "gpuMemUsage", "npuUtil", "npuMemUsage"]
        | StrictStr
        | None
    ) = None
    """
    Running metric: `cpuUsage` (CPU usage), `memUsage` (physical memory usage),
    `gpuUtil` (GPU usage), `gpuMemUsage` (GPU memory usage), `npuUtil` (NPU usage) or
    `npuMemUsage` (NPU memory usage).
    """
    value: list[float] | None = None
    """
    Values of the metric, one average per minute; `-1` where there is no value.
    """


class ShowTrainingJobMetricsParameters(BaseModel):
    """
    The parameters of ``show_training_job_metrics``.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    project_id: Annotated[StrictStr, Field(min_length=1, pattern="^[A-Za-z0-9_-]+$")]
    training_job_id: Annotated[StrictStr, Field(min_length=1, pattern="^[A-Za-z0-9_-]+$")]
    task_id: Annotated[StrictStr, Field(min_length=1)]


class TaskMetrics(BaseModel):
    """
    The running metrics of a task of a training job (the metrics operation's answer).
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    metrics: list[MetricObject] | None = None
    """
    Running metrics.
    """


__all__ = [
    "MetricObject",
    "ShowTrainingJobMetricsParameters",
    "TaskMetrics",
]
