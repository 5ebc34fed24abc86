"""The models only ``list_training_jobs`` of the ModelArts training jobs API uses (modelarts-kit;
do not edit).

They are loaded with its first call: import them from ``models`` or the package (this module's
name is not part of the API)."""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from .models import (
    JobResponse,
)


class ListTrainingJobsParameters(BaseModel):
    """
    The parameters of ``list_training_jobs``.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    project_id: Annotated[StrictStr, Field(min_length=1, pattern="^[A-Za-z0-9_-]+$")]


class ListTrainingJobsResponse(BaseModel):
    """
    One page of the training jobs that meet the search criteria.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    total: StrictInt | None = None
    """
    Total number of training jobs of the current user.
    """
    count: StrictInt | None = None
    """
    Number of training jobs that meet the search criteria.
    """
    limit: StrictInt | None = None
    """
    Number of jobs on each page, 1 to 50.
    """
    offset: StrictInt | None = None
    """
    Page of the jobs returned, from 0 (the first page).
    """
    sort_by: StrictStr | None = None
    """
    Field by which the jobs are sorted. `create_time` by default.
    """
    order: Literal["desc", "asc"] | StrictStr | None = None
    """
    Order of the jobs: `desc` (descending, the default) or `asc` (ascending). Documented
    values: desc, asc.
    """
    group_by: StrictStr | None = None
    """
    Condition by which the jobs are grouped.
    """
    workspace_id: StrictStr | None = None
    """
    Workspace where the jobs are located. The default value is `0`.
    """
    ai_project: StrictStr | None = None
    """
    AI project the jobs belong to. The default value is `default-ai-project`.
    """
    train_type: StrictStr | None = None
    """
    No documentation page mentions it; the vendor SDK's response model
    `ListTrainingJobsResponse` (huaweicloudsdkmodelarts 3.1.219) declares `train_type`
    as `str`. Optional: a service that does not send it still conforms.
    """
    items: list[JobResponse] | None = None
    """
    The training jobs of this page, each as the show operation returns it.
    """


__all__ = [
    "ListTrainingJobsParameters",
    "ListTrainingJobsResponse",
]
