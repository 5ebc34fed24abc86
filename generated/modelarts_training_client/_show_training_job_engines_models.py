"""The models only ``show_training_job_engines`` of the ModelArts training jobs API uses
(modelarts-kit; do not edit).

They are loaded with its first call: import them from ``models`` or the package (this module's
name is not part of the API)."""

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr


class ImageInfo(BaseModel):
    """
    Images of a preset engine.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    cpu_image_url: StrictStr | None = None
    """
    Image used with CPU flavors.
    """
    gpu_image_url: StrictStr | None = None
    """
    Image used with GPU flavors (may be empty).
    """
    image_version: StrictStr | None = None
    """
    Image version.
    """


class ShowTrainingJobEnginesParameters(BaseModel):
    """
    The parameters of ``show_training_job_engines``.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    project_id: Annotated[StrictStr, Field(min_length=1, pattern="^[A-Za-z0-9_-]+$")]


class Engine(BaseModel):
    """
    A preset AI engine (framework) training jobs can use.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    engine_id: StrictStr | None = None
    """
    Engine ID, for example `caffe-1.0.0-python2.7`.
    """
    engine_name: StrictStr | None = None
    """
    Engine name, for example `Caffe`.
    """
    engine_version: StrictStr | None = None
    """
    Engine version. An engine name has several versions, for example
    `Caffe-1.0.0-python2.7` for Python 2.7.
    """
    v1_compatible: StrictBool | None = None
    """
    Whether the v1 compatibility mode is used.
    """
    run_user: StrictStr | None = None
    """
    UID of the user the engine starts as by default (may be empty).
    """
    image_info: ImageInfo | None = None


class TrainingJobEngines(BaseModel):
    """
    The preset AI engines of training jobs (the engines operation's answer).
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    total: StrictInt | None = None
    """
    Total number of engines.
    """
    items: list[Engine] | None = None
    """
    The engines.
    """


__all__ = [
    "Engine",
    "ImageInfo",
    "ShowTrainingJobEnginesParameters",
    "TrainingJobEngines",
]
