"""The models only ``list_training_job_events`` of the ModelArts training jobs API uses
(modelarts-kit; do not edit).

They are loaded with its first call: import them from ``models`` or the package (this module's
name is not part of the API)."""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr


class Event(BaseModel):
    """
    An event of a training job.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    message: StrictStr | None = None
    """
    Event message.
    """
    level: Literal["Info", "Error", "Warning"] | StrictStr | None = None
    """
    Event severity: `Info`, `Error` or `Warning`.
    """
    time: StrictStr | None = None
    """
    When the event occurred, for example `2022-11-26T16:03:41+08:00`.
    """
    source: Literal["K8S", "Job", "Task"] | StrictStr | None = None
    """
    Event source: `K8S`, `Job` or `Task`.
    """


class ListTrainingJobEventsParameters(BaseModel):
    """
    The parameters of ``list_training_job_events``.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    project_id: Annotated[StrictStr, Field(min_length=1, pattern="^[A-Za-z0-9_-]+$")]
    training_job_id: Annotated[StrictStr, Field(min_length=1, pattern="^[A-Za-z0-9_-]+$")]
    offset: Annotated[StrictInt, Field(ge=0)] = 0
    limit: Annotated[StrictInt, Field(ge=1, le=100)] = 50
    order: Literal["asc", "desc"] | None = None
    start_time: StrictStr | None = None
    end_time: StrictStr | None = None
    level: Literal["Info", "Error", "Warning"] | None = None
    pattern: Annotated[StrictStr | None, Field(max_length=256)] = None
    source: Literal["K8S", "Job", "Task"] | None = None
    X_Language: Annotated[StrictStr | None, Field(alias="X-Language")] = None


class TrainingJobEvents(BaseModel):
    """
    One page of the events of a training job (the events operation's answer).
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    total: StrictInt | None = None
    """
    Total number of events (of every page).
    """
    limit: StrictInt | None = None
    """
    Maximum number of events on this page.
    """
    offset: StrictInt | None = None
    """
    Offset of the first event of this page.
    """
    order: StrictStr | None = None
    """
    Order of the events by time, `desc` or `asc`.
    """
    start_time: StrictStr | None = None
    """
    Start of the time window, for example `2022-11-26T16:01:36+08:00`.
    """
    end_time: StrictStr | None = None
    """
    End of the time window, for example `2022-11-29T16:53:11+08:00`.
    """
    events: list[Event] | None = None
    """
    The events of this page.
    """


__all__ = [
    "Event",
    "ListTrainingJobEventsParameters",
    "TrainingJobEvents",
]
